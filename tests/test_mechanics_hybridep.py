"""Issue 35 round 5 (helper bridge5): HybridEP's measured rates for the flex dispatcher inside one NVLink domain."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from gpuplanner.core import timing as T
from gpuplanner.core.arrayops import ArrayOps, ScalarOps


def test_flex_dest_ranks_hand_derived():
    """A token's 8 experts of 128, drawn uniformly: it misses a rank holding 8 experts (16 ranks) with probability
    Π_{i<8} (120 − i)/(128 − i) = 0.5877, so it goes to 16 × 0.4123 = 6.597 distinct ranks (own rank included);
    32 ranks of 4 experts: 7.359; 8 ranks of 16: 5.339."""
    m = SimpleNamespace(n_experts=128, k_active=8, h=4096)
    miss = 1.0
    for num, den in zip(range(120, 112, -1), range(128, 120, -1)):
        miss *= num / den
    assert miss == pytest.approx(0.58772, abs=1e-5)
    assert T.flex_dest_ranks(m, 16) == pytest.approx(6.5965, abs=1e-4)
    assert T.flex_dest_ranks(m, 32) == pytest.approx(7.3594, abs=1e-4)
    assert T.flex_dest_ranks(m, 8) == pytest.approx(5.3394, abs=1e-4)
    # element-wise on arrays, the same numbers
    arr = T.flex_dest_ranks(m, ArrayOps.f([8, 16, 32]), ArrayOps)
    assert list(arr) == pytest.approx([5.3394, 6.5965, 7.3594], abs=1e-4)


def test_hybridep_rates_read_from_the_readme_table():
    """DeepEP hybrid-ep README, GB200, BF16, Torch API, 32 SMs: 16 ranks dispatch 523.48 / combine 521.55 GB/s;
    20 ranks halfway to 24 ranks' 507.32 / 483.76; 64 ranks held at 36 ranks' 479.02 / 447.89."""
    assert T.hybridep_nvl_rates(16) == (pytest.approx(523.48e9), pytest.approx(521.55e9))
    assert T.hybridep_nvl_rates(20) == (pytest.approx(515.40e9), pytest.approx(502.655e9))
    assert T.hybridep_nvl_rates(64) == (pytest.approx(479.02e9), pytest.approx(447.89e9))
    # the README's own case (16 ranks, 4,096 tokens, h 7,168) at 16 SMs, 472.84 GB/s: 0.819 ms per dispatch
    rows = 4096 * 6.596512811
    assert rows * 7168 * 2 / 472.84e9 == pytest.approx(0.819e-3, rel=1e-3)


def test_hybridep_layer_seconds_hand_derived():
    """EP 32 on NVLink 5, 4,096 tokens, h 4,096, 128 experts top-8: 4,096 × 7.3594 = 30,144 rows of 8,192 bytes per
    pass, forward and backward each a dispatch and a combine: 2 × 246.9 MB × (1/484.22 + 1/464.54) GB/s = 2.083 ms.
    Half NVLink 5's rate (a 450 GB/s NVLink 4 GPU): twice the time."""
    m = SimpleNamespace(n_experts=128, k_active=8, h=4096)
    lay = {"ops": ScalarOps, "m": m, "tokens_mb": 4096.0, "tp": 1.0, "ep": 32.0}
    p2p5 = T.NVLINK_P2P_FRACTION * 900e9
    assert T.hybridep_nvl_seconds(lay, p2p5) == pytest.approx(2.0831e-3, rel=1e-4)
    assert T.hybridep_nvl_seconds(lay, p2p5 / 2) == pytest.approx(2 * 2.0831e-3, rel=1e-4)


def _bridge_moe():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_time as V

    return V


def test_bridge_moe_flex_rows_in_one_nvlink_domain():
    """The GB200 rows on HybridEP inside the NVL72 domain: the per-copy NCCL rate (0.87 × 900 GB/s) priced EP 32/64
    dispatches 1.6× too fast against HybridEP's measured 460–480 GB/s. After: GB200 Qwen3-235B 26.04.01 +24% → +11%,
    DeepSeek-V3 26.04.01 +16% → +5%; rows on the all-to-all or across domains unchanged (B200 DeepSeek-V3, DeepEP
    over 4 nodes, stays at −20%); table 38.5% / 74.0% → 37.8% / 74.0%."""
    V = _bridge_moe()
    res = V.bridge_moe_results()
    n, med, p90 = V.bridge_moe_stats(res)
    assert n == 24 and med < 0.38 and p90 < 0.745
    # since helper moe6 the output layer sits on the last pipeline stage (pp_imbalance): the pipelined rows below
    # are 1–10 points slower than when this test was written (GB200 Qwen3-235B +11% → +1%)
    err = {(r["row"][0], r["row"][1], r["row"][2], r["row"][3]): r["pred"] / r["pub"] - 1 for r in res}
    # (−10% since helper moe7: Grace issues the per-layer MoE host work 2.75× slower, timing.HOST_CPU_FACTOR; the
    # recipe CUDA-graphs the attention block, not represented)
    assert -0.13 < err[("26.04.01", "GB200", "qwen3-235b-a22b", "fp8")] < 0.06
    assert -0.06 < err[("26.04.01", "GB200", "deepseek-v3", "fp8")] < 0.04
    # (+8.6% → +6.7% since round 12: the recipe's recompute_modules mla_up_proj re-runs the MLA up projections)
    assert 0.05 < err[("25.11", "GB200", "deepseek-v3", "bf16")] < 0.17
    # (−36% since helper moe10: across nodes the flex dispatcher runs at HybridEP's measured H100 IB rates,
    # timing.HYBRIDEP_IB_GBS; the recipe's moe_a2a_overlap, which hides much of it, is not represented; bwattn7's
    # Blackwell attention backward moves it about one point further)
    assert -0.42 < err[("26.04.01", "B200", "deepseek-v3", "fp8")] < -0.30
    # all-to-all: unchanged here (+55% → +49% since helper bwattn7: Blackwell attention backward at cuDNN's rate;
    # +49% → +37% since helper moe11: the all-to-all dispatcher's own host kernels, timing.MOE_DISPATCH_HOST_OPS, at
    # Grace's 2.75× bind this one-micro-batch row)
    assert 0.32 < err[("25.11", "GB200", "gpt-oss-120b", "bf16")] < 0.42


# ---- squared ReLU (Nemotron-3/4): two eager kernels in the MLP activation

_NEMOTRON_HF = {"model_type": "nemotron", "hidden_size": 6144, "num_attention_heads": 48, "num_key_value_heads": 8,
                "num_hidden_layers": 32, "intermediate_size": 24576, "vocab_size": 256000, "hidden_act": "relu2",
                "tie_word_embeddings": False}


def test_relu2_config_is_a_plain_mlp_with_squared_relu():
    """HF's Nemotron (``NemotronMLP``: up_proj, relu2, down_proj) has no gate: 2 × 6,144 × 24,576 = 302 M MLP weights
    per layer, not 3 × (the SwiGLU reading before)."""
    from gpuplanner.core.architecture import arch_from_hf_config

    a = arch_from_hf_config(_NEMOTRON_HF)
    assert a.gated_mlp is False and a.mlp_act == "relu2"
    b = arch_from_hf_config({**_NEMOTRON_HF, "hidden_act": "silu", "model_type": "llama"})
    assert b.gated_mlp is True and b.mlp_act == "silu"


def _nemotron15(**model):
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_bridge_dense as D

    base = {k: v for k, v in D.NEMOTRON4_15B.items() if k != "hidden_act"}
    return resolve(scenario_from_dict({"model": {**base, **model}, "training": {"framework": "megatron"},
                                       "hardware": {"gpu": "b200-180gb", "num_gpus": 8}}))


def test_squared_relu_activation_traffic_hand_derived():
    """Nemotron-4 15B (h 6,144, f 24,576, 48 q heads of 128, 8 KV heads): the split element-wise traffic per token and
    layer is (2f + 2(q + k)) × 2 bytes (activation; RoPE reads and writes q and k) = (49,152 + 2 × (6,144 + 1,024)) × 2
    = 126,976 bytes with a fused activation;
    squared ReLU adds 2f × 2 = 98,304 bytes (relu and pow each read and write f); eager (unfused) kernels count the
    plain MLP's 2f three times (UNFUSED_FACTOR) but squared ReLU's 4f once; torch.compile fuses it back to 2f."""
    plain = _nemotron15().facts
    sq = _nemotron15(hidden_act="relu2").facts
    _, s0 = T.elementwise_bytes_per_token_layer(plain, 4096, True, True, ScalarOps)
    _, s1 = T.elementwise_bytes_per_token_layer(sq, 4096, True, True, ScalarOps)
    assert s0 == pytest.approx(126976.0)
    assert s1 - s0 == pytest.approx(98304.0)
    _, e0 = T.elementwise_bytes_per_token_layer(plain, 4096, True, False, ScalarOps)
    _, e1 = T.elementwise_bytes_per_token_layer(sq, 4096, True, False, ScalarOps)
    assert e0 == pytest.approx(126976.0 * 3)
    assert e1 - e0 == pytest.approx((4.0 - 6.0) * 24576 * 2)
    _, c1 = T.elementwise_bytes_per_token_layer(sq, 4096, True, True, ScalarOps, eager_act=False)
    assert c1 == pytest.approx(s0)


def test_nemotron_rows_move_toward_published():
    """Every Nemotron-3/4 row of the dense Bridge/NeMo table gets slower with the eager squared ReLU (published
    NeMo 25.04 GB200 Nemotron-4 15B 17,809 tok/s: +13.6% → +10.3%), no other row moves."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    import validate_bridge_dense as D

    res = D.results()
    err = {r["row"][:4]: r["pred"] / r["pub"] - 1 for r in res}
    # (+7.9% since helper bwattn7: Blackwell attention backward at cuDNN's measured rate; +1.8% since fsdp8's
    # compute slowed beside the hidden data-parallel collectives)
    assert 0.0 < err[("NeMo 25.04", "GB200", "nemotron4-15b", "cs")] < 0.12
    assert 0.02 < err[("NeMo 24.07", "H100", "nemotron3-8b", "ds")] < 0.07
    n, med, p90, _ = D.stats(res)
    assert n == 79 and med < 0.053 and p90 < 0.168


def test_squared_relu_on_a_gated_mlp_is_refused():
    """The choice is costed for a plain MLP only: on a gated one it would be dropped silently, so it is refused."""
    from gpuplanner.core.errors import ScenarioError
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    with pytest.raises(ScenarioError, match="gated_mlp") as e:
        resolve(scenario_from_dict({"model": {"preset": "llama-3-8b", "hidden_act": "relu2"}}))
    assert "\n" not in str(e.value)
    with pytest.raises(ScenarioError):
        scenario_from_dict({"model": {"preset": "llama-3-8b", "hidden_act": "relu2; rm -rf"}})
