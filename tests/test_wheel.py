"""The built wheel carries its ontology, queries and data and works outside the repo.

The two ``install`` tests build fresh environments from the package index (pip's cache makes
a second run quick); they are left out of the default run and run by ``.ci/run`` with
``pytest -m install``.
"""

import os
import re
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

from anthology_kg import __version__
from anthology_kg.resources import bundled_dir


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of this checkout, built once per module by its build backend (the PEP 517
    hook that ``pip wheel --no-build-isolation`` calls, without pip's own start-up)."""
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from hatchling.build import build_wheel; build_wheel(sys.argv[1])",
            str(dist),
        ],
        cwd=REPO,
        check=True,
    )
    (built,) = dist.glob("anthology_kg-*.whl")
    return built


def test_wheel_ships_data_license_and_type_marker(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "anthology_kg/_bundled/ontology/anthology.ttl" in names
    assert "anthology_kg/_bundled/data/ARXIV-2409.19256.ttl" in names
    assert "anthology_kg/_bundled/queries/confounders.rq" in names
    assert "anthology_kg/_bundled/ontology/shapes/adr-032.ttl" in names
    assert "anthology_kg/py.typed" in names
    assert f"anthology_kg-{__version__}.dist-info/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(wheel).read(f"anthology_kg-{__version__}.dist-info/METADATA")
    assert b"License-Expression: MIT" in metadata
    assert (REPO / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_installed_wheel_finds_bundled_data(wheel, tmp_path):
    site = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-compile",  # compiling every module (~0.15 s of CPU) is not what it checks
            "-q",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
    )
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import anthology_kg, sys; print(anthology_kg.__file__);"
            "from anthology_kg.cli import main; sys.argv=['anthology-kg','stats']; main()",
        ],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    first, *rest = result.stdout.splitlines()
    assert first.startswith(str(site))
    assert "  ARXIV-2409.19256.ttl" in rest


def _clean_env() -> dict[str, str]:
    """The environment without this test run's virtualenv and Python path."""
    return {
        k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")
    }


@pytest.mark.install
def test_wheel_with_its_dependencies_runs_every_command_outside_the_repo(wheel, tmp_path):
    """A plain ``pip install <wheel>`` (no extras) into a fresh venv: every runtime import
    must come from a core dependency."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True)
    extras = subprocess.run(
        [str(python), "-c", "import importlib.util as u; print(u.find_spec('pytest'))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert extras.stdout.strip() == "None", "the fresh venv must hold no test extra"
    tool = str(env_dir / "bin" / "anthology-kg")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def run(*args: str) -> subprocess.CompletedProcess:
        result = subprocess.run(
            [tool, *args], cwd=elsewhere, env=_clean_env(), capture_output=True, text=True
        )
        assert result.returncode == 0, f"{args}: {result.stderr}"
        return result

    assert run("--version").stdout.strip().endswith(__version__)
    # check judges an anthology of the user's: outside one it names the installed sample.
    refused = subprocess.run(
        [tool, "check"], cwd=elsewhere, env=_clean_env(), capture_output=True, text=True
    )
    assert refused.returncode == 2, refused.stderr
    sample = refused.stderr.rstrip(")\n").rsplit("--root ", 1)[1]
    assert Path(sample, "data", "ADR-032.ttl").is_file(), refused.stderr
    assert "conform" in run("--root", sample, "check").stdout.lower()
    assert run("query", "confounders").stdout.strip()
    run("export", "-o", "anthology.ttl")
    assert "id:ARXIV-2409.19256 a ak:Reference ;" in (elsewhere / "anthology.ttl").read_text(
        encoding="utf-8"
    )
    run("site", "-o", "site")
    assert (elsewhere / "site" / "index.html").is_file()


def _git(*args: str, cwd: Path) -> None:
    env = {
        **_clean_env(),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


@pytest.mark.install
def test_pre_commit_hooks_run_with_no_additional_dependencies(tmp_path):
    """``pre-commit try-repo`` installs this repository's hooks as pre-commit does for a
    user (its own venv, ``pip install .``, no ``additional_dependencies``) and runs both
    on an anthology repository. The repository is tried at its current state."""
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    if pre_commit is None:
        pytest.skip("pre-commit is not installed (it is in the test extra)")
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    anthology = tmp_path / "anthology"
    shutil.copytree(bundled_dir() / "data", anthology / "data")
    _git("init", "-q", cwd=anthology)
    _git("add", "data", cwd=anthology)
    _git("commit", "-q", "-m", "anthology", cwd=anthology)
    env = {**_clean_env(), "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}
    for hook in ("anthology-kg-fmt", "anthology-kg-check"):
        result = subprocess.run(
            [pre_commit, "try-repo", str(REPO), hook, "--all-files"],
            cwd=anthology,
            env=env,
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        assert re.search(r"anthology-kg (fmt --check|check)\.+Passed", result.stdout), result.stdout


def _pre_commit_revision() -> tuple[str, str]:
    """The README snippet's ``rev:`` and the version its ``# frozen:`` comment names."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    ((rev, frozen),) = re.findall(r"^\s+rev: (\S+)\s+# frozen: v(\S+)$", readme, flags=re.MULTILINE)
    return rev, frozen


def test_readme_pre_commit_revision_is_a_commit_frozen_at_this_version():
    """The README's snippet pins a full commit id (a tag is only where tags were pushed;
    CI's checkout has none) and its comment names this version."""
    rev, frozen = _pre_commit_revision()
    assert re.fullmatch(r"[0-9a-f]{40}", rev), rev
    assert frozen == __version__


def test_readme_pre_commit_revision_exists_and_holds_the_hooks():
    """pre-commit clones the repository and checks out the snippet's commit: it must be in
    the history, hold the hooks file and carry the version the comment names; where the
    release tag is present, it names the same commit. A shallow checkout may lack it."""
    git = shutil.which("git")
    if git is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    shallow = subprocess.run(
        [git, "-C", str(REPO), "rev-parse", "--is-shallow-repository"],
        capture_output=True,
        text=True,
        check=True,
    )
    if shallow.stdout.strip() == "true":
        pytest.skip("a shallow clone may not hold the pinned commit")
    rev, frozen = _pre_commit_revision()
    hooks = subprocess.run(
        [git, "-C", str(REPO), "cat-file", "-e", f"{rev}^{{commit}}:.pre-commit-hooks.yaml"],
        capture_output=True,
        text=True,
    )
    assert hooks.returncode == 0, f"{rev}: {hooks.stderr}"
    # In the history, not a commit a rebase left behind (review47 #7: an orphan passed).
    ancestor = subprocess.run(
        [git, "-C", str(REPO), "merge-base", "--is-ancestor", rev, "HEAD"],
        capture_output=True,
        text=True,
    )
    assert ancestor.returncode == 0, f"{rev} is not an ancestor of HEAD: {ancestor.stderr}"
    # The hooks the snippet installs are the ones the README describes beside it (hunt21
    # #10: it pinned a commit 533 commits old, whose hooks ran on fewer files).
    pinned = subprocess.run(
        [git, "-C", str(REPO), "show", f"{rev}:.pre-commit-hooks.yaml"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert pinned.stdout == (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"), (
        f"the README's snippet pins {rev}, whose .pre-commit-hooks.yaml is not this one's"
    )
    init = subprocess.run(
        [git, "-C", str(REPO), "show", f"{rev}:anthology_kg/__init__.py"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert f'__version__ = "{frozen}"' in init.stdout
    tag = subprocess.run(
        [git, "-C", str(REPO), "rev-parse", "--verify", "-q", f"refs/tags/v{frozen}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if tag.returncode == 0:
        assert tag.stdout.strip() == rev
