"""Which engine runs a small search: plain Python or the numba kernel (start-up).

Several searches exist twice, as a numba kernel and as the same search in plain Python with the
same answers (tests compare them on random instances): the exact-cover count of a small tiling
(``solver/xc_small.py``; a count is exact, so any correct search gives it) and its first
solution (the kernels' search order, so the same tiling), the Zangle finder
(``games/zangle/moves.plain_zangles``), the Zangle solo search (``games/zangle/solo_plain.py``),
the QANGO iterative deepening (``games/qango/small.py``: near the end of a game, and for the
puzzle generator) and the polyform enumeration of small sizes (``shapes/enumerate._kernels``: the
kernels' own code run uncompiled); the searches follow their kernels step for step, so lines,
best moves, puzzles and state or node counts are the kernels' too. Loading numba and numpy costs about 0.5-1 s of CPU, far more than a small search
takes in Python, so a process that has not loaded numba yet runs a small instance in Python
within a budget, and hands it to the kernel past the budget (losing only the budget); once
numba is loaded (a batch, a large instance before) the kernels run. The Tanglung solo solve
has had its own such path since before (``games/tanglung/solo_search.py``).

A kernel that this process would have to compile first (no fresh entry in the kernel cache on
disk, ``kernel_files.kernel_cached``, and not compiled in this process) costs seconds to tens
of seconds, so a caller that names its kernel (``plain_first(kernel=(module, function))``) runs
a small instance in plain Python also when numba is loaded, and gets a larger budget
(``plain_budget(default, cold=..., kernel=...)``): a demo or a first run after an upgrade then
compiles only the kernels its large instances need. The answers are the same either way.

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


def kernel_ready(kernel: tuple[str, str]) -> bool:
    """Whether kernel ``(module, function)`` (a module of this package) runs without compiling:
    compiled in this process already, or a fresh entry for it in the kernel cache on disk."""
    module, name = kernel
    f = getattr(sys.modules.get(module), name, None)
    if f is not None and getattr(f, "overloads", None):
        return True
    if kernel not in _ON_DISK:  # looked up once per process (the in-process check above follows compiles)
        _ON_DISK[kernel] = _on_disk(module, name)
    return _ON_DISK[kernel]


_ON_DISK: dict[tuple[str, str], bool] = {}


def _on_disk(module: str, name: str) -> bool:
    import importlib.util  # start-up: only when a caller names its kernel

    from .kernel_files import kernel_cached  # start-up: hashlib and re, only when a caller names its kernel

    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return False
    if spec is None or not spec.origin:
        return False
    return kernel_cached(spec.origin, name)


def plain_first(kernel: tuple[str, str] | None = None) -> bool:
    """Whether a small search should try plain Python first: asked for, or (auto) numba is not
    loaded in this process yet, or the caller's ``kernel`` (module, function) would compile first."""
    e = requested()
    if e == "auto":
        return "numba" not in sys.modules or (kernel is not None and not kernel_ready(kernel))
    return e == "python"


def plain_budget(default: int, cold: int | None = None, kernel: tuple[str, str] | None = None) -> int | None:
    """The node budget of a plain search (None: no budget, with TANGLEKIT_ENGINE=python):
    ``cold`` when given and the ``kernel`` would compile first (a budget worth its compile
    time), else ``default``."""
    if requested() == "python":
        return None
    if cold is not None and kernel is not None and not kernel_ready(kernel):
        return cold
    return default
