"""The two files of the learned agent, their format and the checks every file read back must pass.

A **weights file** (``best.npz``, an exported or shipped ``<variant>.npz``, ``--init FILE``) is an
``.npz`` of the parameters :data:`PARAMS` and ``meta``, JSON text: the network's shape under
``net`` (:data:`FORMAT`, sizes, hidden widths, and the name of every input column: ``obs_columns``,
``act_columns``), the decision kinds it learned (``learned_kinds``), and what the run says of itself
(variant, command, counters, settings, the margin it plays with).

Why names: the input layout is derived from the catalogue, so adding a part (a decision kind, a word)
adds columns.  A file is read by name (:func:`fit_columns`): a column the file does not name gets a row
of zero weights, which is exact for every position the network was trained on (there the column was
0, as a new kind's mode or a new word's flag is in every old position), and the kinds it never learned
are made by their own default chooser, never by the network.  Format 1 named nothing (columns by
position): ``training/name_columns.py`` converts such a file.  A **checkpoint** (``checkpoint.npz``) is a weights
file that also holds Adam's moments (``adam_m_<param>``, ``adam_v_<param>``) and step (``adam_t``).

Why every field is checked here, in one place: a run folder may come from someone else, be
truncated by a full disk, or be the file of another network, and a value that is wrong in type,
shape or finiteness would otherwise surface as numpy's traceback mid-run, or worse, be trained on
and written back (a NaN spreads to every weight in one update).  A file that fails is refused with
its name and the first thing wrong (:class:`WeightsError`).  When the format changes, change this
module and its tests (tests/learn/test_checkpoint.py) together.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..play.blunders import check_guards
from .net import Adam, FloatArray, QNet, WeightsError
from .runfiles import read_npz, write_npz

FORMAT = 2
PARAMS = ("w_obs", "w_act", "b1", "w2", "b2", "w3", "b3", "w4", "b4")
COUNTERS = ("decisions", "samples", "updates", "units")
MAX_WIDTH = 1 << 16
"""Largest size of a layer read from a file: more is a damaged or hostile file, not a network."""
MAX_KINDS = 1000
CONVERT = "python training/name_columns.py"
"""The command that names the columns of a format-1 file (gives it format 2)."""


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, np.ndarray) else f"an array {value.shape}"
    return text if len(text) <= 40 else text[:37] + "…"


def _whole(name: str, where: str, value: object, low: int = 0, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        bound = f"≥ {low}" if high is None else f"from {low} to {high}"
        raise WeightsError(f"{name}: {where} must be a whole number {bound}, not {_show(value)}")
    return value


def _number(name: str, where: str, value: object, low: float | None = 0.0) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or (low is not None and float(value) < low):  # type: ignore[arg-type]
        bound = "a finite number" + (f" ≥ {low:g}" if low is not None else "")
        raise WeightsError(f"{name}: {where} must be {bound}, not {_show(value)}")
    return float(value)  # type: ignore[arg-type]


def _array(name: str, data: dict[str, Any], key: str, shape: tuple[int, ...]) -> FloatArray:
    """A float array of ``shape`` with finite numbers only, as float32."""
    if key not in data:
        raise WeightsError(f"{name}: {key} is missing (a file of another kind, or damaged)")
    a = data[key]
    if not isinstance(a, np.ndarray) or a.dtype.kind != "f":
        raise WeightsError(f"{name}: {key} must be an array of floating-point numbers")
    if a.shape != shape:
        raise WeightsError(f"{name}: {key} has the shape {a.shape}, but the network's is {shape}")
    out: FloatArray = a.astype(np.float32)
    if not np.isfinite(out).all():
        raise WeightsError(f"{name}: {key} holds numbers that are not finite (NaN or inf); the file is unusable")
    return out


def _shapes(obs: int, act: int, hidden: tuple[int, int, int]) -> dict[str, tuple[int, ...]]:
    h1, h2, h3 = hidden
    return {
        "w_obs": (obs, h1),
        "w_act": (act, h1),
        "b1": (h1,),
        "w2": (h1, h2),
        "b2": (h2,),
        "w3": (h2, h3),
        "b3": (h3,),
        "w4": (h3,),
        "b4": (1,),
    }


def _meta(name: str, data: dict[str, Any]) -> dict[str, Any]:
    raw = data.pop("meta", None)
    if not isinstance(raw, np.ndarray) or raw.shape != () or raw.dtype.kind != "U":
        raise WeightsError(f"{name}: not a weights file (an .npz that gouji train writes): no meta text")
    try:
        meta = json.loads(str(raw))
    except (json.JSONDecodeError, RecursionError):
        raise WeightsError(f"{name}: meta is not JSON text") from None
    if not isinstance(meta, dict):
        raise WeightsError(f"{name}: meta must be a JSON object, not {_show(meta)}")
    return meta


def _names(name: str, where: str, value: object, size: int | None = None) -> tuple[str, ...]:
    """A list of distinct non-empty texts (of ``size`` items, when given)."""
    if not isinstance(value, list) or not all(isinstance(v, str) and 0 < len(v) <= 200 for v in value):
        raise WeightsError(f"{name}: {where} must be a list of names (texts), not {_show(value)}")
    if size is not None and len(value) != size:
        raise WeightsError(f"{name}: {where} names {len(value)} columns, but the network reads {size}")
    seen: set[str] = set()
    for v in value:
        if v in seen:
            raise WeightsError(f"{name}: {where} names {_show(v)} twice")
        seen.add(v)
    return tuple(value)


MAX_VARIANTS = 1000


def check_trained_over(name: str, meta: dict[str, Any]) -> None:
    """``trained_over`` (absent in files written before it): what a file was trained over, so a report
    can flag a variant outside it.  ``{"variants": [name, ...], "clubs": null or {"count": N, "seed": S,
    "bases": [name, ...], "ranges": {option path: [value, ...]}}}``: the variants named to ``gouji
    train``, and the drawn club files (``learn.clubs``) with the ranges they were drawn from."""
    if "trained_over" not in meta:
        return
    over = meta["trained_over"]
    if not isinstance(over, dict) or set(over) - {"variants", "clubs"}:
        raise WeightsError(f"{name}: trained_over must be an object of variants and clubs, not {_show(over)}")
    variants = _names(name, "trained_over.variants", over.get("variants"))
    if not variants or len(variants) > MAX_VARIANTS:
        raise WeightsError(f"{name}: trained_over.variants must name 1 to {MAX_VARIANTS} variants")
    clubs = over.get("clubs")
    if clubs is None:
        return
    if not isinstance(clubs, dict):
        raise WeightsError(
            f"{name}: trained_over.clubs must be an object (count, seed, bases, ranges), not {_show(clubs)}"
        )
    _whole(name, "trained_over.clubs.count", clubs.get("count"), 1, 10**9)
    _whole(name, "trained_over.clubs.seed", clubs.get("seed"), 0, 2**64 - 1)
    _names(name, "trained_over.clubs.bases", clubs.get("bases"))
    ranges = clubs.get("ranges")
    if not isinstance(ranges, dict) or not ranges or len(ranges) > MAX_KINDS:
        raise WeightsError(f"{name}: trained_over.clubs.ranges must map option paths to values, not {_show(ranges)}")
    for path, values in ranges.items():
        if not isinstance(values, list) or not values:
            raise WeightsError(
                f"{name}: trained_over.clubs.ranges.{path} must be a list of values, not {_show(values)}"
            )


def check_play_meta(name: str, meta: dict[str, Any]) -> None:
    """What the agent reads of a weights file's meta to play: ``learned_kinds``, ``margin``,
    ``candidates``, ``scope``, ``guards``, and what a report reads: ``trained_over``."""
    if len(_names(name, "learned_kinds", meta.get("learned_kinds"))) > MAX_KINDS:
        raise WeightsError(f"{name}: learned_kinds lists more than {MAX_KINDS} kinds")
    if "margin" in meta:
        _number(name, "margin", meta["margin"])
    if "candidates" in meta:
        _whole(name, "candidates", meta["candidates"], 0, 1000)
    if meta.get("scope", "all") not in ("all", "searched"):
        raise WeightsError(f"{name}: scope must be all or searched, not {_show(meta['scope'])}")
    if "guards" in meta:
        try:
            check_guards(meta["guards"])
        except ValueError as e:
            raise WeightsError(f"{name}: {e}") from None
    check_trained_over(name, meta)


def check_run_meta(name: str, meta: dict[str, Any]) -> None:
    """What a run reads back of its own meta: the variant's name, counters, settings and history.

    The variant is text to compare, never a path to open (``variant_source`` is not read at all)."""
    if not isinstance(meta.get("variant"), str) or not meta["variant"]:
        raise WeightsError(f"{name}: variant must be the variant's name, not {_show(meta.get('variant'))}")
    if "variant_hash" in meta and not isinstance(meta["variant_hash"], str):
        raise WeightsError(f"{name}: variant_hash must be text, not {_show(meta['variant_hash'])}")
    config = meta.get("config", {})
    if not isinstance(config, dict):
        raise WeightsError(f"{name}: config must be an object of the run's settings, not {_show(config)}")
    _whole(name, "config.teacher_worlds", config.get("teacher_worlds", 0), 0, 64)
    _whole(name, "config.branches", config.get("branches", 4), 0, 64)
    _number(name, "config.eval_margin", config.get("eval_margin", 0.25))
    _whole(name, "config.eval_match_hands", config.get("eval_match_hands", 0), 0, 64)
    try:
        check_guards(config.get("guards", []))
    except ValueError as e:
        raise WeightsError(f"{name}: config.guards: {e}") from None
    best = meta.get("best")
    if best is not None:
        _number(name, "best", best, None)
    versions = meta.get("code_versions", [])
    if not isinstance(versions, list) or not all(isinstance(v, str) for v in versions):
        raise WeightsError(f"{name}: code_versions must be a list of texts, not {_show(versions)}")
    evals = meta.get("evals", [])
    if not isinstance(evals, list):
        raise WeightsError(f"{name}: evals must be a list of strength figures, not {_show(evals)}")
    for i, row in enumerate(evals):
        ci = row.get("ci95") if isinstance(row, dict) else None
        if not isinstance(ci, list) or len(ci) != 2:
            raise WeightsError(f"{name}: evals[{i}] is not a strength figure ({_show(row)})")
        _whole(name, f"evals[{i}].pairs", row.get("pairs"), 1)
        for key, value in (("vs_greedy", row.get("vs_greedy")), ("ci95[0]", ci[0]), ("ci95[1]", ci[1])):
            _number(name, f"evals[{i}].{key}", value, None)


def parse_weights(name: str, data: dict[str, Any]) -> tuple[QNet, dict[str, Any], dict[str, Any]]:
    """The network, meta and remaining arrays of a weights file's arrays; :class:`WeightsError` if any is wrong."""
    meta = _meta(name, data)
    shape = meta.get("net")
    if not isinstance(shape, dict) or shape.get("format") != FORMAT:
        fmt = shape.get("format") if isinstance(shape, dict) else None
        hint = f": convert them with {CONVERT} {name} NEW.npz" if fmt == 1 else ""
        raise WeightsError(f"{name}: weights of another format ({_show(fmt)}; this code reads format {FORMAT}){hint}")
    obs = _whole(name, "net.obs_size", shape.get("obs_size"), 1, MAX_WIDTH)
    act = _whole(name, "net.act_size", shape.get("act_size"), 1, MAX_WIDTH)
    hidden = shape.get("hidden")
    if not isinstance(hidden, list) or len(hidden) != 3:
        raise WeightsError(f"{name}: net.hidden must be three layer widths, not {_show(hidden)}")
    widths = tuple(_whole(name, "net.hidden", h, 1, MAX_WIDTH) for h in hidden)
    h = (widths[0], widths[1], widths[2])
    net = QNet.__new__(QNet)  # not QNet(...): that would draw random weights of a size the file chose
    net.obs_size, net.act_size, net.hidden = obs, act, h
    _names(name, "net.obs_columns", shape.get("obs_columns"), obs)
    _names(name, "net.act_columns", shape.get("act_columns"), act)
    net.p = {k: _array(name, data, k, s) for k, s in _shapes(obs, act, h).items()}
    for k in PARAMS:
        data.pop(k)
    check_play_meta(name, meta)
    return net, meta, data


def columns_of(meta: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The observation's and the action's column names of a checked weights file's meta."""
    return tuple(meta["net"]["obs_columns"]), tuple(meta["net"]["act_columns"])


@dataclass(frozen=True)
class Fit:
    """What reading a network by name did: the columns it had no weights for (zero rows), and those
    it had that this layout lacks (dropped: a part that is not registered here, so never non-zero)."""

    new: tuple[str, ...]
    gone: tuple[str, ...]


def fit_columns(
    net: QNet, meta: dict[str, Any], obs_columns: tuple[str, ...], act_columns: tuple[str, ...]
) -> tuple[QNet, Fit]:
    """The network of a weights file laid out for ``obs_columns`` and ``act_columns``: each column's
    first-layer row is the file's row of the same name, zero where the file names none.  Done once, at
    load: the network it returns plays at the speed of one trained for this layout."""
    file_obs, file_act = columns_of(meta)
    if (file_obs, file_act) == (obs_columns, act_columns):
        return net, Fit((), ())
    out = net.copy()
    new: list[str] = []
    gone: list[str] = []
    for key, have, want in (("w_obs", file_obs, obs_columns), ("w_act", file_act, act_columns)):
        at = {c: i for i, c in enumerate(have)}
        w = np.zeros((len(want), net.hidden[0]), np.float32)
        for i, c in enumerate(want):
            j = at.get(c)
            if j is None:
                new.append(c)
            else:
                w[i] = net.p[key][j]
        wanted = set(want)
        gone += [c for c in have if c not in wanted]
        out.p[key] = w
    if len(new) == len(obs_columns) + len(act_columns):
        raise WeightsError("the weights name none of the columns this installation encodes: another network's file")
    out.obs_size, out.act_size = len(obs_columns), len(act_columns)
    return out, Fit(tuple(new), tuple(gone))


def weights_arrays(net: QNet, meta: dict[str, Any]) -> dict[str, Any]:
    """The arrays of a weights file of a network of this code's layout (its columns named as
    ``learn.features`` names them; ``learned_kinds`` the trainer's unless ``meta`` says);
    :class:`WeightsError` for a network with a non-finite number or of another layout."""
    from .features import ACT_COLUMNS, OBS_COLUMNS, PLAY_MODES

    for k, v in net.p.items():
        if not np.isfinite(v).all():
            raise WeightsError(f"the network's {k} holds numbers that are not finite (NaN or inf); it is not written")
    if (net.obs_size, net.act_size) != (len(OBS_COLUMNS), len(ACT_COLUMNS)):
        raise WeightsError(
            f"the network reads {net.obs_size} and {net.act_size} columns, this layout has "
            f"{len(OBS_COLUMNS)} and {len(ACT_COLUMNS)}: fit it first (fit_columns); it is not written"
        )
    shape = {
        "format": FORMAT,
        "obs_size": net.obs_size,
        "act_size": net.act_size,
        "hidden": list(net.hidden),
        "obs_columns": list(OBS_COLUMNS),
        "act_columns": list(ACT_COLUMNS),
    }
    learned = meta.get("learned_kinds", sorted(PLAY_MODES))
    arrays: dict[str, Any] = dict(net.p)
    arrays["meta"] = np.array(json.dumps({**meta, "learned_kinds": learned, "net": shape}, ensure_ascii=False))
    return arrays


def load_weights(path: str | Path, *, run_file: bool = False) -> tuple[QNet, dict[str, Any], dict[str, Any]]:
    """A weights file, checked.  ``run_file``: a file of a run folder (a link there is refused)."""
    return parse_weights(str(path), read_npz(path, run_file=run_file))


def save_weights(path: str | Path, net: QNet, meta: dict[str, Any], *, run_file: bool = False) -> None:
    """Write a weights file completely or not at all (through the output-path rule)."""
    write_npz(path, weights_arrays(net, meta), run_file=run_file)


@dataclass
class Checkpoint:
    """A run's state as a checkpoint holds it: the network, Adam's state and the meta (counters, settings)."""

    net: QNet
    adam_m: dict[str, FloatArray]
    adam_v: dict[str, FloatArray]
    adam_t: int
    meta: dict[str, Any]


def parse_checkpoint(name: str, data: dict[str, Any]) -> Checkpoint:
    """A checkpoint's arrays, every field checked; :class:`WeightsError` names the first one wrong."""
    net, meta, rest = parse_weights(name, data)
    check_run_meta(name, meta)
    for key in COUNTERS:
        _whole(name, key, meta.get(key))
    _number(name, "seconds", meta.get("seconds"))
    if type(meta.get("follow_greedy")) is not bool:
        raise WeightsError(f"{name}: follow_greedy must be true or false, not {_show(meta.get('follow_greedy'))}")
    m = {k: _array(name, rest, f"adam_m_{k}", v.shape) for k, v in net.p.items()}
    v = {k: _array(name, rest, f"adam_v_{k}", a.shape) for k, a in net.p.items()}
    for k, a in v.items():
        if (a < 0).any():
            raise WeightsError(f"{name}: adam_v_{k} holds negative numbers (a second moment is never below 0)")
    t = rest.get("adam_t")
    if not isinstance(t, np.ndarray) or t.shape != () or t.dtype.kind not in "iu" or int(t) < 0:
        raise WeightsError(f"{name}: adam_t must be a whole number ≥ 0 (Adam's step count)")
    return Checkpoint(net, m, v, int(t), meta)


def load_checkpoint(path: str | Path) -> Checkpoint:
    """A run folder's checkpoint, checked (a link, a FIFO or a device there is refused unread)."""
    return parse_checkpoint(str(path), read_npz(path, run_file=True))


def save_checkpoint(path: str | Path, net: QNet, adam: Adam, meta: dict[str, Any]) -> None:
    """Write a checkpoint completely or not at all; a network or Adam state with a NaN is never written."""
    arrays = weights_arrays(net, meta)
    for which, moments in (("m", adam.m), ("v", adam.v)):
        for k, a in moments.items():
            if not np.isfinite(a).all():
                raise WeightsError(
                    f"Adam's {which} of {k} holds numbers that are not finite; the checkpoint is not written"
                )
            arrays[f"adam_{which}_{k}"] = a
    arrays["adam_t"] = np.array(adam.t)
    write_npz(path, arrays, run_file=True)


__all__ = [
    "FORMAT",
    "PARAMS",
    "Checkpoint",
    "Fit",
    "WeightsError",
    "check_play_meta",
    "check_run_meta",
    "check_trained_over",
    "columns_of",
    "fit_columns",
    "load_checkpoint",
    "load_weights",
    "parse_checkpoint",
    "parse_weights",
    "save_checkpoint",
    "save_weights",
    "weights_arrays",
]


def save(path: str | Path, net: QNet, meta: dict[str, Any], extra: dict[str, Any] | None = None) -> None:
    """A weights file (:func:`save_weights`) with ``extra`` arrays beside it."""
    write_npz(path, {**weights_arrays(net, meta), **(extra or {})}, run_file=False)


def load(path: str | Path) -> tuple[QNet, dict[str, Any], dict[str, Any]]:
    """A weights file, checked: the network, its meta, and any other arrays it holds.  WeightsError if
    unreadable or wrong in any field."""
    return load_weights(path)
