"""The ``learned`` agent: the legal action with the highest Q, one matrix product per decision.

It plays the decision kinds its weights learned (``meta["learned_kinds"]``: the shipped ones, the
decisions of play) with the network; every other kind is made by that kind's own default chooser
(``DecisionKind.chooser``, declared by the phase that asks it), the greedy agent's choice where the
kind declares none.  A forced decision (one legal action) costs nothing.

The weights are read by column name (``learn.checkpoint.fit_columns``), once when loaded: a part
added since they were trained adds columns they give zero weight, and its kinds they never learned,
so they play on (:func:`unseen_parts` says what they never saw; ``gouji compare`` reports it).

Which weights: the one file shipped, ``gouji_rules/data/agents/learned.npz``, for every variant; it reads
the rules it plays under (the ``rule.*`` columns).  Until session 17 each of dagang and dianshaomenla
shipped a file of its own and a club played the file of the shipped variant nearest its rules
(:func:`nearest`); the one file is those two distilled into one network (``learn.distil``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..env.features import MODES
from ..game.actions import Action
from ..game.legal import Legal
from ..game.rng import SplitMix64, derive
from ..play.agents import GreedyAgent
from ..play.blunders import check_guards, made
from ..play.observe import Observation
from ..rules import Rules
from ..search import SearchAgent
from ..variant import Variant
from .checkpoint import Fit, columns_of, fit_columns, load_weights
from .features import (
    ACT_COLUMNS,
    ACT_SIZE,
    BASE_SIZE,
    GREEDY_AT,
    OBS_COLUMNS,
    OBS_SIZE,
    PLAY_MODES,
    Featurizer,
    FloatArray,
)
from .net import QNet, WeightsError, one_blas_thread

WEIGHTS = "learned"
"""The name of the one weights file shipped: ``gouji_rules/data/agents/learned.npz``, played under every variant."""

_CACHE: dict[str, tuple[QNet, dict[str, Any], Fit]] = {}
Chooser = Callable[[Observation, Legal], Action]
KNOWN = frozenset(MODES)


def shipped_path(name: str = WEIGHTS) -> Path:
    """Where the shipped weights named ``name`` are installed (``gouji_rules/data/agents/NAME.npz``)."""
    return Path(str(resources.files("gouji_rules.data").joinpath("agents", f"{name}.npz")))


def weights_of(variant: Variant) -> str:
    """The name of the shipped weights ``variant`` is played with: the one file, for every variant.
    (Tests that pin what earlier per-variant files did put :func:`nearest` here.)"""
    del variant
    return WEIGHTS


def shipped_fit(name: str = WEIGHTS) -> tuple[QNet, dict[str, Any], Fit]:
    """The shipped network named ``name`` fitted to this installation's columns by name, its meta, and
    what fitting it did (loaded once per process).  WeightsError if absent."""
    hit = _CACHE.get(name)
    if hit is None:
        path = shipped_path(name)
        if not path.exists():
            raise WeightsError(f"no shipped weights named {name!r}; shipped: {WEIGHTS}")
        net, meta, _ = load_weights(path)
        net, fit = fit_columns(net, meta, OBS_COLUMNS, ACT_COLUMNS)
        hit = _CACHE[name] = (net, meta, fit)
    return hit


def shipped_weights(name: str = WEIGHTS) -> tuple[QNet, dict[str, Any]]:
    """The shipped network named ``name``, of this installation's layout, and its meta."""
    net, meta, _ = shipped_fit(name)
    return net, meta


def file_fit(path: str) -> tuple[QNet, dict[str, Any], Fit]:
    """A weights file of one's own (a club's: ``gouji train --variant club.yaml --init learned``) fitted to
    this installation's columns by name, its meta, and what fitting it did; loaded once per process while
    the file is unchanged.  WeightsError, naming the file, if it cannot be read or is no weights file."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as e:
        raise WeightsError(f"{path}: cannot read the weights file ({e.strerror})") from None
    key = f"{p.resolve()}\0{st.st_size}\0{st.st_mtime_ns}"
    hit = _CACHE.get(key)
    if hit is None:
        net, meta, _ = load_weights(p)
        if "learned_kinds" not in meta:
            raise WeightsError(f"{path}: no learned_kinds in its meta: not a weights file that `gouji train` wrote")
        net, fit = fit_columns(net, meta, OBS_COLUMNS, ACT_COLUMNS)
        hit = _CACHE[key] = (net, meta, fit)
    return hit


def weights_fit(weights: str | None, variant: Variant) -> tuple[QNet, dict[str, Any], Fit]:
    """What the learned agent plays ``variant`` with: the file ``weights`` (:func:`file_fit`), or with None
    the shipped weights (:func:`weights_of`, :func:`shipped_fit`)."""
    return file_fit(weights) if weights else shipped_fit(weights_of(variant))


def default_chooser(kind: str) -> Chooser | None:
    """The default chooser the decision kind ``kind`` declares (``DecisionKind.chooser``), or None:
    then the greedy agent's choice, what every kind the network never learned was made by before."""
    from ..parts.registry import DECISION_KINDS

    chooser: Chooser | None = getattr(DECISION_KINDS.get(kind), "chooser", None)
    return chooser


def unseen_parts(variant: Variant, weights: str | None = None) -> list[dict[str, Any]]:
    """The parts played under ``variant`` whose decision kinds or words the weights it plays with
    (the file ``weights``, else :func:`weights_of`) never saw: the file names no column for them (they were added
    since it was trained, or registered after the env was imported), and the beat strategies, tribute
    kinds and declarations it plays that none of the variants the weights trained over plays.  One
    ``{part, zh, en, kinds, words}`` per part; a phase's kinds are made by their default choosers."""
    from ..parts import catalogue
    from ..phases.base import phases_of

    _, meta, fit = weights_fit(weights, variant)
    obs, act = columns_of(meta)
    known = set(obs) | set(act)
    learned = set(meta["learned_kinds"])
    out = []
    for stage in ("before_deal", "before_play", "after_play"):
        for phase in phases_of(variant.rules, stage):
            kinds = [str(k) for k in phase.decisions if f"mode.{k}" not in known and str(k) not in learned]
            words = [str(w) for w in phase.words if f"word.{w}" not in known]
            if kinds or words:
                out.append({"part": phase.name, "zh": phase.zh, "en": phase.en, "kinds": kinds, "words": words})
    # the other kinds of part: played here, played under none of the variants the weights trained over
    trained = _trained_variants(meta, variant)
    new = set(fit.new)
    for part in catalogue.parts():
        if part.kind == "match phase" or not _played(variant, part.kind, part.name):
            continue
        if any(_played(t, part.kind, part.name) for t in trained):
            continue
        words = [c[len("word.") :] for c in ACT_COLUMNS if c.startswith(f"word.{part.name}") and c in new]
        out.append({"part": part.name, "zh": part.zh, "en": part.en, "kinds": [], "words": words})
    return out


def _trained_variants(meta: dict[str, Any], variant: Variant) -> list[Variant]:
    """The variants a weights file was trained over (``trained_over``, else its ``variant``), as
    ``catalog.trained_variants`` reads them where ``variant`` is played."""
    from .. import catalog

    return catalog.trained_variants((meta.get("trained_over") or {}).get("variants") or [meta.get("variant")], variant)


def _played(variant: Variant, kind: str, name: str) -> bool:
    """Is the part ``name`` of ``kind`` (a beat strategy, tribute kind or declaration) played under ``variant``?"""
    if kind == "beat strategy":
        return bool(variant.sets.beat == name)
    if kind == "tribute kind":
        return name in variant.tribute.order
    if kind == "declaration":
        d = variant.rules.declarations.get(name)
        return bool(d is not None and d.enabled)
    return False


def _agreement(a: Any, b: Any) -> int:
    """How many leaf settings two sections (or values) share."""
    if dataclasses.is_dataclass(a) and type(a) is type(b):
        return sum(_agreement(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    return int(a == b)


def nearest(variant: Variant, names: Sequence[str]) -> str:
    """Of the shipped variants ``names``, the one ``variant`` is or whose rule sections agree with it in
    the most settings (ties: the first): the teacher that labels a drawn club's positions in
    ``learn.distil``, and the file a club played before one file played every variant."""
    if variant.name in names:
        return variant.name
    from ..catalog import resolve

    skip = {"name", "title", "source", "hooks", "extensions"}
    fields = [f.name for f in dataclasses.fields(variant) if f.name not in skip]
    best, best_score = names[0], -1
    for name in names:
        other = resolve(name)
        score = sum(_agreement(getattr(variant, f), getattr(other, f)) for f in fields)
        if score > best_score:
            best, best_score = name, score
    return best


def folded(net: QNet, block: FloatArray) -> QNet:
    """``net`` reading only the first BASE_SIZE columns of an observation, the rule block's part of
    the first layer added to its bias: the same Q for every position played under those rules, at the
    cost of a network without the block (the block is the same at every decision of the hand)."""
    out = QNet.__new__(QNet)
    out.obs_size, out.act_size, out.hidden = BASE_SIZE, net.act_size, net.hidden
    w = net.p["w_obs"]
    out.p = {**net.p, "w_obs": w[:BASE_SIZE], "b1": (net.p["b1"] + block @ w[BASE_SIZE:]).astype(np.float32)}
    return out


class LearnedAgent:
    """Argmax of the Q-network over the legal actions (ties: the first in ``legal``'s order).

    ``net`` fixes the network (training); ``weights`` names a weights file to play as its meta says
    (``learned:FILE`` in ``--agents``); with neither the shipped weights (:func:`weights_of`) are used.  ``epsilon`` > 0 plays a uniformly random legal action
    that often (self-play exploration); ``follow_greedy`` plays greedy's choice instead of the argmax
    (the behaviour policy of the first training phase).  ``trace``, when set, receives the rows of
    every decision the network could make: (observation row, chosen action row).

    ``margin``: the argmax replaces greedy's choice only when its Q is at least this much higher
    (in the return's units, the variant's largest place score), so where the network cannot tell
    the actions apart the greedy agent's sense stands.  The shipped weights carry the margin chosen
    for them on the training run's own duplicate deals (``meta["margin"]``); None takes it.
    ``candidates`` K > 0 chooses only among the K actions ``ismcts`` would try (greedy's choice, then
    the cheapest others): fewer actions, fewer that the network overrates by chance (``meta["candidates"]``).
    ``scope``: ``"all"`` decides every decision of play with the network; ``"searched"`` only those
    ``ismcts`` searches (leads, burns, 扣, consent, answers to an opponent's 够级 set), the rest going to
    greedy, as ismcts leaves them: the scope of weights distilled from ismcts (``meta["scope"]``).  The
    scope does not narrow the choice set: with a network of one's own, give ``candidates`` and
    ``margin`` too (the shipped weights take all three from their meta).  ``learned_kinds``: the decision
    kinds the network makes (a weights file's ``meta["learned_kinds"]``; default: the shipped weights'
    meta, or the modes of play for a network of one's own); every other kind goes to its default chooser.
    ``guards``: names of blunders (``gouji_rules.play.blunders``) the network's choice is checked for; where
    it chose one, it plays its best candidate that is no such blunder (``meta["guards"]``, measured before
    it was written there: docs/research.md, "The guards"; default: the shipped weights' meta, or none for a
    network of one's own).  Until session 18 greedy's choice replaced it; the network's own next best
    costs less (docs/research.md).
    """

    name = "learned"

    def __init__(
        self,
        net: QNet | None = None,
        epsilon: float = 0.0,
        follow_greedy: bool = False,
        trace: Callable[[int, FloatArray, FloatArray], None] | None = None,
        margin: float | None = None,
        candidates: int | None = None,
        scope: str | None = None,
        learned_kinds: Collection[str] | None = None,
        guards: Collection[str] | None = None,
        weights: str | None = None,
    ) -> None:
        if scope not in (None, "all", "searched"):
            raise ValueError(f"scope must be all or searched, not {scope!r}")
        self.net = net
        self.weights = weights
        if weights:
            file_fit(weights)  # read now, so a file that is no weights file stops a run before it starts
        self.scope = scope
        self._searched_only = scope == "searched"
        self.margin = margin
        self._margin = margin or 0.0
        self.candidates = candidates
        self._candidates = candidates or 0
        self._search = SearchAgent(candidates=max(1, self._candidates))
        self.epsilon = epsilon
        self.follow_greedy = follow_greedy
        self.trace = trace
        self.greedy = GreedyAgent()
        self.rng = SplitMix64(0)
        self.seat = 0
        self._rules: Rules | None = None
        self._feat: Featurizer | None = None
        self._play: QNet | None = net
        self._fast: QNet | None = None
        self.learned_kinds = learned_kinds
        self._learned: frozenset[str] = PLAY_MODES if learned_kinds is None else frozenset(learned_kinds) & KNOWN
        self._choosers: dict[str, Chooser | None] = {}
        self.guards = guards
        self._guards: tuple[str, ...] = () if guards is None else check_guards(list(guards))

    @classmethod
    def from_meta(cls, net: QNet, meta: dict[str, Any], guards: Collection[str] | None = None) -> LearnedAgent:
        """The agent a weights file describes: ``net`` played with its meta's margin, candidates, scope,
        learned kinds and guards (``guards`` overrides the last: ``()`` plays the file unguarded)."""
        return cls(
            net,
            margin=float(meta.get("margin", 0.0)),
            candidates=int(meta.get("candidates", 0)),
            scope=meta.get("scope", "all"),
            learned_kinds=meta.get("learned_kinds"),
            guards=meta.get("guards", ()) if guards is None else guards,
        )

    def start_hand(self, seed: int, seat: int) -> None:
        """A new hand: seed the exploration stream from the hand, so a seat's play repeats under its seed."""
        self.rng = SplitMix64(derive(seed, 4000 + seat))
        self.seat = seat
        self.greedy.start_hand(seed, seat)
        if self._feat is not None:
            self._feat.reset()

    def _setup(self, rules: Rules) -> tuple[Featurizer, QNet]:
        if self._rules is not rules or self._feat is None or self._play is None:
            one_blas_thread()
            self._rules = rules
            self._feat = Featurizer(rules)
            if self.net is not None:
                self._play = self.net
            else:
                # Rules names its Variant by a Protocol (it sits below the Variant): cast back
                self._play, meta, _ = weights_fit(self.weights, cast(Variant, rules.variant))
                if self.learned_kinds is None:  # a kind the layout has columns for
                    self._learned = frozenset(meta["learned_kinds"]) & KNOWN
                if self.margin is None:
                    self._margin = float(meta.get("margin", 0.0))
                if self.candidates is None:
                    self._candidates = int(meta.get("candidates", 0))
                    self._search = SearchAgent(candidates=max(1, self._candidates))
                if self.scope is None:
                    self._searched_only = meta.get("scope", "all") == "searched"
                if self.guards is None:
                    self._guards = check_guards(meta.get("guards", []))
            if (self._play.obs_size, self._play.act_size) != (OBS_SIZE, ACT_SIZE):
                raise WeightsError(
                    f"the network reads {self._play.obs_size} numbers of an observation and {self._play.act_size} "
                    f"of an action, but this installation encodes {OBS_SIZE} and {ACT_SIZE}: fit it to the "
                    "columns by name first (learn.checkpoint.fit_columns), as loading a weights file does"
                )
            # the shipped network is fixed: fold the rules' block into the first bias once per Rules
            self._fast = folded(self._play, self._feat.rule_block) if self.net is None else None
        return self._feat, self._play

    def scores(self, obs: Observation, legal: Legal) -> FloatArray:
        """Q of every legal action, in the order of ``legal`` (for analysis and tests)."""
        feat, net = self._setup(obs.rules)
        return net.q(feat.obs_row(obs), feat.action_rows(obs, legal, self.greedy.act(obs, legal)))

    def _default(self, obs: Observation, legal: Legal) -> Action:
        """A kind the network never learned: its default chooser, else greedy's choice."""
        mode = obs.mode
        if mode not in self._choosers:
            self._choosers[mode] = default_chooser(mode)
        chooser = self._choosers[mode]
        return self.greedy.act(obs, legal) if chooser is None else chooser(obs, legal)

    def _guarded(self, obs: Observation, legal: Legal, q: FloatArray, i: int) -> int:
        """The network's choice ``i`` is a guarded blunder: its candidate of highest Q that is none, or
        ``i`` itself where every candidate is one.  No margin here: deferring to greedy once the
        network's own choice is ruled out is what guards did until session 18, and it cost points
        (docs/research.md, "The guards")."""
        q = q.copy()
        for j in np.flatnonzero(np.isfinite(q)):
            if made(self._guards, obs, legal, legal[int(j)]):
                q[j] = -np.inf
        return int(np.argmax(q)) if np.isfinite(q).any() else i

    def act(self, obs: Observation, legal: Legal) -> Action:
        """The legal action of highest Q at a kind the weights learned, else the kind's own default chooser
        (also where a legal word has no column: an extension registered since the layout was built)."""
        if len(legal) == 1:
            return legal[0]
        feat, net = self._setup(obs.rules)
        if obs.mode not in self._learned or (legal.extras and not feat.reads(legal)):
            return self._default(obs, legal)
        first = self.greedy.act(obs, legal)
        if self._searched_only and not self._search.searches(obs, legal):
            return first
        fast = self._fast
        if fast is not None:
            x, net = feat.base_row(obs), fast
        else:
            x = feat.obs_row(obs)
        idx, rows = feat.indexed_rows(obs, legal, first)
        if self.epsilon > 0 and self.rng.below(1_000_000) < self.epsilon * 1_000_000:
            i = self.rng.below(len(legal))
        elif self.follow_greedy:
            hit = np.flatnonzero(rows[:, GREEDY_AT])
            i = int(hit[0]) if len(hit) else 0
        else:
            if self._candidates:  # only what ismcts would try: greedy's choice and the cheapest others
                enc = feat.encoding
                keep = [enc.encode(a) for a in self._search.candidate_actions(obs, legal, first)]
                where = np.flatnonzero(np.isin(idx, keep))
                q = np.full(len(legal), -np.inf, dtype=np.float32)
                q[where] = net.q(x, rows[where])
            else:
                q = net.q(x, rows)
            i = pick(q, rows, self._margin)
            if self._guards and made(self._guards, obs, legal, legal[i]):
                i = self._guarded(obs, legal, q, i)
        if self.trace is not None:
            self.trace(self.seat, x if fast is None else np.concatenate((x, feat.rule_block)), rows[i])
        return legal[i]


def pick(q: FloatArray, rows: FloatArray, margin: float) -> int:
    """The row a learned agent plays given its candidates' Q: the argmax, unless greedy's row (the
    ``GREEDY_AT`` column) is within ``margin`` of it, so that where the network barely tells the
    actions apart the greedy agent's sense stands.  The one place this rule lives: distillation
    (``learn.distil``) judges agreement by it too."""
    i = int(np.argmax(q))
    if margin > 0 and rows[i, GREEDY_AT] == 0.0:
        hit = np.flatnonzero(rows[:, GREEDY_AT])
        if len(hit) and q[i] - q[hit[0]] < margin:
            i = int(hit[0])
    return i


__all__ = [
    "WEIGHTS",
    "LearnedAgent",
    "WeightsError",
    "default_chooser",
    "file_fit",
    "nearest",
    "pick",
    "shipped_fit",
    "shipped_weights",
    "unseen_parts",
    "weights_fit",
    "weights_of",
]
