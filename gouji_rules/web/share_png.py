"""``--png`` for the standings: the 保存图片 picture, drawn by the page's own script in headless Chromium.

The picture a command writes must be the one the page saves, so nothing here draws: a page holding
``static/share.js`` and the picture's data is loaded with ``--dump-dom``, its script writes the canvas
as a data address into the page, and the PNG is read back from there.  Where no Chromium is
installed (most club laptops) the page's button does the same, which is why this is only an option.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from ..dsl.printable import RendererMissing, RenderFailed, find_chromium, last_words, run_chromium, write_picture
from .share import as_json

FONT = (
    'system-ui, -apple-system, "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC", "Source Han Sans SC", '
    '"Microsoft YaHei", "WenQuanYi Micro Hei", sans-serif'
)
"""The pages' CJK font stack (static/style.css): the picture uses the font the page would."""

_DRAWN = re.compile(r'<pre id="out">data:image/png;base64,([A-Za-z0-9+/=]+)</pre>')


def page(data: dict[str, Any]) -> str:
    """A page that draws ``data`` with share.js and writes the PNG into ``<pre id="out">``."""
    script = resources.files("gouji_rules.web").joinpath("static/share.js").read_text(encoding="utf-8")
    return (
        f'<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>{html.escape(data["title"])}</title>'
        f"<style>body {{ font-family: {FONT}; }}</style></head><body>"
        f'<pre id="out"></pre><script type="application/json" id="share-data">{as_json(data)}</script>'
        f"<script>{script}</script><script>"
        'document.getElementById("out").textContent = window.goujiShare.draw('
        'JSON.parse(document.getElementById("share-data").textContent)).toDataURL("image/png");'
        "</script></body></html>"
    )


def write_png(data: dict[str, Any], target: str | Path, browser: str | None = None) -> None:
    """Draw ``data`` as the page's 保存图片 does and write the PNG to ``target``, atomically.

    :class:`RendererMissing` without Chromium, :class:`RenderFailed` when it draws nothing; ``target``
    is then left as it was."""
    browser = browser or find_chromium()
    if browser is None:
        raise RendererMissing(
            "--png needs Chromium to draw the picture: install it (Debian: apt-get install chromium), "
            "or use the page's 保存图片 button"
        )
    with tempfile.TemporaryDirectory(prefix="gouji-share-") as tmp:
        source = Path(tmp) / "share.html"
        source.write_text(page(data), encoding="utf-8")
        done = run_chromium(browser, Path(tmp) / "profile", ["--dump-dom", source.as_uri()], "the picture")
    found = _DRAWN.search(done.stdout or "")
    try:
        png = base64.b64decode(found[1], validate=True) if found else b""
    except binascii.Error:
        png = b""
    if not png.startswith(b"\x89PNG"):
        raise RenderFailed(f"{browser} drew no picture: {last_words(done)}")
    write_picture(target, png)


__all__ = ["page", "write_png"]
