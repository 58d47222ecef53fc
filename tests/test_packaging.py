"""The package's metadata: an SPDX licence with its file, the Python versions it supports,
the entry point that lets the environments build agents from their specs, the networks it
ships, and (slow, from the package index) a dependency resolution on the oldest and newest
supported Python."""

import json
import os
import re
import shutil
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
tomllib = pytest.importorskip("tomllib")
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
SUPPORTED = ["3.10", "3.11", "3.12", "3.13"]


def built_metadata(tmp_path: Path, name: str = "PKG-INFO") -> str:
    """PKG-INFO (or another file of the egg-info) as setuptools writes it for this pyproject.toml
    (into tmp_path, not the tree)."""
    subprocess.run(
        [sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "egg_info", "--egg-base", str(tmp_path)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return (tmp_path / "tribune_rl.egg-info" / name).read_text()


def test_the_licence_is_an_spdx_expression_with_its_file(tmp_path):
    metadata = built_metadata(tmp_path)
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert not [c for c in PROJECT["classifiers"] if c.startswith("License ::")]  # the expression replaces them


def test_the_package_ships_the_networks_that_play_and_not_their_lineage(tmp_path):
    from agents.trained import POLICIES

    sources = built_metadata(tmp_path, "SOURCES.txt").splitlines()
    shipped = {line for line in sources if line.startswith("agents/trained/") and not line.endswith(".py")}
    assert shipped == {f"agents/trained/{path.name}" for path in POLICIES.values()}


# What the test extra brings beyond test-core, by import name: the full tier's alone.
FULL_TIER_ONLY = ("ray", "torchrl", "tianshou", "pyspiel", "playwright", "nbclient", "nbformat")


def test_the_core_tier_collects_without_what_only_the_full_tier_installs():
    """``pytest -m "not full"`` with the test-core extra alone: no test file needs a package of the
    full tier's extras to be collected (the full tier's files skip)."""
    hidden = "".join(f"sys.modules[{name!r}] = None\n" for name in FULL_TIER_ONLY)
    collect = "pytest.main(['--collect-only', '-q', '-n', '0', '-p', 'no:cacheprovider', '-m', 'not full'])"
    code = f"import sys\n{hidden}import pytest\nsys.exit({collect})\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:]
    assert re.search(r"^tests/test_clarifications\.py: \d+$", done.stdout, re.M)  # the files collected, counted


def test_the_classifiers_name_the_supported_pythons():
    versions = [c.rsplit(" ", 1)[1] for c in PROJECT["classifiers"] if re.fullmatch(r".*Python :: 3\.\d+", c)]
    assert versions == SUPPORTED
    assert PROJECT["requires-python"] == f">={SUPPORTED[0]}"


def test_the_environments_find_the_agents_resolver():
    (resolver,) = entry_points(group="tribune.agents", name="make_agent")
    from agents import make_agent

    assert resolver.load() is make_agent


# What resolves where: on 3.10, the frameworks and openspiel extras do not (tianshou 2 and
# open-spiel 2.0.2 need Python 3.11), so neither does the test extra, which holds them.
RESOLVES = {SUPPORTED[0]: ("train,bench,ray,web", "ray"), SUPPORTED[-1]: ("test", "open-spiel")}


def interpreter(version: str) -> str:
    """That Python: $TRIBUNE_PYTHON3_10 (for 3.10...) or python3.10 on the PATH, if it runs; else skip."""
    for python in (os.environ.get(f"TRIBUNE_PYTHON{version.replace('.', '_')}"), shutil.which(f"python{version}")):
        if python and subprocess.run([python, "-c", "pass"], capture_output=True).returncode == 0:
            return python
    pytest.skip(f"no python{version}: put it on the PATH or name it in $TRIBUNE_PYTHON{version.replace('.', '_')}")


@pytest.mark.slow
@pytest.mark.parametrize("version", sorted(RESOLVES))
def test_the_extras_resolve_on_the_oldest_and_newest_python(version, tmp_path):
    """pip's resolver on that Python, installing nothing; needs the package index. By hand,
    from the repository:
    ``python3.10 -m pip install --dry-run --ignore-installed --report - ".[train,bench,ray,web]"``."""
    python = interpreter(version)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tmp_path / name)
    extras, among = RESOLVES[version]
    report = tmp_path / "report.json"
    command = [python, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet", "--report", str(report)]
    done = subprocess.run([*command, f"{tmp_path}[{extras}]"], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    resolved = {
        re.sub(r"[-_.]+", "-", item["metadata"]["name"]).lower() for item in json.loads(report.read_text())["install"]
    }
    assert {"tribune-rl", "numba", "pettingzoo", "stable-baselines3", among} <= resolved
