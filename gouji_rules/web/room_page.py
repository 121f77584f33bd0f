"""A seat's page of a room, ``/r/{code}``: the table, the hand grouped by rank, and the decision asked.

Phone first: a 36-card hand cannot be a list of every legal set.  The hand is shown a rank a button (大王
小王 2 A K … 3, with counts); a tap adds one card of that rank to the chosen set, a tap on a chosen card
takes it back; 出牌 sends the listed legal action equal to the chosen set, in the server's own spelling
(``SJ+BJ``, never the page's).  When the view lists every legal action and none equals the chosen set, the
page says why in Chinese and sends nothing; when a big lead lists only a spread of them, the server
decides, and a set the rules refuse comes back as a refusal in Chinese with nothing changed.
The common decision takes one tap or two: 最小能管 (出最小 when leading) plays the smallest legal set,
提示 cycles through the legal sets smallest first (then 出牌), 不要 passes.  Decisions that are not a
set of cards (declarations, tribute, 冲点, 革命 …) stay buttons, each in the words of the table.

这一步的规则 beside the decision opens the rules sheet at the part that governs it (出牌 → 出牌, 烧牌 → 烧牌,
预点 → 宣点与明点 …).  In a friendly room, AI建议 asks the server for the learned agent's three first choices (a ``hint``
frame; off in events); 规则 opens the rules sheet; once a hand has ended, 复盘 asks for the review of
the seat's own decisions in it.
"""

from __future__ import annotations

import html

_PAGE = r"""<!doctype html>
<html lang="zh"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{title}}</title>
<style>
body{font-family:system-ui,"WenQuanYi Micro Hei",sans-serif;margin:0;padding:10px;max-width:720px}
h1{font-size:17px;margin:2px 0}.muted{color:#666;font-size:13px}a{color:#05c}
#status{font-size:16px;margin:4px 0;min-height:1.3em}#clause{font-size:13px}#status.mine{color:#b50;font-weight:bold}
#tablebox{background:#f3f6f3;border-radius:8px;padding:6px 8px;margin:6px 0}
#table{font-size:22px;font-weight:bold;letter-spacing:1px}
#seats{display:flex;flex-wrap:wrap;gap:4px;margin:4px 0}
.seat{font-size:12px;border:1px solid #ccc;border-radius:6px;padding:2px 6px}.seat.turn{background:#fff3c4}
.seat.me{border-color:#b50}
#hand{display:flex;flex-wrap:wrap;gap:5px;margin:8px 0}
#hand button{font-size:18px;min-width:48px;min-height:48px;padding:2px 6px;border:1px solid #999;border-radius:8px;background:#fff}
#hand button .n{font-size:12px;color:#666;display:block}#hand button.some{background:#dff0ff;border-color:#05c}
#chosen{min-height:30px;margin:4px 0}#chosen button{font-size:17px;margin:2px;padding:4px 8px;background:#dff0ff;border:1px solid #05c;border-radius:6px}
#acts button,#extra button{font-size:17px;margin:3px;padding:10px 12px;min-height:44px;border-radius:8px}
#acts button.main{background:#ffe0b3;border:1px solid #b50}
#msg{color:#b00;min-height:1.2em}#advice button{font-size:15px;margin:3px;padding:8px}
#recent{font-size:13px;color:#444;word-break:break-all}
@media (min-width:900px){body{max-width:880px}}
</style></head><body>
<h1>{{title}} <a id="rules" href="" target="_blank" rel="noreferrer" class="muted">规则</a></h1>
<div><span id="status">连接中…</span> <a id="clause" href="" target="_blank" rel="noreferrer" hidden>这一步的规则 ›</a></div>
<div id="tablebox">桌上：<span id="table">—</span> <span class="muted" id="owner"></span>
<div id="seats"></div><div id="recent"></div></div>
<div id="msg" role="alert"></div>
<div id="chosen"></div>
<div id="acts"></div>
<div id="advice"></div>
<div class="muted">我的牌：<span id="left"></span></div>
<div id="hand"></div>
<div id="extra"></div>
<div class="muted" id="scores"></div>
<script>
const secret = decodeURIComponent(location.hash.slice(1));
const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname + "/ws");
const $ = (id) => document.getElementById(id);
$("rules").href = location.pathname + "/rules";
const BIG_FIRST = ["Y", "BJ", "SJ", "2", "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3"];
const MAIN = "3456789TJQKA";
const NAMES = {Y: "花", BJ: "大王", SJ: "小王", T: "10"};
const SECTION = {lead: "play", follow: "play", kou: "play", burn: "burn", consent: "jiefeng", buy4: "buy",
  geming: "geming", head: "geming", chongdian: "chongdian", chong_set: "chongdian", chong_answer: "chongdian",
  choose_last: "places", mingdian: "declare", yudian: "declare", xuandian: "declare", waive: "tribute",
  point_call: "tribute", give: "tribute", accept: "tribute"};  // a decision's mode -> its part of the rules sheet
const WHO = {person: "玩家", learned: "学习型", ismcts: "ISMCTS", greedy: "贪心", simple: "简单", random: "随机", bot: "程序"};
let view = null, chosen = {}, hintAt = -1, reviews = {};
const say = (r) => NAMES[r] || r;
function tokens(text) {  // "333+SJBJ" or "33344BJ" -> ["3","3","3","SJ","BJ"]
  const out = [];
  for (let i = 0; i < text.length; i++) {
    const two = text.substr(i, 2);
    if (two === "SJ" || two === "BJ") { out.push(two); i++; } else if (text[i] !== "+" && text[i] !== " ") out.push(text[i]);
  }
  return out;
}
function countsOf(text) { const c = {}; tokens(text).forEach((t) => { c[t] = (c[t] || 0) + 1; }); return c; }
function setText(c) {  // the chosen cards in the notation the server reads: ranks, 2s, then + jokers
  let main = "";
  for (const r of MAIN) main += r.repeat(c[r] || 0);
  main += "2".repeat(c["2"] || 0);
  const jokers = "SJ".repeat(c.SJ || 0) + "BJ".repeat(c.BJ || 0) + "Y".repeat(c.Y || 0);
  return jokers ? (main ? main + "+" + jokers : jokers) : main;
}
function spoken(c) { return BIG_FIRST.filter((r) => c[r]).map((r) => (say(r) + " ").repeat(c[r]).trim()).join(" "); }
function send(frame) { ws.send(JSON.stringify(frame)); }
function act(action) { $("msg").textContent = ""; send({type: "act", seq: view.seq, action: action}); }
function prefix(o) { return o.legal_compact && o.legal_compact.kind === "burn" ? "burn " : ""; }
function playable(o) {  // the listed legal actions that are sets of cards, smallest first as the server lists them
  const extras = (o.legal_compact && o.legal_compact.extras) || [];
  return (o.legal || []).filter((a) => !extras.includes(a));
}
function sameCards(a, b) {
  const x = countsOf(a), y = countsOf(b);
  return BIG_FIRST.every((r) => (x[r] || 0) === (y[r] || 0));
}
function playChosen(o) {  // 出牌: the listed legal set equal to the chosen cards, in the server's own spelling
  const t = setText(chosen), pre = prefix(o);
  if (!t) { $("msg").textContent = "还没有选牌。"; return; }
  const match = playable(o).find((a) => sameCards(a.slice(pre.length), t));
  if (match) { act(match); return; }
  if ((o.legal || []).length < o.legal_count) { act(pre + t); return; }  // a partial list: the server decides
  const n = tokens(t).length, want = o.table ? tokens(o.table).length : 0;
  $("msg").textContent = "「" + spoken(chosen) + "」不能出：" + (o.table
    ? (want && n !== want ? "桌上是 " + want + " 张，你选了 " + n + " 张" : "管不上桌上的「" + spoken(countsOf(o.table)) + "」")
    : "这几张不能作为一手一起出（一手是同一点数，可挂王、贴2）") + "。点 提示 看能出的牌。";
}
function picking(f) { return f.yours && playable(f.observation).length > 0; }
function button(parent, text, onclick, cls) {
  const b = document.createElement("button"); b.textContent = text; b.onclick = onclick;
  if (cls) b.className = cls; parent.appendChild(b); return b;
}
ws.onopen = () => send({type: "join", secret: secret});
ws.onclose = () => { $("status").textContent = "连接断开，请刷新页面。"; };
ws.onmessage = (ev) => {
  const f = JSON.parse(ev.data);
  if (f.type === "refused") { $("msg").textContent = f.zh; return; }
  if (f.type === "records") {  // one record a line, kept as text: the file gouji verify and gouji replay read
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([f.jsonl], {type: "application/x-ndjson"}));
    a.download = "room-" + view.room + ".jsonl"; document.body.appendChild(a); a.click(); a.remove();
    return;
  }
  if (f.type === "review") { reviews[f.hand] = URL.createObjectURL(new Blob([f.html], {type: "text/html"})); draw(); return; }
  if (f.type === "hint") { showAdvice(f); return; }
  if (f.type !== "view") return;
  if (!view || view.seq !== f.seq) { chosen = {}; hintAt = -1; $("advice").textContent = ""; }
  view = f; $("msg").textContent = "";
  draw();
};
function showAdvice(f) {
  const box = $("advice"); box.textContent = "";
  if (!view || f.seq !== view.seq) return;
  const t = document.createElement("div"); t.className = "muted"; t.textContent = "AI 建议（点一下就出）："; box.appendChild(t);
  f.choices.forEach((c, i) => button(box, (i + 1) + ". " + c.zh, () => act(c.action)));
}
function draw() {
  const f = view, o = f.observation, me = f.seat;
  const part = f.yours ? SECTION[o.mode] : null;
  $("clause").hidden = !part;
  if (part) $("clause").href = location.pathname + "/rules#" + part;
  const st = $("status");
  st.className = f.yours ? "mine" : "";
  st.textContent = f.over ? "这一场打完了。" :
    (f.yours ? "轮到你了：" + f.mode_zh : (f.taken_over[me] ? "托管中：机器人替你出牌，出一手就收回。" : "等待座位 " + (f.turn + 1) + "…"));
  $("table").textContent = o.table ? spoken(countsOf(o.table)) : "—";
  $("owner").textContent = o.table && o.table_owner >= 0 ? "（座位 " + (o.table_owner + 1) + "）" : "";
  const seats = $("seats"); seats.textContent = "";
  f.who.forEach((who, s) => {
    const d = document.createElement("span");
    d.className = "seat" + (s === f.turn && !f.over ? " turn" : "") + (s === me ? " me" : "");
    const left = o.cards_left[s];
    d.textContent = (s + 1) + (s === me ? "（我）" : " " + (WHO[who] || who)) + " " + (left >= 0 ? left + "张" : "?") + (f.taken_over[s] ? " 托管" : "");
    seats.appendChild(d);
  });
  const recent = (o.events || []).filter((e) => e.type === "play" || e.type === "pass").slice(-6);
  $("recent").textContent = recent.map((e) => (e.seat + 1) + "家" + (e.type === "pass" ? "过" : spoken(countsOf(e.cards)))).join("　");
  const hand = countsOf(o.hand || "");
  const pick = picking(f);
  $("left").textContent = tokens(o.hand || "").length + " 张";
  const hb = $("hand"); hb.textContent = "";
  BIG_FIRST.filter((r) => hand[r]).forEach((r) => {
    const n = hand[r] - (chosen[r] || 0);
    const b = button(hb, say(r), () => { if (pick && n > 0) { chosen[r] = (chosen[r] || 0) + 1; draw(); } }, chosen[r] ? "some" : "");
    b.dataset.rank = r;
    const c = document.createElement("span"); c.className = "n"; c.textContent = "×" + n; b.appendChild(c);
  });
  const cb = $("chosen"); cb.textContent = "";
  if (pick) {
    const lbl = document.createElement("span"); lbl.className = "muted";
    lbl.textContent = Object.keys(chosen).some((r) => chosen[r]) ? "已选（点一张放回）：" : "点上面的牌选牌，或用 提示 / 最小。";
    cb.appendChild(lbl);
    BIG_FIRST.forEach((r) => { for (let k = 0; k < (chosen[r] || 0); k++) button(cb, say(r), () => { chosen[r]--; draw(); }); });
  }
  const acts = $("acts"); acts.textContent = "";
  const extra = $("extra"); extra.textContent = "";
  if (f.yours) {
    const listed = o.legal || [];
    if (pick) {
      const sets = playable(o), pre = prefix(o);
      button(acts, o.table ? "最小能管" : "出最小", () => act(sets[0]), "main").id = "smallest";
      button(acts, "提示", () => { hintAt = (hintAt + 1) % sets.length; chosen = countsOf(sets[hintAt].slice(pre.length)); draw(); }).id = "hint";
      const go = button(acts, "出牌", () => playChosen(o), "main");
      go.id = "play";
    }
    listed.forEach((a, i) => {
      if (pick && playable(o).includes(a)) return;
      const b = button(acts, f.labels[i] || a, () => act(a));
      if (a === "pass") b.id = "pass";
    });
    if (f.advice) button(extra, "AI建议", () => send({type: "hint", seq: f.seq})).id = "advise";
  }
  const done = f.over ? f.hands : f.hand_number - 1;
  for (let k = 1; k <= done; k++) {
    if (reviews[k]) {
      const a = document.createElement("a"); a.href = reviews[k]; a.target = "_blank"; a.textContent = "打开第" + k + "局复盘 ";
      extra.appendChild(a);
    } else button(extra, "复盘第" + k + "局", (ev) => { ev.target.textContent = "复盘中…（约十秒）"; send({type: "review", hand: k}); });
  }
  if (f.over) button(extra, "下载记录", () => send({type: "records"})).id = "records";
  $("scores").textContent = "第 " + f.hand_number + " / " + f.hands + " 局　比分 " + f.scores.join(" : ") + "　我是座位 " + (me + 1);
}
</script></body></html>
"""


def seat_page(title: str) -> str:
    """A seat's page for a room titled ``title`` (the seat's secret comes in the link's ``#``)."""
    return _PAGE.replace("{{title}}", html.escape(title))


__all__ = ["seat_page"]
