"""Issue 35 round 14 (helper dpo14): servers smaller than the card's board, and the HF Trainer's DeepSpeed gradients.

* ``timing.ep_domain_of``: an HGX/DGX board's NVSwitches join its own 8 GPUs only; a scenario of 2-GPU servers
  (QwenLM/Qwen README @2df8e8a, "two servers, each containing two A100-SXM4-80G GPUs") reduces its gradients over
  ``hardware.inter_node``, not NVLink. Only a rack-scale domain (GB200 NVL72: 72 over 4-GPU trays) spans servers.
* ``time_layout``'s gradient bytes: the HF Trainer with ZeRO is DeepSpeed, which casts the module to 16 bits and
  reduces in ``communication_data_type`` (16-bit): 2 bytes per gradient element, not the autocast DDP's 4.
"""

from __future__ import annotations

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.estimate import resolve
from gpuplanner.core.params import lora_params
from gpuplanner.core.scenario import scenario_from_dict
from gpuplanner.core.timing import time_estimate


def _scn(gpu="a100-sxm-80gb", n=4, gpn=2, net="eth-25", zero=2, method="lora", framework="hf", gbs=32):
    return {"model": {"preset": "llama-2-7b"},
            "training": {"framework": framework, "method": method, "lora_rank": 64, "lora_targets": "all_linear",
                         "seq_len": 256, "micro_batch_size": 1, "global_batch_size": gbs, "recompute": "full",
                         "flash_attention": True},
            "parallel": {"zero": zero},
            "hardware": {"gpu": gpu, "num_gpus": n, "gpus_per_node": gpn, "inter_node": net}}


def _est(d):
    return time_estimate(resolve(scenario_from_dict(d)))


def test_board_domain_does_not_span_small_servers():
    r = resolve(scenario_from_dict(_scn()))
    kw, gf = T.time_kwargs(r)
    # A100 SXM: catalogue nvlink_domain 8 = its 8-GPU board; 2-GPU servers: the node is the domain
    assert int(r.gpu.nvlink_domain) == 8 == int(r.gpu.gpus_per_node)
    assert T.ep_domain_of(r.gpu, gf, 2) is None and kw["ep_domain"] is None
    # GB200 NVL72's rack-scale domain still spans its 4-GPU trays
    g = resolve(scenario_from_dict(_scn(gpu="gb200-186gb", n=16, gpn=4, net="ib-ndr-400")))
    _kw, ggf = T.time_kwargs(g)
    assert T.ep_domain_of(g.gpu, ggf, 4) == 72


def test_small_servers_reduce_over_their_network():
    eth, ib = _est(_scn(net="eth-25")), _est(_scn(net="ib-hdr-200"))
    assert eth.links["dp_comm"].startswith("eth-25") and ib.links["dp_comm"].startswith("ib-hdr-200")
    # the network decides the exposed ZeRO-2 reductions (they failed to move before: NVLink either way)
    assert eth.seconds["dp_comm"] > 5.0 * ib.seconds["dp_comm"]
    # by hand: ZeRO-2 all-reduces the LoRA gradients in 16 bits on each of the 8 micro-batches; one bucket
    # (< reduce_bucket_size), so all of it after the backward; eth-25: one NIC a server, 25 Gb/s x 0.8, shared by
    # the server's two ranks (k_node = 2 rails of nic_per_gpu = per_nic / 2)
    r = resolve(scenario_from_dict(_scn(net="eth-25")))
    p_lora = float(lora_params(r.arch, 64, "all_linear")[0])
    assert 1.5e8 < p_lora < 1.7e8  # Llama-2-7B, r 64 on the 7 linears: 32 x 64 x (3 x 8192 + 2 x 8192 + 3 x 15104)
    per_nic = 25.0 / 8.0 * 0.8 * 1e9
    bytes_mb = 2.0 * 3.0 / 4.0 * p_lora * 2.0
    # and, after the step, ZeRO-2's all-gather of the updated 16-bit adapters: 3/4 of them in, 2 bytes each
    gather = 3.0 / 4.0 * p_lora * 2.0
    assert eth.seconds["dp_comm"] == pytest.approx((8 * bytes_mb + gather) / per_nic, rel=0.02)


def test_one_board_unchanged():
    # 8 GPUs in one 8-GPU server: NVLink, whatever the network
    a, b = _est(_scn(n=8, gpn=8, net="eth-25")), _est(_scn(n=8, gpn=8, net="ib-hdr-200"))
    assert a.links["dp_comm"] == b.links["dp_comm"] == "nvlink"
    assert a.step_time_s == pytest.approx(b.step_time_s)


def test_hf_with_deepspeed_reduces_16bit_gradients():
    # full fine-tuning, 16 GPUs over two 8-GPU servers on one slow NIC each: the reduction is all exposed-ish
    z2 = _est(_scn(method="full", n=16, gpn=8, net="eth-25", zero=2, gbs=16))
    z0 = _est(_scn(method="full", n=16, gpn=8, net="eth-25", zero=0, gbs=16))
    # same bytes rule as DeepSpeed's own framework
    ds = _est(_scn(method="full", n=16, gpn=8, net="eth-25", zero=2, gbs=16, framework="deepspeed"))
    assert z2.seconds["dp_comm"] == pytest.approx(ds.seconds["dp_comm"], rel=0.02)
    # one micro-batch a step: DDP under autocast all-reduces fp32 gradients, 2 x 4 bytes a parameter on the ring;
    # ZeRO-2 all-reduces 16-bit ones (2 x 2) and all-gathers the 16-bit weights after the step (2): 8 / 6
    # (before this round the HF Trainer's ZeRO-2 moved 4-byte gradients: 8 / 10)
    assert z0.seconds["dp_comm"] / z2.seconds["dp_comm"] == pytest.approx(8.0 / 6.0, rel=0.03)
