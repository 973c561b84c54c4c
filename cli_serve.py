"""`tanglekit serve`: the local web app (play with the mouse, check deals by clicking).

Imports only typer at load time; the server is loaded inside the command.
"""

from __future__ import annotations

import typer

from .errors import TanglekitError


def serve(
    port: int = typer.Option(8765, "--port", help="Port to listen on (0: any free port)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (default: this machine only; "
                             "any other address lets other machines connect, with a warning)."),
    verbose: bool = typer.Option(False, "--verbose", help="Print one line per request (and per refusal)."),
) -> None:
    """A local web app: play any ID with the mouse, check deals by clicking. Example: tanglekit serve --port 0."""
    from .web.server import exposure_warning, make_server, url_of  # start-up: loaded when the command runs

    if not 0 <= port <= 65535:
        raise TanglekitError(f"--port must be 0..65535, not {port}")
    try:
        httpd = make_server(host, port, quiet=not verbose)
    except OSError as e:
        raise TanglekitError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    warning = exposure_warning(httpd.server_address[0])
    if warning:
        typer.echo(warning, err=True)
    typer.echo(f"tanglekit serving on {url_of(httpd)} (Ctrl-C stops)", err=False)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        typer.echo("stopped")
    finally:
        httpd.server_close()


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
