"""A search agent: determinised Monte Carlo rollouts over worlds sampled from one seat's view.

Why determinised rollouts: 够级 hides five hands of up to 36 cards, so the agent
cannot search the real position; it samples *worlds*, full deals that agree with
everything its Observation shows (its own hand, every card played so far, each
seat's cards left, the events of the hand: its own log, from its ``deal``, as a match
gives the table's events before play too), rebuilds each world by replaying the
hand's events, and scores a few candidate actions by playing the world out with
greedy players (or ``learned`` ones: ``rollout="learned"``).  The action with the best mean team score wins (PIMC, "perfect
information Monte Carlo"; the flat form of information-set MCTS).

It never reads a hand it may not see: its only inputs are ``act(obs, legal)``,
like every agent, and the worlds are drawn from the cards nobody has shown.

Budget: ``worlds`` sampled worlds per decision (deterministic under the hand's seed)
and ``candidates`` actions tried in each.  Another action replaces greedy's only when
its mean team score over the worlds is at least ``margin`` points better (by default
a quarter of the variant's largest place score): with a few worlds the noise alone
would pull the agent off a sound choice.  ``seconds`` caps the time per decision
instead (then results depend on the machine).  It searches every lead and burn
decision and the answers to an opponent's 够级 set (``search_all``: every answer
to an opponent).  Other decisions (a teammate's set, declarations, tribute, 冲点)
and worlds that cannot be rebuilt are left to the greedy agent, whose choice is
always one of the candidates.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from .errors import IllegalAction
from .game.actions import AGREE, JIEFENG, KOU, PASS, REFUSE, YIELD, Action, Burn, Forfeit, Play
from .game.cards import NRANKS, SJ, THREE, CardSet
from .game.events import Event
from .game.legal import Legal
from .game.rng import SplitMix64, derive
from .game.seats import same_side, side
from .play.agents import Agent, GreedyAgent, make_agent, set_cost
from .play.engine import BURN, MODE_NAMES, Hand
from .play.observe import Observation, own_events

PLAY_MODES = frozenset({"lead", "follow", "burn", "kou", "consent"})
PLAYED = frozenset({"play", "burn", "counter_burn"})
ACTION_EVENTS = frozenset(
    {"play", "burn", "counter_burn", "pass", "yield", "kou", "jiefeng_request", "consent", "wrong_play"}
)
MAX_TRIES = 4  # rebuild attempts per world before the world is given up


def _event_action(e: Event) -> Action | None:
    """The action a public event of play records (None for events that are not a seat's action)."""
    t, cards = e.type, e.cards
    if t == "play" and cards is not None:
        return Play(cards)
    if t in ("burn", "counter_burn") and cards is not None:
        return Burn(cards)
    if t == "pass":
        return PASS
    if t == "yield":
        return YIELD
    if t == "kou":
        return KOU
    if t == "jiefeng_request":
        return JIEFENG
    if t == "consent":
        return AGREE if e.value == 1 else REFUSE
    if t == "wrong_play":
        return Forfeit()
    return None


def unseen_cards(obs: Observation) -> tuple[list[int], list[list[int]]]:
    """The cards this seat has not seen (by rank), and the cards each seat has played this hand."""
    deck = obs.rules.deck_counts
    played = [[0] * NRANKS for _ in range(6)]
    for e in own_events(obs.events):
        if e.type in PLAYED and e.cards is not None and 0 <= e.seat < 6:
            for r, n in e.cards.card_counts().items():
                played[e.seat][r] += n
    pool = list(deck)
    shown = _shown(obs)
    for r in range(NRANKS):
        pool[r] -= obs.hand[r] + sum(p[r] for p in played) + sum(h[r] for s, h in shown.items() if s != obs.seat)
    return pool, played


def _shown(obs: Observation) -> dict[int, tuple[int, ...]]:
    """The hands shown to the table (亮牌), by seat."""
    return {s: tuple(h) for s, h in enumerate(obs.shown) if h}


def hidden_counts(obs: Observation, pool_size: int, played: list[list[int]]) -> list[int]:
    """How many unseen cards each seat holds: the observation's count where it gives one,
    else the deal size less what the seat has played (then adjusted to the pool).  A seat out
    of play may still hold cards (a 闷 seat keeps its 3s)."""
    me = obs.seat
    left = obs.cards_left
    leader = next((e.seat for e in own_events(obs.events) if e.type == "deal"), 0)
    sizes = obs.rules.hand_sizes
    # a seat that went out holds nothing: after tribute its deal size is not the variant's, so the
    # count from the deal size would hand it cards, and no world could replay its last set
    gone = {e.seat for e in own_events(obs.events) if e.type == "finish"}
    out = [0] * 6
    for s in range(6):
        if s == me:
            continue
        if s < len(left) and left[s] >= 0:
            out[s] = int(left[s])
        elif s in gone:
            out[s] = 0
        else:
            out[s] = max(0, sizes[(s - leader) % 6] - sum(played[s]))
    # a count that does not add up (cards moved by tribute) is evened out on the largest hands
    diff = pool_size - sum(out)
    while diff:
        live = [s for s in range(6) if s != me and s not in gone and (out[s] > 0 or diff > 0)]
        if not live:
            break
        s = max(live, key=lambda x: out[x]) if diff < 0 else min(live, key=lambda x: out[x])
        step = 1 if diff > 0 else -1
        out[s] += step
        diff -= step
    return out


def sample_world(obs: Observation, rng: SplitMix64) -> list[list[int]] | None:
    """One deal (the hands as they were dealt) consistent with ``obs``, or None if the counts cannot be met."""
    pool, played = unseen_cards(obs)
    if min(pool) < 0:
        return None
    own = own_events(obs.events)
    shown = {s: h for s, h in _shown(obs).items() if s != obs.seat}
    need = hidden_counts(obs, sum(pool) + sum(sum(h) for h in shown.values()), played)
    hands = [list(p) for p in played]
    for r in range(NRANKS):
        hands[obs.seat][r] += obs.hand[r]
    for s, h in shown.items():  # a shown hand (亮牌) is known card for card
        for r in range(NRANKS):
            hands[s][r] += h[r]
        need[s] = 0
    if sum(need) != sum(pool):
        return None
    # a 闷 seat was beaten on the set before its last 3s: what it holds now is 3s
    for s in {e.seat for e in own if e.type == "men" and 0 <= e.seat < 6 and e.seat != obs.seat}:
        k = min(need[s], pool[THREE])
        hands[s][THREE] += k
        pool[THREE] -= k
        need[s] -= k
    cards = [r for r in range(NRANKS) for _ in range(pool[r])]
    rng.shuffle(cards)
    # a burner who could not lead with a joker (burn_fail) has none left: deal it plain cards first
    plain_only = {e.seat for e in own if e.type == "burn_fail" and 0 <= e.seat < 6 and e.seat != obs.seat}
    order = sorted(plain_only) + [s for s in range(6) if s not in plain_only and s != obs.seat]
    for s in order:
        take: list[int] = []
        rest: list[int] = []
        for r in cards:
            if len(take) < need[s] and (s not in plain_only or r < SJ):
                take.append(r)
            else:
                rest.append(r)
        if len(take) < need[s]:
            return None
        for r in take:
            hands[s][r] += 1
        cards = rest
    return hands


def rebuild(obs: Observation, deal: Sequence[Sequence[int]]) -> Hand | None:
    """Replay the hand's public events on a sampled deal; None if the world cannot reach ``obs``.

    Burn offers depend on hidden cards (a seat is asked only if it can burn), so a world
    may ask a seat the real table did not: it declines.  A declined offer leaves no public
    event (engine ``_do_pass``), so the real table's declines need no replaying.
    """
    events = list(own_events(obs.events))
    if not events or events[0].type != "deal" or any(e.type == "huiwu" for e in events):
        return None
    hand = Hand(obs.rules, deal, events[0].seat)
    try:
        for e in events:
            a = _event_action(e) if e.type in ACTION_EVENTS else None
            if a is None:
                continue
            burning_now = e.type in ("burn", "counter_burn")
            if burning_now and not _offered(hand, e.seat):
                return None
            # seats this world asks to burn before the event's seat (or at all, for any other event)
            # but the real table did not: they decline
            while _burn_offer(hand) and not (burning_now and hand.turn == e.seat):
                hand.apply(PASS)
            hand.apply(a, e.seat)
        while _burn_offer(hand) and not (obs.mode == "burn" and hand.turn == obs.seat):
            hand.apply(PASS)
    except IllegalAction:
        return None
    if hand.is_over or hand.turn != obs.seat or MODE_NAMES[hand.mode] != obs.mode or hand.table != obs.table:
        return None
    return hand


def _burn_offer(hand: Hand) -> bool:
    return not hand.is_over and hand.mode == BURN


def _offered(hand: Hand, seat: int) -> bool:
    """Is ``seat`` asked to burn now, or later in this world's queue of burn offers?"""
    if not _burn_offer(hand):
        return False
    return hand.turn == seat or any(s == seat and m == BURN for s, m in hand.queue)


def rollout(hand: Hand, players: Sequence[Agent]) -> None:
    """Play the hand to its end with the given players (one per seat)."""
    while not hand.is_over:
        s = hand.turn
        hand.apply(players[s].act(hand.observation(s), hand.legal_actions()))


class SearchAgent:
    """Determinised rollouts from worlds consistent with the agent's own observation.

    >>> from gouji_rules.catalog import dagang
    >>> from gouji_rules.sim import play_hand
    >>> from gouji_rules.play.agents import GreedyAgent
    >>> hand = play_hand(dagang(), 5, [SearchAgent(worlds=2)] + [GreedyAgent() for _ in range(5)])
    >>> hand.is_over
    True
    """

    name = "ismcts"

    def __init__(
        self,
        worlds: int = 6,
        candidates: int = 4,
        seconds: float | None = None,
        search_all: bool = False,
        margin: float | None = None,
        rollout: str = "greedy",
        rollers: Sequence[Agent] | None = None,
    ) -> None:
        """``rollers``, when given, are the six seats that play out each world (a trainer's current
        network, say), instead of ``rollout``'s named agents."""
        if worlds < 1 or candidates < 1:
            raise ValueError("worlds and candidates must be at least 1")
        if rollout not in ("greedy", "learned"):
            raise ValueError(f"rollout must be greedy or learned, not {rollout!r}")
        self.worlds = worlds
        self.candidates = candidates
        self.seconds = seconds
        self.search_all = search_all
        self.margin = margin
        self.greedy = GreedyAgent()
        self.rollout = rollout
        if rollers is not None and len(rollers) != 6:
            raise ValueError(f"rollers must be six seats, not {len(rollers)}")
        self.players: list[Agent] = list(rollers) if rollers is not None else [make_agent(rollout) for _ in range(6)]
        self.rng = SplitMix64(0)
        self.seat = 0
        self.searched = 0  # decisions decided by search (the rest went to greedy)

    def start_hand(self, seed: int, seat: int) -> None:
        """Seed the search from the hand's seed and the seat, so a search bot plays the same hand the same way every
        run."""
        self.rng = SplitMix64(derive(seed, 3000 + seat))
        self.seat = seat
        self.greedy.start_hand(seed, seat)
        for s, p in enumerate(self.players):
            p.start_hand(seed, s)

    def candidate_actions(self, obs: Observation, legal: Legal, first: Action) -> list[Action]:
        """The greedy choice first, then the cheapest other options, at most ``candidates``."""
        out: list[Action] = [first]
        seen = {first}
        h = obs.hand
        if obs.mode == "lead":
            sets = [CardSet(r, h[r]) for r in range(NRANKS) if h[r]]
            more: list[Action] = [Play(cs) for cs in sorted(sets, key=lambda cs: set_cost(cs, h))]
        else:
            wrap = Burn if legal.burn else Play
            more = list(legal.extras) + [wrap(cs) for cs in sorted(legal.sets, key=lambda cs: set_cost(cs, h))]
        for a in more:
            if len(out) >= self.candidates:
                break
            if a not in seen and a in legal:
                out.append(a)
                seen.add(a)
        return out

    def _contested(self, obs: Observation) -> bool:
        """A follow worth searching: an opponent's 够级 set (a fight), or any set with ``search_all``.

        A teammate's set is let stand (search finds the same at a high cost); small sets of an
        opponent go to greedy unless the budget says otherwise.
        """
        owner = obs.table_owner
        if owner < 0 or same_side(owner, obs.seat):
            return False
        return self.search_all or (obs.table is not None and obs.rules.is_gouji(obs.table))

    def searches(self, obs: Observation, legal: Legal) -> bool:
        """Is this a decision the agent searches (a lead, a burn, 扣 or consent, a contested follow)?"""
        if obs.mode not in PLAY_MODES or len(legal) == 1:
            return False
        return obs.mode != "follow" or self._contested(obs)

    def world_values(
        self,
        obs: Observation,
        legal: Legal,
        cands: Sequence[Action],
        value: Callable[[Hand], float] | None = None,
    ) -> tuple[list[float], int]:
        """Each candidate's total team score (this seat's team − the other) over the worlds played,
        and how many worlds were: up to ``worlds``, fewer where worlds could not be rebuilt or the
        time cap (``seconds``) ran out.  ``value``, when given, values a finished world for team 0
        instead of its score difference (the match objective: the score plus what the hand carries)."""
        team = side(obs.seat)
        totals = [0.0] * len(cands)
        done = 0
        start = time.perf_counter()
        for _ in range(self.worlds * MAX_TRIES):
            if done >= self.worlds or (self.seconds is not None and time.perf_counter() - start > self.seconds):
                break
            deal = sample_world(obs, self.rng)
            world = rebuild(obs, deal) if deal is not None else None
            if world is None or world.legal_actions().extras != legal.extras:
                continue  # a world whose choices differ from the real ones cannot judge them
            done += 1
            for i, a in enumerate(cands):
                sim = world.copy()
                sim.apply(a)
                rollout(sim, self.players)
                if value is None:
                    sc = sim.scores()
                    totals[i] += sc[team] - sc[1 - team]
                else:
                    v = value(sim)
                    totals[i] += v if team == 0 else -v
        return totals, done

    def act(self, obs: Observation, legal: Legal) -> Action:
        """The greedy choice where the decision is easy, else the best of a search over the hands the others might hold
        (never their real cards)."""
        first = self.greedy.act(obs, legal)
        if not self.searches(obs, legal):
            return first
        cands = self.candidate_actions(obs, legal, first)
        if len(cands) == 1:
            return first
        totals, done = self.world_values(obs, legal, cands)
        if not done:
            return first
        self.searched += 1
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        # a few worlds are noisy: leave greedy's choice only for a clearly better one
        margin = self.margin
        if margin is None:  # a quarter of the largest place score: 1 under dagang's 4/2/0, ½ under 2/1/0
            margin = max(abs(obs.rules.place_points(p)) for p in range(1, 7)) / 4
        if (totals[best] - totals[0]) / done < margin:
            return first
        return cands[best]
