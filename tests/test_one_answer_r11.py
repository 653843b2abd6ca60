"""One plan, one answer on round 11's new paths (issue 35 r11 parity11).

Round 11 added a line under plan #1 naming the best plan with the framework's memory savers (core/advisor_savers.py,
expert11), a borrowed MFU ceiling's wording (rules._ceiling_text), vLLM V1 / SGLang chunked prefill in an idle
replica's first token (inference.prefill_chunk_tokens, serve11), a full recompute's MoE sync exposure in the backward
(timing.moe_recompute_sync_exposure, swiftlora11) and ZeRO-3's reduce-scatter latency per reduce bucket
(zero3.z3_rs_ops_layer, z3dpo11). For each: the same line or figure in ``gpuplanner plan`` (text and ``--json``),
``estimate`` and the PDF's text, all read from the one Answer; and the term is live (switching it off moves the
figure or drops the line), so a case cannot pass with the term absent. The Plans page's copy of the savers line is
checked in tests/ui/test_savers_parity_ui.py.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core import advisor_savers as SV
from gpuplanner.core import inference as I
from gpuplanner.core import rules as R
from gpuplanner.core import timing as T
from gpuplanner.core import zero3 as Z3
from gpuplanner.formatting import format_plan_days

sys.path.insert(0, str(Path(__file__).resolve().parent))
from i18n_scan import GLOSSARY, catalogue_words, data_words, english_words  # noqa: E402
from test_one_answer import _estimate_json, _plan_json  # noqa: E402
import test_one_answer_r10 as R10  # noqa: E402  (a module, so pytest does not collect its tests again here)
from test_one_answer_r10 import _patch  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "expert_review_r11"
#: expert11's 70B full fine-tune: #1 a tight month of 8 × H200; the savers line names the optimizer-offload plan.
#: Written with ``parallel.auto`` on (:func:`_auto`), so the plan the document stands for (app.answer.decide) is the
#: search's #1, the plan whose explanation carries the line: with a manual layout the report's plan is the scenario
#: as given and #1 is an alternative, shown without its explanation.
SAVERS_SRC = DATA / "full-70b-2b-tokens.json"
#: expert11's RTX 5090 LoRA: no published run of its class, the MFU ceiling is borrowed
CEILING_SRC = DATA / "lora-7b-5000cny-week.json"
#: serve11's idle-replica first token: expert11's 32B serving phase on A800, with 16,384-token contexts (prompt
#: 15,872 tokens over vLLM V1's 8,192 budget: the A800's device name has no "a100" in it, so vLLM gives it 8,192)
SERVE_SRC = DATA / "serve-32b-200-users.gpuplan"
KEPT = "Your choice is kept; change it to plan with this."


def _auto(src: Path, off: bool = False) -> Path:
    """``src`` with ``parallel.auto`` on, in a temporary folder; ``off``: with the savers written off by the user
    (round 15 searches the unset ones; the line is for those the user set: tests/savers_off.py)."""
    import tempfile

    d = json.loads(src.read_text(encoding="utf-8"))
    if off:
        from tests.savers_off import savers_off

        d = savers_off(d)
    d.setdefault("parallel", {})["auto"] = True
    out = Path(tempfile.mkdtemp(prefix="parity11-")) / src.name
    out.write_text(json.dumps(d), encoding="utf-8")
    return out


SAVERS_DOC = _auto(SAVERS_SRC, off=True)
CEILING_DOC = _auto(CEILING_SRC)


def _long_prompts(src: Path) -> Path:
    import tempfile

    d = json.loads(src.read_text(encoding="utf-8"))
    for ph in d["project"]["phases"]:
        if ph["kind"] == "inference":
            ph["inference"]["context_tokens"] = 16384
    out = Path(tempfile.mkdtemp(prefix="parity11-")) / src.name
    out.write_text(json.dumps(d), encoding="utf-8")
    return out


SERVE_DOC = _long_prompts(SERVE_SRC)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _tight(text: str) -> str:
    """Without any whitespace (pdftotext breaks Chinese lines anywhere)."""
    return "".join(text.split())


def _loose(text: str) -> str:
    """Without whitespace or hyphens: pdftotext joins a word broken at its hyphen at a line's end and drops the
    hyphen ("Large-Scale" broken after "Large-" comes back "LargeScale")."""
    return re.sub(r"[\s\-]", "", text)


def _cli(args: list[str], capsys) -> str:
    assert run_cli(args) == 0
    return capsys.readouterr().out


def _pdf_text(path: Path, tmp_path: Path, lang: str = "en") -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils not installed: the PDF's text cannot be read")
    import os

    pdf = tmp_path / f"r-{lang}.pdf"
    r = subprocess.run([sys.executable, "-m", "gpuplanner", "report", str(path), "-o", str(pdf), "--lang", lang],
                       capture_output=True, text=True, timeout=300, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"})
    assert r.returncode == 0, r.stdout + r.stderr
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                         check=True).stdout
    return out.replace("\ufb01", "fi").replace("\ufb02", "fl")


def _savers_msgs(plan) -> list:
    return [m for m in plan.explanation if m.text.startswith("With ") and m.text.endswith(KEPT)]


@pytest.fixture(scope="module")
def savers_answer():
    from gpuplanner.app.answer import answer

    ans = answer(SAVERS_DOC)
    assert ans.chosen_plan is ans.plans[0]  # the document stands for #1 (decide: automatic layout)
    (msg,) = _savers_msgs(ans.plans[0])
    return ans, msg


# ---------------------------------------------------------------------------- the savers line (expert11)

def test_savers_line_is_the_same_in_plan_text_json_and_pdf(savers_answer, tmp_path, capsys):
    """The line the Answer's #1 carries is printed once by ``plan``, once in ``plan --json``'s explanation of
    plan 1 (and no other plan), and once in the PDF."""
    _ans, msg = savers_answer
    line = _flat(msg.render())
    assert "parallel.offload_optimizer" in line
    text = _flat(_cli(["plan", str(SAVERS_DOC), "--top", "3"], capsys))
    assert text.count(line) == 1
    plans = _plan_json(tmp_path, json.loads(SAVERS_DOC.read_text(encoding="utf-8")), capsys, top=3)["plans"]
    expl = [[_flat(str(e)) for e in p.get("explanation", [])] for p in plans]
    assert sum(line in e for e in expl[0]) == 1, expl[0]
    assert not any(line in e for ex in expl[1:] for e in ex)
    assert _flat(_pdf_text(SAVERS_DOC, tmp_path)).count(line) == 1


def test_savers_line_figures_are_the_savers_plans_estimate(savers_answer, tmp_path, capsys):
    """The line's GPUs, days and cost are those ``estimate --json`` answers for the plan it names: the scenario with
    the savers set (advisor_savers.savers_scenario_dict), planned by ``plan --json``, then estimated."""
    from gpuplanner.core.scenario import Scenario
    from gpuplanner.core.search import searched_frameworks
    from gpuplanner.core.estimate import resolve_arch

    ans, msg = savers_answer
    s = ans.scenario
    arch = resolve_arch(s.model, None)
    d = SV.savers_scenario_dict(s, searched_frameworks(s, bool(arch.is_moe), arch)[0])
    assert d is not None and d["parallel"]["offload_optimizer"] is True
    Scenario.model_validate(d)
    (p,) = _plan_json(tmp_path, d, capsys, top=1)["plans"]
    e = _estimate_json(tmp_path, p["scenario"], capsys)
    line = msg.render()
    assert f"{e['num_gpus']} × " in line
    # round 12 (expert12): the span in the unit and precision of the plan's own lines (messages.elapsed_msg)
    assert msg.params["span"].render() in line and f"{e['calendar_days']:.2f} days" not in line
    assert f"{e['cost']:,.0f}" in line
    assert e["rental_mode"] == "card_hour" and "card-hours on demand" in line
    assert float(msg.params["days"]) == pytest.approx(e["calendar_days"], abs=0.05)
    assert msg.params["cost"] == pytest.approx(e["cost"], rel=1e-9)


def test_savers_line_is_live(monkeypatch, capsys):
    """With no framework documenting the optimizer offload, the line is gone from ``plan`` (and #1 is unchanged):
    the line is the savers' search, not text that is always there."""
    before = _cli(["plan", str(SAVERS_DOC), "--top", "1", "--json"], capsys)
    monkeypatch.setattr(SV, "OFFLOAD_FRAMEWORKS", ())
    after = _cli(["plan", str(SAVERS_DOC), "--top", "1", "--json"], capsys)
    one_b, one_a = json.loads(before)["plans"][0], json.loads(after)["plans"][0]
    assert any(KEPT in str(e) for e in one_b["explanation"])
    assert not any(KEPT in str(e) for e in one_a["explanation"])
    assert (one_a["cost"], one_a["calendar_days"], one_a["gpu"]) == (one_b["cost"], one_b["calendar_days"],
                                                                     one_b["gpu"])


def _zh_allowed() -> set[str]:
    return GLOSSARY | catalogue_words() | data_words()


def _zh_line(msg) -> str:
    from gpuplanner.commands import _lang
    from gpuplanner.i18n import translate_message

    _lang.install("zh_CN")
    try:
        return translate_message(msg.context, msg.text, msg.params)
    finally:
        _lang.install("en")


def test_savers_line_in_chinese_cli_and_pdf(savers_answer, tmp_path, capsys):
    """``plan --lang zh_CN`` and the zh PDF print the translated line (same figures), with no English word outside
    config keys and catalogue names."""
    _ans, msg = savers_answer
    zh = _zh_line(msg)
    assert zh != msg.render() and "parallel.offload_optimizer" in zh
    assert not english_words(zh, _zh_allowed()), english_words(zh, _zh_allowed())
    assert _zh_line(msg.params["span"]) in zh and f"{msg.params['cost']:,.0f}" in zh
    out = _cli(["plan", str(SAVERS_DOC), "--top", "1", "--lang", "zh_CN"], capsys)
    assert _tight(zh) in _tight(out)
    assert "Your choice" not in out and "best plan" not in out
    pdf = _pdf_text(SAVERS_DOC, tmp_path, "zh_CN")
    assert _tight(zh) in _tight(pdf)
    assert "Your choice" not in pdf and "best plan" not in pdf


# ---------------------------------------------------------------------------- the borrowed MFU ceiling (expert11)

def _ceiling_line(ev) -> str:
    return next(_flat(r.message.render()) for r in ev.rules if r.id == "mfu_ceiling")


def test_borrowed_ceiling_line_is_the_same_in_plan_estimate_and_pdf(tmp_path, capsys):
    """The MFU-ceiling check's sentence of the Answer's plan (a borrowed ceiling: RTX 5090 LoRA) reads the same in
    ``plan``, ``plan --json``, ``estimate --json`` of plan 1's scenario (its rules) and the PDF; the ceiling it quotes is
    the Evaluation's ``mfu_ceiling``."""
    from gpuplanner.app.answer import answer

    ans = answer(CEILING_DOC)
    ev = ans.plans[0].evaluation
    assert (ev.mfu_ceiling or {}).get("fallback")
    line = _ceiling_line(ev)
    assert "the ceiling it borrows" in line
    assert line in _flat(_cli(["plan", str(CEILING_DOC), "--top", "1"], capsys))
    (p,) = _plan_json(tmp_path, json.loads(CEILING_DOC.read_text(encoding="utf-8")), capsys, top=1)["plans"]
    # (``estimate``'s text prints no planning-rule lines at all; its ``--json`` has them)
    e = _estimate_json(tmp_path, p["scenario"], capsys)
    for j in (p, e):
        rules = [_flat(str(r.get("message", ""))) for r in j.get("rules", []) if r.get("id") == "mfu_ceiling"]
        assert rules == [line], rules
    assert e["mfu_ceiling"]["mfu"] == pytest.approx(ev.mfu_ceiling["mfu"]) and e["mfu_ceiling"].get("fallback")
    assert _loose(line) in _loose(_pdf_text(CEILING_DOC, tmp_path))


def test_borrowed_ceiling_wording_is_live(monkeypatch, capsys):
    """Without the fallback flag's wording the CLI says "of its class" again (the line follows rules._ceiling_text)."""
    orig = R._ceiling_text
    monkeypatch.setattr(R, "_ceiling_text", lambda above, borrowed, *rest: orig(above, False, *rest))
    out = _flat(_cli(["plan", str(CEILING_DOC), "--top", "1"], capsys))
    assert "the ceiling it borrows" not in out and "of its class" in out


# ---------------------------------------------------------------------------- chunked prefill's first token (serve11)

def test_first_token_is_the_same_in_project_cli_and_pdf(tmp_path, capsys):
    """The idle replica's first token of the serving phase: ``project`` prints the Answer's ``ttft_s`` and the PDF
    the same milliseconds; vLLM V1's 8,192-token budget splits the 15,872-token prompt, and without the chunk
    (``prefill_chunk_tokens`` None, TensorRT-LLM's default) the figure moves."""
    from gpuplanner.formatting import format_number

    def first_token_ms(out: str) -> str:
        m = re.search(r"first token in ([\d,]+) ms", _flat(out))
        assert m, out[-2000:]
        return m.group(1)

    cli = _flat(_cli(["project", str(SERVE_DOC)], capsys))
    ms = first_token_ms(cli)
    pdf = _flat(_pdf_text(SERVE_DOC, tmp_path))
    # one sentence in both (core.serving_facts.first_token_line; round 12, tidy12: the PDF had its own shorter copy)
    line = re.search(r"vLLM: KV cache [\d.,]+ GiB per GPU, first token in [\d,]+ ms on an idle replica", cli)
    assert line and line.group(0) in pdf and f"first token in {ms} ms" in pdf
    zh_cli = _tight(_cli(["project", str(SERVE_DOC), "--lang", "zh_CN"], capsys))
    zh = re.search(r"vLLM：单卡KV缓存[\d.,]+GiB，空闲副本上首个token用时[\d,]+ms", zh_cli)
    assert zh and zh.group(0) in _tight(_pdf_text(SERVE_DOC, tmp_path, "zh_CN"))
    from gpuplanner.core.catalog_hw import get_gpu
    assert I.prefill_chunk_tokens("vllm", get_gpu("a800-sxm-80gb")) == 8192
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(I, "prefill_chunk_tokens", lambda *a, **k: None)
        whole = first_token_ms(_cli(["project", str(SERVE_DOC)], capsys))
    assert whole != ms and float(whole.replace(",", "")) < float(ms.replace(",", ""))
    assert format_number(float(ms.replace(",", "")), 0) == ms


# ---------------------------------------------------------------------------- training terms: search == evaluate

def _rs_per_layer(orig):
    return lambda *a, **k: (1.0, orig(*a, **k)[1])


ROUND11_CASES = [
    ("moe-recompute-sync",  # swiftlora11: a full recompute's re-run MoE forward syncs inside the backward
     {"model": {"preset": "qwen3-30b-a3b"},
      "training": {"framework": "megatron-swift", "method": "lora", "seq_len": 2048, "micro_batch_size": 8,
                   "global_batch_size": 16, "padding_free": True, "recompute": "full", "lora_rank": 8,
                   "lora_targets": "all_linear"},
      "data": {"tokens": 5e7, "mean_sample_len": 465},
      "constraints": {"max_gpus": 8, "gpu_candidates": ["a800-sxm-80gb"]}},
     [_patch(T, "moe_recompute_sync_exposure", lambda exp_b, rec_whole, gx_b, e_half, ops=None: 0.0 * exp_b)]),
    ("z3-reduce-scatter-per-bucket",  # z3dpo11: one reduce-scatter per reduce bucket, not per layer
     {"model": {"preset": "llama-3-8b"},
      "training": {"method": "full", "framework": "deepspeed", "seq_len": 1024, "micro_batch_size": 1,
                   "global_batch_size": 64},
      "parallel": {"zero": 3}, "data": {"tokens": 2e8},
      "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}},
     [_patch(Z3, "z3_rs_ops_layer", _rs_per_layer(Z3.z3_rs_ops_layer))]),
]
IDS = [k for k, _, _ in ROUND11_CASES]


@pytest.mark.parametrize("d", [copy.deepcopy(d) for _, d, _ in ROUND11_CASES], ids=IDS)
def test_round11_paths_search_equals_evaluate(d, tmp_path, capsys):
    """The ranking's arrays equal ``evaluate`` of each candidate, and the top plans of ``plan --json`` reproduce with
    ``estimate --json`` (round 10's harness on round 11's terms)."""
    R10.test_round10_paths_search_equals_evaluate(d, tmp_path, capsys)


@pytest.mark.parametrize("case", ROUND11_CASES, ids=IDS)
def test_round11_term_moves_the_search_rows(case, monkeypatch):
    """Switching the case's round-11 term off moves the ranking's own rows (compute hours of some candidates that
    fit) and leaves the rest: the search reads the term, not a copy of it. (The top plans alone cannot show it for
    the MoE case: with short packed samples the search's best recompute is selective or none, where the full
    recompute's sync term is zero by its mechanism; the rows with ``recompute: full`` carry it.)"""
    import numpy as np

    from gpuplanner.core import search as S
    from gpuplanner.core.scenario import scenario_from_dict

    _, d, toggles = case
    s = scenario_from_dict(d)
    ctx = next(x for x in S.iter_contexts(s) if len(S.enumerate_candidates(x, s.constraints.max_gpus)["tp"]))
    c = S.enumerate_candidates(ctx, s.constraints.max_gpus)
    on = S.evaluate_candidates(ctx, c)
    for off in toggles:
        with monkeypatch.context() as mp:
            off(d, mp)
            without = S.evaluate_candidates(ctx, c)
        fit = on["fits"] & without["fits"]
        assert fit.any()
        moved = ~np.isclose(on["train_hours"][fit], without["train_hours"][fit], rtol=1e-9, atol=0.0)
        assert moved.any(), off.__name__


def test_moe_recompute_sync_moves_estimate_of_a_full_recompute_plan(tmp_path, capsys, monkeypatch):
    """swiftlora11's own layout (Qwen3-30B-A3B LoRA, EP 2 on 2 × A800, full recompute, 465-token samples):
    ``estimate --json`` reads the term (its step time falls with the term off) and ``plan --json``'s plans
    reproduce with ``estimate --json``."""
    d = {"model": {"preset": "qwen3-30b-a3b"},
         "training": {"framework": "megatron-swift", "method": "lora", "seq_len": 2048, "micro_batch_size": 8,
                      "global_batch_size": 16, "padding_free": True, "packing": False, "recompute": "full",
                      "lora_rank": 8, "lora_targets": "all_linear"},
         "parallel": {"ep": 2, "zero": 1}, "hardware": {"gpu": "a800-sxm-80gb", "num_gpus": 2},
         "data": {"tokens": 5e7, "mean_sample_len": 465}}
    on = _estimate_json(tmp_path, d, capsys)
    monkeypatch.setattr(T, "moe_recompute_sync_exposure", lambda exp_b, rec_whole, gx_b, e_half, ops=None: 0.0 * exp_b)
    off = _estimate_json(tmp_path, d, capsys)
    assert off["step_time_s"] < on["step_time_s"] * (1 - 1e-3), (on["step_time_s"], off["step_time_s"])
    assert on["time_parts"] != off["time_parts"]


def test_borrowed_ceiling_line_reads_as_chinese(capsys):
    """The borrowed-ceiling sentence in ``plan --lang zh_CN``: translated, with only the cited run's words (data)
    left in Latin letters."""
    from gpuplanner.app.answer import answer

    ev = answer(CEILING_DOC).plans[0].evaluation
    (msg,) = [r.message for r in ev.rules if r.id == "mfu_ceiling"]
    zh = _zh_line(msg)
    assert zh != msg.render()
    assert not english_words(zh, _zh_allowed()), english_words(zh, _zh_allowed())
    out = _cli(["plan", str(CEILING_DOC), "--top", "1", "--lang", "zh_CN"], capsys)
    assert _tight(zh) in _tight(out) and "borrows" not in out
