"""The root command group builds a game's commands only when they run (start-up), and shows
exactly what the eagerly built app showed: same help pages, same listing, same errors."""

import importlib

import pytest
import typer
from typer.testing import CliRunner

from tanglekit import cli
from tanglekit.cli_common import execute


def _eager_app():
    """The app as it was built before: every game's sub-app added with add_typer."""
    app = typer.Typer(help=cli.app.info.help, no_args_is_help=True, add_completion=False,
                      pretty_exceptions_enable=False)
    app.registered_commands = list(cli.app.registered_commands)
    app.registered_callback = cli.app.registered_callback
    app.add_typer(cli.shapes_app, name="shapes")
    for name, where in cli._game_groups().items():
        module, attr = where.split(":")
        app.add_typer(getattr(importlib.import_module(module), attr), name=name)
    return app


@pytest.mark.parametrize("args", [["--help"], ["zangle", "--help"], ["tanglung", "solo", "--help"],
                                  ["qango", "solve", "--help"], ["tangle"], ["zinga", "odds", "--help"]])
def test_lazy_groups_show_the_eager_help(args):
    runner = CliRunner()
    lazy = runner.invoke(cli.app, args, env={"COLUMNS": "100"})
    eager = runner.invoke(_eager_app(), args, env={"COLUMNS": "100"})
    assert lazy.output == eager.output and lazy.exit_code == eager.exit_code


def test_unknown_commands_suggest_game_names(capsys):
    assert execute(cli.app, ["tanglng"]) == 2
    assert "Did you mean 'tanglung'" in capsys.readouterr().err
    assert execute(cli.app, ["tanglung", "sol"]) == 2
    assert "No such command 'sol'" in capsys.readouterr().err
