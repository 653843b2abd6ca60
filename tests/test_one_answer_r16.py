"""One plan, one answer on round 16's mechanisms and on the figures views used to work out themselves (issue 35
r16 parity16).

Round 16 added to the estimate (each reaches the search's arrays and ``evaluate`` alike, so the ranked plans and the
one-plan views agree): Megatron's tied word-embedding gradient all-reduce between the first and last pipeline stage
(scale16, ``timing.tied_embedding_grad_bytes``); the HF stack on Accelerate FSDP1 with PEFT LoRA gets the per-leaf
adapter units (ftoos16); the HF stack's FSDP1 steps AdamW foreach over its original parameters (memoos16). Round 15's
asynchronous RL schedule (rlasync15: ``training.rl.schedule`` async, ``steps_in_flight``, ``regeneration_share``)
had no search parity test. Round 10's harness checks each: every sampled candidate's memory, fit, days, MFU and cost
equal ``evaluate`` of its complete scenario, and ``plan --json``'s top plans reproduce with ``estimate --json``.

Views that computed (each test failed before its fix): see the tests below and
docs/notes/2026-12-07/issue-35-r16-parity16.md.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_one_answer import _estimate_json, _plan_json  # noqa: E402,F401
import test_one_answer_r10 as R10  # noqa: E402  (a module, so pytest does not collect its tests again here)

ROOT = Path(__file__).resolve().parents[1]

#: a small GPT with tied input / output embeddings on Megatron (scale16's model, narrower): PP > 1 layouts pay the
#: embedding group's all-reduce, PP 1 layouts do not
TIED = {"model": {"name": "GPT tied small", "hidden_size": 4096, "num_hidden_layers": 16, "num_attention_heads": 32,
                  "num_key_value_heads": 32, "intermediate_size": 16384, "vocab_size": 51200, "gated_mlp": False,
                  "tie_word_embeddings": True},
        "training": {"framework": "megatron", "method": "pretrain", "seq_len": 2048, "micro_batch_size": 1,
                     "global_batch_size": 64},
        "parallel": {"zero": 1}, "data": {"tokens": 2e8},
        "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}}

#: the HF stack on Accelerate FSDP1 with PEFT LoRA (ftoos16's per-leaf adapter units)
HF_FSDP1_LORA = {"model": {"preset": "llama-2-7b"},
                 "training": {"method": "lora", "framework": "hf", "fsdp_version": 1, "precision": "bf16",
                              "seq_len": 1024, "micro_batch_size": 4, "global_batch_size": 64,
                              "recompute": "full"},
                 "parallel": {"zero": 3}, "data": {"tokens": 5e7},
                 "constraints": {"max_gpus": 8, "gpu_candidates": ["a100-sxm-80gb"]}}

#: the HF stack's FSDP1 full fine-tune with foreach AdamW over the original parameters (memoos16)
HF_FSDP1_FOREACH = {"model": {"preset": "mistral-7b-v0.1"},
                    "training": {"framework": "hf", "method": "full", "seq_len": 4096, "packing": True,
                                 "micro_batch_size": 1, "global_batch_size": 32, "recompute": "full",
                                 "checkpoint_reentrant": True, "flash_attention": True, "optimizer": "adamw",
                                 "precision": "bf16", "master_weights": False, "optimizer_implementation": "foreach",
                                 "fsdp_version": 1},
                    "parallel": {"zero": 3}, "data": {"tokens": 5e7},
                    "constraints": {"max_gpus": 8, "gpu_candidates": ["a100-sxm-80gb"]}}


def _grpo_async() -> dict:
    rl = {"group_size": 8, "rollout_len": 2048, "prompt_len": 512, "mean_response_fraction": 0.25,
          "generation_engine": "vllm_separate", "generation_gpu_fraction": 0.5, "rollout_tp": 1,
          "schedule": "async", "steps_in_flight": 4, "reward": "function", "regeneration_share": 0.2}
    return {"model": {"preset": "qwen2.5-1.5b"},
            "training": {"framework": "deepspeed", "objective": "grpo", "method": "full", "seq_len": 2560,
                         "micro_batch_size": 1, "global_batch_size": 64, "recompute": "full",
                         "flash_attention": True, "packing": True, "preference": {"reference": "none"}, "rl": rl},
            "parallel": {"zero": 2}, "data": {"tokens": 2e7},
            "constraints": {"max_gpus": 8, "gpu_candidates": ["h100-sxm-80gb"]}}


R16_CASES = {"tied-embedding-pp": TIED, "hf-fsdp1-lora-units": HF_FSDP1_LORA, "hf-fsdp1-foreach": HF_FSDP1_FOREACH,
             "grpo-async": _grpo_async()}


@pytest.mark.parametrize("name", list(R16_CASES))
def test_round16_search_equals_evaluate(name, tmp_path, capsys):
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(R16_CASES[name]), tmp_path, capsys)


# ---------------------------------------------------------------------------- views that worked figures out

import re  # noqa: E402

VIEWS = [p for d in ("ui", "report", "commands") for p in (ROOT / "gpuplanner" / d).rglob("*.py")] + [
    ROOT / "gpuplanner" / "cli.py"]
#: a view's own figure, each found before parity16: the ideal linear line scaled from the smallest count's days
#: (ui/charts/scaling.py, report/render.py: core.evaluate.Scaling.ideal_calendar_days), the tokens of a step as the
#: global batch × the sequence length (the Training page: the Evaluation's time.tokens_per_step)
COMPUTES = [
    (re.compile(r"ideal.*\b[\w.\]\[]+\s*\*\s*[\w.\]\[]+\s*/\s*\w+"), "ideal line: Scaling.ideal_calendar_days"),
    (re.compile(r"\bglobal_batch\w*\s*\*\s*[\w.]*seq_len"), "tokens per step: Evaluation.time.tokens_per_step"),
    (re.compile(r"\b7(\.0)?\s*\*\s*[\w.]*week"), "weeks to days: formatting.phase_spans / format_weeks"),
    (re.compile(r"(days|hours)\w*\s*/\s*(7|24)(\.0)?\b"), "a span's unit: formatting.in_unit / format_hours"),
    (re.compile(r"n\s*/\s*scale"), "bytes in a storage unit: formatting.format_storage_bytes"),
]


def _computing_lines(lines):
    return [(line, what) for line in lines for rx, what in COMPUTES if rx.search(line)]


def test_no_view_works_out_the_ideal_line_or_the_step_tokens():
    found = []
    for p in VIEWS:
        for i, (line, what) in enumerate(_computing_lines(p.read_text(encoding="utf-8").splitlines()), 1):
            found.append(f"{p.relative_to(ROOT)}: {line.strip()} ({what})")
    assert not found, "\n".join(found)


def test_the_scan_finds_the_old_lines():
    old = ["    ideal = [d0 * n0 / n for n in xs]", "                self.ideal.setData(xs, base_days * xs[0] / xs)",
           "        tokens = s.global_batch * s.training.seq_len",
           "    unit = elapsed_unit(max((7 * p.end_week for p in res.phases), default=0.0))",
           "        cost=_money(res.total_cost, cur), w=format_elapsed(7 * res.total_weeks, language())))",
           "    weeks = p.calendar_days / 7", "s=format_elapsed(p.setup_hours / 24.0, unit=\"hours\")))",
           "            return f\"{format_sig(n / scale, 3)} {unit}\""]
    assert len(_computing_lines(old)) == 8


def test_scaling_ideal_days_by_hand():
    """``Scaling.ideal_calendar_days``: the fewest calendar days at the smallest count that runs, × n0 / n, at every
    count of ``ideal_gpus``; a count that runs nowhere keeps its place on the line."""
    from gpuplanner.core.evaluate import ScalingSeries, _ideal_scaling

    nan = float("nan")
    series = [ScalingSeries("nvlink", (2, 4, 8), (nan, 400.0, 780.0), (nan, 10.0, 5.5), (nan, 9.0, 4.6)),
              ScalingSeries("pcie", (2, 4, 8), (nan, 380.0, 700.0), (nan, 9.5, 6.0), (nan, 9.4, 5.0)),
              ScalingSeries("multinode", (16,), (nan,), (nan,), (nan,))]
    xs, toks, days = _ideal_scaling(series)
    assert xs == [4, 8, 16]
    assert toks == [400.0, 800.0, 1600.0]
    assert days == [9.5, 4.75, 2.375]  # 9.5 (PCIe's fewer days at 4) × 4 / n


# ---------------------------------------------------------------------------- the vendor quotes: one comparison

#: a view's own call of the core's comparison (before parity16: gpuplanner quotes, the PDF's content and the Quotes
#: page each called core.quotes.compare(…, plan_figures(ev)) and core.quotes.project_quotes)
QUOTES_CALL = re.compile(r"(?<![\w.])(compare|plan_figures|project_quotes)\(|core\.quotes import[^\n]*\b(compare|plan_figures|"
                         r"project_quotes)\b")


def test_no_view_compares_the_quotes_itself():
    found = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}" for p in VIEWS
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if QUOTES_CALL.search(line)]
    assert not found, "\n".join(found)
    assert QUOTES_CALL.search("    from ..core.quotes import compare, plan_figures")
    assert QUOTES_CALL.search("            c = compare(valid, plan_figures(ev))")


def test_quotes_storage_is_the_evaluations(monkeypatch):
    """The storage and egress the quotes price are the bytes ``Evaluation.storage`` holds (the PDF's storage
    requirements): with the Evaluation's figure changed, the quotes follow (before parity16 core.quotes.plan_figures
    worked them out again and did not)."""
    from gpuplanner.core import evaluate as E
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.quotes import plan_figures
    from gpuplanner.core.scenario import Scenario

    ev = evaluate(Scenario.model_validate({"model": {"preset": "llama-3.1-8b"}, "data": {"tokens": "1B"},
                                           "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}))
    need = ev.storage
    p = plan_figures(ev)
    assert p.storage_tb == pytest.approx((need.data_bytes + 3 * need.checkpoint_bytes + need.weights_bytes) / 1e12)
    assert p.egress_tb == pytest.approx((need.checkpoint_bytes + need.weights_bytes) / 1e12)
    assert p.checkpoint_tb == pytest.approx(need.checkpoint_bytes / 1e12)
    monkeypatch.setattr(E, "storage_needs", lambda e: E.StorageNeeds(checkpoint_bytes=1e12, data_bytes=2e12,
                                                                      weights_bytes=0.0))
    p2 = plan_figures(ev)
    assert (p2.storage_tb, p2.egress_tb, p2.checkpoint_tb) == pytest.approx((5.0, 1.0, 1.0))


def test_cli_and_pdf_compare_the_quotes_alike(tmp_path, capsys):
    """``gpuplanner quotes FILE --json`` and the PDF's quotes section (per phase too) are the one Answer's comparison:
    the example project's plan file with the example quote sheets stored (``quotes --save``)."""
    import json
    import shutil

    from gpuplanner.app.answer import answer
    from gpuplanner.cli import run_cli
    from gpuplanner.report.content import build_report_data

    doc = tmp_path / "project.gpuplan"
    shutil.copy(ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan", doc)
    sheets = [str(p) for p in sorted((ROOT / "examples" / "quotes").glob("*.csv"))]
    assert run_cli(["quotes", str(doc), *sheets, "--save", "--json"]) == 0
    with_sheets = json.loads(capsys.readouterr().out)
    assert run_cli(["quotes", str(doc), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert cli == with_sheets and cli["vendors"]
    data = build_report_data(answer(doc))
    assert data.quotes is not None
    pdf = data.quotes.to_json()
    if data.quotes_project is not None:
        pdf["project"] = data.quotes_project.to_json()
    assert json.loads(json.dumps(pdf, default=str)) == cli


# ---------------------------------------------------------------------------- one RL training-pass MFU, one failed list

def test_estimate_prints_the_evaluations_training_pass_mfu(tmp_path, capsys, monkeypatch):
    """``estimate``'s "MFU, training" is ``Evaluation.rl_training_mfu``, the figure ``plan``, the Plans page and the PDF
    print beside the step's MFU (before parity16 ``estimate`` read the time model's ``mfu_training`` itself): with
    the Evaluation's figure changed, the line follows."""
    import json

    from gpuplanner.cli import run_cli
    from gpuplanner.core import evaluate as E

    d = _grpo_async()
    d.pop("constraints")
    d["hardware"] = {"gpu": "h100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8}
    doc = tmp_path / "grpo.json"
    doc.write_text(json.dumps(d), encoding="utf-8")
    monkeypatch.setattr(E.Evaluation, "rl_training_mfu", property(lambda self: 0.4321))
    assert run_cli(["estimate", str(doc), "--lang", "en"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if "MFU, training" in ln)
    assert "43.2% of the training passes" in line, line


def test_plan_table_lists_the_evaluations_failed_rules(monkeypatch):
    """The ``plan`` table's "rule ids failed" and the Plans page's ✗ read ``Evaluation.failed_rules`` (the views
    filtered the rules' statuses again before parity16)."""
    import inspect

    from gpuplanner.commands import plan as P
    from gpuplanner.ui.pages import plans_page as PP

    assert "evaluation.failed_rules" in inspect.getsource(P) and "evaluation.failed_rules" in inspect.getsource(
        PP.failed_rules)
    # the old lines: a list of the failed rules filtered from the rules again (a rule row's colour is formatting)
    old = re.compile(r"(\[r for r in [\w.]*rules if r\.status == \"failed\"\])|(r\.id for r in [\w.]*rules if "
                     r"r\.status == \"failed\")")
    assert old.search('    return [r for r in p.plan.evaluation.rules if r.status == "failed"]')
    assert old.search('        failed = ",".join(r.id for r in p.rules if r.status == "failed") or "-"')
    found = [f"{p.relative_to(ROOT)}:{i}" for p in VIEWS for i, line in
             enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if old.search(line)]
    assert not found, found


# ---------------------------------------------------------------------------- the acceptance kit's "Plan before"

#: a plan the MFU ceiling caps: Llama-3.1-8B on 8 × A100 with Megatron models 47.7%, timed at the class's 46%
CAPPED = {"model": {"preset": "llama-3.1-8b"}, "data": {"tokens": "1B"},
          "training": {"method": "full", "framework": "megatron", "seq_len": 4096, "micro_batch_size": 1,
                       "global_batch_size": 64, "recompute": "full"},
          "parallel": {"zero": 1}, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 8, "gpus_per_node": 8}}


def test_kit_before_figures_are_the_plans(tmp_path, capsys):
    """``kit --import``'s "Plan before" (and the Verify page's) MFU, tokens/s per GPU, days and GPU-hours are the
    Evaluation's, the figures ``estimate --json`` prints: on a capped plan the MFU it is timed at, not the time
    model's own (before parity16 the kit read core.estimate: 47.7% beside the plan's 46%)."""
    import json

    from gpuplanner.cli import run_cli
    from gpuplanner.core.evaluate import evaluate
    from gpuplanner.core.scenario import Scenario
    from gpuplanner.verify import acceptance as A

    s = Scenario.model_validate(CAPPED)
    ev = evaluate(s)
    assert ev.mfu_capped and ev.mfu < ev.mfu_modelled
    doc = tmp_path / "capped.json"
    doc.write_text(json.dumps(CAPPED), encoding="utf-8")
    assert run_cli(["estimate", str(doc), "--json"]) == 0
    est = json.loads(capsys.readouterr().out)
    b = A._figures(s, None)  # before_after's "before" (its "after": the same of the measured-MFU scenario)
    assert b["mfu"] == pytest.approx(est["mfu"], rel=1e-12) and b["mfu"] != pytest.approx(ev.mfu_modelled, rel=1e-6)
    assert b["tokens_per_s_per_gpu"] == pytest.approx(est["tokens_per_s_per_gpu"], rel=1e-12)
    assert b["compute_days"] == pytest.approx(est["compute_days"], rel=1e-12)
    assert b["gpu_hours"] == pytest.approx(ev.gpu_hours, rel=1e-12)


def test_kit_before_after_reads_the_figures_of_both_plans(tmp_path):
    """``before_after`` is ``_figures`` of the plan and of the plan at the measured MFU (the H100 example with the
    kit's sample result): the "after" MFU is the measured one, uncapped (an assumed MFU is evidence)."""
    from gpuplanner.io.scenario_files import load_scenario
    from gpuplanner.verify import acceptance as A

    s, base = load_scenario(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json")
    a = A.analyse(A.load_kit_result(ROOT / "tests" / "data" / "kit" / "result-cpu-sample.json"), s, base_dir=base)
    ba = A.before_after(s, a, base)
    assert ba["before"] == A._figures(s, base)
    after = A.apply_measured_mfu(s, a)
    assert ba["after"] == A._figures(after, base) and ba["after"]["mfu"] == pytest.approx(after.assumptions.mfu)
