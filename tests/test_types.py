"""The type check (issue 24): mypy, strict, on the public API and the game plugins.

The strict modules are the ``[[tool.mypy.overrides]]`` entry of ``pyproject.toml`` with
``ignore_errors = false`` (the common game API, the plugin registry, the bot protocol, the
OpenSpiel and PettingZoo adapters, the errors, and each game's ``plugin``, ``api`` and
``api_bots``), and the toy third-party plugin ``tests/toy_nim.py``; the rest of the package is
followed, so its types reach those modules, but its own errors are not reported. mypy runs once
per session in a subprocess with the project's config; its incremental cache sits in the temp
folder (keyed by this checkout), so a warm run is about a second.

The repository root is the package ``tanglekit`` (``package-dir``), and an editable install
finds it by an import hook that mypy cannot follow: mypy reads the package through a symlink
named ``tanglekit`` (``MYPYPATH``).
"""

import hashlib
import os
import re
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"

# Deliberate errors against the API (a third party's code): each must be reported, with its line.
SNIPPET = '''\
from typing import Any

from tanglekit.games import load_game
from tanglekit.games.plugin import BotSpec, GamePlugin

state = load_game("qango").new_initial_state()
state.apply_action("x")
total: int = state.returns()


class BadPlugin(GamePlugin):
    family = "bad"

    def bots(self, game_name: int) -> dict[str, BotSpec]:
        return {}
'''
EXPECTED = {
    7: 'Argument 1 to "apply_action" of "State" has incompatible type "str"; expected "int"',
    8: 'Incompatible types in assignment (expression has type "list[float]", variable has type "int")',
    14: 'Argument 1 of "bots" is incompatible with supertype',
}


def strict_modules() -> list[str]:
    """The modules ``pyproject.toml`` checks strictly (its override with ``ignore_errors = false``)."""
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["mypy"]
    (entry,) = [o for o in config["overrides"] if o.get("ignore_errors") is False]
    return list(entry["module"])


def _work_dir() -> Path:
    """A folder in the temp dir for this checkout: ``tanglekit`` (a symlink to the repository
    root, the package) and mypy's cache; the same folder every run, so the cache stays warm."""
    key = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    work = Path(tempfile.gettempdir()) / f"tanglekit-mypy-{key}"
    work.mkdir(exist_ok=True)
    link = work / "tanglekit"
    if not link.is_symlink() or link.resolve() != ROOT:
        tmp = work / f"tanglekit.{os.getpid()}"
        try:
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(ROOT, target_is_directory=True)
        except OSError as e:  # a system without symlinks for this user
            pytest.skip(f"no symlink for mypy's view of the package: {e}")
        os.replace(tmp, link)  # atomic: a parallel run sees the old link or the new one
    return work


@pytest.fixture(scope="module")
def mypy_run(tmp_path_factory):
    """mypy on the strict modules, the toy plugin and the snippet, in one run: (the snippet's file name, mypy's
    output lines, its stderr)."""
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")
    work = _work_dir()
    here = tmp_path_factory.mktemp("mypy")
    snippet = here / "third_party_snippet.py"
    snippet.write_text(SNIPPET, encoding="utf-8")
    args = [sys.executable, "-m", "mypy", "--config-file", str(PYPROJECT), "--cache-dir", str(work / "cache"),
            "--no-error-summary", "--hide-error-context", "--no-pretty", "--no-color-output"]
    for m in [*strict_modules(), "toy_nim", snippet.stem]:
        args += ["-m", m]
    env = {**os.environ, "MYPYPATH": os.pathsep.join([str(work), str(ROOT / "tests"), str(here)])}
    env.pop("MYPY_FORCE_COLOR", None)
    r = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode in (0, 1), f"mypy crashed (exit {r.returncode}):\n{r.stdout}\n{r.stderr}"
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    return snippet.name, lines, r.stderr


def test_the_public_api_and_the_plugins_are_strict_clean(mypy_run):
    snippet, lines, stderr = mypy_run
    ours = [ln for ln in lines if snippet not in ln]
    assert not ours, ("mypy --strict reports errors in the public API / plugins (pyproject.toml's "
                      "[tool.mypy]) or the toy plugin:\n" + "\n".join(ours) + ("\n" + stderr if stderr else ""))


def test_a_type_error_against_the_api_is_reported(mypy_run):
    """The check bites: a third party's wrong calls and a plugin's wrong override are errors."""
    snippet, lines, _ = mypy_run
    found: dict[int, list[str]] = {}
    for ln in lines:
        m = re.search(re.escape(snippet) + r":(\d+): error: (.*)", ln)
        if m:
            found.setdefault(int(m.group(1)), []).append(m.group(2))
    for line, text in EXPECTED.items():
        assert any(text in msg for msg in found.get(line, [])), (
            f"mypy missed the deliberate error on line {line} ({text}); it said:\n" + "\n".join(lines))


def test_every_game_plugin_and_api_module_is_strict():
    """A new game's plugin.py / api.py / api_bots.py joins the strict list in pyproject.toml."""
    strict = set(strict_modules())
    games = ROOT / "games"
    want = {f"tanglekit.games.{p.parent.name}.{p.stem}" for name in ("plugin.py", "api.py", "api_bots.py")
            for p in games.glob(f"*/{name}")}
    want |= {"tanglekit.games.api", "tanglekit.games.plugin", "tanglekit.play.bots", "tanglekit.errors"}
    assert want <= strict, f"not in pyproject.toml's strict mypy modules: {sorted(want - strict)}"
