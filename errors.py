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


class BotError(TanglekitError):
    """An unknown bot strength (or a game without bots); the message lists the valid names."""
