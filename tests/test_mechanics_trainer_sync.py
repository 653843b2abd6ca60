"""The HF Trainer's per-micro-batch host sync (issue 35 round 8, helper ftoos8).

``Trainer._inner_training_loop`` tests ``torch.isnan(tr_loss_step) or torch.isinf(tr_loss_step)`` in a Python ``if``
after every ``training_step`` (``logging_nan_inf_filter``, default True): each micro-batch's forward starts on an idle
GPU, so a forward that the host issues more slowly than the GPU runs it delays the backward's GPU work:
micro-batch time = max(G, H, H_fwd + G_bwd). Hand values on :func:`timing.host_waits`.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gpuplanner.core import timing as T


def _lay(host, host_fwd, fwd_share):
    return {"ops": T._ScalarOps, "m": SimpleNamespace(moe_frac=0.0), "host_mb": host, "host_fwd_mb": host_fwd,
            "fwd_share": fwd_share, "moe_syncs": False, "moe_host_exp_f": 0.0, "moe_host_rest_f": 0.0,
            "moe_host_b": 0.0, "hfmoe_loop_mb": 0.0, "hfmoe_fwd_share": 0.0}


def _launch(lay, gpu):
    return T.host_waits(lay, 1.0, gpu, 0.0, 0.0, 0.0, 0.0)[0]


def test_forward_issue_bound_delays_the_backward():
    # G = 100 ms (forward 40, backward 60), H = 80 ms of which 50 in the forward: H_fwd + G_bwd = 110 ms
    assert _launch(_lay(0.080, 0.050, 0.4), 0.100) == pytest.approx(0.010)


def test_no_change_where_either_bound_already_holds():
    # the forward's issue under its GPU time: only the whole-micro-batch floor (max(H - G, 0))
    assert _launch(_lay(0.080, 0.030, 0.4), 0.100) == pytest.approx(0.0)
    assert _launch(_lay(0.130, 0.050, 0.4), 0.100) == pytest.approx(0.030)
    # a loop without the sync (host_fwd_mb 0: torchtitan, Megatron) keeps max(H - G, 0)
    assert _launch(_lay(0.080, 0.0, 0.4), 0.100) == pytest.approx(0.0)


def test_which_tools_sync():
    assert set(T.HOST_SYNC_PER_MICROBATCH_TOOLS) == {"hf", "trl", "llamafactory", "ms-swift", "axolotl", "unsloth",
                                                     "deepspeed"}
    assert "fsdp" not in T.HOST_SYNC_PER_MICROBATCH_TOOLS and "megatron" not in T.HOST_SYNC_PER_MICROBATCH_TOOLS
