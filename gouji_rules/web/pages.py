"""What every page of the web server shares: rendering in the reader's language, the security headers,
the posted form's checks, and the error pages.

Every form carries a CSRF token that must match a ``SameSite=Strict`` cookie, and a request whose
``Origin`` or ``Sec-Fetch-Site`` says it comes from another site is refused.  Pages use no web fonts; QR
codes are inline SVG.  Every error page, 413 included, is the project's own, in the reader's language,
with the security headers of every other page; an unexpected error is one line in the organiser's log.
"""

from __future__ import annotations

import hmac
import secrets
import urllib.parse
from typing import Any

import jinja2
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..tournament.errors import (
    EventBusy,
    EventError,
    EventFileChanged,
    EventFileFull,
)
from .i18n import lang_of, word
from .night import State

MAX_BODY = 16 * 1024  # an entry form is well under 2 KiB


MAX_FIELDS = 200


MAX_VALUE = 64


REFRESH_SECONDS = 30


CSRF_COOKIE = "gouji_csrf"


HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


_env = jinja2.Environment(
    loader=jinja2.PackageLoader("gouji_rules.web", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)


def state_of(request: Request) -> State:
    """The night the server holds open, typed, for the handlers that all start from it."""
    st: State = request.app.state.gouji
    return st


def reader_lang(request: Request) -> str:
    """The reader's language: the address's ``?lang=`` first, then the cookie a page set, Chinese otherwise."""
    return lang_of(request.query_params.get("lang") or request.cookies.get("lang"))


def page(request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    """Render a page in the reader's language, with the security headers and the CSRF cookie."""
    lang = reader_lang(request)
    csrf = request.cookies.get(CSRF_COOKIE) or ""
    if len(csrf) != 43:
        csrf = secrets.token_urlsafe(32)
    st = state_of(request)

    def t(key: str, **kw: Any) -> str:
        return word(key, lang, **kw)

    body = _env.get_template(template).render(
        t=t,
        lang=lang,
        other_lang="en" if lang == "zh" else "zh",
        path=request.url.path,
        csrf=csrf,
        event_name=st.name,
        has_season=st.config.season_folder is not None,
        home=st.config.home,
        refresh=ctx.pop("refresh", 0),
        **ctx,
    )
    resp = HTMLResponse(body, status_code=status, headers=HEADERS)
    resp.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="strict", max_age=12 * 3600)
    if "lang" in request.query_params:
        resp.set_cookie("lang", lang, samesite="lax", max_age=365 * 86400)
    return resp


class PageError(HTTPException):
    """A 4xx answer: the reason in English (``detail``) and, where it helps a player, in Chinese."""

    def __init__(self, status: int, message: str, zh: str = "") -> None:
        super().__init__(status_code=status, detail=message)
        self.zh = zh or HEADLINES_ZH.get(status, "")


HEADLINES_ZH = {
    400: "表单有误，请返回重新填写。",
    403: "不允许这样做。",
    404: "找不到这个页面。",
    405: "不能这样访问这个页面。",
    409: "这一局刚刚有了变化（别人已经录入、确认或退回），请返回本桌页面看最新情况。",
    413: "表单内容太多。",
    415: "表单格式不对。",
    503: "活动文件暂时不能写入：这次什么也没有保存，请稍后再试。",
    507: "磁盘已满：这次什么也没有保存。请组织者腾出空间后再试。",
}


def fail(status: int, message: str, zh: str = "") -> PageError:
    """A page error with its English reason for the log and the Chinese headline for the reader: every refusal a
    handler raises goes through here, so none reaches the page in English alone."""
    return PageError(status, message, zh)


async def read_form(
    request: Request, max_body: int = MAX_BODY, max_value: int = MAX_VALUE, max_fields: int = MAX_FIELDS
) -> dict[str, list[str]]:
    """A small url-encoded form from this site, or a 4xx: the body is capped, the origin and CSRF token checked.

    ``max_body``, ``max_value`` and ``max_fields`` are the caps (the rules editor's form carries a whole variant file)."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise fail(403, "a form from another site is refused", "拒绝来自其他网站的表单。")
    origin = request.headers.get("origin")
    if origin is not None:
        own = f"{request.url.scheme}://{request.headers.get('host', '')}"
        if origin != own:
            raise fail(403, "a form from another site is refused", "拒绝来自其他网站的表单。")
    ctype = request.headers.get("content-type", "").split(";")[0].strip()
    if ctype != "application/x-www-form-urlencoded":
        raise fail(415, "send the form as application/x-www-form-urlencoded")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > max_body:
            raise fail(413, f"the form is larger than {max_body} bytes")
    try:
        pairs = urllib.parse.parse_qsl(
            body.decode("ascii"), keep_blank_values=True, strict_parsing=False, max_num_fields=max_fields
        )
    except (UnicodeDecodeError, ValueError):
        raise fail(400, "the form cannot be read") from None
    form: dict[str, list[str]] = {}
    for k, v in pairs:
        if len(k) > MAX_VALUE or len(v) > max_value:
            raise fail(413, "a form field is too long")
        form.setdefault(k, []).append(v)
    cookie = request.cookies.get(CSRF_COOKIE, "")
    sent = one_value(form, "csrf")
    if not cookie or not hmac.compare_digest(cookie.encode(), sent.encode()):
        raise fail(
            403,
            "the form's security token does not match: reload the page and try again",
            "页面已过期：请重新打开页面再提交。",
        )
    return form


def one_value(form: dict[str, list[str]], key: str) -> str:
    """The one value of ``key`` in a posted form (empty if absent): a field given twice is a forged request, refused
    rather than guessed at."""
    values = form.get(key, [])
    if len(values) > 1:
        raise fail(400, f"the form field {key!r} is given twice")
    return values[0] if values else ""


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's HTTP errors as this site's page, in the reader's language, never a bare stack or an English-only
    line."""
    assert isinstance(exc, HTTPException)
    zh = exc.zh if isinstance(exc, PageError) else HEADLINES_ZH.get(exc.status_code, "")
    lang = reader_lang(request)
    # in Chinese the page says it in Chinese only: the English reason is the organiser's, in the log
    headline, detail = (zh, "") if lang == "zh" and zh else (exc.detail, "")
    return page(request, "message.html", exc.status_code, title=word("error", lang), message=headline, detail=detail)


UNAVAILABLE: list[tuple[type[EventError], int, str, str]] = [
    (
        EventBusy,
        503,
        "the event file is busy: another program is writing to it. Nothing was saved; try again in a moment",
        "活动文件正忙：另一个程序正在写入。这次什么也没有保存，请稍等片刻再试。",
    ),
    (
        EventFileFull,
        507,
        "the disk is full. Nothing was saved; the organiser must free some space",
        "磁盘已满：这次什么也没有保存。请组织者腾出空间后再试。",
    ),
    (
        EventFileChanged,
        503,
        "the event file was deleted or replaced while the server ran. Nothing was saved; "
        "the organiser must check the file and start the server again",
        "服务器运行期间活动文件被删除或替换了：这次什么也没有保存。请组织者检查文件后重新启动服务器。",
    ),
]


async def event_error(request: Request, exc: Exception) -> Response:
    """The event file could not take or give what was asked: a page for the reader, the reason in the log."""
    assert isinstance(exc, EventError)
    status, en, zh = (
        503,
        "the event file cannot be used now. Nothing was saved; the organiser sees why",
        HEADLINES_ZH[503],
    )
    for kind, code, en_, zh_ in UNAVAILABLE:
        if isinstance(exc, kind):
            status, en, zh = code, en_, zh_
            break
    state_of(request).config.log(f"refused {request.method} {request.url.path}: {exc}")
    lang = reader_lang(request)
    headline, detail = (zh, "") if lang == "zh" else (en, "")
    return page(request, "message.html", status, title=word("error", lang), message=headline, detail=detail)


class OneLineErrors:
    """An unexpected error becomes a 500 page for the reader and one line in the organiser's log.

    Starlette's own error middleware would log a traceback after its handler; this one sits
    inside it and answers before the error gets there.  A body announced larger than
    :data:`MAX_BODY` is refused here with the project's 413 page, before it is read.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = Request(scope).headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY:
            response = await http_error(Request(scope), fail(413, f"the form is larger than {MAX_BODY} bytes"))
            await response(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:
            if started:
                raise
            request = Request(scope)
            state_of(request).config.log(f"error: {type(exc).__name__}: {exc} ({request.method} {request.url.path})")
            response = page(
                request,
                "message.html",
                500,
                title=word("error", reader_lang(request)),
                message=word("server_error", reader_lang(request)),
                detail="",
            )
            await response(scope, receive, send)
