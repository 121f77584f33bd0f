"""The rules editor behind ``gouji edit``: a club's house rules as a form, in the browser.

One page, posted back on each button (it works without JavaScript, like the event's pages; with it,
``static/editor.js`` posts the same check after each change and shows the answer at once): every option of
the variant in the rule sheet's sections (一…十九) with its Chinese name, what each value
means and the clause of the base file it comes from; the errors exactly as ``gouji validate``
prints them; the rule sheet and the differences from the base beside.  The page carries the
file as it was opened; each post works out what the controls changed against that text and
splices only that into it (:mod:`gouji_rules.dsl.edit`), so comments and key order survive,
and nothing typed is lost: a refused value stays in its control with its error beside it.

Saving goes through the output-path rule and the atomic writer: never over a database, a
device, a file of the ``extends:`` chain, nor over a file that changed on disk since it was
opened (someone else's edit is never overwritten silently).  "Try it" plays a small
comparison against the base and shows ``gouji compare``'s HTML report.

Nothing reaches it without the token printed at start (:mod:`.editor_gate`); it reads and writes
only in the folder it was started on and below, ``extends:`` included, and its page quotes no line
of any file but the one being edited (:mod:`.editor_guard`).  No request answers 500: whatever a
handler cannot use is a refusal page (:func:`guarded`).
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import hashlib
import os
import re
import secrets
import sys
import threading
import time
import typing
import urllib.parse
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .. import dsl
from ..dsl import edit
from ..dsl.choices import choice_words, field_choices
from ..dsl.cite import cite
from ..dsl.diff import diff_rows
from ..dsl.errors import VariantErrors, VariantFileError
from ..dsl.explain import Sheet, field_label, field_words, heading, plain_label, sheet, zh_numeral
from ..dsl.merge import READ_LIMIT, OutsideRoot, load_chain, within
from ..dsl.yamlpos import decode, parse
from ..errors import GoujiError
from ..inputs import InputFileError, read_bytes
from ..parts.hooks import HOOKS
from ..parts.plugins import ExtensionError
from ..variant import SECTIONS, Variant
from .editor_gate import TOKEN_PARAM, TokenGate, host_of
from .editor_guard import SURROGATE, printable, shown
from .i18n import lang_of
from .pages import CSRF_COOKIE, HEADERS, PageError, read_form

MAX_FORM = 1024 * 1024
"""Bytes a post may carry: the file twice (as opened and as text), each Chinese character nine bytes encoded."""
MAX_FIELD = 512 * 1024
TRY_DEALS = 20
"""Deals "try it" plays: each twice (seats rotated), so 40 hands under each of the two variants, by
compare's own agents and again by its cross-check agent (compare.cross), 10 times fewer than a club's
200-deal compare so that one click answers in seconds."""
TRY_SEED = 2026
TRY_SECONDS = 60.0
"""The longest "try it" plays; a comparison still running then is stopped and says so."""
REPORTS_KEPT = 8
EDITOR_HEADERS = {
    **HEADERS,
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; "
        "form-action 'self'; frame-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    ),
}
REPORT_HEADERS = {
    **HEADERS,
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'",
    "X-Frame-Options": "SAMEORIGIN",
}

_env = jinja2.Environment(
    loader=jinja2.PackageLoader("gouji_rules.web", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)

WORDS: dict[str, tuple[str, str]] = {
    "title": ("规则编辑器", "Rules editor"),
    "new_file": ("新规则文件", "new rules file"),
    "base": ("基础规则", "Base rules"),
    "base_note": (
        "从哪个规则改起；文件里只写和它不同的地方（extends:）。",
        "The variant you start from; the file says only what differs from it (extends:).",
    ),
    "save_as": ("保存到文件", "Save to file"),
    "rules_title": ("规则名称（印在规则表上）", "Title (printed on the rule sheet)"),
    "rules_title_hint": ("例如：青岛某俱乐部够级家规", "e.g. Qingdao club house rules"),
    "check": ("检查", "Check"),
    "save": ("保存", "Save"),
    "try": ("试打比较", "Try it"),
    "room": ("用这套规则打一局", "Play a match with these rules"),
    "room_open": ("房间已开好，你坐座位 1，另外五位是机器人：", "The room is open, you at seat 1 and five agents: "),
    "room_enter": ("进入房间", "Enter the room"),
    "same": ("同基础规则", "as the base"),
    "changed": ("已改", "changed"),
    "base_value": ("基础规则：", "Base: "),
    "clause": ("出处：", "Clause: "),
    "errors": ("错误", "Errors"),
    "warnings": ("警告", "Warnings"),
    "ok": ("规则无误。", "The rules are valid."),
    "n_errors": ("有 {n} 处错误：改正前不能保存。", "{n} error(s): fix them before saving."),
    "sheet": ("规则表", "Rule sheet"),
    "diff": ("与基础规则的不同", "Differences from the base"),
    "no_diff": ("和基础规则完全一样。", "The same rules as the base."),
    "sheet_wait": ("改正错误后显示规则表。", "The rule sheet shows once the errors are fixed."),
    "hooks": ("表达式（hooks）", "Expressions (hooks)"),
    "hooks_note": (
        "用表达式决定一条规则；空着就按上面的选项。可用的名字：",
        "An expression decides a rule; leave it empty to follow the options above. Names it may use: ",
    ),
    "text": ("文件原文", "The file as text"),
    "text_note": (
        "保存时写入的就是这段文字；也可以直接在这里改。",
        "This is what Save writes; you may edit it here too.",
    ),
    "saved": ("已保存到 {path}。", "Saved to {path}."),
    "report": ("试打比较", "Try it: comparison"),
    "report_note": (
        "{base} 与改后的规则各打同样的 {hands} 局（{agents} 机器人，再由 {cross} 对照打一遍，固定种子 {seed}），"
        "和 gouji compare 一样，只是牌少得多（gouji compare 常用 200 副以上）：只看个大概。",
        "{base} and the edited rules each play the same {hands} hands ({agents} bots, then {cross} on the same "
        "deals as a cross-check, seed {seed}), as gouji compare does but with far fewer deals (gouji compare: "
        "200 or more), so take it as a first look.",
    ),
    "lang_other": ("English", "中文"),
    "yes": ("是", "yes"),
    "no": ("否", "no"),
    "null": ("（不限 / 无）", "(none)"),
    "changed_n": ("已改 {n} 项", "{n} changed"),
}

REFUSALS: dict[str, tuple[str, str]] = {
    "invalid": ("规则有错，没有保存：请先改正下面的错误。", "Not saved: the rules have errors; fix them first."),
    "no_path": ("没有保存：请填写要保存到的文件名。", "Not saved: give the file to save to."),
    "suffix": (
        "没有保存：规则文件的名字要以 .yaml 结尾（{path}）。",
        "Not saved: a rules file's name ends in .yaml ({path}).",
    ),
    "changed": (
        "没有保存：{path} 在你打开之后被别人或别的程序改过了。为免覆盖别人的改动，这次什么也没写；"
        "你的改动都还在下面。请另存为别的文件名，或重新打开这个文件再改。",
        "Not saved: {path} was changed on disk after you opened it. Nothing was written, so that edit is "
        "not overwritten; your changes are still below. Save to another name, or open the file again.",
    ),
    "exists": (
        "没有保存：{path} 已经存在，而且不是你打开的文件。为免覆盖别人的文件，请换一个文件名。",
        "Not saved: {path} exists and is not the file you opened; give another name so that it is not overwritten.",
    ),
    "path": ("没有保存：不能写入 {path}：{why}", "Not saved: {path} cannot be written: {why}"),
    "outside": (
        "没有保存：{path} 不在编辑器启动时所在的文件夹 {root} 里。编辑器只读写这个文件夹（和它的子文件夹）里的文件；"
        "要保存到别处，请在那个文件夹里重新运行 gouji edit。",
        "Not saved: {path} is outside the folder the editor was started on ({root}). The editor reads and "
        "writes only in that folder and below it; to save elsewhere, run gouji edit in that folder.",
    ),
    "bad_path": ("没有保存：这个文件名不能用：{why}。", "Not saved: that file name cannot be used: {why}."),
    "unreadable": (
        "打不开 {path}：{why}。下面是一份新的规则；保存时请换一个文件名。",
        "{path} cannot be opened: {why}. Below is a new file; save it under another name.",
    ),
    "encoding": (
        "{path} 不是 UTF-8 文本：保存会丢掉其中认不出的字符，所以不能直接保存。请先把文件另存为 UTF-8，"
        "或保存到另一个文件名。",
        "{path} is not UTF-8 text: saving would lose the characters it cannot read, so it is not saved over. "
        "Convert the file to UTF-8 first, or save to another name.",
    ),
    "try_invalid": ("规则有错，不能试打：请先改正下面的错误。", "The rules have errors: fix them before trying."),
    "room_invalid": ("规则有错，不能开房间打：请先改正下面的错误。", "The rules have errors: fix them before playing."),
    "try_failed": ("试打没有完成：{why}", "Try it did not finish: {why}"),
}

KINDS_ZH = {"a folder": "文件夹", "a pipe (FIFO)": "管道（FIFO）", "a device": "设备", "a socket": "套接字"}
PATH_WHY_ZH: list[tuple[str, Callable[[re.Match[str]], str]]] = [
    (r"is also an input of this command", lambda m: "它是这份规则 extends: 所用的文件"),
    (r"is an SQLite database", lambda m: "它是数据库（活动文件？），从不覆盖"),
    (r"is the (\w+) file of the database (.*); write", lambda m: f"它是数据库 {m[2]} 的附属文件（{m[1]}）"),
    (r"is read-only", lambda m: "它是只读文件"),
    (r"is a system path", lambda m: "它是系统路径（设备或程序的输入输出），不是文件"),
    (r"is a link to (.*), which does not exist", lambda m: f"它是指向 {m[1]} 的链接，而那里没有文件"),
    (
        r"is (?:a link to (.*), which is )?(a folder|a pipe \(FIFO\)|a device|a socket|not a regular file), not a file",
        lambda m: f"它是{KINDS_ZH.get(m[2], '特殊文件')}，不是普通文件",
    ),
    (r"no such folder (.*)", lambda m: f"没有文件夹 {m[1]}"),
    (r"ends with a slash", lambda m: "以斜杠结尾，是文件夹的写法"),
    (r"a link another user made", lambda m: "它是别的用户在共享文件夹里建的链接，不跟随"),
    (r"longer than the system allows", lambda m: "文件名超过系统允许的长度"),
    (r"too many symbolic links", lambda m: "符号链接太多（循环？）"),
    (r"replaced by a link while", lambda m: "写入时被换成了链接，什么也没写"),
    (r"a file name with a NUL", lambda m: "文件名里有 NUL 字符"),
]
"""The output-path rule's reasons (:mod:`gouji_rules.outputs`) in Chinese, for the page."""


PATH_BYTES = 4096
"""The longest path a save may name (Linux's PATH_MAX); a longer one is refused before the system sees it."""
NAME_BYTES = 255
BAD_PATH: dict[str, tuple[str, str]] = {
    "nul": ("文件名里有 NUL 字符", "it holds a NUL character"),
    "long": ("文件名太长（路径最多 4096 字节，每一段最多 255 字节）", "it is too long (4096 bytes a path, 255 a name)"),
    "surrogate": ("文件名里有不成对的代理字符，不是合法的文字", "it holds a lone surrogate, which is not a character"),
}

LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
"""The names the page may be asked for by: a page of another site that points its own name at
127.0.0.1 (DNS rebinding) would otherwise read and save this machine's files from the browser."""


def say(key: str, lang: str, **kw: object) -> str:
    """The page's words for ``key`` in ``lang`` (Chinese first: a club reads the editor in Chinese unless it asks
    otherwise), filled with ``kw``."""
    words = WORDS[key]
    return (words[0] if lang == "zh" else words[1]).format(**kw)


@dataclass
class EditorConfig:
    """How ``gouji edit`` was started: the file (None: a new one), the base for a new file, the language.

    ``token`` is the secret every request must carry (new at each start: a config is made once per
    start); ``root`` the folder whose tree the editor reads and writes, by default the file's folder,
    or the current folder for a new file; ``port`` where it listens (for :func:`editor_url`)."""

    path: Path | None = None
    base: str = "dagang"
    lang: str = "zh"
    log: Callable[[str], None] = field(default=lambda msg: print(msg, file=sys.stderr))
    try_deals: int = TRY_DEALS
    try_seconds: float = TRY_SECONDS
    hosts: tuple[str, ...] = LOOPBACK
    root: Path | None = None
    port: int = 8010
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)
    home: str | None = None  # the club home that started this editor: its header links back there
    launch: Callable[[Callable[[int], Any]], int] | None = None
    """serves a room's app on a port it returns (None: club_home.launch_thread, a thread on 127.0.0.1)"""
    paths_from_root: bool = False  # gouji club: a file name typed is in the club's folder, not where gouji club ran

    def __post_init__(self) -> None:
        if self.root is None:  # the real file's folder: a link to a file elsewhere edits it where it is
            self.root = Path(os.path.realpath(self.path)).parent if self.path is not None else Path.cwd()
        self.root = Path(os.path.realpath(self.root))


def editor_url(config: EditorConfig, page: str = "/") -> str:
    """The address that opens the editor, its token in it: what ``gouji edit`` prints and opens, and
    what any page that links to the editor (the club's home, the room's button) must use."""
    return f"http://127.0.0.1:{config.port}{page}?{urllib.parse.urlencode({TOKEN_PARAM: config.token})}"


class Reports:
    """The last few "try it" reports, served to the page's frame by a token."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, str] = OrderedDict()

    def add(self, page: str) -> str:
        """Keep a report page and return the unguessable token its frame fetches it by; the oldest is dropped past
        REPORTS_KEPT, so a long session never grows memory."""
        token = secrets.token_urlsafe(16)
        with self._lock:
            self._kept[token] = page
            while len(self._kept) > REPORTS_KEPT:
                self._kept.popitem(last=False)
        return token

    def get(self, token: str) -> str | None:
        """The report kept under ``token``, or None once it has been dropped (the page then says so rather than
        failing)."""
        with self._lock:
            return self._kept.get(token)


# -- the state a post carries ------------------------------------------------------------------


def digest(data: bytes | None) -> str:
    """What a file held when it was opened: its SHA-256, or ``absent``."""
    return "absent" if data is None else hashlib.sha256(data).hexdigest()


def read_disk(path: Path) -> bytes | None:
    """The file's bytes, None when there is none; a folder, FIFO or device is an :class:`InputFileError`
    (never read: a FIFO would hang the page)."""
    try:
        return read_bytes(path, limit=READ_LIMIT)
    except InputFileError as e:
        if e.missing:
            return None
        raise


def path_problem(path: str) -> str | None:
    """Why a typed path cannot be used at all (a key of :data:`BAD_PATH`), before the system is asked."""
    if "\0" in path:
        return "nul"
    if SURROGATE.search(path):
        return "surrogate"
    data = path.encode("utf-8")
    if len(data) > PATH_BYTES or any(len(part) > NAME_BYTES for part in data.split(b"/")):
        return "long"
    return None


def skeleton(base: str) -> str:
    """The text of a new file: it extends the base and says nothing else yet."""
    return f"extends: {base}\n"


def _b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8", "surrogatepass")).decode("ascii")


def _unb64(value: str) -> str:
    try:
        return base64.b64decode(value.encode("ascii"), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeError, ValueError):
        raise PageError(
            400, "the form's copy of the file is damaged", "表单里的文件内容损坏了：请重新打开页面。"
        ) from None


def _text_digest(text: str) -> str:
    """The text as the page drew it, line breaks aside (a browser posts a textarea's as CRLF)."""
    return hashlib.sha256(text.replace("\r\n", "\n").encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Draft:
    """What the page shows and its next post carries: the text the controls were drawn from
    (``shown``), the text of the file (``text``, maybe edited by hand), the controls' values."""

    base: str
    path: str
    opened: str
    shown: str
    text: str
    wanted: dict[tuple[str, str], str]
    notice: str = ""
    refusal: str = ""
    refused: str = ""
    report: str = ""
    room: str = ""
    """the seat link of the room just opened with this draft (用这套规则打一局)"""
    hand: bool = False

    def refuse(self, kind: str, lang: str, **kw: object) -> None:
        """Say why the post did not do what it asked (nothing was written)."""
        self.refused = kind
        words = REFUSALS[kind]
        self.refusal = (words[0] if lang == "zh" else words[1]).format(**kw)


# -- building the page ---------------------------------------------------------------------------


class Editor:
    """The editor's work: one per server, shared by its requests."""

    def __init__(self, config: EditorConfig) -> None:
        self.config = config
        self.reports = Reports()
        self.save_lock = threading.Lock()
        assert config.root is not None  # set by EditorConfig
        self.root: Path = config.root

    def open_room(self, variant: Variant) -> str:
        """A room playing ``variant``: seat 1 for the person editing, five ``simple`` agents (as the club
        home's 试打一局), served on a port of its own; the seat's link, its own secret after ``#``."""
        from ..room.core import PERSON, Room
        from .club_home import launch_thread
        from .room_app import create_room_app, seat_link

        room = Room(variant, [PERSON] + ["simple"] * 5, seed=secrets.randbits(63), takeover=None)
        port = (self.config.launch or launch_thread)(lambda _port: create_room_app(room, delay=1.0))
        self.config.log(f"a room with the edited rules at http://127.0.0.1:{port}/r/{room.code}")
        return seat_link(f"http://127.0.0.1:{port}", room, 0)

    # the variants behind a draft

    def place(self, path: str) -> Path:
        """The file a path typed into 保存到文件 names.  ``gouji edit`` reads it as a shell would, from where it was
        started; the club home's editor from the club's folder, since the secretary never chose a working folder."""
        typed = Path(path)
        return self.root / typed if self.config.paths_from_root and not typed.is_absolute() else typed

    def folder(self, path: str) -> Path:
        """Where the draft's relative ``extends:`` are read from: its file's folder, when the file is
        in the editor's folder tree; else that folder itself (a path typed elsewhere reads nothing there)."""
        if path and path_problem(path) is None:
            try:
                return within(self.place(path), str(self.root)).parent
            except OutsideRoot:
                pass
        return self.root

    def filename(self, path: str) -> str:
        """The name errors and the rule sheet show for ``path``: a draft not yet saved still needs a name a club
        recognises."""
        return path or "<新文件>"

    def base_variant(self, draft: Draft) -> Variant:
        """The variant the draft extends (its ``extends:``), else the chosen base."""
        name = self.extends(draft.shown, draft.path) or draft.base
        try:
            if name in dsl.shipped_names():
                return dsl.load_shipped(name)
            if "\0" not in name and not Path(name).is_absolute():
                checked = dsl.check_file(within(self.folder(draft.path) / name, str(self.root)), root=self.root)
                if checked.variant is not None and not checked.errors:
                    return checked.variant
        except (GoujiError, OutsideRoot, OSError, ValueError):
            pass
        return dsl.load_shipped("dagang")

    def extends(self, text: str, path: str) -> str | None:
        """The variant the draft's ``extends:`` names, or None when it names none or does not parse: the editor offers
        to remove a setting only where a base would supply it."""
        try:
            node = parse(text, self.filename(path)).get("extends")
        except VariantErrors:
            return None
        if node is None or node.kind != "scalar" or node.is_null or not node.value.strip():
            return None
        return str(node.value.strip())

    def open(self, base: str | None = None) -> Draft:
        """A draft of the file the editor was started on, or of a new file on ``base``."""
        path = self.config.path
        base = base or self.config.base
        unreadable = ""
        try:
            data = read_disk(path) if path is not None else None
        except InputFileError as e:
            data, unreadable = None, e.message
        if data is None:
            text = skeleton(base)
        else:
            try:
                text = decode(data, str(path))
            except VariantErrors:
                text = data.decode("utf-8", "replace")
        shown_path = str(path) if path else ""
        if path is not None and self.config.paths_from_root:  # the name as the club's folder holds it
            shown_path = os.path.relpath(os.path.realpath(path), self.root)
        draft = Draft(base, shown_path, digest(data), text, text, {})
        if unreadable:
            draft.refuse("unreadable", self.config.lang, path=draft.path, why=_why(unreadable, self.config.lang))
        if data is not None and not _utf8(data):
            draft.refuse("encoding", self.config.lang, path=draft.path)
        draft.base = self.extends(text, draft.path) or base
        draft.wanted = self.current(draft, text) or {}
        return draft

    def current(self, draft: Draft, text: str) -> dict[tuple[str, str], str] | None:
        """The controls' values for ``text``; None when it is not YAML, or when another file of its chain
        has errors (its values would put that file's content on the page: it is only named)."""
        filename = self.filename(draft.path)
        try:
            files = load_chain(text, filename, self.folder(draft.path), root=self.root).files
        except VariantErrors:
            return None
        if not all(_shipped(f) for f in files[1:]):  # a file of the folder's tree: its errors stay off the page
            checked = dsl.check_text(text, filename, self.folder(draft.path), root=self.root)
            if any(e.file != filename for e in checked.errors):
                return None
        try:
            return edit.values(
                text, self.filename(draft.path), self.folder(draft.path), self.base_variant(draft), self.root
            )
        except VariantErrors:
            return None

    def removable(self, text: str, path: str) -> bool:
        """May a setting of this draft be removed (it extends a base that supplies the value)? A file without
        ``extends:`` must keep every setting."""
        return self.extends(text, path) is not None

    def update(self, form: dict[str, list[str]]) -> Draft:
        """The draft after a post: the controls' changes spliced into the text the page showed (or
        into the text as edited by hand), a new file's base switched keeping every change made so far.

        A text edited by hand that is not YAML is kept as typed (``hand``), with its error, and the
        controls keep the values posted; nothing typed into either is dropped."""
        shown = _unb64(one(form, "shown"))
        typed_text = one(form, "text").replace("\r\n", "\n")
        by_hand = one(form, "hand") == "1" or _text_digest(typed_text) != one(form, "text_digest")
        base = one(form, "base") or self.config.base
        if base not in dsl.shipped_names():
            base = self.config.base
        draft = Draft(base, one(form, "path").strip(), one(form, "opened"), shown, shown, {})
        wanted: dict[tuple[str, str], str] = {}
        for section, key in [*edit.options(), *((edit.HOOKS_KEY, h) for h in HOOKS)]:
            name = f"{section}.{key}"
            if name in form:
                value = one(form, name).replace("\r\n", "\n")
                if not value.strip() and section != edit.HOOKS_KEY and edit.control_kind(section, key) == "int":
                    value = "null"  # an empty number box: no limit, as the page shows null
                wanted[(section, key)] = value
        draft.wanted = wanted
        before = self.current(draft, shown)
        start = typed_text if by_hand else shown
        old_base = self.extends(start, draft.path)
        if draft.opened == "absent" and old_base != base and old_base in dsl.shipped_names():
            start = _rebase(start, draft.path, base)  # a new file moved to another base keeps its changes
        todo: list[edit.Change] = []
        if before is not None:
            probe = dataclasses.replace(draft, shown=start)
            removable = self.removable(start, draft.path)
            todo = edit.changes(wanted, before, edit.base_values(self.base_variant(probe)), removable)
        try:
            draft.text = edit.apply(start, todo, self.filename(draft.path))
            title = one(form, "title")
            if "title" in form and title.strip() != one(form, "title_shown").strip():  # typed into the title field
                draft.text = edit.set_title(draft.text, title, self.filename(draft.path))
        except VariantErrors:
            draft.text = start
            draft.hand = by_hand
            return draft
        probe = dataclasses.replace(draft, shown=draft.text)
        after = self.current(probe, draft.text)
        if after is None:
            draft.hand = by_hand
            return draft
        draft.shown = draft.text
        done = {(c.section, c.key) for c in todo}
        for k, v in after.items():
            if k not in done or k not in wanted:
                wanted[k] = v
        return draft

    def check(self, draft: Draft) -> dsl.Checked:
        """The draft checked as ``gouji validate`` checks it, its chain confined to the editor's folder,
        with what the page may show: lines of the edited text only (:func:`shown`)."""
        filename = self.filename(draft.path)
        result = dsl.check_text(draft.text, filename, self.folder(draft.path), root=self.root)
        return shown(result, filename, draft.text)

    # saving

    def save(self, draft: Draft, lang: str) -> dsl.Checked:
        """Write the draft's text to its path, or set ``draft.refusal`` saying why not (nothing written)."""
        from ..atomic import atomic_writer
        from ..outputs import OutputPathError, check_outputs

        result = self.check(draft)
        if not draft.path:
            draft.refuse("no_path", lang)
            return result
        if not draft.path.endswith((".yaml", ".yml")):
            draft.refuse("suffix", lang, path=draft.path)
            return result
        problem = path_problem(draft.path)
        if problem is not None:
            draft.refuse("bad_path", lang, why=BAD_PATH[problem][0 if lang == "zh" else 1])
            return result
        target = self.place(draft.path)
        try:
            within(target, str(self.root))
        except OutsideRoot:
            draft.refuse("outside", lang, path=draft.path, root=self.root)
            return result
        if result.errors or result.variant is None:
            draft.refuse("invalid", lang)
            return result
        own = self.config.path is not None and _same_file(target, self.config.path)
        with self.save_lock:
            try:
                chain = [f for f in result.files[1:] if not _same_file(Path(f), target)]
                check_outputs([str(target)], chain)
            except OutputPathError as e:
                draft.refuse("path", lang, path=draft.path, why=_why(e.why, lang))
                return result
            try:
                data = read_disk(target)
            except InputFileError as e:
                draft.refuse("path", lang, path=draft.path, why=_why(e.message, lang))
                return result
            on_disk = digest(data)
            if own and data is not None and not _utf8(data):
                draft.refuse("encoding", lang, path=draft.path)
                return result
            if own and on_disk != draft.opened:
                draft.refuse("changed", lang, path=draft.path)
                return result
            if not own and on_disk != "absent" and on_disk != draft.opened:
                draft.refuse("exists", lang, path=draft.path)
                return result
            try:
                with atomic_writer(str(target)) as fh:
                    fh.write(draft.text)
            except (OSError, OutputPathError) as e:
                why = getattr(e, "why", "") or getattr(e, "strerror", "") or str(e)
                draft.refuse("path", lang, path=draft.path, why=_why(why, lang))
                return result
        try:
            draft.opened = digest(read_disk(target))
        except InputFileError:  # replaced between the write and this look: the next save says it changed
            draft.opened = "absent"
        if self.config.path is None or own:
            self.config.path = target
        draft.notice = say("saved", lang, path=draft.path)
        self.config.log(f"saved {draft.path}")
        return result

    # trying

    def sources(self, draft: Draft, base: Variant, variant: Variant) -> tuple[str | Variant, str | Variant]:
        """What compare is given, so that the command its report prints runs as printed: the base by its
        shipped name, the draft by its file's absolute path when what is on disk is the draft (saved);
        an unsaved draft as its Variant (the report then says to save it first)."""
        first: str | Variant = base.name if base.name in dsl.shipped_names() else base
        second: str | Variant = variant
        if draft.path and path_problem(draft.path) is None:
            target = Path(draft.path).absolute()
            try:
                if read_disk(target) == draft.text.encode("utf-8"):
                    second = str(target)
            except InputFileError:
                pass
        return first, second

    def try_it(self, draft: Draft, variant: Variant, base: Variant, lang: str) -> None:
        """Play the draft against its base for a few deals and keep the comparison as a report; stopped after
        ``try_seconds`` so one click never ties up the club's machine."""
        from ..compare.cross import DEFAULT_AGENTS, DEFAULT_CROSS_CHECK
        from ..compare.html import render_html
        from ..compare.run import compare

        limit = self.config.try_seconds
        started = time.monotonic()

        def watch(_done: int) -> None:
            if time.monotonic() - started > limit:
                raise TryTooLong(f"stopped after {limit:.0f} s" if lang != "zh" else f"超过 {limit:.0f} 秒，已停止")

        try:
            doc = compare(
                [*self.sources(draft, base, variant)],
                self.config.try_deals,
                TRY_SEED,
                DEFAULT_AGENTS,
                progress=watch,
                per_unit=5,
                match_hands=0,
                cross_check=DEFAULT_CROSS_CHECK,
            )
        except GoujiError as e:
            draft.refuse("try_failed", lang, why=str(e))
            return
        draft.report = self.reports.add(render_html(doc))


def _shipped(filename: str) -> bool:
    try:
        return Path(filename).resolve().parent == dsl.merge.shipped_dir().resolve()
    except (OSError, ValueError):
        return False


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _rebase(text: str, path: str, base: str) -> str:
    """``text`` with its ``extends:`` value replaced by ``base``, in place."""
    node = parse(text, path or "<新文件>").get("extends")
    if node is None:
        return text
    return text[: node.start] + base + text[node.end :]


def _try_agents() -> dict[str, str]:
    """Who plays "try it", as the page names them: compare's own agents and cross-check."""
    from ..compare.cross import DEFAULT_AGENTS, DEFAULT_CROSS_CHECK

    return {"agents": DEFAULT_AGENTS, "cross": DEFAULT_CROSS_CHECK}


class TryTooLong(GoujiError):
    """A "try it" comparison ran past its time."""


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        try:
            return os.path.realpath(a) == os.path.realpath(b)
        except (OSError, ValueError):
            return False


def _why(why: str, lang: str) -> str:
    if lang != "zh":
        return why
    for pattern, words in PATH_WHY_ZH:
        m = re.search(pattern, why)
        if m:
            return words(m)
    from ..dsl.zh_messages import translate

    return translate(why)


def one(form: dict[str, list[str]], key: str) -> str:
    """The single value of form field ``key`` ("" if absent); a field given twice is refused with 400, since which one
    the club meant cannot be known."""
    values = form.get(key, [])
    if len(values) > 1:
        raise PageError(400, f"the form field {key!r} is given twice")
    return values[0] if values else ""


# -- what the template shows ---------------------------------------------------------------------


@dataclass
class Control:
    """One option as the page shows it."""

    name: str
    kind: str
    label: str
    about: str
    value: str
    base_value: str
    base_words: str
    same: bool
    clause: str
    choices: list[tuple[str, str]]
    errors: list[str]


def _clauses(base: Variant) -> dict[tuple[str, str], str]:
    """The clause each option of the base comes from: the comment beside it in the base's file."""
    name = base.name
    if name not in dsl.shipped_names():
        return {}
    text, fname = dsl.shipped_text(name)
    out: dict[tuple[str, str], str] = {}
    ext = parse(text, fname).get("extends")
    if ext is not None and ext.kind == "scalar" and ext.value.strip() in dsl.shipped_names():
        out.update(_clauses(dsl.load_shipped(ext.value.strip())))
    out.update(edit.clauses(text, fname))
    return out


def sections(
    draft: Draft, base: Variant, errors: list[VariantFileError], filename: str, lang: str
) -> list[dict[str, Any]]:
    """The page's sections (一…十九), each option a :class:`Control`."""
    zh = lang == "zh"
    clause = _clauses(base)
    base_text = edit.base_values(base)
    where = edit.spans(draft.text, filename)
    out: list[dict[str, Any]] = []
    for number, (key, cls) in enumerate(SECTIONS, 1):
        doc_lines = [x.strip() for x in (cls.__doc__ or key).strip().splitlines() if x.strip()]
        head = doc_lines[0] if zh or len(doc_lines) < 2 else doc_lines[1]
        controls = []
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            kind = edit.control_kind(key, f.name)
            value = draft.wanted.get((key, f.name), base_text[(key, f.name)])
            base_value = base_text[(key, f.name)]
            words = field_choices(f, hints[f.name])
            choices = [(code, choice_words(words, code, lang)) for code in words] if kind == "choice" else []
            if kind == "choice" and value not in words:
                choices.append((value, value))
            span = where.get((key, f.name))
            mine = [e.format(lang) for e in errors if span and e.file == filename and span[0] <= e.line <= span[1]]
            try:
                base_words = field_words(base, key, f.name, getattr(getattr(base, key), f.name), lang)
            except (KeyError, ValueError, TypeError):
                base_words = base_value
            label = field_label(key, f.name, lang)
            about = plain_label(str(f.metadata.get("zh" if zh else "en", "")))
            controls.append(
                Control(
                    name=f"{key}.{f.name}",
                    kind=kind,
                    label=label,
                    about="" if about.rstrip("。. ") == label.rstrip("。. ") else about,
                    value="" if kind == "int" and value == "null" else value,
                    base_value=base_value,
                    base_words=base_words,
                    same=value.strip() == base_value.strip(),
                    clause=cite(clause.get((key, f.name), "")) if zh else clause.get((key, f.name), ""),
                    choices=choices,
                    errors=mine,
                )
            )
        changed = sum(not c.same for c in controls)
        out.append(
            {
                "number": number,
                "key": key,
                "title": f"{zh_numeral(number)}、{head}" if zh else f"{number}. {head}",
                "controls": controls,
                "changed": changed,
                "open": bool(changed or any(c.errors for c in controls)),
            }
        )
    return out


def hook_controls(
    draft: Draft, base: Variant, errors: list[VariantFileError], filename: str, lang: str
) -> list[Control]:
    """One control per expression hook, holding the draft's text, the base's and the errors that point at it, so a club
    edits a formula where it sees what it replaces."""
    base_text = edit.base_values(base)
    where = edit.spans(draft.text, filename)
    out = []
    for name, spec in HOOKS.items():
        value = draft.wanted.get((edit.HOOKS_KEY, name), "")
        span = where.get((edit.HOOKS_KEY, name))
        mine = [
            e.format(lang)
            for e in errors
            if (span and e.file == filename and span[0] <= e.line <= span[1]) or f"hooks.{name}:" in e.message
        ]
        names = ", ".join(spec.names)
        out.append(
            Control(
                name=f"hooks.{name}",
                kind="hook",
                label=f"{spec.zh if lang == 'zh' else spec.en}（{name}）",
                about=names,
                value=value,
                base_value=base_text[(edit.HOOKS_KEY, name)],
                base_words=base_text[(edit.HOOKS_KEY, name)],
                same=value.strip() == base_text[(edit.HOOKS_KEY, name)].strip(),
                clause="",
                choices=[],
                errors=list(dict.fromkeys(mine)),
            )
        )
    return out


def render(
    request: Request, editor: Editor, draft: Draft, result: dsl.Checked, lang: str, status: int = 200
) -> Response:
    """The editor page for ``draft``: its controls, errors, rule sheet and a fresh CSRF token, so every answer (check,
    save, refusal) shows the same page."""
    base = editor.base_variant(draft)
    filename = editor.filename(draft.path)
    errors = [*result.errors]
    csrf = request.cookies.get(CSRF_COOKIE) or ""
    if len(csrf) != 43:
        csrf = secrets.token_urlsafe(32)
    rule_sheet: Sheet | None = None
    diff: list[tuple[str, str, str]] = []
    if result.variant is not None:
        rule_sheet = sheet(result.variant, lang, base)
        diff = diff_rows(base, result.variant, lang, max_label=80)
    body = _env.get_template("editor.html").render(
        t=lambda key, **kw: say(key, lang, **kw),
        lang=lang,
        csrf=csrf,
        draft=draft,
        shown_b64=_b64(draft.shown),
        rules_title=edit.title_of(draft.text, filename),
        text_digest=_text_digest(draft.text),
        filename=filename,
        new_file=editor.config.path is None or draft.opened == "absent",
        bases=dsl.shipped_names(),
        base_name=base.name,
        errors=[e.format(lang) for e in errors],
        errors_en=[e.format("en") for e in errors] if lang == "zh" else [],
        warnings=[w.format(lang) for w in result.warnings],
        sections=sections(draft, base, errors, filename, lang),
        hooks=hook_controls(draft, base, errors, filename, lang),
        sheet=rule_sheet,
        heading=heading,
        diff=diff,
        valid=result.variant is not None and not errors,
        try_hands=2 * editor.config.try_deals,
        try_seed=TRY_SEED,
        home=editor.config.home,
        try_agents=_try_agents(),
    )
    resp = HTMLResponse(printable(body), status_code=status, headers=EDITOR_HEADERS)
    resp.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="strict", max_age=12 * 3600)
    return resp


# -- routes -------------------------------------------------------------------------------------


def _editor(request: Request) -> Editor:
    ed: Editor = request.app.state.editor
    if host_of(request) not in ed.config.hosts:  # the gate refuses it first; kept should the gate be moved
        raise PageError(403, "the editor answers only at 127.0.0.1", "规则编辑器只能在本机（127.0.0.1）打开。")
    return ed


def _lang(request: Request, form: dict[str, list[str]] | None = None) -> str:
    chosen = (one(form, "lang") or one(form, "page_lang")) if form else ""  # the switch, else the page's own
    config: EditorConfig = request.app.state.editor.config
    return lang_of(chosen or request.query_params.get("lang") or config.lang)


async def editor_page(request: Request) -> Response:
    """GET: open the editor on a shipped base (or the club's file) and check it at once, so the first view already
    shows any problem."""
    ed = _editor(request)
    base = request.query_params.get("base")
    draft = await run_in_threadpool(ed.open, base if base in dsl.shipped_names() else None)
    result = await run_in_threadpool(ed.check, draft)
    return render(request, ed, draft, result, _lang(request))


async def editor_post(request: Request) -> Response:
    """POST: apply the form to the draft, then check, save or try it as the button asked; every refusal comes back as
    the page with its reason, never a 500."""
    ed = _editor(request)
    form = await read_form(request, max_body=MAX_FORM, max_value=MAX_FIELD, max_fields=400)
    lang = _lang(request, form)
    action = one(form, "do") or "check"
    draft = await run_in_threadpool(ed.update, form)
    status = 200
    if action == "save":
        result = await run_in_threadpool(ed.save, draft, lang)
        status = 409 if draft.refused in ("changed", "exists") else 200
    else:
        result = await run_in_threadpool(ed.check, draft)
        if action in ("try", "room") and (result.variant is None or result.errors):
            draft.refuse(f"{action}_invalid", lang)
        elif action == "try" and result.variant is not None:
            await run_in_threadpool(ed.try_it, draft, result.variant, ed.base_variant(draft), lang)
        elif action == "room" and result.variant is not None:
            draft.room = await run_in_threadpool(ed.open_room, result.variant)
    return render(request, ed, draft, result, lang, status)


async def report_page(request: Request) -> Response:
    """A kept "try it" report, by its token; served with headers that keep it inside the editor's frame and out of
    caches."""
    page = _editor(request).reports.get(request.path_params["token"])
    if page is None:
        raise PageError(404, "no such report (only the last few are kept)", "找不到这份报告（只保留最近几份）。")
    return HTMLResponse(printable(page), headers=REPORT_HEADERS)


def message_page(request: Request, status: int, zh: str, en: str) -> Response:
    """A short page that says why a request was refused, Chinese first unless the page is in English."""
    try:
        lang = _lang(request)
    except HTTPException:
        lang = "zh"
    message = zh if lang == "zh" and zh else en
    body = _env.get_template("editor_message.html").render(lang=lang, message=message, title=say("title", lang))
    return HTMLResponse(printable(body), status_code=status, headers=EDITOR_HEADERS)


async def http_error(request: Request, exc: Exception) -> Response:
    """Every HTTP refusal as the editor's short message page (Chinese first), not Starlette's plain-text error."""
    assert isinstance(exc, HTTPException)
    zh = exc.zh if isinstance(exc, PageError) else ""
    return message_page(request, exc.status_code, zh, str(exc.detail))


def guarded(
    handler: Callable[[Request], typing.Awaitable[Response]],
) -> Callable[[Request], typing.Awaitable[Response]]:
    """``handler``, its unexpected exceptions made a refusal page instead of HTTP 500.

    An installed extension that fails to load (every check needs the registries) is 503 with its
    name: nothing the page sends can mend it.  Anything else was caused by what the request sent
    (the file and the form are the only inputs), so it is 400; the file on disk is untouched either
    way, and the exception's kind is logged for the organiser."""

    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except HTTPException:
            raise
        except ExtensionError as e:
            return message_page(
                request,
                503,
                f"已安装的扩展加载失败，修好或卸载它之前编辑器不能检查规则（文件没有改动）：{e}",
                f"An installed extension failed to load; the editor cannot check rules until it is mended "
                f"or removed (the file is unchanged): {e}",
            )
        except Exception as e:  # the one place a page turns any failure into a refusal
            ed: Editor = request.app.state.editor
            ed.config.log(f"refused a request: {type(e).__name__}: {_text_of(e)}")
            return message_page(
                request,
                400,
                f"这次请求没有完成（{type(e).__name__}）：文件没有改动。请返回，检查输入后再试，或重新打开页面。",
                f"This request could not be completed ({type(e).__name__}); the file is unchanged. "
                "Go back, check what was entered and try again, or open the page again.",
            )

    return run


def _text_of(e: BaseException) -> str:
    try:
        return str(e)
    except Exception:  # an exception whose __str__ fails is still reported by its kind
        return "(its message cannot be printed)"


def create_editor_app(config: EditorConfig) -> Starlette:
    """The editor's application: ``/`` the page (``?base=NAME`` a new file on another base), posts to ``/``."""
    app = Starlette(
        routes=[
            Route("/", guarded(editor_page), methods=["GET"]),
            Route("/", guarded(editor_post), methods=["POST"]),
            Route("/report/{token}", guarded(report_page), methods=["GET"]),
            Mount("/static", StaticFiles(packages=[("gouji_rules.web", "static")]), name="static"),
        ],
        exception_handlers={HTTPException: http_error},
        middleware=[
            Middleware(TokenGate, token=config.token, port=config.port, hosts=config.hosts, headers=EDITOR_HEADERS)
        ],
    )
    app.state.editor = Editor(config)
    return app


__all__ = ["TOKEN_PARAM", "EditorConfig", "create_editor_app", "editor_url"]
