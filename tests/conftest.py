"""Test set-up: the tests folder is importable (shared harnesses such as ``hostile``), the
garbage collector's threshold, and the hypothesis profiles: "fast" (the default run: property
tests try 40 % of the examples they were written for, see ``budget.examples``) and "thorough"
(all of them), chosen with ``--hypothesis-profile thorough`` or HYPOTHESIS_PROFILE=thorough."""

import gc
import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

settings.register_profile("fast", max_examples=40)
settings.register_profile("thorough", max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))

# The cyclic garbage collector walks a heap full of numba types and test items: collecting after
# 20,000 allocations instead of 700 cuts its share of the default run from about 6.7 s of CPU to
# 2.8 s (30 full collections to 6; measured with gc.callbacks).
gc.set_threshold(20_000, 10, 10)
