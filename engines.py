"""Which engine runs a small search: plain Python or the numba kernel (start-up).

Several searches exist twice, as a numba kernel and as the same search in plain Python with the
same answers (tests compare them on random instances): the exact-cover count of a small tiling
(``solver/xc_small.py``; a count is exact, so any correct search gives it), the Zangle finder
(``games/zangle/moves.plain_zangles``), the Zangle solo search (``games/zangle/solo_plain.py``)
and the QANGO iterative deepening near the end of a game (``games/qango/small.py``); the last
two follow their kernels step for step, so lines, best moves and state or node counts are the
kernels' too. Loading numba and numpy costs about 0.5-1 s of CPU, far more than a small search
takes in Python, so a process that has not loaded numba yet runs a small instance in Python
within a budget, and hands it to the kernel past the budget (losing only the budget); once
numba is loaded (a batch, a large instance before) the kernels run. The Tanglung solo solve
has had its own such path since before (``games/tanglung/solo_search.py``).

``TANGLEKIT_ENGINE=kernel`` always runs the kernels; ``TANGLEKIT_ENGINE=python`` runs the Python
searches without a budget where they exist (tests, comparisons).
"""

from __future__ import annotations

import os
import sys

ENGINES = ("auto", "python", "kernel")


def requested() -> str:
    """The engine ``TANGLEKIT_ENGINE`` asks for (auto when unset or unknown)."""
    e = os.environ.get("TANGLEKIT_ENGINE", "auto")
    return e if e in ENGINES else "auto"


def plain_first() -> bool:
    """Whether a small search should try plain Python first: asked for, or (auto) numba is not
    loaded in this process yet."""
    e = requested()
    if e == "auto":
        return "numba" not in sys.modules
    return e == "python"


def plain_budget(default: int) -> int | None:
    """The node budget of a plain search (None: no budget, with TANGLEKIT_ENGINE=python)."""
    return None if requested() == "python" else default
