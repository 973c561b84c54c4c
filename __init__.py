"""tanglekit: solvers and generators for Zangle, Tanglung, QANGO, Zinga and Tangle."""

__version__ = "0.1.0"


def _numba_cache_dir() -> str:
    """Per-user folder for compiled kernels, keyed by tanglekit and Python version.

    Kernels are cached outside the installed package: a cache written beside the sources in
    site-packages outlives `pip uninstall` and later shadows an editable install of the package.
    """
    import os
    import sys

    py = f"py{sys.version_info[0]}.{sys.version_info[1]}"
    if sys.platform.startswith("linux"):  # platformdirs' rule, without importing it (start-up)
        base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.expanduser("~/.cache")
        root = os.path.join(base, "tanglekit")
    else:
        from platformdirs import user_cache_dir

        root = user_cache_dir("tanglekit", appauthor=False)
    return f"{root}/numba/{__version__}-{py}"


def _set_numba_cache_dir() -> None:
    """Point numba's cache at the per-user folder unless the user chose one (NUMBA_CACHE_DIR).

    numba reads NUMBA_CACHE_DIR when it is first imported; if it was imported before tanglekit,
    its config is set directly (only when the user left it empty).
    """
    import os
    import sys

    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    path = _numba_cache_dir()
    os.environ["NUMBA_CACHE_DIR"] = path
    config = sys.modules.get("numba.core.config")
    if config is not None and not getattr(config, "CACHE_DIR", ""):
        config.CACHE_DIR = path


_set_numba_cache_dir()
