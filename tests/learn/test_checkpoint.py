"""The checkpoint and weights format (learn/checkpoint.py): every damaged or foreign form is refused
on load with the file's name and what is wrong, never numpy's traceback, never trained on.

One case per form the attack batteries found; when the format changes, these change with it."""

import json
import os
import re

import numpy as np
import pytest

from gouji_rules.errors import GoujiError
from gouji_rules.learn.checkpoint import load_checkpoint, load_weights, save
from gouji_rules.learn.features import ACT_COLUMNS, ACT_SIZE, OBS_COLUMNS, OBS_SIZE
from gouji_rules.learn.net import QNet, WeightsError
from gouji_rules.learn.train import TrainConfig, Trainer

TINY = (16, 8, 8)


def _config(out, **kw) -> TrainConfig:
    base = dict(variant="dagang", out=str(out), seed=3, hands_per_unit=1, batch=32, buffer=2000, hidden=TINY)
    base.update(kw)
    return TrainConfig(**base)


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> dict:
    """The arrays of a real checkpoint (a run's first, before any training) and of its best.npz."""
    run = tmp_path_factory.mktemp("run")
    t = Trainer(_config(run))
    t.checkpoint()
    with np.load(run / "checkpoint.npz") as z:
        arrays = {k: z[k] for k in z.files}
    return arrays


CLUBS = {"count": 3, "seed": 7, "bases": ["dagang"], "ranges": {"burn.teammate": [True, False]}}


def _meta(arrays: dict, **changes) -> dict:
    meta = json.loads(str(arrays["meta"]))
    meta.update(changes)
    return {**arrays, "meta": np.array(json.dumps(meta))}


def _net(arrays: dict, **changes) -> dict:
    """The arrays with the meta's ``net`` changed (``None``: the key removed)."""
    meta = json.loads(str(arrays["meta"]))
    net = {**meta["net"], **changes}
    meta["net"] = {k: v for k, v in net.items() if v is not None}
    return {**arrays, "meta": np.array(json.dumps(meta))}


def _nan(key: str, value: float = np.nan):
    def change(a: dict) -> dict:
        bad = a[key].copy()
        bad.flat[0] = value
        return {**a, key: bad}

    return change


DAMAGED = {
    "counters as text": (lambda a: _meta(a, decisions="1000"), r"decisions must be a whole number"),
    "a negative counter": (lambda a: _meta(a, units=-1), r"units must be a whole number"),
    "seconds as text": (lambda a: _meta(a, seconds="NaN"), r"seconds must be a finite number"),
    "config as a list": (lambda a: _meta(a, config=[1, 2]), r"config must be an object"),
    "teacher_worlds as text": (lambda a: _meta(a, config={"teacher_worlds": "4"}), r"config\.teacher_worlds"),
    "matches of a billion hands": (
        lambda a: _meta(a, config={"eval_match_hands": 10**9}),
        r"config\.eval_match_hands must be a whole number",
    ),
    "a guard nobody knows": (lambda a: _meta(a, config={"guards": ["nap"]}), r"config\.guards: no blunder named 'nap'"),
    "follow_greedy as a number": (lambda a: _meta(a, follow_greedy=2), r"follow_greedy must be true or false"),
    "variant as a list": (lambda a: _meta(a, variant=["dagang"]), r"variant must be the variant's name"),
    "evals not figures": (lambda a: _meta(a, evals=[{"pairs": 1}]), r"evals\[0\] is not a strength figure"),
    "an eval of NaN": (
        lambda a: _meta(a, evals=[{"pairs": 1, "vs_greedy": None, "ci95": [0, 1]}]),
        r"evals\[0\]\.vs_greedy must be a finite number",
    ),
    "meta not JSON": (lambda a: {**a, "meta": np.array("{not json")}, r"meta is not JSON"),
    "meta a list": (lambda a: {**a, "meta": np.array("[1]")}, r"meta must be a JSON object"),
    "another format": (lambda a: _net(a, format=3), r"another format \(3; this code reads format 2\)$"),
    "format 1 (columns by position)": (
        lambda a: _net(a, format=1),
        r"another format \(1; this code reads format 2\): convert them with python training/name_columns\.py",
    ),
    "sizes a file cannot mean": (
        lambda a: _net(a, hidden=[10**9, 1, 1]),
        r"net\.hidden must be a whole number from 1 to 65536",
    ),
    "weights of other widths than the meta says": (
        lambda a: _net(a, hidden=[32, 8, 8]),
        rf"w_obs has the shape \({OBS_SIZE}, 16\), but the network's is \({OBS_SIZE}, 32\)",
    ),
    "columns not named": (lambda a: _net(a, obs_columns=None), r"net\.obs_columns must be a list of names"),
    "column names not texts": (
        lambda a: _net(a, act_columns=list(range(ACT_SIZE))),
        r"net\.act_columns must be a list of names",
    ),
    "fewer names than columns": (
        lambda a: _net(a, obs_columns=list(OBS_COLUMNS[:-1])),
        rf"net\.obs_columns names {OBS_SIZE - 1} columns, but the network reads {OBS_SIZE}",
    ),
    "a column named twice": (
        lambda a: _net(a, act_columns=[*ACT_COLUMNS[:-1], ACT_COLUMNS[0]]),
        r"net\.act_columns names \"spend\.3\" twice",
    ),
    "learned kinds missing": (
        lambda a: {
            **a,
            "meta": np.array(json.dumps({k: v for k, v in json.loads(str(a["meta"])).items() if k != "learned_kinds"})),
        },
        r"learned_kinds must be a list of names",
    ),
    "learned kinds not texts": (lambda a: _meta(a, learned_kinds="lead"), r"learned_kinds must be a list of names"),
    "trained_over a list": (lambda a: _meta(a, trained_over=["dagang"]), r"trained_over must be an object"),
    "trained_over with a stray key": (
        lambda a: _meta(a, trained_over={"variants": ["dagang"], "by": "me"}),
        r"trained_over must be an object of variants and clubs",
    ),
    "trained_over names no variant": (
        lambda a: _meta(a, trained_over={"variants": []}),
        r"trained_over\.variants must name 1 to",
    ),
    "trained_over variants not texts": (
        lambda a: _meta(a, trained_over={"variants": [1]}),
        r"trained_over\.variants must be a list of names",
    ),
    "trained_over clubs a number": (
        lambda a: _meta(a, trained_over={"variants": ["dagang"], "clubs": 5}),
        r"trained_over\.clubs must be an object",
    ),
    "trained_over clubs count negative": (
        lambda a: _meta(a, trained_over={"variants": ["dagang"], "clubs": {**CLUBS, "count": -1}}),
        r"trained_over\.clubs\.count must be a whole number",
    ),
    "trained_over clubs seed text": (
        lambda a: _meta(a, trained_over={"variants": ["dagang"], "clubs": {**CLUBS, "seed": "7"}}),
        r"trained_over\.clubs\.seed must be a whole number",
    ),
    "trained_over clubs bases missing": (
        lambda a: _meta(a, trained_over={"variants": ["dagang"], "clubs": {**CLUBS, "bases": None}}),
        r"trained_over\.clubs\.bases must be a list of names",
    ),
    "trained_over ranges empty": (
        lambda a: _meta(a, trained_over={"variants": ["dagang"], "clubs": {**CLUBS, "ranges": {}}}),
        r"trained_over\.clubs\.ranges must map option paths",
    ),
    "trained_over a range of no values": (
        lambda a: _meta(a, trained_over={"variants": ["dagang"], "clubs": {**CLUBS, "ranges": {"burn.teammate": []}}}),
        r"trained_over\.clubs\.ranges\.burn\.teammate must be a list of values",
    ),
    "a weight missing": (lambda a: {k: v for k, v in a.items() if k != "b3"}, r"b3 is missing"),
    "NaN in a weight": (_nan("w2"), r"w2 holds numbers that are not finite"),
    "inf in a weight": (_nan("b4", np.inf), r"b4 holds numbers that are not finite"),
    "NaN in Adam's first moment": (_nan("adam_m_w_obs"), r"adam_m_w_obs holds numbers that are not finite"),
    "inf in Adam's second moment": (_nan("adam_v_b1", np.inf), r"adam_v_b1 holds numbers that are not finite"),
    "a negative second moment": (_nan("adam_v_w3", -1.0), r"adam_v_w3 holds negative numbers"),
    "optimizer state of the wrong shape": (
        lambda a: {**a, "adam_m_w2": np.zeros((3, 3), np.float32)},
        r"adam_m_w2 has the shape \(3, 3\), but the network's is \(16, 8\)",
    ),
    "weights as integers": (lambda a: {**a, "w4": np.zeros(8, np.int64)}, r"w4 must be an array of floating-point"),
    "adam_t as text": (lambda a: {**a, "adam_t": np.array("7")}, r"adam_t must be a whole number"),
    "best.npz copied over it (no optimizer state)": (
        lambda a: {k: v for k, v in a.items() if not k.startswith("adam_")},
        r"adam_m_w_obs is missing",
    ),
}


@pytest.mark.parametrize("form", list(DAMAGED))
def test_resuming_a_damaged_checkpoint_is_refused_with_its_name_and_what_is_wrong(tmp_path, good, form) -> None:
    change, message = DAMAGED[form]
    ckpt = tmp_path / "checkpoint.npz"
    np.savez(ckpt, **change(dict(good)))
    before = ckpt.read_bytes()
    with pytest.raises(GoujiError, match=message) as e:
        Trainer(_config(tmp_path))
    assert str(e.value).startswith(f"{ckpt}: ") and "\n" not in str(e.value)
    assert ckpt.read_bytes() == before  # refused, never written over


def test_a_truncated_checkpoint_is_refused(tmp_path, good) -> None:
    whole = tmp_path / "whole.npz"
    np.savez(whole, **good)
    ckpt = tmp_path / "checkpoint.npz"
    ckpt.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])  # a full disk's or a cut copy's
    whole.unlink()
    with pytest.raises(GoujiError, match=r"checkpoint\.npz: not a weights file .*truncated or damaged"):
        Trainer(_config(tmp_path))
    ckpt.write_bytes(b"")
    with pytest.raises(GoujiError, match=r"checkpoint\.npz: not a weights file"):
        Trainer(_config(tmp_path))


def test_a_checkpoint_packed_with_a_compression_zipfile_cannot_unpack_is_refused(tmp_path, good) -> None:
    """An archive whose members name a compression method zipfile cannot unpack (98, PPMd): one line, not a traceback."""
    import zipfile

    whole = tmp_path / "whole.npz"
    np.savez(whole, **good)
    raw = bytearray(whole.read_bytes())
    with zipfile.ZipFile(whole) as zf:
        offsets = [i.header_offset for i in zf.infolist()]
    for off in offsets:  # the method field of each local header, and of its central directory entry
        raw[off + 8 : off + 10] = (98).to_bytes(2, "little")
    at = raw.find(b"PK\x01\x02")
    while at >= 0:
        raw[at + 10 : at + 12] = (98).to_bytes(2, "little")
        at = raw.find(b"PK\x01\x02", at + 4)
    (tmp_path / "checkpoint.npz").write_bytes(bytes(raw))
    whole.unlink()
    with pytest.raises(GoujiError, match=r"checkpoint\.npz: not a weights file.*NotImplementedError"):
        Trainer(_config(tmp_path))


def test_a_checkpoint_with_a_pickle_inside_is_refused_unread(tmp_path, good) -> None:
    np.savez(tmp_path / "checkpoint.npz", **{**good, "evil": np.array([object()], dtype=object)})
    with pytest.raises(GoujiError, match=r"checkpoint\.npz: not a weights file"):
        Trainer(_config(tmp_path))


def test_another_layouts_checkpoint_is_refused_by_its_columns(tmp_path, good) -> None:
    """A checkpoint resumes only a run of this very layout: its Adam moments are by column too."""
    arrays = _net(good, obs_columns=[*OBS_COLUMNS[:-1], "mode.someone_elses"])
    np.savez(tmp_path / "checkpoint.npz", **arrays)
    lacks = re.escape(OBS_COLUMNS[-1])
    with pytest.raises(GoujiError, match=rf"checkpoint\.npz: a network of other input columns \(it lacks {lacks}"):
        Trainer(_config(tmp_path))


def test_a_network_of_another_layout_is_never_written(tmp_path) -> None:
    from gouji_rules.learn.checkpoint import save_weights

    with pytest.raises(
        WeightsError, match=rf"reads {OBS_SIZE - 1} and {ACT_SIZE} columns, this layout has {OBS_SIZE} and {ACT_SIZE}"
    ):
        save_weights(tmp_path / "w.npz", QNet(OBS_SIZE - 1, ACT_SIZE, TINY), {})
    assert not (tmp_path / "w.npz").exists()


def test_a_good_checkpoint_round_trips_every_field(tmp_path, good) -> None:
    np.savez(tmp_path / "checkpoint.npz", **good)
    ck = load_checkpoint(tmp_path / "checkpoint.npz")
    assert ck.adam_t == 0 and ck.meta["variant"] == "dagang" and ck.net.hidden == TINY
    assert all(np.array_equal(ck.net.p[k], good[k]) for k in ck.net.p)
    assert all(np.array_equal(ck.adam_v[k], good[f"adam_v_{k}"]) for k in ck.net.p)


def test_init_from_non_finite_weights_is_refused(tmp_path) -> None:
    net = QNet(OBS_SIZE, ACT_SIZE, TINY)
    net.p = {k: np.full_like(v, np.nan) for k, v in net.p.items()}
    np.savez(
        tmp_path / "nan.npz",
        **net.p,
        meta=np.array(
            json.dumps(
                {
                    "learned_kinds": ["lead"],
                    "net": {
                        "format": 2,
                        "obs_size": OBS_SIZE,
                        "act_size": ACT_SIZE,
                        "hidden": [16, 8, 8],
                        "obs_columns": list(OBS_COLUMNS),
                        "act_columns": list(ACT_COLUMNS),
                    },
                }
            )
        ),
    )
    with pytest.raises(WeightsError, match=r"--init .*nan\.npz: w_obs holds numbers that are not finite"):
        Trainer(_config(tmp_path / "run", init=str(tmp_path / "nan.npz")))
    assert not (tmp_path / "run").exists()


def test_non_finite_weights_are_never_written(tmp_path) -> None:
    net = QNet(OBS_SIZE, ACT_SIZE, TINY)
    net.p["b2"][0] = np.inf
    with pytest.raises(WeightsError, match="b2 holds numbers that are not finite"):
        save(tmp_path / "w.npz", net, {})
    assert list(tmp_path.iterdir()) == []


def test_weights_files_that_are_no_files_are_refused_without_blocking(tmp_path) -> None:
    fifo = tmp_path / "w.npz"
    os.mkfifo(fifo)  # open(2) without O_NONBLOCK would wait here for a writer forever
    with pytest.raises(WeightsError, match=r"w\.npz: is a pipe \(FIFO\), not a weights file"):
        load_weights(fifo)
    with pytest.raises(WeightsError, match=r"is a folder, not a weights file|cannot be read"):
        load_weights(tmp_path)
