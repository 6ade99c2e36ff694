// The page that `mechdyn view` writes: viewer/src/index.html and the bundle
// viewer/dist/viewer.js (three.js and viewer/src/*.js, built by esbuild: docs/viewer.md),
// embedded at build time by cmake/embed_viewer.cmake into viewer_assets.cpp.
#pragma once

#include <string>

namespace mechdyn::cli {

std::string viewer_page();
std::string viewer_bundle();

}  // namespace mechdyn::cli
