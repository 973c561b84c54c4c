"""Every documented command runs as written: the `tanglekit ...` examples of README.md and
docs/*.md (code blocks, command tables, and prose "Example: `...`") are executed in-process, page
by page in a temporary folder holding a copy of examples/, in the order a reader meets them (a
command may read what an earlier one on the same page wrote). Synopsis lines (`[--json]`,
`A|B`, placeholders) are not examples and are left out. Interactive commands run with no input:
they show the first position and end at the end of input. The test fails when the docs and the
program drift apart; shipped example files must equal what examples/make_examples.py writes.
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = ROOT / "examples"

# Commands not run (by how they start), with the reason: keep this list short and explicit.
SKIP = {"tanglekit serve": "starts a web server that runs until stopped (tests/test_web_api.py and test_web_browser.py drive it)"}
# Commands that need an optional extra: skipped when its module is not installed.
EXTRAS = {"--executor dask": "dask.distributed", "--executor ray": "ray"}
# Commands run without optional packages they would use when installed (by how they start), as
# `.ci/run` runs them (it installs the `test` and `interop` extras, not `bench`): the `bench`
# extra's comparison tools cost ~30 s of CPU in `bench exact_cover --quick`;
# tests/test_bench_startup.py runs them (their rows against ours on small problems, and the
# documented command with them, slow).
WITHOUT = {"tanglekit bench": ("xcover", "exact_cover_py", "exact_cover")}


@dataclass(frozen=True)
class DocCommand:
    page: str
    line: int
    text: str

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}:{self.text[10:60]}"

    def argvs(self) -> list[list[str]]:
        """The command's argument lists (a `&&` chain gives several), without `tanglekit`."""
        out = []
        for part in self.text.split("&&"):
            words = shlex.split(part)  # a trailing `> FILE` stays in: the runner writes stdout there
            assert words and words[0] == "tanglekit", f"{self.id}: not a tanglekit command"
            out.append(words[1:])
        return out


def _unquoted(text: str) -> str:
    return re.sub(r"'[^']*'|\"[^\"]*\"", "''", text)


def is_synopsis(text: str) -> bool:
    """A usage line (`tanglekit zinga odds [--json]`, `GAME|ID`, `N`), not a runnable example."""
    bare = _unquoted(text)
    return ("[" in bare or "|" in bare or "..." in bare
            or any(re.fullmatch(r"[A-Z][A-Z0-9_]*(\.[a-z]+)?", w) for w in bare.split()[1:]))


def _strip_comment(line: str) -> str:
    return re.sub(r"\s+#(\s.*)?$", "", line).strip()


def extract(path: Path) -> list[DocCommand]:
    """The runnable `tanglekit ...` examples of one page, in page order."""
    found: list[DocCommand] = []
    fence = None
    previous = ""
    header: list[str] = []  # the cells of the current table's header row
    column = None  # the table's example column ("example", else "command"), or None
    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        lead, previous = previous, raw
        line = raw.strip()
        if line.startswith("```"):
            fence = None if fence is not None else line[3:].strip()
            continue
        candidates = []
        if fence is not None:
            if fence in ("", "sh", "bash", "shell", "console"):
                text = line[2:] if line.startswith("$ ") else line
                if text.startswith("tanglekit "):
                    candidates.append(_strip_comment(text))
        else:
            if line.startswith("|"):
                cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip("|"))]
                if re.fullmatch(r"\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*", line):
                    names = [h.lower() for h in header]
                    column = names.index("example") if "example" in names else (
                        names.index("command") if "command" in names else None)
                    continue
                header = cells
                if column is not None and column < len(cells):
                    candidates += [m.group(1).strip() for m in re.finditer(r"`(tanglekit [^`]+)`", cells[column])]
            else:
                column = None
                for m in re.finditer(r"`(tanglekit [^`]+)`", raw):
                    before = raw[: m.start()]
                    if re.search(r"Example:\s*$", before) or (not before.strip() and re.search(r"Example:\s*$", lead)):
                        candidates.append(m.group(1).strip())
        for text in candidates:
            if not is_synopsis(text):
                found.append(DocCommand(path.name, n, text))
    return found


def all_commands() -> list[DocCommand]:
    return [c for page in PAGES for c in extract(page)]


# What some commands must have done beyond exiting 0, by exact command text: f(folder, stdout).
def _demo_made_every_step(folder: Path, out: str, pictures: str) -> None:
    """The demo's checks (tests/test_cli.py runs it again in a fresh process, slow): each area in
    order, the published tiling counts, and its pictures (well-formed SVG)."""
    import xml.etree.ElementTree as ET

    areas = ["shapes", "tile", "zangle", "tanglung", "qango", "zinga", "tangle"]
    at = [out.find(f"$ tanglekit {a} ") for a in areas]
    assert -1 not in at and at == sorted(at), dict(zip(areas, at))
    assert "up to symmetry: 156" in out and "up to symmetry: 2339" in out  # hexiamonds 6x6, pentominoes 6x10
    svgs = list((folder / pictures).glob("*.svg"))
    assert len(svgs) >= 8, svgs
    for svg in svgs:
        ET.parse(svg)


def _log_is_a_tanglung_solo_game(folder: Path, out: str) -> None:
    """The play log written by `--log` (tests/test_play.py ran play.md's commands again for this)."""
    assert json.loads((folder / "game.json").read_text(encoding="utf-8"))["game"] == "tanglung-solo"


CHECKS = {
    "tanglekit play 'tanglung:solo,easy#1' --log game.json": _log_is_a_tanglung_solo_game,
    "tanglekit demo": lambda folder, out: _demo_made_every_step(folder, out, "tanglekit-demo"),
    "tanglekit demo --out pictures": lambda folder, out: _demo_made_every_step(folder, out, "pictures"),
}


# --- the extractor itself -------------------------------------------------------------------


def test_extractor_finds_examples_and_leaves_synopses_out():
    cmds = all_commands()
    texts = [c.text for c in cmds]
    assert len(cmds) >= 60, len(cmds)
    assert {c.page for c in cmds} >= {"README.md", "qango.md", "tangle.md", "tanglung.md", "zangle.md", "zinga.md", "play.md"}
    assert "tanglekit zinga analyze default --json" in texts  # a prose "Example:"
    assert "tanglekit tanglung solo generate --difficulty easy --seed 1" in texts  # comment stripped
    assert not any(is_synopsis(t) for t in texts)
    assert is_synopsis("tanglekit zinga odds [--json]") and is_synopsis("tanglekit replay LOG")
    assert not is_synopsis("tanglekit qango puzzle solve qango:6:k3#1")
    assert DocCommand("x", 1, "tanglekit zinga game --out g.json && tanglekit zinga replay g.json").argvs() == [
        ["zinga", "game", "--out", "g.json"], ["zinga", "replay", "g.json"]]


# --- running them ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def page_folders(tmp_path_factory):
    """One working folder per page (with a copy of examples/), shared by that page's commands."""
    folders: dict[str, Path] = {}

    def folder(page: str) -> Path:
        if page not in folders:
            f = tmp_path_factory.mktemp(page.replace(".", "_"))
            shutil.copytree(EXAMPLES, f / "examples")
            folders[page] = f
        return folders[page]

    return folder


def _run(argv: list[str], monkeypatch, capsys) -> tuple[int, str, str]:
    from tanglekit.cli import app
    from tanglekit.cli_common import execute

    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # interactive commands end at end of input
    code = execute(app, argv)
    out, err = capsys.readouterr()
    return code, out, err


def _last_json(out: str):
    """The JSON document a command printed: all of stdout, or its last line."""
    try:
        return json.loads(out)
    except json.JSONDecodeError:
        return json.loads(out.strip().splitlines()[-1])


# Commands run only in the slow run (the default run's CPU budget), with the reason; each is still
# run by this test there. Also slow: a command whose exact text an earlier page or line already
# runs, when it names no file (the same command twice checks nothing new; one that reads or writes
# a file may depend on, or feed, the commands of its own page).
SLOW = {
    "tanglekit demo": "15 commands (8 s); tests/test_cli.py checks by default that each step is a valid "
                      "command, and commands of each kind run here as the docs' own examples",
    "tanglekit demo --out pictures": "the quick start's `tanglekit demo` runs the same demo by default",
    "tanglekit qango solve empty --board 6 --proof qango6.json":
        "an 18 k-position certificate (2 s); tests/test_qango*.py write and check smaller ones by default",
    "tanglekit qango verify-proof qango6.json": "checks the certificate of the command above (2 s)",
    "tanglekit zinga sheets generate --seed 1 --count 2 --games 0 --attempts 1 --tune 0 --effort 0.5 --svg pads/":
        "CP-SAT sheet generation (2 s); tests/test_zinga_gen.py generates sets by default",
    "tanglekit qango board generate --width 6 --height 6 --seed 4 --out myboard.json --svg myboard.svg":
        "board generation and its empty-board solve (2 s); tests/test_qango_solver.py generates boards by default",
    "tanglekit qango board generate --width 6 --height 6 --seed 2 --svg b.svg":
        "board generation and its empty-board solve (2 s); tests/test_qango_solver.py generates boards and solves "
        "the empty QANGO 6 by default",
    "tanglekit tanglung census --workers 2 --checkpoint census-full.json --time-limit 1 --json":
        "runs to its 1 s time limit (2.5 s with start-up); tests/test_tanglung_cli.py runs `census --checkpoint "
        "--json` on a sample and tests/test_executors.py checks that a time limit keeps the checkpoint",
    "tanglekit tile --region rect:10x6 --pieces pentominoes --count --executor local --checkpoint p6x10.json":
        "the README's 10x6 count again, through the executor (1.5 s); tests/test_executors.py runs "
        "`tile --count --executor local --checkpoint` on 5x4 by default",
    "tanglekit zinga analyze default --json":
        "the README's `zinga analyze default` runs by default and tests/test_zinga_cli.py checks `analyze default "
        "--json` (1.4 s)",
}
WRITES = ("--out", "--svg", "--log", "--proof", "--checkpoint", "--save", "--booklet", "--record", ">")


def _params() -> list:
    seen: set[str] = set()
    out = []
    for c in all_commands():
        words = c.text.split()
        files = any(w in words for w in WRITES) or any(re.search(r"\.(json|jsonl|gz|txt|csv|html|svg)$", w)
                                                      for w in words)
        again = c.text in seen and not files  # a command naming a file may depend on its page's earlier ones
        seen.add(c.text)
        slow = c.text in SLOW or again
        out.append(pytest.param(c, id=c.id, marks=pytest.mark.slow if slow else ()))
    return out


def test_slow_list_names_documented_commands():
    texts = {c.text for c in all_commands()}
    assert set(SLOW) <= texts, set(SLOW) - texts


@pytest.mark.parametrize("cmd", _params())
def test_documented_command_runs_as_written(cmd: DocCommand, page_folders, monkeypatch, capsys):
    for start, reason in SKIP.items():
        if cmd.text == start or cmd.text.startswith(start + " "):
            pytest.skip(reason)
    for flag, module in EXTRAS.items():
        if flag in cmd.text and importlib.util.find_spec(module.split(".")[0]) is None:
            pytest.skip(f"needs the optional extra {module}")
    for start, modules in WITHOUT.items():
        if cmd.text == start or cmd.text.startswith(start + " "):
            for module in modules:  # `import module` raises ImportError, as when not installed
                monkeypatch.setitem(sys.modules, module, None)
    monkeypatch.chdir(page_folders(cmd.page))
    monkeypatch.setenv("COLUMNS", "100")
    # worker pools run in this process: the commands' options and output are what this test checks;
    # tests/test_executors.py checks that pools give the serial answers
    monkeypatch.setattr("tanglekit.solver.parallel.default_workers", lambda: 1)
    from tanglekit.generators import executors

    one_worker = executors._map_local  # its own serial path, whatever --workers asks for
    monkeypatch.setattr(executors, "_map_local", lambda fn, tasks, workers: one_worker(fn, tasks, 1))
    for argv in cmd.argvs():
        target = None
        if len(argv) >= 2 and argv[-2] == ">":  # `... > FILE`: stdout into a file, as a shell would
            argv, target = argv[:-2], argv[-1]
        code, out, err = _run(argv, monkeypatch, capsys)
        if target is not None:
            Path(target).write_text(out, encoding="utf-8")
        assert code == 0, f"{cmd.page} line {cmd.line}: `{cmd.text}` exited {code}\n{err[-2000:]}\n{out[-1000:]}"
        assert "Traceback" not in err
        if "--json" in argv and not any(a in argv for a in ("--svg", "--out", "--log", "--save", "--booklet")):
            _last_json(out)  # a --json command prints a JSON document
    if cmd.text in CHECKS:
        CHECKS[cmd.text](page_folders(cmd.page), out)


def test_shipped_examples_are_what_the_generator_writes():
    spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES / "make_examples.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    shipped = sorted(p.name for p in EXAMPLES.glob("*.json"))  # layouts.txt is written by hand
    assert shipped == sorted(make.EXAMPLES), "examples/ and examples/make_examples.py list different files"
    for name in make.EXAMPLES:
        assert json.loads((EXAMPLES / name).read_text(encoding="utf-8")) == json.loads(make.render(name)), (
            f"examples/{name} is stale: run python examples/make_examples.py")


def test_every_example_file_is_named_by_the_docs():
    text = "\n".join(p.read_text(encoding="utf-8") for p in PAGES)
    for p in [*EXAMPLES.glob("*.json"), *EXAMPLES.glob("*.txt")]:
        assert f"examples/{p.name}" in text, f"examples/{p.name} is not used by any documented command"
