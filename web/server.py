"""The HTTP side of `tanglekit serve`: a standard-library HTTP server with a few pages (static HTML
and JavaScript shipped in the package) and a small JSON API under ``/api``.

Pages: ``/`` (games and generators), ``/play/<ID>?moves=...`` (play with the mouse or the
keyboard; the URL is the position), ``/check/<game>`` (enter a deal or position, ask the solver),
``/new/<generator>`` (a fresh challenge, redirected to its play page), ``/rules`` (docs/rules.md,
the rules as tanglekit reads them) and ``/docs/<page>`` (the other pages of docs/). Nothing is
fetched from the internet.

Every bad request answers a 4xx with one line of JSON, ``{"error": "..."}``, and the server goes
on serving (docs/serve.md, "Security"):

* Host: only the loopback names (``localhost``, ``127.0.0.1``, ``[::1]``) and the bound address
  (any IP address when bound to all interfaces), so a page elsewhere cannot reach the server
  through DNS rebinding (400).
* Same origin: a POST, and any ``/api/`` call, from a browser must come from the server's own
  pages: ``Sec-Fetch-Site`` same-origin (or none) and ``Origin`` equal to the server's (403); a
  POST body must be ``application/json`` (415), which a cross-origin page cannot send without a
  preflight the server never grants.
* Bodies: a strict ``Content-Length`` (digits only, one header, at most ``MAX_BODY``: 400 / 413;
  ``Transfer-Encoding`` 411), JSON through ``jsonio`` (depth, number and constant limits: 400).
* Time: every socket read waits at most ``read_timeout`` seconds (408), and each connection has
  ``time_limit`` seconds from its arrival to its answer; past it a watchdog answers 408 (still
  reading) or 503 (still working) and closes it. A fixed pool of ``workers`` threads serves the
  connections from a queue of ``queue_size``; beyond that a connection is answered 503 at once.
"""

from __future__ import annotations

import heapq
import ipaddress
import itertools
import json
import queue
import random
import re
import selectors
import socket
import socketserver
import sys
import threading
import time
from html import escape as html_escape
from http.server import BaseHTTPRequestHandler, HTTPServer
from importlib import resources
from urllib.parse import parse_qsl, quote, unquote, urlsplit

from ..errors import TanglekitError
from ..games.plugin import game_names, load_game, plugin_of, plugins
from ..jsonio import decode_text, parse_json_text, short
from . import markdown
from . import session as S
from .session import BadRequest

_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}
MAX_BODY = 1 << 20  # bytes of a request body (a check page's deal is under 2 KiB)
MAX_LINE = 65536  # bytes of the request line (a play URL of 5000 moves is about 25 KiB)
MAX_QUERY_FIELDS = 64
MAX_ERROR = 600  # characters of an error line
WORKERS = 8  # threads serving connections
QUEUE_SIZE = 32  # connections waiting for a worker; more are answered 503 at once
READ_TIMEOUT = 10.0  # seconds a socket read may wait (a client silent that long gets 408)
TIME_LIMIT = 60.0  # seconds from a connection's arrival to its answer (the solvers stop sooner:
#                    the Zangle check at 20 s, QANGO at 5 s)
BUSY_WAIT = 0.2  # seconds a connection beyond the queue may take to send its request before its 503
MAX_REFUSING = 256  # connections being answered 503 at a time (more are closed unanswered)
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


class Refused(Exception):
    """A request refused before it reaches the pages or the API: an HTTP code and one line."""

    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


def _one_line(msg: str) -> str:
    text = " ".join(str(msg).split())
    return text if len(text) <= MAX_ERROR else text[: MAX_ERROR - 1] + "…"


def _raw_reply(code: int, msg: str) -> bytes:
    """A whole one-line JSON error response, for the watchdog and for a connection refused
    before a handler exists."""
    body = json.dumps({"error": _one_line(msg)}).encode("utf-8")
    reason = BaseHTTPRequestHandler.responses.get(code, ("Error",))[0]
    head = (f"HTTP/1.0 {code} {reason}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n")
    return head.encode("ascii") + body


def _printable(text: str, limit: int = 300) -> str:
    """``text`` for a log line: control characters escaped, cut to ``limit`` characters."""
    out = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return out if len(out) <= limit else out[: limit - 1] + "…"


def _static(name: str) -> bytes:
    if "/" in name or "\\" in name or name.startswith(".") or not name.isprintable():
        raise FileNotFoundError(name)
    return resources.files(__package__).joinpath("static", name).read_bytes()


class Handler(BaseHTTPRequestHandler):
    server_version = "tanglekit"
    sys_version = ""
    protocol_version = "HTTP/1.0"  # one request per connection: the time limit is the request's

    # -- the connection's life: read, work, write, done; the watchdog may cut it ------------------
    def setup(self) -> None:
        self.timeout = self.server.read_timeout  # every socket read and write waits at most this
        super().setup()
        self._lock = threading.Lock()
        self._phase = "read"
        self._replied = False  # a reply has started (by this thread or the watchdog)
        self.command, self.requestline = "", ""
        self._raw_body = b""
        self._token = self.server.watchdog.watch(self, self.server.local.deadline)

    def finish(self) -> None:
        with self._lock:
            self._phase = "done"
        self.server.watchdog.forget(self._token)
        try:
            super().finish()
        except OSError:  # the watchdog closed the connection, or the client went away
            pass

    def cut(self) -> None:
        """Past the time limit (called by the watchdog thread): answer 408 if the request is still
        being received, 503 if it is being worked on, then close the connection."""
        with self._lock:
            if self._phase == "done":
                return
            answer, phase = not self._replied, self._phase
            self._replied = True
        if answer:
            if phase == "read":
                data = _raw_reply(408, f"the request was not received within {self.server.time_limit:g} s")
            else:
                data = _raw_reply(503, f"the request took longer than {self.server.time_limit:g} s; "
                                       "ask for less or try again later")
            try:  # never waits: the watchdog serves every connection (the worker's next read fails)
                self.connection.setblocking(False)
                self.connection.send(data)
            except OSError:
                pass
            self.log_message('"%s" %s cut at the time limit', self.requestline, 408 if phase == "read" else 503)
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def handle_one_request(self) -> None:
        """One request: as the standard library's, with a one-line answer for every failure (a
        silent client: 408; an unknown method: 405)."""
        self.requestline, self.request_version = "", self.default_request_version
        try:
            self.raw_requestline = self.rfile.readline(MAX_LINE + 1)
            if len(self.raw_requestline) > MAX_LINE:
                return self._error(414, f"the request line is longer than {MAX_LINE} bytes")
            if not self.raw_requestline:
                return  # closed before a request: nothing to answer
            if not self.raw_requestline.strip():
                return self._error(400, "empty request line")
            if not self.parse_request():
                return
            method = getattr(self, "do_" + self.command, None)
            if method is None:
                return self._error(405, f"method {_printable(self.command, 40)!r} is not allowed: GET, HEAD or POST",
                                   {"Allow": "GET, HEAD, POST"})
            method()
            self.wfile.flush()
        except TimeoutError:
            try:
                self._error(408, f"the client sent nothing for {self.server.read_timeout:g} s")
            except OSError:
                self.close_connection = True
        except OSError:  # the client went away, or the watchdog closed the connection
            self.close_connection = True

    def parse_request(self) -> bool:
        if not super().parse_request():
            return False
        if self.request_version == "HTTP/0.9":
            self.request_version = "HTTP/1.0"
            self._error(400, "HTTP/0.9 requests are not served: send GET /path HTTP/1.1")
            return False
        return True

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The standard library's refusals (a bad request line, too many headers...) as one line
        of JSON; an unsupported HTTP version is the client's error here (400)."""
        if code == 505:
            code = 400
        self._error(code, message or self.responses.get(code, ("error",))[0])

    def log_message(self, fmt, *args):
        """One line per request (and per refusal) with --verbose, control characters escaped."""
        if not self.server.quiet:
            sys.stderr.write(f"{self.address_string()} {_printable(fmt % args)}\n")

    # -- replies ------------------------------------------------------------------------------
    def _send(self, code: int, body: bytes, ctype: str, extra: dict | None = None) -> None:
        with self._lock:
            if self._replied:  # the watchdog has answered (or a reply was already sent)
                return
            self._replied = True
            self._phase = "write"
        if self.request_version == "HTTP/0.9":  # a request line refused before its version was read
            self.request_version = "HTTP/1.0"  # (the standard library would then send no headers)
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Connection", "close")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, data, code: int = 200, extra: dict | None = None) -> None:
        self._send(code, json.dumps(data).encode("utf-8"), "application/json", extra)

    def _error(self, code: int, msg: str, extra: dict | None = None) -> None:
        self.close_connection = True
        self._json({"error": _one_line(msg)}, code, extra)

    # -- dispatch -----------------------------------------------------------------------------
    def do_HEAD(self):
        self._handle("GET")

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def _handle(self, method: str) -> None:
        try:
            self._raw_body = self._read_body()
            self._check_host()
            url = urlsplit(self.path)
            path = unquote(url.path)
            if not path.isprintable():
                raise Refused(400, "the path contains control characters")
            q = self._query(url.query)
            if method == "POST" or path.startswith("/api/"):
                self._check_same_origin(method)
            with self._lock:
                self._phase = "work"
            self._route(method, path, q)
        except Refused as e:
            self._error(e.code, str(e))
        except TanglekitError as e:  # BadRequest, or a bad ID, deal or position: the library's reason
            self._error(400, str(e))
        except TimeoutError:
            self._error(408, f"the request body did not arrive (silent for {self.server.read_timeout:g} s)")
        except OSError:  # the client went away, or the watchdog closed the connection
            self.close_connection = True
        except Exception as e:  # noqa: BLE001 - a bug: one line, never a traceback
            self.log_message('"%s" internal error: %s: %s', self.requestline, type(e).__name__, _one_line(str(e))[:200])
            self._error(500, f"internal error ({type(e).__name__}); the request was not understood")

    # -- the checks before any work -----------------------------------------------------------
    def _read_body(self) -> bytes:
        """The body, by a strict Content-Length (one header, digits only, at most MAX_BODY)."""
        if self.headers.get("Transfer-Encoding") is not None:
            raise Refused(411, "send the body with a Content-Length, not a Transfer-Encoding")
        values = self.headers.get_all("Content-Length") or []
        if not values:
            return b""
        if len(values) > 1:
            raise Refused(400, "more than one Content-Length header")
        v = values[0].strip()
        if not re.fullmatch(r"[0-9]{1,18}", v):
            raise Refused(400, f"Content-Length must be a number of bytes, not {short(v, 40)}")
        n = int(v)
        if n > MAX_BODY:
            raise Refused(413, f"the request body is too large: {n:,} bytes (at most {MAX_BODY:,})")
        data = self.rfile.read(n) if n else b""
        if len(data) < n:
            raise Refused(400, f"the request body ended after {len(data):,} of its {n:,} bytes")
        return data

    def _check_host(self) -> None:
        """Only the loopback names and the bound address: a name resolving here by DNS rebinding
        (``evil.example``) is refused."""
        values = self.headers.get_all("Host") or []
        if len(values) != 1:
            raise Refused(400, "a request needs one Host header" if not values else "more than one Host header")
        m = re.fullmatch(r"(\[[0-9A-Fa-f:.]+\]|[^\[\]:/@\s]+)(?::([0-9]{1,5}))?", values[0].strip())
        if not m or not self.server.host_allowed(m.group(1)):
            raise Refused(400, f"Host {short(values[0], 80)} is not allowed: open "
                               f"{url_of(self.server)} (this server answers only to its own address)")

    def _check_same_origin(self, method: str) -> None:
        """A browser's POST or API call must come from this server's own pages."""
        site = self.headers.get("Sec-Fetch-Site")
        if site is not None and site.strip().lower() not in ("same-origin", "none"):
            raise Refused(403, f"cross-origin request refused (Sec-Fetch-Site: {short(site, 40)})")
        origin = self.headers.get("Origin")
        if origin is not None and origin.strip().lower() != "http://" + self.headers["Host"].strip().lower():
            raise Refused(403, f"cross-origin request refused (Origin: {short(origin, 80)})")
        if method == "POST":
            ctype = self.headers.get("Content-Type")
            media = (ctype or "").split(";")[0].strip().lower()
            if (self._raw_body or ctype is not None) and media != "application/json":
                raise Refused(415, "send the request body as JSON (Content-Type: application/json)")

    def _query(self, query: str) -> dict:
        try:
            pairs = parse_qsl(query, keep_blank_values=True, max_num_fields=MAX_QUERY_FIELDS)
        except ValueError:
            raise Refused(400, f"more than {MAX_QUERY_FIELDS} query fields") from None
        if not all(k.isprintable() and v.isprintable() for k, v in pairs):
            raise Refused(400, "the query contains control characters")
        return dict(pairs)

    def _body(self) -> dict:
        """The request body as a JSON object (through jsonio: depth, numbers, constants bounded)."""
        raw = self._raw_body
        if not raw.strip():
            return {}
        data = parse_json_text(decode_text(raw, "the request body", "JSON body"), "the request body", "JSON body")
        if not isinstance(data, dict):
            raise BadRequest("the request body must be a JSON object")
        return data

    def _route(self, method: str, path: str, q: dict) -> None:
        if path in ("/", "/index.html"):
            return self._page("index.html")
        if path.startswith("/static/"):
            name = path[len("/static/"):]
            try:
                data = _static(name)
            except (FileNotFoundError, IsADirectoryError, OSError, ValueError):
                return self._error(404, f"no file {short(name, 80)}")
            ext = name[name.rfind("."):]
            return self._send(200, data, _TYPES.get(ext, "application/octet-stream"))
        if path.startswith("/play/"):
            return self._page("play.html")
        if path.startswith("/check/"):
            game = path[len("/check/"):].strip("/")
            checks = S.catalog()["check"]
            if game not in checks:
                return self._error(404, f"no check page for {short(game, 80)}: {', '.join(checks)}")
            return self._page("check.html")
        if path.startswith("/new/"):
            gen = path[len("/new/"):].strip("/")
            seed = _int(q.get("seed"), "seed") if q.get("seed") else random.randrange(1, 10**6)
            spec = S.generator_id(gen, q.get("choice", ""), seed)
            loc = "/play/" + quote(spec, safe=":,=/")
            return self._send(302, b"", "text/plain", {"Location": loc})
        if path.startswith("/api/"):
            return self._api(method, path[len("/api/"):], q)
        if path.rstrip("/") == "/rules" or path.startswith("/docs/"):
            name = "rules" if path.rstrip("/") == "/rules" else path[len("/docs/"):].strip("/")
            page = doc_page(name)
            if page is None:
                return self._error(404, f"no page {short(path, 80)}")
            return self._send(200, page.encode("utf-8"), _TYPES[".html"])
        return self._error(404, f"no page {short(path, 80)}")

    def _page(self, name: str) -> None:
        self._send(200, _static(name), _TYPES[".html"])

    # -- the JSON API -------------------------------------------------------------------------
    def _api(self, method: str, name: str, q: dict) -> None:
        if name == "catalog":
            return self._json(S.catalog())
        if name == "rules":
            return self._json(rules_panel(q))
        for call in ("data", "draw", "check"):
            if name.startswith(call + "/"):
                return self._json(_check_call(call, name[len(call) + 1:], method, q, self._body))
        if name in ("state", "move", "undo", "hint", "answer"):
            spec = q.get("id", "").strip(" \t\r\n")  # ASCII spaces only (IDs are ASCII)
            seed = _int(q.get("seed"), "seed") if q.get("seed") else 0
            s = S.open_session(spec, S.parse_moves(q.get("moves")), seed, q.get("bots"))
            msgs: list[str] = []
            if name == "hint":
                return self._json(S.hint(s))
            if name == "answer":
                return self._json(S.answer(s, min(S.ANSWER_TIME, self.server.time_limit / 3)))
            if name == "move":
                action = _int(q["action"], "action") if q.get("action") else None
                msgs = S.play_move(s, action, q.get("move"))
            elif name == "undo":
                msgs = S.undo(s)
            return self._json(S.view(s, spec, msgs))
        raise BadRequest(f"no API call {short(name, 80)}")


def _check_call(call: str, game: str, method: str, q: dict, body) -> dict:
    """A check page's call to its game's plugin: ``data`` (what the page loads first), ``draw``
    (a picture of what is being entered) or ``check`` (the answer, POSTed as JSON)."""
    plugin = next((p for p in plugins() if p.family == game and p.check_page), None)
    if plugin is None:
        raise BadRequest(f"no check page for {short(game, 80)}: {', '.join(S.catalog()['check'])}")
    if call == "data":
        return plugin.check_data()
    if call == "draw":
        return plugin.draw(body() if method == "POST" else dict(q))
    if method != "POST":
        raise BadRequest("send the deal or position by POST as JSON")
    return plugin.check(body())


def rules_panel(q: dict) -> dict:
    """The rules panel of a page (``GamePlugin.rules``, its markdown rendered as HTML): of the game
    a play page shows (``id``, with ``seed``; the moves played change no rule, so ``moves`` is not
    read), of a family with its default options, or of an API game (``game``) with the rule
    options the other fields give (a check page's choices: ``game=zangle-solo&piles=6``)."""
    spec = q.get("id", "").strip(" \t\r\n")
    if spec:
        start = S.cached_start(spec, _int(q.get("seed"), "seed") if q.get("seed") else 0)
        game = start.state.get_game()
        panel = plugin_of(start.game).rules(game, start.goal)
    else:
        name = q.get("game", "").strip(" \t\r\n")
        family = next((p for p in plugins() if p.family == name), None)
        if name in game_names():  # (a family of one game has its name: the game, with the options given)
            # rule options as a check page's selects give them (piles=6, board=7plus): digits are numbers
            params = {k: int(v) if v.isascii() and v.isdigit() else v for k, v in q.items() if k != "game"}
            panel = plugin_of(name).rules(load_game(name, **params))
        elif family is not None:
            panel = family.rules()
        else:
            raise BadRequest(f"no game {short(name, 80)}: give id=ID or game= one of "
                             f"{', '.join([p.family for p in plugins()] + game_names())}")
    panel["summary_html"] = markdown.render(panel["summary"])
    for sec in panel["sections"]:
        sec["html"] = markdown.render(sec["text"], base_level=2)
    for row in panel["options"]:
        row["meaning_html"] = markdown.render_inline(row["meaning"])
    panel["link"] = "/rules#" + panel["anchor"]
    return panel


def _doc_text(name: str) -> str | None:
    """The text of docs/<name>.md shipped in the package (None if there is none)."""
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,60}", name):
        return None
    try:
        return resources.files(__package__.rsplit(".", 1)[0]).joinpath("docs", name + ".md").read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, UnicodeDecodeError, OSError):
        return None


def doc_page(name: str) -> str | None:
    """The HTML page of docs/<name>.md (``rules``: the rules as tanglekit reads them), or None."""
    text = _doc_text(name)
    if text is None:
        return None
    m = re.search(r"^#\s+(.+)$", text, re.MULTILINE)
    title = m.group(1).strip() if m else name
    body = markdown.render(text)
    return ('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
            f'<title>tanglekit: {html_escape(title)}</title><link rel="stylesheet" href="/static/app.css"></head>\n'
            '<body>\n<header><a class="brand" href="/">tanglekit</a><a href="/rules">rules</a></header>\n'
            f'<main class="doc">\n{body}\n</main>\n</body></html>\n')


def _int(v, what: str) -> int:
    """A whole number of at most 20 digits (seeds are below 2**64; action numbers far smaller)."""
    if not isinstance(v, str) or not re.fullmatch(r"[-+]?[0-9]{1,20}", v.strip()):
        raise BadRequest(f"{what} must be an integer, not {short(v, 40)}")
    return int(v)


# --- the server: a fixed pool of workers, a bounded queue, a watchdog ---------------------------
class Watchdog:
    """One thread that cuts connections past their deadline (``Handler.cut``)."""

    def __init__(self) -> None:
        self._cv = threading.Condition()
        self._heap: list[tuple[float, int]] = []
        self._live: dict[int, Handler] = {}
        self._ids = itertools.count()
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="tanglekit-watchdog", daemon=True)
        self._thread.start()

    def watch(self, handler: Handler, deadline: float) -> int:
        token = next(self._ids)
        with self._cv:
            self._live[token] = handler
            heapq.heappush(self._heap, (deadline, token))
            if len(self._heap) > 2 * len(self._live) + 64:  # drop the entries of finished requests
                self._heap = [e for e in self._heap if e[1] in self._live]
                heapq.heapify(self._heap)
            self._cv.notify()
        return token

    def forget(self, token: int) -> None:
        with self._cv:
            self._live.pop(token, None)

    def stop(self) -> None:
        with self._cv:
            self._stopped = True
            self._cv.notify()

    def _run(self) -> None:
        while True:
            due = []
            with self._cv:
                if self._stopped:
                    return
                now = time.monotonic()
                while self._heap and self._heap[0][0] <= now:
                    handler = self._live.pop(heapq.heappop(self._heap)[1], None)
                    if handler is not None:
                        due.append(handler)
                if not due:
                    self._cv.wait(self._heap[0][0] - now if self._heap else None)
            for handler in due:
                try:
                    handler.cut()
                except Exception:  # noqa: BLE001, S110 - the watchdog must outlive any connection
                    pass


class Server(HTTPServer):
    """``HTTPServer`` with ``workers`` threads taking connections from a queue of ``queue_size``
    (a connection beyond it is answered 503 by a separate thread), a ``read_timeout`` on every
    socket read and a ``time_limit`` per connection kept by a ``Watchdog``; the Host check's
    names (``host_allowed``)."""

    request_queue_size = 128  # the listen backlog

    def __init__(self, address: tuple[str, int], *, quiet: bool = True, workers: int = WORKERS,
                 queue_size: int = QUEUE_SIZE, read_timeout: float = READ_TIMEOUT,
                 time_limit: float = TIME_LIMIT) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.quiet = quiet
        self.read_timeout = read_timeout
        self.time_limit = time_limit
        self.local = threading.local()  # the deadline of the connection a worker is serving
        self._queue: queue.Queue = queue.Queue(queue_size)
        self._refusals: queue.Queue = queue.Queue(MAX_REFUSING)
        self._threads: list[threading.Thread] = []
        self.watchdog: Watchdog | None = None
        super().__init__(address, Handler)  # binds (OSError when it cannot), before any thread starts
        self.watchdog = Watchdog()
        self._threads = [threading.Thread(target=self._work, name=f"tanglekit-worker-{i}", daemon=True)
                         for i in range(workers)]
        self._threads.append(threading.Thread(target=self._refuse_busy, name="tanglekit-busy", daemon=True))
        for t in self._threads:
            t.start()

    def server_bind(self) -> None:
        socketserver.TCPServer.server_bind(self)  # not HTTPServer's: its getfqdn() may wait on DNS
        self.server_name, self.server_port = self.server_address[:2]

    def host_allowed(self, host: str) -> bool:
        """A Host header's name (without the port): a loopback name, the bound address, or, when
        bound to all interfaces, any IP address (an address cannot be rebound, only a name)."""
        name = host.lower()
        if name.startswith("["):
            name = name[1:-1]
        if name in LOOPBACK_NAMES or name == str(self.server_address[0]).lower():
            return True
        try:
            ip = ipaddress.ip_address(name)
            bound = ipaddress.ip_address(self.server_address[0])
        except ValueError:
            return False
        return ip == bound or bound.is_unspecified

    def process_request(self, request, client_address) -> None:
        try:
            self._queue.put_nowait((request, client_address, time.monotonic()))
        except queue.Full:
            try:
                self._refusals.put_nowait(request)
            except queue.Full:
                self.shutdown_request(request)

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            request, client_address, arrived = item
            self.local.deadline = arrived + self.time_limit
            try:
                if time.monotonic() >= self.local.deadline:  # waited in the queue the whole time
                    self._answer_busy(request)
                else:
                    self.finish_request(request, client_address)
            except Exception:  # noqa: BLE001 - a worker serves until the server closes
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    def _refuse_busy(self) -> None:
        """Answer 503 to the connections beyond the queue, many at a time: each as soon as its
        request has arrived (read, so that closing does not reset the connection) or after
        ``BUSY_WAIT`` seconds, whichever is first."""
        sel = selectors.DefaultSelector()
        waiting: dict = {}  # socket -> when to answer it anyway
        stopping = False
        while not (stopping and not waiting):
            try:
                while not stopping and len(waiting) < MAX_REFUSING:
                    request = self._refusals.get_nowait() if waiting else self._refusals.get()
                    if request is None:
                        stopping = True
                        break
                    request.setblocking(False)
                    sel.register(request, selectors.EVENT_READ)
                    waiting[request] = time.monotonic() + BUSY_WAIT
            except queue.Empty:
                pass
            ready = {key.fileobj for key, _ in sel.select(0.05)} if waiting else set()
            now = time.monotonic()
            for request in [r for r, t in waiting.items() if r in ready or t <= now or stopping]:
                sel.unregister(request)
                del waiting[request]
                self._answer_busy(request)
                self.shutdown_request(request)
        sel.close()

    @staticmethod
    def _answer_busy(request) -> None:
        try:
            request.setblocking(False)  # (with a timeout set, Python would wait for it to arrive)
            try:
                request.recv(65536)  # the request if it is here, so that closing does not reset the connection
            except OSError:
                pass
            request.settimeout(0.2)
            request.sendall(_raw_reply(503, "the server is busy; try again in a moment"))
        except OSError:
            pass

    def handle_error(self, request, client_address) -> None:
        """One line on stderr (with --verbose), never a traceback."""
        if not self.quiet:
            e = sys.exc_info()[1]
            sys.stderr.write(f"{client_address[0]} connection error: {type(e).__name__}: {_printable(str(e), 200)}\n")

    def server_close(self) -> None:
        super().server_close()
        if self.watchdog is None:  # the bind failed: no thread was started
            return
        self.watchdog.stop()
        while True:  # connections still waiting are closed unanswered
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                self.shutdown_request(item[0])
        for q, n in ((self._queue, len(self._threads) - 1), (self._refusals, 1)):
            for _ in range(n):
                try:
                    q.put(None, timeout=0.1)
                except queue.Full:
                    break


def make_server(host: str = "127.0.0.1", port: int = 0, quiet: bool = True, **limits) -> Server:
    """A server bound to ``host:port`` (port 0: a free port); ``server.server_address`` has it.
    ``limits``: ``workers``, ``queue_size``, ``read_timeout``, ``time_limit`` (see ``Server``)."""
    return Server((host, port), quiet=quiet, **limits)


def exposure_warning(address: str) -> str | None:
    """What to tell the person starting a server bound to ``address`` beyond the loopback (None
    on the loopback)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return None
    if ip.is_loopback:
        return None
    where = "every network interface of this machine" if ip.is_unspecified else f"the network address {address}"
    return (f"warning: listening on {where}: anyone who can reach this port can use the pages and run "
            "the solvers (there is no password); --host 127.0.0.1 keeps it to this machine")


def url_of(httpd) -> str:
    host, port = httpd.server_address[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def start_in_thread(host: str = "127.0.0.1", port: int = 0, **limits) -> tuple[Server, threading.Thread]:
    """Serve in a background thread (tests); stop with ``httpd.shutdown()``."""
    httpd = make_server(host, port, **limits)
    t = threading.Thread(target=httpd.serve_forever, name="tanglekit-serve", daemon=True)
    t.start()
    return httpd, t
