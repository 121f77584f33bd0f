"""The Q-network: its gradient is the loss's, Adam lowers the loss on a fixed batch, and a
weights file comes back as it was written (or fails with a clear error)."""

import numpy as np
import pytest

from gouji_rules.learn.checkpoint import load, save
from gouji_rules.learn.features import ACT_SIZE, OBS_SIZE
from gouji_rules.learn.net import Adam, QNet, WeightsError


def _batch(n: int = 64, obs: int = 7, act: int = 5, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, obs)).astype(np.float32)
    a = rng.standard_normal((n, act)).astype(np.float32)
    y = (np.sin(x[:, 0]) + a[:, 1] * x[:, 2]).astype(np.float32)
    return x, a, y


def test_gradient_matches_finite_differences() -> None:
    net = QNet(7, 5, (6, 5, 4), seed=3)
    net.p = {k: v.astype(np.float64) for k, v in net.p.items()}  # float64: differences, not rounding
    x, a, y = (v.astype(np.float64) for v in _batch(16))
    _, grads = net.loss_and_grads(x, a, y)
    for name, p in net.p.items():
        for i in np.ndindex(p.shape):
            old = float(p[i])
            p[i] = old + 1e-6
            up = net.loss(x, a, y)
            p[i] = old - 1e-6
            down = net.loss(x, a, y)
            p[i] = old
            assert abs((up - down) / 2e-6 - float(grads[name][i])) < 1e-7, name


def test_adam_lowers_the_loss_on_a_fixed_batch() -> None:
    net = QNet(7, 5, (32, 16, 8), seed=0)
    x, a, y = _batch(128)
    opt = Adam(net, lr=3e-3)
    before = net.loss(x, a, y)
    for _ in range(300):
        opt.step(net, net.loss_and_grads(x, a, y)[1])
    assert net.loss(x, a, y) < 0.3 * before


def test_q_of_a_decision_is_the_batch_forward_of_its_rows() -> None:
    net = QNet(7, 5, (6, 5, 4), seed=2)
    x, a, _ = _batch(9)
    one = net.q(x[0], a)
    rows = np.repeat(x[:1], len(a), axis=0)
    z = np.maximum(rows @ net.p["w_obs"] + a @ net.p["w_act"] + net.p["b1"], 0)
    z = np.maximum(z @ net.p["w2"] + net.p["b2"], 0)
    z = np.maximum(z @ net.p["w3"] + net.p["b3"], 0)
    assert np.allclose(one, z @ net.p["w4"] + net.p["b4"][0], atol=1e-5)


def test_weights_file_round_trip(tmp_path) -> None:
    net = QNet(OBS_SIZE, ACT_SIZE, (6, 5, 4), seed=4)  # a file names its columns: a network of this layout
    save(tmp_path / "w.npz", net, {"variant": "dagang", "seed": 4})
    back, meta, _ = load(tmp_path / "w.npz")
    assert meta["variant"] == "dagang" and meta["net"]["hidden"] == [6, 5, 4]
    assert all(np.array_equal(back.p[k], net.p[k]) for k in net.p)
    assert [p.name for p in tmp_path.iterdir()] == ["w.npz"]  # no temporary file left


def test_a_file_that_is_not_weights_is_a_clear_error(tmp_path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_text("not a zip")
    with pytest.raises(WeightsError, match=r"bad\.npz: not a weights file"):
        load(bad)
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(WeightsError, match=r"other\.npz"):
        load(tmp_path / "other.npz")
