"""Issue 12, point 15: every ``lumen`` subcommand and option says what it does; ``--bots``
does what its help says; the demo prints a game's header before the game's first turn."""

import argparse
import subprocess
import sys

from hub.cli.main import build_parser
from tests.hub.hubproc import ROOT


def walk(parser, path=("lumen",)):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield path + (name,), "(the subcommand)", helps.get(name)
                if isinstance(sub, argparse.ArgumentParser):       # not a command another one's parser left unbuilt
                    yield from walk(sub, path + (name,))
        elif not isinstance(action, argparse._HelpAction):
            yield path, "/".join(action.option_strings) or action.dest, action.help


def test_every_subcommand_and_option_has_help_text():
    missing = [" ".join(p) + " " + what for p, what, help_text in walk(build_parser())
               if not help_text or help_text == argparse.SUPPRESS]
    assert not missing, missing


def test_bots_and_play_together_are_refused_plainly():
    out = subprocess.run([sys.executable, "-m", "hub.cli", "demo", "--bots", "--play", "a"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "--bots" in out.stderr and "--play" in out.stderr


def test_bots_with_a_port_and_no_games_keep_playing_as_the_help_says(monkeypatch):
    seen = {}
    import hub.cli.demo as demo
    monkeypatch.setattr(demo, "run_table_demo", lambda **kw: seen.update(kw) or 0)
    from hub.cli.main import main
    assert main(["demo", "--bots", "--port", "8123"]) == 0 and seen["forever"] is True
    assert main(["demo", "--bots"]) == 0 and seen["forever"] is False and seen["games"] == 1
    assert main(["demo", "--bots", "--port", "8123", "--games", "2"]) == 0 and seen["forever"] is False
    assert main(["demo", "--host", "0.0.0.0"]) == 0 and seen["host"] == "0.0.0.0"
    help_text = build_parser()._subparsers._group_actions[0].choices["demo"].format_help()
    assert "keep playing" in " ".join(help_text.split())


def test_the_demo_prints_the_game_header_before_turn_1():
    out = subprocess.run([sys.executable, "-m", "hub.cli", "demo", "--no-serve", "--pace", "0", "--seed", "2"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    header = next(i for i, ln in enumerate(lines) if ln.startswith("== 게임 1:"))
    turn1 = next(i for i, ln in enumerate(lines) if "1턴" in ln or "턴 1" in ln)
    assert header < turn1, lines[:header + 3]


def _shape(parser):
    """Every option and command under ``parser``, as (path, option, help)."""
    return sorted((" ".join(p), what, str(help_text)) for p, what, help_text in walk(parser))


def test_a_parser_built_for_one_command_parses_it_as_the_whole_one_does():
    """Issue 36: ``main`` builds only its command's options (each option cost argparse a look at
    the terminal: 15 M instructions of ``lumen hub``'s start). That command's options, defaults
    and help are the whole parser's; the other commands are still listed with their help."""
    whole = build_parser()
    top = {" ".join(p): h for p, what, h in walk(whole) if what == "(the subcommand)" and len(p) == 2}
    assert len(top) == 11
    for command in (path.split(" ")[1] for path in top):
        one = build_parser(command)
        mine = [row for row in _shape(one) if row[0].split(" ")[1:2] == [command]]
        assert len(mine) > 1, command                  # the command and its options
        assert mine == [row for row in _shape(whole) if row[0].split(" ")[1:2] == [command]], command
        listed = {" ".join(p): h for p, what, h in walk(one) if what == "(the subcommand)" and len(p) == 2}
        assert listed == top, command                  # `lumen -h` and a wrong command still list them all
        made = [n for n, sub in one._subparsers._group_actions[0].choices.items()
                if isinstance(sub, argparse.ArgumentParser)]
        assert made == [command]                       # the others' parsers are not made (gettext, each)
    args = build_parser("hub").parse_args(["hub", "--port", "0", "--mode", "referee"])
    full = whole.parse_args(["hub", "--port", "0", "--mode", "referee"])
    assert {k: v for k, v in vars(args).items() if k != "func"} == {k: v for k, v in vars(full).items() if k != "func"}


def test_main_builds_only_the_command_it_runs(monkeypatch):
    import importlib
    cli = importlib.import_module("hub.cli.main")      # hub.cli's `main` is the function
    built = []
    real = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda command=None: built.append(command) or real(command))
    import hub.cli.games as games
    monkeypatch.setattr(games, "games", lambda args: 0)
    assert cli.main(["games", "--limit", "3"]) == 0
    assert built == ["games"]
