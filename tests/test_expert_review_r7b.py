"""Issue 35 round 7, advice7: plans re-read by a senior infrastructure engineer after the GeForce speed-up.

Serving Qwen2.5-72B int4 to 200 users on 4090/5090/L20/L40S became 134 × RTX 4090 at TP 2: the int4 weights
(37.3 GiB) leave each 24 GB card 1.8 GiB of KV cache, three users per replica. A current vLLM (>= 0.21) subtracts
its estimated CUDA-graph memory (0.3-2.2 GiB per GPU in the start-up logs, docs/validation_inference.md) before it
sizes the KV pool, which would leave such a replica nothing: vLLM then refuses to start. Such options rank after
those with room, with the reason; none is dropped."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from gpuplanner.core.project import VLLM_GRAPH_POOL_GIB, kv_far_end_users

DATA = Path(__file__).parent / "data" / "expert_review"


def _serving_phase(capsys, name: str) -> dict:
    from gpuplanner.cli import run_cli  # noqa: PLC0415

    assert run_cli(["project", str(DATA / name), "--json", "--lang", "en"]) == 0
    out = json.loads(capsys.readouterr().out)
    return next(ph for ph in out["phases"] if ph.get("kind") == "inference")


def _size(kv_gpu: float, per_req: float, tp: int, engine: str = "vllm"):
    return SimpleNamespace(kv_cache_gib_per_gpu=kv_gpu, kv_cache_gib_per_request=per_req, tp=tp, engine=engine)


def test_kv_far_end_users_by_hand():
    assert VLLM_GRAPH_POOL_GIB == 2.2
    # 4090 TP 2, 72B int4: 1.8 GiB per card, ~1.2 GiB per request (3,840 tokens x 320 KiB): nothing left
    assert kv_far_end_users(_size(1.8, 1.2, 2)) == 0
    # 5090 TP 2: (9.0 - 2.2) x 2 / 1.2 = 11.3 -> 11 requests
    assert kv_far_end_users(_size(9.0, 1.2, 2)) == 11
    # H800 TP 1, 14B: (41.2 - 2.2) / 0.71 = 54.9 -> 54
    assert kv_far_end_users(_size(41.2, 0.71, 1)) == 54
    # SGLang and TensorRT-LLM size their pools after their own graph memory: no far-end figure
    assert kv_far_end_users(_size(1.8, 1.2, 2, "sglang")) is None


def test_72b_int4_service_is_not_planned_on_24gb_cards_with_no_kv_room(capsys):
    """Fails before advice7: plan #1 was 134 × RTX 4090 at TP 2 (¥422,904), 1.8 GiB of KV per card."""
    ph = _serving_phase(capsys, "serve-72b-int4-geforce.gpuplan")
    inf = ph["inference"]
    assert ph["gpu"] != "rtx-4090-24gb", ph["gpu"]
    assert inf["kv_cache_gib_per_gpu"] - VLLM_GRAPH_POOL_GIB > 0.0, inf
    # the 4090 option is not dropped silently: its cost and its KV room are said
    line = next(m for m in ph["messages"] if "RTX 4090" in m and "CUDA graphs" in m)
    assert "134 × NVIDIA GeForce RTX 4090 24GB at TP 2" in line and "1.8 GiB per card" in line, line
    assert "ranked after the plans with room" in line


def test_a_service_with_kv_room_keeps_its_cheapest_plan(capsys):
    """Qwen2.5-32B int4 for 50 users on 5090s: 10.2 GiB of KV per card, room enough; plan #1 and its messages stay."""
    ph = _serving_phase(capsys, "serve-32b-consumer.gpuplan")
    assert ph["gpu"] == "rtx-5090-32gb" and ph["inference"]["tp"] == 1, (ph["gpu"], ph["inference"]["tp"])
    assert not any("CUDA graphs" in m for m in ph["messages"]), ph["messages"]
