"""Each compiled package caches under its own key: its sources and the keys of the packages it calls."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def keys(root: Path, cache: Path) -> tuple[str, str]:
    """The engine's and the agents' cache keys, as the packages under `root` compute them (caching in `cache`)."""
    code = "import agents.compiled, tribune_env._compiler; print(tribune_env._compiler.ENGINE_KEY, agents.compiled.KEY)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=600,
        env={**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache)},
    )
    assert result.returncode == 0, result.stderr
    engine, agents = result.stdout.split()
    return engine, agents


def test_an_agents_edit_changes_the_agents_key_only_and_an_engine_edit_both(tmp_path):
    for package in ("tribune_env", "agents"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "*.zip"))
    engine, agents = keys(tmp_path, tmp_path / "cache")
    assert keys(ROOT, tmp_path / "cache") == (engine, agents)  # the copies are the packages in use

    with open(tmp_path / "agents" / "reading.py", "a") as f:
        f.write("# an edit\n")
    edited_engine, edited_agents = keys(tmp_path, tmp_path / "cache")
    assert edited_engine == engine and edited_agents != agents

    with open(tmp_path / "tribune_env" / "core" / "dispatch.py", "a") as f:
        f.write("# an edit\n")
    assert all(new != old for new, old in zip(keys(tmp_path, tmp_path / "cache"), (edited_engine, edited_agents)))


PROBE = """
from tribune_env._compiler import Compiler

twice = Compiler("probe", "key").entry(lambda x: 2 * x)
twice(3)
print(sum(twice.stats.cache_hits.values()), sum(twice.stats.cache_misses.values()))
"""


def compiled_in(root: Path, cache: Path) -> tuple[int, int]:
    """(cache hits, cache misses) of a function the project under `root` compiles, caching in `cache`."""
    result = subprocess.run([sys.executable, "probe.py"], capture_output=True, text=True, cwd=root, timeout=600,
                            env={**os.environ, "PYTHONPATH": str(root), "NUMBA_CACHE_DIR": str(cache)})  # fmt: skip
    assert result.returncode == 0, result.stderr
    hits, misses = result.stdout.split()
    return int(hits), int(misses)


def test_clones_of_the_same_sources_share_one_cache_wherever_they_lie(tmp_path):
    clones = [tmp_path / "one", tmp_path / "elsewhere" / "two"]
    for clone in clones:
        shutil.copytree(ROOT / "tribune_env", clone / "tribune_env", ignore=shutil.ignore_patterns("__pycache__"))
        (clone / "probe.py").write_text(PROBE)
    assert compiled_in(clones[0], tmp_path / "cache") == (0, 1)  # compiled and cached
    assert compiled_in(clones[1], tmp_path / "cache") == (1, 0)  # the other clone's compiled code


def test_a_compile_is_announced_once_and_a_cached_start_says_nothing(tmp_path):
    shutil.copytree(ROOT / "tribune_env", tmp_path / "tribune_env", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "tribune_env" / "probe.py").write_text(
        "from tribune_env._compiler import entry\n\nfirst = entry(lambda x: 2 * x)\nsecond = entry(lambda x: 3 * x)\n"
    )
    code = "from tribune_env import probe; probe.first(1); probe.second(1)"

    def started() -> str:
        env = {**os.environ, "PYTHONPATH": str(tmp_path), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
        result = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600
        )
        assert result.returncode == 0, result.stderr
        return result.stderr

    said = started()
    assert said.count("tribune: compiling the engine with numba, once for this version") == 1
    assert str(tmp_path / "cache") in said
    assert started() == ""


def test_collecting_the_suite_compiles_nothing(compiled_while_collecting):
    """Each worker collects every test file: a compile there is done once per worker on a cold cache (CI's)."""
    assert compiled_while_collecting == [], "make what needs compiled code inside the test (a fixture, a lambda)"
