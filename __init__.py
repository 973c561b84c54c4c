"""tanglekit: solvers and generators for Zangle, Tanglung, QANGO, Zinga and Tangle."""

__version__ = "0.1.0"
