"""Hostile input, round 16: further than ``bench/probe_hostile_r15.py`` (and r13/r14) where those did not reach.

No pydantic field was added to the scenario, plan or quote models between 96ef3860 and main fe1a3ae9 (round 16's
merges changed memory.py only), so this round goes across the input paths rather than into new fields:

* wrong types at every level of a scenario and of a plan file (a section that is a list, a string, a number,
  ``true``); a scenario given as YAML; keys that are empty, NUL, 10,000 characters or bidi overrides;
* the quote model's free-text fields (region, contact, preinstalled, source, answers, notes) at sizes and with
  characters no earlier probe gave them; quote sheets with formula leads in every column;
* plan-file parts the earlier probes left alone (price_snapshot, benchmarks, results, selected_plan, ui_state,
  embedded_model, project) with wrong types, huge and non-finite values;
* pasted ``nvidia-smi -q`` / ``ibstat`` / ``topo -m`` text with bidi overrides, NUL, 1 MB lines;
* CLI arguments: ``--author`` with controls, outputs onto links and folders;
* the output side (direct checks): what the app writes back — the report and RFQ (HTML inside Qt: the user's
  text must come out as the text typed, never as markup), the quote export CSV/XLSX (no cell a spreadsheet reads
  as a formula, sheet names a spreadsheet accepts), the ``--json`` outputs (strict JSON).

    python bench/probe_hostile_r16.py [--only SUBSTRING] [--list] [--fork]

The runner and the rules are ``bench/probe_lib.py``'s (one printable ``gpuplanner: error:`` line of at most 400 characters naming
the listed words, exit 2, no traceback or pydantic dump, no control/bidi characters on stdout, nothing written but
what was asked, nothing outside the scratch folder, at most 20 s a case).
"""

from __future__ import annotations

import csv
import io
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import probe_lib  # noqa: E402  (the runner, the judge and the shared builders)
from probe_lib import EXAMPLE, FORMULA_LEADS, LORA_JSON, PLAN_LORA, QUOTES, SETTINGS, TOPO, Case, k, q, s, t  # noqa: E402

_cfg, _xlsx, _sheet_csv, _kit, _plan, _printable_line = (
    probe_lib.cfg, probe_lib.xlsx, probe_lib.sheet_csv, probe_lib.kit_text, probe_lib.plan_text,
    probe_lib.printable_line)
LORA = json.loads(LORA_JSON.read_text(encoding="utf-8"))
RLO = "\u202e"


def _raw_plan(text_over: dict) -> str:
    """The LoRA plan with top-level keys replaced by raw JSON text (``NaN`` and the like kept)."""
    d = json.loads(PLAN_LORA.read_text(encoding="utf-8"))
    for k in text_over:
        d[k] = f"@@{k}@@"
    out = json.dumps(d)
    for k, v in text_over.items():
        out = out.replace(f'"@@{k}@@"', v)
    return out


# ------------------------------------------------------------------------------------------ scenarios: types

def type_cases() -> list[Case]:
    out = []
    for section in ("model", "training", "parallel", "hardware", "data", "constraints", "assumptions"):
        for label, value in (("a list", []), ("a string", "x"), ("a number", 5), ("true", True)):
            out.append(s(f"scenario {section} is {label}", EXAMPLE, (section,), **{section: value}))
    out += [
        s("scenario training.rl a list", EXAMPLE, ("training.rl",), training__rl=[1]),
        s("scenario hardware.custom_gpus an object", EXAMPLE, ("hardware.custom_gpus",),
          hardware__custom_gpus={"id": "custom-a"}),
        s("scenario custom_gpus entry a string", EXAMPLE, ("hardware.custom_gpus",), hardware__custom_gpus=["x"]),
        s("scenario custom gpu memory_gib NaN", EXAMPLE, ("memory_gib",),
          hardware__custom_gpus=[{"id": "custom-a", "name": "A", "memory_gib": float("nan")}]),
        s("scenario custom gpu memory_gib 1e308", EXAMPLE, ("memory_gib",),
          hardware__custom_gpus=[{"id": "custom-a", "name": "A", "memory_gib": 1e308}]),
        s("scenario custom gpu name 10,000 chars + RLO", EXAMPLE, (), expect="0|2",
          hardware__custom_gpus=[{"id": "custom-a", "name": RLO + "N" * 10_000, "memory_gib": 80}]),
        s("scenario custom gpu bf16 tflops -1", EXAMPLE, ("custom_gpus",), expect="2",
          hardware__custom_gpus=[{"id": "custom-a", "name": "A", "memory_gib": 80, "bf16_tflops": -1}]),
        s("scenario data.tokens '5B\\u202e'", EXAMPLE, ("data.tokens",), data__tokens="5B" + RLO),
        s("scenario data.tokens '1e400'", EXAMPLE, ("data.tokens",), data__tokens="1e400"),
        s("scenario data.tokens '-5B'", EXAMPLE, ("data.tokens",), data__tokens="-5B"),
        s("scenario data.tokens '0' (in range: test_zero_tokens_is_no_division_by_zero)", EXAMPLE, (), expect="0|2",
          data__tokens="0"),
        s("scenario data.tokens '５B' (fullwidth)", EXAMPLE, (), expect="0|2", data__tokens="５B"),
        s("scenario data.tokens 'NaN'", EXAMPLE, ("data.tokens",), data__tokens="NaN"),
        s("scenario data.tokens 10,000 digits", EXAMPLE, ("data.tokens",), data__tokens="9" * 10_000),
        s("scenario constraints.currency 'cny'", EXAMPLE, (), expect="0|2", constraints__currency="cny"),
        s("scenario constraints.currency RLO", EXAMPLE, ("constraints.currency",), constraints__currency="C" + RLO + "NY"),
        s("scenario deadline_days 0", EXAMPLE, ("deadline_days",), constraints__deadline_days=0),
        s("scenario deadline_days 1e308", EXAMPLE, (), expect="0|2", constraints__deadline_days=1e308),
        s("scenario max_gpus -1", EXAMPLE, ("max_gpus",), constraints__max_gpus=-1),
        s("scenario hours_per_week 169", EXAMPLE, ("hours_per_week",), constraints__hours_per_week=169),
        s("scenario memory_headroom_gib -1", EXAMPLE, ("memory_headroom_gib",), assumptions__memory_headroom_gib=-1),
        s("scenario memory_headroom_gib 1e308", EXAMPLE, (), expect="0|2", assumptions__memory_headroom_gib=1e308),
        s("scenario micro_batch_size 0", EXAMPLE, ("micro_batch_size",), training__micro_batch_size=0),
        s("scenario global_batch_size 2**62", EXAMPLE, ("global_batch_size",), expect="0|2",
          training__global_batch_size=2**62),
        s("scenario empty key", EXAMPLE, (), expect="0|2", **{"": 1}),
        s("scenario key with NUL", EXAMPLE, (), expect="0|2", **{"hard\x00ware": 1}),
        s("scenario key with RLO (a lookalike of hardware)", EXAMPLE, (), expect="0|2", **{"hard" + RLO + "ware": 1}),
        s("scenario training key 'seq_len ' (trailing space)", EXAMPLE, (), expect="0|2",
          **{"training__seq_len ": 1}),
        Case("scenario as YAML (s.yaml)", ["estimate", "s.yaml"],
             {"s.yaml": "model:\n  preset: llama-3-8b\nhardware:\n  gpu: h100-sxm-80gb\n"}, "2", ("s.yaml",)),
        Case("scenario as YAML named .json", ["estimate", "s.json"],
             {"s.json": "model:\n  preset: llama-3-8b\n"}, "2", ("s.json",)),
        Case("scenario 64-deep then 65-deep", ["estimate", "s.json"],
             {"s.json": json.dumps(EXAMPLE)[:-1] + ', "x": ' + "[" * 65 + "]" * 65 + "}"}, "2", ("s.json",)),
        Case("scenario 9 MB of whitespace", ["estimate", "s.json"], {"s.json": " " * 9_000_000 + json.dumps(EXAMPLE)},
             "0|2"),
        Case("scenario a lone surrogate in the preset", ["estimate", "s.json"],
             {"s.json": json.dumps(EXAMPLE).replace("llama-3-8b", "llama\\ud800")}, "2", ("s.json",)),
        Case("scenario latin-1 bytes", ["estimate", "s.json"],
             {"s.json": json.dumps(EXAMPLE).replace("llama-3-8b", "llam\u00e9").encode("latin-1")}, "2", ("s.json",)),
        Case("scenario an integer of 5,000 digits", ["estimate", "s.json"],
             {"s.json": json.dumps(EXAMPLE).replace('"num_gpus": 8', '"num_gpus": ' + "9" * 5000)}, "2",
             ("num_gpus",)),
    ]
    return out


# ------------------------------------------------------------------------------------------ plan files

def plan_cases() -> list[Case]:
    est = ["estimate", "p.gpuplan"]
    rep = ["report", "p.gpuplan", "-o", "r.pdf"]
    return [
        Case("plan a list at top", est, {"p.gpuplan": "[]"}, "2", ("p.gpuplan",)),
        Case("plan scenario a list", est, {"p.gpuplan": _plan(scenario=[])}, "2", ("scenario",)),
        Case("plan quotes an object", est, {"p.gpuplan": _plan(quotes={"provider": "x"})}, "2", ("quotes",)),
        Case("plan project a string", est, {"p.gpuplan": _plan(project="x")}, "2", ("project",)),
        Case("plan ui_state a list", est, {"p.gpuplan": _plan(ui_state=[1])}, "0|2", ("ui_state",)),
        Case("plan ui_state current_page RLO 10,000", est,
             {"p.gpuplan": _plan(ui_state={"current_page": RLO * 10_000})}, "0|2"),
        Case("plan results 'x'", est, {"p.gpuplan": _plan(results="x")}, "0|2", ("results",)),
        Case("plan results NaN cost", est, {"p.gpuplan": _raw_plan({"results": '{"cost": NaN}'})}, "2",
             ("results",)),
        Case("plan benchmarks 'x'", est, {"p.gpuplan": _plan(benchmarks="x")}, "2", ("benchmarks",)),
        Case("plan benchmarks 10,000 entries", est,
             {"p.gpuplan": _plan(benchmarks=[{"kind": "x"}] * 10_000)}, "2", ("benchmarks",)),
        Case("plan price_snapshot rate -7", est,
             {"p.gpuplan": _plan(price_snapshot__exchange_rate_cny_per_usd=-7)}, "2", ("exchange_rate",)),
        Case("plan price_snapshot rate 0", est,
             {"p.gpuplan": _plan(price_snapshot__exchange_rate_cny_per_usd=0)}, "2", ("exchange_rate",)),
        Case("plan price_snapshot prices a string", est, {"p.gpuplan": _plan(price_snapshot__prices="x")}, "2",
             ("price_snapshot",)),
        Case("plan price_snapshot card_hour -1", est,
             {"p.gpuplan": _plan(price_snapshot__prices=[{"gpu": "rtx-4090-24gb", "card_hour": -1,
                                                           "currency": "CNY", "provider": "p"}])}, "2",
             ("price_snapshot",)),
        Case("plan price_snapshot 200,000 prices (16 MB)", est,
             {"p.gpuplan": _plan(price_snapshot__prices=[{"gpu": "rtx-4090-24gb", "card_hour": 1.0,
                                                           "currency": "CNY", "provider": "p"}] * 200_000)}, "2",
             ("price_snapshot.prices", "10000")),
        Case("plan price_snapshot 10,000 prices (the bound)", est,
             {"p.gpuplan": _plan(price_snapshot__prices=[{"gpu": "rtx-4090-24gb", "card_hour": 1.0,
                                                           "currency": "CNY", "provider": "p"}] * 10_000)}, "0"),
        Case("plan selected_plan num_gpus 0", est, {"p.gpuplan": _plan(selected_plan__num_gpus=0)}, "2",
             ("selected_plan",)),
        Case("plan selected_plan a number", est, {"p.gpuplan": _plan(selected_plan=5)}, "2", ("selected_plan",)),
        Case("plan selected_plan label with markup", rep,
             {"p.gpuplan": _plan(selected_plan__label="<img src='/dev/zero'>" + RLO)}, "0", outputs=("r.pdf",)),
        Case("plan schema_version '6'", est, {"p.gpuplan": _plan(schema_version="6")}, "0|2"),
        Case("plan schema_version 6.5", est, {"p.gpuplan": _plan(schema_version=6.5)}, "2", ("schema",)),
        Case("plan schema_version true", est, {"p.gpuplan": _plan(schema_version=True)}, "2", ("schema",)),
        Case("plan schema_version null", est, {"p.gpuplan": _plan(schema_version=None)}, "2", ("schema",)),
        Case("plan modified a number", est, {"p.gpuplan": _plan(modified=5)}, "0|2"),
        Case("plan app_version 10,000 chars + ESC", est, {"p.gpuplan": _plan(app_version="\x1b[2J" * 2500)}, "0|2"),
        Case("plan duplicate top-level key", est,
             {"p.gpuplan": _plan()[:-1] + ', "title": "second"}'}, "2", ("title",)),
        Case("plan project phases a dict", est, {"p.gpuplan": _plan(project__phases={"a": 1})}, "2", ("project",)),
        Case("plan project phase kind unknown", ["project", "p.gpuplan"],
             {"p.gpuplan": _plan(project__phases=[{"kind": "mining", "name": "m"}])}, "2", ("kind",)),
        Case("plan project two phases same name", ["project", "p.gpuplan"],
             {"p.gpuplan": _plan(project__phases=[{"kind": "research", "name": "r"},
                                                  {"kind": "research", "name": "r"}])}, "0|2"),
        Case("plan project phase name markup: report", rep,
             {"p.gpuplan": _plan(project__phases=[{"kind": "research", "name": "<h1>big</h1>" + RLO}])}, "0|2",
             outputs=("r.pdf",)),
        Case("plan project phase weeks NaN", ["project", "p.gpuplan"],
             {"p.gpuplan": _plan(project__phases=[{"kind": "research", "name": "r", "weeks": float("nan")}])}, "2",
             ("weeks",)),
        Case("plan checklist id markup", rep,
             {"p.gpuplan": _plan(vendor_checklist=[{"id": "<b>x</b>", "checked": True, "note": "<i>n</i>"}])}, "0|2",
             outputs=("r.pdf",)),
        Case("plan notes with 100,000 line breaks: report", rep, {"p.gpuplan": _plan(notes="\n" * 100_000)}, "0|2",
             outputs=("r.pdf",)),
        Case("plan title '&#x202e;' entity", rep, {"p.gpuplan": _plan(title="&#x202e;&lt;b&gt;")}, "0",
             outputs=("r.pdf",)),
        Case("plan embedded_model a list", est, {"p.gpuplan": _plan(embedded_model=[1])}, "2", ("embedded_model",)),
        Case("plan quotes 1 vendor, answers 10,000 keys", ["quotes", "p.gpuplan", "--json"],
             {"p.gpuplan": _plan(quotes=[{"provider": "v", "answers": {f"q{i}": {"answer": "yes"} for i in
                                                                      range(10_000)},
                                          "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour",
                                                      "price": "5"}]}])}, "0|2", max_out=5_000_000),
        Case("plan quotes region/contact 1 MB each: report", rep,
             {"p.gpuplan": _plan(quotes=[{"provider": "v", "region": "R" * 1_000_000, "contact": "C" * 1_000_000,
                                          "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour",
                                                      "price": "5"}]}])}, "0|2", outputs=("r.pdf",)),
        Case("plan quotes offer note 1 MB: report", rep,
             {"p.gpuplan": _plan(quotes=[{"provider": "v", "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour",
                                                                       "price": "5", "note": "n " * 500_000}]}])},
             "0|2", outputs=("r.pdf",)),
        Case("plan quotes currency 'usd'", ["quotes", "p.gpuplan", "--json"],
             {"p.gpuplan": _plan(quotes=[{"provider": "v", "currency": "usd", "offers": []}])}, "2", ("currency",)),
        Case("plan quotes price '1e400'", ["quotes", "p.gpuplan", "--json"],
             {"p.gpuplan": _plan(quotes=[{"provider": "v", "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour",
                                                                       "price": "1e400"}]}])}, "2", ("price",)),
        Case("plan quotes price 'NaN'", ["quotes", "p.gpuplan", "--json"],
             {"p.gpuplan": _plan(quotes=[{"provider": "v", "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour",
                                                                       "price": "NaN"}]}])}, "2", ("price",)),
        Case("plan quotes exchange_rate 0", ["quotes", "p.gpuplan", "--json"],
             {"p.gpuplan": _plan(quotes=[{"provider": "v", "currency": "USD", "exchange_rate": 0, "offers": []}])},
             "2", ("exchange_rate",)),
    ]


# ------------------------------------------------------------------------------------------ quote sheets

def _row(section, item, value, *rest) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([section, item, value, *rest])
    return buf.getvalue()


def quote_cases() -> list[Case]:
    return [
        q("csv region 10,000 chars", (), {"q.csv": _sheet_csv(extra_rows=_row("vendor", "region", "R" * 10_000))},
          expect="0|2"),
        q("csv contact with ESC/RLO", (), {"q.csv": _sheet_csv(extra_rows=_row("vendor", "contact", "\x1b[2J" + RLO))},
          expect="0|2"),
        q("csv exchange_rate 0", ("C5", "Exchange rate"),
          {"q.csv": _sheet_csv().replace("CNY", "USD") + _row("vendor", "exchange_rate", "0")}),
        q("csv exchange_rate 'NaN'", ("C5", "Exchange rate"),
          {"q.csv": _sheet_csv().replace("CNY", "USD") + _row("vendor", "exchange_rate", "NaN")}),
        q("csv storage_per_tb_month -1", ("C5", "Storage"), {"q.csv": _sheet_csv(extra_rows=_row("vendor",
                                                                                            "storage_per_tb_month", "-1"))}),
        q("csv setup_hours 1e9", ("C5", "Setup"), {"q.csv": _sheet_csv(extra_rows=_row("vendor", "setup_hours", "1e9"))}),
        q("csv network_gbps 0", ("C5", "Gb/s"), {"q.csv": _sheet_csv(extra_rows=_row("vendor", "network_gbps", "0"))}),
        q("csv nics_per_node 65", ("C5", "NICs"), {"q.csv": _sheet_csv(extra_rows=_row("vendor", "nics_per_node", "65"))}),
        q("csv unknown vendor item", (), {"q.csv": _sheet_csv(extra_rows=_row("vendor", "x" * 1000, "1"))},
          expect="0|2"),
        q("csv unknown section with RLO", (), {"q.csv": _sheet_csv(extra_rows=_row("sect" + RLO, "a", "1"))},
          expect="0|2"),
        q("csv question answer 'maybe'", (), {"q.csv": _sheet_csv(extra_rows=_row("question", "real_stock", "maybe"))},
          expect="0|2"),
        q("csv question unknown id 10,000 chars", (),
          {"q.csv": _sheet_csv(extra_rows=_row("question", "q" * 10_000, "yes"))}, expect="0|2"),
        q("csv 1,000 offers (the bound?)", (),
          {"q.csv": _sheet_csv(extra_rows=_row("offer", "rtx-4090-24gb", "5", "card_hour", "8", "", "no") * 1000)},
          expect="0|2"),
        q("csv offer gpu '=cmd|x'", (), {"q.csv": _sheet_csv().replace("rtx-4090-24gb", "=cmd|x")}, expect="0|2"),
        q("csv unit '@SUM(A1)'", ("D",), {"q.csv": _sheet_csv().replace("card_hour", "@SUM(A1)")}),
        q("csv provider '-2+3'", (), {"q.csv": _sheet_csv(vendor="-2+3")}, expect="0|2"),
        q("csv provider '+cmd'", (), {"q.csv": _sheet_csv(vendor="+cmd")}, expect="0|2"),
        q("csv provider whitespace only", ("C2", "Provider"), {"q.csv": _sheet_csv(vendor="   ")}, expect="0|2"),
        q("csv provider 121 chars", ("C2", "Provider"), {"q.csv": _sheet_csv(vendor="P" * 121)}, expect="0|2"),
        q("csv header in another order", (), {"q.csv": _sheet_csv().replace(
            "section,item,value,unit", "item,section,value,unit")}, expect="0|2"),
        q("csv a BOM and CRLF", (), {"q.csv": "\ufeff" + _sheet_csv().replace("\n", "\r\n")}, expect="0|2"),
        q("csv tab-separated", ("q.csv",), {"q.csv": _sheet_csv().replace(",", "\t")}, expect="0|2"),
        q("csv a quoted field 1 MB", (), {"q.csv": _sheet_csv(extra_rows='note,x,"' + "y" * 1_000_000 + '"\n')},
          expect="0|2"),
        q("csv date '0001-01-01'", (), {"q.csv": _sheet_csv().replace("8,,no,,", "8,,no,,0001-01-01")}, expect="0|2"),
        q("csv min_term_days 'NaN'", ("F4",), {"q.csv": _sheet_csv().replace("card_hour,8,,no", "card_hour,8,NaN,no")}),
        q("xlsx provider a number", (), {"q.xlsx": _xlsx(lambda wb, ws: ws.__setitem__("C2", 12345))}, expect="0|2"),
        q("xlsx provider a date", (), {"q.xlsx": _xlsx(_x_provider_date)}, expect="0|2"),
        q("xlsx price a formula string '=1/0' with cached value", ("C4",), {"q.xlsx": _xlsx(
            lambda wb, ws: ws.__setitem__("C4", "=1/0"))}),
        q("xlsx sheet named with RLO", (), {"q.xlsx": _xlsx(lambda wb, ws: setattr(ws, "title", "v" + RLO))},
          expect="0|2"),
        q("xlsx 1,000 offer rows", (), {"q.xlsx": _xlsx(_x_many_offers)}, expect="0|2"),
    ]


def _x_provider_date(wb, ws):
    import datetime as dt
    ws["C2"] = dt.datetime(2026, 1, 1)


def _x_many_offers(wb, ws):
    for _ in range(1000):
        ws.append(["offer", "rtx-4090-24gb", 5.5, "card_hour", 8, None, "no"])


# ------------------------------------------------------------------------------------------ kit, pasted, settings, CLI

def kit_cases() -> list[Case]:
    return [
        k("kit result a string", ("r.json",), '"x"'),
        k("kit result null", ("r.json",), "null"),
        k("kit gpus entry a number", ("gpus",), _kit(lambda d: d.update(gpus=[5]))),
        k("kit allreduce entry null", ("allreduce",), _kit(lambda d: d.update(allreduce=[None]))),
        k("kit host 10,000 chars + RLO", (), _kit(lambda d: d.update(host=RLO + "h" * 10_000)), "0|2"),
        k("kit a key with NUL", (), _kit(lambda d: d.update({"a\x00b": 1})), "0|2"),
        k("kit 65-deep", ("r.json",), _kit(lambda d: None)[:-1] + ', "x": ' + "[" * 65 + "]" * 65 + "}"),
        k("kit lone surrogate in host", ("r.json",), _kit(lambda d: d.update(host="@@S@@")).replace("@@S@@", "\\udc00")),
    ]


def pasted_cases() -> list[Case]:
    nsmi = "GPU 00000000:18:00.0\n    Product Name : NVIDIA H100 80GB HBM3\n    Retired Pages\n"
    ib = "CA 'mlx5_0'\n\tPort 1:\n\t\tState: Active\n\t\tRate: 400\n\t\tLink layer: InfiniBand\n"
    return [
        t("topo a 1 MB label", TOPO.replace("GPU1", "GPU" + "1" * 1_000_000)),
        t("topo RLO in the legend", TOPO.replace("Legend", "Leg" + RLO + "end")),
        t("topo CRLF", TOPO.replace("\n", "\r\n")),
        t("topo a NIC row only", "\tNIC0\nNIC0\t X \n"),
        Case("health RLO/ESC in the bus id", ["health", "h.txt"], {"h.txt": nsmi.replace("18:00.0", "18" + RLO + "\x1b[2J")},
             "0|2"),
        Case("health a 1 MB line", ["health", "h.txt"], {"h.txt": nsmi + "    X : " + "y" * 1_000_000 + "\n"}, "0|2"),
        Case("health NUL bytes", ["health", "h.txt"], {"h.txt": nsmi.replace("H100", "H\x00100")}, "0|2"),
        Case("health UTF-16", ["health", "h.txt"], {"h.txt": nsmi.encode("utf-16")}, "0|2"),
        Case("health ECC count 10**30", ["health", "h.txt"],
             {"h.txt": nsmi + "    ECC Errors\n        Volatile\n            DRAM Uncorrectable : " + "9" * 30 + "\n"},
             "0|2"),
        Case("net RLO in the CA name", ["net", "n.txt"], {"n.txt": ib.replace("mlx5_0", "mlx5" + RLO + "_0")}, "0|2"),
        Case("net rate NaN", ["net", "n.txt"], {"n.txt": ib.replace("400", "NaN")}, "0|2"),
        Case("net rate -400", ["net", "n.txt"], {"n.txt": ib.replace("400", "-400")}, "0|2"),
        Case("net 20,000 CAs", ["net", "n.txt"], {"n.txt": ib * 20_000}, "0|2"),
        Case("net --json with ESC", ["net", "n.txt", "--json"], {"n.txt": ib.replace("mlx5_0", "\x1b[31mx")}, "0|2",
             max_out=2_000_000),
    ]


def settings_cases() -> list[Case]:
    rep = ["report", str(LORA_JSON), "-o", "r.pdf"]
    return [
        Case("settings author with an <img> tag", rep, {}, "0", outputs=("r.pdf",),
             home={SETTINGS: "[report]\nauthor=\"<img src='file:///etc/passwd'>\"\n"}),
        Case("settings author 'a\\nb' escape", rep, {}, "0", outputs=("r.pdf",), home={SETTINGS: "[report]\nauthor=a\\nb\n"}),
        Case("settings language key twice", ["estimate", str(LORA_JSON)], {}, "0",
             home={SETTINGS: "[ui]\nlanguage=en\nlanguage=zh_CN\n"}),
        Case("settings a section 10,000 chars", ["estimate", str(LORA_JSON)], {}, "0",
             home={SETTINGS: "[" + "s" * 10_000 + "]\nx=1\n"}),
    ]


def arg_cases() -> list[Case]:
    ex = str(LORA_JSON)
    rep = ["report", ex, "-o", "r.pdf"]
    return [
        Case("--author with ESC/RLO/newline", rep + ["--author", "\x1b[2J" + RLO + "a\nb"], {}, "0|2",
             outputs=("r.pdf",)),
        Case("--author with <img> markup", rep + ["--author", "<img src='/dev/zero'>"], {}, "0", outputs=("r.pdf",)),
        Case("--author empty", rep + ["--author", ""], {}, "0", outputs=("r.pdf",)),
        Case("report -o a dangling symlink", ["report", ex, "-o", "r.pdf"], {"r.pdf": ("symlink", "gone/x.pdf")},
             "0|2", outputs=("r.pdf",)),
        Case("report -o a symlink out of the folder", ["report", ex, "-o", "r.pdf"],
             {"r.pdf": ("symlink", "/proc/self/x.pdf")}, "0|2", outputs=("r.pdf",)),
        Case("kit -o an existing folder", ["kit", ex, "-o", "d"], {"d/x": "1"}, "2", ("d",)),
        Case("quotes --rfq a name of 300 bytes", ["quotes", ex, str(QUOTES), "--rfq", "r" * 300 + ".pdf"], {}, "2"),
        Case("quotes --template xlsx -o a name with RLO", ["quotes", "--template", "xlsx", "-o", "t" + RLO + ".xlsx"],
             {}, "0|2", outputs=("t" + RLO + ".xlsx",)),
        Case("plan --objective '' ", ["plan", ex, "--objective", ""], {}, "2", ("--objective",)),
        Case("project a scenario JSON", ["project", ex], {}, "0|2"),
        Case("estimate --lang zh_CN on a broken file", ["estimate", "s.json", "--lang", "zh_CN"], {"s.json": "{"}, "2"),
        Case("topo --tp 2**63", ["topo", "t.txt", "--tp", str(2**63)], {"t.txt": TOPO}, "2", ("--tp",)),
        Case("kit-import result = the scenario", ["kit-import", "s.json", "s.json"], {"s.json": json.dumps(LORA)}, "2"),
    ]


ALL = (type_cases, plan_cases, quote_cases, kit_cases, pasted_cases, settings_cases, arg_cases)


# ------------------------------------------------------------------------------------------ direct checks

MARK = "<b>M{}</b>&amp;<img src='/dev/zero'>"  # what a user might type; it must come back as typed


def direct_checks() -> list[tuple[str, bool, str]]:
    """The writers: the report (its user text comes back as typed, never as markup), the RFQ, the quote export
    (every column, sheet names), ``--json`` (strict JSON)."""
    return probe_lib.guarded(_report_checks, _rfq_checks, _export_checks, _sheet_name_checks, _save_checks,
                             _round_trip_checks)


def _marked_plan() -> dict:
    d = json.loads(PLAN_LORA.read_text(encoding="utf-8"))
    d["title"] = MARK.format(1)
    d["notes"] = MARK.format(2)
    d["vendor_checklist"] = [{"id": "real_stock", "checked": True, "note": MARK.format(3)}]
    d["quotes"] = [{"provider": MARK.format(4)[:120], "region": MARK.format(5), "contact": MARK.format(6),
                    "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour", "price": "5.5", "note": MARK.format(7)}]}]
    return d


def _report_checks() -> list[tuple[str, bool, str]]:
    from gpuplanner.app.answer import report_data
    from gpuplanner.report import render

    render.ensure_app()
    with tempfile.TemporaryDirectory(prefix="probe16-r-") as d:
        p = Path(d) / "p.gpuplan"
        p.write_text(json.dumps(_marked_plan()), encoding="utf-8")
        data = report_data(str(p), author=MARK.format(8))
        text = render.build_document(data).toPlainText()
    out = []
    for i, what in ((1, "title"), (2, "notes"), (3, "checklist note"), (4, "vendor name"), (8, "author")):
        mark = MARK.format(i)
        out.append((f"report: {what} with markup comes out as typed", mark in text,
                    "found" if mark in text else f"not found as typed (rendered as markup or dropped)"))
    return out


def _rfq_checks() -> list[tuple[str, bool, str]]:
    from gpuplanner.commands.quotes import compare_for_file
    from gpuplanner.report.quotes_section import rfq_html
    from PySide6.QtGui import QTextDocument

    from gpuplanner.report import render

    render.ensure_app()
    with tempfile.TemporaryDirectory(prefix="probe16-rfq-") as d:
        p = Path(d) / "p.gpuplan"
        p.write_text(json.dumps(_marked_plan()), encoding="utf-8")
        result, _ = compare_for_file(str(p))
        doc = QTextDocument()
        doc.setHtml(rfq_html(result, MARK.format(1)))
        text = doc.toPlainText()
    mark = MARK.format(1)
    return [("rfq: title with markup comes out as typed", mark in text, "found" if mark in text else "not found")]


def _export_checks() -> list[tuple[str, bool, str]]:
    """Every free-text column of the export: provider, region, contact, preinstalled, source, offer note, gpu,
    question note."""
    import openpyxl

    from gpuplanner.core.quotes import VendorQuote
    from gpuplanner.io.quote_sheets import write_csv, write_xlsx

    out = []
    for lead in ("=1+1", "+1", "-1+1", "@SUM(A1)", "\t=1", "\r=1", " =1"):
        vq = VendorQuote.model_validate({
            "provider": lead, "region": lead, "contact": lead, "preinstalled": lead, "source": lead,
            "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour", "price": "5", "note": lead}],
            "answers": {"real_stock": {"answer": "yes", "note": lead}}})
        cells = list(csv.reader(io.StringIO(write_csv(vq).decode("utf-8-sig"))))
        bad = [c for row in cells for c in row if c.lstrip(" ").startswith(FORMULA_LEADS) and c.strip() not in ("-", "")]
        out.append((f"export csv: every text column {lead!r}", not bad, f"formula-led cells {bad[:3]}"))
        wb = openpyxl.load_workbook(io.BytesIO(write_xlsx([vq])))
        fx = [c.coordinate for ws in wb for row in ws.iter_rows() for c in row if c.data_type == "f"]
        led = [c.coordinate for ws in wb for row in ws.iter_rows() for c in row
               if isinstance(c.value, str) and c.value.lstrip(" ").startswith(FORMULA_LEADS) and c.value.strip() != "-"
               and not c.quotePrefix]  # text that an edit in the cell (F2, Enter) turns into a formula
        out.append((f"export xlsx: every text column {lead!r}", not fx and not led,
                    f"formula cells {fx[:3]}, formula-led text without the quote prefix {led[:3]}"))
    return out


def _sheet_name_checks() -> list[tuple[str, bool, str]]:
    """Vendor names as sheet names: Excel refuses two names differing only in case, a name that starts or ends
    with an apostrophe, 'History', and more than 31 characters (ECMA-376 Part 1 §18.2.19 ``sheet@name``; Excel's
    "repair" dialog drops the workbook's sheets otherwise)."""
    import openpyxl

    from gpuplanner.core.quotes import VendorQuote
    from gpuplanner.io.quote_sheets import write_xlsx

    out = []
    sets = {"names differing in case": ["Acme", "ACME", "acme"],
            "apostrophe ends": ["'quoted'", "x'"],
            "History": ["History"],
            "only forbidden characters": ["[]:*?/\\", "///"],
            "28 same chars then different": ["V" * 28 + "a", "V" * 28 + "b", "V" * 28 + "c"],
            "RLO and zero-width": [RLO + "x", "x\u200b"]}
    for label, names in sets.items():
        quotes = [VendorQuote.model_validate({"provider": n, "offers": []}) for n in names]
        try:
            data = write_xlsx(quotes)
            titles = openpyxl.load_workbook(io.BytesIO(data)).sheetnames
            lower = [x.lower() for x in titles]
            bad = (len(set(lower)) != len(lower) or any(x.startswith("'") or x.endswith("'") for x in titles)
                   or "history" in lower or any(len(x) > 31 or not x.strip() for x in titles)
                   or len(titles) != len(names)
                   or any(not x.isprintable() for x in titles))
            out.append((f"export xlsx sheet names: {label}", not bad, f"{titles}"))
        except Exception as err:  # noqa: BLE001
            out.append((f"export xlsx sheet names: {label}", False, f"raised {type(err).__name__}: {err}"[:200]))
    return out


def _save_checks() -> list[tuple[str, bool, str]]:
    """``quotes PLAN SHEET --save`` keeps what the user entered before: the other vendors stored in the plan."""
    from gpuplanner.cli import run_cli
    from gpuplanner.io import planfile

    out = []
    with tempfile.TemporaryDirectory(prefix="probe16-save-") as d:
        p = Path(d) / "p.gpuplan"
        kept = {"provider": "Typed on the Quotes page", "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour",
                                                                     "price": "4.5"}]}
        old_x = {"provider": "X", "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour", "price": "9"}]}
        p.write_text(_plan(quotes=[kept, old_x]), encoding="utf-8")
        sheet = Path(d) / "q.csv"
        sheet.write_text(_sheet_csv(), encoding="utf-8")  # vendor X's new sheet
        with open(os.devnull, "w") as null, __import__("contextlib").redirect_stdout(null):
            rc = run_cli(["quotes", str(p), str(sheet), "--save", "--json"])
        doc, _ = planfile.load(p)
        got = [(q.provider, str(q.offers[0].price)) for q in doc.quotes]
        ok = rc == 0 and got == [("Typed on the Quotes page", "4.5"), ("X", "5.88")]
        out.append(("quotes --save keeps the other stored vendors, replaces the same one", ok, f"rc={rc} {got}"))
    return out


ROUND_TRIP = ["=1+1", "+1", "-1+1", "@SUM(A1)", "'=x", "''=x", "'", "''", "'-", "a\u202eb", "x,y\"z", "line1\nline2",
              "History", "'quoted'", "-"]


def _round_trip_checks() -> list[tuple[str, bool, str]]:
    """A vendor exported (CSV, XLSX) then imported again is the vendor typed: every text column, whatever it starts
    with (a formula lead, the export's protective apostrophe typed by the user)."""
    from gpuplanner.core.quotes import VendorQuote
    from gpuplanner.io.quote_sheets import read_quotes, write_sheet

    out = []
    for text in ROUND_TRIP:
        vq = VendorQuote.model_validate({
            "provider": "P" + text if text == "-" else text, "region": text, "contact": text, "preinstalled": text,
            "source": text, "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour", "price": "5.5", "note": text}],
            "answers": {"real_stock": {"answer": "yes", "note": text}}})
        for suffix in (".csv", ".xlsx"):
            with tempfile.TemporaryDirectory(prefix="probe16-rt-") as d:
                path = Path(d) / ("q" + suffix)
                try:
                    write_sheet(path, [vq])
                    back = read_quotes(path)[0]
                except Exception as err:  # noqa: BLE001
                    out.append((f"round trip {suffix} {text!r}", False, f"raised {type(err).__name__}: {err}"[:200]))
                    continue
            a, b = vq.model_dump(mode="json"), back.model_dump(mode="json")
            b["answers"] = {k: v for k, v in b["answers"].items() if k in a["answers"]}  # the rest: "unknown"
            diff = {k: (a[k], b[k]) for k in a if a[k] != b[k]}
            out.append((f"round trip {suffix} {text!r}", not diff, json.dumps(diff, ensure_ascii=True)[:160]))
    return out


def main(argv: list[str] | None = None) -> int:
    return probe_lib.main(argv, __doc__, ALL, direct_checks, "direct report rfq export sheet save round trip")


if __name__ == "__main__":
    sys.exit(main())
