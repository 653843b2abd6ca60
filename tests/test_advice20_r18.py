"""Issue 35 round 18, advice20: what a senior infrastructure engineer would not sign in the examples and ten new
everyday requests (docs/notes/2026-12-08/issue-35-r18-advice20-requests/).

1. The Mixtral example's #1 (8 × L40S, ZeRO-1, the optimizer in CPU memory) needs about 1,044 GiB of host RAM per
   server. ``plan`` said so in a warning, but the printed plan's requirements for the vendor, its vendor checklist
   and the acceptance kit did not: the RAM was not part of what the user rents and checks.
2. The same printed plan asked an L40S server (PCIe only, no NVLink) to show "NV# links" for its expert
   parallelism: a check no such server passes.
3. Request 01 (a Shenzhen team renting by the week, ``rental_mode: week``; planning guide §3 "whole machines by the
   week or month"): no card has a weekly price, and the search said "No candidate fits in memory".
4. A one-GPU DeepSpeed plan with CPU offload was described as "zero_optimization stage 0", a config DeepSpeed does
   not offload at (its ``offload_optimizer`` is valid at ZeRO stages 1–3: deepspeed.ai/docs/config-json).
5. Request 03 (GRPO, rollouts by the training model's generate(), the scenario's default): #1 was Megatron-SWIFT,
   whose GRPO generates with vLLM only (ms-swift docs/source_en/Megatron-SWIFT/GRPO.md @72662cbf).
6. Request 10 (26 × H800 for a 3-day launch): nothing said the planning guide's burst rule (§3: confirm real-time
   scale-out).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REQ = ROOT / "docs" / "notes" / "2026-12-08" / "issue-35-r18-advice20-requests"
MIXTRAL = ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json"


@pytest.fixture(scope="module")
def mixtral_one(tmp_path_factory):
    """The Mixtral example's search #1, written out as a fixed plan (what "Use this layout" keeps)."""
    from gpuplanner.app.answer import answer

    ev = answer(str(MIXTRAL)).plans[0].evaluation
    d = ev.scenario.model_dump(mode="json", exclude_none=True)
    d["parallel"]["auto"] = False
    path = tmp_path_factory.mktemp("a20") / "mixtral-l40s.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    return path, ev


def test_mixtral_number_one_is_the_l40s_offload_plan(mixtral_one):
    _, ev = mixtral_one
    s = ev.scenario
    assert (s.hardware.gpu, s.hardware.num_gpus, s.parallel.offload_optimizer) == ("l40s-48gb", 8, True)
    # core.intake.host_ram: the offloaded optimizer states of one node × 1.5 for pinned buffers
    assert ev.host_ram.total == pytest.approx(1.5 * ev.host_ram.optimizer) and ev.host_ram.total > 1024


def test_printed_plan_rents_the_host_ram(mixtral_one):
    """The printed plan's requirements for the vendor name the host RAM, and the vendor checklist asks for it."""
    from gpuplanner.app.answer import answer
    from gpuplanner.formatting import format_number
    from gpuplanner.report.content import build_report_data

    path, ev = mixtral_one
    data = build_report_data(answer(str(path)))
    req = data.requirements.host_ram
    assert req is not None and req.params == {"need": format_number(ev.host_ram.total, 0)} == {"need": "1,044"}
    assert "Host RAM: at least {need} GiB" in req.text
    assert [c.id for c in data.checklist][-1] == "host_ram"


def test_printed_plan_without_offload_asks_no_host_ram():
    from gpuplanner.app.answer import answer
    from gpuplanner.report.content import build_report_data

    data = build_report_data(answer(str(ROOT / "examples" / "llama3-8b-full.json")))
    assert data.plan.evaluation.host_ram is None
    assert data.requirements.host_ram is None and "host_ram" not in [c.id for c in data.checklist]


def test_pcie_card_is_not_asked_for_nvlink(mixtral_one):
    """EP 2 on L40S (PCIe Gen4 x16, no NVLink: NVIDIA L40S datasheet): the vendor is asked for the PCIe switch and
    P2P, which such a server can show, not for NV# links."""
    from gpuplanner.app.answer import answer
    from gpuplanner.report.content import build_report_data

    path, ev = mixtral_one
    assert ev.scenario.parallel.ep > 1
    intra = build_report_data(answer(str(path))).requirements.intra_node
    assert "NV#" not in intra.text and "nvidia-smi topo -p2p r" in intra.text and "PIX/PXB" in intra.text


def test_kit_checks_the_host_ram(mixtral_one):
    """kit-import holds the server's host RAM against what the plan's CPU offload needs."""
    from gpuplanner.verify import acceptance as acc

    _, ev = mixtral_one
    s = ev.scenario
    assert acc.host_ram_need_gib(s) == pytest.approx(ev.host_ram.total)

    def findings(have):
        raw = {"schema": "gpuplanner-kit/1", "mode": "cuda"}
        if have is not None:
            raw["host_ram_gib"] = have
        return [(f.severity, str(f.text)) for f in acc.analyse(acc.kit_result_from_dict(raw), s).findings]

    small = findings(1007.5)  # a "1 TB" server: 1,056,440,000 kB of MemTotal ≈ 1,007.5 GiB
    assert small == [("bad", small[0][1])] and "1,008 GiB" in small[0][1] and "1,044 GiB" in small[0][1]
    assert findings(2015.0)[0][0] == "ok"
    assert findings(None)[0][0] == "warn"


def test_kit_without_offload_says_nothing_of_host_ram():
    from gpuplanner.app.answer import answer
    from gpuplanner.verify import acceptance as acc

    s = answer(str(ROOT / "examples" / "llama3-8b-full.json")).plan_scenario
    assert acc.host_ram_need_gib(s) is None
    a = acc.analyse(acc.kit_result_from_dict({"schema": "gpuplanner-kit/1", "mode": "cuda", "host_ram_gib": 8.0}), s)
    assert not any("host RAM" in str(f.text) or "Host RAM" in str(f.text) for f in a.findings)


def test_kit_reads_memtotal():
    """The kit's host RAM is /proc/meminfo's MemTotal (kB = KiB, proc(5)) in GiB."""
    from gpuplanner.verify import kit_bench

    text = Path("/proc/meminfo").read_text() if Path("/proc/meminfo").exists() else ""
    m = re.search(r"^MemTotal:\s*(\d+) kB", text, re.M)
    if not m:
        pytest.skip("no /proc/meminfo here")
    assert kit_bench._host_ram_gib() == pytest.approx(int(m.group(1)) / 1048576.0)
    assert acc_field_accepts(kit_bench._host_ram_gib())


def acc_field_accepts(v: float) -> bool:
    from gpuplanner.verify.acceptance import kit_result_from_dict

    return kit_result_from_dict({"schema": "gpuplanner-kit/1", "host_ram_gib": v}).host_ram_gib == v


def test_weekly_rental_without_weekly_prices_says_so():
    """Request 01: ``rental_mode: week`` and no card has a weekly price; nothing was evaluated, so "No candidate fits
    in memory" was untrue. The note names the rental mode and what to do."""
    from gpuplanner.core import search as S
    from gpuplanner.core.scenario import Scenario

    s = Scenario.model_validate(json.loads((REQ / "01-shenzhen-weekly-cpt-qwen2.5-14b-50b-tokens.json").read_text()))
    res = S.search(s, top=1)
    assert not res.plans and res.candidates_evaluated == 0
    text = " ".join(n.render() for n in res.notes)
    assert "fits in memory" not in text
    assert "No GPU type has a whole machines per week price" in text and "constraints.rental_mode" in text


def test_nothing_fits_still_says_memory():
    """A request where layouts were evaluated and none fits keeps the memory note (test_expert_review_r6's)."""
    from gpuplanner.core import search as S
    from gpuplanner.core.scenario import Scenario

    s = Scenario.model_validate({
        "model": {"preset": "qwen2.5-72b"}, "training": {"method": "full", "seq_len": 4096, "micro_batch_size": 1,
                                                          "global_batch_size": 32},
        "data": {"tokens": "10M"},
        "constraints": {"currency": "CNY", "max_gpus": 1, "gpu_candidates": ["h800-sxm-80gb"], "rental_mode": "card_hour"}})
    res = S.search(s, top=1)
    assert not res.plans and res.candidates_evaluated > 0
    assert "No candidate fits in memory" in " ".join(n.render() for n in res.notes)


def test_one_gpu_deepspeed_offload_names_a_zero_stage_that_offloads():
    from gpuplanner.core import search as S
    from gpuplanner.core.scenario import Scenario

    s = Scenario.model_validate({
        "model": {"preset": "qwen2.5-7b"},
        "training": {"method": "full", "objective": "sft", "framework": "deepspeed", "seq_len": 2048,
                     "micro_batch_size": 1, "global_batch_size": 32},
        "data": {"tokens": "50M"}, "parallel": {"auto": True},
        "constraints": {"deadline_days": 14, "currency": "CNY", "max_gpus": 1, "gpu_candidates": ["h800-sxm-80gb"]}})
    p = S.search(s, top=1).plans[0]
    assert p.num_gpus == 1 and p.evaluation.layout.zero == 0 and p.evaluation.scenario.parallel.offload_optimizer
    text = " ".join(m.render() for m in p.framework_reason)  # the plan's "*" lines (search.framework_reason)
    assert "zero_optimization stage 2 with offload_optimizer" in text
    assert "zero_optimization stage 0" not in text


def _grpo7b(**training) -> dict:
    """Request 03, with ``training`` fields changed."""
    d = json.loads((REQ / "03-grpo-qwen2.5-7b-math-5-days.json").read_text())
    d["training"].update(training)
    return d


def test_grpo_with_trainer_generate_is_not_planned_on_megatron_swift():
    """Request 03 (GRPO of a 7B, rollouts by the training model, the scenario's default): #1 was Megatron-SWIFT, whose
    GRPO generates with vLLM only (ms-swift docs/source_en/Megatron-SWIFT/GRPO.md @72662cbf: "`use_vllm`: Megatron
    GRPO supports rollout inference using vLLM only"): a stack that does not exist. Now the tools that run it."""
    from gpuplanner.core import search as S
    from gpuplanner.core.scenario import Scenario

    res = S.search(Scenario.model_validate(_grpo7b()), top=5)
    assert res.plans and all(p.framework != "megatron-swift" for p in res.plans)
    # with vLLM rollouts Megatron-SWIFT is searched as before
    fws, _ = S.searched_frameworks(Scenario.model_validate(_grpo7b(rl={"group_size": 8, "prompt_len": 512,
                                                                       "rollout_len": 2560,
                                                                       "generation_engine": "vllm_colocated"})),
                                   False, None)
    assert "megatron-swift" in fws


def test_megatron_swift_grpo_set_by_the_user_says_its_rollouts_are_vllm():
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import Scenario

    d = _grpo7b(framework="megatron-swift")
    d["parallel"] = {"tp": 2, "pp": 1, "zero": 1, "offload_optimizer": True}
    d["hardware"] = {"gpu": "h800-sxm-80gb", "num_gpus": 2, "gpus_per_node": 8}
    ev = evaluate(Scenario.model_validate(d))
    assert any("generates GRPO rollouts with vLLM only" in m.render() for m in ev.messages)
    d["training"]["rl"]["generation_engine"] = "vllm_colocated"
    ev2 = evaluate(Scenario.model_validate(d))
    assert not any("with vLLM only" in m.render() for m in ev2.messages)


def _project_lines(name: str) -> list[str]:
    from gpuplanner.app.answer import answer

    res = answer(str(REQ / name)).project
    return [m.render() for ph in res.phases for m in ph.messages]


def test_launch_weekend_serving_says_it_is_a_burst():
    """Request 10: 26 × H800 for a 3-day launch (planning guide §3: bursts → confirm real-time scale-out)."""
    lines = _project_lines("10-launch-weekend-burst-serve-14b.gpuplan")
    burst = [x for x in lines if "a burst" in x]
    assert len(burst) == 1 and burst[0].startswith("26 cards for 3.0 days") and "scale-out" in burst[0]


def test_twelve_weeks_of_serving_is_no_burst():
    """Request 04: 32 × H20 for 12 weeks is steady serving, not a burst."""
    assert not any("a burst" in x for x in _project_lines("04-serve-qwen2.5-72b-200-users-h20.gpuplan"))
