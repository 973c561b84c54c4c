"""The README's Python API examples are doctests: every ```python block is run and checked."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _python_blocks(text: str) -> list[tuple[int, str]]:
    """(line number of the block's first line, block text) of every ```python block."""
    return [(text.count("\n", 0, m.start(1)), m.group(1)) for m in re.finditer(r"```python\n(.*?)```", text, re.S)]


def test_readme_python_api_examples():
    blocks = _python_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 5  # load/play, a whole game, solve a deal, generate, count tilings
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs: dict = {}
    for line, block in blocks:  # the blocks share one namespace, like a session
        test = parser.get_doctest(block, globs, f"README.md line {line + 1}", str(README), line)
        assert test.examples, f"the python block at README.md line {line + 1} has no >>> examples"
        runner.run(test, clear_globs=False)
        globs = test.globs
    failed, tried = runner.summarize(verbose=False)
    assert tried >= 20 and failed == 0, f"{failed} of {tried} README examples failed (see the output above)"
