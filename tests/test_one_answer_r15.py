"""One plan, one answer on round 15's new lines and figures (issue 35 r15 parity15).

Round 15 added: the "cheapest" objective's price tie (advice15, search.CHEAPEST_TIE: a rank line "Ranks #1: x% dearer
than the cheapest plan …" and the why-beats tie sentences); the poor MFU line per card class (advice15,
rules.grade_bands' poor_below: the rule's line "poor for its class (below 41% …)"); prices of one kind said (advice15:
the savers line's "… at the default price for …", cost._kept_compared's "The comparisons with … use the default price
…"); ``hardware.gpus_per_node`` in the search (consist15, catalog_hw.server_gpus: "Servers of 4 GPUs, as entered …");
a GB200 NVL72 plan inside its NVLink domain names NVLink and asks for no network (consist15: Evaluation.links, the
search's "… servers inside one NVLink domain …" warning, the quotes' "not needed (one NVLink domain)"); the HF
stack's FSDP1 at ZeRO 2/3 (consist15, frameworks.hf_sharded_by_fsdp) and LitGPT's LoRA layer (ftoos15,
``training.lora_layer`` "litgpt").

For each: a document where the line or figure is live (switching its rule off changes it, so a test can fail), and
the same words in ``plan`` (text and ``--json``), ``estimate``, the PDF's text layer (pdftotext, en and zh) and the
project / quotes views, all read from the one Answer (app.answer). The Plans page's copies are checked in
tests/ui/test_one_answer_r15_ui.py. Not covered: savers15's savers a plan applies unasked (not on main when this was
written).
"""

from __future__ import annotations

import copy
import json
import re
import sys
import tempfile
from pathlib import Path

import pytest

from gpuplanner.core import search as S

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_one_answer import _estimate_json, _plan_json  # noqa: E402
import test_one_answer_r10 as R10  # noqa: E402  (a module, so pytest does not collect its tests again here)
from test_one_answer_r11 import _cli, _flat, _pdf_text, _tight, _zh_allowed, _zh_line  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
R15 = ROOT / "tests" / "data" / "expert_review_r15"
R14 = ROOT / "tests" / "data" / "expert_review_r14"


def _doc(path: Path, **over) -> dict:
    """The request with ``parallel.auto`` on: the document then stands for the search's #1 (estimate, PDF, project)."""
    d = json.loads(path.read_text(encoding="utf-8"))
    d.setdefault("parallel", {})["auto"] = True
    for k, v in over.items():
        d[k] = v
    return d


def _write(d: dict, name: str) -> Path:
    out = Path(tempfile.mkdtemp(prefix="parity15-")) / name
    out.write_text(json.dumps(d), encoding="utf-8")
    return out


def _block(out: str, n: int) -> str:
    """Plan ``n``'s block of the CLI's plan text."""
    return out.split(f"\n{n}. ", 1)[1].split(f"\n{n + 1}. ", 1)[0]


def _one(lines, marker: str):
    """The one Msg of ``lines`` whose English text contains ``marker``."""
    got = [m for m in lines if marker in m.text]
    assert len(got) == 1, [m.text for m in lines]
    return got[0]


def _pdf_joined(text: str) -> str:
    """The PDF's text with each page break undone: the page's footer (the title and "n/m") dropped, and a line that
    Qt draws on both sides of the break (a line of a table cell straddling it: clipped at the foot of one page and
    drawn again at the head of the next) kept once."""
    pages = [p.rstrip("\n").split("\n") for p in text.split("\x0c")]
    out: list[str] = []
    for lines in pages:
        if len(lines) >= 3 and re.fullmatch(r"\d+/\d+", lines[-1].strip()):
            lines = lines[:-1]
            while lines and not lines[-1].strip():
                lines = lines[:-1]
            lines = lines[:-1]  # the title above the page number
        while lines and not lines[0].strip():
            lines = lines[1:]
        last = next((x for x in reversed(out) if x.strip()), None)
        if lines and last is not None and lines[0].strip() == last.strip():
            lines = lines[1:]
        out += lines
    return "\n".join(out)


def _everywhere(msg, doc: Path, tmp_path: Path, capsys, *, estimate: bool = True, zh: bool = True) -> str:
    """``msg`` (a core Msg of the Answer's chosen plan) printed word for word by ``plan`` (#1's block, once),
    ``estimate`` and the en PDF; its translation by ``plan --lang zh_CN`` and the zh PDF, with none of its English."""
    line = _flat(msg.render())
    one = _flat(_block(_cli(["plan", str(doc), "--top", "2", "--lang", "en"], capsys), 1))
    assert one.count(line) == 1, (line, one)
    if estimate:
        assert line in _flat(_cli(["estimate", str(doc), "--lang", "en"], capsys))
    assert _tight(line) in _tight(_pdf_joined(_pdf_text(doc, tmp_path)))
    if zh:
        z = _zh_line(msg)
        assert z != line
        assert _tight(z) in _tight(_cli(["plan", str(doc), "--top", "2", "--lang", "zh_CN"], capsys))
        zpdf = _pdf_joined(_pdf_text(doc, tmp_path, "zh_CN"))
        assert _tight(z) in _tight(zpdf) and line not in _flat(zpdf)
    return line


# ---------------------------------------------------------------------------- the "cheapest" objective's price tie

#: advice15's request 02 (LoRA Qwen2.5-72B, 200M tokens, 5 days, 8,000 CNY): #1 is 8 × H800, 4.4% dearer than the
#: cheapest plan (4 × H800) and half its time; it ranks first by the tie
TIE = R15 / "02-lora-72b-5days-8000cny.json"


def test_price_tie_rank_line_is_the_answers_everywhere(tmp_path, capsys):
    """#1's rank line (search._price_tie_line) is the Answer's chosen plan's: ``plan`` text and ``--json``, the en PDF
    and, translated, the zh CLI and PDF; the document's Evaluation is ``plan --json``'s #1."""
    from gpuplanner.app.answer import answer

    doc = _write(_doc(TIE), "tie.json")
    ans = answer(doc)
    chosen = ans.chosen_plan
    assert chosen is not None and ans.search.plans[0] is chosen
    msg = _one(chosen.explanation, "dearer than the cheapest plan")
    (p, _second) = _plan_json(tmp_path, _doc(TIE), capsys, top=2)["plans"]
    assert (p["gpu"], p["num_gpus"], p["cost"]) == (chosen.gpu, chosen.num_gpus, pytest.approx(chosen.cost, rel=1e-12))
    assert _flat(msg.render()) in [_flat(x) for x in p["explanation"]]
    assert ans.evaluation.cost == pytest.approx(p["cost"], rel=1e-12)
    _everywhere(msg, doc, tmp_path, capsys, estimate=False)


def test_price_tie_is_live(tmp_path, capsys, monkeypatch):
    """Without the tie (CHEAPEST_TIE 0) #1 is the cheapest plan, slower, with no tie line: the rank line is the tie's."""
    with_tie = _plan_json(tmp_path, _doc(TIE), capsys, top=2)["plans"][0]
    monkeypatch.setattr(S, "CHEAPEST_TIE", 0.0)
    without = _plan_json(tmp_path, _doc(TIE), capsys, top=2)["plans"][0]
    assert without["cost"] < with_tie["cost"] and without["calendar_days"] > with_tie["calendar_days"] * 1.5
    assert not any("dearer than the cheapest plan" in x for x in without["explanation"])


def test_why_beats_sentences_in_json_are_the_answers(tmp_path, capsys):
    """The why-beats sentences (``decision``; search.TIE_WHY where the tie decided) of ``plan --json``'s #1 are the
    Answer's chosen plan's (the Plans page lists the same: tests/ui). The ``plan`` text and the PDF do not print
    them (their #1 block carries the rank line, checked above)."""
    from gpuplanner.app.answer import answer

    d = _doc(R15 / "full-8b-cheapest-tie.json")
    doc = _write(d, "tie8b.json")
    (p, *_rest) = _plan_json(tmp_path, d, capsys, top=3)["plans"]
    chosen = answer(doc).chosen_plan
    assert p["decision"] and [x["rule"] for x in p["decision"]] == [x["rule"] for x in chosen.decision]
    assert [x["message"] for x in p["decision"]] == [_flat(x["message"].render()) for x in chosen.decision]


# ---------------------------------------------------------------------------- the poor MFU line per card class

#: round 14's 128k LoRA of Qwen2.5-14B: #1 on 8 × H20 grades poor for its class (below 41%) but passes the rule
POOR = R14 / "06-sft-128k-14b-lora.json"
#: (advice18: with ZeRO sharded over the context-parallel ranks the search now finds 8 × A800, CP 8, at 1.4 days, the
#: request's #1; the H20 plan these tests read is that request with its candidates narrowed to the H20)
H20_ONLY = {"gpu_candidates": ["h20-96gb"]}


def _poor_doc() -> dict:
    d = _doc(POOR)
    d.setdefault("constraints", {}).update(H20_ONLY)
    return d


def test_class_poor_line_is_the_answers_everywhere(tmp_path, capsys):
    """The rule's line (rules._mfu_grade_rule: "poor for its class (below 41% …)") and the grade: ``plan --json``'s
    #1, ``estimate --json``, the ``plan`` and ``estimate`` text and the PDF (en, zh) print the Answer's."""
    from gpuplanner.app.answer import answer

    doc = _write(_poor_doc(), "poor.json")
    ev = answer(doc).evaluation
    assert ev.scenario.hardware.gpu == "h20-96gb" and ev.mfu_grade == "poor"
    rule = next(r for r in ev.rules if r.id == "mfu_grade")
    assert rule.status == "passed" and "poor for its class (below 41%" in rule.message.render()
    (p,) = _plan_json(tmp_path, _poor_doc(), capsys, top=1)["plans"]
    e = json.loads(_cli(["estimate", str(doc), "--json"], capsys))
    for js in (p, e):
        assert js["mfu_grade"] == "poor"
        r = next(r for r in js["rules"] if r["id"] == "mfu_grade")
        assert r["status"] == "passed" and _flat(r["message"]) == _flat(rule.message.render())
    _everywhere(rule.message, doc, tmp_path, capsys, estimate=False)  # (``estimate`` text lists no rules)


def test_class_poor_line_is_live(tmp_path, capsys, monkeypatch):
    """With the guide's 30% for every class (rules.grade_bands' poor line unscaled) the same plan grades fair in
    ``estimate --json`` (the class's line reaches the printed word)."""
    from gpuplanner.core import rules as RU

    doc = _write(_poor_doc(), "poor.json")
    on = json.loads(_cli(["estimate", str(doc), "--json"], capsys))
    assert on["mfu_grade"] == "poor"
    real = RU.grade_bands

    def guide(c):
        b = real(c)
        return type(b)(RU.MFU_POOR_BELOW, *[getattr(b, f) for f in type(b).__dataclass_fields__][1:])

    monkeypatch.setattr(RU, "grade_bands", guide)
    assert json.loads(_cli(["estimate", str(doc), "--json"], capsys))["mfu_grade"] == "fair"


# ---------------------------------------------------------------------------- prices of one kind said

MIXED = R15 / "08-mixed-quote-sheet-glm4-9b-full.json"
RENTED = R15 / "09-already-rented-8xa800-month-full-14b.json"


def test_savers_line_default_price_is_the_answers_everywhere(tmp_path, capsys):
    """The savers line under #1 naming a plan billed "at the default price for …" (advisor_savers._billed_as) is the
    Answer's chosen plan's explanation line: ``plan`` text and ``--json``, the PDF, zh CLI and zh PDF."""
    from gpuplanner.app.answer import answer

    from tests.savers_off import savers_off  # the savers written off: said on #1's line, never applied (savers15)

    d = savers_off(_doc(MIXED))
    doc = _write(d, "mixed.json")
    chosen = answer(doc).chosen_plan
    msg = _one(chosen.explanation, "the best plan is")
    assert "at the default price for" in msg.render()
    (p, _second) = _plan_json(tmp_path, d, capsys, top=2)["plans"]
    assert _flat(msg.render()) in [_flat(x) for x in p["explanation"]]
    _everywhere(msg, doc, tmp_path, capsys, estimate=False)


def test_kept_compared_line_is_the_answers_everywhere(tmp_path, capsys):
    """The rental advice's "The comparisons with card-hours on demand use the default price …" (cost._kept_compared)
    is the Evaluation's: ``plan`` text and ``--json``'s rental_advice, ``estimate`` text and ``--json``, the PDF
    (en, zh); a quote that gives the card-hour price says nothing of it."""
    from gpuplanner.app.answer import answer

    d = _doc(RENTED)
    doc = _write(d, "rented.json")
    ev = answer(doc).evaluation
    msg = _one(ev.rental_advice, "The comparisons with")
    (p, _second) = _plan_json(tmp_path, d, capsys, top=2)["plans"]
    assert _flat(msg.render()) in [_flat(x) for x in p["rental_advice"]]
    e = json.loads(_cli(["estimate", str(doc), "--json"], capsys))
    assert _flat(msg.render()) in [_flat(x) for x in e["rental_advice"]]
    _everywhere(msg, doc, tmp_path, capsys)
    own = copy.deepcopy(d)
    for q in own["constraints"]["prices"].values():
        q.setdefault("card_hour", 9.0)
    e_own = json.loads(_cli(["estimate", str(_write(own, "own.json")), "--json"], capsys))
    assert not any("The comparisons with" in x for x in e_own["rental_advice"])


# ---------------------------------------------------------------------------- gpus_per_node in the search

#: consist15's search on 4-GPU H100 servers (tests/test_consistency_r15.py SEARCH)
GPN4 = {"model": {"preset": "llama-3-8b"},
        "training": {"method": "full", "precision": "bf16", "optimizer": "adamw", "seq_len": 4096,
                     "micro_batch_size": 2, "global_batch_size": 256, "recompute": "full", "flash_attention": True},
        "parallel": {"auto": True}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 16, "gpus_per_node": 4},
        "data": {"tokens": "20B"},
        "constraints": {"deadline_days": 3, "currency": "CNY", "max_gpus": 32, "gpu_candidates": ["h100-sxm-80gb"],
                        "objective": "fastest"}}


def test_server_gpus_line_is_the_answers_everywhere(tmp_path, capsys):
    """"Servers of 4 GPUs, as entered …" (evaluate.server_gpus_message) is said once in each plan's block of ``plan``
    (its warnings and the Evaluation's messages, one line), in ``plan --json``, ``estimate`` and the PDF (en, zh);
    the plans' servers are the document's 4 (``gpus_per_node``), as ``estimate --json`` gives them."""
    from gpuplanner.app.answer import answer

    doc = _write(GPN4, "gpn4.json")
    ev = answer(doc).evaluation
    msg = _one(ev.messages, "Servers of {g} GPUs")
    assert msg.params == {"g": 4, "k": 8}
    plans = _plan_json(tmp_path, GPN4, capsys, top=2)["plans"]
    line = _flat(msg.render())
    for p in plans:
        assert p["gpus_per_node"] == 4
        assert line in p["warnings"] and line in p["messages"]
    text = _cli(["plan", str(doc), "--top", "2", "--lang", "en"], capsys)
    for n in (1, 2):
        assert _flat(_block(text, n)).count(line) == 1
    e = json.loads(_cli(["estimate", str(doc), "--json"], capsys))
    assert (e["gpus_per_node"], e["num_gpus"]) == (4, plans[0]["num_gpus"])
    _everywhere(msg, doc, tmp_path, capsys)


def test_server_gpus_line_in_the_project_view(tmp_path, capsys):
    """The project (``project`` text and ``--json``) of the document: its training phase is the Answer's Evaluation
    (the same GPUs and compute days), on servers of 4 (its node count), and says the servers line once."""
    from gpuplanner.app.answer import answer

    doc = _write(GPN4, "gpn4.json")
    ans = answer(doc)
    ev = ans.evaluation
    line = _flat(_one(ev.messages, "Servers of {g} GPUs").render())
    (train,) = [ph for ph in ans.project.phases if ph.evaluation is not None]
    assert train.evaluation.scenario.hardware.gpus_per_node == 4
    assert train.evaluation.compute_days == pytest.approx(ev.compute_days, rel=1e-12)
    js = json.loads(_cli(["project", str(doc), "--json"], capsys))
    (ph,) = [x for x in js["phases"] if "training" in x]
    assert ph["count"] == ev.scenario.hardware.num_gpus and ph["nodes"] == -(-ph["count"] // 4)
    assert ph["training"]["compute_days"] == pytest.approx(ev.compute_days, rel=1e-12)
    assert [_flat(m) for m in ph["messages"]].count(line) == 1
    assert _flat(_cli(["project", str(doc), "--lang", "en"], capsys)).count(line) == 1


def test_larger_servers_than_the_card_comes_in_are_said_everywhere(tmp_path, capsys):
    """16 GPUs per node entered for an H100 (no catalogued server holds more than 8): the plans use 8 a server and say
    "… comes at most 8 to a server …" (search._server_warnings): the Answer's chosen plan's warning, in ``plan`` text
    (#1's block, once) and ``--json``, the PDF (en, zh)."""
    from gpuplanner.app.answer import answer

    d = copy.deepcopy(GPN4)
    d["hardware"]["gpus_per_node"] = 16
    d["constraints"]["rules"] = {"price_fabric": False}  # a multi-node #1 (the default price buys no network)
    doc = _write(d, "gpn16.json")
    chosen = answer(doc).chosen_plan
    msg = _one(chosen.warnings, "comes at most {k} to a server")
    assert msg.params["k"] == 8 and msg.params["g"] == 16 and chosen.gpus_per_node == 8
    (p, *_r) = _plan_json(tmp_path, d, capsys, top=2)["plans"]
    assert p["gpus_per_node"] == 8 and _flat(msg.render()) in p["warnings"]
    _everywhere(msg, doc, tmp_path, capsys, estimate=False)


def test_server_gpus_line_is_live(tmp_path, capsys):
    """On the card's own 8-GPU servers nothing is said and the plans use 8 a server."""
    d = copy.deepcopy(GPN4)
    d["hardware"]["gpus_per_node"] = 8
    for p in _plan_json(tmp_path, d, capsys, top=2)["plans"]:
        assert not any("Servers of" in w for w in p["warnings"] + p["messages"])
        assert p["gpus_per_node"] == 8


# ---------------------------------------------------------------------------- GB200 NVL72 inside its NVLink domain

def _gb200(n: int, **hw) -> dict:
    return {"model": {"preset": "llama-3-8b"},
            "training": {"method": "full", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 2,
                         "global_batch_size": 2 * n, "recompute": "full", "flash_attention": True,
                         "framework": "fsdp"},
            "parallel": {"tp": 1, "pp": 1, "zero": 3},
            "hardware": {"gpu": "gb200-186gb", "num_gpus": n, "gpus_per_node": 4, **hw},
            "data": {"tokens": "5B"},
            "constraints": {"currency": "CNY", "prices": {"gb200-186gb": {"card_hour": 60.0}}}}


@pytest.mark.parametrize("net", [None, "roce-100"], ids=["no-network", "roce-entered"])
def test_nvl72_link_is_the_answers_in_the_pdf_and_quotes(net, tmp_path, capsys):
    """Inside one NVLink domain the link between the trays is the Evaluation's (evaluate.inter_node_link: NVLink 5,
    900 GB/s × 8 × 4 per tray) whatever network was entered; the PDF's requirements name it, with no "InfiniBand or
    RoCE" asked, and ``quotes`` asks for no network ("not needed (one NVLink domain)"); ``estimate`` names no NIC."""
    from gpuplanner.app.answer import answer
    from gpuplanner.core.quotes import plan_figures
    from gpuplanner.formatting import format_number
    from gpuplanner.report.content import build_report_data

    d = _gb200(16, **({"inter_node": net} if net else {}))
    doc = _write(d, "gb16.json")
    ans = answer(doc)
    ev = ans.evaluation
    assert ev.links.inter_node and "NVLink" in ev.links.inter_node
    assert ev.links.inter_node_gbps_per_node == pytest.approx(900 * 8 * 4, rel=1e-12)
    req = build_report_data(ans).requirements
    assert req.inter_node.params["gbps"] == format_number(ev.links.inter_node_gbps_per_node, 0)
    pdf = _flat(_pdf_text(doc, tmp_path))
    assert _tight(ev.links.inter_node) in _tight(pdf)
    assert "RoCE 100" not in pdf and "NIC" not in _flat(_cli(["estimate", str(doc), "--lang", "en"], capsys))
    q = plan_figures(ev)
    assert q.nvlink_domain and q.inter_node is None and q.nodes == 4


#: the search on GB200 alone, fastest: #1 spans 4 trays of one NVL72 rack
GB_SEARCH = {**{k: v for k, v in _gb200(16).items() if k != "parallel"}, "parallel": {"auto": True},
             "constraints": {"currency": "CNY", "prices": {"gb200-186gb": {"card_hour": 60.0}}, "max_gpus": 16,
                             "gpu_candidates": ["gb200-186gb"], "objective": "fastest"}}


def test_nvl72_search_warning_is_the_answers_everywhere(tmp_path, capsys):
    """A multi-tray GB200 plan's warning "… servers inside one NVLink domain of 72 GPUs …" (search._server_warnings)
    is the Answer's chosen plan's: ``plan`` text and ``--json``, the PDF (en, zh); no "ask the vendor for the network"
    line beside it."""
    from gpuplanner.app.answer import answer

    doc = _write(GB_SEARCH, "gbs.json")
    chosen = answer(doc).chosen_plan
    assert chosen.nodes > 1
    msg = _one(chosen.warnings, "inside one NVLink domain")
    assert msg.params == {"nodes": chosen.nodes, "dom": 72}
    (p, *_r) = _plan_json(tmp_path, GB_SEARCH, capsys, top=2)["plans"]
    assert _flat(msg.render()) in p["warnings"] and not any("ask the vendor" in w for w in p["warnings"])
    _everywhere(msg, doc, tmp_path, capsys, estimate=False)


# ---------------------------------------------------------------------------- serving: experts' GEMMs at their TP shard

def _moe_serving_doc(tmp_path: Path) -> Path:
    """expert11's serving project (tests/test_one_answer_r12.SERVE_SRC) serving Qwen3-235B-A22B in BF16 on H100s with
    vLLM: TP 8, where servoos15's expert width (inference.expert_gemm_width: min(h, moe_intermediate) / tp) applies."""
    import test_one_answer_r12 as R12

    d = json.loads(R12.SERVE_SRC.read_text(encoding="utf-8"))
    d["scenario"]["model"] = {"preset": "qwen3-235b-a22b"}
    for ph in d["project"]["phases"]:
        if ph["kind"] == "inference":
            ph["inference"].update(gpu="h100-sxm-80gb", engine="vllm", concurrency=64, context_tokens=4096,
                                   output_tokens=512)
    out = tmp_path / "moe-serve.gpuplan"
    out.write_text(json.dumps(d), encoding="utf-8")
    return out


def _serving_tps(doc: Path, capsys) -> tuple:
    """(the Answer's serving phase, ``project --json``'s, the figure ``project`` prints in tokens/s per GPU)."""
    import test_one_answer_r12 as R12

    s = R12._serving(doc)
    (js,) = [ph["inference"] for ph in json.loads(_cli(["project", str(doc), "--json"], capsys))["phases"]
             if ph["kind"] == "inference"]
    m = re.search(r"([\d,]+) tokens/s per GPU", _flat(_cli(["project", str(doc), "--lang", "en"], capsys)))
    assert m
    return s, js, m.group(1)


def test_moe_serving_throughput_is_the_answers_and_the_expert_width_is_live(tmp_path, capsys, monkeypatch):
    """The serving phase's tokens/s per GPU and step: ``project`` text and ``--json`` and the en PDF print the Answer's
    ServingSize; with the experts' GEMMs back at h / tp (round 14's rule) the figure moves, and every view follows."""
    from gpuplanner.core import inference as inf

    doc = _moe_serving_doc(tmp_path)
    s, js, shown = _serving_tps(doc, capsys)
    assert s.tp == 8 and js["tp"] == 8
    assert js["tokens_per_s_per_gpu"] == pytest.approx(s.tokens_per_s_per_gpu, rel=1e-12)
    assert js["step_s"] == pytest.approx(s.step_s, rel=1e-12)
    assert shown == f"{round(s.tokens_per_s_per_gpu):,}"
    pdf = _flat(_pdf_joined(_pdf_text(doc, tmp_path)))
    assert re.search(rf"users each, {re.escape(shown)} tokens/s", pdf), pdf[-3000:]
    monkeypatch.setattr(inf, "expert_gemm_width", lambda m, tp: m.hidden / max(tp, 1))
    s_off, js_off, shown_off = _serving_tps(doc, capsys)
    assert js_off["tokens_per_s_per_gpu"] == pytest.approx(s_off.tokens_per_s_per_gpu, rel=1e-12)
    assert s_off.tokens_per_s_per_gpu > s.tokens_per_s_per_gpu * 1.005
    assert shown_off == f"{round(s_off.tokens_per_s_per_gpu):,}" != shown


# ---------------------------------------------------------------------------- new fields: HF FSDP1, LitGPT's layer

#: consist15: full fine-tuning on the HF Trainer at ZeRO-3 through Accelerate's FSDP1 (fsdp_version 1), searched
HF_FSDP1 = {"model": {"preset": "llama-3.1-8b"},
            "training": {"method": "full", "framework": "hf", "fsdp_version": 1, "precision": "bf16",
                         "seq_len": 2048, "micro_batch_size": 2, "global_batch_size": 64, "recompute": "full"},
            "parallel": {"zero": 3}, "hardware": {"inter_node": "roce-100"}, "data": {"tokens": 2e8},
            "constraints": {"max_gpus": 16, "gpu_candidates": ["h100-sxm-80gb"]}}


def test_hf_fsdp1_search_equals_evaluate(tmp_path, capsys):
    """Round 10's harness (memory, fits, days, cost of every sampled candidate; ``plan --json`` = ``estimate
    --json``) on the HF stack's FSDP1."""
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(HF_FSDP1), tmp_path, capsys)


def test_hf_fsdp1_is_live_in_plan_and_estimate(tmp_path, capsys):
    """``plan --json``'s #1 keeps fsdp_version 1 and reproduces; its model on two servers at ZeRO-2 holds FSDP1's
    states and takes another step than on DeepSpeed (fsdp_version 2): the field reaches the printed figures."""
    (p,) = _plan_json(tmp_path, HF_FSDP1, capsys, top=1)["plans"]
    assert p["scenario"]["training"]["fsdp_version"] == 1
    on = _estimate_json(tmp_path, p["scenario"], capsys)
    assert on["step_time_s"] == pytest.approx(p["step_time_s"], rel=1e-9)
    assert on["memory_per_gpu_gib"] == p["memory_per_gpu_gib"]
    two = copy.deepcopy(p["scenario"])
    two["parallel"].update(zero=2, tp=1, pp=1, auto=False)
    two["hardware"].update(num_gpus=16, gpus_per_node=8)
    fs = _estimate_json(tmp_path, two, capsys)
    two["training"]["fsdp_version"] = 2
    ds = _estimate_json(tmp_path, two, capsys)
    assert fs["memory_per_gpu_gib"]["weights"] != pytest.approx(ds["memory_per_gpu_gib"]["weights"], rel=1e-3)
    assert fs["step_time_s"] != pytest.approx(ds["step_time_s"], rel=1e-6)


def test_the_fsdp_version_choice_is_one_function(monkeypatch):
    """The HF stack's FSDP choice (frameworks.hf_fsdp_choice: ZeRO 2/3 on engine hf) is what hf_sharded_by_fsdp reads
    (the memory and time models' decision) and what the Training page shows its row by (tests/ui)."""
    from gpuplanner.core import frameworks as FW

    assert FW.hf_fsdp_choice("hf", 3) and FW.hf_fsdp_choice("trl", 2) and not FW.hf_fsdp_choice("hf", 1)
    assert not FW.hf_fsdp_choice("deepspeed", 3) and not FW.hf_fsdp_choice("fsdp", 3)
    assert bool(FW.hf_sharded_by_fsdp("hf", 1, 3))
    monkeypatch.setattr(FW, "hf_fsdp_choice", lambda framework, zero, engine=None: False)
    assert not bool(FW.hf_sharded_by_fsdp("hf", 1, 3))


#: ftoos15: LitGPT's LoRA layer before v0.3.1 (q and v adapted: the index list rebuilt every forward), short sequences
#: one at a time as its resource tables run them, where the host time shows in the step
LITGPT = {"model": {"preset": "llama-2-7b"},
          "training": {"method": "lora", "framework": "hf", "precision": "bf16", "seq_len": 512,
                       "micro_batch_size": 1, "global_batch_size": 8, "lora_rank": 8, "lora_targets": "qv",
                       "lora_layer": "litgpt"},
          "parallel": {"auto": True}, "data": {"tokens": 5e7},
          "constraints": {"max_gpus": 8, "gpu_candidates": ["a100-sxm-80gb"]}}


def test_litgpt_layer_plans_reproduce_and_the_layer_is_live(tmp_path, capsys):
    """``plan --json``'s plans keep ``lora_layer`` litgpt and reproduce with ``estimate --json``; with PEFT's layer
    the same layouts a sequence at a time step faster (the index list's host time is in the one Evaluation)."""
    plans = _plan_json(tmp_path, LITGPT, capsys, top=2)["plans"]
    assert plans
    for p in plans:
        assert p["scenario"]["training"]["lora_layer"] == "litgpt"
        on = _estimate_json(tmp_path, p["scenario"], capsys)
        assert on["step_time_s"] == pytest.approx(p["step_time_s"], rel=1e-9)
        one = copy.deepcopy(p["scenario"])  # its layout a sequence at a time (the search batches four)
        one["parallel"]["auto"] = False
        one["training"]["micro_batch_size"] = 1
        lit = _estimate_json(tmp_path, one, capsys)["step_time_s"]
        one["training"]["lora_layer"] = "peft"
        assert _estimate_json(tmp_path, one, capsys)["step_time_s"] < lit * (1 - 1e-4)


def test_every_lora_layer_has_the_memory_models_entries():
    """Each layer ``training.lora_layer`` offers (flops.LORA_LAYERS) says what it keeps for backward
    (memory.LORA_KEEPS_RANK_WIDE, memory.LORA_DROPOUT_ON_OUTPUT). Before parity15 ftoos15's "litgpt" had none and
    every litgpt plan raised KeyError in ``estimate``, ``plan`` and the window."""
    from gpuplanner.core import memory as M
    from gpuplanner.core.flops import LORA_LAYERS

    assert set(M.LORA_KEEPS_RANK_WIDE) == set(LORA_LAYERS) == set(M.LORA_DROPOUT_ON_OUTPUT)


def test_litgpt_keeps_what_peft_keeps(tmp_path, capsys):
    """LitGPT's LoRAQKVLinear saves the rank-wide ``after_A`` for its conv1d and drops out on the adapter's input, as
    PEFT: the same activations by hand (with dropout on, where the two could part), the step longer by the index
    list's host time only."""
    d = {"model": {"preset": "llama-2-7b"},
         "training": {"method": "lora", "framework": "hf", "precision": "bf16", "seq_len": 512,
                      "micro_batch_size": 1, "global_batch_size": 16, "lora_rank": 8, "lora_targets": "qv",
                      "lora_dropout": 0.05, "lora_layer": "litgpt"},
         "parallel": {"zero": 2}, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 8}, "data": {"tokens": 5e7}}
    lit = _estimate_json(tmp_path, d, capsys)
    peft = copy.deepcopy(d)
    peft["training"]["lora_layer"] = "peft"
    pe = _estimate_json(tmp_path, peft, capsys)
    assert lit["memory_per_gpu_gib"] == pe["memory_per_gpu_gib"]
    assert lit["step_time_s"] > pe["step_time_s"]


def test_litgpt_layer_search_equals_evaluate(tmp_path, capsys):
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(LITGPT), tmp_path, capsys)


#: memoos15: torch AdamW's unfused step (``optimizer_implementation`` foreach) holds a second-moment-sized list
#: (memory.adamw_foreach_step_bytes); ms-swift full fine-tuning in pure bf16, searched
FOREACH = {"model": {"preset": "qwen2.5-7b"},
           "training": {"framework": "ms-swift", "method": "full", "seq_len": 2048, "micro_batch_size": 1,
                        "global_batch_size": 16, "recompute": "full", "flash_attention": True, "optimizer": "adamw",
                        "precision": "bf16", "master_weights": False, "optimizer_implementation": "foreach"},
           "parallel": {"auto": True}, "data": {"tokens": 5e7},
           "constraints": {"max_gpus": 8, "gpu_candidates": ["a100-sxm-80gb"]}}


def test_adamw_foreach_step_search_equals_evaluate(tmp_path, capsys):
    """Round 10's harness (memory, fits, days, cost of every sampled candidate; ``plan --json`` = ``estimate --json``,
    allocated and reserved included) with the foreach step's memory."""
    R10.test_round10_paths_search_equals_evaluate(copy.deepcopy(FOREACH), tmp_path, capsys)


def test_adamw_foreach_step_is_live_in_plan_and_estimate(tmp_path, capsys):
    """``plan --json``'s #1 with foreach is ``estimate --json``'s memory; on one GPU without ZeRO (torch's AdamW, not
    DeepSpeed's fused one) fused holds less than foreach in ``estimate --json`` and in the ``estimate`` text's total
    (the step's list reaches the printed GiB per GPU)."""
    (p,) = _plan_json(tmp_path, FOREACH, capsys, top=1)["plans"]
    assert _estimate_json(tmp_path, p["scenario"], capsys)["memory_per_gpu_gib"] == p["memory_per_gpu_gib"]
    one = copy.deepcopy(FOREACH)
    one["parallel"] = {"zero": 0}
    one["hardware"] = {"gpu": "a100-sxm-80gb", "num_gpus": 1}
    totals = {}
    for impl in ("foreach", "fused"):
        one["training"]["optimizer_implementation"] = impl
        doc = _write(one, f"{impl}.json")
        js = json.loads(_cli(["estimate", str(doc), "--json"], capsys))
        # the total line states the headroom's sum since ux27 ("66.38 + 2.0 GiB kept free … = 68.38 of 80 GiB")
        m = re.search(r"^\s+total\s+([\d.]+)\s+(?:\+ [\d.]+ GiB kept free .* )?of ",
                      _cli(["estimate", str(doc), "--lang", "en"], capsys), re.M)
        assert m and float(m.group(1)) == pytest.approx(js["memory_per_gpu_gib"]["total"], abs=0.006)
        totals[impl] = js["memory_per_gpu_gib"]["total"]
    assert totals["fused"] < totals["foreach"] - 0.5, totals


# ---------------------------------------------------------------------------- no view copies round 15's rules

#: round 15's core functions: a view (ui, report, commands, app, the CLI) reads their results from the Answer
ROUND15_CORE = ("server_gpus", "server_gpus_message", "within_nvlink_domain", "hf_sharded_by_fsdp", "poor_line",
                "_equally_cheap", "_price_tie_line", "_kept_compared", "_billed_as", "litgpt_index_seconds")
VIEWS = [p for d in ("ui", "report", "commands", "app") for p in (ROOT / "gpuplanner" / d).rglob("*.py")] + [
    ROOT / "gpuplanner" / "cli.py"]
#: a view's copy of the HF stack's FSDP choice (the Training page's row rule before parity15)
HF_RULE_COPY = re.compile(r"engine_of\([^)]*\)\s*==\s*[\"']hf[\"']\s+and\s+[\w.]*zero\s*>=\s*2")


def test_no_view_calls_round15_core_functions_or_copies_the_hf_rule():
    found = []
    for p in VIEWS:
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if any(re.search(rf"\b{n}\b", line) for n in ROUND15_CORE) or HF_RULE_COPY.search(line):
                found.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_hf_rule_copy_scan_finds_the_old_line():
    assert HF_RULE_COPY.search('hf_zero = engine_of(s.training.framework) == "hf" and s.parallel.zero >= 2')


def test_zh_lines_of_round15_carry_no_english(tmp_path, capsys):
    """Round 15's new lines in Chinese (the tie, the class line, the default prices, the servers, NVLink domain):
    no English words beyond the glossary and catalogue names (tests/i18n_scan.py)."""
    from gpuplanner.app.answer import answer
    from i18n_scan import english_words  # noqa: PLC0415

    msgs = [_one(answer(_write(_doc(TIE), "t.json")).chosen_plan.explanation, "dearer than the cheapest"),
            _one(answer(_write(_doc(RENTED), "r.json")).evaluation.rental_advice, "The comparisons with"),
            _one(answer(_write(GPN4, "g.json")).evaluation.messages, "Servers of {g} GPUs"),
            _one(answer(_write(GB_SEARCH, "gb.json")).chosen_plan.warnings, "inside one NVLink domain")]
    ev = answer(_write(_poor_doc(), "p.json")).evaluation
    msgs.append(next(r for r in ev.rules if r.id == "mfu_grade").message)
    for m in msgs:
        z = _zh_line(m)
        allowed = _zh_allowed() | _param_words(m)  # a citation or a product name the line quotes stays as written
        assert z != _flat(m.render()) and not english_words(z, allowed), (z, english_words(z, allowed))


def _param_words(msg) -> set[str]:
    """The words of ``msg``'s string parameters (nested messages' too): sources and names quoted as they are."""
    out: set[str] = set()
    for v in (msg.params or {}).values():
        if isinstance(v, str):
            out |= set(re.findall(r"[A-Za-z]+", v))
        elif hasattr(v, "params") and hasattr(v, "text"):
            out |= _param_words(v)
    return out
