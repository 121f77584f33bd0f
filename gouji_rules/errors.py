"""The package's typed exceptions.  The library raises these; only the CLI prints."""

from __future__ import annotations

from collections.abc import Iterable


def near_miss(word: str, choices: Iterable[str]) -> str | None:
    """The choice a misspelt ``word`` was most likely meant to be, if one is close enough.

    Every "did you mean" of the package asks this; difflib is imported only when a name is wrong."""
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


class GoujiError(Exception):
    """Base class of every error the package raises on purpose."""


class NotationError(GoujiError, ValueError):
    """Card or action text that does not parse."""

    def __init__(self, message: str, *, text: str = "", column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.column = column

    def __str__(self) -> str:
        if self.text:
            return f"{self.message} (in {self.text!r}, column {self.column})"
        return self.message


class IllegalAction(GoujiError):
    """An action the rules do not allow now.  The state is left unchanged.

    ``rule`` is a short id of the broken rule (``beat``, ``gouji_opposite_only``, …) and
    ``clause`` the seed clause it comes from (``S4 第五条``), where there is one.
    """

    def __init__(self, message: str, *, rule: str, clause: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.clause = clause
        self.index = -1  # position in a replayed action list, where there is one

    def __str__(self) -> str:
        where = f" [{self.clause}]" if self.clause else ""
        return f"{self.message} (rule: {self.rule}){where}"


class PositionError(GoujiError, ValueError):
    """A deal, position, setup or debt that no hand under these rules could have (six hands, seats
    0-5, places 1-6, no more cards of a rank than the deck holds …)."""


class SeedError(GoujiError, ValueError):
    """A seed that is not an integer from 0 to 2**64 - 1: the generator keeps 64 bits, so a seed
    beyond them (or below 0) would silently deal the same cards as another."""


class VariantError(GoujiError):
    """A variant that is inconsistent or cannot be built."""


class UnknownVariant(VariantError):
    """A variant name that is neither shipped nor a readable file."""
