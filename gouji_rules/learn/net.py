"""The Q-network: an MLP over (observation, action) pairs, in numpy, with its weights file.

Why the first layer is split: a decision has one observation and up to a thousand legal
actions.  ``obs @ W_obs`` is computed once per decision and broadcast over the legal rows, so
scoring every legal action costs one small matrix product per layer (DouZero's trick made cheap).

Why numpy: playing must need no deep-learning framework, and a ~100k-parameter net trains fast
enough on a CPU with manual backprop and Adam.

The weights file (an ``.npz`` of the parameters and a ``meta`` entry of JSON text) and the
checkpoint are defined, written and checked in :mod:`gouji_rules.learn.checkpoint` (``save`` and
``load`` live there), which imports this module and never the other way round.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..errors import GoujiError

FloatArray = npt.NDArray[np.float32]
_ONE_THREAD = [False]


def one_blas_thread() -> None:
    """Run numpy's BLAS on one thread in this process (once; later calls do nothing).

    Why: the network's matrices are small (a decision has a few to a thousand rows), and
    OpenBLAS's threads spin against each other and every other process: measured on a loaded
    2-core machine, a 200×256 by 256×128 product took 14 ms with its threads and 0.7 ms without.
    """
    if _ONE_THREAD[0]:
        return
    _ONE_THREAD[0] = True
    from threadpoolctl import threadpool_limits

    threadpool_limits(1, user_api="blas")


class WeightsError(GoujiError):
    """A weights file that cannot be read, or that does not fit this code's network."""


class QNet:
    """Q(obs, action) = MLP(relu(obs·W_obs + action·W_act + b1)) with two more hidden layers."""

    def __init__(self, obs_size: int, act_size: int, hidden: tuple[int, int, int] = (256, 128, 64), seed: int = 0):
        self.obs_size, self.act_size, self.hidden = obs_size, act_size, hidden
        rng = np.random.default_rng(seed)
        h1, h2, h3 = hidden

        def he(fan_in: int, shape: tuple[int, ...]) -> FloatArray:
            out: FloatArray = (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
            return out

        fan1 = obs_size + act_size
        self.p: dict[str, FloatArray] = {
            "w_obs": he(fan1, (obs_size, h1)),
            "w_act": he(fan1, (act_size, h1)),
            "b1": np.zeros(h1, np.float32),
            "w2": he(h1, (h1, h2)),
            "b2": np.zeros(h2, np.float32),
            "w3": he(h2, (h2, h3)),
            "b3": np.zeros(h3, np.float32),
            "w4": (rng.standard_normal(h3) * np.sqrt(1.0 / h3)).astype(np.float32),
            "b4": np.zeros(1, np.float32),
        }

    @property
    def size(self) -> int:
        """Number of parameters."""
        return sum(int(a.size) for a in self.p.values())

    def q(self, obs: FloatArray, acts: FloatArray) -> FloatArray:
        """Q of each row of ``acts`` (n × act_size) in the position ``obs`` (obs_size)."""
        p = self.p
        h = acts @ p["w_act"]
        h += obs @ p["w_obs"] + p["b1"]
        np.maximum(h, 0.0, out=h)
        h = h @ p["w2"]
        h += p["b2"]
        np.maximum(h, 0.0, out=h)
        h = h @ p["w3"]
        h += p["b3"]
        np.maximum(h, 0.0, out=h)
        out: FloatArray = h @ p["w4"] + p["b4"][0]
        return out

    def loss_and_grads(
        self, obs: FloatArray, acts: FloatArray, target: FloatArray
    ) -> tuple[float, dict[str, FloatArray]]:
        """Mean squared error ½·mean((Q − target)²) over a batch of rows, and its gradient."""
        p = self.p
        n = len(target)
        z1 = obs @ p["w_obs"] + acts @ p["w_act"] + p["b1"]
        h1 = np.maximum(z1, 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        h3 = np.maximum(h2 @ p["w3"] + p["b3"], 0.0)
        q = h3 @ p["w4"] + p["b4"][0]
        err = q - target
        loss = float(0.5 * np.mean(err * err))
        dq = err / n
        g: dict[str, FloatArray] = {"w4": h3.T @ dq, "b4": np.array([dq.sum()], dtype=dq.dtype)}
        d3 = np.outer(dq, p["w4"]) * (h3 > 0)
        g["w3"], g["b3"] = h2.T @ d3, d3.sum(0)
        d2 = (d3 @ p["w3"].T) * (h2 > 0)
        g["w2"], g["b2"] = h1.T @ d2, d2.sum(0)
        d1 = (d2 @ p["w2"].T) * (z1 > 0)
        g["w_obs"], g["w_act"], g["b1"] = obs.T @ d1, acts.T @ d1, d1.sum(0)
        return loss, g

    def loss(self, obs: FloatArray, acts: FloatArray, target: FloatArray) -> float:
        """½·mean((Q − target)²) over a batch of rows."""
        return self.loss_and_grads(obs, acts, target)[0]

    def copy(self) -> QNet:
        """An independent copy (the strength figure measures a frozen network while training goes on)."""
        out = QNet.__new__(QNet)
        out.obs_size, out.act_size, out.hidden = self.obs_size, self.act_size, self.hidden
        out.p = {k: v.copy() for k, v in self.p.items()}
        return out


class Adam:
    """Adam over a QNet's parameters (Kingma & Ba), with its moments kept for checkpoints."""

    def __init__(self, net: QNet, lr: float = 5e-4, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8):
        self.lr, self.b1, self.b2, self.eps = lr, b1, b2, eps
        self.t = 0
        self.m = {k: np.zeros_like(v) for k, v in net.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in net.p.items()}

    def step(self, net: QNet, grads: dict[str, FloatArray]) -> None:
        """One Adam update of ``net`` in place from ``grads``, the moments kept here (and in checkpoints)."""
        self.t += 1
        c1 = 1.0 - self.b1**self.t
        c2 = 1.0 - self.b2**self.t
        for k, g in grads.items():
            m, v = self.m[k], self.v[k]
            m *= self.b1
            m += (1.0 - self.b1) * g
            v *= self.b2
            v += (1.0 - self.b2) * (g * g)
            net.p[k] -= (self.lr / c1) * m / (np.sqrt(v / c2) + self.eps)
