/* 保存图片: the page's table drawn on a canvas and saved as a PNG sized for a group chat.

   Club laptops rarely have Chromium for `--png`, and a screenshot of a phone cuts the table, so the
   page draws its own picture from the data it was rendered with (a <script type="application/json">
   block named by the button's data-share).  The picture is always WIDTH pixels wide, whatever the
   screen, in the page's own CJK font; it is downloaded and also shown, since a chat app's built-in
   browser saves nothing but lets a long press save or forward the picture. */
(function () {
  "use strict";
  var WIDTH = 1080;   // pixels: a chat app shows this full width on a phone and does not shrink it
  var S = 2;          // drawn at 540 "points", twice over, so that text stays sharp on a phone
  var PAD = 28 * S, LINE = 30 * S, ROW = 44 * S;
  var INK = "#222", MUTED = "#777", BAND = "#8b0000", STRIPE = "#f6f1f1", RULE = "#e4e4e4";

  function font(size, weight) {
    var family = window.getComputedStyle(document.body).fontFamily || "sans-serif";
    return (weight || "400") + " " + size * S + "px " + family;
  }

  // split text into lines no wider than `width`: Chinese breaks between any two characters,
  // a run of Latin letters or digits is kept whole where it fits
  function wrap(ctx, text, width) {
    var out = [], line = "", tokens = String(text).match(/[A-Za-z0-9.,:;!?'"()\-+%]+\s*|\s+|./gu) || [];
    tokens.forEach(function (tok) {
      if (line && ctx.measureText(line + tok).width > width) {
        out.push(line.replace(/\s+$/, ""));
        line = tok.replace(/^\s+/, "");
      } else {
        line += tok;
      }
      while (ctx.measureText(line).width > width && line.length > 1) {  // one token wider than the line
        var cut = line.length - 1;
        while (cut > 1 && ctx.measureText(line.slice(0, cut)).width > width) cut--;
        out.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    });
    if (line) out.push(line);
    return out.length ? out : [""];
  }

  function fit(ctx, text, width) {
    text = String(text);
    if (ctx.measureText(text).width <= width) return text;
    while (text.length > 1 && ctx.measureText(text + "…").width > width) text = text.slice(0, -1);
    return text + "…";
  }

  // column widths: each column its widest cell, the name column (index 1) taking what is left
  function widths(ctx, cols, rows, room) {
    var w = cols.map(function (c, i) {
      ctx.font = font(16, "600");
      var widest = ctx.measureText(c).width;
      ctx.font = font(17);
      rows.forEach(function (r) { widest = Math.max(widest, ctx.measureText(String(r[i] || "")).width); });
      return widest + 16 * S;
    });
    var flex = cols.length > 1 ? 1 : 0;
    var rest = room - w.reduce(function (a, b, i) { return i === flex ? a : a + b; }, 0);
    var minName = 6 * 17 * S;
    if (rest < minName) {  // too wide: the widest other column gives way, its cells cut with …
      var widest = w.indexOf(Math.max.apply(null, w.filter(function (_x, i) { return i !== flex; })));
      w[widest] = Math.max(w[widest] - (minName - rest), 4 * 17 * S);
      rest = minName;
    }
    w[flex] = rest;
    return w;
  }

  // lay out (draw=false: only measure) and return the height used
  function layout(ctx, data, draw) {
    var y = 0, room = WIDTH - 2 * PAD;
    if (draw) { ctx.fillStyle = BAND; ctx.fillRect(0, 0, WIDTH, 12 * S); }
    y += 12 * S + PAD;
    ctx.font = font(26, "700");
    wrap(ctx, data.title, room).forEach(function (l) {
      if (draw) { ctx.fillStyle = INK; ctx.fillText(l, PAD, y + 30 * S); }
      y += 38 * S;
    });
    if (data.subtitle) {
      ctx.font = font(15);
      wrap(ctx, data.subtitle, room).forEach(function (l) {
        if (draw) { ctx.fillStyle = MUTED; ctx.fillText(l, PAD, y + 20 * S); }
        y += 24 * S;
      });
    }
    y += 10 * S;
    (data.blocks || []).forEach(function (b) {
      if (b.heading) {
        ctx.font = font(18, "700");
        wrap(ctx, b.heading, room).forEach(function (l) {
          if (draw) { ctx.fillStyle = b.muted ? MUTED : INK; ctx.fillText(l, PAD, y + 24 * S); }
          y += LINE;
        });
        if (draw && !b.muted) { ctx.fillStyle = RULE; ctx.fillRect(PAD, y + 2 * S, room, 1 * S); }
        y += 8 * S;
      }
      if (b.cols) {
        var w = widths(ctx, b.cols, b.rows || [], room);
        var row = function (cells, head, stripe) {
          ctx.font = head ? font(16, "600") : font(17);
          if (draw) {
            if (head) { ctx.fillStyle = "#f0f0f0"; ctx.fillRect(PAD, y, room, ROW); }
            else if (stripe) { ctx.fillStyle = STRIPE; ctx.fillRect(PAD, y, room, ROW); }
            var x = PAD;
            cells.forEach(function (c, i) {
              var inner = w[i] - 16 * S, text = fit(ctx, c == null ? "" : c, inner);
              var right = b.align ? b.align[i] === "r" : i !== 1;  // numbers right, the name left
              ctx.fillStyle = head ? INK : (i === 1 ? INK : "#333");
              ctx.fillText(text, right ? x + w[i] - 8 * S - ctx.measureText(text).width : x + 8 * S, y + ROW / 2 + 6 * S);
              x += w[i];
            });
          }
          y += ROW;
        };
        row(b.cols, true, false);
        (b.rows || []).forEach(function (r, i) { row(r, false, i % 2 === 1); });
        y += 14 * S;
      }
      if (b.items) {
        ctx.font = font(15);
        b.items.forEach(function (item) {
          var lines = wrap(ctx, item, room - 10 * S);
          lines.forEach(function (l, k) {
            if (draw) { ctx.fillStyle = k ? "#333" : INK; ctx.fillText(l, PAD + (k ? 22 * S : 0), y + 19 * S); }
            y += 24 * S;
          });
          y += 3 * S;
        });
        y += 8 * S;
      }
    });
    if (data.foot) {
      ctx.font = font(13);
      wrap(ctx, data.foot, room).forEach(function (l) {
        if (draw) { ctx.fillStyle = MUTED; ctx.fillText(l, PAD, y + 18 * S); }
        y += 22 * S;
      });
    }
    return y + PAD;
  }

  // what a canvas can hold everywhere (iOS Safari: 16.7 million pixels); a taller one is silently blank
  var MAX_HEIGHT = 15000;

  // drop the last rows (or rules) until the picture fits, saying how many are left to the page
  function trim(ctx, data) {
    data = JSON.parse(JSON.stringify(data));
    var dropped = 0, over;
    while ((over = layout(ctx, data, false) - MAX_HEIGHT) > 0) {
      var b = null;
      (data.blocks || []).forEach(function (x) { if ((x.rows || x.items || []).length) b = x; });
      if (!b) break;
      var list = b.rows || b.items, n = Math.min(list.length, Math.max(1, Math.floor(over / ROW)));
      list.splice(list.length - n, n);  // a table row is ROW tall: never more than needed (a long rule: a few)
      dropped += n;
    }
    if (dropped) data.foot = "……另有 " + dropped + " 行，请看网页。 " + (data.foot || "");
    return data;
  }

  /* The picture of `data` as a canvas: WIDTH wide, as tall as its content (at most MAX_HEIGHT). */
  function draw(data) {
    var canvas = document.createElement("canvas");
    canvas.width = WIDTH;
    canvas.height = 1;
    var ctx = canvas.getContext("2d");
    data = trim(ctx, data);
    var height = Math.ceil(layout(ctx, data, false));
    canvas.width = WIDTH;
    canvas.height = Math.max(height, Math.round(WIDTH / 2));
    ctx = canvas.getContext("2d");
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.textBaseline = "alphabetic";
    layout(ctx, data, true);
    return canvas;
  }

  function show(url, note) {
    var old = document.getElementById("share-preview");
    if (old) old.remove();
    var box = document.createElement("div");
    box.id = "share-preview";
    box.setAttribute("role", "dialog");
    Object.assign(box.style, {
      position: "fixed", inset: "0", background: "rgba(0,0,0,.75)", zIndex: "1000",
      overflow: "auto", padding: "12px", textAlign: "center",
    });
    var p = document.createElement("p");
    p.textContent = note;
    Object.assign(p.style, { color: "#fff", margin: "0 0 8px" });
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = "关闭";
    close.addEventListener("click", function () { box.remove(); });
    var img = document.createElement("img");
    img.src = url;
    img.alt = note;
    Object.assign(img.style, { maxWidth: "100%", background: "#fff", display: "block", margin: "8px auto" });
    box.append(p, close, img);
    document.body.append(box);
  }

  function save(button) {
    var block = document.getElementById(button.getAttribute("data-share"));
    if (!block) return;
    var data = JSON.parse(block.textContent);
    var url = draw(data).toDataURL("image/png");
    var a = document.createElement("a");
    a.href = url;
    a.download = data.file || "gouji.png";
    document.body.append(a);
    a.click();
    a.remove();
    show(url, button.getAttribute("data-note") || "图片已保存到“下载”；手机上可长按图片保存或转发。");
  }

  window.goujiShare = { draw: draw, WIDTH: WIDTH, MAX_HEIGHT: MAX_HEIGHT };
  document.querySelectorAll("button[data-share]").forEach(function (b) {
    b.hidden = false;  // without this script the button would do nothing, so it starts hidden
    b.addEventListener("click", function () { save(b); });
  });
})();
