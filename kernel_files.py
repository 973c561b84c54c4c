"""The files of tanglekit's cached numba kernels, without importing numba: the cache folder, the
source stamp that keeps an entry fresh, and whether a kernel has a fresh entry on disk
(``kernel_cached``: a process that would compile a kernel first may run a small instance in plain
Python instead, ``engines.plain_first``). ``numba_cache`` (the locator numba uses) builds on these.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import sys

from . import __version__, _numba_cache_dir

PACKAGE_DIR = os.path.dirname(os.path.realpath(__file__))

# `from .x import a, b` / `from .. import x` / `from tanglekit.x import y` / `import tanglekit.x`
_FROM = re.compile(r"^[ \t]*from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)", re.MULTILINE)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+(tanglekit(?:\.\w+)*)", re.MULTILINE)


def cache_root(chosen: str | None = None) -> str:
    """The folder holding every cached kernel of this tanglekit version (``chosen``: numba's cache
    folder setting, by default ``NUMBA_CACHE_DIR`` as numba reads it)."""
    ours = _numba_cache_dir()
    if chosen is None:
        chosen = os.environ.get("NUMBA_CACHE_DIR", "")
    if not chosen or os.path.abspath(chosen) == os.path.abspath(ours):
        return ours
    py = f"py{sys.version_info[0]}.{sys.version_info[1]}"
    return os.path.join(chosen, "tanglekit", f"{__version__}-{py}")


def _inside(path: str) -> bool:
    return path.startswith(PACKAGE_DIR + os.sep)


def _module_file(dotted_dir: str, name: str) -> str | None:
    """The package file of module ``name`` (dotted, relative to folder ``dotted_dir``), if any."""
    base = os.path.join(dotted_dir, *name.split(".")) if name else dotted_dir
    for cand in (base + ".py", os.path.join(base, "__init__.py")):
        if _inside(cand) and os.path.isfile(cand):
            return cand
    return None


def package_imports(path: str, text: str) -> list[str]:
    """The files of the package modules that the source ``text`` of file ``path`` imports."""
    here = os.path.dirname(path)
    found = []
    for m in _FROM.finditer(text):
        mod, names = m.group(1), m.group(2)
        if mod.startswith("."):
            dots = len(mod) - len(mod.lstrip("."))
            folder = here
            for _ in range(dots - 1):
                folder = os.path.dirname(folder)
            mod = mod[dots:]
        elif mod == "tanglekit" or mod.startswith("tanglekit."):
            folder, mod = PACKAGE_DIR, mod[len("tanglekit."):] if "." in mod else ""
        else:
            continue
        hit = _module_file(folder, mod)
        if hit:
            found.append(hit)
        for name in re.findall(r"\w+", names.replace(" as ", " ")):  # `from . import kernels`
            sub = _module_file(folder, f"{mod}.{name}" if mod else name)
            if sub:
                found.append(sub)
    for m in _IMPORT.finditer(text):
        hit = _module_file(PACKAGE_DIR, m.group(1)[len("tanglekit."):] if "." in m.group(1) else "")
        if hit:
            found.append(hit)
    return sorted(set(found) - {path})


@functools.cache
def _file_stamp(path: str, mtime_ns: int, size: int) -> tuple[bytes, tuple[str, ...]]:
    """(SHA-256 of the file, package files it imports); memoised per (mtime, size) so that a file
    changed while the process runs is read again."""
    with open(path, "rb") as f:
        data = f.read()
    return hashlib.sha256(data).digest(), tuple(package_imports(path, data.decode("utf-8", "replace")))


def source_stamp(path: str) -> str:
    """Hex SHA-256 over the content of ``path`` and of every package module it imports, directly
    or through other package modules (paths relative to the package, so any install agrees)."""
    path = os.path.realpath(path)
    h = hashlib.sha256()
    seen = {path}
    todo = [path]
    while todo:
        p = todo.pop()
        st = os.stat(p)
        digest, deps = _file_stamp(p, st.st_mtime_ns, st.st_size)
        h.update(os.path.relpath(p, PACKAGE_DIR).encode() + b"\0" + digest)
        for d in deps:
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return h.hexdigest()


def kernel_dir(py_file: str) -> str:
    """The cache folder of the kernels defined in package file ``py_file``."""
    rel = os.path.relpath(os.path.dirname(os.path.realpath(py_file)), PACKAGE_DIR)
    root = cache_root()
    return root if rel == os.curdir else os.path.join(root, rel)


def kernel_cached(py_file: str, name: str) -> bool:
    """Whether kernel ``name`` of package file ``py_file`` has a cache index for the file's current
    source stamp (numba's index: a pickled numba version, then the pickled (stamp, overloads), the
    stamp a 64-digit hex string stored verbatim near the start), so a process loads it instead of
    compiling it. Unreadable or missing: False."""
    folder = kernel_dir(py_file)
    prefix = os.path.splitext(os.path.basename(py_file))[0] + "." + name + "-"
    suffix = f".py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}.nbi"
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(suffix)]
        if not names:
            return False
        stamp = source_stamp(py_file).encode()
        for n in names:
            with open(os.path.join(folder, n), "rb") as f:
                if stamp in f.read(512):
                    return True
    except OSError:
        return False
    return False


