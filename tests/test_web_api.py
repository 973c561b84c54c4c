"""`tanglekit serve` over HTTP without a browser: the JSON API's answers and refusals (400 with a
one-line JSON error, never a traceback), the pages and static files, and the command itself."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from urllib.parse import urlencode

import pytest
from http_kit import post_json

TANGLUNG = "tanglung:solo,easy:RHHC/FRBF/FBBD/CHRD"  # = tanglung:solo,easy#1
#: a reference that would make the browser load something from another host
REMOTE = re.compile(rb"""(src|href|action)\s*=\s*["']?(https?:)?//|fetch\(\s*["'`](https?:)?//|url\(\s*["']?(https?:)?//|@import""")


@pytest.fixture(scope="module")
def base():
    from tanglekit.web.server import start_in_thread, url_of

    httpd, thread = start_in_thread("127.0.0.1", 0)
    assert httpd.server_address[0] == "127.0.0.1"
    yield url_of(httpd).rstrip("/")
    httpd.shutdown()
    httpd.server_close()
    thread.join(5)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **k):
        return None


def get(base, path, **q):
    url = base + path + ("?" + urlencode(q) if q else "")
    try:
        with urllib.request.build_opener(_NoRedirect).open(url, timeout=60) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def api(base, name, **q):
    code, _, body = get(base, f"/api/{name}", **q)
    return code, json.loads(body)


def test_pages_and_static_files(base):
    for path in ("/", "/play/qango", "/check/zangle", "/check/tanglung", "/check/qango"):
        code, headers, body = get(base, path)
        assert code == 200 and headers["Content-Type"].startswith("text/html"), path
        assert b"<script" in body and not REMOTE.search(body), path  # nothing fetched from elsewhere
    for name in ("app.css", "common.js", "play.js", "check.js"):
        code, _, body = get(base, f"/static/{name}")
        assert code == 200 and body
        assert not REMOTE.search(body), name
    assert get(base, "/static/../server.py")[0] == 404
    assert get(base, "/check/tangle")[0] == 404


def test_catalog_lists_games_and_generators(base):
    code, cat = api(base, "catalog")
    assert code == 200
    from tanglekit.games import game_names

    assert cat["games"] == game_names()
    gens = {g["generator"]: g["choices"] for g in cat["generators"]}
    assert gens["tanglung-solo"] == ["easy", "medium", "hard", "expert"]
    assert gens["zangle-solo"] == ["easy", "medium", "hard", "expert"]


def test_new_redirects_to_a_seed_id(base):
    code, headers, _ = get(base, "/new/tanglung-solo", choice="easy", seed="1")
    assert code == 302 and headers["Location"] == "/play/tanglung:solo,easy%231"
    refused = json.loads(get(base, "/new/tanglung-solo", choice="impossible")[2])
    assert "choose one of easy, medium, hard, expert" in refused["error"]


def test_state_move_undo_hint_round_trip(base):
    code, v = api(base, "state", id=TANGLUNG)
    assert code == 200 and v["game"] == "tanglung-solo" and v["optimum"] == 14 and v["moves"] == []
    assert v["svg"].count('class="hot') == 16 and v["svg"].count('class="hot legal"') == 2
    code, h = api(base, "hint", id=TANGLUNG)
    assert code == 200 and h["move"] in ("0,2", "1,3") and "14 more moves" in h["hint"]
    code, v = api(base, "move", id=TANGLUNG, action=str(h["action"]))
    assert code == 200 and v["moves"] == [h["action"]] and v["played"] == 1
    code, v2 = api(base, "move", id=TANGLUNG, moves=str(h["action"]), move="9,9")
    assert code == 400 and v2["error"].startswith("illegal")
    code, v = api(base, "undo", id=TANGLUNG, moves=str(h["action"]))
    assert code == 200 and v["moves"] == [] and v["messages"] == ["undone 1 action"]


def test_refusals_are_one_line_json(base):
    cases = [
        ("state", {"id": "bogus"}, "not a game or ID"),
        ("state", {"id": "README.md"}, "files are not opened"),
        ("state", {"id": ""}, "no ID given"),
        ("state", {"id": TANGLUNG, "moves": "1.x"}, "not an action number"),
        ("state", {"id": TANGLUNG, "moves": "5"}, "move 1 of the URL (5) is illegal"),
        ("move", {"id": TANGLUNG, "action": "5"}, "cannot move to 1,1"),
        ("move", {"id": TANGLUNG, "action": "abc"}, "action must be an integer"),
        ("state", {"id": "tanglung:solo,easy:XXXX"}, ""),
        ("state", {"id": "qango:6:k2:nonsense"}, ""),
        ("state", {"id": "/etc/passwd"}, "files are not opened"),
        ("nothing", {}, "no API call"),
    ]
    for name, q, want in cases:
        code, headers, body = get(base, f"/api/{name}", **q)
        assert code == 400, (name, q, body)
        assert headers["Content-Type"] == "application/json"
        text = body.decode()
        assert "\n" not in text and "Traceback" not in text
        assert want in json.loads(text)["error"], (q, text)


def test_qango_puzzle_solved_with_hints_against_the_perfect_bot(base):
    pid = "qango:6:k2:.X.OOX/O....O/XO.X../..XO../X...../....X."  # = qango:6:k2#1
    code, v = api(base, "state", id=pid)
    assert code == 200 and v["goal"] == "O to move wins in 2 counters (3 plies)" and v["seats"] == ["perfect", "human"]
    moves = ""
    for k in (1, 2):
        code, h = api(base, "hint", id=pid, moves=moves)
        assert code == 200 and h["action"] is not None
        code, v = api(base, "move", id=pid, moves=moves, action=str(h["action"]))
        assert code == 200 and v["played"] == k
        moves = ".".join(map(str, v["moves"]))
    assert len(v["moves"]) == 3  # O, the perfect bot's X, O
    assert v["solved"] and v["result"] == "solved in 2 counters (fewest counters: 2)"
    code, v = api(base, "move", id=pid, moves=moves, action="0")
    assert code == 400 and "over" in v["error"]


def test_games_with_bots_play_in_turn(base):
    # QANGO against the random bot: the person plays X, the bot answers at once
    code, v = api(base, "move", id="qango", bots="human,random", seed="2", action="14")
    assert code == 200 and len(v["moves"]) == 2 and v["moves"][0] == 14 and v["human_to_move"]
    # Zinga: the dice (chance) are rolled by the server; the person answers with buttons
    code, v = api(base, "state", id="zinga", bots="human,random", seed="1")
    assert code == 200 and v["human_to_move"] and v["buttons"]
    code, again = api(base, "state", id="zinga", bots="human,random", seed="1")
    assert again["moves"] == v["moves"]  # the same address shows the same dice
    # Tangle: placements as buttons, checked like every move
    code, v = api(base, "state", id="tangle", seed="1")
    assert code == 200 and len(v["buttons"]) > 50


def test_check_tanglung_and_qango(base):
    code, r = post_json(base, "/api/check/tanglung", {"layout": "CRBF/HDFR/BHFB/RHDC"})
    assert code == 200
    assert {k: r[k] for k in ("solvable", "moves", "start", "optimal_tours")} == \
        {"solvable": True, "moves": 14, "start": [0, 0], "optimal_tours": 1823}  # as the README's CLI example
    assert r["id"] == "tanglung:solo:CRBF/HDFR/BHFB/RHDC" and len(r["frames"]) == 15
    code, r = post_json(base, "/api/check/tanglung", {"layout": "CRB"})
    assert code == 400 and r["error"]
    code, r = post_json(base, "/api/check/qango", {"board": "6", "position": ".X.OOX/O....O/XO.X../..XO../X...../....X."})
    assert code == 200 and r["value"] == "win" and r["plies"] == 3 and r["id"] == "qango:6:k2:.X.OOX/O....O/XO.X../..XO../X...../....X."
    assert (r["counters"], r["to_move"], r["side"]) == (2, 1, "O")  # players from 0, counts with units
    assert r["line_text"][0].startswith("O ") and len(r["frames"]) == len(r["line_text"]) + 1
    code, d = post_json(base, "/api/draw/qango", {"board": "6", "cells": {"0": "X", "7": "O"}})
    assert code == 200 and d["position"].startswith("X...../.O....")


def test_check_zangle_solo_deal(base):
    from tanglekit.games.zangle.solo_search import SoloDeal, solve_deal

    deal = SoloDeal.from_seed(3)
    body = {"middle": list(deal.middle), "draw": list(deal.draw), "piles": [list(p) for p in deal.piles]}
    code, r = post_json(base, "/api/check/zangle", body)
    assert code == 200
    cli = solve_deal(deal, max_states=2_000_000, time_limit=20).to_json()
    assert {k: r[k] for k in ("solvable", "line", "states")} == cli
    assert r["id"] == deal.share_id() and len(r["frames"]) == len(r["line"]) + 1
    body["middle"] = body["middle"][:2]
    code, r = post_json(base, "/api/check/zangle", body)
    assert code == 400 and "the middle holds 3 cards" in r["error"]
    code, r = post_json(base, "/api/check/zangle", {"middle": ["nope"], "piles": [["T1-1"]]})
    assert code == 400 and r["error"]


def test_serve_command_prints_the_url_of_a_free_port():
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    p = subprocess.Popen([sys.executable, "-c", "from tanglekit.cli import main; main()", "serve", "--port", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = p.stdout.readline()
        assert line.startswith("tanglekit serving on http://127.0.0.1:")
        url = line.split()[3]
        deadline = time.time() + 20
        while True:
            try:
                with urllib.request.urlopen(url + "api/catalog", timeout=10) as r:
                    assert json.loads(r.read())["check"] == ["zangle", "tanglung", "qango"]
                break
            except urllib.error.URLError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
    finally:
        p.terminate()
        p.wait(10)


@pytest.mark.parametrize("args, want", [(["--port", "70000"], "--port must be 0..65535"),
                                        (["--host", "256.1.1.1", "--port", "0"], "cannot listen on 256.1.1.1")])
def test_serve_command_refuses_bad_addresses(args, want):
    p = subprocess.run([sys.executable, "-m", "tanglekit.cli", "serve", *args], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2 and p.stderr.strip().startswith(f"error: {want}") and "Traceback" not in p.stderr


def test_hint_says_when_no_winning_line_is_left(base):
    spec = "zangle:solo,piles=5,easy#2"
    code, h = api(base, "hint", id=spec)
    assert code == 200 and h["action"] is not None  # a generated challenge can be won
    code, h = api(base, "hint", id=spec, moves="3460")  # after a Zangle that spoils it
    assert code == 200 and h == {"action": None, "move": None, "hint": "no winning line from here (exact search)"}


def test_pages_fit_phones_and_ask_for_no_favicon(base):
    """Every page has a viewport (a phone lays it out at its own width, not 980 px) and an inline
    icon (no request for a missing favicon.ico)."""
    for page in ("/", "/play/qango", "/check/zangle"):
        html = urllib.request.urlopen(base + page, timeout=30).read().decode()
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html, page
        assert '<link rel="icon" href="data:,">' in html, page
