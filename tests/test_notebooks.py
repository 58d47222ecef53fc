"""The notebooks run end to end, with their parameters cells swapped for small budgets."""

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
BUDGETS = {
    "01_quick_start.ipynb": "SEED = 3\nPLAYERS = 3",
    "02_training_and_evaluation.ipynb": (
        "STEPS = 1024\nIMITATION_GAMES = 4\nEVAL_GAMES = 4\nNUM_ENVS = 8\nWORKERS = 1\nOUT = 'runs/notebook'"
    ),
    "03_strategy_study.ipynb": "GAMES = 8\nWORKERS = 1",
}


def test_every_notebook_has_a_small_budget():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(BUDGETS)


@pytest.mark.parametrize("name", sorted(BUDGETS))
def test_notebook_runs(name, tmp_path):
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    parameters = [c for c in notebook.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(parameters) == 1, "each notebook has one cell tagged 'parameters'"
    parameters[0].source = BUDGETS[name]
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    errors = [
        o for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"
    ]
    assert not errors
    images = [
        o
        for c in notebook.cells
        if c.cell_type == "code"
        for o in c.get("outputs", [])
        if "image/png" in o.get("data", {})
    ]
    assert (
        len(images)
        == {"01_quick_start.ipynb": 0, "02_training_and_evaluation.ipynb": 1, "03_strategy_study.ipynb": 3}[name]
    )
