"""The default run's budget (issue 14: it fits in 3 minutes of CPU on 2 cores): property tests
try a share of their examples, and sweeps over seeded random instances check a prefix of them;
the full numbers run with ``--hypothesis-profile thorough`` and ``-m slow``.

    @settings(max_examples=examples(25))        # 40 % of 25 in the default run, 25 when thorough
    @pytest.mark.parametrize("n", sweep(8, 25))  # 8 instances in the default run, 25 with -m slow
    @pytest.mark.parametrize("seed", seeds(4, 12))  # seeds 0-3 in the default run, 4-11 with -m slow
"""

from __future__ import annotations

import pytest


def examples(n: int) -> int:
    """``max_examples`` for a property test written for ``n`` examples, scaled by the loaded
    hypothesis profile (tests/conftest.py): the default run ("fast") tries 40 % of them, at least
    5; ``--hypothesis-profile thorough`` all n (the full run: ``python -m pytest -m "slow or not
    slow" --hypothesis-profile thorough``)."""
    from hypothesis import settings

    return max(5, round(n * settings.default.max_examples / 100))


def seeds(default: int, full: int) -> list:
    """Seeds ``0 .. full-1`` for a test parametrised by seed: the first ``default`` run by
    default, the others are marked slow."""
    return [pytest.param(s, marks=() if s < default else pytest.mark.slow) for s in range(full)]


def sweep(default: int, full: int, name: str = "n") -> list:
    """Two values for a test over ``n`` seeded random instances: ``default`` in the default run,
    ``full`` marked slow. The instances come from one seeded sequence, so the default run checks
    a prefix of what the slow run checks."""
    return [pytest.param(default, id=f"{name}{default}"),
            pytest.param(full, id=f"{name}{full}", marks=pytest.mark.slow)]
