"""Commands for hand records: ``gouji replay`` and ``gouji verify``.

Thin: parse options, call gouji_rules.records, print.  Exit codes: 0 fine,
1 bad input or a failed check, 2 a usage error.
"""

from __future__ import annotations

import sys

import click

from .common import add_commands, handles_errors


@click.command("replay")
@click.argument("record_file", type=click.Path(dir_okay=False))
@click.option("--hand", default=1, show_default=True, type=click.IntRange(1), help="which hand record of the file")
@click.option("--variant", "variant_spec", help="variant file or name (default: the rules the record carries)")
@click.option("--no-pause", is_flag=True, help="print every step without waiting")
@handles_errors
def replay_cmd(record_file: str, hand: int, variant_spec: str | None, no_pause: bool) -> None:
    """Step through a hand record: Enter for the next action, q to quit."""
    from .. import catalog
    from ..records import pick, replay

    override = catalog.resolve(variant_spec) if variant_spec else None
    variant, rec = pick(record_file, hand, override)
    stdin = sys.stdin
    pause = not no_pause

    def wait() -> bool:
        nonlocal pause
        if not pause:
            return True
        click.echo("-- Enter: next, q: quit --", err=True, nl=False)
        line = str(stdin.readline())
        if not line:
            pause = False  # input ended: print the rest
            return True
        return line.strip().lower() != "q"

    if not replay(variant, rec, click.echo, wait):
        sys.exit(1)


@click.command("verify")
@click.argument("records", nargs=-1, type=click.Path(dir_okay=False))
@click.option("--variant", "variant_spec", help="verify every record under this variant file or name")
@click.option("--quiet", "-q", is_flag=True, help="no summary line")
@click.option("--schema", "print_schema", is_flag=True, help="print the JSON Schema of a record and exit")
@handles_errors
def verify_cmd(records: tuple[str, ...], variant_spec: str | None, quiet: bool, print_schema: bool) -> None:
    """Check hand records (JSONL files, or EVENT.sqlite) against the rules they were played under.

    Each record must match the record format (--schema), carry its rules' fingerprint,
    deal the variant's deck (and the deal its seed makes), replay to the recorded end, and
    state the debts its replay leaves (debts_next); the first illegal action is reported
    with its rule.  Exit 0 when every record verifies, 1 when any does not.
    """
    from ..records import schema_text, verify_files

    if print_schema:
        click.echo(schema_text(), nl=False)
        return
    if not records:
        raise click.UsageError("give the records files (or event files) to verify")
    from .. import catalog

    override = catalog.resolve(variant_spec) if variant_spec else None
    notes: list[str] = []
    count, problems = verify_files(list(records), override, notes)
    for note in notes:
        click.echo(f"note: {note}", err=True)
    for p in problems:
        click.echo(str(p))
    if not quiet:
        bad = len({(p.file, p.line, p.at) for p in problems if p.hand or p.at})
        click.echo(f"{count} record(s) read, {max(count - bad, 0)} verified, {len(problems)} problem(s)", err=True)
    if count == 0 and not problems:
        click.echo("error: no hand records to verify", err=True)
    sys.exit(1 if problems or count == 0 else 0)


def register(group: click.Group) -> None:
    """Add ``replay`` and ``verify`` to the ``gouji`` group."""
    add_commands(group, replay_cmd, verify_cmd)


__all__ = ["register", "replay_cmd", "verify_cmd"]
