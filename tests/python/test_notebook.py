# examples/python/tour.ipynb executed headless (nbclient, the ipykernel "python3" kernel of
# Debian's /usr/bin/python3): catches a notebook that no longer runs. The notebook finds
# the repository from its working directory (links to tests/ and examples/ here).
import os

import nbclient
import nbformat


def test_tour_notebook_runs(source, tmp_path):
    notebook = nbformat.read(source / "examples" / "python" / "tour.ipynb", as_version=4)
    for name in ("tests", "examples"):
        os.symlink(source / name, tmp_path / name)
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors
    assert (tmp_path / "tour_wam.png").stat().st_size > 10000
    text = "".join(o.get("text", "") for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert "13 samples, 1 failed" in text
