"""Issue 35 round 16 (postoos16): what open-instruct's four-server DPO figures measure (``bench/validate_post_oos16
.py``). The replica of open-instruct's FLOP count is checked by hand and against the doc's own logged pairs of
(tokens/s, MFU); the derived steps are checked by hand. No modelled number is asserted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import validate_post_oos16 as V  # noqa: E402
import validate_post_oos15 as V15  # noqa: E402


def test_flops_replica_by_hand():
    # per token, per layer: Q, K, V, O projections 4 × 2·4096·4096 = 134.2M; MLP 2·4096·22,016 + 11,008 +
    # 2·11,008·4096 = 270.6M; the LM head 2·4096·100,278 = 821.5M; the scores and values 4·32·128·L + 4·32·L
    # = 16,512·L a layer. Training: × 3.
    proj, mlp = 4 * 2 * 4096 * 4096, 2 * 4096 * 22016 + 11008 + 2 * 11008 * 4096
    head = 2 * 4096 * 100278
    for seq in (1, 849, 2197):
        by_hand = 3 * (32 * (proj + mlp + 16512 * seq) + head)
        assert V.oi_flops_per_token(seq) == pytest.approx(by_hand, rel=1e-12)
    # the sliding window caps the key length of 24 layers only past 4,096 tokens
    assert V.oi_flops_per_token(3000, window=4096, sliding_layers=24) == pytest.approx(V.oi_flops_per_token(3000))
    assert V.oi_flops_per_token(8192, window=4096, sliding_layers=24) < V.oi_flops_per_token(8192)


def test_logged_mfus_fix_the_counted_length():
    # DeepSpeed's two runs, logged independently, give the same counted length (~505 a sequence) ...
    packed = V.implied_len(V15.DS_PACKED_TOK_S_GPU, V.DS_PACKED_MFU)
    unpacked = V.implied_len(V15.DS_UNPACKED_TOK_S_GPU, V.DS_UNPACKED_MFU)
    assert packed == pytest.approx(507, abs=3) and unpacked == pytest.approx(503, abs=3)
    # ... and round 15's 2,197 would have logged 2.95% and 2.06%, beyond the printed figures' rounding
    assert V.oi_mfu(V15.DS_PACKED_TOK_S_GPU, 2197) > V.DS_PACKED_MFU + 0.15
    assert V.oi_mfu(V15.DS_UNPACKED_TOK_S_GPU, 2197) > V.DS_UNPACKED_MFU + 0.1
    # OLMo-core: its rate × step (849 a sequence) reads 8.48% by the formula, logged 8.56% (within 1%)
    oc_rate = V15.OC_DPO_TOK_S_TOTAL / V15.GPUS
    assert V.oi_mfu(oc_rate, V.forward_len(), window=V.WINDOW, sliding_layers=24) == pytest.approx(8.56, rel=0.01)
    # the solver inverts the formula
    assert V.oi_mfu(651.0, V.implied_len(651.0, 2.8)) == pytest.approx(2.8, rel=1e-9)


def test_derived_steps_by_hand():
    # packed: 256 sequences × 507 counted tokens / 20,830 tok/s ≈ 6.2 s; unpacked 256 × 503 / (456 × 32) ≈ 8.8 s
    pub = V.published()
    assert pub["ds_packed"] == pytest.approx(256 * 507 / 20832, rel=0.01)
    assert pub["ds_unpacked"] == pytest.approx(256 * 503 / (456 * 32), rel=0.01)
    # both runs count the same tokens: their steps stand in the ratio of their rates (651 / 456 = 1.43)
    assert pub["ds_unpacked"] / pub["ds_packed"] == pytest.approx(651 / 456, rel=0.02)
    # the printed MFU's precision (± 0.005 points) spans 5.6–6.8 s packed; never the ~27 s of round 15
    lo, hi = V.ds_step_range(V15.DS_PACKED_TOK_S_GPU, V.DS_PACKED_MFU)
    assert 5.5 < lo < pub["ds_packed"] < hi < 7.0
    assert pub["oc_packed"] == V15.OC_DPO_STEP_S


def test_rows_are_the_launch_scripts_settings():
    rs = V.rows()
    assert len(rs) == 3
    for _rid, kind, _src, scn, pub, _note in rs:
        t = scn["training"]
        assert kind == "dpo" and t["objective"] == "dpo" and t["seq_len"] == 16384
        assert t["micro_batch_size"] == 1 and t["global_batch_size"] == 128
        assert scn["hardware"]["num_gpus"] == 32 and scn["hardware"]["gpus_per_node"] == 8
        assert scn["data"]["mean_sample_len"] == 849
        assert t["preference"]["reference"] == "precomputed"
        assert set(pub) == {"step"}
    assert [r[3]["training"]["padding_free"] for r in rs] == [False, True, True]
    assert [r[3]["training"]["framework"] for r in rs] == ["deepspeed", "deepspeed", "fsdp"]


def test_prime_rl_rows_arithmetic():
    # throughput × time/step is the step's tokens (2 micro-batches of seq_len a GPU) on every Hopper LoRA row:
    # the throughput and the step then time the same window
    for model, gpus, rank, seq, ac, step, mem, tput, mfu, _gpu in V.PRIME_ROWS:
        tokens = 2 * gpus * seq
        # the throughput's window is never shorter than time/step
        assert tput * step <= tokens * 1.02, (model, gpus, seq, ac, _gpu)
        if rank and "a6000" not in _gpu:  # (on the A6000 host even the adapter's broadcast takes seconds)
            assert tput * step == pytest.approx(tokens, rel=0.02), (model, gpus, seq, ac)
        elif not rank:
            # full-weight rows: the throughput's window also holds the weight broadcast (outside time/step), so
            # it counts the same tokens over a longer time
            assert tput * step < tokens * 0.98, (model, gpus, seq, ac)
        assert 0 < mem < {'h200-sxm-141gb': 140, 'h100-sxm-80gb': 80, 'rtx-a6000-48gb': 48}[_gpu] and 0 < mfu < 60
    assert len(V.PRIME_ROWS) == 30


def test_prime_rl_scenarios_follow_the_benchmark_script():
    s = V.prime_scenario("Qwen3-4B-Instruct-2507", 8, 16, 16384, "Recompute")
    t = s["training"]
    # torchrun ... --model.compile --model.ac --model.lora.rank 16 --data.fake.batch-size (2 × 8)
    assert t["method"] == "lora" and t["lora_rank"] == 16 and t["torch_compile"] and t["recompute"] == "full"
    assert t["global_batch_size"] == 16 and t["micro_batch_size"] == 1 and t["seq_len"] == 16384
    assert s["assumptions"]["memory_metric"] == "reserved"  # perf/peak_memory = torch.cuda.max_memory_reserved()
    # model.py builds the model in optimization_dtype float32 before LoRA and fully_shard: fp32 frozen-base shards
    assert t["fsdp2_fp32_upcast"]
    assert "fsdp2_fp32_upcast" not in V.prime_scenario("Qwen3-4B-Instruct-2507", 8, None, 16384, "Recompute")["training"]
    off = V.prime_scenario("Qwen3-0.6B", 1, None, 65536, "Offload")["training"]
    # --model.ac-offloading alone: ac_offloading_requires_ac switches full checkpointing on; the checkpoints go to
    # host memory
    assert off["method"] == "full" and off["recompute"] == "full" and off["activation_offload"]
    # every row builds and scores (no modelled number asserted)
    t = V.prime_table()
    assert len(t) == 30 and all(r["step"][1] > 0 and r["mem"][1] > 0 for r in t)


def test_fragment_is_registered_and_carries_the_scripts_figures():
    """bench/data/postoos16.md is in bench/validate_time.py's list and carries the medians the script computes now (a
    model change that moves them fails here until the fragment is updated)."""
    root = Path(__file__).resolve().parents[1]
    assert '*_fragments("postoos16.md")' in (root / "bench" / "validate_time.py").read_text(encoding="utf-8")
    text = (root / "bench" / "data" / "postoos16.md").read_text(encoding="utf-8")
    assert text.startswith("<!--") and "\n### " in text
    t = V.prime_table()
    step, mem = (V15._stats([r[k][2] for r in t]) for k in ("step", "mem"))
    assert f"{step[0]:.1%} / {step[1]:.1%} | {mem[0]:.1%} / {mem[1]:.1%}" in text
    for r in V.table():
        p, _m, e = r["keys"]["step"]
        assert f"{p:.2f} s" in text and f"{e:+.0%}" in text
