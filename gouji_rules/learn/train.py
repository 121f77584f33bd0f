"""The training loop behind ``gouji train``: Deep Monte Carlo self-play with checkpoints.

One run lives in one folder: ``checkpoint.npz`` (network, Adam moments, counters, the run's
settings and strength history, written atomically every few seconds), ``best.npz`` (the weights of
the best strength measured so far: what gets shipped), ``log.jsonl`` (one line per measurement).
Starting a run in a folder that holds a checkpoint continues it (after a kill -9 too): the network
and the counters come back and self-play resumes at the first unit not yet learned from.  The
sample buffer is not kept; it refills from new self-play.

Work: self-play runs in :class:`~gouji_rules.learn.selfplay.SelfPlayUnit` values, in this process,
in ``workers`` local processes or on a Dask cluster (``scheduler``) as ``gouji compare`` does.  At
most ``2 × workers`` units are in flight; results are taken in submission order, so a run with the
same seed and workers learns from the same hands.

Behaviour policy: greedy's choice with ε exploration first, so the first Q learned is Q^greedy
and acting on its argmax is a policy improvement over greedy; once the measured strength against
greedy is above zero with its whole 95% interval (``behaviour="auto"``), self-play switches to
the network's own argmax.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from ..compare.backends import DaskBackend
from ..compare.work import VariantSource, portable_source
from ..compare.work import load as load_variant
from ..env.features import MODES
from ..errors import GoujiError
from ..game.rng import derive
from ..play.agents import GreedyAgent
from ..play.blunders import check_guards
from ..variant import Variant
from .agent import WEIGHTS, LearnedAgent, shipped_path
from .carry import CarryValue, fit_carry
from .checkpoint import (
    check_run_meta,
    columns_of,
    fit_columns,
    load_checkpoint,
    load_weights,
    save_checkpoint,
    save_weights,
)
from .duplicate import Strength, duplicate
from .features import ACT_COLUMNS, ACT_SIZE, OBS_COLUMNS, OBS_SIZE
from .net import Adam, QNet, WeightsError, one_blas_thread
from .runfiles import RunFileError, append_line, check_run_file, folder_lock
from .selfplay import Samples, SelfPlayUnit, run_selfplay
from .workers import LocalWorkers, WorkerLost

RUN_FILES = ("checkpoint.npz", "best.npz", "log.jsonl")
"""The files of a run folder; nothing else in it is read, and nothing in them is opened as a path."""

EVAL_SEED = 0xE7A1
"""Deals of the strength figure: the same fixed duplicate set in every run and every session."""


def taught_scope(teacher_scope: str) -> str:
    """The ``LearnedAgent`` scope of a network taught at ``teacher_scope``'s decisions: the teacher's
    ``searched`` ones, or every decision of play (``play``: scope ``all``, still among the candidates)."""
    return "all" if teacher_scope == "play" else "searched"


@dataclass
class TrainConfig:
    """What a run is asked to do (`gouji train`'s options); kept in every checkpoint, so a resumed run is the same run."""

    variant: str
    out: str
    seed: int = 0
    workers: int = 1
    scheduler: str | None = None
    hands_per_unit: int = 4
    epsilon: float = 0.02
    branches: int = 4
    branch_rate: float = 0.1
    advantage: bool = True
    search_candidates: bool = True
    teacher_worlds: int = 0
    batch: int = 512
    reuse: float = 8.0
    buffer: int = 60_000
    lr: float = 5e-4
    hidden: tuple[int, int, int] = (256, 128, 64)
    eval_every: int = 1000
    eval_pairs: int = 32
    eval_match_hands: int = 0
    """the strength figure's pairs played as matches of this many hands (what a hand leaves the next
    counts: 点贡 for a closed 开点, 烧贡 …); 0: single hands, which see none of it"""
    eval_margin: float = 0.25
    checkpoint_seconds: float = 60.0
    behaviour: str = "auto"
    init: str | None = None
    command: str = ""
    also: tuple[str, ...] = ()
    """more variants to play (``--variant`` given again): self-play units take the variants in turn"""
    turns: tuple[tuple[str, int], ...] = ()
    """(variant as given, K): that variant takes K self-play units in each round of turns, not 1 (``--turns``)"""
    draw_clubs: int = 0
    """club files drawn from ``learn.clubs.RANGES`` (seeded by ``seed``) played in turn with the variants"""
    objective: str = "hand"
    """``hand``: a decision is valued by its hand's score (the decisions of play only); ``match``: by the
    hand's score plus the carry value of what it leaves the next hand (``learn.carry``), every kind of
    decision, the decisions between hands included"""
    carry_matches: int = 1200
    """with the match objective: the greedy matches the carry prices are fitted on when a run starts"""
    between_rate: float = 0.5
    """with the match objective: the rate of branch points at the decisions between hands"""
    carry: dict[str, Any] | None = None
    """the fitted carry prices (``CarryValue.to_meta``), kept in the run's config so a resumed run keeps them"""
    teacher_scope: str = "searched"
    """with ``teacher_worlds``: ``searched``, the decisions ismcts searches; ``play``, every decision of
    play with a choice (a teammate's set and small follows too), the network then choosing at all of them"""
    teach_between: bool = False
    """with ``teacher_worlds`` and the match objective: branch points at the decisions between hands too
    (``between_rate``), judged in the real deal; the weights then make every kind of decision"""
    teacher_rollout: str = "greedy"
    """with ``teacher_worlds``: who plays out the teacher's worlds, ``greedy`` or ``learned`` (the network
    as the apprentice plays it: expert iteration's second step)"""
    guards: tuple[str, ...] = ()
    """blunders (``play.blunders``) the network plays guarded against while it trains, in self-play, the
    teacher's rollouts and the strength figure, and written in the exported file's ``meta["guards"]``: so
    it learns the hands that follow a blunder it will never make (the 4s it keeps)"""
    guards_from_init: bool = False
    """``--guards`` was not given: a new run started from a weights file (``--init``) trains with that file's
    guards, so a club's file fine-tuned from the shipped one plays guarded as its start did; a resumed run
    keeps the guards it was trained with"""


@dataclass
class Progress:
    """A run's counters and latest strength figure, for the progress line and the summary printed at the end."""

    decisions: int
    samples: int
    updates: int
    units: int
    seconds: float
    decisions_per_second: float
    loss: float
    strength: Strength | None
    follow_greedy: bool


def code_version() -> str:
    """The git commit of the code (with ``+dirty`` when the tree has changes): of the package's own
    folder, else of the working directory (an installed build run from its checkout), else the
    package version."""
    here = Path(__file__).resolve().parent
    for where in (here, Path.cwd()):
        try:
            head = subprocess.run(
                ["git", "rev-parse", "HEAD"], cwd=where, capture_output=True, text=True, timeout=5, check=True
            ).stdout.strip()
            dirty = subprocess.run(
                ["git", "status", "--porcelain", "--untracked-files=no"],
                cwd=where,
                capture_output=True,
                text=True,
                timeout=5,
                check=True,
            ).stdout.strip()
            return head + ("+dirty" if dirty else "")
        except (OSError, subprocess.SubprocessError):
            continue
    from importlib.metadata import version

    return f"gouji_rules {version('gouji_rules')}"


class _Done:
    """A finished result that looks like a future (the serial backend)."""

    def __init__(self, value: Samples) -> None:
        self.value = value

    def result(self) -> Samples:
        return self.value


class NonFiniteUpdate(GoujiError):
    """A gradient step that gave NaN or inf: the run stops before anything of it is written."""


class Runner:
    """Where self-play units run: here, local worker processes (:mod:`.workers`), or a Dask cluster."""

    def __init__(self, workers: int, scheduler: str | None) -> None:
        self.pool: LocalWorkers | None = None
        self.client: Any = None
        self.workers = max(1, workers)
        if scheduler:
            dask = DaskBackend(scheduler)  # the same client, and the same errors, as compare --scheduler
            self.client, self.workers = dask.client, dask.workers
        elif workers > 1:
            self.pool = LocalWorkers(workers)

    def submit(self, unit: SelfPlayUnit) -> Any:
        """Start a self-play unit in a worker (or here, with no workers); ``.result()`` gives its samples."""
        if self.client is not None:
            return self.client.submit(run_selfplay, unit, pure=False)
        if self.pool is not None:
            return self.pool.submit(unit)
        return _Done(run_selfplay(unit))

    def close(self) -> None:
        """Stop the workers (or the Dask client); a unit still running is dropped, never half-added."""
        if self.pool is not None:
            self.pool.close()
        if self.client is not None:
            self.client.close()


def initial_net(cfg: TrainConfig) -> tuple[QNet, dict[str, Any] | None]:
    """A new network, or the shipped weights (``--init learned``) / a weights file, read by column
    name: a column the file does not name starts at zero weights (a part added since it was trained);
    and the file's meta (None for a new network)."""
    if cfg.init is None:
        return QNet(OBS_SIZE, ACT_SIZE, cfg.hidden, seed=cfg.seed), None
    path = shipped_path() if cfg.init == WEIGHTS and not os.path.lexists(cfg.init) else Path(cfg.init)
    if not os.path.lexists(path):
        raise GoujiError(f"--init {cfg.init!r}: neither the shipped weights ({WEIGHTS}) nor a weights file")
    try:
        net, meta, _ = load_weights(path)
    except WeightsError as e:
        raise WeightsError(f"--init {e}") from None
    return fit_columns(net, meta, OBS_COLUMNS, ACT_COLUMNS)[0], meta


class Trainer:
    """One training run in one folder (see the module's docstring)."""

    def __init__(self, cfg: TrainConfig) -> None:
        one_blas_thread()
        self.cfg = cfg
        self.dir = Path(cfg.out)
        if self.dir.exists() and not self.dir.is_dir():
            raise GoujiError(f"--out {cfg.out}: is a file; a run needs a folder (its checkpoints go there)")
        for name in RUN_FILES:  # a link, FIFO or device is refused before any work, never opened
            check_run_file(self.dir / name)
        self.source = portable_source(cfg.variant)
        self.variant = load_variant(self.source)[0]
        self.sources: list[VariantSource] = [self.source, *(portable_source(v) for v in cfg.also)]
        # a variant that does not load is refused now, not in a worker
        self.names = list(dict.fromkeys([self.variant.name, *(load_variant(v)[0].name for v in self.sources[1:])]))
        turns = dict(cfg.turns)
        self.in_turn: list[VariantSource] = [
            src
            for spec, src in zip([cfg.variant, *cfg.also], self.sources, strict=True)
            for _ in range(turns.get(spec, 1))
        ]
        """the sources as self-play units take them: each variant its ``--turns`` times a round, then the clubs"""
        self.clubs_before: dict[str, Any] | None = None
        """the drawn clubs a resumed run said it played, kept when this command draws none"""
        if cfg.draw_clubs:
            from .clubs import draw_clubs

            clubs = [portable_source(v) for v in draw_clubs(cfg.draw_clubs, cfg.seed)]
            self.sources += clubs
            self.in_turn += clubs
        self.net, init_meta = initial_net(cfg)
        if init_meta is not None:  # a fine-tuned file was trained over what its start was, and more
            self._played_before(init_meta.get("trained_over") or {"variants": [str(init_meta.get("variant", ""))]})
            if cfg.guards_from_init and not cfg.guards:
                try:
                    self.cfg.guards = check_guards(init_meta.get("guards", []))
                except ValueError as e:
                    raise WeightsError(f"--init {cfg.init}: {e}") from None
        self.dir.mkdir(parents=True, exist_ok=True)
        if cfg.objective not in ("hand", "match"):
            raise GoujiError(f"objective {cfg.objective!r}: hand or match")
        if cfg.teach_between and not (cfg.teacher_worlds and cfg.objective == "match"):
            raise GoujiError("--teach-between goes with --objective match and --teacher-worlds")
        if cfg.teacher_rollout not in ("greedy", "learned"):
            raise GoujiError(f"teacher rollout {cfg.teacher_rollout!r}: greedy or learned")
        if cfg.teacher_rollout != "greedy" and not cfg.teacher_worlds:
            raise GoujiError("--teacher-rollouts goes with --teacher-worlds")
        self.cfg.hidden = self.net.hidden
        self.adam = Adam(self.net, cfg.lr)
        self.decisions = self.samples = self.updates = self.units = 0
        self.seconds = 0.0
        self.follow_greedy = cfg.behaviour != "learned"
        self.evals: list[dict[str, Any]] = []
        self.best: float | None = None
        self.loss = float("nan")
        self.resumed = False
        self.saved: int | None = None
        """The decisions of the checkpoint on disk that this run wrote or resumed (None: none yet)."""
        self._held: Callable[[], bool] = lambda: True
        """While the run goes on: whether its ``--out`` still names the folder it locked (``folder_lock``)."""
        self.poisoned = False
        """The network in memory holds NaN or inf: it is never written."""
        self.code_versions = [code_version()]
        self.buf_obs = np.zeros((cfg.buffer, OBS_SIZE), np.float32)
        self.buf_act = np.zeros((cfg.buffer, ACT_SIZE), np.float32)
        self.buf_y = np.zeros(cfg.buffer, np.float32)
        self.filled = self.cursor = 0
        self._carry = 0.0
        for name in ("checkpoint.npz", "best.npz"):  # what a kill during a write left beside them
            for stale in self.dir.glob(f".{name}.*"):
                with contextlib.suppress(OSError):  # a folder of that name is not ours to remove
                    stale.unlink()
        ckpt = self.dir / "checkpoint.npz"
        if ckpt.exists():
            self._resume(ckpt)
        if cfg.objective == "match" and cfg.carry is None:
            self.cfg.carry = self.fit_carry().to_meta()

    def fit_carry(self) -> CarryValue:
        """The carry prices of a new match-objective run, fitted on greedy matches of its variants."""
        variants = [load_variant(src)[0] for src in self.sources]
        return fit_carry(variants, self.cfg.carry_matches, derive(self.cfg.seed, 0xCA77))

    # -- checkpoints ------------------------------------------------------------------------------

    def meta(self) -> dict[str, Any]:
        """What a checkpoint and a weights file say of the run: its variants, command, counters, config and figures."""
        return {
            "variant": self.variant.name,
            "variant_hash": self.variant.rules.fingerprint,
            "variant_source": self.cfg.variant,  # what the command said: shown, never opened again
            "command": self.cfg.command,
            "seed": self.cfg.seed,
            "decisions": self.decisions,
            "samples": self.samples,
            "updates": self.updates,
            "units": self.units,
            "seconds": round(self.seconds, 1),
            "follow_greedy": self.follow_greedy,
            "code_version": self.code_versions[-1],
            "code_versions": self.code_versions,
            "config": {k: v for k, v in asdict(self.cfg).items() if k != "out"},
            "trained_over": self.trained_over(),
            "evals": self.evals[-200:],
            "best": self.best,
            **self.play_meta(),
            **({"guards": list(self.cfg.guards)} if self.cfg.guards else {}),
        }

    def _played_before(self, before: dict[str, Any]) -> None:
        """Add what the network was trained over before this command (its ``--init`` file's, or the resumed
        run's ``trained_over``) to this run's variants and clubs."""
        self.names = list(dict.fromkeys([*(v for v in before.get("variants", ()) if v), *self.names]))
        self.clubs_before = before.get("clubs")

    def trained_over(self) -> dict[str, Any]:
        """The variants and the drawn clubs' ranges this run plays (``checkpoint.check_trained_over``)."""
        from .clubs import space

        clubs = space(self.cfg.draw_clubs, self.cfg.seed) if self.cfg.draw_clubs else self.clubs_before
        return {"variants": self.names, "clubs": clubs}

    def play_meta(self) -> dict[str, Any]:
        """How a weights file of this run plays where no export chose otherwise: a distilled network
        as in the strength figure (``scope: searched``, its candidates, the eval margin); a network of
        the match objective at every kind of decision, with the carry prices it was trained with."""
        if self.cfg.teacher_worlds > 0:
            taught = {**self.play_scope(), "margin": self.cfg.eval_margin}
            if self.cfg.objective == "match":
                taught.update(objective="match", carry=self.cfg.carry)
                if self.cfg.teach_between:
                    taught["learned_kinds"] = sorted(MODES)
            return taught
        if self.cfg.objective == "match":
            return {"scope": "all", "learned_kinds": sorted(MODES), "objective": "match", "carry": self.cfg.carry}
        return {"scope": "all"}

    def _still_held(self) -> None:
        """RunFileError, and no more writes, once the run's folder was moved or replaced: another run may
        hold the folder now at that path, and its checkpoints must not be overwritten by this one's."""
        if not self._held():
            raise RunFileError(
                f"{self.dir}: the run folder was moved or replaced while this run went on; nothing more is "
                "written there (the folder it started in keeps its last checkpoint)"
            )

    def checkpoint(self) -> None:
        """Write the run's state atomically (``checkpoint.npz``), so a kill loses at most the last interval."""
        self._still_held()
        save_checkpoint(self.dir / "checkpoint.npz", self.net, self.adam, self.meta())
        self.saved = self.decisions

    def kept(self) -> str:
        """What a stopped run leaves, in words: its checkpoint or that it has none yet."""
        if self.saved is None:
            return f"no checkpoint was written in {self.dir} yet"
        return f"checkpoint kept in {self.dir} ({self.saved:,} decisions); the same command continues it"

    def _resume(self, path: Path) -> None:
        ck = load_checkpoint(path)
        net, meta = ck.net, ck.meta
        obs, act = columns_of(meta)
        if (obs, act) != (OBS_COLUMNS, ACT_COLUMNS):  # its Adam moments are per column: no fitting here
            lacks = [c for c in OBS_COLUMNS + ACT_COLUMNS if c not in set(obs + act)]
            extra = [c for c in obs + act if c not in set(OBS_COLUMNS + ACT_COLUMNS)]
            what = (
                f"it lacks {', '.join(lacks[:3])}"
                if lacks
                else f"it has {', '.join(extra[:3])}"
                if extra
                else "in another order"
            )
            raise WeightsError(
                f"{path}: a network of other input columns ({what}; a part was added or removed since): "
                "use another --out, and --init with its best.npz to start from it"
            )
        if meta["variant"] != self.variant.name:
            raise GoujiError(
                f"{path} continues a run of {meta.get('variant')!r}, not {self.variant.name!r}: use another --out"
            )
        was_objective = meta.get("config", {}).get("objective", "hand")
        if was_objective != self.cfg.objective:
            raise GoujiError(
                f"{path} continues a run of --objective {was_objective}, not {self.cfg.objective}: "
                "give the run's own, or use another --out (with --init its best.npz)"
            )
        if self.cfg.objective == "match":
            self.cfg.carry = CarryValue.from_meta(meta.get("config", {}).get("carry")).to_meta()
        was = meta.get("config", {}).get("teacher_worlds", 0)
        if was != self.cfg.teacher_worlds:
            said = f"--teacher-worlds {was}" if was else "no --teacher-worlds (branches judged in the real deal)"
            raise GoujiError(
                f"{path} continues a run trained with {said}, not --teacher-worlds {self.cfg.teacher_worlds}: "
                "give the run's own, or use another --out"
            )
        was_scope = meta.get("config", {}).get("teacher_scope", "searched")
        was_between = bool(meta.get("config", {}).get("teach_between", False))
        if was_between != self.cfg.teach_between:
            said = "with --teach-between" if was_between else "without --teach-between"
            raise GoujiError(f"{path} continues a run taught {said}: give the run's own, or use another --out")
        was_rollout = meta.get("config", {}).get("teacher_rollout", "greedy")
        if was_rollout != self.cfg.teacher_rollout:
            raise GoujiError(
                f"{path} continues a run whose teacher played out its worlds with {was_rollout} seats, not "
                f"{self.cfg.teacher_rollout}: give the run's own --teacher-rollouts, or use another --out "
                "(with --init its best.npz)"
            )
        was_hands = int(meta.get("config", {}).get("eval_match_hands", 0))
        if was_hands != self.cfg.eval_match_hands:  # its best figure would not compare with the new ones
            raise GoujiError(
                f"{path} continues a run measured with --eval-match-hands {was_hands}: give the run's own, "
                "or use another --out"
            )
        was_guards = tuple(meta.get("config", {}).get("guards", ()))
        if self.cfg.guards_from_init:  # no --guards said: the run goes on as it was trained
            self.cfg.guards = was_guards
        if was_guards != self.cfg.guards:
            said = f"--guards {','.join(was_guards)}" if was_guards else "no --guards"
            raise GoujiError(f"{path} continues a run trained with {said}: give the run's own, or use another --out")
        if self.cfg.teacher_worlds and was_scope != self.cfg.teacher_scope:
            raise GoujiError(
                f"{path} continues a run taught with --teacher-scope {was_scope}, not {self.cfg.teacher_scope}: "
                "give the run's own, or use another --out"
            )
        self.net = net
        self.cfg.hidden = net.hidden
        self.adam = Adam(net, self.cfg.lr)
        self.adam.m, self.adam.v, self.adam.t = ck.adam_m, ck.adam_v, ck.adam_t
        self.decisions, self.samples = meta["decisions"], meta["samples"]
        self.updates, self.units = meta["updates"], meta["units"]
        self.seconds = float(meta["seconds"])
        self.follow_greedy = meta["follow_greedy"]
        self.evals = list(meta.get("evals", []))
        self.best = meta.get("best")
        now = self.code_versions[-1]
        self.code_versions = [
            *meta.get("code_versions", []),
            *([now] if now not in meta.get("code_versions", []) else []),
        ]
        self._played_before(meta.get("trained_over") or {})  # a resumed run played both
        self.resumed = True
        self.saved = self.decisions

    # -- learning ---------------------------------------------------------------------------------

    def add(self, s: Samples) -> None:
        """Put a unit's samples in the replay buffer (a ring) and count its decisions and hands."""
        self.decisions += s.decisions
        n = len(s.target)
        self.samples += n
        cap = self.cfg.buffer
        for i in range(0, n, cap):
            part = slice(i, min(n, i + cap))
            m = part.stop - part.start
            at = np.arange(self.cursor, self.cursor + m) % cap
            self.buf_obs[at], self.buf_act[at], self.buf_y[at] = s.obs[part], s.act[part], s.target[part]
            self.cursor = (self.cursor + m) % cap
            self.filled = min(cap, self.filled + m)
        self._carry += n * self.cfg.reuse / self.cfg.batch

    def learn(self, on_eval: Callable[[], None]) -> None:
        """The gradient steps the new samples pay for (``reuse`` rows per sample, minibatches from the buffer)."""
        while self._carry >= 1.0 and self.filled >= self.cfg.batch:
            self._carry -= 1.0
            rng = np.random.default_rng([self.cfg.seed, self.updates])
            i = rng.integers(0, self.filled, self.cfg.batch)
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # checked below, said once
                loss, grads = self.net.loss_and_grads(self.buf_obs[i], self.buf_act[i], self.buf_y[i])
            bad = [k for k, g in grads.items() if not np.isfinite(g).all()]
            if bad or loss != loss or abs(loss) == float("inf"):
                raise NonFiniteUpdate(
                    f"update {self.updates + 1} would be non-finite (loss {loss:g}, gradient of "
                    f"{', '.join(bad) or 'none'} with NaN or inf): the run stopped before taking it"
                )
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                self.adam.step(self.net, grads)
            bad = [k for k, v in self.net.p.items() if not np.isfinite(v).all()]
            if bad:
                self.poisoned = True
                raise NonFiniteUpdate(
                    f"update {self.updates + 1} made {', '.join(bad)} non-finite (NaN or inf; try a smaller "
                    "--lr): the run stopped and wrote nothing of it"
                )
            self.loss = loss if self.loss != self.loss else 0.98 * self.loss + 0.02 * loss
            self.updates += 1
            if self.updates % self.cfg.eval_every == 0:
                on_eval()

    def play_scope(self) -> dict[str, Any]:
        """How the network plays in the strength figure: a distilled one (``teacher_worlds``) as ismcts
        chooses, at its decisions among its candidates; any other at every decision of play."""
        if self.cfg.teacher_worlds > 0:
            return {"scope": taught_scope(self.cfg.teacher_scope), "candidates": max(2, self.cfg.branches)}
        return {}

    def evaluate(self) -> Strength:
        """The network's argmax team against greedy on the fixed duplicate set; keeps the best weights."""
        net = self.net.copy()
        agent = partial(LearnedAgent, net, margin=self.cfg.eval_margin, guards=self.cfg.guards, **self.play_scope())
        s = duplicate(self.variant, self.cfg.eval_pairs, EVAL_SEED, agent, GreedyAgent, None, self.cfg.eval_match_hands)
        row = {
            "updates": self.updates,
            "decisions": self.decisions,
            "vs_greedy": round(s.mean, 4),
            "ci95": [round(s.low, 4), round(s.high, 4)],
            "pairs": s.pairs,
            **({"match_hands": self.cfg.eval_match_hands} if self.cfg.eval_match_hands else {}),
            "margin": self.cfg.eval_margin,
            "loss": round(self.loss, 5),
            "follow_greedy": self.follow_greedy,
        }
        self.evals.append(row)
        self._still_held()
        append_line(self.dir / "log.jsonl", json.dumps(row))
        if self.best is None or s.mean > self.best:
            self.best = s.mean
            save_weights(self.dir / "best.npz", net, {**self.meta(), "strength_vs_greedy": row}, run_file=True)
        if self.follow_greedy and self.cfg.behaviour == "auto" and s.low > 0:
            self.follow_greedy = False
        return s

    def unit(self, index: int) -> SelfPlayUnit:
        """Self-play unit ``index``: its variant in turn, a copy of the weights now, the run's settings."""
        return SelfPlayUnit(
            index,
            self.cfg.seed,
            self.in_turn[index % len(self.in_turn)],
            self.cfg.hands_per_unit,
            {k: v.copy() for k, v in self.net.p.items()},
            self.net.hidden,
            self.cfg.epsilon,
            self.follow_greedy,
            self.cfg.branches,
            self.cfg.branch_rate,
            self.cfg.advantage,
            self.cfg.search_candidates,
            self.cfg.teacher_worlds,
            self.cfg.eval_margin,
            self.cfg.between_rate,
            CarryValue.from_meta(self.cfg.carry).prices if self.cfg.objective == "match" else None,
            self.cfg.teacher_scope,
            self.cfg.teach_between,
            self.cfg.teacher_rollout,
            self.cfg.guards,
        )

    def run(
        self,
        seconds: float | None = None,
        max_decisions: int | None = None,
        progress: Callable[[Progress], None] | None = None,
    ) -> Progress:
        """Train until ``seconds`` have passed in this call or ``max_decisions`` in the run; checkpoint
        every ``checkpoint_seconds`` and at the end (a KeyboardInterrupt too).  One run at a time in a folder."""
        with folder_lock(self.dir) as held:
            self._held = held
            try:
                return self._run(seconds, max_decisions, progress)
            finally:
                self._held = lambda: True

    def _run(
        self, seconds: float | None, max_decisions: int | None, progress: Callable[[Progress], None] | None
    ) -> Progress:
        cfg = self.cfg
        self.poisoned = False
        runner = Runner(cfg.workers, cfg.scheduler)
        start = last_ckpt = time.perf_counter()
        base_seconds, base_decisions = self.seconds, self.decisions
        strength: list[Strength | None] = [None]
        if self.evals:
            e = self.evals[-1]
            strength[0] = Strength(e["pairs"], e["vs_greedy"], e["ci95"][0], e["ci95"][1])

        def on_eval() -> None:
            strength[0] = self.evaluate()

        def report() -> Progress:
            el = time.perf_counter() - start
            return Progress(
                self.decisions,
                self.samples,
                self.updates,
                self.units,
                self.seconds,
                (self.decisions - base_decisions) / el if el > 0 else 0.0,
                self.loss,
                strength[0],
                self.follow_greedy,
            )

        pending: deque[Any] = deque()
        submitted = self.units
        try:
            while True:
                now = time.perf_counter()
                if seconds is not None and now - start >= seconds:
                    break
                if max_decisions is not None and self.decisions >= max_decisions:
                    break
                while len(pending) < 2 * runner.workers:
                    pending.append(runner.submit(self.unit(submitted)))
                    submitted += 1
                self.add(pending.popleft().result())
                self.units += 1
                self.learn(on_eval)
                self.seconds = base_seconds + time.perf_counter() - start
                if progress is not None:
                    progress(report())
                if time.perf_counter() - last_ckpt >= cfg.checkpoint_seconds:
                    self.checkpoint()
                    last_ckpt = time.perf_counter()
        finally:
            with _signals_held():  # a second Ctrl-C or kill waits until the checkpoint is whole
                runner.close()
                self.seconds = base_seconds + time.perf_counter() - start
                if not self.poisoned:
                    self.checkpoint()  # in a moved folder: RunFileError, nothing written
        return report()


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM held back for the block (on the main thread, where Python handles them)."""
    held = {signal.SIGINT, signal.SIGTERM}
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


MARGIN_SEED = EVAL_SEED + 1
"""Deals of the margin choice at export: neither the training figure's nor benchmarks/strength.py's."""


def export(
    run_dir: str | Path,
    dest: str | Path,
    margins: Sequence[float] = (),
    pairs: int = 32,
    progress: Callable[[float, int, Strength, str], None] | None = None,
    candidates: Sequence[int] = (0,),
    latest: bool = False,
    variant: str | None = None,
) -> dict[str, Any]:
    """Write a run's weights to ``dest`` without the optimizer state: those of its best strength
    figure (``best.npz``), or its latest checkpoint where no figure has been measured yet.

    With ``margins``, each (with each of ``candidates``: 0 for every legal action, K for the K that
    ismcts would try) is measured against greedy on ``pairs`` duplicate deals of their own
    (:data:`MARGIN_SEED`) and the best is written in the file's meta (``margin``, ``candidates``,
    with the figures), for the agent to play with (``LearnedAgent``'s).  ``latest`` measures the latest
    checkpoint's weights beside the best figure's and keeps whichever does better on those deals (the
    best of a few noisy training figures is an optimistic pick; the latest network has seen the most);
    without ``margins`` it exports the latest checkpoint's weights unmeasured (a run judged elsewhere, in
    matches against every bar).
    The margins are measured under ``variant`` (a shipped name or a file the user names), else under
    the shipped variant the weights name: a path written in a run's files is never opened."""
    run = Path(run_dir)
    for name in ("best.npz", "checkpoint.npz"):
        check_run_file(run / name)
    sources = [p for p in (run / "best.npz", run / "checkpoint.npz") if p.exists()]
    if not sources:
        raise GoujiError(f"{run_dir}: no training run here (no best.npz or checkpoint.npz)")
    if latest and not margins:  # the network that has seen the most, as it is
        sources = [p for p in sources if p.name == "checkpoint.npz"]
        if not sources:
            raise GoujiError(f"{run_dir}: --latest exports checkpoint.npz, and there is none")
    if not latest:
        sources = sources[:1]
    table: list[dict[str, Any]] = []
    chosen: tuple[QNet, dict[str, Any]] | None = None
    for src in sources:
        net, meta, _ = load_weights(src, run_file=True)
        check_run_meta(str(src), meta)
        net = fit_columns(net, meta, OBS_COLUMNS, ACT_COLUMNS)[0]  # exported in this installation's layout
        meta = {k: v for k, v in meta.items() if k not in ("evals", "net")}
        meta["exported_from"] = src.name
        config = meta.get("config", {})
        distilled = int(config.get("teacher_worlds", 0)) > 0
        scope = taught_scope(str(config.get("teacher_scope", "searched"))) if distilled else "all"
        meta["scope"] = scope
        if distilled and not margins:  # as the run measured it, not margin 0 over every action
            meta["candidates"] = max(2, int(config.get("branches", 4)))
            meta["margin"] = float(config.get("eval_margin", 0.25))
        if chosen is None:
            chosen = (net, meta)
        if not margins:
            break
        measured = _measured_variant(src, meta, variant)
        hands = int(config.get("eval_match_hands", 0))  # as the run measured itself
        for k in candidates:
            for m in margins:
                agent = partial(LearnedAgent, net, margin=m, candidates=k, scope=scope, guards=meta.get("guards", ()))
                s = duplicate(measured, pairs, MARGIN_SEED, agent, GreedyAgent, None, hands)
                row = {
                    "margin": m,
                    "candidates": k,
                    "vs_greedy": round(s.mean, 4),
                    "ci95": [round(s.low, 4), round(s.high, 4)],
                }
                if len(sources) > 1:
                    row["weights"] = src.name
                table.append(row)
                if progress is not None:
                    progress(m, k, s, src.name)
                if max(table, key=lambda r: (r["vs_greedy"], r["margin"])) is row:
                    chosen = (net, meta)
    assert chosen is not None
    net, meta = chosen
    if margins:
        best = max(table, key=lambda r: (r["vs_greedy"], r["margin"]))
        meta["margin"], meta["candidates"] = best["margin"], best["candidates"]
        meta["margin_choice"] = {"pairs": pairs, "seed": MARGIN_SEED, "figures": table}
        if hands:  # the one run's setting, read where its margins were measured
            meta["margin_choice"]["match_hands"] = hands
    save_weights(dest, net, meta)
    return meta


def _measured_variant(src: Path, meta: dict[str, Any], spec: str | None) -> Variant:
    """The variant to measure a run's weights under: ``spec`` if given (its name must be the run's),
    else the shipped variant of the run's name, whose fingerprint must be the run's where it kept one."""
    from ..catalog import names

    name = meta["variant"]
    if spec is not None:
        v = load_variant(portable_source(spec))[0]
        if v.name != name:
            raise GoujiError(f"{src}: the weights of a run of {name!r}, not of {v.name!r} (--variant {spec})")
        return v
    if name not in names():
        raise GoujiError(
            f"{src}: a run of {name!r}, which is not a shipped variant: give its file with --variant to measure --margins"
        )
    v = load_variant(name)[0]
    if meta.get("variant_hash", v.rules.fingerprint) != v.rules.fingerprint:
        raise GoujiError(
            f"{src}: a run of other rules than the shipped {name!r} (a club file of that name?): "
            "give its file with --variant to measure --margins"
        )
    return v


__all__ = ["EVAL_SEED", "NonFiniteUpdate", "Progress", "TrainConfig", "Trainer", "WorkerLost", "export"]
