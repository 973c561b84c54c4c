"""kernel_bundle: fields converted to their declared dtypes, zeroed arrays by shape, numpy scalars,
every field exactly once (the per-class plan is worked out once and reused)."""

from typing import NamedTuple

import numpy as np
import pytest

from tanglekit.kernelargs import kernel_bundle


class Work(NamedTuple):
    DTYPES = {"dist": np.int32, "seen": np.uint8, "rate": np.float32}
    dist: np.ndarray
    seen: np.ndarray
    other: np.ndarray
    limit: int
    rate: float


def test_fields_converted_and_allocated():
    for _ in range(2):  # the second call uses the cached plan
        w = kernel_bundle(Work, shapes={"dist": 4, "seen": (2, 3)}, other=[1, 2], limit=7, rate=0.5)
        assert w.dist.dtype == np.int32 and w.dist.shape == (4,) and not w.dist.any()
        assert w.seen.dtype == np.uint8 and w.seen.shape == (2, 3)
        assert w.other.dtype == np.int64 and w.other.tolist() == [1, 2]
        assert isinstance(w.limit, np.int64) and w.limit == 7
        assert isinstance(w.rate, np.float32)
    a = np.arange(3, dtype=np.int64)
    assert kernel_bundle(Work, shapes={"dist": 1, "seen": 1}, other=a, limit=1, rate=1.0).other is a  # no copy


@pytest.mark.parametrize("kw, word", [
    (dict(shapes={"dist": 1, "seen": 1}, other=[1], rate=1.0), "missing"),
    (dict(shapes={"dist": 1, "seen": 1}, other=[1], limit=1, rate=1.0, extra=2), "unknown"),
    (dict(shapes={"dist": 1, "seen": 1, "other": 1}, other=[1], limit=1, rate=1.0), "twice"),
    (dict(shapes={"dist": 1, "seen": 1, "limit": 1}, other=[1], rate=1.0), "no shape"),
    (dict(shapes={"dist": 1, "seen": 1}, other=[1], limit=1, nope=1.0), "missing ['rate']"),
])
def test_every_field_exactly_once(kw, word):
    with pytest.raises(TypeError, match=word.replace("[", r"\[").replace("]", r"\]")):
        kernel_bundle(Work, **kw)
