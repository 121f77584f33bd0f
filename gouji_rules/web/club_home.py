"""The organiser's home (``gouji club FOLDER``): one page from which a club secretary reaches everything.

A club keeps its house rules (``*.yaml``) and its nights (``*.sqlite``) in one folder.  The home lists
them and starts what each needs: the rules editor on a file, a new night (what ``gouji event new``
does, from a Chinese form), a night's server (what ``gouji event serve`` does) and its season page.

The editor and the night are not mounted inside this app: both are whole applications that link to
``/`` and ``/static`` and keep their own token or organiser link, so mounting them under a prefix
would mean rewriting their pages.  Each is started instead as a sub-server on a free port of
127.0.0.1, in a thread of this process (one per file, reused), and the home sends the browser to
its address with its own secret.  The home itself sits behind the editor's token gate: it writes
files, and 127.0.0.1 is reachable by every account of the machine.
"""

from __future__ import annotations

import html
import os
import secrets
import sys
import threading
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from ..errors import GoujiError
from .editor import LOOPBACK, EditorConfig, create_editor_app, editor_url
from .editor_gate import TOKEN_PARAM, TokenGate, denied_page
from .lan import lan_addresses as _lan_addresses
from .launch import Launch, launch_lan_thread, launch_thread

MAX_FORM = 64 * 1024
"""A new night's form: names of up to a few hundred players, nothing more."""
MAX_SERVERS = 16
"""Sub-servers one home may start (editors and nights together): each holds a port and a thread."""
RULES_SUFFIXES = (".yaml", ".yml")
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}

DENIED = denied_page(
    "俱乐部主页",
    "gouji club",
    "主页",
    "Open the address <code>gouji club</code> printed when it started (the one with <code>?token=…</code>).",
)


class Refusal(Exception):
    """Something the home will not do, with the reason in Chinese (and English for the log)."""

    def __init__(self, zh: str, en: str, status: int = 400) -> None:
        super().__init__(en)
        self.zh = zh
        self.status = status


class ClubGate(TokenGate):
    """The editor's gate, with a refusal page that names ``gouji club`` rather than ``gouji edit``."""

    def denied(self) -> Response:
        """The refusal a stranger sees: what to open instead, in Chinese first."""
        return HTMLResponse(DENIED, status_code=403, headers=self.headers)


@dataclass
class ClubConfig:
    """How ``gouji club`` was started: the club's folder, the port, the secret every request carries."""

    folder: Path
    port: int = 8020
    hosts: tuple[str, ...] = LOOPBACK
    launch: Launch = launch_thread
    lan_launch: Launch = launch_lan_thread
    """how a night is served to the phones of the room (让手机录入)"""
    lan_address: Callable[[], list[str]] = field(default=lambda: _lan_addresses())
    """this machine's addresses on the local network, the first one printed in the phones' links"""
    log: Callable[[str], None] = field(default=lambda msg: print(msg, file=sys.stderr))
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)

    def __post_init__(self) -> None:
        self.folder = Path(os.path.realpath(self.folder))


def club_url(config: ClubConfig) -> str:
    """The address that opens the home, its token in it: what ``gouji club`` prints and opens."""
    return f"http://127.0.0.1:{config.port}/?{urllib.parse.urlencode({TOKEN_PARAM: config.token})}"


class Club:
    """The home's work: the folder's files, and the sub-servers started from it (one per file)."""

    def __init__(self, config: ClubConfig) -> None:
        self.config = config
        self.lock = threading.Lock()
        self.editors: dict[str, str] = {}
        self.nights: dict[str, str] = {}
        self.lan_nights: dict[str, str] = {}
        self.rooms: dict[str, str] = {}
        """rooms opened to try a rules file (试打一局), each its own match"""
        """nights served to the phones of the room (让手机录入), by file name"""
        self.last_night: str | None = None
        self.new_count = 0

    def files(self, suffixes: tuple[str, ...]) -> list[str]:
        """The names of the folder's plain files with these endings (links and folders are left out), sorted."""
        out = []
        with os.scandir(self.config.folder) as it:
            for entry in it:
                if entry.name.lower().endswith(suffixes) and entry.is_file(follow_symlinks=False):
                    out.append(entry.name)
        return sorted(out)

    def pick(self, name: str, suffixes: tuple[str, ...]) -> Path:
        """A file of the folder by its bare name, as listed on the home; anything else is refused."""
        if name not in self.files(suffixes):
            raise Refusal(f"文件夹里没有这个文件：{name}", f"no such file in the folder: {name!r}", 404)
        return self.config.folder / name

    def started(self) -> int:
        """Sub-servers started so far: they are capped, each holding a port and a thread until ``gouji club`` stops."""
        return len(self.editors) + len(self.nights) + len(self.lan_nights) + len(self.rooms)

    def start(
        self, kept: dict[str, str], key: str, make: Callable[[int], tuple[ASGIApp, str]], launch: Launch | None = None
    ) -> str:
        """The address of the sub-server kept under ``key``, started now (by ``launch``, else the config's) if it
        is not yet running."""
        with self.lock:
            if key in kept:
                return kept[key]
            if self.started() >= MAX_SERVERS:
                raise Refusal(
                    f"已经打开了 {MAX_SERVERS} 个页面服务；请关闭 gouji club 后重新启动。",
                    f"{MAX_SERVERS} servers already started; restart gouji club",
                    503,
                )
            box: list[str] = []

            def made(port: int) -> ASGIApp:
                app, url = make(port)
                box.append(url)
                return app

            (launch or self.config.launch)(made)
            kept[key] = box[0]
            return box[0]

    @property
    def home(self) -> str:
        """The home's own address (no token: the browser holds its cookie), for the editor and the nights to link."""
        return f"http://127.0.0.1:{self.config.port}/"

    def editor(self, name: str | None) -> str:
        """The editor's address with its token: on the folder's file ``name``, or on a new file (None)."""
        path = self.pick(name, RULES_SUFFIXES) if name is not None else None

        def make(port: int) -> tuple[ASGIApp, str]:
            cfg = EditorConfig(
                path=path, root=self.config.folder, port=port, log=self.config.log, home=self.home, paths_from_root=True
            )
            return create_editor_app(cfg), editor_url(cfg)

        if path is None:  # each "new rules" is a new draft, never one kept from before
            self.new_count += 1
            return self.start(self.editors, f"(new {self.new_count})", make)
        return self.start(self.editors, path.name, make)

    def _served_night(
        self, kept: dict[str, str], name: str, host: str, launch: Launch | None = None, public: bool = False
    ) -> str:
        """Serve the night ``name`` as ``gouji event serve`` does (the folder is its season), once, kept in
        ``kept``; its address as ``http://HOST:PORT|ADMIN``.  ``public``: its links and QR codes carry ``host``."""
        from .app import create_app
        from .night import Config, State

        path = self.pick(name, (".sqlite",))

        def make(port: int) -> tuple[ASGIApp, str]:
            base = f"http://{host}:{port}"
            cfg = Config(
                event_path=path,
                public_url=base if public else None,
                season_folder=self.config.folder,
                log=self.config.log,
                home=self.home,
            )
            state = State(cfg)
            try:
                state.start()
            except BaseException:
                state.close()
                raise
            if public:
                self.config.log(f"{name}: served to the phones at {base}/")
            return create_app(cfg, state), f"{base}|{state.links.admin_token}"

        return self.start(kept, name, make, launch)

    def night(self, name: str, page: str = "admin") -> str:
        """The address of the night ``name`` served as ``gouji event serve`` does (the folder is its season):
        its organiser page, or its season page."""
        base, admin = self._served_night(self.nights, name, "127.0.0.1").split("|", 1)
        self.last_night = name
        return f"{base}/admin/{admin}" if page == "admin" else f"{base}/season"

    def room(self, name: str) -> str:
        """A room to try the rules file ``name`` (试打一局): the organiser's seat and five ``simple`` agents
        (numpy-free, stronger than greedy), one match of the file's length; the seat's link.  Each tap
        opens a new room (``gouji room serve`` on this machine; docs/room.md)."""
        from .. import catalog
        from .room_app import practice_room

        path = self.pick(name, RULES_SUFFIXES)
        try:
            variant = catalog.resolve(str(path))
        except GoujiError as e:
            raise Refusal(f"这套规则还有错，请先在编辑器里改好：{e}", f"{name}: {e}") from None
        key = f"{name} #{len(self.rooms) + 1}"
        return self.start(self.rooms, key, lambda port: practice_room(variant, port, self.config.log))

    def night_for_phones(self, name: str) -> str:
        """The organiser page of the night ``name`` served to the phones of the room, as ``gouji event serve
        FILE --host 0.0.0.0`` serves it: every link and QR code carries this machine's address on the local
        network.  Started once per night; it stops with ``gouji club``."""
        self.pick(name, (".sqlite",))
        found = self.config.lan_address()
        if not found:
            raise Refusal(
                "找不到这台电脑在局域网里的地址：请先连上 Wi-Fi（手机要连同一个 Wi-Fi），再点一次。",
                "no local network address: join the Wi-Fi the phones use, then try again",
                503,
            )
        served = self._served_night(self.lan_nights, name, found[0], self.config.lan_launch, public=True)
        base, admin = served.split("|", 1)
        return f"{base}/admin/{admin}"

    def new_night(self, form: dict[str, list[str]]) -> str:
        """Create a night as ``gouji event new --players`` does, from the form; the new file's name."""
        from ..outputs import check_outputs, variant_inputs
        from ..tournament import event as ev

        title = _one(form, "name")
        file = _one(form, "file") or title
        if not title:
            raise Refusal("请填写比赛名称。", "the night needs a name")
        if not file.endswith(".sqlite"):
            file += ".sqlite"
        if "/" in file or "\\" in file or file.startswith(".") or "\0" in file or len(file.encode()) > 255:
            raise Refusal(f"文件名不能含有 / 或 \\，也不能以 . 开头：{file}", f"not a bare file name: {file!r}")
        rules = _one(form, "variant") or "dagang"
        if rules.endswith(RULES_SUFFIXES):
            spec = str(self.pick(rules, RULES_SUFFIXES))
        else:
            from .. import dsl

            if rules not in dsl.shipped_names():
                raise Refusal(f"没有这套规则：{rules}", f"no such rules: {rules!r}")
            spec = rules
        names: list[str] = []
        for i, raw in enumerate(_one(form, "players").replace("，", "\n").replace(",", "\n").splitlines(), 1):
            if raw.strip():
                player = ev.check_name(raw, "选手名单", i)
                if player in names:
                    raise Refusal(f"选手 {player} 写了两次。", f"player {player!r} is listed twice")
                names.append(player)
        if not names or len(names) % 6:
            raise Refusal(
                f"选手人数应是 6 的倍数（每桌 6 人），现在是 {len(names)} 人。",
                f"players come six a table, not {len(names)}",
            )
        target = self.config.folder / file
        if os.path.lexists(target):
            raise Refusal(f"文件已经存在，不会覆盖：{file}", f"{file} exists; it is never overwritten", 409)
        check_outputs([str(target)], variant_inputs(spec))
        with ev.create(str(target), ev.Settings(title, spec), players=names):
            pass
        return file


def _one(form: dict[str, list[str]], key: str) -> str:
    values = form.get(key) or [""]
    return values[0].strip()


async def _form(request: Request) -> dict[str, list[str]]:
    """A small url-encoded form from this page: capped, and from this origin (the cookie is SameSite=Strict too)."""
    origin = request.headers.get("origin")
    # "null": the page's Referrer-Policy no-referrer makes Chromium send that for its own posts
    if origin and origin != "null" and urllib.parse.urlsplit(origin).hostname not in ("127.0.0.1", "localhost", "::1"):
        raise Refusal("这个表单只能从本机的俱乐部主页提交。", "a form from another site", 403)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            raise Refusal("表单太大了。", "form too large", 413)
    try:
        return urllib.parse.parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=100)
    except (UnicodeDecodeError, ValueError) as e:
        raise Refusal("表单无法读取。", f"unreadable form: {e}") from e


# -- pages ---------------------------------------------------------------------------------------

STYLE = """
body{font-family:system-ui,"PingFang SC","Microsoft YaHei",sans-serif;margin:0;padding:0 12px 24px;
max-width:720px;margin:auto;line-height:1.5;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.4em;border-bottom:1px solid #ddd}
ul{list-style:none;padding:0}li{padding:8px 0;border-bottom:1px solid #eee;overflow-wrap:anywhere}
form.inline{display:inline}button,a.btn{font-size:1em;padding:6px 12px;margin:2px 4px 2px 0;
border:1px solid #888;border-radius:6px;background:#f4f4f4;color:#222;text-decoration:none;display:inline-block}
label{display:block;margin:8px 0}input,select,textarea{font-size:1em;width:100%;box-sizing:border-box;padding:6px}
.err{background:#fee;border:1px solid #c33;padding:8px;border-radius:6px}.muted{color:#666;font-size:.9em}
"""


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    text = (
        '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body><main>{body}</main></body></html>"
    )
    return HTMLResponse(text, status_code=status, headers=HEADERS)


def _button(action: str, label: str, name: str = "") -> str:
    hidden = f'<input type="hidden" name="file" value="{html.escape(name)}">' if name else ""
    return f'<form class="inline" method="post" action="{action}">{hidden}<button>{label}</button></form>'


def home_page(club: Club, error: str = "", status: int = 200) -> HTMLResponse:
    """The home: the rules files, the nights, a new night's form, the season."""
    from .. import dsl

    rules = club.files(RULES_SUFFIXES)
    nights = club.files((".sqlite",))
    e = html.escape
    parts = [f"<h1>够级俱乐部主页</h1><p class='muted'>文件夹：{e(str(club.config.folder))}</p>"]
    if error:
        parts.append(f'<p class="err" role="alert">{e(error)}</p>')
    parts.append("<h2>规则</h2>" + _button("/rules/new", "新建规则"))
    items = [
        f"<li>{e(n)}<br>{_button('/rules/edit', '修改', n)}{_button('/rooms/new', '试打一局', n)}"
        f'<a class="btn" href="/rules/sheet?file={urllib.parse.quote(n)}" target="_blank">打印规则表</a></li>'
        for n in rules
    ]
    parts.append(f"<ul>{''.join(items)}</ul>" if items else "<p class='muted'>还没有规则文件（*.yaml）。</p>")
    parts.append("<h2>比赛</h2>")
    items = [
        f"<li>{e(n)}<br>{_button('/nights/open', '打开比赛', n)}{_button('/nights/phones', '让手机录入', n)}"
        "<br><span class='muted'>让手机录入：手机和这台电脑连同一个 Wi-Fi，扫描座位表上的二维码；电脑若问"
        "是否允许联网（防火墙），请选允许。关掉 gouji club 就停止。</span></li>"
        for n in nights
    ]
    parts.append(f"<ul>{''.join(items)}</ul>" if items else "<p class='muted'>还没有比赛（*.sqlite）。</p>")
    if nights:
        parts.append('<p><a class="btn" href="/season">赛季排名</a></p>')
    options = "".join(f'<option value="{e(n)}">{e(n)}</option>' for n in rules)
    options += "".join(f'<option value="{e(n)}">{e(n)}（内置）</option>' for n in dsl.shipped_names())
    parts.append(
        '<h2>新建比赛</h2><form method="post" action="/nights/new" accept-charset="utf-8">'
        '<label>比赛名称 <input name="name" required maxlength="80" placeholder="十二月第一周"></label>'
        '<label>文件名（可不填，默认用名称） <input name="file" placeholder="2026-12-04.sqlite"></label>'
        f'<label>规则 <select name="variant">{options}</select></label>'
        '<label>选手（每行一人，6 的倍数） <textarea name="players" rows="8"></textarea></label>'
        "<button>创建比赛</button></form>"
    )
    return _page("够级俱乐部主页", "".join(parts), status)


def _club(request: Request) -> Club:
    club: Club = request.app.state.club
    return club


async def home(request: Request) -> Response:
    """GET /: the home page."""
    return await run_in_threadpool(home_page, _club(request))


async def rules_new(request: Request) -> Response:
    """POST: the editor on a new file in the folder, its token carried."""
    await _form(request)
    url = await run_in_threadpool(_club(request).editor, None)
    return RedirectResponse(url, status_code=303, headers=HEADERS)


async def rules_edit(request: Request) -> Response:
    """POST: the editor on one of the folder's rules files (one editor per file, reused)."""
    form = await _form(request)
    url = await run_in_threadpool(_club(request).editor, _one(form, "file"))
    return RedirectResponse(url, status_code=303, headers=HEADERS)


def _sheet(club: Club, name: str) -> str:
    from .. import catalog
    from ..dsl.explain import extended, sheet
    from ..dsl.printable import to_html
    from .share import sheet_page

    path = club.pick(name, RULES_SUFFIXES)
    s = sheet(catalog.resolve(str(path)), "zh", extended(str(path)))
    return sheet_page(to_html(s), s, path.stem)


async def rules_sheet(request: Request) -> Response:
    """GET: the rules file's sheet as ``gouji explain --html`` writes it, to print from the browser or save
    as a picture (保存图片)."""
    page = await run_in_threadpool(_sheet, _club(request), request.query_params.get("file", ""))
    return HTMLResponse(page, headers=HEADERS)


async def nights_new(request: Request) -> Response:
    """POST: create a night from the form; the home again, the new night listed."""
    club = _club(request)
    form = await _form(request)
    await run_in_threadpool(club.new_night, form)
    return RedirectResponse("/", status_code=303, headers=HEADERS)


async def nights_open(request: Request) -> Response:
    """POST: serve the night as ``gouji event serve`` does and open its organiser page."""
    form = await _form(request)
    url = await run_in_threadpool(_club(request).night, _one(form, "file"))
    return RedirectResponse(url, status_code=303, headers=HEADERS)


async def rooms_new(request: Request) -> Response:
    """POST: open a room to try a rules file against five agents, and go to its seat."""
    form = await _form(request)
    url = await run_in_threadpool(_club(request).room, _one(form, "file"))
    return RedirectResponse(url, status_code=303, headers=HEADERS)


async def nights_phones(request: Request) -> Response:
    """POST: serve the night to the phones of the room (the local network) and open its organiser page there."""
    form = await _form(request)
    url = await run_in_threadpool(_club(request).night_for_phones, _one(form, "file"))
    return RedirectResponse(url, status_code=303, headers=HEADERS)


async def season(request: Request) -> Response:
    """GET: the season page over the folder's nights (served by the last night opened, else the newest)."""
    club = _club(request)
    nights = await run_in_threadpool(club.files, (".sqlite",))
    if not nights:
        raise Refusal("文件夹里还没有比赛（*.sqlite），还不能排赛季。", "no nights in the folder yet", 404)
    name = club.last_night if club.last_night in nights else nights[-1]
    url = await run_in_threadpool(club.night, name, "season")
    return RedirectResponse(url, status_code=303, headers=HEADERS)


def guarded(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """``handler``, every failure made the home with its reason in Chinese: never a 500."""

    async def run(request: Request) -> Response:
        club = _club(request)
        try:
            return await handler(request)
        except Refusal as e:
            return await run_in_threadpool(home_page, club, e.zh, e.status)
        except GoujiError as e:
            return await run_in_threadpool(home_page, club, f"没有完成：{e}", 400)
        except HTTPException as e:
            return _page("够级俱乐部主页", f"<p class='err'>{html.escape(str(e.detail))}</p>", e.status_code)
        except Exception as e:  # the one place a page turns any failure into a refusal
            club.config.log(f"refused a request: {type(e).__name__}: {e}")
            msg = f"这次请求没有完成（{type(e).__name__}）。请返回主页再试。"
            return _page("够级俱乐部主页", f'<p class="err">{html.escape(msg)}</p><p><a href="/">返回主页</a></p>', 400)

    return run


async def not_found(request: Request, exc: Exception) -> Response:
    """Unknown addresses and wrong methods: a short Chinese page, not Starlette's plain text."""
    status = exc.status_code if isinstance(exc, HTTPException) else 400
    return _page("够级俱乐部主页", "<p class='err'>没有这个页面。</p><p><a href='/'>返回主页</a></p>", status)


def create_club_app(config: ClubConfig) -> Starlette:
    """The home's application, behind the token gate."""
    app = Starlette(
        routes=[
            Route("/", guarded(home), methods=["GET"]),
            Route("/rules/new", guarded(rules_new), methods=["POST"]),
            Route("/rules/edit", guarded(rules_edit), methods=["POST"]),
            Route("/rules/sheet", guarded(rules_sheet), methods=["GET"]),
            Route("/nights/new", guarded(nights_new), methods=["POST"]),
            Route("/nights/open", guarded(nights_open), methods=["POST"]),
            Route("/nights/phones", guarded(nights_phones), methods=["POST"]),
            Route("/rooms/new", guarded(rooms_new), methods=["POST"]),
            Route("/season", guarded(season), methods=["GET"]),
            Mount("/static", StaticFiles(packages=[("gouji_rules.web", "static")]), name="static"),
        ],
        exception_handlers={HTTPException: not_found},
        middleware=[Middleware(ClubGate, token=config.token, port=config.port, hosts=config.hosts, headers=HEADERS)],
    )
    app.state.club = Club(config)
    return app


__all__ = ["ClubConfig", "Refusal", "club_url", "create_club_app"]
