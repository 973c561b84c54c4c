"""`tanglekit serve` against hostile requests (issue 25: nothing lost, nothing hangs, nobody gets in).

Exact bytes are sent with ``socket`` to a real server running in a thread on 127.0.0.1 (nothing
here connects anywhere else): bad Content-Length values, bodies shorter than declared, slow
clients, deep JSON, huge numbers, NUL in paths, foreign Host headers (DNS rebinding), cross-origin
POSTs. Each is answered with a one-line JSON 4xx and the server goes on serving; a slow request is
cut at the time limit while others are served, a full queue answers 503, and binding beyond the
loopback prints a warning. Short timeouts keep the whole file to a few seconds.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time

import pytest

GOOD_BODY = json.dumps({"layout": "CRBF/HDFR/BHFB/RHDC"}).encode()


@pytest.fixture(scope="module")
def srv():
    from tanglekit.web.server import start_in_thread

    httpd, thread = start_in_thread("127.0.0.1", 0, workers=4, queue_size=8, read_timeout=0.5, time_limit=2.0)
    yield httpd
    httpd.shutdown()
    httpd.server_close()
    thread.join(5)


@pytest.fixture
def fresh():
    """A server of its own (a test that fills the workers or patches the session module)."""
    servers = []

    def start(**limits):
        from tanglekit.web.server import start_in_thread

        httpd, thread = start_in_thread("127.0.0.1", 0, **limits)
        servers.append((httpd, thread))
        return httpd

    yield start
    for httpd, thread in servers:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


def request(method: str, path: str, body: bytes = b"", *, host: str | None = "HOST", headers=(),
            length: str | None = "auto", ctype: str | None = "application/json") -> bytes:
    """The bytes of an HTTP/1.1 request; ``HOST`` is replaced by the server's address."""
    lines = [f"{method} {path} HTTP/1.1"]
    if host is not None:
        lines.append(f"Host: {host}")
    if body or method == "POST":
        if ctype is not None:
            lines.append(f"Content-Type: {ctype}")
        if length == "auto":
            lines.append(f"Content-Length: {len(body)}")
        elif length is not None:
            lines.append(f"Content-Length: {length}")
    lines += [f"{k}: {v}" for k, v in headers]
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def send(httpd, data: bytes, *, half_close: bool = False, timeout: float = 10.0) -> tuple[int, dict, bytes, float]:
    """Send ``data`` to the server on 127.0.0.1 and read the whole answer: (status, headers,
    body, seconds)."""
    port = httpd.server_address[1]
    data = data.replace(b"Host: HOST", f"Host: 127.0.0.1:{port}".encode())
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        if data:
            s.sendall(data)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            out += chunk
    return (*parse(out), time.monotonic() - t0)


def parse(out: bytes) -> tuple[int, dict, bytes]:
    head, sep, body = out.partition(b"\r\n\r\n")
    assert sep, f"no HTTP answer: {out[:200]!r}"
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def assert_refused(answer, code: int, want: str) -> str:
    """A one-line JSON error with ``code`` whose text contains ``want``."""
    status, headers, body, _ = answer
    assert status == code, (status, body[:300])
    assert headers["Content-Type"] == "application/json"
    assert int(headers["Content-Length"]) == len(body) and b"\n" not in body and len(body) < 800
    error = json.loads(body)["error"]
    assert want in error and "Traceback" not in error, error
    return error


def assert_serving(httpd) -> None:
    status, _, body, _ = send(httpd, request("GET", "/api/catalog"))
    assert status == 200 and "zangle" in json.loads(body)["check"]


NESTED = b"[" * 100_000 + b"]" * 100_000
CASES = {  # name: (request, code, part of the error)
    "static NUL": (request("GET", "/static/%00"), 400, "control characters"),
    "check page NUL": (request("GET", "/check/%00x"), 400, "control characters"),
    "query NUL": (request("GET", "/api/state?id=qango%00"), 400, "control characters"),
    "too many query fields": (request("GET", "/api/state?" + "&".join(f"a{i}=1" for i in range(100))), 400, "query fields"),
    "JSON nested 100k deep": (request("POST", "/api/check/tanglung", NESTED), 400, "nested more than 64 deep"),
    "JSON object nested 50k deep": (request("POST", "/api/draw/tanglung", b'{"a":' * 50_000 + b"1" + b"}" * 50_000),
                                    400, "nested more than 64 deep"),
    "5000-digit integer in the body": (request("POST", "/api/draw/qango", b'{"board": 1' + b"0" * 5000 + b"}"),
                                       400, "5001-digit number is out of range"),
    "5000-digit seed in the query": (request("GET", "/api/state?id=qango&seed=1" + "0" * 5000), 400,
                                     "seed must be an integer"),
    "NaN in the body": (request("POST", "/api/draw/tanglung", b'{"layout": NaN}'), 400, "NaN is not allowed"),
    "body not UTF-8": (request("POST", "/api/draw/tanglung", b'{"layout": "\xff"}'), 400, "not UTF-8"),
    "body not an object": (request("POST", "/api/draw/tanglung", b"[1]"), 400, "must be a JSON object"),
    "Content-Length: abc": (request("POST", "/api/check/tanglung", GOOD_BODY, length="abc"), 400, "Content-Length"),
    "Content-Length: -1": (request("POST", "/api/check/tanglung", GOOD_BODY, length="-1"), 400, "Content-Length"),
    "Content-Length: +33": (request("POST", "/api/check/tanglung", GOOD_BODY, length="+33"), 400, "Content-Length"),
    "Content-Length: 33, 33": (request("POST", "/api/check/tanglung", GOOD_BODY, length="33, 33"), 400,
                               "Content-Length"),
    "Content-Length: 1e3": (request("POST", "/api/check/tanglung", GOOD_BODY, length="1e3"), 400, "Content-Length"),
    "two Content-Length headers": (request("POST", "/api/check/tanglung", GOOD_BODY,
                                           headers=[("Content-Length", str(len(GOOD_BODY)))]), 400,
                                   "more than one Content-Length"),
    "Content-Length beyond 1 MiB, short body": (request("POST", "/api/check/tanglung", GOOD_BODY,
                                                        length="1800000000"), 413, "too large"),
    "Transfer-Encoding: chunked": (request("POST", "/api/check/tanglung", b"5\r\n{}\r\n0\r\n\r\n", length=None,
                                           headers=[("Transfer-Encoding", "chunked")]), 411, "Content-Length"),
    "Host: evil.example (DNS rebinding)": (request("GET", "/api/catalog", host="evil.example"), 400, "not allowed"),
    "Host: evil.example:port": (request("GET", "/", host="evil.example:8765"), 400, "not allowed"),
    "Host: 127.0.0.1.evil.example": (request("GET", "/", host="127.0.0.1.evil.example"), 400, "not allowed"),
    "Host: localhost@evil.example": (request("GET", "/", host="localhost@evil.example"), 400, "not allowed"),
    "Host: 127.0.0.2": (request("GET", "/", host="127.0.0.2"), 400, "not allowed"),
    "Host: localhost:port:port": (request("GET", "/", host="localhost:1:2"), 400, "not allowed"),
    "no Host": (request("GET", "/api/catalog", host=None), 400, "Host"),
    "two Host headers": (request("GET", "/", headers=[("Host", "evil.example")]), 400, "more than one Host"),
    "cross-origin text/plain POST": (request("POST", "/api/check/tanglung", GOOD_BODY, ctype="text/plain",
                                             headers=[("Origin", "http://evil.example")]), 403, "cross-origin"),
    "Origin: evil, Sec-Fetch-Site: cross-site": (request("POST", "/api/check/tanglung", GOOD_BODY, headers=[
        ("Origin", "http://evil.example"), ("Sec-Fetch-Site", "cross-site")]), 403, "cross-origin"),
    "Sec-Fetch-Site: cross-site": (request("POST", "/api/check/tanglung", GOOD_BODY,
                                           headers=[("Sec-Fetch-Site", "cross-site")]), 403, "cross-origin"),
    "Sec-Fetch-Site: same-site (another port)": (request("POST", "/api/draw/tanglung", GOOD_BODY,
                                                         headers=[("Sec-Fetch-Site", "same-site")]), 403, "cross-origin"),
    "Origin: null": (request("POST", "/api/draw/tanglung", GOOD_BODY, headers=[("Origin", "null")]), 403,
                     "cross-origin"),
    "Origin: another port": (request("POST", "/api/draw/tanglung", GOOD_BODY,
                                     headers=[("Origin", "http://127.0.0.1:1")]), 403, "cross-origin"),
    "cross-site GET of the API": (request("GET", "/api/hint?id=qango", headers=[("Sec-Fetch-Site", "cross-site")]),
                                  403, "cross-origin"),
    "text/plain POST without Origin": (request("POST", "/api/draw/tanglung", GOOD_BODY, ctype="text/plain"), 415,
                                       "application/json"),
    "form POST": (request("POST", "/api/draw/tanglung", b"layout=x", ctype="application/x-www-form-urlencoded"), 415,
                  "application/json"),
    "method PUT": (request("PUT", "/api/catalog"), 405, "not allowed"),
    "method DELETE": (request("DELETE", "/"), 405, "not allowed"),
    "HTTP/2.0 request line": (b"GET / HTTP/2.0\r\nHost: HOST\r\n\r\n", 400, ""),
    "HTTP/0.9 request line": (b"GET /\r\n\r\n", 400, "HTTP/0.9"),
    "garbage request line": (b"\x16\x03\x01 hello there friend\r\n\r\n", 400, ""),
    "empty request line": (b"\r\n\r\n", 400, "empty"),
    "request line over 64 KiB": (b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n", 414, "longer than"),
    "101 headers": (b"GET / HTTP/1.1\r\nHost: HOST\r\n" + b"X-A: b\r\n" * 101 + b"\r\n", 431, ""),
}


@pytest.mark.parametrize("name", list(CASES))
def test_bad_request_is_a_one_line_4xx(srv, name):
    data, code, want = CASES[name]
    assert_refused(send(srv, data), code, want)
    assert_serving(srv)


def test_refusals_do_not_echo_the_input(srv):
    error = assert_refused(send(srv, CASES["5000-digit seed in the query"][0]), 400, "seed")
    assert len(error) < 120


@pytest.mark.parametrize("host", ["127.0.0.1:PORT", "localhost:PORT", "LOCALHOST", "[::1]:PORT", "127.0.0.1"])
def test_loopback_hosts_are_served(srv, host):
    port = srv.server_address[1]
    status, _, body, _ = send(srv, request("GET", "/api/catalog", host=host.replace("PORT", str(port))))
    assert status == 200 and json.loads(body)["games"]


def test_same_origin_posts_are_served(srv):
    port = srv.server_address[1]
    origin = [("Origin", f"http://127.0.0.1:{port}"), ("Sec-Fetch-Site", "same-origin")]
    status, _, body, _ = send(srv, request("POST", "/api/check/tanglung", GOOD_BODY, headers=origin))
    assert status == 200 and json.loads(body)["moves"] == 14  # what check.js sends (common.js's api())
    # a client that is not a browser (no Origin, no Sec-Fetch-Site) may POST JSON too
    status, _, body, _ = send(srv, request("POST", "/api/draw/tanglung", GOOD_BODY, ctype="application/json; charset=utf-8"))
    assert status == 200 and json.loads(body)["layout"] == "CRBF/HDFR/BHFB/RHDC"
    # pages may be opened from a link elsewhere (a navigation), only the API is same-origin only
    status, _, body, _ = send(srv, request("GET", "/play/qango", headers=[("Sec-Fetch-Site", "cross-site")]))
    assert status == 200 and b"<script" in body


def test_a_body_shorter_than_declared(srv):
    # the client stops sending and waits: 408 after the read timeout (0.5 s here), not a hang
    status, _, body, secs = send(srv, request("POST", "/api/check/tanglung", GOOD_BODY, length="1000"))
    assert_refused((status, {"Content-Type": "application/json", "Content-Length": str(len(body))}, body, secs),
                   408, "did not arrive")
    assert secs < 1.9  # the read timeout, not the 2 s time limit
    # the client closes its side: 400 at once
    answer = send(srv, request("POST", "/api/check/tanglung", GOOD_BODY, length="1000"), half_close=True)
    assert_refused(answer, 400, "ended after 33 of its 1,000 bytes")
    assert_serving(srv)


def test_a_silent_client_gets_408(srv):
    answer = send(srv, b"")
    assert_refused(answer, 408, "sent nothing")
    assert answer[3] < 1.9
    answer = send(srv, b"GET /api/catalog HTTP/1.1\r\nHost: HOST\r\n")  # headers never finished
    assert_refused(answer, 408, "")


def test_a_slow_loris_is_cut_at_the_time_limit(srv):
    """Headers trickled a byte every 0.2 s (each read well within the 0.5 s read timeout): the
    connection is answered 408 and closed at the 2 s time limit, and others are served meanwhile."""
    port = srv.server_address[1]
    t0 = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(f"GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
        out = b""
        for i in range(60):  # at most 12 s
            if select.select([s], [], [], 0.2)[0]:
                chunk = s.recv(65536)
                out += chunk
                if not chunk:
                    break
                continue
            try:
                s.sendall(b"X-Slow: a\r\n"[i % 11:i % 11 + 1])
            except OSError:
                break
            if i == 3:
                assert_serving(srv)
    secs = time.monotonic() - t0
    status, headers, body = parse(out)
    assert_refused((status, headers, body, secs), 408, "not received within 2 s")
    assert 1.8 < secs < 5


def test_a_slow_request_does_not_block_others_and_is_cut(fresh, monkeypatch):
    """A hint that never finishes (patched to wait) answers 503 at the time limit while other
    requests are served; with every worker busy and the queue full, a new connection gets 503."""
    from tanglekit.web import session

    release = threading.Event()
    started = threading.Semaphore(0)

    def slow_hint(s):
        started.release()
        release.wait(20)
        return {"action": None, "move": None, "hint": "late"}

    monkeypatch.setattr(session, "hint", slow_hint)
    httpd = fresh(workers=2, queue_size=1, read_timeout=2.0, time_limit=1.0)
    answers: dict[str, tuple] = {}

    def slow(name):
        answers[name] = send(httpd, request("GET", "/api/hint?id=qango"))

    try:
        first = threading.Thread(target=slow, args=("first",))
        first.start()
        assert started.acquire(timeout=10)
        t0 = time.monotonic()
        status, _, _, secs = send(httpd, request("GET", "/api/catalog"))  # the other worker serves it
        assert status == 200 and "first" not in answers and secs < 0.9
        first.join(10)
        assert_refused(answers["first"], 503, "took longer than 1 s")
        assert 0.9 < answers["first"][3] < 3
        # the first worker is still inside its hint (it cannot be stopped, only answered)
        second = threading.Thread(target=slow, args=("second",))
        second.start()
        assert started.acquire(timeout=10)  # now both workers are busy
        with socket.create_connection(("127.0.0.1", httpd.server_address[1]), timeout=10) as waiting:
            waiting.sendall(request("GET", "/api/catalog").replace(b"HOST", b"127.0.0.1"))
            time.sleep(0.2)  # it is in the queue (of 1)
            assert_refused(send(httpd, request("GET", "/api/catalog")), 503, "busy")
            release.set()  # the workers come back: the waiting connection is served
            waiting.settimeout(10)
            out = b""
            while chunk := waiting.recv(65536):
                out += chunk
        assert parse(out)[0] in (200, 503)  # 503 if it waited longer than the time limit
        second.join(10)
        assert answers["second"][0] in (200, 503)  # released before (or after) its time limit
        assert time.monotonic() - t0 < 10
        assert_serving(httpd)
    finally:
        release.set()


def test_a_flood_of_silent_connections_is_answered_and_then_served(fresh):
    """60 connections that send nothing, against 2 workers and a queue of 2: each is answered
    (408 by a worker at its read timeout, 503 beyond the queue), none hangs, and the server
    serves again at once."""
    httpd = fresh(workers=2, queue_size=2, read_timeout=0.3, time_limit=2.0)
    port = httpd.server_address[1]
    socks = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(60)]
    codes = []
    try:
        for s in socks:
            out = b""
            while chunk := s.recv(65536):
                out += chunk
            codes.append(parse(out)[0])
    finally:
        for s in socks:
            s.close()
    assert set(codes) <= {408, 503} and codes.count(503) >= 40, codes
    assert_serving(httpd)


def test_internal_errors_are_one_line_without_a_traceback(fresh, monkeypatch, capsys):
    from tanglekit.web import session

    def broken():
        raise ValueError("a bug\nwith a second line")

    monkeypatch.setattr(session, "catalog", broken)
    httpd = fresh(quiet=False)
    assert_refused(send(httpd, request("GET", "/api/catalog")), 500, "internal error (ValueError)")
    assert_refused(send(httpd, b"GET /\x1b[31mred HTTP/1.1\r\nHost: HOST\r\n\r\n"), 400, "control characters")
    httpd.shutdown()
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error: ValueError: a bug with a second line" in err
    assert "\x1b" not in err  # control characters of a request are escaped in the log
    assert all(line.count('"') <= 4 for line in err.splitlines())


def test_host_check_when_bound_to_every_interface(fresh):
    """Bound to 0.0.0.0, the server answers to any IP address (an address cannot be rebound) and
    to the loopback names, never to another name. (The server here is bound to 127.0.0.1 and only
    told it is bound to 0.0.0.0: nothing listens beyond the loopback.)"""
    httpd = fresh()
    port = httpd.server_address[1]
    httpd.server_address = ("0.0.0.0", port)
    for host in (f"192.168.1.7:{port}", f"10.0.0.2:{port}", f"localhost:{port}", "[fe80::1]"):
        assert send(httpd, request("GET", "/api/catalog", host=host))[0] == 200, host
    for host in (f"evil.example:{port}", f"my-laptop.local:{port}"):
        assert_refused(send(httpd, request("GET", "/api/catalog", host=host)), 400, "not allowed")


def test_exposure_warning():
    from tanglekit.web.server import exposure_warning

    for address in ("127.0.0.1", "127.0.0.2", "::1"):
        assert exposure_warning(address) is None
    assert "every network interface" in exposure_warning("0.0.0.0")
    assert "every network interface" in exposure_warning("::")
    assert "the network address 192.168.1.7" in exposure_warning("192.168.1.7")


@pytest.mark.parametrize("host, warned", [("0.0.0.0", True), ("192.168.1.7", True), ("127.0.0.1", False)])
def test_serve_warns_when_bound_beyond_the_loopback(monkeypatch, host, warned):
    """`tanglekit serve --host H` prints the warning on stderr before serving. make_server is
    replaced by a stand-in that binds nothing, so no port is opened beyond the loopback."""
    from tanglekit.cli import app
    from tanglekit.web import server
    from typer.testing import CliRunner

    class Bound:
        def __init__(self, host, port, quiet):
            self.server_address = (host, 8765)

        def serve_forever(self):
            raise KeyboardInterrupt

        def server_close(self):
            pass

    monkeypatch.setattr(server, "make_server", Bound)
    r = CliRunner().invoke(app, ["serve", "--host", host])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"tanglekit serving on http://{host}:8765/")
    assert ("warning: listening on" in r.stderr) == warned
    if warned:
        assert "--host 127.0.0.1" in r.stderr and len(r.stderr.strip().splitlines()) == 1
