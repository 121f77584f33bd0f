"""The pages' words: Chinese first, English when a reader asks for it (``?lang=en``).

Standings columns and tiebreak names come from ``tournament.standings`` so the
web page, the text table and the HTML export say the same thing.
"""

from __future__ import annotations

LANGS = ("zh", "en")

WORDS: dict[str, dict[str, str]] = {
    "standings": {"zh": "排名", "en": "Standings"},
    "rounds": {"zh": "座次与成绩", "en": "Seating and results"},
    "round": {"zh": "第{n}轮", "en": "Round {n}"},
    "table": {"zh": "第{n}桌", "en": "Table {n}"},
    "hand": {"zh": "第{n}局", "en": "Hand {n}"},
    "seat": {"zh": "座位", "en": "Seat"},
    "player": {"zh": "选手", "en": "Player"},
    "side": {"zh": "方", "en": "Side"},
    "side_n": {"zh": "{s}方（座位 {seats}）", "en": "side {s} (seats {seats})"},
    "opposite": {"zh": "对头", "en": "Opposite"},
    "progress": {"zh": "已录入 {done} / {all} 局", "en": "{done} of {all} hands recorded"},
    "refresh": {"zh": "本页每 {n} 秒自动刷新", "en": "This page refreshes every {n} seconds"},
    "tiebreaks": {"zh": "排名依次比较：{list}", "en": "Ranked by {list}"},
    "not_seated": {"zh": "尚未排座", "en": "not seated yet"},
    "bye": {"zh": "轮空", "en": "Bye"},
    "finish": {"zh": "名次", "en": "Finishing order"},
    "points": {"zh": "得分 A : B", "en": "Points A : B"},
    "to_enter": {"zh": "待录入", "en": "to enter"},
    "waiting": {"zh": "{s}方已录入，待对方确认", "en": "entered by side {s}, waiting for the other side"},
    "recorded": {"zh": "已确认", "en": "confirmed"},
    "you_are": {"zh": "你是{s}方（座位 {seats}）", "en": "You are side {s} (seats {seats})"},
    "enter": {"zh": "录入", "en": "Enter"},
    "correct": {"zh": "更正", "en": "Correct"},
    "confirm": {"zh": "确认无误", "en": "Confirm"},
    "reject": {"zh": "有误，退回", "en": "Wrong: send back"},
    "withdraw": {"zh": "撤回", "en": "Withdraw"},
    "submit": {"zh": "提交，请对方确认", "en": "Submit for the other side to confirm"},
    "submit_admin": {"zh": "保存（组织者，立即生效）", "en": "Save (organiser: counts at once)"},
    "place_n": {"zh": "第{n}名", "en": "Place {n}"},
    "place_names": {"en": "1st,2nd,3rd,4th,5th,last"},  # zh: the variant's own places.names
    "choose": {"zh": "请选择", "en": "choose"},
    "burn": {"zh": "烧（烧牌者 → 被烧者）", "en": "Burn (burner → victim)"},
    "burn_fail": {"zh": "诈烧 / 烧牌失败", "en": "Failed burn (诈烧)"},
    "no_three": {"zh": "买不到3（算做大落）", "en": "No 3 after buying (placed last)"},
    "men": {"zh": "闷 / 清（被闷者 ← 闷者）", "en": "Men (victim ← by)"},
    "opened": {"zh": "开点", "en": "Opened (开点)"},
    "geming": {"zh": "革命", "en": "Geming (革命)"},
    "chongdian": {"zh": "冲点", "en": "Chongdian (冲点)"},
    "chong_ok": {"zh": "成功", "en": "ok"},
    "chong_fail": {"zh": "失败", "en": "failed"},
    "declare": {"zh": "宣点 / 明点 / 预点", "en": "Declarations"},
    "xuandian": {"zh": "宣点", "en": "xuandian"},
    "mingdian": {"zh": "明点", "en": "mingdian"},
    "yudian": {"zh": "预点", "en": "yudian"},
    "waive": {"zh": "免贡（进贡者 → 同伴）", "en": "Waived tribute (giver → partner)"},
    "burn_short": {"zh": "烧", "en": "burn"},
    "men_short": {"zh": "闷", "en": "men"},
    "server_error": {
        "zh": "服务器没能回答这个请求；组织者可以在日志里看到原因。",
        "en": "the server could not answer this request; the organiser sees the reason in its log",
    },
    "refused": {"zh": "规则不接受这个结果：", "en": "The rules refuse this result:"},
    "detail": {"zh": "详情", "en": "detail"},
    "none": {"zh": "无", "en": "none"},
    "entered_wait": {
        "zh": "已提交。请对方用他们的链接确认；确认前本局不计分。",
        "en": "Submitted. The other side confirms with their link; the hand counts only then.",
    },
    "confirmed_ok": {"zh": "已确认，本局已计入排名。", "en": "Confirmed: the hand now counts."},
    "rejected_ok": {"zh": "已退回，请重新录入。", "en": "Sent back: enter the hand again."},
    "saved_ok": {"zh": "已保存。", "en": "Saved."},
    "back_table": {"zh": "返回本桌", "en": "Back to the table"},
    "organiser": {"zh": "组织者", "en": "Organiser"},
    "links": {"zh": "各桌链接", "en": "Table links"},
    "print": {"zh": "打印座次表和记分表", "en": "Print seating and score sheets"},
    "seating_sheet": {"zh": "座次表", "en": "Seating sheet"},
    "score_sheet": {"zh": "记分表", "en": "Score sheet"},
    "scan": {"zh": "{s}方扫码录入/确认", "en": "Side {s}: scan to enter or confirm"},
    "sheet_for_side": {
        "zh": "本页只交给{s}方（座位 {seats}）。{s}方录入的结果由{other}方用他们自己那一页的二维码确认。",
        "en": "Give this page to side {s} (seats {seats}) only. What side {s} enters, side {other} confirms "
        "with the QR code on its own page.",
    },
    "print_apart": {
        "zh": "每桌每方一页：分开交给两方，一方不能确认自己录入的结果。",
        "en": "One page per side of each table: hand them out apart, so no side can confirm its own entry.",
    },
    "error": {"zh": "出错了", "en": "Something went wrong"},
    "pending_list": {"zh": "待确认", "en": "Waiting for confirmation"},
    "no_pending": {"zh": "没有待确认的局", "en": "nothing waiting"},
    "signature": {"zh": "双方签字", "en": "Signatures"},
    "home": {"zh": "首页", "en": "Home"},
}


def lang_of(value: str | None) -> str:
    return value if value in LANGS else "zh"


def word(key: str, lang: str, **kw: object) -> str:
    """The page text ``key`` in ``lang``, with ``{name}`` fields filled in."""
    return WORDS[key][lang].format(**kw)
