"""Where tanglekit's numba kernels are cached on disk: one per-user folder per tanglekit version,
shared by every install of that version (editable or regular, wherever it lives).

numba's own locators name a cache folder after the absolute path of the kernel's source file, so
moving between ``pip install -e .`` and ``pip install .`` (or two virtual environments) compiled
every kernel again. :class:`PackageCacheLocator` files a kernel of this package under

    <root>/<the source file's folder relative to the package>/<numba's usual file names>

where ``<root>`` is ``~/.cache/tanglekit/numba/<version>-py<X.Y>`` (``$XDG_CACHE_HOME`` when set;
see ``tanglekit._numba_cache_dir``) or, when the user set ``NUMBA_CACHE_DIR``,
``$NUMBA_CACHE_DIR/tanglekit/<version>-py<X.Y>``. Nothing is ever written inside the package (an
installed one may be read-only).

Freshness: the source stamp is a SHA-256 of the file's content together with the stamps of the
package modules it imports (``from .x import CONST`` freezes CONST into the compiled code; a kernel
calling a kernel of another file carries a copy of it), never a modification time. numba keeps its
other checks: its own version in the index, and per entry the signature, the CPU and the hash of
the function's bytecode.

Every kernel module imports this module before its first ``@njit(cache=True)``; importing it puts
the locator at the front of numba's list (once). Files outside the package keep numba's locators.

Fewer compiles: when a kernel calls another kernel of this package with a constant argument,
numba types the argument as a literal (``Literal[int](0)``, ``Literal[bool](True)``) and compiles
the callee once more for every such combination (``_tt_store`` four times, ``_memo_put`` five).
Importing this module also makes such calls compile the callee for the plain types
(``int64``, ``bool``), which every call site shares; a callee that cannot be typed without the
literal (a tuple index, a dtype) still gets it. The machine code is the same search (LLVM still
inlines and folds the constant); a cold run compiles less.
"""

from __future__ import annotations

import functools
import os

from numba.core import caching, config, dispatcher, errors, types

from . import kernel_files
from .kernel_files import PACKAGE_DIR, _inside, package_imports, source_stamp  # noqa: F401 (re-exported)


def cache_root() -> str:
    """The folder holding every cached kernel of this tanglekit version."""
    return kernel_files.cache_root(config.CACHE_DIR or "")


class PackageCacheLocator(caching._CacheLocator):
    """numba cache locator for the kernels of this package (see the module docstring)."""

    def __init__(self, py_func, py_file):
        self._py_file = os.path.realpath(py_file)
        self._lineno = py_func.__code__.co_firstlineno
        rel = os.path.relpath(os.path.dirname(self._py_file), PACKAGE_DIR)
        root = cache_root()
        self._cache_path = root if rel == os.curdir else os.path.join(root, rel)

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        return source_stamp(self._py_file)

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        real = os.path.realpath(py_file)
        if not (_inside(real) and os.path.isfile(real)):
            return None  # not ours: numba's own locators decide
        self = cls(py_func, real)
        try:
            self.ensure_cache_path()
        except OSError:
            return None  # no writable cache folder: numba's next locator (or no cache)
        return self


@functools.cache
def _ours(code_file: str) -> bool:
    return _inside(os.path.realpath(code_file))


def _plain_args_for_our_callees() -> None:
    """Calls from a kernel to a kernel of this package compile the callee for the plain types of
    literal arguments (see the module docstring); idempotent."""
    base = dispatcher._DispatcherBase
    orig = base.get_call_template
    if getattr(orig, "_tanglekit", False):
        return

    def get_call_template(self, args, kws):
        if _ours(self.py_func.__code__.co_filename):
            plain = tuple(types.unliteral(a) for a in args)
            plain_kws = {k: types.unliteral(v) for k, v in kws.items()}
            if plain != tuple(args) or plain_kws != kws:
                try:
                    return orig(self, plain, plain_kws)
                except errors.TypingError:
                    pass  # the callee needs the literal (a tuple index, a dtype): compile for it
        return orig(self, args, kws)

    get_call_template._tanglekit = True
    base.get_call_template = get_call_template


def install() -> None:
    """Put PackageCacheLocator first in numba's locator list and compile our callees for plain
    argument types (idempotent)."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # numba < 0.62: _CacheImpl
    classes = impl._locator_classes
    if PackageCacheLocator not in classes:
        classes.insert(0, PackageCacheLocator)
    _plain_args_for_our_callees()


install()
