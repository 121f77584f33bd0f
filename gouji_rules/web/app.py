"""The Starlette application behind ``gouji event serve``: the routes of the club night's page families.

Anyone who can reach the server may read (public.py): the standings, each round's seating and each
hand's result.  Changing anything needs a secret link (links.py): a table side's link enters and
confirms that table's hands (table_side.py), the organiser's link sees every table, prints the sheets
and enters directly (organiser.py).  What every page shares (rendering, headers, the form's CSRF and
origin checks, error pages) is pages.py; the open event is night.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..tournament.errors import (
    EventError,
)
from .night import Config, State
from .organiser import admin_hand_form, admin_hand_save, admin_page, admin_seat, print_page
from .pages import OneLineErrors, event_error, http_error
from .public import round_page, season_about_page, season_page, standings_page
from .table_side import hand_confirm, hand_enter, hand_form, hand_reject, table_page

__all__ = ["Config", "State", "create_app"]


def create_app(config: Config, state: State | None = None) -> Starlette:
    """The application; the event is opened (unless ``state`` is given) when the server starts, closed when it stops."""

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if state is None:
            own = State(config)
            try:
                own.start()
            except BaseException:
                own.close()
                raise
            app.state.gouji = own
        else:
            app.state.gouji = state
        try:
            yield
        finally:
            app.state.gouji.close()

    hand = "/t/{token}/hand/{hand:int}"
    admin_hand = "/admin/{token}/r/{rnd:int}/t/{tbl:int}/hand/{hand:int}"
    routes = [
        Route("/", standings_page),
        Route("/rounds/{rnd:int}", round_page),
        Route("/season", season_page),
        Route("/season/about", season_about_page),
        Route("/t/{token}", table_page),
        Route(hand, hand_form, methods=["GET"]),
        Route(hand, hand_enter, methods=["POST"]),
        Route(hand + "/confirm", hand_confirm, methods=["POST"]),
        Route(hand + "/reject", hand_reject, methods=["POST"]),
        Route("/admin/{token}", admin_page),
        Route("/admin/{token}/seat/{rnd:int}", admin_seat, methods=["POST"]),
        Route("/admin/{token}/print/{rnd:int}", print_page),
        Route(admin_hand, admin_hand_form, methods=["GET"]),
        Route(admin_hand, admin_hand_save, methods=["POST"]),
        Mount("/static", StaticFiles(packages=[("gouji_rules.web", "static")]), name="static"),
    ]
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: http_error, EventError: event_error},
        middleware=[Middleware(OneLineErrors)],
    )
