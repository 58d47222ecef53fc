"""The layers depend downward only (docs/architecture.md, "Layers").

engine (``tribune_env``) <- adapters (``tribune_env.envs``) <- agents (``agents``) <- training
(``training``) <- the ``tribune`` command (``training.cli``), which nothing imports. Every
import of every module is read with ``ast``, at the top of the module and inside functions.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tribune_env", "agents", "training")
LAYERS = ("engine", "adapters", "agents", "training", "cli")
HEAVY = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "ray", "agents", "training")


def layer(module: str) -> str | None:
    """The layer of a dotted module name of the project; None for any other module."""
    top = module.split(".")[0]
    if module == "tribune_env.envs" or module.startswith("tribune_env.envs."):
        return "adapters"
    if module == "training.cli" or module.startswith("training.cli."):
        return "cli"
    return {"tribune_env": "engine", "agents": "agents", "training": "training"}.get(top)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path, at_import: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module) for every import in the file, wherever it stands; with
    `at_import`, those that run when the module is imported (outside functions and classes)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    tree = ast.parse(path.read_text(), str(path))
    for node in _module_level(tree) if at_import else ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            # `from package import module` imports the module: judge each name as one
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _module_level(tree):
    """The statements a module runs when imported: its body, into if/try/with blocks, not into definitions."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stack += [child for child in ast.iter_child_nodes(node) if isinstance(child, ast.stmt | ast.excepthandler)]


def circles(files) -> list[list[str]]:
    """The import circles among the project's modules, counting the imports that run at import
    time: each a list of modules that import one another, in turn."""
    names = {module_name(path): path for path in files}
    graph = {}
    for name, path in names.items():
        targets = {target if target in names else target.rpartition(".")[0] for _, target in imports(path, True)}
        graph[name] = sorted(targets & set(names) - {name})
    found, done = [], set()
    for start in sorted(graph):  # a depth-first walk from each module; a path back to it is a circle
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for target in graph[node]:
                if target == start:
                    found.append(path)
                elif target not in path and target not in done:
                    stack.append((target, [*path, target]))
        done.add(start)
    return found


def modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def upward_imports(files) -> list[str]:
    """Every import of a higher layer than the importing module's own."""
    wrong = []
    for path in files:
        here = layer(module_name(path))
        for line, target in imports(path):
            there = layer(target)
            if there is not None and LAYERS.index(there) > LAYERS.index(here):
                wrong.append(f"{path.relative_to(ROOT)}:{line} ({here}) imports {target} ({there})")
    return wrong


def cli_importers(files) -> list[str]:
    """Every module outside the command that imports it."""
    return [
        f"{path.relative_to(ROOT)}:{line} imports {target}"
        for path in files
        if layer(module_name(path)) != "cli"
        for line, target in imports(path)
        if layer(target) == "cli"
    ]


def loaded_after(code: str) -> list[str]:
    """The heavy packages in sys.modules after running `code` in a fresh interpreter."""
    check = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_every_module_has_a_layer():
    assert modules() and all(layer(module_name(p)) for p in modules())


def test_no_layer_imports_a_higher_one():
    assert upward_imports(modules()) == []


def test_nothing_imports_the_command():
    assert cli_importers(modules()) == []


def test_no_engine_module_imports_an_adapter_library():
    """Not even inside a function: the engine's users need none of them (the Gymnasium space is the adapters')."""
    libraries = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib", "ray")
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {target}"
        for path in modules()
        if layer(module_name(path)) == "engine"
        for line, target in imports(path)
        if target.split(".")[0] in libraries
    ]
    assert found == []


def test_no_modules_import_one_another():
    """Import order never decides what works: no module is half-made when another reads it."""
    assert circles(modules()) == []


def test_the_circle_check_sees_a_circle(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    package = tmp_path / "agents"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("try:\n    from .c import x\nexcept ImportError:\n    pass\n")
    (package / "c.py").write_text("from agents.a import y\ndef later():\n    from . import b\n")
    found = circles(sorted(package.glob("*.py")))
    assert ["agents.a", "agents.b", "agents.c"] in found and all(len(circle) == 3 for circle in found)


def test_the_checks_see_an_upward_import(tmp_path, monkeypatch):
    """The checks above can fail: an engine module importing the adapters, and one importing the command."""
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    bad = tmp_path / "tribune_env" / "wrong.py"
    bad.parent.mkdir()
    bad.write_text("def later():\n    from .envs import VectorEnv\n    from training import cli\n")
    assert len(upward_imports([bad])) == 2 and len(cli_importers([bad])) == 1


def test_the_engine_loads_no_adapter_agent_or_training():
    assert (
        loaded_after(
            "from tribune_env import Game, PlayerView\nimport numpy as np\n"
            "game = Game(3, seed=1)\nrng = np.random.default_rng(0)\n"
            "for _ in range(50):\n"
            "    game.observe(game.current_player)\n"
            "    game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))\n"
        )
        == []
    )


def test_the_agents_load_no_training():
    loaded = loaded_after(
        "import agents, agents.heuristic, agents.ismcts, agents.model, agents.human\nagents.make_agent('heuristic')"
    )
    assert "agents" in loaded and "training" not in loaded and "ray" not in loaded


def test_only_the_rllib_adapter_loads_ray():
    """The environments load Ray only when the RLlib one is asked for (the ray extra is optional)."""
    code = "import tribune_env.envs as envs\nenvs.SingleAgentEnv(num_players=3).reset(seed=0)\nenvs.env(num_players=2)"
    assert "ray" not in loaded_after(code)
    pytest.importorskip("ray")  # the ray extra, which the RLlib adapter needs
    assert "ray" in loaded_after("from tribune_env.envs import TribuneMultiAgentEnv")


@pytest.mark.parametrize("code", ["import gymnasium", "import training"])
def test_the_subprocess_check_sees_a_heavy_import(code):
    assert loaded_after(code)
