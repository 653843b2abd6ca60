"""One plan, one answer on round 14's new paths (issue 35 r14 parity14).

Round 14 added: ``training.lora_layer`` (nemoauto14: NeMo AutoModel's ``LinearLoRA`` / ``TritonLinearLoRA``, fewer
bytes in the named part ``lora_adapters``; the scenario's check, the search's frameworks, the time model and the
Training page's control); the HF Trainer's ZeRO reducing 16-bit gradients (dpo14, timing.trainer_zero_grad_bytes);
an HGX board's NVLink domain not spanning small servers (dpo14, timing.ep_domain_of); verl's FSDP1 LoRA hook pairs
hiding only under their own linear's matmuls (postoos14, fsdp1_lora.segment_shares). For each: a case where the term
is live (switching it off moves the figure, so the test can fail), and the same figure in ``plan`` (text and
``--json``), ``estimate --json``, the search's own rows, ``project`` and the PDF (en and zh), all read from one
Evaluation. Where the rule is one function of the core, a test patches the core's rule and checks every reader
follows (a view or a caller that keeps its own copy fails). The app's copies are checked in
tests/ui/test_one_answer_r14_ui.py.
"""

from __future__ import annotations

import ast
import copy
import html as h
import json
import re
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from gpuplanner.core import flops as F
from gpuplanner.core import frameworks as FW
from gpuplanner.core import fsdp1_lora as FL
from gpuplanner.core import timing as T

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_one_answer import _estimate_json, _plan_json  # noqa: E402
import test_one_answer_r10 as R10  # noqa: E402  (a module, so pytest does not collect its tests again here)
import test_one_answer_r12 as R12  # noqa: E402
from test_one_answer_r11 import _cli, _flat, _pdf_text, _tight, _zh_allowed  # noqa: E402
from tests.savers_off import savers_off  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _write(d: dict, name: str) -> Path:
    out = Path(tempfile.mkdtemp(prefix="parity14-")) / name
    out.write_text(json.dumps(d), encoding="utf-8")
    return out


def _rows_move(d: dict, off, monkeypatch) -> None:
    """The search's own rows (compute hours of candidates that fit) move when ``off`` switches the term off."""
    from gpuplanner.core import search as S
    from gpuplanner.core.scenario import scenario_from_dict

    def rows() -> dict:  # the context built anew: a term its set-up reads (a ceiling) is read under the patch too
        s = scenario_from_dict(d)
        ctx = next(x for x in S.iter_contexts(s) if len(S.enumerate_candidates(x, s.constraints.max_gpus)["tp"]))
        return S.evaluate_candidates(ctx, S.enumerate_candidates(ctx, s.constraints.max_gpus))

    on = rows()
    with monkeypatch.context() as mp:
        off(mp)
        without = rows()
    fit = on["fits"] & without["fits"]
    assert fit.any()
    assert (~np.isclose(on["train_hours"][fit], without["train_hours"][fit], rtol=1e-9, atol=0.0)).any()


# ---------------------------------------------------------------------------- NeMo AutoModel's LoRA layer (nemoauto14)

#: LoRA of an 8B model on the HF Trainer with AutoModel's ``LinearLoRA`` (dropout on: the layer's own position);
#: the search picks the layout and count
AUTOMODEL = {"model": {"preset": "llama-3.1-8b"},
             "training": {"method": "lora", "framework": "hf", "precision": "bf16", "seq_len": 2048,
                          "micro_batch_size": 4, "global_batch_size": 32, "lora_rank": 16,
                          "lora_targets": "all_linear", "lora_dropout": 0.05, "lora_layer": "automodel"},
             "parallel": {"auto": True}, "data": {"tokens": 5e7},
             "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}}
#: the same on a layout given (the document stands for it)
AUTOMODEL_MANUAL = {**copy.deepcopy(AUTOMODEL), "parallel": {"zero": 2},
                    "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}


def _layer(d: dict, layer: str) -> dict:
    d = copy.deepcopy(d)
    d["training"]["lora_layer"] = layer
    return d


def test_lora_layer_plan_json_reproduces_and_the_layer_is_live(tmp_path, capsys):
    """``plan --json``'s plans keep ``training.lora_layer`` and reproduce with ``estimate --json``; the same layouts
    with PEFT's layer take longer and with the Triton layer differ (the search timed them with the scenario's)."""
    plans = _plan_json(tmp_path, AUTOMODEL, capsys, top=3)["plans"]
    assert plans
    for p in plans:
        assert p["scenario"]["training"]["lora_layer"] == "automodel"
        on = _estimate_json(tmp_path, p["scenario"], capsys)
        assert on["step_time_s"] == pytest.approx(p["step_time_s"], rel=1e-9)
        assert on["time_parts"] == p["time_parts"]
        peft = _estimate_json(tmp_path, _layer(p["scenario"], "peft"), capsys)
        assert peft["step_time_s"] > on["step_time_s"] * (1 + 1e-4), (on["step_time_s"], peft["step_time_s"])
        tri = _estimate_json(tmp_path, _layer(p["scenario"], "automodel_triton"), capsys)
        assert tri["step_time_s"] != pytest.approx(on["step_time_s"], rel=1e-6)


def test_lora_layer_search_equals_evaluate(tmp_path, capsys):
    """Round 10's harness: the ranking's arrays equal ``evaluate`` of each candidate; the top plans reproduce."""
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(AUTOMODEL), tmp_path, capsys)


def test_lora_layer_moves_the_search_rows(monkeypatch):
    """The search's own rows read the layer: with AutoModel's forward output count set to PEFT's (6 fan_out instead
    of 4), the ranking's compute hours of the same candidates change."""
    _rows_move(AUTOMODEL, lambda mp: mp.setattr(F, "AUTOMODEL_LORA_FWD_OUT", 6.0), monkeypatch)


def test_lora_adapters_part_everywhere_with_the_automodel_layer(tmp_path, capsys):
    """The named part the layer changes (``lora_adapters``) reads the same in ``estimate`` (text, JSON), the PDF's
    table and the zh label, from one Evaluation, and is smaller than PEFT's on the same layout."""
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import scenario_from_dict

    R12.check_part_everywhere(copy.deepcopy(AUTOMODEL_MANUAL), "lora_adapters", tmp_path, capsys, harness=False)
    am = evaluate(scenario_from_dict(AUTOMODEL_MANUAL)).time.parts["lora_adapters"]
    peft = evaluate(scenario_from_dict(_layer(AUTOMODEL_MANUAL, "peft"))).time.parts["lora_adapters"]
    assert am < peft * 0.95, (am, peft)


def test_lora_layer_plan_text_and_pdf_days(tmp_path, capsys):
    """``plan`` text prints #1's calendar days; the document stands for #1, and its PDF (en and zh) carries them;
    PEFT's layer gives other days (the layer reaches the printed figure)."""
    from gpuplanner.app.answer import answer
    from gpuplanner.formatting import format_plan_span

    (p,) = _plan_json(tmp_path, AUTOMODEL, capsys, top=1)["plans"]
    doc = _write(AUTOMODEL, "automodel.json")
    ans = answer(doc)
    assert ans.evaluation.scenario.training.lora_layer == "automodel"
    assert ans.evaluation.calendar_days == pytest.approx(p["calendar_days"], rel=1e-9)
    band = tuple(p["calendar_days_band"]) if p.get("calendar_days_band") else None
    days = format_plan_span(p["calendar_days"], band)[0]  # the headline, in its unit (ux22)
    assert days in _flat(_cli(["plan", str(doc), "--top", "1"], capsys))
    (p_peft,) = _plan_json(tmp_path, _layer(AUTOMODEL, "peft"), capsys, top=1)["plans"]
    assert p_peft["step_time_s"] > p["step_time_s"]
    assert days in _flat(_pdf_text(doc, tmp_path))
    zh = format_plan_span(p["calendar_days"], band, "zh_CN")[0]
    assert _tight(zh) in _tight(_pdf_text(doc, tmp_path, "zh_CN"))


#: an MoE LoRA search with no framework named: the MoE tools (Megatron-SWIFT) are added to the searched frameworks
#: (search._moe_tools); before parity14 they were added after the layer's filter and ranked #1, a plan whose scenario
#: ``estimate`` refused
AUTOMODEL_MOE = {"model": {"preset": "qwen3-30b-a3b"},
                 "training": {"method": "lora", "precision": "bf16", "seq_len": 2048, "micro_batch_size": 4,
                              "global_batch_size": 32, "lora_rank": 16, "lora_targets": "all_linear",
                              "lora_layer": "automodel"},
                 "parallel": {"auto": True}, "data": {"tokens": 5e7},
                 "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}}


@pytest.mark.parametrize("d", [AUTOMODEL_MOE, {**copy.deepcopy(AUTOMODEL), "training": {
    k: v for k, v in AUTOMODEL["training"].items() if k != "framework"}}], ids=["moe", "dense"])
def test_searched_frameworks_run_the_layer_and_reproduce(d, tmp_path, capsys):
    """A search among frameworks (the file names none) plans only on stacks that run the layer
    (frameworks.lora_layer_applies), and every plan reproduces with ``estimate --json`` of its scenario (exit 0)."""
    plans = _plan_json(tmp_path, d, capsys, top=3)["plans"]
    assert plans
    for p in plans:
        t = p["scenario"]["training"]
        assert t["lora_layer"] == "automodel" and FW.lora_layer_applies(t["method"], t.get("dora", False),
                                                                        t["framework"]), t["framework"]
        e = _estimate_json(tmp_path, p["scenario"], capsys)
        assert e["step_time_s"] == pytest.approx(p["step_time_s"], rel=1e-9)


@pytest.mark.parametrize("cands", [["megatron-bridge"], ["megatron-bridge", "unsloth"]])
def test_candidates_that_cannot_run_the_layer_are_refused_in_one_line(cands, capsys):
    """Before parity14 ``plan`` printed Megatron-Bridge plans with AutoModel's layer, each refused by ``estimate``:
    now ``plan`` and ``estimate`` refuse the file with the same line (exit 2), and its zh line has no English."""
    from i18n_scan import english_words  # noqa: PLC0415

    d = copy.deepcopy(AUTOMODEL)
    d["training"].pop("framework")
    d["constraints"]["framework_candidates"] = cands
    doc = _write(d, "candidates.json")
    from gpuplanner.cli import run_cli

    lines = {}
    for cmd in ("plan", "estimate"):
        assert run_cli([cmd, str(doc)]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "framework_candidates" in err, err
        lines[cmd] = err.split(": ", 2)[-1]
    assert lines["plan"] == lines["estimate"]
    assert run_cli(["plan", str(doc), "--lang", "zh_CN"]) == 2
    zh = capsys.readouterr().err.strip()
    assert len(zh.splitlines()) == 1 and "framework_candidates" in zh and "must include" not in zh
    assert not english_words(zh, _zh_allowed() | {"training", "lora_layer", "constraints", "framework_candidates",
                                                  "automodel", "peft", "gpuplanner", "error", "candidates"}), zh


def test_the_layer_rule_is_one_function(monkeypatch):
    """The scenario's check, the search's frameworks and the time model read frameworks.lora_layer_applies: with
    DeepSpeed counted among the tools that run their own LoRA layers, all three follow (a caller with its own copy of
    the rule would not)."""
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.search import searched_frameworks

    d = copy.deepcopy(AUTOMODEL_MANUAL)
    d["training"]["framework"] = "deepspeed"
    s = scenario_from_dict(d)
    assert T.lora_layer_of(s.training, "deepspeed") == "automodel"
    d_search = copy.deepcopy(AUTOMODEL)
    d_search["training"].pop("framework")
    d_search["constraints"]["framework_candidates"] = ["deepspeed", "fsdp"]
    assert "deepspeed" in searched_frameworks(scenario_from_dict(d_search))[0]
    monkeypatch.setattr(FW, "OWN_LORA_LAYER_TOOLS", ("unsloth", "deepspeed"))
    assert T.lora_layer_of(s.training, "deepspeed") == "peft"
    assert searched_frameworks(scenario_from_dict(d_search))[0] == ("fsdp",)
    with pytest.raises(Exception, match="runs its own LoRA layers"):
        scenario_from_dict(d)


def test_lora_layer_survives_the_plan_file_and_the_project(tmp_path, capsys):
    """Saved in a .gpuplan with the chosen plan's complete scenario, the layer is kept and the file answers the
    scenario's days; a project whose training phase is the run gives ``estimate --json``'s compute days (one
    Evaluation), other days with PEFT's layer."""
    from gpuplanner.app.answer import answer
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.io import planfile

    s = scenario_from_dict(AUTOMODEL_MANUAL)
    ev = evaluate(s)
    doc = planfile.new_document(s, title="automodel")
    doc = doc.model_copy(update={"selected_plan": planfile.SelectedPlan(gpu="h100-sxm-80gb", num_gpus=8, scenario=s)})
    path = tmp_path / "automodel.gpuplan"
    path.write_bytes(planfile.dumps(doc))
    back, _warnings = planfile.load(path)
    assert back.scenario.training.lora_layer == "automodel"
    assert back.selected_plan.scenario.training.lora_layer == "automodel"
    assert answer(path).evaluation.calendar_days == pytest.approx(ev.calendar_days, rel=1e-12)

    days = {}
    for layer in ("automodel", "peft"):
        d = json.loads(R12.SERVE_SRC.read_text(encoding="utf-8"))
        d["scenario"] = _layer(AUTOMODEL_MANUAL, layer)
        proj = _write(d, f"project-{layer}.gpuplan")
        (train,) = [ph for ph in answer(proj).project.phases if ph.evaluation is not None]
        assert train.evaluation.scenario.training.lora_layer == layer
        e = json.loads(_cli(["estimate", str(proj), "--json"], capsys))
        assert train.evaluation.compute_days == pytest.approx(e["compute_days"], rel=1e-9)
        (ph,) = [ph for ph in json.loads(_cli(["project", str(proj), "--json"], capsys))["phases"] if "training" in ph]
        assert ph["training"]["compute_days"] == pytest.approx(e["compute_days"], rel=1e-12)
        days[layer] = e["compute_days"]
    assert days["automodel"] < days["peft"], days


# ---------------------------------------------------------------------------- the HF Trainer's ZeRO reduce (dpo14)

#: full fine-tuning on the HF Trainer with ZeRO-2 over a slow network, where the gradient bytes show in the step
HF_ZERO = {"model": {"preset": "llama-3.1-8b"},
           "training": {"method": "full", "framework": "hf", "precision": "bf16", "seq_len": 2048,
                        "micro_batch_size": 2, "global_batch_size": 64},
           "hardware": {"inter_node": "roce-100"}, "parallel": {"zero": 2}, "data": {"tokens": 2e8},
           "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}}


def _fp32_trainer_reduce(mp) -> None:
    """Before round 14: the Trainer's DDP bytes (fp32 gradients under autocast) with ZeRO too."""
    mp.setattr(T, "trainer_zero_grad_bytes", lambda f, p, z, g, where=np.where: g)


def test_trainer_zero_reduce_search_equals_evaluate(tmp_path, capsys):
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(HF_ZERO), tmp_path, capsys)


def test_trainer_zero_reduce_moves_the_search_rows(monkeypatch):
    _rows_move(HF_ZERO, _fp32_trainer_reduce, monkeypatch)


def test_trainer_zero_reduce_moves_estimate_and_plan_agrees(tmp_path, capsys, monkeypatch):
    """``plan --json``'s #1 is ``estimate --json``'s; #1's layout on two servers with fp32 gradient bytes takes
    longer and its data-parallel share grows (the term is in the one Evaluation both read); ``plan`` text prints #1's
    days."""
    (p,) = _plan_json(tmp_path, HF_ZERO, capsys, top=1)["plans"]
    assert _estimate_json(tmp_path, p["scenario"], capsys)["step_time_s"] == pytest.approx(p["step_time_s"], rel=1e-9)
    assert R12._headline(p) in _flat(_cli(["plan", str(_write(HF_ZERO, "hfz.json")), "--top", "1"], capsys))
    two = copy.deepcopy(p["scenario"])
    two["hardware"].update(num_gpus=16, gpus_per_node=8)
    on = _estimate_json(tmp_path, two, capsys)
    _fp32_trainer_reduce(monkeypatch)
    off = _estimate_json(tmp_path, two, capsys)
    assert off["step_time_s"] > on["step_time_s"] * 1.05, (on["step_time_s"], off["step_time_s"])
    assert off["time_breakdown"]["dp_comm"] > on["time_breakdown"]["dp_comm"]


# ---------------------------------------------------------------------------- an HGX board's NVLink domain (dpo14)

def _two_servers(gpu: str, n: int, gpn: int, net: str) -> dict:
    return {"model": {"preset": "qwen2.5-7b"},
            "training": {"method": "lora", "framework": "deepspeed", "precision": "bf16", "seq_len": 2048,
                         "micro_batch_size": 2, "global_batch_size": 32},
            "hardware": {"gpu": gpu, "num_gpus": n, "gpus_per_node": gpn, "inter_node": net},
            "parallel": {"zero": 2}, "data": {"tokens": 2e7}}


@pytest.mark.parametrize("gpu,n,gpn", [("a100-sxm-80gb", 4, 2), ("gb200-186gb", 8, 4)], ids=["hgx-2-per-server",
                                                                                               "nvl72"])
def test_the_time_crosses_the_network_where_the_plan_says_it_does(gpu, n, gpn):
    """The rule the plan's words and price check read (advisor.nvlink_domain: an HGX board joins only its own server,
    GB200 NVL72 joins 72 GPUs) is the one the time model reads (timing.ep_domain_of): the step moves with the network
    between servers exactly where the plan leaves its NVLink domain. Before round 14 the 2-GPU A100 servers were
    timed over NVLink while the plan said the network."""
    from gpuplanner.core import advisor
    from gpuplanner.core.catalog_hw import get_gpu
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import scenario_from_dict

    slow = evaluate(scenario_from_dict(_two_servers(gpu, n, gpn, "eth-25")))
    fast = evaluate(scenario_from_dict(_two_servers(gpu, n, gpn, "ib-ndr-400")))
    crosses = not bool(advisor.in_nvlink_domain(n, advisor.nvlink_domain(get_gpu(gpu))))
    assert crosses == (gpu == "a100-sxm-80gb")
    moved = slow.time_modelled.step_time_s > fast.time_modelled.step_time_s * (1 + 1e-6)
    assert moved == crosses, (slow.time_modelled.step_time_s, fast.time_modelled.step_time_s)
    assert slow.links.inter_node
    # the link the plan names is the one the time crosses: the network where it leaves its NVLink domain, else the
    # rack's NVLink whatever network was entered (round 15, consist15: the NVL72 plan named the unused network)
    assert (slow.links.inter_node != fast.links.inter_node) == crosses
    assert ("NVLink" in slow.links.inter_node) == (not crosses)


def test_small_servers_name_and_time_the_network_in_cli_and_pdf(tmp_path, capsys):
    """A file on 2-GPU A100 servers (the layout given: the search plans whole catalogue servers, so only the document's
    own answer takes this path): ``estimate`` names the network between nodes (Evaluation.links) and its time-share
    rows are the Evaluation's, the PDF's table the same; over 25 GbE the data-parallel row is larger than over NDR
    InfiniBand (the time crosses the network the plan names)."""
    from gpuplanner.app.answer import answer, report_data
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.report.render import build_html
    from test_breakdown_rows import cli_breakdown_rows, pdf_breakdown_rows, want_rows

    shares = {}
    for net in ("eth-25", "ib-ndr-400"):
        d = _two_servers("a100-sxm-80gb", 4, 2, net)
        ev = evaluate(scenario_from_dict(d))
        path = _write(d, f"two-{net}.json")
        want = want_rows(ev)
        assert cli_breakdown_rows(_cli(["estimate", str(path)], capsys)) == want
        js = json.loads(_cli(["estimate", str(path), "--json"], capsys))
        assert js["step_time_s"] == pytest.approx(ev.time.step_time_s, rel=1e-12)  # the figure used (a ceiling)
        html = build_html(report_data(path, answer_=answer(path)), {})
        assert [(h.unescape(lab), pct) for lab, pct in pdf_breakdown_rows(html)] == want
        assert ev.links.inter_node and h.escape(ev.links.inter_node) in html
        shares[net] = (ev.time.breakdown["dp_comm"], ev.time_modelled.step_time_s)
    assert shares["eth-25"][0] > shares["ib-ndr-400"][0] and shares["eth-25"][1] > shares["ib-ndr-400"][1], shares


# ---------------------------------------------------------------------------- verl's FSDP1 LoRA hook pairs (postoos14)

#: postoos14's 32B verl GRPO-LoRA row (bench/validate_post_oos14.py, rl_step_times_r10._lora512: 8 H100, FSDP1 with
#: parameter and optimizer offload), where the per-linear sum moves the step
VERL_LORA = {"model": {"preset": "qwen2.5-32b"},
             "training": {"objective": "grpo", "method": "lora", "framework": "fsdp", "fsdp_version": 1,
                          "padding_free": True, "seq_len": 650, "micro_batch_size": 8, "global_batch_size": 320,
                          "recompute": "full", "lora_rank": 32, "preference": {"beta": 0.001, "reference": "lora_base"},
                          "rl": {"group_size": 5, "rollout_len": 512, "prompt_len": 138,
                                 "generation_engine": "vllm_colocated", "generation_gpu_fraction": 0.3,
                                 "engine_sleep": True, "mean_response_fraction": 0.6015625, "reward": "function",
                                 "updates_per_generation": 1, "rollout_tp": 8, "enforce_eager": True,
                                 "sleep_level": 1, "prompt_pad_len": 1024, "max_num_seqs": 512}},
             "parallel": {"zero": 3, "offload_optimizer": True, "offload_params": True},
             "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "data": {"tokens": 2e7}}
VERL_LORA_SEARCHED = {**copy.deepcopy(VERL_LORA), "hardware": {},
                      "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}}


def _one_sum(mp) -> None:
    """Round 9's rule: one sum over the whole layer stack (no per-linear segments)."""
    mp.setattr(FL, "segment_shares", lambda *a, **k: ())


def test_fsdp1_lora_segments_are_live_and_in_the_search_rows(tmp_path, capsys, monkeypatch):
    """Round 9's one sum gives another step on the row's layout (``estimate --json``, the figure the page and the
    PDF read) and other search rows (the ranking reads the per-linear sum too)."""
    doc = _write(VERL_LORA, "verl-lora.json")
    on = json.loads(_cli(["estimate", str(doc), "--json"], capsys))
    with monkeypatch.context() as mp:
        _one_sum(mp)
        off = json.loads(_cli(["estimate", str(doc), "--json"], capsys))
    assert off["step_time_s"] < on["step_time_s"] * (1 - 1e-3), (on["step_time_s"], off["step_time_s"])
    _rows_move(VERL_LORA_SEARCHED, _one_sum, monkeypatch)


def test_fsdp1_lora_plans_reproduce(tmp_path, capsys):
    """``plan --json``'s plans of the verl FSDP1 LoRA case reproduce with ``estimate --json``."""
    plans = _plan_json(tmp_path, VERL_LORA_SEARCHED, capsys, top=2)["plans"]
    assert plans
    for p in plans:
        assert _estimate_json(tmp_path, p["scenario"], capsys)["step_time_s"] == pytest.approx(p["step_time_s"],
                                                                                                rel=1e-9)


# ---------------------------------------------------------------------------- no view computes round 14's terms

#: round 14's core functions: a view (ui, report, commands, app, the CLI) reads their results from the Evaluation
ROUND14_CORE = ("lora_layer_of", "automodel_lora_elements", "lora_traffic_elements", "segment_shares",
                "trainer_zero_grad_bytes", "grad_reduce_bytes", "ep_domain_of", "fsdp1_lora_waits",
                "own_lora_layers")
#: the framework names a copy of the lora_layer rule would spell (the Training page's enable rule did before parity14)
RULE_WORDS = {"unsloth", "megatron"}
VIEWS = [p for d in ("ui", "report", "commands", "app") for p in (ROOT / "gpuplanner" / d).rglob("*.py")] + [
    ROOT / "gpuplanner" / "cli.py"]


def _rule_copies(tree: ast.AST) -> list[int]:
    """Lines of dict entries keyed ``"lora_layer"`` whose value names a framework (a copy of the core's rule)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and k.value == "lora_layer" and any(
                        isinstance(c, ast.Constant) and c.value in RULE_WORDS for c in ast.walk(v)):
                    out.append(k.lineno)
    return out


def test_no_view_calls_round14_core_functions_or_copies_the_rule():
    found = []
    for p in VIEWS:
        text = p.read_text(encoding="utf-8")
        for i, line in enumerate(text.splitlines(), 1):
            if any(re.search(rf"\b{n}\b", line) for n in ROUND14_CORE):
                found.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()}")
        found += [f"{p.relative_to(ROOT)}:{i}: a copy of the lora_layer rule" for i in _rule_copies(ast.parse(text))]
    assert not found, "\n".join(found)


def test_the_rule_copy_scan_finds_the_old_line():
    old = ('on = {"lora_layer": t.lora_layer != "peft" or (t.method in ("lora", "qlora") and not t.dora\n'
           '    and engine_of(t.framework) != "megatron"\n    and t.framework != "unsloth")}')
    assert _rule_copies(ast.parse(old)) == [1]


# ---------------------------------------------------------------------------- merged later in round 14 (memoos14, advice14)

#: memoos14: full fine-tuning of an 8B model on FSDP1 with accumulation; the search picks among the HF stack (no_sync
#: on by default on FSDP1: estimate.fsdp_no_sync_of) and torchtune's FSDP (off), so each context's memory must be
#: its own framework's
NO_SYNC = {"model": {"preset": "llama-3.1-8b"},
           "training": {"method": "full", "precision": "bf16", "seq_len": 2048, "micro_batch_size": 1,
                        "global_batch_size": 64, "fsdp_version": 1, "recompute": "full"},
           "parallel": {"zero": 3}, "data": {"tokens": 2e8},
           "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"], "framework_candidates": ["hf", "fsdp"]}}
#: memoos14: LoRA with the adapters in their block's FSDP1 unit and no_sync on (LitGPT / Lightning Fabric)
MIXED_UNITS = {"model": {"preset": "llama-3.1-8b"},
               "training": {"method": "lora", "framework": "fsdp", "fsdp_version": 1, "precision": "bf16",
                            "seq_len": 2048, "micro_batch_size": 1, "global_batch_size": 32, "fsdp_no_sync": True,
                            "fsdp_lora_mixed_units": True},
               "parallel": {"zero": 3}, "data": {"tokens": 5e7},
               "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}}


@pytest.mark.parametrize("d", [NO_SYNC, MIXED_UNITS], ids=["no-sync-default", "lora-mixed-units"])
def test_fsdp_switches_search_equals_evaluate(d, tmp_path, capsys):
    """Round 10's harness (memory, fits, days, cost of every sampled candidate; ``plan --json`` = ``estimate --json``,
    allocated and reserved included) on memoos14's switches."""
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(d), tmp_path, capsys)


def test_fsdp_switches_are_live_in_estimate_and_plan(tmp_path, capsys):
    """``plan --json``'s #1 with the switches is ``estimate --json``'s memory; the same layout with them off holds
    less (the switches reach the printed GiB per GPU)."""
    plans = _plan_json(tmp_path, MIXED_UNITS, capsys, top=1)["plans"]
    (p,) = plans
    on = _estimate_json(tmp_path, p["scenario"], capsys)
    assert on["memory_per_gpu_gib"] == p["memory_per_gpu_gib"]
    off_d = copy.deepcopy(p["scenario"])
    off_d["training"].update(fsdp_no_sync=False, fsdp_lora_mixed_units=False)
    off = _estimate_json(tmp_path, off_d, capsys)
    if p["scenario"]["training"]["micro_batch_size"] * p["num_gpus"] < 32:  # accumulation: no_sync applies
        assert off["memory_per_gpu_gib"]["total"] < on["memory_per_gpu_gib"]["total"]


def test_the_fsdp_switch_rule_is_one_function(monkeypatch):
    """scenario._check_fsdp_no_sync reads frameworks.fsdp_sharded_gradients: with the HF stack taken out of the FSDP
    engines, an HF plan with ``fsdp_no_sync`` is refused (the Training page reads the same: the UI test)."""
    from gpuplanner.core.scenario import scenario_from_dict

    d = {"model": {"preset": "llama-3.1-8b"}, "training": {"method": "full", "framework": "hf", "fsdp_no_sync": True,
                                                         "fsdp_version": 1},  # Accelerate's FSDP1 (review15)
         "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}
    scenario_from_dict(d)
    monkeypatch.setattr(FW, "FSDP_SWITCH_ENGINES", ("fsdp",))
    with pytest.raises(Exception, match="fsdp_no_sync needs FSDP"):
        scenario_from_dict(d)


#: advice14: the H20 as an MFU-ceiling class of its own and its FlashAttention-2 ceiling (timing.FLASH2_CARD_CEILING)
H20 = {"model": {"preset": "qwen2.5-7b"},
       "training": {"method": "full", "framework": "ms-swift", "precision": "bf16", "seq_len": 16384,
                    "micro_batch_size": 1, "global_batch_size": 8, "packing": True, "flash_attention": True},
       "parallel": {"zero": 3}, "data": {"tokens": 2e8, "mean_sample_len": 9000},
       "constraints": {"max_gpus": 8, "gpu_candidates": ["h20-96gb"]}}


def test_h20_ceilings_search_equals_evaluate(tmp_path, capsys):
    """The search's rows read the H20's own attention ceiling and MFU class as ``evaluate`` does (MFU used included)."""
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(H20), tmp_path, capsys)


def test_h20_attention_ceiling_moves_the_search_rows(monkeypatch):
    _rows_move(H20, lambda mp: mp.setattr(T, "FLASH2_CARD_CEILING", {}), monkeypatch)


#: advice14's already-rented 4 × RTX 4090 request (a monthly quote; the plan billed on the default card-hour price),
#: with the search's #1 as the document's answer (``parallel.auto``)
RENTED = ROOT / "docs" / "notes" / "2026-12-07" / "issue-35-r14-advice14-requests" / "10-already-rented-4x4090.json"


def test_kept_default_price_lines_are_the_same_everywhere(tmp_path, capsys):
    """The rental line (cost.rental_advice: "Billed on … at the default price …") and the plan's warning (search
    plan_warnings) are the answer's: ``plan`` text and ``--json``, ``estimate`` and the en PDF print the same words;
    the zh CLI and zh PDF carry their translation and no English of them."""
    from gpuplanner.app.answer import answer
    from gpuplanner.i18n import translate_message
    from test_one_answer_r11 import _zh_line

    d = json.loads(RENTED.read_text(encoding="utf-8"))
    d["parallel"] = {"auto": True}
    doc = _write(d, "rented.json")
    ans = answer(doc)
    ev = ans.evaluation
    kept = [m for m in ev.rental_advice if "at the default price" in m.text]
    assert len(kept) == 1, [m.text for m in ev.rental_advice]
    line = translate_message(kept[0].context, kept[0].text, kept[0].params)
    (p,) = _plan_json(tmp_path, d, capsys, top=1)["plans"]
    assert (p["gpu"], p["num_gpus"]) == (ev.scenario.hardware.gpu, ev.scenario.hardware.num_gpus)
    warn = [w for w in p["warnings"] if "which your quote does not give" in w]
    assert len(warn) == 1, p["warnings"]
    assert _flat(line) in _flat(_cli(["plan", str(doc), "--top", "1"], capsys))
    assert warn[0] in _flat(_cli(["plan", str(doc), "--top", "1"], capsys))
    assert _flat(line) in json.dumps(p, ensure_ascii=False) or line in p.get("rental_advice", [])
    assert _flat(line) in _flat(_cli(["estimate", str(doc)], capsys))
    pdf = _flat(_pdf_text(doc, tmp_path))
    assert _tight(line) in _tight(pdf) and _tight(warn[0]) in _tight(pdf)
    zh = _zh_line(kept[0])
    assert zh != line
    assert _tight(zh) in _tight(_cli(["plan", str(doc), "--top", "1", "--lang", "zh_CN"], capsys))
    zpdf = _pdf_text(doc, tmp_path, "zh_CN")
    assert _tight(zh) in _tight(zpdf) and "at the default price" not in zpdf and "your quote does not" not in zpdf


#: ptoos14: Megatron's interleaved pipeline (searched vpp) with overlap_p2p_comm: the fill and drain transfers no
#: compute hides (timing.pipeline_fill_p2p_seconds)
INTERLEAVED = {"model": {"preset": "llama-3-70b"},
               "training": {"method": "pretrain", "framework": "megatron", "precision": "bf16", "seq_len": 4096,
                            "overlap_p2p_comm": True},
               "hardware": {"inter_node": "roce-100"}, "data": {"tokens": 2e9},
               "constraints": {"max_gpus": 32, "gpu_candidates": ["h100-sxm-80gb"]}}


def _no_fill(mp) -> None:
    mp.setattr(T, "pipeline_fill_p2p_seconds", lambda *a, **k: 0.0)


def test_pipeline_fill_search_equals_evaluate(tmp_path, capsys):
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(INTERLEAVED), tmp_path, capsys)


def test_pipeline_fill_moves_the_search_rows_and_estimate(tmp_path, capsys, monkeypatch):
    """The ranking's rows read the fill term; a plan with vpp > 1 among ``plan --json``'s reproduces with ``estimate
    --json`` and gets faster without the term (it is in the one Evaluation)."""
    _rows_move(INTERLEAVED, _no_fill, monkeypatch)
    # (the savers written off: with the optimizer in CPU memory, searched since round 15, #1 needs no pipeline)
    (p,) = _plan_json(tmp_path, savers_off(INTERLEAVED), capsys, top=1)["plans"]
    assert _estimate_json(tmp_path, p["scenario"], capsys)["step_time_s"] == pytest.approx(p["step_time_s"], rel=1e-9)
    d = copy.deepcopy(p["scenario"])  # #1's layout interleaved (its pipeline with two virtual stages a GPU)
    assert d["parallel"]["pp"] > 1, d["parallel"]
    d["parallel"].update(vpp=2, auto=False)
    on = _estimate_json(tmp_path, d, capsys)
    _no_fill(monkeypatch)
    off = _estimate_json(tmp_path, d, capsys)
    step = [(e.get("time_modelled") or e)["step_time_s"] for e in (on, off)]  # the model's own (before a ceiling)
    assert step[1] < step[0] * (1 - 1e-6), step


@pytest.mark.parametrize("gpn,n", [(2, 4), (4, 8), (8, 16)])
def test_quotes_report_and_links_read_one_network_figure(gpn, n, tmp_path):
    """z3multi14 gives a small server its share of the catalogue's NICs (catalog_hw.server_nics). The Gb/s per node
    the quotes are compared against (quotes.plan_figures), the figure the report asks the vendor for and the links
    the pages show are the Evaluation's one figure (evaluate.inter_node_link, the time model's NICs); before parity14
    the quotes worked it out again from the scenario."""
    from gpuplanner.app.answer import answer
    from gpuplanner.core.quotes import plan_figures
    from gpuplanner.formatting import format_number
    from gpuplanner.report.content import build_report_data

    d = _two_servers("a100-sxm-80gb", n, gpn, "ib-hdr-200")
    path = _write(d, f"servers-{gpn}.json")
    ev = answer(path).evaluation
    want = ev.links.inter_node_gbps_per_node
    assert want == pytest.approx(200.0 * max(1, round(8 * gpn / 8)), rel=1e-12)  # one HDR NIC a GPU (DGX A100)
    assert plan_figures(ev).inter_node_gbps == pytest.approx(want, rel=1e-12)
    req = build_report_data(answer(path)).requirements
    assert req.inter_node.params["gbps"] == format_number(want, 0)


def test_quotes_read_the_evaluations_network_figure(monkeypatch):
    """The quotes' figure is the Evaluation's: with the links' figure changed, the quotes follow (a second
    computation would not)."""
    from gpuplanner.core import evaluate as E
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.quotes import plan_figures
    from gpuplanner.core.scenario import scenario_from_dict

    ev = evaluate(scenario_from_dict(_two_servers("a100-sxm-80gb", 4, 2, "ib-hdr-200")))
    real = E.inter_node_link
    monkeypatch.setattr(E, "inter_node_link", lambda e: (real(e)[0], 123.0))
    assert plan_figures(ev).inter_node_gbps == 123.0


def test_h20_grade_is_the_same_in_plan_text_json_and_estimate(tmp_path, capsys, monkeypatch):
    """grade14: the MFU grade reads the plan's class (the H20's own run, 0.758): ``plan`` text's MFU column, ``plan
    --json`` and ``estimate --json`` give each plan the Evaluation's grade; with the guide's bands for every class
    (rules.grade_bands patched) the same plans grade otherwise (the class reaches the printed word)."""
    from gpuplanner.core import rules as RU

    doc = _write(H20, "h20.json")
    plans = _plan_json(tmp_path, H20, capsys, top=3)["plans"]
    text = _cli(["plan", str(doc), "--top", "3"], capsys)
    grades = []
    for p in plans:
        e = _estimate_json(tmp_path, p["scenario"], capsys)
        assert e["mfu_grade"] == p["mfu_grade"] and p["mfu_grade"], (e["mfu_grade"], p["mfu_grade"])
        assert f"{p['mfu_used']:.0%} {p['mfu_grade']}" in text, text
        grades.append(p["mfu_grade"])
    monkeypatch.setattr(RU, "grade_bands", lambda c: RU.GradeBands())
    guide = [_estimate_json(tmp_path, p["scenario"], capsys)["mfu_grade"] for p in plans]
    assert guide != grades, (grades, guide)
