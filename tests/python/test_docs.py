# Every ```python block of docs/python.md runs, in order, in one namespace, from a
# directory holding the repository's tests/ and examples/ (links): catches a tour that
# no longer runs (a renamed function, a changed return shape) — the page stays true.
import os
import re

import mechdyn


def test_python_page_runs(source, tmp_path, monkeypatch):
    text = (source / "docs" / "python.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
    assert len(blocks) >= 8
    for name in ("tests", "examples"):
        os.symlink(source / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    for k, block in enumerate(blocks):
        exec(compile(block, "docs/python.md block %d" % (k + 1), "exec"), namespace)
    # What the tour promises to leave behind.
    assert (tmp_path / "tour_wam.png").stat().st_size > 10000
    assert (tmp_path / "sweep.csv").read_text().startswith("sample,status,")
    assert isinstance(namespace["result"], mechdyn.sweep.SweepResult)
    assert len(namespace["finals"]) == 2
