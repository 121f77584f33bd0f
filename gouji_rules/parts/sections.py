"""The sections of a variant file (``deck``, ``sets``, ``tribute`` …), one frozen class each.

Each field carries its Chinese and English description in ``metadata``; the JSON Schema and
``gouji explain`` read them from here.  They live below :mod:`gouji_rules.variant` (which exports
every one of them under its old name) and below :mod:`gouji_rules.rules`, so that the compiled rules,
the beat strategies and the tribute kinds name a section's type without importing the Variant, which
compiles them (``variant.rules``): the layers import downward only (issue 31).  Not to be confused
with :mod:`gouji_rules.parts.section`, which builds these classes without generating code.
"""

# no `from __future__ import annotations`: the field types are objects at once, so the schema reads
# them without compiling each annotation's text (`gouji validate` builds the schema on every run)
from collections.abc import Callable, Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from .registry import BEAT_STRATEGIES, TRIBUTE_KINDS, choices

if TYPE_CHECKING:
    from dataclasses import dataclass  # what the sections are, to mypy and to readers
else:
    from .section import dataclass  # the same classes, built without generating code (issue 13)


def doc(zh: str, en: str, **extra: Any) -> dict[str, Any]:
    """Field metadata: the Chinese and English descriptions plus extras (minimum, maximum, choices,
    label: a short (zh, en) label for the rule sheet when the description only lists the codes, and
    legacy: for an option added after events began keeping copies of their rules, the value that
    plays the game as before it existed; see :func:`with_legacy`)."""
    return {"zh": zh, "en": en, **extra}


def _f(default: Any, zh: str, en: str, **extra: Any) -> Any:
    if isinstance(default, (dict, list)):
        value = default
        return field(default_factory=lambda: type(value)(value), metadata=doc(zh, en, **extra))
    return field(default=default, metadata=doc(zh, en, **extra))


@dataclass(frozen=True)
class DeckRules:
    """牌: 几副牌、去掉哪些牌、加哪些牌、每人几张。

    The deck: how many packs, which cards are taken out or added, how many each player gets.
    """

    packs: int = _f(4, "几副牌（每副54张）", "number of 54-card packs", minimum=1, maximum=8)
    remove: dict[str, int] = _f(
        {},
        "从整副牌中去掉的张数，按点数（点烧闷拉: 3、4各只留6张）",
        "cards removed from the whole deck, by rank (S0 keeps only six 3s and six 4s)",
    )
    extra: dict[str, int] = _f(
        {}, "额外加入的牌，按点数（如6张鹰 Y）", "extra cards added, by rank (for example six 鹰 'Y')"
    )
    hand_size: int | None = _f(None, "每人几张；不写则发完所有牌", "cards per player; null deals every card", minimum=1)
    uneven: Literal["first_seats_more", "error"] = _f(
        "first_seats_more",
        "牌数不能平分时：先摸牌的人多一张，或报错",
        "when the deck does not divide evenly: the first drawers get one more, or it is an error",
        choices=choices(
            first_seats_more=("先摸牌的人多一张", "the first drawers get one more"),
            error=("报错", "it is an error"),
        ),
    )


@dataclass(frozen=True)
class TableRules:
    """座位与出牌方向。

    Seats and the direction of play.
    """

    direction: Literal["ccw", "cw"] = _f(
        "ccw",
        "出牌方向：反时针 ccw（大纲第四条(五)）或顺时针 cw；座位号总是按出牌顺序编，方向只决定座位表怎么排",
        "direction of play; seats are always numbered in order of play, so this only says how a seating sheet is laid out",
        choices=choices(ccw=("反时针", "counter-clockwise"), cw=("顺时针", "clockwise")),
    )


@dataclass(frozen=True)
class SetsRules:
    """一套牌：挂花、贴钱、憋3，以及什么牌能管住什么牌。

    Sets: attaching jokers and 2s, bare ranks, and what beats what.
    """

    attach_twos: bool = _f(
        True, "可以贴钱（2当作比它小的牌用，只增加张数不增加大小）", "2s may be attached (they count as the core rank)"
    )
    attach_jokers: list[str] = _f(
        ["SJ", "BJ", "Y"],
        "可以挂的王（挂花），保留自身大小",
        "joker ranks that may be attached, keeping their own strength",
    )
    bare: list[str] = _f(["3", "4"], "出牌时不能挂花贴钱的点数（3、4为点牌）", "ranks whose sets may carry nothing")
    beat: str = _f(
        "cover",
        "管牌方式：什么牌能管住什么牌",
        "beat relation: what beats what (a registered beat strategy)",
        choices=BEAT_STRATEGIES.choices,
    )
    dead: list[str] = _f(
        ["BJ", "Y"],
        "cover 方式下，挂了这些牌的牌为死牌，谁也管不住（大纲第四条(三)）",
        "under cover, a set holding any of these ranks is dead: nothing beats it",
    )
    kill: dict[str, list[list[Any]]] = _f(
        {"SJ": [["BJ", 1], ["SJ", 2]], "BJ": [["Y", 1], ["BJ", 2], ["SJ", 3]], "Y": [["Y", 2], ["BJ", 3]]},
        "kill_table 方式下，盖住一张王的办法：[点数, 张数] 列表",
        "under kill_table, the ways to cover one joker of each rank: a list of [rank, how many]",
    )
    kou: bool = _f(True, "死牌由对头扣牌（大纲第七条）", "the opposite must formally concede (扣牌) a dead set")
    whole: list[str] = _f(
        [],
        "这些点数的牌必须一次出完、出成一套（RLG：玩家持有的所有4必须一次出完）",
        "ranks a seat plays all at once, every card it holds of the rank in one set (RLG: all the 4s at once)",
        legacy=[],
        ranks=True,
    )
    kill_joker_only: Literal["kill", "lowest_joker"] = _f(
        "kill",
        "kill_table 方式下，只有王的一套怎么比：kill 只按杀王的办法（两张鹰压一张鹰）；"
        "lowest_joker 按其中最小的王比大小，须比对方最小的王大（RLG：只有王/鹰时 core_rank 取其中最小的王）",
        "under kill_table, a set of jokers only against another: beaten by the kill ways alone (YY beats Y), "
        "or ranked by its lowest joker, which must be higher than the other set's lowest (RLG: YY does not beat Y)",
        choices={
            "kill": ("只按杀王的办法（二杀一：两张鹰压一张鹰）", "by the kill ways alone (YY beats Y)"),
            "lowest_joker": ("按最小的王比，须更大（两张鹰压不住一张鹰）", "by its lowest joker, strictly higher"),
        },
        legacy="kill",
    )


@dataclass(frozen=True)
class GoujiRules:
    """够级牌：多少张算够级，谁能管。

    够级 sets: how many cards make one, and who may answer it.
    """

    thresholds: dict[str, int] = _f(
        {"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2, "2": 2},
        "各点数最少几张算够级牌（大纲第五条：两张2、两张A、两张K、三张Q、四张J、五张10）",
        "smallest count of each rank that makes a 够级 set",
    )
    joker_sets: bool = _f(True, "挂王的牌也算够级牌", "a set with a joker in it is 够级")
    twos_count: bool = _f(True, "贴的2计入张数", "attached 2s count toward the threshold")
    pure_twos: bool = _f(
        True,
        "一套2（不挂不贴）算纯够级牌（大纲第五条“两张2…俗称纯够级”；点烧闷拉：不含有2、王的才算纯够级）",
        "a set of 2s alone is pure 够级 (S4 第五条); S0 counts no set holding a 2 as pure",
    )
    answer: Literal["opposite", "anyone"] = _f(
        "opposite",
        "够级牌谁能管：只有对头（除烧牌、无头外）",
        "who may answer a 够级 set: only the opposite (besides burns and 无头), or anyone",
        choices=choices(
            opposite=("只有对头（烧牌、无头除外）", "only the opposite (besides burns and 无头)"),
            anyone=("谁都可以", "anyone"),
        ),
    )


@dataclass(frozen=True)
class PlayRules:
    """出牌：过牌、让牌、憋3、无头。

    Play: passing, 让牌, 憋3 and 无头.
    """

    pass_reentry: Literal["never", "opposite_set"] = _f(
        "opposite_set",
        "过牌后本轮还能不能再出：never 不能；opposite_set 只能管对头的牌（大纲第五条）",
        "may a player who passed play again in the same round: never, or only on the opposite's set",
        choices=choices(
            never=("过牌后本轮不能再出", "never again in the round"),
            opposite_set=("只能管对头的牌", "only on the opposite's set"),
        ),
    )
    allow_yield: bool = _f(
        True,
        "可以让牌：上两家都不要对头的牌时，先让下两家",
        "让牌: on your opposite's set that your two upstream players passed, let the next two decide first",
    )
    bie3: bool = _f(
        True, "憋3：3只能最后一手一起出，不挂不贴", "憋3: 3s only as the last set, all together, nothing attached"
    )
    yield_lapses: bool = _f(
        False,
        "让牌后只要有人出牌，让牌者就算过牌（RLG：任何人出新牌后，所有让牌的玩家自动变为过牌）；false 让牌者仍排在最后决定",
        "once anyone plays after a 让牌, the yielder counts as having passed (RLG); false: he still decides last",
        legacy=False,
    )
    no_head: bool = _f(
        True,
        "对头走了就是无头：不受够级约束，谁的牌都能管",
        "无头: once your opposite is out, 够级 no longer binds you",
    )
    no_head_when: Literal["left_play", "went_out", "first_out"] = _f(
        "first_out",
        "对头怎样离场才算无头：first_out 只有头科的对头（大纲第十条：头科产生后，其对头的够级对象不复存在）；"
        "went_out 对门出完牌走了（点烧闷拉：若一个人对门走后）；left_play 对头以任何方式离场（走、被闷、烧牌失败、出牌前定名次）。"
        "对头离场而不算无头的人仍受够级约束：他的够级牌只有烧牌者和无头者能管",
        "which departures of a seat's opposite make it 无头: only 头科's (S4 第十条), any going out (S0 对门走后), or "
        "any leaving of play (going out, 闷, a failed burn, a place before play); a seat whose opposite left "
        "otherwise stays bound: only burners and 无头 seats may answer its 够级 sets",
        choices={
            "first_out": ("只有头科的对头无头（大纲第十条）", "only 头科's opposite (S4 第十条)"),
            "went_out": ("对门出完牌走了就无头（点烧闷拉）", "the opposite went out (S0 对门走后)"),
            "left_play": ("对头以任何方式离场都算无头", "the opposite left play in any way"),
        },
        legacy="left_play",
    )
    first_leader: Literal["random", "seat0"] = _f(
        "random",
        "不按上班时第一局谁先出（上班见 match.first_leader）",
        "who leads the first hand when no 上班 rule applies",
        choices=choices(random=("随机", "a random seat"), seat0=("0号座位", "seat 0")),
    )
    wrong_play: Literal["refuse", "lose_turn"] = _f(
        "lose_turn",
        "错牌不出（大纲第四条(一)：如顺牌有误，其顺牌权自动取消，由其下家行使顺牌权）：refuse 错牌被拒绝、"
        "照旧由他出（模拟器）；lose_turn 错牌者失去这次出牌权（算过牌；该他首发时由下家首发）",
        "a wrong play: refused and the seat acts again (a simulator), or the seat loses its turn (S4 第四条(一))",
        choices={
            "refuse": ("错牌被拒绝，重新出（IllegalAction）", "the wrong play is refused (IllegalAction)"),
            "lose_turn": ("错牌不出：失去这次出牌权", "错牌不出: the seat loses its turn"),
        },
        legacy="refuse",
    )
    announce: Literal["never", "free_for_all", "always"] = _f(
        "never",
        "报牌（别人手里还有几张）：never 不报（点烧闷拉：不能上报或者询问任何人的手牌数；大纲第二十三条：憋3打法不报牌）；"
        "free_for_all 四人乱缠中报牌（大纲第十一条：按规定报牌和扣牌）；always 随时可见（网上平台）",
        "when other seats' hand sizes are announced (报牌): never (S0; S4 第二十三条), in 四人乱缠 (S4 第十一条), always",
        choices={
            "never": ("不报牌", "never"),
            "free_for_all": ("四人乱缠中报牌", "during 四人乱缠"),
            "always": ("随时报牌（手牌数人人可见）", "always (every hand size is visible)"),
        },
        legacy="always",
    )


@dataclass(frozen=True)
class FreeForAllRules:
    """四人乱缠。

    四人乱缠: the last four play without 够级 rules.
    """

    enabled: bool = _f(True, "有四人乱缠", "the 四人乱缠 stage exists")
    after_out: int = _f(2, "走了几个人后开始", "how many players must be out", minimum=1, maximum=5)
    starts: Literal["immediately", "next_trick"] = _f(
        "next_trick",
        "从什么时候开始：immediately 立即；next_trick 二科的底牌这一轮打完后（大纲第九条）",
        "when it starts: at once, or after the round of the last set that triggered it",
        choices=choices(
            immediately=("立即开始", "at once"),
            next_trick=("二科的底牌这一轮打完后", "after the round of the last set that triggered it"),
        ),
    )
    passers_return: bool = _f(True, "乱缠中过牌后还能再出", "in 四人乱缠 a player who passed may play again")


@dataclass(frozen=True)
class JiefengRules:
    """接风：有人走后谁出牌。

    接风: who leads after a player goes out.
    """

    policy: Literal["next_seat", "next_teammate", "by_consent"] = _f(
        "by_consent",
        "next_seat 没人要时走的人下家出；next_teammate 队友先；by_consent 下家可申请接风，其余人同意才行",
        "who leads after a player goes out and nobody answers; by_consent adds S4's request",
        choices=choices(
            next_seat=("走的人的下家出", "the next seat in play"),
            next_teammate=("走的人的队友先出", "the player's teammate first"),
            by_consent=("下家申请接风，其余人同意", "the next seat asks, everyone else consents"),
        ),
        label=("接风（有人走后没人管时谁出牌）", "接风: who leads after a player goes out and nobody answers"),
    )


@dataclass(frozen=True)
class BurnRules:
    """烧牌。

    烧牌: burning a 够级 set that is not yours to answer.
    """

    enabled: bool = _f(True, "可以烧牌", "burning is allowed")
    needs_open_point: bool = _f(True, "没有开点的不能烧牌（大纲第六条）", "only a player who has opened may burn")
    teammate: bool = _f(True, "可以烧队友", "a teammate's 够级 set may be burned")
    after_pass: bool = _f(
        False,
        "本轮过牌后还能烧牌（大纲第五条、第十二条：过牌者除对头牌外这一轮再无权发牌；点烧闷拉：过牌之后则不能烧牌）",
        "a player who passed in this round may still burn (both texts: no)",
    )
    priority: Literal["own_team_first", "play_order"] = _f(
        "own_team_first",
        "几人同时烧：own_team_first 发够级牌者的联邦优先；play_order 按出牌顺序",
        "several burners: the 够级 player's own team first, or plain order of play",
        choices=choices(
            own_team_first=("发够级牌者的联邦优先", "the 够级 player's own team first"),
            play_order=("按出牌顺序", "plain order of play"),
        ),
    )
    counter: Literal["anyone", "victim", "none"] = _f(
        "anyone",
        "反烧：anyone 谁都可以；victim 只有被烧者；none 不许",
        "who may counter-burn (反烧)",
        choices=choices(
            anyone=("谁都可以反烧", "anyone"),
            victim=("只有被烧者", "only the burned seat"),
            none=("不许反烧", "nobody"),
        ),
    )
    break_burn: bool = _f(True, "烧牌者的对头管住即解烧", "the burner's opposite beating the burner ends the burn")
    exempt: list[str] = _f(["3"], "烧牌后可以不挂王的牌（最后的3）", "ranks a burner may play without a joker")
    fail_severity: int = _f(
        2,
        "烧牌失败排名的轻重：数越大名次越靠后（点烧闷拉：诈烧在被闷之后）",
        "how far down a failed burner is placed; higher goes below lower",
    )


@dataclass(frozen=True)
class OpenPointRules:
    """开点。

    开点: opening the point with 4s.
    """

    enabled: bool = _f(True, "有开点", "开点 is played")
    deadline_out: int | None = _f(
        2, "走了几个人后不能再开点（大纲第八条：头科二科出来后）", "no opening once this many players are out"
    )
    last_set_exception: bool = _f(
        True, "接二科的底牌可以开点", "the player who takes the round of the deadline player's last set may still open"
    )
    natural_point: bool = _f(
        True, "自然点/无级免点：没有可开点的牌，发4即开点", "a player with no pure 够级 set opens by leading 4s"
    )
    dadian: bool = _f(
        True,
        "打点：头科产生前没开点的，头科及其对头算不开点（大纲第二十二条）",
        "打点: 头科 and 头科's opposite must open before 头科 goes out",
    )
    four_when: Literal["next_lead", "any_time"] = _f(
        "any_time",
        "纯够级牌站住后什么时候发4算开点：next_lead 必须是下一手（点烧闷拉：下一张打出4则为开点）；"
        "any_time 之后任何时候发4（大纲第八条：纯够级牌开点。开点方可发4，不发4者，视为没有开点）",
        "when the 4s that open must come after the pure 够级 set stood: the very next lead (S0), or any later play (S4)",
        choices={
            "next_lead": ("下一手就发4（点烧闷拉 四、开点）", "the seat's very next lead (S0 四、开点)"),
            "any_time": ("之后任何时候发4（大纲第八条）", "any later play of 4s by the seat (S4 第八条)"),
        },
        legacy="next_lead",
    )
    dadian_lived: Literal["pure_stood", "gouji_won"] = _f(
        "pure_stood",
        "打点时什么算够级牌“活”过：pure_stood 纯够级牌站住过（按第八条开点的标准）；"
        "gouji_won 任何够级牌取得过发牌权（大纲第二十二条(一)：即未用够级方式取得过发牌权）",
        "what spares a seat from 打点 when 头科 goes out: a pure 够级 set of his stood (第八条's test), or any "
        "够级 set of his won the lead (S4 第二十二条(一) 即未用够级方式取得过发牌权)",
        choices={
            "pure_stood": ("纯够级牌站住过", "a pure 够级 set of his stood"),
            "gouji_won": ("任何够级牌取得过发牌权", "any 够级 set of his won the lead"),
        },
        legacy="pure_stood",
    )


@dataclass(frozen=True)
class MenRules:
    """闷 / 清。

    闷 / 清: the set before your last 3s is beaten.
    """

    enabled: bool = _f(True, "有闷（清）", "闷 / 清 applies")
    penalty: Literal["place_bottom", "tribute_only", "bottom_plays_on"] = _f(
        "bottom_plays_on",
        "place_bottom 被闷当即判为最后、不再出牌（点烧闷拉）；bottom_plays_on 先清为落：从最后排名，"
        "但继续出牌，即使后来接风走脱也算落（大纲第十五条）；tribute_only 继续打，只进清贡、不影响名次",
        "place_bottom: placed from the bottom and out of play at once (S0); bottom_plays_on: placed from the "
        "bottom (先清为落) but plays on, even if he later goes out (S4 第十五条); tribute_only: only owes 清贡",
        choices=choices(
            place_bottom=("被闷当即判为最后、不再出牌", "placed last at once, out of play"),
            tribute_only=("继续打，只进清贡、不影响名次", "plays on, only owes 清贡"),
            bottom_plays_on=("先清为落：从最后排名，但继续出牌", "placed from the bottom (先清为落), plays on"),
        ),
        label=("被闷（清）的处罚", "the penalty for 闷 / 清"),
    )
    severity: int = _f(1, "被闷排名的轻重", "how far down a 闷 player is placed", minimum=0)
    show_hand: bool = _f(
        True,
        "被清者当时亮牌，此后手牌人人可见（大纲第十五条：如持牌者被清，应当时亮牌）",
        "a 清 player shows his hand at once, and it stays visible to every seat (S4 第十五条 亮牌)",
        legacy=False,
    )


@dataclass(frozen=True)
class PlacesRules:
    """名次。

    Places.
    """

    names: list[str] = _f(
        ["头科", "二科", "三科", "四科", "二落", "大落"], "六个名次的叫法", "the names of places 1 to 6"
    )


@dataclass(frozen=True)
class ScoringRules:
    """计分。

    Scoring.
    """

    points: list[int] = _f([4, 2, 0, 0, -2, -4], "各名次得分", "points for places 1 to 6")
    positive_only: bool = _f(True, "只记正分，不记负分（大纲第十九条）", "a team's negative sum counts as 0")
    sweep_multiplier: int = _f(2, "串三户得分倍数", "score multiplier when one team takes places 1-3", minimum=1)
    enabled: bool = _f(
        True,
        "计分（大纲第十九条积分制）；false 只进贡不计分（大纲第十四条：采取积分制一般不再进贡，见 tribute.enabled）",
        "hands are scored (S4 第十九条); false: tribute without scoring (S4 第十四条, see tribute.enabled)",
        legacy=True,
    )


@dataclass(frozen=True)
class KangRules:
    """扛贡：摸到四个以上的王可以不进贡。

    扛贡: four or more jokers exempt you (or your team) from tribute.
    """

    enabled: bool = _f(True, "有扛贡", "扛贡 applies")
    small: int = _f(4, "几个小王扛自己的贡（四小扛自己）", "this many 小王 exempt the holder from tribute", minimum=1)
    big: int = _f(4, "几个大王扛全队的贡（四大扛全场）", "this many 大王 exempt the holder's whole team", minimum=1)


@dataclass(frozen=True)
class DeclareRules:
    """宣点/和点（点烧闷拉）与明点/预点（大纲第二十二条(三)）。

    宣点/和点 (S0) and 明点/预点 (S4): betting on your opposite's point.
    """

    xuandian: bool = _f(
        False, "可以宣点：出牌前宣称对门本局不开点", "宣点: before play, declare that your opposite will not open"
    )
    hedian: bool = _f(False, "对门两人都同意和点则互相算开点", "和点: if both opposites agree, both count as opened")
    xuandian_stake: int = _f(2, "宣点输赢的点贡张数", "点贡 cards at stake in a 宣点", minimum=0)
    mingdian: bool = _f(True, "可以明点：进贡后、首发牌前宣布对头不开点", "明点: after tribute, before the first lead")
    mingdian_stake: int = _f(2, "明点输赢的点贡张数", "点贡 cards at stake in a 明点", minimum=0)
    yudian: bool = _f(True, "可以预点：开牌前宣布对头不开点", "预点: before the deal")
    yudian_stake: int = _f(4, "预点输赢的点贡张数", "点贡 cards at stake in a 预点", minimum=0)
    win_needs_own_point: bool = _f(
        False,
        "宣点者自己也要开点才能赢（点烧闷拉：双方都没开点则都不进贡）",
        "the declarer wins only if he opened himself (S0: if neither opened, nobody pays)",
    )
    fanche_multiplier: int = _f(
        1,
        "翻车（宣错了）时的倍数；商定加倍为2",
        "multiplier when the declarer was wrong (翻车); 2 doubles it",
        minimum=1,
    )


@dataclass(frozen=True)
class BuyRules:
    """买3买4。

    Buying 3s and 4s.
    """

    enabled: bool = _f(True, "有买3买4", "buying 3s and 4s applies")
    four: Literal["optional", "never"] = _f(
        "optional",
        "没有4的人可以选择买一张4",
        "a player without a 4 may buy one",
        choices=choices(optional=("可以选择买4", "may buy a 4"), never=("不能买4", "may not buy a 4")),
    )
    price: list[str] = _f(
        ["2", "SJ", "BJ"],
        "买一张用什么付：先2，没有2用王，都没有白送",
        "what pays for one card, in order; nothing left = free",
    )
    sellers: list[Literal["opposite", "team", "opposite_team"]] = _f(
        ["opposite", "team", "opposite_team"],
        "向谁买：对头、自己联邦（白给）、对头的联邦",
        "who sells, in order: the opposite, one's own team (free), the opposite's team",
        choices=choices(
            opposite=("对头", "the opposite"),
            team=("自己联邦（白给）", "one's own team (free)"),
            opposite_team=("对头的联邦", "the opposite's team"),
        ),
    )
    price_opposite_team: list[str] | None = _f(
        ["2"],
        "向对头的联邦买用什么付（大纲第九、十条：用2）；null 同 price",
        "what pays the opposite's team, in order (S4 第九、十条: a 2); null: as price",
        legacy=None,
    )
    free: bool = _f(
        False,
        "买方没有可付的牌时白送（点烧闷拉：直接白送）；false 则买不成",
        "a buyer with nothing to pay gets the card free (S0 直接白送); false: he cannot buy from that seller",
        legacy=True,
    )
    keep: int = _f(1, "卖家自己至少留几张", "how many a seller keeps for himself", minimum=0)
    no_three: Literal["last", "none"] = _f(
        "last",
        "买不到3：last 算大落；none 照常",
        "no 3 after buying: ranked last, or nothing",
        choices=choices(last=("算大落", "ranked last"), none=("照常打", "nothing happens")),
    )
    no_four_closes_point: bool = _f(True, "没有4者算做没有开点", "a player with no 4 after buying cannot open")


@dataclass(frozen=True)
class TributeRules:
    """进贡与还贡。

    Tribute and its return.
    """

    enabled: bool = _f(True, "有进贡", "tribute is paid")
    order: list[str] = _f(
        ["point", "burn", "men", "place"],
        "进贡顺序：点、烧、清（闷）、落（拉）",
        "order of the tribute kinds",
        choices=TRIBUTE_KINDS.choices,
    )
    cards: list[str] = _f(
        ["2", "SJ", "BJ", "Y"], "能进贡的牌（钱、花），取大者", "ranks that may be paid as tribute, largest first"
    )
    kept_excluded: bool = _f(
        False,
        "吃了不吐：买来的、吃来的贡不能再进贡（点烧闷拉 七、买3买4 和 八、进贡；大纲没有，按牌点大小取大者进贡）",
        "cards gained by buying or tribute cannot be paid on (S0 七、买3买4 and 八、进贡: 吃了不吐; S4 pays the largest card, whatever its origin)",
    )
    place: list[list[int]] = _f(
        [[6, 1, 2], [5, 2, 1]],
        "落贡：[付的名次, 收的名次, 张数]",
        "place tribute: [paying place, receiving place, cards]",
    )
    point_count: int = _f(1, "点贡张数", "cards of 点贡", minimum=0)
    point_when_neither: Literal["none", "both"] = _f(
        "both",
        "对头两人都不开点：none 都不进；both 互相进贡",
        "when neither opposite opened: nobody pays, or both pay",
        choices=choices(none=("都不进贡", "nobody pays"), both=("互相进贡", "both pay")),
    )
    burn_count: int = _f(1, "烧贡张数", "cards of 烧贡", minimum=0)
    men_count: int = _f(1, "清贡（闷贡）张数", "cards of 清贡 / 闷贡", minimum=0)
    returned: list[str] = _f(
        ["place"],
        "哪些贡要还贡（大纲：只还落贡）",
        "tribute kinds the receiver returns card for card",
        choices=TRIBUTE_KINDS.choices,
    )
    return_refusable: bool = _f(
        True, "进贡者手里没有还贡牌的点数可以拒收", "the payer may refuse a returned card of a rank he lacks"
    )
    waivable: list[str] = _f(
        ["point", "burn", "men", "place"],
        "同一联邦之间可以免的贡",
        "kinds a receiver may waive when payer and receiver are teammates",
        choices=TRIBUTE_KINDS.choices,
    )
    point_call: bool = _f(
        False,
        "欠点贡的人摸到大王可以亮出，叫停对门摸的一张牌收为还贡，进贡时进大王（点烧闷拉 八、进贡）",
        "a player owing 点贡 who holds a 大王 may show it, take one of his opposite's cards unseen, and pay the 大王 (S0 八、进贡)",
        legacy=False,
    )
    sweep: Literal["opposite", "place"] = _f(
        "opposite",
        "串三户后：opposite 被串的每人向对头进1张；place 照常进落贡",
        "after a sweep: each swept player pays 1 to his opposite, or normal place tribute",
        choices=choices(
            opposite=("被串的每人向对头进1张", "each swept player pays 1 to his opposite"),
            place=("照常进落贡", "normal place tribute"),
        ),
    )
    sweep_redeal: int = _f(
        3,
        "连续几次串三户就重新开牌、不进贡（0为不限）",
        "this many sweeps in a row: no tribute, 开牌 anew (0: never)",
        minimum=0,
    )
    shown: bool = _f(
        False,
        "进贡、还贡的牌全桌明置（点烧闷拉 八、进贡：所有进贡的牌全部明置）；false 只有进贡双方看到",
        "tribute and returned cards are shown to the whole table (S0 八、进贡: 明置); false: only giver and receiver see them",
        legacy=True,
    )
    sweep_streak: Literal["either_team", "same_team"] = _f(
        "either_team",
        "“连续三次串三户”怎么数（大纲第十四条(七)）：either_team 哪一方串都算；same_team 同一方连续串才算",
        "how sweeps in a row are counted (S4 第十四条(七)): sweeps by either team, or by the same team only",
        choices={
            "either_team": ("哪一方串三户都算连续", "a sweep by either team continues the streak"),
            "same_team": ("同一方连续串三户才算", "only sweeps by the same team continue the streak"),
        },
        legacy="either_team",
    )


@dataclass(frozen=True)
class GemingRules:
    """革命（大纲第二十一条）。

    革命 (S4 第二十一条): dropping out with no 2 and no joker.
    """

    enabled: bool = _f(
        True, "可以革命：没有大花、小花、钱", "革命 is allowed: a player with no 2 and no joker may drop out"
    )
    void_at: int = _f(2, "几人以上同时革命则本局作废重摸", "this many 革命 at once void the hand", minimum=2)
    place: int = _f(4, "革命者的名次（四科）", "the place of a player who declares 革命", minimum=1, maximum=6)
    place_if_team_top: int = _f(
        3,
        "两个同伙分获头科二科时革命者的名次",
        "his place when his two teammates take places 1 and 2",
        minimum=1,
        maximum=6,
    )
    opposite_rights: int = _f(
        3,
        "对头得到几次够死级的权力（放弃即无头）",
        "够死级 sets the opposite may play unanswered (declining = 无头)",
        minimum=0,
    )
    cannot_pay: bool = _f(
        True,
        "进贡不起也可以革命：欠的贡多于手里的法定贡牌（大纲第十四条(二)：若没有摸到法定贡牌，或进贡不起，可以革命）",
        "a player who owes more tribute than the tribute cards he holds may also declare 革命 (S4 第十四条(二))",
        legacy=False,
    )


@dataclass(frozen=True)
class ChongdianRules:
    """冲点（点烧闷拉 十、冲点）。

    冲点 (S0 十、冲点): rushing the point with three pure 够级 sets.
    """

    enabled: bool = _f(False, "可以冲点", "冲点 is allowed")
    max_rank: str = _f("A", "手里不能有比这大的牌", "no card above this rank")
    sets: int = _f(3, "要有几套纯够级牌", "pure 够级 sets needed and played", minimum=1)
    place: int = _f(4, "冲点者的名次（四客）", "the place of a 冲点 player", minimum=1, maximum=6)
    second_place: int = _f(
        5, "两人冲点时失败者的名次（小拉）", "the place of the worse of two 冲点 players", minimum=1, maximum=6
    )
    redeal_at: int = _f(3, "几人以上冲点就重新洗牌", "this many 冲点 players cause a redeal", minimum=2)
    fail_drops_fours: bool = _f(
        True,
        "冲点失败时对门扔掉手里的4继续游戏",
        "when a 冲点 fails, its opposite throws away his 4s and plays on",
        legacy=True,
    )
    opposite_rights: int | None = _f(
        None,
        "对门选有头时得到几次够死级的权力（不写则整局都有：该人在本局游戏中的存在够级）",
        "够死级 sets the opposite who keeps 有头 may play unanswered (null: for the whole hand)",
        minimum=0,
        legacy=None,
    )
    no_head_closes: bool = _f(
        True,
        "对门选无头时，冲点成功则对门不能开点",
        "an opposite who chose 无头 may not open when the 冲点 succeeded",
        legacy=True,
    )


@dataclass(frozen=True)
class MatchRules:
    """一场：首局谁先出、下局谁先出、打几局。

    The match: who leads the first and the next hand, how many hands.
    """

    kaipai: Literal["count", "random"] = _f(
        "count",
        "开牌（大纲第二条）：count 开牌人抽一张牌按点数数到首取牌人（抽到王由下家重抽；重新开牌由首开牌人的下家开）；random 随机",
        "who draws first when no last place decides it: count by a drawn card's value from the 开牌人 (S4 第二条), or random",
        choices=choices(
            count=("开牌人抽一张牌按点数数到首取牌人", "count by a drawn card's value from the 开牌人"),
            random=("随机", "random"),
        ),
        legacy="random",
    )
    first_leader: Literal["random", "shangban"] = _f(
        "shangban",
        "首局：shangban 上班（先亮两张同花4者首发，同花4多者顶班）；random 随机",
        "first hand's leader: 上班 by same-suit 4s, or random",
        choices=choices(
            random=("随机", "random"),
            shangban=("上班：先亮两张同花4者首发", "上班: the first to show two same-suit 4s"),
        ),
    )
    next_leader: Literal["last_place", "winner"] = _f(
        "last_place",
        "下局由上局大落（拉客）先摸先出",
        "next hand's leader: last hand's last place (大落/拉客), or its first",
        choices=choices(
            last_place=("上局大落（拉客）", "last hand's last place"), winner=("上局头科", "last hand's first")
        ),
    )
    hands: int = _f(8, "一场打几局", "hands in a match", minimum=1)
    target: int | None = _f(
        None, "先到这个分数的一方赢（不写则打满局数）", "a team reaching this score wins the match early", minimum=1
    )
    huiwu: bool = _f(
        False, "会五：被串三户的一方下局先把5全出掉", "会五: after a sweep, the swept side plays all its 5s first"
    )
    reopen_after_sweep: bool = _f(
        True,
        "出现串三户后重新开牌（大纲第二条(二)），首发牌人重新上班",
        "after a sweep the next hand's first leader is chosen anew (上班), not by last place",
    )
    choose_last: Literal["none", "losing_pair", "swept_team"] = _f(
        "losing_pair",
        "谁为大落可以商定：losing_pair 大落二落同一方时开牌前自行商定（大纲第十四条(六)）；swept_team 被串三户的一方决定谁是拉客（点烧闷拉）",
        "who may rename the last place: 大落 and 二落 of one team (S4), or the swept team (S0)",
        choices=choices(
            none=("不商定", "nobody"),
            losing_pair=("大落二落同一方时自行商定", "大落 and 二落 of one team"),
            swept_team=("被串三户的一方决定谁是拉客", "the swept team"),
        ),
    )


class Sections(Protocol):
    """A Variant as the compiled rules and the options read it: its name, hooks, extensions' options
    and sections.  :class:`gouji_rules.variant.Variant` is the one class that has it; the protocol
    lets :mod:`gouji_rules.rules` and :mod:`gouji_rules.parts.options` name it without importing the Variant,
    which compiles its rules from them (``variant.rules``), so no import runs up a layer."""

    @property
    def name(self) -> str:
        """The variant's short name (``dagang``)."""
        ...

    @property
    def hooks(self) -> Mapping[str, Callable[..., Any]]:
        """Compiled expression hooks by name."""
        ...

    @property
    def extensions(self) -> Mapping[str, Mapping[str, Mapping[str, Any]]]:
        """The options of registered extensions as written, by home path and entry."""
        ...

    @property
    def deck(self) -> DeckRules:
        """The ``deck`` section."""
        ...

    @property
    def table(self) -> TableRules:
        """The ``table`` section."""
        ...

    @property
    def sets(self) -> SetsRules:
        """The ``sets`` section."""
        ...

    @property
    def gouji(self) -> GoujiRules:
        """The ``gouji`` section."""
        ...

    @property
    def play(self) -> PlayRules:
        """The ``play`` section."""
        ...

    @property
    def free_for_all(self) -> FreeForAllRules:
        """The ``free_for_all`` section."""
        ...

    @property
    def jiefeng(self) -> JiefengRules:
        """The ``jiefeng`` section."""
        ...

    @property
    def burn(self) -> BurnRules:
        """The ``burn`` section."""
        ...

    @property
    def open_point(self) -> OpenPointRules:
        """The ``open_point`` section."""
        ...

    @property
    def men(self) -> MenRules:
        """The ``men`` section."""
        ...

    @property
    def places(self) -> PlacesRules:
        """The ``places`` section."""
        ...

    @property
    def scoring(self) -> ScoringRules:
        """The ``scoring`` section."""
        ...

    @property
    def kang(self) -> KangRules:
        """The ``kang`` section."""
        ...

    @property
    def declare(self) -> DeclareRules:
        """The ``declare`` section."""
        ...

    @property
    def buy(self) -> BuyRules:
        """The ``buy`` section."""
        ...

    @property
    def tribute(self) -> TributeRules:
        """The ``tribute`` section."""
        ...

    @property
    def geming(self) -> GemingRules:
        """The ``geming`` section."""
        ...

    @property
    def chongdian(self) -> ChongdianRules:
        """The ``chongdian`` section."""
        ...

    @property
    def match(self) -> MatchRules:
        """The ``match`` section."""
        ...

    def fingerprint(self) -> str:
        """A short hash of every rule (:meth:`gouji_rules.variant.Variant.fingerprint`)."""
        ...
