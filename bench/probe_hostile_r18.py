"""Hostile input, round 18: new cases past ``bench/probe_hostile_r13.py`` … ``r17.py``, on what was added lately.

* the newest scenario fields (``training.ds_bf16_grad_accum``, ``mixed_precision_off``, ``logits_held``, …) given
  as text, numbers, lists, on stacks that refuse them;
* the serving phase's offline targets (``documents_per_s``, ``output_tokens_per_s``) and what sizes its p95
  latency and chunked-prefill advice (``tokens_per_s_per_user``, ``length_spread``, ``engine``, precisions);
* project files with budgets and phases (a budget of NaN/∞/text, phases overlapping, main_phase of another kind);
* quote sheets offering the same GPU by the week and the day (the combinations ``quotes`` bills), in mixed
  currencies and units, with forged exchange rates;
* kit results with forged measurements (zero/negative/huge shapes, timings, counts) for ``kit-import``;
* config.json model sources with vision towers (Qwen2-VL, Qwen2.5-VL, LLaVA CLIP/SigLIP, InternVL) and MoE fields;
* CLI options (``--top``, ``--lang``, ``-o`` onto devices, read-only folders, names with NUL), the settings file;
* direct checks: text pasted into every line-edit parser the pages use (``ui.fields.parse_int``/``parse_float``,
  the Data and Budget pages' parsers) and every scenario field the window binds; autosave records with forged
  plans; project, config and settings files changed while read.

    python bench/probe_hostile_r18.py [--only SUBSTRING] [--list] [--fork]

The runner and the rules are ``bench/probe_lib.py``'s (one printable ``gpuplanner: error:`` line of at most 400
characters naming the listed words, exit 2, no traceback or pydantic dump, no control/bidi characters on stdout,
nothing written but what was asked, nothing outside the scratch folder, at most 20 s a case).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import probe_lib  # noqa: E402  (the runner, the judge and the shared builders)
from probe_lib import (  # noqa: E402
    EXAMPLE, GRPO, LORA_JSON, PLAN_LORA, PLAN_PROJECT, QUOTES, SETTINGS, Case, cfg_case, patched, q, s,
    serving_case)

RLO = "\u202e"
LORA = json.loads(LORA_JSON.read_text(encoding="utf-8"))
EX = str(LORA_JSON)
PLAN = PLAN_LORA.read_bytes()
MEGA = {**EXAMPLE, "training": {**EXAMPLE["training"], "framework": "megatron", "recompute": "none"},
        "parallel": {**EXAMPLE["parallel"], "zero": 1}}
DSZ0 = {**EXAMPLE, "training": {**EXAMPLE["training"], "framework": "deepspeed"},
        "parallel": {**EXAMPLE["parallel"], "zero": 0}}


# ------------------------------------------------------------------------------------------ newest training fields

def train_cases() -> list[Case]:
    e, lo, meg, ds = EXAMPLE, LORA, MEGA, DSZ0
    t = "training.ds_bf16_grad_accum"
    m = "training.mixed_precision_off"
    lh = "training.logits_held"
    return [
        s("ds_bf16_grad_accum 'yes' (pydantic's lax bool)", ds, (t,), "estimate", "0|2", training__ds_bf16_grad_accum="yes"),
        s("ds_bf16_grad_accum 2", ds, (t,), training__ds_bf16_grad_accum=2),
        s("ds_bf16_grad_accum [true]", ds, (t,), training__ds_bf16_grad_accum=[True]),
        s("ds_bf16_grad_accum 'null' (text)", ds, (t,), training__ds_bf16_grad_accum="null"),
        s("ds_bf16_grad_accum NaN", ds, (t,), training__ds_bf16_grad_accum=float("nan")),
        s("ds_bf16_grad_accum true on deepspeed zero 0", ds, (), "estimate", "0|2", training__ds_bf16_grad_accum=True),
        s("ds_bf16_grad_accum true on megatron", meg, (), "estimate", "0|2", training__ds_bf16_grad_accum=True),
        s("ds_bf16_grad_accum true on hf zero 3", e, (), "estimate", "0|2", training__ds_bf16_grad_accum=True),
        s("ds_bf16_grad_accum true: plan", ds, (), "plan", "0|2", extra=("--top", "1"),
          training__ds_bf16_grad_accum=True),
        s("ds_bf16_grad_accum fp16 precision", ds, (), "estimate", "0|2", training__ds_bf16_grad_accum=True,
          training__precision="fp16"),
        s("mixed_precision_off 'true' (lax bool)", lo, (m,), "estimate", "0|2", training__mixed_precision_off="true"),
        s("mixed_precision_off 1.5", lo, (m,), training__mixed_precision_off=1.5),
        s("mixed_precision_off {}", lo, (m,), training__mixed_precision_off={}),
        s("mixed_precision_off on a full fine-tune", e, (m,), training__mixed_precision_off=True),
        s("mixed_precision_off on megatron", meg, (m,), training__mixed_precision_off=True),
        s("mixed_precision_off on deepspeed zero 3", {**lo, "training": {**lo["training"], "framework": "deepspeed"},
                                                     "parallel": {**lo["parallel"], "zero": 3}}, (m,),
          training__mixed_precision_off=True),
        s("mixed_precision_off on lora ok", lo, (), "estimate", "0", training__mixed_precision_off=True),
        s("mixed_precision_off: plan", lo, (), "plan", "0|2", extra=("--top", "2"), training__mixed_precision_off=True),
        Case("mixed_precision_off: report", ["report", "s.json", "-o", "r.pdf"],
             {"s.json": patched(lo, training__mixed_precision_off=True)}, "0|2", outputs=("r.pdf",)),
        s("logits_held 'no' (lax bool)", lo, (lh,), "estimate", "0|2", training__logits_held="no"),
        s("logits_held -1", lo, (lh,), training__logits_held=-1),
        s("logits_held null", lo, (lh,), "estimate", "0|2", training__logits_held=None),
        s("logits_held with chunked_loss", lo, (), "estimate", "0|2", training__logits_held=True,
          training__chunked_loss=True),
        s("logits_held on megatron", meg, (), "estimate", "0|2", training__logits_held=True),
        s("logits_held with torch_compile + compile_loss", e, (), "estimate", "0|2", training__logits_held=True,
          training__torch_compile=True, training__compile_loss=True),
        s("logits_held on GRPO", GRPO, (), "estimate", "0|2", training__logits_held=True),
        s("compile_loss 'auto'", e, ("training.compile_loss",), training__compile_loss="auto"),
        s("fsdp2_fp32_upcast 'x'", lo, ("training.fsdp2_fp32_upcast",), training__fsdp2_fp32_upcast="x"),
        s("fsdp_lora_mixed_units 3", lo, ("training.fsdp_lora_mixed_units",), training__fsdp_lora_mixed_units=3),
        s("all new switches on at once", lo, (), "estimate", "0|2", training__mixed_precision_off=True,
          training__logits_held=True, training__ds_bf16_grad_accum=True, training__fsdp2_fp32_upcast=True,
          training__fsdp_lora_mixed_units=True, training__paged_optimizer=True),
    ]


# ------------------------------------------------------------------------------------------ serving targets

def serve_cases() -> list[Case]:
    sc = serving_case
    d, o = "documents_per_s", "output_tokens_per_s"
    return [
        sc("serve documents_per_s NaN", (d,), documents_per_s=float("nan")),
        sc("serve documents_per_s inf", (d,), documents_per_s=float("inf")),
        sc("serve documents_per_s -1", (d,), documents_per_s=-1),
        sc("serve documents_per_s 0", (d,), documents_per_s=0),
        sc("serve documents_per_s 1e8 (past 1e7)", (d,), documents_per_s=1e8),
        sc("serve documents_per_s 1e7 (the bound)", (), "0|2", documents_per_s=1e7),
        sc("serve documents_per_s 1e-300", (), "0|2", documents_per_s=1e-300),
        sc("serve documents_per_s '5' (text)", (), "0|2", documents_per_s="5"),
        sc("serve documents_per_s '５' (fullwidth)", (d,), "0|2", documents_per_s="５"),
        sc("serve documents_per_s [5]", (d,), documents_per_s=[5]),
        sc("serve documents_per_s true", (d,), "0|2", documents_per_s=True),
        sc("serve documents_per_s and output_tokens_per_s", ("documents_per_s",), documents_per_s=1,
           output_tokens_per_s=100),
        sc("serve output_tokens_per_s 1e11", (o,), output_tokens_per_s=1e11),
        sc("serve output_tokens_per_s 1e10 (the bound)", (), "0|2", output_tokens_per_s=1e10),
        sc("serve output_tokens_per_s 1e-300", (), "0|2", output_tokens_per_s=1e-300),
        sc("serve documents_per_s with tokens_per_s_per_user", (), "0|2", documents_per_s=10,
           tokens_per_s_per_user=50),
        sc("serve documents_per_s with tokens_per_s_per_user null", (), "0|2", documents_per_s=10,
           tokens_per_s_per_user=None),
        sc("serve documents_per_s sharegpt", (), "0|2", documents_per_s=10, length_spread="sharegpt",
           prompt_tokens=200, output_tokens=200),
        sc("serve tokens_per_s_per_user 1e5 (the bound)", (), "0|2", tokens_per_s_per_user=1e5),
        sc("serve tokens_per_s_per_user 1e-300", (), "0|2", tokens_per_s_per_user=1e-300),
        sc("serve tokens_per_s_per_user '20 tok/s'", ("tokens_per_s_per_user",), tokens_per_s_per_user="20 tok/s"),
        sc("serve length_spread 'ShareGPT'", ("length_spread",), length_spread="ShareGPT"),
        sc("serve length_spread sharegpt prompt 5 output 5", (), "0|2", length_spread="sharegpt",
           prompt_tokens=5, output_tokens=5),
        sc("serve length_spread sharegpt no prompt given", ("length_spread",), length_spread="sharegpt"),
        sc("serve engine tensorrt-llm fp8 kv", (), "0|2", engine="tensorrt-llm", kv_precision="fp8",
           precision="fp8"),
        sc("serve engine sglang int4", (), "0|2", engine="sglang", precision="int4"),
        sc("serve kv_precision 'fp4'", ("kv_precision",), kv_precision="fp4"),
        sc("serve precision 'fp16'", ("precision",), precision="fp16"),
        sc("serve context 10,000,000 and sglang", (), "0|2", context_tokens=10_000_000, engine="sglang"),
        sc("serve prompt_tokens + output past context", ("prompt_tokens",), prompt_tokens=4000, output_tokens=512),
        sc("serve gpu_memory_utilization 1e-300", (), "0|2", gpu_memory_utilization=1e-300),
        sc("serve gpu_memory_utilization 1.0000001", ("gpu_memory_utilization",), gpu_memory_utilization=1.0000001),
        sc("serve gpu_candidates 201", ("gpu_candidates",), gpu_candidates=["h100-sxm-80gb"] * 201),
        sc("serve gpu_candidates ['']", (), "0|2", gpu_candidates=[""]),
        sc("serve gpu with RLO", (), "0|2", gpu=f"h100{RLO}-sxm"),
        sc("serve gpu 201 characters", ("gpu",), gpu="g" * 201),
        sc("serve documents_per_s: project --json", (), "0|2", cmd=("project", "--json"), documents_per_s=3.5),
        sc("serve an unknown key 'p95_itl_ms'", (), "0|2", p95_itl_ms=50),
        sc("serve chunked_prefill_size 0 (unknown key)", (), "0|2", chunked_prefill_size=0),
    ]


# ------------------------------------------------------------------------------------------ projects: budgets, phases

def _project(fn, scen_fn=None) -> str:
    d = json.loads(PLAN_PROJECT.read_text(encoding="utf-8"))
    fn(d["project"])
    if scen_fn:
        scen_fn(d["scenario"])
    return json.dumps(d, ensure_ascii=False)


def _pc(name, fn, expect="2", words=(), cmd=("project",), scen_fn=None, outputs=()) -> Case:
    return Case(name, [*cmd, "p.gpuplan"], {"p.gpuplan": _project(fn, scen_fn)}, expect, tuple(words),
                outputs=outputs)


def _budget(v):
    return lambda sc: sc["constraints"].update(budget=v)


def _ph(i, **over):
    return lambda p: p["phases"][i].update(over)


def project_cases() -> list[Case]:
    noop = (lambda p: None)
    return [
        _pc("project budget NaN", noop, "2", ("budget",), scen_fn=_budget(float("nan"))),
        _pc("project budget inf", noop, "2", ("budget",), scen_fn=_budget(float("inf"))),
        _pc("project budget -1", noop, "2", ("budget",), scen_fn=_budget(-1)),
        _pc("project budget 1e16", noop, "2", ("budget",), scen_fn=_budget(1e16)),
        _pc("project budget 0", noop, "0|2", scen_fn=_budget(0)),
        _pc("project budget '¥100万'", noop, "2", ("budget",), scen_fn=_budget("¥100万")),
        _pc("project budget 1e-300", noop, "0|2", scen_fn=_budget(1e-300)),
        _pc("project budget 1: report", noop, "0|2", cmd=("report", "-o", "r.pdf"), scen_fn=_budget(1),
            outputs=("r.pdf",)),
        _pc("project budget 1: plan", noop, "0|2", cmd=("plan", "--top", "1"), scen_fn=_budget(1)),
        _pc("project phase start_week 520, weeks 520", _ph(1, start_week=520, weeks=520), "0|2"),
        _pc("project phase end_week before start", _ph(1, start_week=5, end_week=4), "2", ("end_week",)),
        _pc("project phase end_week without start", _ph(1, end_week=4), "2", ("end_week",)),
        _pc("project phase start_week -0.0", _ph(1, start_week=-0.0), "0|2"),
        _pc("project phase start_week 1e-300", _ph(1, start_week=1e-300), "0|2"),
        _pc("project phases overlapping", lambda p: [p["phases"][i].update(start_week=0, weeks=4) for i in range(3)],
            "0|2"),
        _pc("project two phases the same name", lambda p: p["phases"][1].update(name=p["phases"][2]["name"]), "2",
            ("name",)),
        _pc("project main_phase the inference phase", lambda p: p.update(main_phase="serving"), "2", ("main_phase",)),
        _pc("project main_phase with RLO", lambda p: p.update(main_phase=f"full{RLO}"), "0|2"),
        _pc("project 65 phases", lambda p: p["phases"].extend(
            [dict(p["phases"][1], name=f"x{i}") for i in range(61)]), "2", ("phases",)),
        _pc("project 64 phases (the bound)", lambda p: p["phases"].extend(
            [dict(p["phases"][1], name=f"x{i}") for i in range(60)]), "0|2"),
        _pc("project phase kind 'Training'", _ph(2, kind="Training"), "2", ("kind",)),
        _pc("project inference phase without inference", _ph(3, inference=None), "2", ("inference",)),
        _pc("project cpu phase rental_mode week", _ph(0, rental_mode="week"), "2", ("rental_mode",)),
        _pc("project training phase rental_mode core_hour", _ph(2, rental_mode="core_hour"), "2", ("rental_mode",)),
        _pc("project phase rental_mode 'spot' on inference", _ph(3, rental_mode="spot"), "0|2"),
        _pc("project cpu node_month 1e9 nodes 100000", lambda p: p["phases"][0]["cpu"].update(
            node_month=1e9, nodes=100_000), "0|2"),
        _pc("project cpu quote_currency 'EUR'", lambda p: p["phases"][0]["cpu"].update(quote_currency="EUR"), "2",
            ("quote_currency",)),
        _pc("project cpu throughput 1e-300", lambda p: p["phases"][0]["cpu"].update(clean_mb_s_per_core=1e-300),
            "0|2"),
        _pc("project phase scenario with budget NaN", lambda p: p["phases"][2].update(
            scenario={**json.loads(PLAN_PROJECT.read_text(encoding="utf-8"))["scenario"],
                      "constraints": {"budget": float("nan")}}), "2", ("budget",)),
        _pc("project phase scenario new fields as text", lambda p: p["phases"][1].update(
            scenario={**json.loads(PLAN_PROJECT.read_text(encoding="utf-8"))["scenario"],
                      "training": {"logits_held": "x"}}), "2", ("logits_held",)),
        _pc("project phase notes RLO + NUL: --json", _ph(1, notes=f"a{RLO}\x00b"), "0|2", cmd=("project", "--json")),
        _pc("project phase name 121 characters", _ph(1, name="n" * 121), "2", ("name",)),
        _pc("project what-if on a cpu-only project", lambda p: p.update(phases=[p["phases"][0]], main_phase=None),
            "0|2"),
    ]


# ------------------------------------------------------------------------------------------ quote sheets

HEAD = "section,item,value,unit,gpus_per_server,min_term_days,cap_at_month,note,date\n"


def _sheet(offers: str, currency="CNY", vendor_extra="") -> str:
    return (HEAD + f"vendor,provider,V,,,,,,\nvendor,currency,{currency},,,,,,\n" + vendor_extra + offers)


def _xlsx_vendors(vendors: list[tuple[str, str, list[list]]]) -> bytes:
    """A workbook with one sheet per vendor: (title, currency, offer rows)."""
    import io

    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for title, cur, offers in vendors:
        ws = wb.create_sheet(title)
        for r in [["section", "item", "value", "unit", "gpus_per_server", "min_term_days", "cap_at_month", "note",
                   "date"], ["vendor", "provider", title], ["vendor", "currency", cur], *offers]:
            ws.append(r)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def quote_cases() -> list[Case]:
    g = "rtx-4090-24gb"
    wk = f"offer,{g},300,card_week,8,,no,,\n"
    dy = f"offer,{g},50,card_day,8,,no,,\n"
    rate = "vendor,exchange_rate,{},,,,,,\n"
    p = str(PLAN_PROJECT)
    cases = [
        q("weeks + days of one GPU", (), {"q.csv": _sheet(wk + dy)}, "0"),
        q("weeks + days + months + hours", (), {"q.csv": _sheet(wk + dy + f"offer,{g},1000,card_month,8,,no,,\n"
                                                                f"offer,{g},2.5,card_hour,8,,no,,\n")}, "0"),
        q("weeks + days, the day dearer than the week", (), {"q.csv": _sheet(wk + f"offer,{g},1000,card_day,8,,no,,\n")},
          "0"),
        q("weeks + days at price 0", (), {"q.csv": _sheet(wk.replace("300", "0") + dy.replace("50", "0"))}, "0|2"),
        q("weeks + days with min_term 3650", (), {"q.csv": _sheet(wk.replace(",,no", ",3650,no") + dy)}, "0|2"),
        q("weeks + days with min_term 3651", ("F4",), {"q.csv": _sheet(wk.replace(",,no", ",3651,no") + dy)}),
        q("weeks + days with min_term 0.5", (), {"q.csv": _sheet(wk + dy.replace(",,no", ",0.5,no"))}, "0|2"),
        q("server_week + card_day", (), {"q.csv": _sheet(f"offer,{g},2000,server_week,8,,no,,\n" + dy)}, "0"),
        q("server_week gpus_per_server 0", ("E4",), {"q.csv": _sheet(f"offer,{g},2000,server_week,0,,no,,\n")}),
        q("server_week gpus_per_server 65", ("E4",), {"q.csv": _sheet(f"offer,{g},2000,server_week,65,,no,,\n")}),
        q("server_year 1e9 (the bound)", (), {"q.csv": _sheet(f"offer,{g},1000000000,server_year,8,,no,,\n")}, "0|2"),
        q("card_week 1e9 + 0.01", ("q.csv",), {"q.csv": _sheet(f"offer,{g},1000000000.01,card_week,8,,no,,\n")}),
        q("card_week cap_at_month yes", (), {"q.csv": _sheet(wk.replace(",no,", ",yes,") + dy)}, "0|2"),
        q("unit 'card_fortnight'", ("q.csv",), {"q.csv": _sheet(f"offer,{g},600,card_fortnight,8,,no,,\n")}),
        q("unit 'Card_Week' (case)", (), {"q.csv": _sheet(f"offer,{g},300,Card_Week,8,,no,,\n")}, "0|2"),
        q("unit '周' (Chinese)", (), {"q.csv": _sheet(f"offer,{g},300,周,8,,no,,\n")}, "0|2"),
        q("unit with RLO", ("q.csv",), {"q.csv": _sheet(f"offer,{g},300,card{RLO}_week,8,,no,,\n")}),
        q("unit blank with a price", ("q.csv",), {"q.csv": _sheet(f"offer,{g},300,,8,,no,,\n")}),
        q("200 offers weeks + days", (), {"q.csv": _sheet((wk + dy) * 100)}, "0|2"),
        q("201 offers", (), {"q.csv": _sheet(wk * 100 + dy * 101)}, "0|2"),
        q("currency USD, no rate", (), {"q.csv": _sheet(wk + dy, "USD")}, "0|2"),
        q("currency USD, rate 0", ("C4",), {"q.csv": _sheet(wk + dy, "USD", rate.format(0))}),
        q("currency USD, rate -7", ("C4",), {"q.csv": _sheet(wk + dy, "USD", rate.format(-7))}),
        q("currency USD, rate 'NaN'", ("C4",), {"q.csv": _sheet(wk + dy, "USD", rate.format("NaN"))}),
        q("currency USD, rate 'inf'", ("C4",), {"q.csv": _sheet(wk + dy, "USD", rate.format("inf"))}),
        q("currency USD, rate 1e30", (), {"q.csv": _sheet(wk + dy, "USD", rate.format("1e30"))}, "0|2"),
        q("currency USD, rate 1e-30", (), {"q.csv": _sheet(wk + dy, "USD", rate.format("1e-30"))}, "0|2"),
        q("currency USD, rate '7,2' (decimal comma)", (), {"q.csv": _sheet(wk + dy, "USD", rate.format('"7,2"'))},
          "0|2"),
        q("currency 'usd' lower case", (), {"q.csv": _sheet(wk + dy, "usd", rate.format(7.2))}, "0|2"),
        q("currency '人民币'", (), {"q.csv": _sheet(wk + dy, "人民币")}, "0|2"),
        q("currency USD rate on CNY sheet", (), {"q.csv": _sheet(wk + dy, "CNY", rate.format(7.2))}, "0|2"),
        q("exchange_rate_date 2026-13-01", (), {"q.csv": _sheet(wk + dy, "USD", rate.format(7.2) +
                                                                "vendor,exchange_rate_date,2026-13-01,,,,,,\n")}),
        q("storage_billing 'week'", ("C4",), {"q.csv": _sheet(wk, "CNY",
                                                                           "vendor,storage_billing,week,,,,,,\n")}),
        q("two vendors: CNY week+day, USD month", (), {"q.xlsx": _xlsx_vendors(
            [("a", "CNY", [["offer", g, 300, "card_week", 8], ["offer", g, 50, "card_day", 8]]),
             ("b", "USD", [["vendor", "exchange_rate", 7.2], ["offer", g, 150, "card_month", 8]])])}, "0"),
        q("two vendors with the same name", (), {"q.xlsx": _xlsx_vendors(
            [("a", "CNY", [["offer", g, 300, "card_week", 8]]), ("a ", "CNY", [["offer", g, 50, "card_day", 8]])])},
          "0|2"),
        q("xlsx rate as a formula text", (), {"q.xlsx": _xlsx_vendors(
            [("a", "USD", [["vendor", "exchange_rate", "=7.2*1"], ["offer", g, 300, "card_week", 8]])])}),
        q("xlsx min_term_days a bool", (), {"q.xlsx": _xlsx_vendors(
            [("a", "CNY", [["offer", g, 300, "card_week", 8, True]])])}, "0|2"),
        q("xlsx price a bool", (), {"q.xlsx": _xlsx_vendors([("a", "CNY", [["offer", g, True, "card_week", 8]])])}),
        q("xlsx 21 vendors", (), {"q.xlsx": _xlsx_vendors(
            [(f"v{i}", "CNY", [["offer", g, 300 + i, "card_week", 8]]) for i in range(21)])}, "0|2"),
        q("xlsx a sheet title with a formula", (), {"q.xlsx": _xlsx_vendors(
            [("=HYPERLINK(1)", "CNY", [["offer", g, 300, "card_week", 8]])])}, "0|2"),
        Case("weeks + days for the project: --json", ["quotes", p, "q.csv", "--json"],
             {"q.csv": _sheet(wk + dy + f"offer,a800-sxm-80gb,40,card_day,8,,no,,\n")}, "0|2"),
        Case("weeks + days: --rfq", ["quotes", EX, "q.csv", "--rfq", "r.pdf"], {"q.csv": _sheet(wk + dy)}, "0|2",
             outputs=("r.pdf",)),
        Case("weeks + days: --save", ["quotes", "p.gpuplan", "q.csv", "--save"],
             {"p.gpuplan": PLAN, "q.csv": _sheet(wk + dy)}, "0", outputs=("p.gpuplan", "p.gpuplan.bak")),
        Case("weeks + days, formula notes: --save and estimate", ["quotes", "p.gpuplan", "q.csv", "--save"],
             {"p.gpuplan": PLAN, "q.csv": _sheet(wk.replace(",,no,,", ",,no,=cmd|' /C calc'!A0,") + dy)}, "0",
             outputs=("p.gpuplan", "p.gpuplan.bak")),
    ]
    return cases


# ------------------------------------------------------------------------------------------ kit results

#: the scenario the sample kit result was measured for (8 × H100, Llama 3 8B): a forged value is then what the
#: analysis meets, not the "MFU above 100 %" refusal a 4090 scenario gives the H100 sample first
KSCEN = str(probe_lib._FIXED / "llama3-8b-full-8xh100-zero3.json")


def kit_cases() -> list[Case]:
    def k(name, words, text, expect="2", scen=KSCEN):
        return probe_lib.k(name, words, text, expect, scen)

    def kt(fn, base=probe_lib.KIT):
        return probe_lib.kit_text(fn, base)

    def shape(**over):
        return kt(lambda d: d["shape"].update(over))

    def step(i, **over):
        return kt(lambda d: d["train_step"][i].update(over))

    def mm(**over):
        return kt(lambda d: [r.update(over) for r in d["matmul"]])

    sc = str(PLAN_PROJECT)
    return [
        k("kit shape hidden 0", (), shape(hidden=0), "0|2"),
        k("kit shape heads 0", (), shape(heads=0), "0|2"),
        k("kit shape kv_heads 0", (), shape(kv_heads=0), "0|2"),
        k("kit shape head_dim 0", (), shape(head_dim=0), "0|2"),
        k("kit shape layers 10**9", (), shape(layers=10**9), "0|2"),
        k("kit shape seq -1", (), shape(seq=-1), "0|2"),
        k("kit shape mbs 0", (), shape(mbs=0), "0|2"),
        k("kit shape accum 0", (), shape(accum=0), "0|2"),
        k("kit shape vocab 2**70", (), shape(vocab=2**70), "0|2"),
        k("kit shape a string", (), kt(lambda d: d.update(shape="x")), "0|2"),
        k("kit shape dtype 'fp4'", (), shape(dtype="fp4"), "0|2"),
        k("kit shape recompute 'sometimes'", (), shape(recompute="sometimes"), "0|2"),
        k("kit train_step step_s 0", (), step(0, step_s=0), "0|2"),
        k("kit train_step step_s -1", (), step(0, step_s=-1), "0|2"),
        k("kit train_step tokens_per_s 1e300", (), step(3, tokens_per_s=1e300), "0|2"),
        k("kit train_step tokens_per_s '460000'", (), step(3, tokens_per_s="460000"), "0|2"),
        k("kit train_step tokens_per_s 0 everywhere", (), kt(lambda d: [r.update(tokens_per_s=0)
                                                                       for r in d["train_step"]]), "0|2"),
        k("kit train_step n 0", (), step(0, n=0), "0|2"),
        k("kit train_step n 2**70", (), step(3, n=2**70), "0|2"),
        k("kit train_step empty", (), kt(lambda d: d.update(train_step=[])), "0|2"),
        k("kit train_step 100,000 rows", (), kt(lambda d: d.update(train_step=d["train_step"] * 25_000)), "0|2"),
        k("kit matmul tflops -760", (), mm(tflops=-760), "0|2"),
        k("kit matmul tflops 1e308", (), mm(tflops=1e308), "0|2"),
        k("kit matmul tflops 0", (), mm(tflops=0), "0|2"),
        k("kit matmul gpu index -1", (), kt(lambda d: d["matmul"][0].update(gpu=-1)), "0|2"),
        k("kit matmul seconds 0", (), mm(seconds=0), "0|2"),
        k("kit gpus memory_gib -80", (), kt(lambda d: [g.update(memory_gib=-80) for g in d["gpus"]]), "0|2"),
        k("kit gpus 10,000 entries", (), kt(lambda d: d.update(gpus=d["gpus"] * 1250)), "0|2"),
        k("kit power draw -1 and limit 0", (), kt(lambda d: [r.update(draw_w_max=-1, limit_w=0)
                                                             for r in d["power"]]), "0|2"),
        k("kit allreduce busbw 1e308, size 0", (), kt(lambda d: [r.update(busbw_gbs=1e308, size_bytes=0)
                                                                 for r in d["allreduce"]]), "0|2"),
        k("kit allreduce n 0", (), kt(lambda d: [r.update(n=0) for r in d["allreduce"]]), "0|2"),
        k("kit plan num_gpus 0", (), kt(lambda d: d["plan"].update(num_gpus=0)), "0|2"),
        k("kit plan gpu unknown with RLO", (), kt(lambda d: d["plan"].update(gpu=f"h100{RLO}")), "0|2"),
        k("kit schema gpuplanner-kit/999", (), kt(lambda d: d.update(schema="gpuplanner-kit/999")), "0|2"),
        k("kit kit_version 10**400", (), kt(lambda d: d.update(kit_version=10**400)), "0|2"),
        k("kit created 9999-12-31T23:59:59-14:00", (), kt(lambda d: d.update(created="9999-12-31T23:59:59-14:00")),
          "0|2"),
        k("kit errors 100,000 strings with ESC", (), kt(lambda d: d.update(errors=["\x1b[2Jx"] * 100_000)), "0|2"),
        k("kit topo 1 MB", (), kt(lambda d: d.update(topo="GPU0\t" * 200_000)), "0|2"),
        k("kit host RLO + ESC", (), kt(lambda d: d.update(host=f"h{RLO}\x1b]0;x\x07")), "0|2"),
        k("kit forged result onto the project plan", (), kt(lambda d: d["shape"].update(heads=0)), "0|2", scen=sc),
        Case("kit-import --json forged zeros", ["kit-import", KSCEN, "r.json", "--json"],
             {"r.json": kt(lambda d: (d["shape"].update(hidden=0, heads=0), [r.update(tokens_per_s=0)
                                                                             for r in d["train_step"]]))}, "0|2"),
        Case("kit-import --strict forged", ["kit-import", KSCEN, "r.json", "--strict"],
             {"r.json": mm(tflops=-1)}, "0|2"),
    ]


# ------------------------------------------------------------------------------------------ config.json: vision, MoE

def _cfg(**over) -> dict:
    return json.loads(probe_lib.cfg(**over))


def _vl(kind="qwen2_vl", **vision) -> str:
    base = {**_cfg(model_type=kind),
            "vision_config": {"depth": 2, "embed_dim": 64, "hidden_size": 64, "num_heads": 4, "mlp_ratio": 4,
                              "patch_size": 14, "spatial_merge_size": 2, "in_chans": 3, "intermediate_size": 128,
                              "out_hidden_size": 512}}
    base["vision_config"].update(vision)
    return json.dumps(base)


def _llava(outer=None, **vision) -> str:
    text = _cfg()
    text.pop("model_type")
    base = {"model_type": "llava", "text_config": {"model_type": "llama", **text},
            "vision_config": {"model_type": "clip_vision_model", "hidden_size": 64, "num_hidden_layers": 2,
                              "num_attention_heads": 4, "intermediate_size": 128, "patch_size": 14,
                              "image_size": 336}, **(outer or {})}
    base["vision_config"].update(vision)
    return json.dumps(base)


def _ivl(outer=None, **vision) -> str:
    base = {"model_type": "internvl_chat", "llm_config": _cfg(),
            "vision_config": {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
                              "intermediate_size": 128, "patch_size": 14, "image_size": 448}, **(outer or {})}
    base["vision_config"].update(vision)
    return json.dumps(base)


def _raw(text: str, **tokens) -> str:
    for key, tok in tokens.items():
        text = text.replace(f'"@{key}@"', tok)
    return text


MIX = dict(model_type="mixtral", num_local_experts=8, num_experts_per_tok=2)
DS3 = dict(model_type="deepseek_v3", kv_lora_rank=64, q_lora_rank=64, qk_rope_head_dim=16, qk_nope_head_dim=32,
           v_head_dim=32, n_routed_experts=8, num_experts_per_tok=2, moe_intermediate_size=64)


def config_cases() -> list[Case]:
    c = cfg_case
    return [
        c("qwen2_vl spatial_merge_size -2", (), _vl(spatial_merge_size=-2), "0|2"),
        c("qwen2_vl temporal_patch_size 0", (), _vl(temporal_patch_size=0), "0|2"),
        c("qwen2_vl in_chans 0", (), _vl(in_chans=0), "0|2"),
        c("qwen2_vl num_heads 0", (), _vl(num_heads=0), "0|2"),
        c("qwen2_vl num_heads 3 (embed 64)", (), _vl(num_heads=3), "0|2"),
        c("qwen2_vl mlp_ratio 1e308", (), _vl(mlp_ratio=1e308), "0|2"),
        c("qwen2_vl mlp_ratio NaN token", (), _raw(_vl(mlp_ratio="@m@"), m="NaN"), "0|2"),
        c("qwen2_vl mlp_ratio Infinity token", (), _raw(_vl(mlp_ratio="@m@"), m="Infinity"), "0|2"),
        c("qwen2_vl mlp_ratio 1e-300", (), _vl(mlp_ratio=1e-300), "0|2"),
        c("qwen2_vl mlp_ratio true", (), _vl(mlp_ratio=True), "0|2"),
        c("qwen2_vl patch_size 10**9", (), _vl(patch_size=10**9), "0|2"),
        c("qwen2_vl vision_config null", (), json.dumps({**json.loads(_vl()), "vision_config": None}), "0|2"),
        c("qwen2_vl vision_config 64 deep", (), json.dumps({**json.loads(_vl()), "vision_config": json.loads(
            '{"a":' * 63 + "1" + "}" * 63)}), "0|2"),
        c("qwen2_5_vl intermediate_size 0", (), _vl("qwen2_5_vl", intermediate_size=0), "0|2"),
        c("qwen2_5_vl out_hidden_size -1", (), _vl("qwen2_5_vl", out_hidden_size=-1), "0|2"),
        c("qwen2_5_vl hidden_size '64'", (), _vl("qwen2_5_vl", hidden_size="64"), "0|2"),
        c("qwen2_5_vl fullatt_block_indexes 10**6 entries", (), _vl(
            "qwen2_5_vl", fullatt_block_indexes=list(range(100_000))), "0|2"),
        c("qwen2_5_vl window_size -1", (), _vl("qwen2_5_vl", window_size=-1), "0|2"),
        c("llava vision_feature_layer 65 layers", ("vision_feature_layer",), _llava({"vision_feature_layer":
                                                                                     list(range(65))})),
        c("llava vision_feature_layer a dict", (), _llava({"vision_feature_layer": {"a": 1}}), "0|2"),
        c("llava vision_feature_layer 10**9", (), _llava({"vision_feature_layer": 10**9}), "0|2"),
        c("llava vision model_type siglip, use_head 'no'", (), _llava(model_type="siglip_vision_model",
                                                                      vision_use_head="no"), "0|2"),
        c("llava vision model_type with RLO", (), _llava(model_type=f"clip{RLO}"), "0|2"),
        c("llava num_channels 0", (), _llava(num_channels=0), "0|2"),
        c("llava patch_size > image_size", ("patch_size",), _llava(patch_size=400)),
        c("llava multimodal_projector_bias 'x'", (), _llava({"multimodal_projector_bias": "x"}), "0|2"),
        c("llava_next image_grid_pinpoints 10**5", (), _llava({"model_type": "llava_next",
                                                               "image_grid_pinpoints": [[336, 336]] * 100_000}), "0|2"),
        c("llava text_config with experts -1", (), json.dumps({**json.loads(_llava()), "text_config": {
            **json.loads(_llava())["text_config"], "model_type": "mixtral", "num_local_experts": -1,
            "num_experts_per_tok": 2}}), "0|2"),
        c("internvl downsample_ratio 1e-320", (), _ivl({"downsample_ratio": 1e-320}), "0|2"),
        c("internvl downsample_ratio 0", (), _ivl({"downsample_ratio": 0}), "0|2"),
        c("internvl downsample_ratio -0.5", (), _ivl({"downsample_ratio": -0.5}), "0|2"),
        c("internvl downsample_ratio 1e-9", (), _ivl({"downsample_ratio": 1e-9}), "0|2"),
        c("internvl downsample_ratio NaN token", (), _raw(_ivl({"downsample_ratio": "@d@"}), d="NaN"), "0|2"),
        c("internvl downsample_ratio 'half'", (), _ivl({"downsample_ratio": "half"}), "0|2"),
        c("internvl max_dynamic_patch -1", (), _ivl({"dynamic_image_size": True, "max_dynamic_patch": -1}), "0|2"),
        c("internvl max_dynamic_patch 10**9", (), _ivl({"dynamic_image_size": True, "max_dynamic_patch": 10**9}),
          "0|2"),
        c("internvl dynamic_image_size 'yes'", (), _ivl({"dynamic_image_size": "yes"}), "0|2"),
        c("internvl vision model_type other", (), _ivl(model_type="siglip"), "0|2"),
        c("internvl image_size 0", (), _ivl(image_size=0), "0|2"),
        c("internvl llm_config null", (), json.dumps({**json.loads(_ivl()), "llm_config": None}), "0|2"),
        c("mixtral experts_per_tok 1e30", (), probe_lib.cfg(**{**MIX, "num_experts_per_tok": 1e30}), "0|2"),
        c("mixtral num_local_experts 2**63", (), probe_lib.cfg(**{**MIX, "num_local_experts": 2**63}), "0|2"),
        c("mixtral experts_per_tok true", (), probe_lib.cfg(**{**MIX, "num_experts_per_tok": True}), "0|2"),
        c("mixtral router_aux_loss_coef NaN token", (), _raw(probe_lib.cfg(**{**MIX, "router_aux_loss_coef": "@r@"}),
                                                             r="NaN"), "0|2"),
        c("deepseek_v3 first_k_dense_replace -1", (), probe_lib.cfg(**{**DS3, "first_k_dense_replace": -1}), "0|2"),
        c("deepseek_v3 n_group 0, topk_group 0", (), probe_lib.cfg(**{**DS3, "n_group": 0, "topk_group": 0}), "0|2"),
        c("deepseek_v3 num_experts_per_tok 9 of 8", (), probe_lib.cfg(**{**DS3, "num_experts_per_tok": 9}), "0|2"),
        c("qwen3_moe norm_topk_prob 'x'", (), probe_lib.cfg(model_type="qwen3_moe", num_experts=8,
                                                            num_experts_per_tok=2, moe_intermediate_size=64,
                                                            norm_topk_prob="x"), "0|2"),
        c("MoE config with vision tower: plan", (), json.dumps({**json.loads(_vl("qwen2_vl")), **MIX}), "0|2",
          cmd="plan"),
    ]


# ------------------------------------------------------------------------------------------ CLI options, settings

def arg_cases() -> list[Case]:
    return [
        Case("plan --top ' 3'", ["plan", EX, "--top", " 3"], {}, "0|2"),
        Case("plan --top '+3'", ["plan", EX, "--top", "+3"], {}, "0|2"),
        Case("plan --top '3\\x00'", ["plan", EX, "--top", "3\x00"], {}, "2", ("--top",)),
        Case("plan --top '0x3'", ["plan", EX, "--top", "0x3"], {}, "2", ("--top",)),
        Case("plan --top '３' RLO", ["plan", EX, "--top", f"3{RLO}"], {}, "2", ("--top",)),
        Case("plan --top given twice", ["plan", EX, "--top", "1", "--top", "2"], {}, "0|2"),
        Case("plan --lang ''", ["plan", EX, "--lang", ""], {}, "2", ("--lang",)),
        Case("plan --lang 'zh_CN\\u202e'", ["plan", EX, "--lang", f"zh_CN{RLO}"], {}, "2", ("--lang",)),
        Case("plan --lang '../zh_CN'", ["plan", EX, "--lang", "../zh_CN"], {}, "2", ("--lang",)),
        Case("plan --lang 'zh_cn' (case)", ["plan", EX, "--lang", "zh_cn"], {}, "2", ("--lang",)),
        Case("project --lang 10,000 characters", ["project", str(PLAN_PROJECT), "--lang", "z" * 10_000], {}, "2",
             ("--lang",)),
        Case("quotes --lang zh_CN --json", ["quotes", EX, str(QUOTES), "--lang", "zh_CN", "--json"], {}, "0"),
        Case("report -o /dev/full", ["report", EX, "-o", "/dev/full"], {}, "2"),
        Case("kit -o /dev/full", ["kit", EX, "-o", "/dev/full"], {}, "0|2"),
        Case("report -o into /proc", ["report", EX, "-o", "/proc/r.pdf"], {}, "2", ("r.pdf",)),
        Case("quotes --rfq into /sys", ["quotes", EX, str(QUOTES), "--rfq", "/sys/r.pdf"], {}, "2", ("r.pdf",)),
        Case("quotes --template xlsx -o into /proc", ["quotes", "--template", "xlsx", "-o", "/proc/t.xlsx"], {},
             "2", ("t.xlsx",)),
        Case("quotes --save a plan under /proc", ["quotes", "/proc/self/p.gpuplan", str(QUOTES), "--save"], {}, "2",
             ("p.gpuplan",)),
        Case("kit -o a folder-like name with newline + RLO", ["kit", EX, "-o", f"a\n{RLO}b/"], {}, "2", ("folder",)),
        Case("report -o a folder-like name with ESC", ["report", EX, "-o", "r\x1b[2J/"], {}, "2", ("folder",)),
        Case("report -o a name with NUL", ["report", EX, "-o", "r\x00.pdf"], {}, "2"),
        Case("kit -o a name with NUL", ["kit", EX, "-o", "k\x00.sh"], {}, "2"),
        Case("estimate a name with NUL", ["estimate", "s\x00.json"], {}, "2"),
        Case("quotes a sheet name with NUL", ["quotes", EX, "q\x00.csv"], {}, "2"),
        Case("report -o '.pdf' only", ["report", EX, "-o", ".pdf"], {}, "0|2", outputs=(".pdf",)),
        Case("report -o a name ending in a space", ["report", EX, "-o", "r.pdf "], {}, "0|2", outputs=("r.pdf ",)),
        Case("report -o the scenario itself", ["report", "s.json", "-o", "s.json"], {"s.json": json.dumps(LORA)},
             "2", ("s.json",)),
        Case("report --author RLO + ESC", ["report", EX, "-o", "r.pdf", "--author", f"a{RLO}\x1b[2J"], {}, "0|2",
             outputs=("r.pdf",)),
    ]


def _set(name, text, cmd=None, expect="0|2", words=()) -> Case:
    argv = cmd or ["report", EX, "-o", "r.pdf"]
    return Case(name, argv, {}, expect, tuple(words), outputs=("r.pdf",), home={SETTINGS: text})


def settings_cases() -> list[Case]:
    est = ["estimate", EX]
    return [
        _set("settings language key repeated", "[General]\nlanguage=zh_CN\nlanguage=en\n", cmd=est),
        _set("settings 10,000 keys", "[General]\n" + "".join(f"k{i}=v\n" for i in range(10_000)), cmd=est),
        _set("settings author 1 MB", "[report]\nauthor=" + "a" * 1_000_000 + "\n"),
        _set("settings author RLO + ESC", f"[report]\nauthor=a{RLO}\x1b[2J\n"),
        _set("settings paper a3", "[report]\npaper=a3\n"),
        _set("settings invalid UTF-8", b"[General]\nlanguage=\xff\xfe\n", cmd=est),
        Case("settings a folder", est, {}, "0|2", home={SETTINGS + "/x": "1"}),
        _set("settings geometry @ByteArray 1 MB", "[General]\ngeometry=@ByteArray(" + "\\0" * 500_000 + ")\n",
             cmd=est),
        _set("settings language zh_CN with --lang en", "[General]\nlanguage=zh_CN\n",
             cmd=["estimate", EX, "--lang", "en"]),
        _set("settings [autosave] interval -1", "[autosave]\ninterval=-1\nenabled=maybe\n", cmd=est),
    ]


ALL = (train_cases, serve_cases, project_cases, quote_cases, kit_cases, config_cases, arg_cases, settings_cases)


# ------------------------------------------------------------------------------------------ direct checks

PASTES = {  # text pasted into a line edit (what the page's parser gets)
    "RLO + ESC": f"8{RLO}\x1b[2J", "NUL": "8\x00", "1 MB of digits": "9" * 1_000_000, "1 MB of letters": "x" * 1_000_000,
    "1e400": "1e400", "-1e400": "-1e400", "NaN": "nan", "inf": "inf", "2**1100": str(2**1100),
    "lone surrogate": "8\ud800", "ZWSP": "8\u200b", "unicode minus": "\u22128", "CRLF": "8\r\n9",
    "tab": "8\t", "C1 NEL": "8\x85", "markup": "<b>8</b>", "formula": "=8+1", "emoji": "8\U0001f600",
    "only spaces": "   ", "RTL digits": "\u0668", "1e-400": "1e-400", "4k": "4k", "2T": "2T", "1,000,000": "1,000,000",
}


def _parsers() -> dict:
    from gpuplanner.ui import fields
    from gpuplanner.ui.pages import budget_page, data_page

    return {"fields.parse_int": fields.parse_int, "fields.parse_float": fields.parse_float,
            "data_page.parse_positive_count": data_page.parse_positive_count,
            "data_page.parse_positive_float": data_page.parse_positive_float,
            "budget_page.parse_pos": budget_page.parse_pos}


def _parser_checks() -> list[probe_lib.Check]:
    """Each pasted text into each page parser: a value, or a ValueError whose shown line is printable and at most
    400 characters (``core.messages.error_text``, what the field box shows); never another exception."""
    from gpuplanner.core.messages import error_text

    out = []
    for what, text in PASTES.items():
        bad = []
        for name, parse in _parsers().items():
            try:
                parse(text)
            except ValueError as err:
                line = str(error_text(err))
                if not line.isprintable() or len(line) > 400:
                    bad.append(f"{name}: {line[:40]!r}")
            except Exception as err:  # noqa: BLE001
                bad.append(f"{name} raised {type(err).__name__}")
        out.append((f"paste {what} into every page parser", not bad, f"bad {bad[:3]}"))
    return out


NEW_PATHS = ("training.ds_bf16_grad_accum", "training.mixed_precision_off", "training.logits_held",
             "training.compile_loss", "training.fsdp2_fp32_upcast", "training.fsdp_lora_mixed_units",
             "constraints.budget", "constraints.deadline_days", "data.tokens")
FIELD_VALUES = {"'yes'": "yes", "2": 2, "[True]": [True], "NaN": float("nan"), "'8' + RLO": f"8{RLO}",
                "1 MB": "1" * 1_000_000, "None": None, "a lone surrogate": "\ud800"}


def _new_field_checks() -> list[probe_lib.Check]:
    """The newest fields set to each value through the window's model: an error line or None, never an exception;
    the value typed is what the field shows back."""
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui.model import ScenarioModel

    QApplication.instance() or QApplication([])
    out = []
    for what, value in FIELD_VALUES.items():
        bad = []
        for path in NEW_PATHS:
            m = ScenarioModel()
            try:
                err = m.set(path, value)
                if err is not None:
                    text = str(err)
                    if not text.isprintable() or len(text) > 400:
                        bad.append(f"{path}: line")
                    shown = m.value(path)
                    if shown is not value and shown != value and not (value != value and shown != shown):
                        bad.append(f"{path}: lost")
            except Exception as e:  # noqa: BLE001
                bad.append(f"{path}: {type(e).__name__}")
        out.append((f"new fields set to {what}", not bad, f"bad {bad[:3]}"))
    return out


def _autosave_checks() -> list[probe_lib.Check]:
    """Autosave records whose plan is forged (new fields as text, a NaN budget, a serving phase with both targets,
    a 1 MB title): the recovery list still lists them all, one printable line each."""
    from gpuplanner.io.autosave import AutosaveStore

    good = json.loads(PLAN_PROJECT.read_text(encoding="utf-8"))
    forged = []
    a = json.loads(json.dumps(good))
    a["scenario"]["training"]["logits_held"] = "x"
    forged.append(a)
    b = json.loads(json.dumps(good))
    b["scenario"]["constraints"]["budget"] = "NaN"
    forged.append(b)
    c = json.loads(json.dumps(good))
    c["project"]["phases"][3]["inference"].update(documents_per_s=1, output_tokens_per_s=1)
    forged.append(c)
    d = json.loads(json.dumps(good))
    d["title"] = f"t{RLO}\x1b[2J" * 200_000
    forged.append(d)
    forged.append(None)
    forged.append([good])
    out = []
    with tempfile.TemporaryDirectory(prefix="probe18-as-") as tmp:
        root = Path(tmp)
        for i, plan in enumerate(forged):
            rec = {"autosave_format": 1, "session": f"s{i}", "pid": 2**31 - 2, "source_path": None,
                   "saved_at": "2026-12-08T00:00:00+00:00", "plan": plan}
            (root / f"r{i}-main.autosave").write_text(json.dumps(rec), encoding="utf-8")
        (root / "src-main.autosave").write_text(json.dumps(
            {"autosave_format": 1, "session": "x", "pid": 1, "source_path": f"/tmp/{RLO}\x1b[2J\x00.gpuplan",
             "saved_at": "2026-12-08T00:00:00+00:00", "plan": good}), encoding="utf-8")
        t0 = time.perf_counter()
        try:
            got = AutosaveStore(root, session="mine").pending()
            lines = [str(r.describe()) for r in got]
            bad = [ln[:40] for ln in lines if not ln.isprintable() or len(ln) > 600]
            ok, line = not bad and time.perf_counter() - t0 < 10, f"{len(got)} listed of 7, bad {bad[:2]}"
        except Exception as err:  # noqa: BLE001
            ok, line = False, f"raised {type(err).__name__}: {err}"[:200]
        out.append(("autosave forged plans listed", ok, line))
    return out


def _changing_checks() -> list[probe_lib.Check]:
    from probe_hostile_r17 import _changing

    proj = PLAN_PROJECT.read_bytes()
    cfg_good = probe_lib.cfg().encode()
    scen = patched(EXAMPLE, model__preset=None, model__hf_config="m").encode()
    out = [
        _changing("project plan rewritten while read", ["project", "p.gpuplan"], "p.gpuplan",
                  [proj, proj[:200], b"\0" * 100, proj.replace(b'"weeks": 4.0', b'"weeks": NaN')]),
        _changing("project plan swapped for a link to /dev/null while read", ["project", "p.gpuplan", "--json"],
                  "p.gpuplan", [proj, ("symlink", "/dev/null"), proj, ("symlink", "p.gpuplan")]),
    ]
    # config.json changing while the scenario reads it: the scenario is in the folder, the churned file is m's
    out.append(_changing_cfg(scen, cfg_good))
    return out


def _changing_cfg(scen: bytes, cfg_good: bytes) -> probe_lib.Check:
    import threading

    with tempfile.TemporaryDirectory(prefix="probe18-ch-") as d, tempfile.TemporaryDirectory(prefix="probe18-h-") as h:
        folder = Path(d)
        (folder / "s.json").write_bytes(scen)
        (folder / "m").mkdir()
        target = folder / "m" / "config.json"
        target.write_bytes(cfg_good)
        stop = threading.Event()
        versions = [cfg_good, cfg_good[:30], b"[" * 100_000, cfg_good.replace(b"512", b"0")]

        def churn():
            i = 0
            while not stop.is_set():
                try:
                    target.write_bytes(versions[i % len(versions)])
                except OSError:
                    pass
                i += 1
                time.sleep(0.001)

        th = threading.Thread(target=churn, daemon=True)
        th.start()
        fails = []
        try:
            from probe_hostile_r17 import _cli_in

            for _ in range(6):
                ok, line = _cli_in(folder, ["estimate", "s.json"], Path(h))
                if not ok:
                    fails.append(line)
        finally:
            stop.set()
            th.join(5)
        return ("config.json rewritten while read", not fails,
                f"{len(fails)} of 6 runs failed" + (f": {fails[0][:160]}" if fails else ""))


def direct_checks() -> list[probe_lib.Check]:
    """Page parsers, the newest fields through the window's model, forged autosave records, files changing."""
    return probe_lib.guarded(_parser_checks, _new_field_checks, _autosave_checks, _changing_checks)


def main(argv: list[str] | None = None) -> int:
    return probe_lib.main(argv, __doc__, ALL, direct_checks,
                          "direct paste parser new fields autosave changing rewritten")


if __name__ == "__main__":
    sys.exit(main())
