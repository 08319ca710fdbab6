"""The worked analysis in notebooks/ runs top to bottom."""
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "analysis.ipynb"


def test_notebook_runs_top_to_bottom():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    text = []
    images = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            assert out.output_type != "error", out
            text.append(out.get("text", "") + out.get("data", {}).get("text/plain", ""))
            images += "image/png" in out.get("data", {})
    joined = "\n".join(text)
    assert "10 scanned" in joined and "bad-percent-encoding" in joined
    assert "urn:isbn:9780451450524" in joined and "isbn-10-to-13" in joined
    assert images >= 2
    # the first plot draws a bar of every status its legend names, red ones included
    bars = next(line for line in joined.splitlines() if line.startswith("bars per status:"))
    assert "'unregistered'" in bars and "'formal'" in bars
