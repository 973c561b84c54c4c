"""Shareable IDs of Tanglung solo challenges.

Descriptive form ``tanglung:solo,PARAMS:LAYOUT`` holds the whole instance (PARAMS: the grade
and any rule options that differ from the defaults, e.g. ``solo,hard,literal_blocking=1``);
seed form ``tanglung:solo,PARAMS#SEED`` regenerates it with the generator.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import FormatError
from .layout import Layout
from .rules import TanglungOptions

PREFIX = "tanglung"


@dataclass(frozen=True)
class ChallengeId:
    """A parsed ID: the grade (or None), rule options, and the layout or the seed."""

    difficulty: str | None
    options: TanglungOptions
    layout: Layout | None = None
    seed: int | None = None

    def params(self) -> str:
        parts = ["solo"]
        if self.difficulty:
            parts.append(self.difficulty)
        default = TanglungOptions().to_json()
        for k, v in self.options.to_json().items():
            if default[k] != v:
                parts.append(f"{k}={int(v) if isinstance(v, bool) else v}")
        return ",".join(parts)

    def descriptive(self) -> str:
        if self.layout is None:
            raise FormatError("this ID has no layout yet (seed form)")
        return f"{PREFIX}:{self.params()}:{self.layout}"

    def seeded(self) -> str:
        if self.seed is None:
            raise FormatError("this ID has no seed (descriptive form)")
        return f"{PREFIX}:{self.params()}#{self.seed}"


def parse_id(text: str) -> ChallengeId:
    """Parse either form; the seed form is regenerated (so ``.layout`` is always set)."""
    s = text.strip()
    if not s.lower().startswith(PREFIX + ":"):
        raise FormatError(f"not a Tanglung ID: {text!r} (expected tanglung:solo,...)")
    rest = s[len(PREFIX) + 1 :]
    seed = None
    if "#" in rest:
        params, _, seed_text = rest.partition("#")
        layout_text = None
        try:
            seed = int(seed_text)
        except ValueError:
            raise FormatError(f"ID {text!r}: seed must be an integer") from None
    else:
        params, sep, layout_text = rest.partition(":")
        if not sep:
            raise FormatError(f"ID {text!r}: expected tanglung:PARAMS:LAYOUT or tanglung:PARAMS#SEED")
    items = [p for p in params.split(",") if p]
    if not items or items[0] != "solo":
        raise FormatError(f"ID {text!r}: only solo challenge IDs are defined (tanglung:solo,...)")
    difficulty = None
    opts: dict[str, str] = {}
    for item in items[1:]:
        if "=" in item:
            k, _, v = item.partition("=")
            opts[k] = v
        else:
            difficulty = item
    options = TanglungOptions.from_dict(opts)
    if seed is not None:
        from ...generators.tanglung import generate_challenge

        ch = generate_challenge(difficulty or "medium", seed=seed, options=options)
        return ChallengeId(difficulty, options, ch.layout, seed)
    return ChallengeId(difficulty, options, Layout.parse(layout_text), None)
