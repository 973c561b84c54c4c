"""The HTTP side of `tanglekit serve`: a standard-library ThreadingHTTPServer with a few pages
(static HTML and JavaScript shipped in the package) and a small JSON API under ``/api``.

Pages: ``/`` (games and generators), ``/play/<ID>?moves=...`` (play with the mouse; the URL is
the position), ``/check/<game>`` (enter a deal or position, ask the solver), ``/new/<generator>``
(a fresh challenge, redirected to its play page). Bad requests answer 400 with
``{"error": "one line"}``; nothing is fetched from the internet.
"""

from __future__ import annotations

import json
import random
import sys
import threading
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, quote, unquote, urlsplit

from ..errors import TanglekitError
from ..games.plugin import plugins
from ..jsonio import is_ascii_digits, short
from . import session as S
from .session import BadRequest

_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}
MAX_BODY = 1 << 20


def _static(name: str) -> bytes:
    if "/" in name or name.startswith("."):
        raise FileNotFoundError(name)
    return resources.files(__package__).joinpath("static", name).read_bytes()


class Handler(BaseHTTPRequestHandler):
    server_version = "tanglekit"
    quiet = True

    def log_message(self, fmt, *args):  # noqa: D401 - one line per request unless quiet
        if not self.server.quiet:
            sys.stderr.write("%s %s\n" % (self.address_string(), fmt % args))

    # -- replies ------------------------------------------------------------------------------
    def _send(self, code: int, body: bytes, ctype: str, extra: dict | None = None) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, data, code: int = 200) -> None:
        self._send(code, json.dumps(data).encode("utf-8"), "application/json")

    def _error(self, code: int, msg: str) -> None:
        self._json({"error": " ".join(str(msg).split())}, code)

    # -- dispatch -----------------------------------------------------------------------------
    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        self._handle("GET")

    def do_POST(self):
        self._handle("POST")

    def _handle(self, method: str) -> None:
        try:
            url = urlsplit(self.path)
            path = unquote(url.path)
            q = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
            self._route(method, path, q)
        except BadRequest as e:
            self._error(400, str(e))
        except TanglekitError as e:  # a bad ID, deal or position: the library's one-line reason
            self._error(400, str(e))
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as e:  # noqa: BLE001 - never a traceback to the page
            if not self.server.quiet:
                traceback.print_exc()
            self._error(500, f"internal error: {type(e).__name__}: {e}")

    def _body(self) -> dict:
        n = int(self.headers.get("Content-Length") or 0)
        if n > MAX_BODY:
            raise BadRequest("request body too large")
        raw = self.rfile.read(n) if n else b""
        try:
            data = json.loads(raw.decode("utf-8") or "{}")
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise BadRequest("the request body is not JSON") from None
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
            except (FileNotFoundError, IsADirectoryError, OSError):
                return self._error(404, f"no file {name!r}")
            ext = name[name.rfind("."):]
            return self._send(200, data, _TYPES.get(ext, "application/octet-stream"))
        if path.startswith("/play/"):
            return self._page("play.html")
        if path.startswith("/check/"):
            game = path[len("/check/"):].strip("/")
            checks = S.catalog()["check"]
            if game not in checks:
                return self._error(404, f"no check page for {game!r}: {', '.join(checks)}")
            return self._page("check.html")
        if path.startswith("/new/"):
            gen = path[len("/new/"):].strip("/")
            seed = _int(q.get("seed"), "seed") if q.get("seed") else random.randrange(1, 10**6)
            spec = S.generator_id(gen, q.get("choice", ""), seed)
            loc = "/play/" + quote(spec, safe=":,=/")
            return self._send(302, b"", "text/plain", {"Location": loc})
        if path.startswith("/api/"):
            return self._api(method, path[len("/api/"):], q)
        return self._error(404, f"no page {path!r}")

    def _page(self, name: str) -> None:
        self._send(200, _static(name), _TYPES[".html"])

    # -- the JSON API -------------------------------------------------------------------------
    def _api(self, method: str, name: str, q: dict) -> None:
        if name == "catalog":
            return self._json(S.catalog())
        for call in ("data", "draw", "check"):
            if name.startswith(call + "/"):
                return self._json(_check_call(call, name[len(call) + 1:], method, q, self._body))
        if name in ("state", "move", "undo", "hint"):
            spec = q.get("id", "").strip(" \t\r\n")  # ASCII spaces only (IDs are ASCII)
            seed = _int(q.get("seed"), "seed") if q.get("seed") else 0
            s = S.open_session(spec, S.parse_moves(q.get("moves")), seed, q.get("bots"))
            msgs: list[str] = []
            if name == "hint":
                return self._json(S.hint(s))
            if name == "move":
                action = _int(q["action"], "action") if q.get("action") else None
                msgs = S.play_move(s, action, q.get("move"))
            elif name == "undo":
                msgs = S.undo(s)
            return self._json(S.view(s, spec, msgs))
        raise BadRequest(f"no API call {name!r}")


def _check_call(call: str, game: str, method: str, q: dict, body) -> dict:
    """A check page's call to its game's plugin: ``data`` (what the page loads first), ``draw``
    (a picture of what is being entered) or ``check`` (the answer, POSTed as JSON)."""
    plugin = next((p for p in plugins() if p.family == game and p.check_page), None)
    if plugin is None:
        raise BadRequest(f"no check page for {game!r}: {', '.join(S.catalog()['check'])}")
    if call == "data":
        return plugin.check_data()
    if call == "draw":
        return plugin.draw(body() if method == "POST" else dict(q))
    if method != "POST":
        raise BadRequest("send the deal or position by POST as JSON")
    return plugin.check(body())


def _int(v, what: str) -> int:
    if not is_ascii_digits(v, signed=True) or len(v) > 20:  # int() would take ' 1', '1_0', '١'
        raise BadRequest(f"{what} must be an integer, not {short(v)}")
    return int(v)


def make_server(host: str = "127.0.0.1", port: int = 0, quiet: bool = True) -> ThreadingHTTPServer:
    """A server bound to ``host:port`` (port 0: a free port); ``server.server_address`` has it."""
    httpd = ThreadingHTTPServer((host, port), Handler)
    httpd.daemon_threads = True
    httpd.quiet = quiet
    return httpd


def url_of(httpd) -> str:
    host, port = httpd.server_address[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def start_in_thread(host: str = "127.0.0.1", port: int = 0) -> tuple[ThreadingHTTPServer, threading.Thread]:
    """Serve in a background thread (tests); stop with ``httpd.shutdown()``."""
    httpd = make_server(host, port)
    t = threading.Thread(target=httpd.serve_forever, name="tanglekit-serve", daemon=True)
    t.start()
    return httpd, t
