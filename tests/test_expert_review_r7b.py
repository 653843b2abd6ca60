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

from gpuplanner.core import inference as inf
from gpuplanner.core.catalog_hw import get_gpu
from gpuplanner.core.estimate import resolve
from gpuplanner.core.inference import VLLM_GRAPH_POOL_GIB, kv_far_end_users
from gpuplanner.core.scenario import Scenario

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


def _size_72b_int4(gpu: str, engine: str = "vllm"):
    r = resolve(Scenario.model_validate({"model": {"preset": "qwen2.5-72b"}}), None)
    return inf.size_serving(inf.ServingModel.of(r.arch, r.params), get_gpu(gpu), concurrency=200, context_tokens=4096,
                            prompt_tokens=3584, output_tokens=512, precision="int4", tokens_per_s_per_user=20,
                            engine=engine)


def test_a_4090_serving_72b_int4_gets_a_tp_group_with_kv_room():
    """Fails before advice7: TP 2 (134 cards, 1.8 GiB of KV per card) was the 4090's sizing. TP 4 keeps 11.2 GiB per
    card (160 cards); the fewer-card group is said, not taken."""
    size = _size_72b_int4("rtx-4090-24gb")
    assert size.tp == 4 and size.num_gpus == 160, (size.tp, size.num_gpus)
    assert kv_far_end_users(size) > 0
    line = next(str(m) for m in size.messages if "CUDA graphs" in str(m))
    assert "TP 2 would need 134 cards" in line and "1.8 GiB" in line and "Planned at TP 4 (160 cards)" in line, line
    # SGLang sizes its pool after its own graph memory: the fewest cards stand (TP 2 here, its own smaller pool)
    assert not any("CUDA graphs" in str(m) for m in _size_72b_int4("rtx-4090-24gb", "sglang").messages)


def test_72b_int4_service_is_not_planned_on_24gb_cards_with_no_kv_room(capsys):
    """Fails before advice7: plan #1 was 134 × RTX 4090 at TP 2 (¥422,904), 1.8 GiB of KV per card."""
    ph = _serving_phase(capsys, "serve-72b-int4-geforce.gpuplan")
    inf_ = ph["inference"]
    assert ph["gpu"] != "rtx-4090-24gb", ph["gpu"]
    assert inf_["kv_cache_gib_per_gpu"] - VLLM_GRAPH_POOL_GIB > 0.0, inf_
    # the 4090 stays among the alternatives, sized where its KV cache has room (TP 4, 160 cards)
    alts = {a["gpu"]: a for a in inf_["alternatives"]}
    assert alts["rtx-4090-24gb"]["num_gpus"] == 160, alts


def test_a_service_with_kv_room_keeps_its_cheapest_plan(capsys):
    """Qwen2.5-32B int4 for 50 users on 5090s: 10.2 GiB of KV per card, room enough; plan #1 and its messages stay."""
    ph = _serving_phase(capsys, "serve-32b-consumer.gpuplan")
    assert ph["gpu"] == "rtx-5090-32gb" and ph["inference"]["tp"] == 1, (ph["gpu"], ph["inference"]["tp"])
    assert not any("CUDA graphs" in m for m in ph["messages"]), ph["messages"]


def test_a_card_whose_every_tp_group_has_no_kv_room_ranks_after_one_with_room():
    """The project's order among cards: an option with no KV room under a current vLLM goes after one with room,
    kept (not dropped), and its cost is said."""
    from gpuplanner.core.project import _thin_kv_last  # noqa: PLC0415

    def opt(name, kv, cost):
        size = SimpleNamespace(kv_cache_gib_per_gpu=kv, kv_cache_gib_per_request=1.2, tp=2, engine="vllm",
                               num_gpus=10, gpu_name=name, batch_per_replica=3)
        return (size, "card_hour", cost, {}, None, 1.0)

    thin, room = opt("Thin", 1.8, 100.0), opt("Roomy", 9.0, 120.0)
    options = [thin, room]
    msgs = _thin_kv_last(options, "CNY")
    assert options == [room, thin]
    assert len(msgs) == 1 and msgs[0].params["cost"] == 100.0 and msgs[0].params["gpu"] == "Thin", msgs
    options = [room, thin]
    assert _thin_kv_last(options, "CNY") == [] and options == [room, thin]
