"""The ``gouji`` command: thin click commands over the library.  Only the modules of this package print.

Each command lives in a module of this package that is imported only when that command runs, so
``gouji validate`` starts without the engine, the tournament or the web modules.  The one-line
help of every command is kept here, for ``gouji --help`` (a test checks it against the commands).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

COMMANDS: dict[str, tuple[str, str]] = {
    "bench": (
        "play",
        "Engine speed on one core (random agents), variant loading, and expression hooks vs parameters.",
    ),
    "club": ("club", "Open the club's home page for FOLDER (its rules *.yaml and nights *.sqlite; default: here)."),
    "compare": (
        "compare",
        "Compare VARIANTS (shipped names or files; the first is the baseline) on the same deals.",
    ),
    "diff": ("variants", "Show the rules in which variants A and B differ, side by side."),
    "edit": ("edit", "Edit the house rules FILE in the browser (a new file when it does not exist yet)."),
    "event": ("events", "Run a tournament under house rules: club events at real tables, or bot events."),
    "explain": ("variants", "Print VARIANT (a shipped name or a file) as a house-rules sheet."),
    "replay": ("records", "Step through a hand record: Enter for the next action, q to quit."),
    "room": ("room", "Play a match in the browser under any house rules: people and agents (docs/room.md)."),
    "review": ("review", "Review a seat's decisions (复盘) against the learned agent, in 头科 scores with intervals."),
    "schema": ("variants", "Print the JSON Schema of a variant file (for editors and other tools)."),
    "simulate": ("play", "Play HANDS hands of a variant with bots and count what happens."),
    "validate": ("variants", "Check variant files (or shipped names): every error of every file, and warnings."),
    "train": ("train", "Train the learned agent by self-play under a variant, with checkpoints and resume."),
    "variants": ("variants", "List the shipped variants, one line each."),
    "verify": (
        "records",
        "Check hand records (JSONL files, or EVENT.sqlite) against the rules they were played under.",
    ),
}
"""Each command of ``gouji``: the module whose ``register(group)`` adds it, and its one-line help."""


class LazyGroup(click.Group):
    """A click group whose commands are imported when one is run (or its own help asked for)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command, loaded or not, so ``gouji --help`` lists them all without importing them (a fast start)."""
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Import a command's module on first use only: ``gouji validate`` never pays for the engine or the web app."""
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module = importlib.import_module(f".{COMMANDS[cmd_name][0]}", __package__)
            module.register(self)
        return self.commands.get(cmd_name)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Load every command before click suggests a name for a mistyped one, so "did you mean" sees them all."""
        if args and args[0] not in self.commands and args[0] not in COMMANDS:
            for name in COMMANDS:  # a mistyped name: click's "did you mean" looks among the loaded commands
                self.get_command(ctx, name)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; Ctrl-C ends every command alike, exit 130 (click's own "Aborted!" is exit
        1, which here means invalid input). Outputs are written atomically, so none is half-written."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("interrupted; nothing half-written was kept", err=True)
            sys.exit(130)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Click's ``main``, with stdout's failures and uncaught errors as one line (:mod:`.streams`)."""
        if not kwargs.get("standalone_mode", True):
            return super().main(*args, **kwargs)  # a caller that handles errors itself gets them raised
        from .streams import run_guarded

        return run_guarded(lambda: super(LazyGroup, self).main(*args, **kwargs))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``gouji --help``, from :data:`COMMANDS` (nothing is imported for it)."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            cmd = self.commands.get(name) or click.Command(name, help=COMMANDS[name][1])  # help as click cuts it
            if not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gouji_rules")
def main() -> None:
    """够级 (Gouji): referee hands, check a club's rules, compare variants, run events."""
