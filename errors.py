"""Error types of tanglekit: one subclass per failure family, all ValueErrors.

The CLI turns any TanglekitError into a one-line message on stderr and exit code 2.
"""


class TanglekitError(ValueError):
    """Base class of every error tanglekit raises on bad input or an impossible request."""


class ShapeError(TanglekitError):
    """A polyform or region is malformed (wrong parity, duplicate cell, empty, disconnected...)."""


class FormatError(TanglekitError):
    """A file, notation or ID could not be parsed; the message names where and why."""


class SolverError(TanglekitError):
    """A solver was asked something it cannot answer (bad problem, unknown backend...)."""


class RuleError(TanglekitError):
    """A game action or position breaks the rules in force."""


class InvalidMoveError(FormatError):
    """A move's text does not parse in the game's move notation (garbage, a wrong word, a
    number out of the notation's range); a ``FormatError``, as python-chess's InvalidMoveError."""


class IllegalMoveError(RuleError):
    """A well-formed move (text that parses, or an action number) that is not legal now; the
    message says why (``State.explain_illegal``). A ``RuleError``, as python-chess's
    IllegalMoveError."""


class BotError(TanglekitError):
    """An unknown bot strength (or a game without bots); the message lists the valid names."""


__all__ = ["BotError", "FormatError", "IllegalMoveError", "InvalidMoveError", "RuleError", "ShapeError",
           "SolverError", "TanglekitError"]
