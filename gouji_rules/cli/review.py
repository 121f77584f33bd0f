"""``gouji review``: 复盘, one seat's decisions of a records file against the learned agent.

Thin: parse options, call gouji_rules.review, print.  Seats are 1-6 in the text, as people count
them, and 0-5 in ``--json``, as records do.  Exit codes: 0 fine, 1 bad input, 2 a usage error.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import click

from .common import OUTPUT, SEED, add_commands, check_output_paths, handles_errors


@click.command("review")
@click.argument("records", type=click.Path(dir_okay=False))
@click.option("--seat", required=True, type=click.IntRange(1, 6), help="the seat to review, 1-6 as people count them")
@click.option("--hand", type=click.IntRange(1), help="only the K-th hand record of the file (default: every hand)")
@click.option("--worlds", default=16, show_default=True, type=click.IntRange(1, 10_000), help="worlds per decision")
@click.option(
    "--candidates", default=3, show_default=True, type=click.IntRange(1, 64), help="the agent's best actions tried"
)
@click.option("--seed", default=0, show_default=True, type=SEED, help="the worlds' seed (same seed, same review)")
@click.option("--variant", "variant_spec", help="variant file or name (default: the rules the records carry)")
@click.option("--json", "as_json", is_flag=True, help="JSON (seats 0-5, as records and the bot protocol)")
@click.option("--html", "html_path", type=OUTPUT, help="also write a phone page (never over an input)")
@click.option("--lang", type=click.Choice(["zh", "en"]), default="zh", show_default=True, help="language of the text")
@click.option("--quiet", is_flag=True, help="no progress lines on stderr")
@handles_errors
def review_cmd(
    records: str,
    seat: int,
    hand: int | None,
    worlds: int,
    candidates: int,
    seed: int,
    variant_spec: str | None,
    as_json: bool,
    html_path: str | None,
    lang: str,
    quiet: bool,
) -> None:
    """Review a seat's decisions (复盘) against the learned agent, in 头科 scores with intervals.

    Each move is set beside the agent's best; the difference is given with its 95% interval, over
    worlds drawn from the seat's own view.  失误 when the interval starts at 0.5 or more, 有争议 at 0.2.
    """
    from .. import catalog
    from ..outputs import variant_inputs
    from ..review import Budget, review
    from ..review.read import hands_to_review
    from ..review.text import review_lines
    from ..tournament.errors import InputError

    check_output_paths([html_path], [records, *variant_inputs(variant_spec)])
    budget = Budget(worlds=worlds, candidates=candidates, seed=seed)
    override = catalog.resolve(variant_spec) if variant_spec else None
    variant, hands = hands_to_review(records, hand, override)
    try:
        result = review(variant, hands, seat - 1, budget, None if quiet else _progress(hands))
    except InputError as e:  # a record the rules refuse part-way: name the file
        raise InputError(e.message, file=records) from None
    if html_path:
        from ..atomic import atomic_writer
        from ..review.page import render_page

        with atomic_writer(html_path) as fh:
            fh.write(render_page(result))
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
    else:
        for line in review_lines(result, lang):
            click.echo(line)


def _progress(hands: list[tuple[int, Any]]) -> Callable[[int, int], None]:
    """A line on stderr as each hand starts (a match's review takes minutes), only for more than one hand."""

    def say(k: int, n: int) -> None:
        if n > 1:
            click.echo(f"review: hand {hands[k - 1][0]} ({k}/{n})", err=True)

    return say


def register(group: click.Group) -> None:
    """Add ``review`` to the ``gouji`` group."""
    add_commands(group, review_cmd)


__all__ = ["register", "review_cmd"]
