"""Builds the wheel's extension module with the project's CMake (pyproject.toml).

The extension mechdyn._mechdyn is the CMake target mechdyn_python (python/CMakeLists.txt),
configured for the interpreter running this build, Release, without tests, benchmarks and the
command-line tool (the module links only the library);
the pure-Python files come from python/mechdyn/.
"""
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = pathlib.Path(self.get_ext_fullpath(ext.name)).resolve()
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        jobs = os.environ.get("MECHDYN_JOBS", str(os.cpu_count() or 2))
        subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                        "-DMECHDYN_BUILD_TESTS=OFF", "-DMECHDYN_BUILD_BENCHMARKS=OFF", "-DMECHDYN_BUILD_APPS=OFF",
                        "-DMECHDYN_BUILD_PYTHON=ON", "-DMECHDYN_PYTHON_EXECUTABLE=" + sys.executable], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "mechdyn_python", "-j", jobs], check=True)
        built = next((build / "python" / "mechdyn").glob("_mechdyn*.so"))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)


setup(
    packages=["mechdyn"],
    package_dir={"": "python"},
    ext_modules=[CMakeExtension("mechdyn._mechdyn")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": "build-wheel"}},
    zip_safe=False,
)
