"""The pages' words: Chinese first, English when a reader asks for it (``?lang=en``).

Standings columns and tiebreak names come from ``tournament.standings`` so the
web page, the text table and the HTML export say the same thing.
"""

from __future__ import annotations

LANGS = ("zh", "en")

WORDS: dict[str, dict[str, str]] = {
    "standings": {"zh": "排名", "en": "Standings"},
    "season": {"zh": "赛季", "en": "Season"},
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
    "correction": {"zh": "更正", "en": "Correction"},
    "correction_by": {"zh": "{s}方提出更正，待对方确认", "en": "side {s} corrects it, waiting for the other side"},
    "was": {"zh": "原来", "en": "Was"},
    "now": {"zh": "改为", "en": "Becomes"},
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
    "same_result": {
        "zh": "这个结果和已经记录的一样，没有要更正的地方。",
        "en": "This is the result recorded already: there is nothing to correct.",
    },
    "not_taken": {"zh": "这个结果没能录入，请检查后重新提交。", "en": "The result was not taken."},
    "tap_finish": {
        "zh": "按名次点名字：头科点一人，二科点一人……点完五个人，最后一名自动补上。",
        "en": "Tap a name for each place; after five, the last place is the player left.",
    },
    "burn_pick": {"zh": "烧牌：谁烧了谁", "en": "Burn (烧): who burned whom"},
    "burner": {"zh": "烧牌的人", "en": "burner"},
    "burned": {"zh": "被烧的人", "en": "burned"},
    "men_pick": {"zh": "闷 / 清：谁被谁闷", "en": "Men (闷/清): who was beaten by whom"},
    "men_victim": {"zh": "被闷的人", "en": "beaten"},
    "men_by": {"zh": "闷他的人", "en": "by"},
    "not_opened": {
        "zh": "开点：默认都开了，只点没开点的人",
        "en": "Opened (开点): everyone opened unless ticked here as not opened",
    },
    "summary_next": {"zh": "下一局", "en": "Next hand"},
    "summary_facts": {"zh": "录入的内容", "en": "What was entered"},
    "check_before_confirm": {
        "zh": "请对照你们看到的情况核对下面每一项，全部无误再确认。",
        "en": "Check every line against what you saw before confirming.",
    },
    "lan_warning": {
        "zh": "注意：这些二维码里的地址是 {host}，只有这台电脑自己能打开，手机扫了打不开。",
        "en": "Warning: these QR codes point at {host}, which only this computer can open; phones cannot.",
    },
    "lan_offer": {
        "zh": "改用本机局域网地址打开本页（二维码和链接随之改用这个地址）：",
        "en": "Open this page at this machine's LAN address instead (its QR codes and links follow):",
    },
    "lan_listen": {
        "zh": "服务器现在只在本机地址上监听；要让手机连上，请组织者用 --host 0.0.0.0 重新启动 gouji event serve。",
        "en": "The server listens on a loopback address only; restart gouji event serve with --host 0.0.0.0 "
        "so that phones can reach it.",
    },
    "lan_none": {
        "zh": "找不到本机的局域网地址：请先连上店里的无线网，再刷新本页。",
        "en": "No LAN address found on this machine: join the local network, then reload this page.",
    },
    "seat_n": {"zh": "{n}号座", "en": "seat {n}"},
    "not_played": {"zh": "未上场", "en": "not played"},
    "more": {"zh": "详细", "en": "details"},
    "next_round": {"zh": "下一轮座次：第{n}轮", "en": "Next round's seating: round {n}"},
    "next_round_wait": {
        "zh": "第{n}轮结束。第{m}轮的座次要等组织者排出。",
        "en": "Round {n} is complete. Round {m} is seated by the organiser.",
    },
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
    """The page language a query or cookie asks for, Chinese unless it names another the pages speak: a club reads
    Chinese first, and an unknown value must not reach a template."""
    return value if value in LANGS else "zh"


def word(key: str, lang: str, **kw: object) -> str:
    """The page text ``key`` in ``lang``, with ``{name}`` fields filled in."""
    return WORDS[key][lang].format(**kw)
