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
import os
import re
import subprocess
import tempfile
from importlib import resources
from pathlib import Path
from typing import Any

from ..atomic import temp_beside
from ..dsl.printable import RENDER_TIMEOUT_S, RendererMissing, RenderFailed, find_chromium
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
        cmd = [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={Path(tmp) / 'profile'}",
            "--dump-dom",
            source.as_uri(),
        ]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=RENDER_TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            raise RenderFailed(f"{browser} did not finish drawing the picture in {RENDER_TIMEOUT_S} s") from None
        except OSError as e:
            raise RenderFailed(f"{browser} could not be started: {e.strerror}") from None
    found = _DRAWN.search(done.stdout or "")
    try:
        png = base64.b64decode(found[1], validate=True) if found else b""
    except binascii.Error:
        png = b""
    if not png.startswith(b"\x89PNG"):
        why = (done.stderr or "").strip().splitlines()[-1:] or [f"exit status {done.returncode}"]
        raise RenderFailed(f"{browser} drew no picture: {why[0]}")
    target = Path(target)
    part = temp_beside(target, ".png")
    try:
        part.write_bytes(png)
        os.replace(part, target)
    except BaseException:
        part.unlink(missing_ok=True)
        raise


__all__ = ["page", "write_png"]
