"""``zangle solo solve --batch``'s fast path: descriptive deal IDs decoded and solved many per kernel call."""

from __future__ import annotations

import json
import os

from ...cli_common import parse_options
from ...generators.ids import split_id
from .cards import default_deck
from .rules import ZangleOptions
from .solo_deal import MAX_MIDDLE, MAX_PILES, MAX_SEQUENCE, check_id_deck, parse_id_params
from .solo_search import SoloBatch

_ZANGLE_SOLO_ID = None  # compiled lazily: zangle:solo[,PARAMS]:DESCRIPTION in lower case


def zangle_solo_bulk(kw: dict, lines: list[tuple[int, str]]) -> dict:
    """``zangle solo solve --batch``: the lines holding a descriptive solo ID of the default deck
    (``zangle:solo,PARAMS:DESCRIPTION``, lower case), decoded here and solved in one kernel call
    (``games.zangle.solo_search.SoloBatch``), each answer exactly what ``--json`` prints for that ID alone
    but ``seconds`` (each deal's share of the call). Every other line (files, JSON objects, seed
    IDs, bad or unusual IDs), and every line under ``--count``, ``--time-limit`` or ``--deck``, is
    left to the per-line command, which also words every error."""
    import re
    import time

    global _ZANGLE_SOLO_ID
    if kw.get("count") or kw.get("time_limit") is not None or kw.get("deck") is not None:
        return {}
    max_states = kw.get("max_states")
    if not isinstance(max_states, int) or not 1 <= max_states <= 10**9:
        return {}
    if _ZANGLE_SOLO_ID is None:
        _ZANGLE_SOLO_ID = re.compile(r"zangle:solo((?:,[a-z0-9=]+)*):([0-9a-z.]+)")

    t0 = time.perf_counter()
    overrides = parse_options(kw.get("option"))
    deck = default_deck()
    n_cards = len(deck.cards)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    code = {a + b: i for i, (a, b) in enumerate((a, b) for a in digits for b in digits) if i < n_cards}
    params_seen: dict = {}
    batch = SoloBatch(deck)
    todo = []
    for n, text in lines:
        m = _ZANGLE_SOLO_ID.fullmatch(text)
        if m is None or os.path.exists(text):
            continue
        params = m.group(1)
        got = params_seen.get(params)
        if got is None:
            try:  # the per-line command's own checks of the PARAMS, once per distinct PARAMS
                parsed = split_id(f"zangle:solo{params}:00")
                opts, _grade, deck_name = parse_id_params(parsed)
                check_id_deck(parsed, deck_name, None)
                got = (opts, "piles" in parsed.values())
            except Exception:  # noqa: BLE001 - the per-line path words the error
                got = False
            params_seen[params] = got
        if got is False:
            continue
        opts, piles_given = got
        groups = m.group(2).split(".")
        if len(groups) < 3 or len(groups) - 2 > MAX_PILES or (piles_given and len(groups) - 2 != opts.piles):
            continue
        try:
            dec = [[code[g[i:i + 2]] for i in range(0, len(g), 2)] if len(g) % 2 == 0 else None for g in groups]
        except KeyError:
            continue
        if any(d is None for d in dec) or any(not d for d in dec[2:]):
            continue
        allc = [c for d in dec for c in d]
        if (len(dec[0]) > MAX_MIDDLE or len(dec[0]) + len(dec[1]) > MAX_SEQUENCE or len(allc) > 62
                or len(set(allc)) != len(allc)):
            continue
        key = (params, len(groups) - 2)
        flags = params_seen.get(key)
        if flags is None:
            try:
                o = opts.with_(piles=len(groups) - 2)
                if overrides:  # as solo_solve_command applies --option over the deal's own options
                    base = dict(o.to_json())
                    changed = ZangleOptions.from_strings(dict(overrides)).to_json()
                    base.update({k: changed[k] for k in overrides})
                    o = ZangleOptions.from_json(base).with_(piles=len(groups) - 2)
                flags = SoloBatch.flags(o)
            except Exception:  # noqa: BLE001 - the per-line path words the error
                flags = False
            params_seen[key] = flags
        if flags is False:
            continue
        batch.add(dec[0], dec[1], dec[2:], flags)
        todo.append(n)
    if not todo:
        return {}
    results = batch.solve(max_states)
    share = round((time.perf_counter() - t0) / len(todo), 6)
    out = {}
    dumps = json.dumps
    for n, r in zip(todo, results):
        if r is None:
            continue
        solvable, states, reason, moves = r
        line = []
        actions = []
        for mv in moves:
            kind = mv[0]
            if kind == "zangle":
                line.append(f"zangle {mv[1]} <= {' + '.join(mv[2])}" + "".join(f" + {z}" for z in mv[3]))
                actions.append({"kind": "zangle", "target": mv[1], "pieces": list(mv[2]), "z": list(mv[3])})
            elif kind == "fill":
                line.append(f"fill pile {mv[2]} from pile {mv[1]}")
                actions.append({"kind": "fill", "src": mv[1], "dst": mv[2]})
            else:
                line.append(kind)
                actions.append({"kind": kind})
        res = {"solvable": solvable, "line": line, "states": states, "moves": len(line) if solvable else None,
               "nodes": states, "complete": solvable is not None, "reason": reason, "seconds": share,
               "actions": actions}
        out[n] = dumps({"line": n, "result": res}, separators=(",", ":"))
    return out
