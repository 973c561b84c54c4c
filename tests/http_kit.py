"""JSON calls to a running `tanglekit serve` for the tests (the ``base`` fixture's address):
(status, decoded body) for a GET with a query and for a POST of a JSON body."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from urllib.parse import urlencode


def _answer(req) -> tuple[int, object]:
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def get_json(base: str, path: str, **q) -> tuple[int, object]:
    return _answer(base + path + ("?" + urlencode(q) if q else ""))


def post_json(base: str, path: str, body) -> tuple[int, object]:
    return _answer(urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                          headers={"Content-Type": "application/json"}))
