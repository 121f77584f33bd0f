"""The spectators' page of a room, ``/r/{code}/watch``: the table as every seat knows it, never a hand.

No secret opens it: what it is sent (:meth:`~gouji_rules.room.core.Room.spectator_view`) holds nothing a
seat may not see, so a room's code is enough to watch.  The dealt hands appear after a hand only in a
friendly room (``show_hands_after``), as they do for the players.
"""

from __future__ import annotations

import html

_PAGE = """<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>观战 · {{title}}</title>
<style>
body{font-family:system-ui,"WenQuanYi Micro Hei",sans-serif;margin:0;padding:12px;max-width:720px}
h1{font-size:18px;margin:4px 0}.muted{color:#666;font-size:13px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:4px 8px;font-size:15px}
tr.turn{background:#fff3c4}#table{font-size:20px}#last{font-size:14px;word-break:break-all}
</style></head><body>
<h1>观战 · {{title}}</h1>
<div class="muted" id="status">连接中…</div>
<div>桌上：<span id="table">—</span> <span class="muted" id="owner"></span></div>
<table><thead><tr><th>座位</th><th>谁</th><th>剩牌</th><th>开点</th></tr></thead><tbody id="seats"></tbody></table>
<div class="muted" id="scores"></div>
<div>最近：<span id="recent">—</span></div>
<div id="last"></div>
<script>
const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname.replace(/\\/watch$/, "") + "/ws");
const $ = (id) => document.getElementById(id);
const names = {person: "玩家", learned: "学习型机器人", ismcts: "ISMCTS 机器人", greedy: "贪心机器人",
  simple: "简单机器人", random: "随机机器人", bot: "机器人程序"};
ws.onopen = () => ws.send(JSON.stringify({type: "watch"}));
ws.onclose = () => { $("status").textContent = "连接断开，请刷新页面。"; };
ws.onmessage = (ev) => {
  const f = JSON.parse(ev.data);
  if (f.type === "refused") { $("status").textContent = f.zh; return; }
  if (f.type !== "watch") return;
  const o = f.observation;
  $("status").textContent = f.over ? "这一场打完了。" : "轮到座位 " + (f.turn + 1) + "：" + f.mode_zh;
  $("table").textContent = o.table || "—";
  $("owner").textContent = o.table && o.table_owner >= 0 ? "（座位 " + (o.table_owner + 1) + " 出的）" : "";
  const rows = $("seats"); rows.textContent = "";
  f.who.forEach((who, s) => {
    const tr = document.createElement("tr");
    if (s === f.turn) tr.className = "turn";
    const left = o.cards_left[s];
    [String(s + 1), (names[who] || who) + (f.taken_over[s] ? "（托管）" : ""),
     left >= 0 ? String(left) : "?", o.point[s] && o.point[s] !== "none" ? o.point[s] : ""].forEach((t) => {
      const td = document.createElement("td"); td.textContent = t; tr.appendChild(td);
    });
    rows.appendChild(tr);
  });
  const recent = o.events.filter((e) => e.type === "play" || e.type === "pass").slice(-6);
  $("recent").textContent = recent.length ? recent.map((e) => (e.seat + 1) + "家 " + (e.type === "pass" ? "过" : e.cards)).join("　") : "—";
  $("scores").textContent = "第 " + f.hand_number + " / " + f.hands + " 局　比分 " + f.scores.join(" : ");
  $("last").textContent = f.last_hands ? "上一局各家的牌：" + f.last_hands.map((h, s) => (s + 1) + "：" + h).join("　") : "";
};
</script></body></html>
"""


def watch_page(title: str) -> str:
    """The spectators' page for a room titled ``title``."""
    return _PAGE.replace("{{title}}", html.escape(title))


__all__ = ["watch_page"]
