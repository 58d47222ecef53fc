"""The code stays formatted and lint-clean under the ruff settings of pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True)


@pytest.mark.parametrize("args", [("check", "--output-format", "concise"), ("format", "--check")])
def test_ruff_finds_nothing(args):
    result = ruff(*args)
    assert result.returncode == 0, result.stdout + result.stderr
