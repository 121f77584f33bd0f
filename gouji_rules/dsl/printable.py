"""The rule sheet as a page a club prints or posts: self-contained HTML (A4, inline CSS) and a PNG.

The HTML is built from the same :class:`~gouji_rules.dsl.explain.Sheet` as ``gouji explain``'s
text, so the page and the terminal never say different things.  The PNG is that page rendered
by Debian's headless Chromium: the project ships no renderer of its own, and a browser draws
Chinese text the way the club's phones will.
"""

from __future__ import annotations

import html
import math
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..atomic import temp_beside
from ..errors import GoujiError
from .errors import display_width
from .explain import Sheet, heading

CHROMIUM_NAMES = ("chromium", "chromium-browser")
PNG_WIDTH = 900
"""Pixels: wide enough for a line of about 50 Chinese characters, narrow enough for a phone to zoom."""
RENDER_TIMEOUT_S = 60

CSS = """
@page { size: A4; margin: 14mm 12mm; }
* { box-sizing: border-box; }
body { font-family: "Noto Sans CJK SC", "WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC", sans-serif;
  color: #111; background: #fff; margin: 0 auto; padding: 16px 24px; max-width: 210mm;
  font-size: 15px; line-height: 1.55; }
h1 { font-size: 24px; margin: 0 0 4px; }
.source, .legend { margin: 0; color: #444; font-size: 13px; }
.legend { color: #a40000; }
section { margin: 10px 0 0; break-inside: avoid-page; }
h2 { font-size: 16px; margin: 10px 0 2px; padding-bottom: 2px; border-bottom: 1px solid #bbb; }
section.off h2 { color: #666; border-bottom: none; font-weight: normal; }
ol { margin: 0; padding-left: 2.6em; }
li { margin: 1px 0; break-inside: avoid; }
li.changed, h2.changed { font-weight: bold; }
.star { color: #a40000; font-weight: bold; }
.words { display: block; color: #333; }
@media print { body { padding: 0; max-width: none; } }
"""


class RendererMissing(GoujiError):
    """``--png`` needs a headless browser that is not installed."""


class RenderFailed(GoujiError):
    """The browser ran but made no picture."""


def to_html(s: Sheet) -> str:
    """The whole sheet as one HTML page: no scripts, no outside files, Chinese first (``lang`` set)."""
    zh = s.lang == "zh"
    star = f'<span class="star" title="{html.escape(s.legend)}">★</span> '
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{"zh-Hans" if zh else "en"}">',
        '<head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(s.title)}</title>",
        f"<style>{CSS}</style></head>",
        "<body>",
        f"<h1>{html.escape(s.title)}</h1>",
    ]
    if s.source:
        out.append(f'<p class="source">{html.escape(("出处：" if zh else "Source: ") + s.source)}</p>')
    if s.legend:
        out.append(f'<p class="legend">{html.escape(s.legend)}</p>')
    for part in s.parts:
        mark = star if part.off and part.changed else ""
        cls = ' class="changed"' if part.off and part.changed else ""
        out.append(f'<section id="{part.key}" class="{"off" if part.off else "on"}">')
        out.append(f"<h2{cls}>{mark}{html.escape(heading(part, s.lang))}</h2>")
        if part.items:
            out.append("<ol>")
            for item in part.items:
                first, _, rest = item.text.partition("\n")
                body = html.escape(first)
                if rest:
                    body += f'<span class="words">{html.escape(rest.strip())}</span>'
                changed = ' class="changed"' if item.changed else ""
                out.append(f'<li value="{item.number}"{changed}>{star if item.changed else ""}{body}</li>')
            out.append("</ol>")
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def find_chromium() -> str | None:
    """The headless browser to render with, or None."""
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def page_height(s: Sheet) -> int:
    """Pixels the page needs at :data:`PNG_WIDTH` (a little more, never less: white below is harmless)."""
    per_line = 50 * 2  # display columns in one line of text
    lines = 4
    for part in s.parts:
        lines += 2
        for item in part.items:
            lines += sum(max(1, math.ceil(display_width(t) / per_line)) for t in item.text.split("\n"))
    return 60 + lines * 25


def run_chromium(browser: str, profile: Path, args: list[str], what: str) -> subprocess.CompletedProcess[str]:
    """Headless Chromium with its own ``profile`` folder and ``args``; RenderFailed when it cannot be started
    or does not finish drawing ``what`` in :data:`RENDER_TIMEOUT_S` (the rule sheet's ``--png`` and the
    standings' picture both draw so)."""
    cmd = [
        browser,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        f"--user-data-dir={profile}",
        *args,
    ]
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=RENDER_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise RenderFailed(f"{browser} did not finish drawing {what} in {RENDER_TIMEOUT_S} s") from None
    except OSError as e:
        raise RenderFailed(f"{browser} could not be started: {e.strerror}") from None


def last_words(done: subprocess.CompletedProcess[str]) -> str:
    """What a Chromium that drew nothing said last (its exit status where it said nothing)."""
    return ((done.stderr or "").strip().splitlines()[-1:] or [f"exit status {done.returncode}"])[0]


def write_picture(target: str | Path, data: bytes) -> None:
    """Write a drawn PNG to ``target`` atomically: a part file beside it, then a rename."""
    target = Path(target)
    part = temp_beside(target, ".png")
    try:
        part.write_bytes(data)
        os.replace(part, target)
    except BaseException:
        part.unlink(missing_ok=True)
        raise


def write_png(page: str, s: Sheet, target: str | Path, browser: str | None = None) -> None:
    """Render ``page`` (from :func:`to_html`) to a PNG at ``target``, atomically.

    Raises :class:`RendererMissing` when no Chromium is installed and :class:`RenderFailed`
    when it makes no picture; ``target`` is then left as it was."""
    browser = browser or find_chromium()
    if browser is None:
        raise RendererMissing("--png needs Chromium to draw the page: install it (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="gouji-sheet-") as tmp:
        page_file = Path(tmp) / "sheet.html"
        page_file.write_text(page, encoding="utf-8")
        shot = Path(tmp) / "sheet.png"
        size = [f"--window-size={PNG_WIDTH},{page_height(s)}", f"--screenshot={shot}", "--hide-scrollbars"]
        done = run_chromium(browser, Path(tmp) / "profile", [*size, page_file.as_uri()], "the page")
        data = shot.read_bytes() if shot.is_file() else b""
        if not data.startswith(b"\x89PNG"):
            raise RenderFailed(f"{browser} made no picture: {last_words(done)}")
        write_picture(target, data)


__all__ = ["RenderFailed", "RendererMissing", "find_chromium", "run_chromium", "to_html", "write_picture", "write_png"]
