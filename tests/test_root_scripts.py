"""`./tabletop` and `./test` at the root: each is enough on a fresh clone. Here they run in this
environment (TABLETOP_VENV) so that nothing is installed; CI runs `./test` from scratch."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import ROOT

SCRIPTS = ("tabletop", "test")


def run(
    script: Path, *args: str, cwd: Path = ROOT, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`script ARGS` in `cwd`, by default in this environment (nothing installed)."""
    env = {**os.environ, "TABLETOP_VENV": sys.prefix} if env is None else env
    return subprocess.run(
        [str(script), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize("name", SCRIPTS)
def test_the_script_is_an_executable_posix_shell_script(name):
    script = ROOT / name
    assert os.access(script, os.X_OK), f"{name} is not executable"
    assert script.read_text().startswith("#!/bin/sh\n")


@pytest.mark.slow
def test_the_test_script_runs_pytest_with_its_arguments():
    done = run(ROOT / "test", "--collect-only", "-q", "tests/test_root_scripts.py")
    assert done.returncode == 0, done.stderr
    assert "tests/test_root_scripts.py::test_the_test_script_runs_pytest_with_its_arguments" in done.stdout


@pytest.mark.slow
def test_the_tabletop_script_runs_the_tabletop_command_from_any_folder(tmp_path):
    if not (Path(sys.prefix) / "bin" / "tabletop").exists():
        pytest.skip("tabletop is not installed in this environment")
    done = run(ROOT / "tabletop", "up", "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "usage: tabletop up" in done.stdout


@pytest.mark.parametrize("name", SCRIPTS)
def test_on_a_fresh_clone_the_script_makes_its_environment_with_python_3_11(tmp_path, name):
    """The first step on a fresh clone, up to the Python check that guards the install."""
    clone = tmp_path / "clone"
    (clone / ".ci").mkdir(parents=True)
    for path in (name, ".ci/venv.sh"):
        shutil.copy2(ROOT / path, clone / path)
    env = {k: v for k, v in os.environ.items() if k != "TABLETOP_VENV"}
    done = run(clone / name, env={**env, "PYTHON": "false"})
    assert done.returncode == 1
    assert "needs Python 3.11 or newer as `false`" in done.stderr
    assert not (clone / ".venv").exists()
