"""Hostile input, round 17: new cases past ``bench/probe_hostile_r13.py`` … ``r16.py`` on every entry point.

* outputs: ``-o`` / ``--rfq`` / ``--template -o`` / ``--save`` onto symlink loops, links into missing folders, folders
  with a trailing slash, names with RLO/newline/255 bytes, an input sheet, a ``.bak`` that is a folder or a loop;
* inputs of every command (scenario, plan, project, sheet, kit result, pasted tool output, ``--dmesg``, ``--topo``,
  ``--plan``) as symlink loops, FIFOs, character devices, folders, names with bidi/controls, stdin floods;
* ``model.hf_config`` sources: loops, FIFOs, devices, folders, ``..`` out of a plan's folder, 10,000-character ids;
* scenario values: numbers as text, fullwidth/Arabic digits, ``-0``, huge candidate lists, 1 MB names, RTL names;
* plan and project files: phases with NaN/negative/huge weeks, growth, unknown kinds, RTL names; ui_state types;
* quote sheets: CSV with NUL, semicolons, UTF-16, 2,001 lines; XLSX that is an OLE2 (.xls / encrypted) file, an ODS,
  a zip with duplicate or ``../`` entry names, 201 entries, stored bombs, zip-in-zip, formula cells everywhere;
* kit results, the settings file (QSettings ``@Variant``/``@ByteArray``, interpolation, BOM, UTF-16, links), CLI
  options;
* direct checks: autosave recovery (dates out of range, FIFOs, loops, huge records, 200 records), text pasted into
  every scenario field the window binds (``ui.model.ScenarioModel.set``: an error line, never an exception, and the
  typed value kept), the title/notes, and files changed while they are read (rewritten, grown, swapped for a link).

    python bench/probe_hostile_r17.py [--only SUBSTRING] [--list] [--fork]

The runner and the rules are ``bench/probe_lib.py``'s (one printable ``gpuplanner: error:`` line of at most 400
characters naming the listed words, exit 2, no traceback or pydantic dump, no control/bidi characters on stdout,
nothing written but what was asked, nothing outside the scratch folder, at most 20 s a case).
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import probe_lib  # noqa: E402  (the runner, the judge and the shared builders)
from probe_lib import (  # noqa: E402
    EXAMPLE, KIT, LORA_JSON, PLAN_LORA, PLAN_PROJECT, QUOTES, SETTINGS, TOPO, Case, k, patched, q, s)

RLO = "\u202e"
LORA = json.loads(LORA_JSON.read_text(encoding="utf-8"))
EX = str(LORA_JSON)
PLAN = PLAN_LORA.read_bytes()
SHEET = QUOTES.read_bytes()
IBSTAT = "CA 'mlx5_0'\n\tCA type: MT4129\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n\t\tRate: 400\n" \
         "\t\tLink layer: InfiniBand\n"
SMI_Q = "GPU 00000000:18:00.0\n    Product Name : NVIDIA H100 80GB HBM3\n    Temperature\n        GPU Current Temp : 40 C\n"
LOOP = {"loop": ("symlink", "loop")}
LOOP2 = {"l1": ("symlink", "l2"), "l2": ("symlink", "l1")}


def _plan(**paths) -> str:
    return probe_lib.plan_text(**paths)


def _project(fn) -> str:
    d = json.loads(PLAN_PROJECT.read_text(encoding="utf-8"))
    fn(d["project"])
    return json.dumps(d, ensure_ascii=False)


def _phase(i: int, **over):
    return lambda p: p["phases"][i].update(over)


# ------------------------------------------------------------------------------------------ outputs

def out_cases() -> list[Case]:
    tpl = ["quotes", "--template"]
    return [
        Case("kit -o a symlink loop", ["kit", EX, "-o", "loop"], LOOP, "2", ("loop",)),
        Case("kit -o a two-link loop", ["kit", EX, "-o", "l1"], LOOP2, "2", ("l1",)),
        Case("report -o a symlink loop", ["report", EX, "-o", "loop"], LOOP, "2", ("loop",)),
        Case("quotes --rfq a symlink loop", ["quotes", EX, str(QUOTES), "--rfq", "loop"], LOOP, "2", ("loop",)),
        Case("quotes --template csv -o a loop named .csv", tpl + ["csv", "-o", "loop.csv"],
             {"loop.csv": ("symlink", "loop.csv")}, "2", ("loop.csv",)),
        Case("quotes --template xlsx -o a two-link loop .xlsx", tpl + ["xlsx", "-o", "a.xlsx"],
             {"a.xlsx": ("symlink", "b.xlsx"), "b.xlsx": ("symlink", "a.xlsx")}, "2", ("a.xlsx",)),
        Case("quotes --save into a plan that is a loop", ["quotes", "loop", str(QUOTES), "--save"], LOOP, "2", ("loop",)),
        Case("quotes --save with the .bak a symlink loop", ["quotes", "p.gpuplan", str(QUOTES), "--save"],
             {"p.gpuplan": PLAN, "p.gpuplan.bak": ("symlink", "p.gpuplan.bak")}, "0|2",
             outputs=("p.gpuplan", "p.gpuplan.bak")),
        Case("quotes --save with the .bak a folder", ["quotes", "p.gpuplan", str(QUOTES), "--save"],
             {"p.gpuplan": PLAN, "p.gpuplan.bak/x": "1"}, "2", ("p.gpuplan",)),
        Case("quotes --save into a scenario JSON", ["quotes", "s.json", str(QUOTES), "--save"],
             {"s.json": json.dumps(LORA)}, "2", ("--save",)),
        Case("quotes --save through a link to the plan", ["quotes", "lnk.gpuplan", str(QUOTES), "--save"],
             {"p.gpuplan": PLAN, "lnk.gpuplan": ("symlink", "p.gpuplan")}, "0",
             outputs=("p.gpuplan", "p.gpuplan.bak")),
        Case("kit -o a link into a missing folder", ["kit", EX, "-o", "k.sh"], {"k.sh": ("symlink", "nope/k.sh")}, "2",
             ("k.sh",)),
        Case("kit -o a link to a folder", ["kit", EX, "-o", "k.sh"], {"d/x": "1", "k.sh": ("symlink", "d")}, "2"),
        Case("kit -o a folder with a trailing slash", ["kit", EX, "-o", "d/"], {"d/x": "1"}, "2", ("d",)),
        Case("kit -o a name with a newline", ["kit", EX, "-o", "a\nb.sh"], {}, "0|2", outputs=("a\nb.sh",)),
        Case("kit -o a name with RLO", ["kit", EX, "-o", f"a{RLO}hs.exe"], {}, "0|2", outputs=(f"a{RLO}hs.exe",)),
        Case("kit -o a name of 255 bytes", ["kit", EX, "-o", "k" * 252 + ".sh"], {}, "0",
             outputs=("k" * 252 + ".sh",)),
        Case("kit -o a name of 256 bytes", ["kit", EX, "-o", "k" * 253 + ".sh"], {}, "2"),
        Case("kit -o '' (stdout)", ["kit", EX, "-o", ""], {}, "0"),
        Case("report -o the quote sheet given", ["quotes", "p.gpuplan", "q.csv", "--rfq", "q.csv"],
             {"p.gpuplan": PLAN, "q.csv": SHEET}, "2", ("q.csv",)),
        Case("quotes --template csv -o the plan's name", tpl + ["csv", "-o", "p.gpuplan"], {"p.gpuplan": PLAN}, "0",
             outputs=("p.csv",)),
        Case("kit -o a path through a file", ["kit", EX, "-o", "s.json/k.sh"], {"s.json": "{}"}, "2", ("k.sh",)),
        Case("report -o a name with ESC", ["report", EX, "-o", "r\x1b[2J.pdf"], {}, "0|2", outputs=("r\x1b[2J.pdf",)),
    ]


# ------------------------------------------------------------------------------------------ inputs

def in_cases() -> list[Case]:
    cases = []
    for cmd, extra in (("estimate", ()), ("plan", ("--top", "1")), ("project", ()), ("report", ("-o", "r.pdf")),
                       ("kit", ("-o", "k.sh"))):
        cases += [
            Case(f"{cmd} a symlink loop", [cmd, "loop", *extra], LOOP, "2", ("loop",)),
            Case(f"{cmd} a FIFO", [cmd, "f.json", *extra], {"f.json": ("fifo",)}, "2", ("f.json",)),
            Case(f"{cmd} a .gpuplan FIFO", [cmd, "f.gpuplan", *extra], {"f.gpuplan": ("fifo",)}, "2", ("f.gpuplan",)),
        ]
    cases += [
        Case("estimate a link to /dev/urandom", ["estimate", "u.gpuplan"], {"u.gpuplan": ("symlink", "/dev/urandom")},
             "2", ("u.gpuplan",)),
        Case("estimate a folder named .gpuplan", ["estimate", "d.gpuplan"], {"d.gpuplan/x": "1"}, "2", ("d.gpuplan",)),
        Case("estimate a name with newline + ESC", ["estimate", "a\n\x1b[2Jb.json"], {"a\n\x1b[2Jb.json": "{"}, "2"),
        Case("estimate a name with RLO", ["estimate", f"x{RLO}nosj.json"], {f"x{RLO}nosj.json": "{"}, "2"),
        Case("estimate a path of 4,096 bytes", ["estimate", "a/" * 2048], {}, "2"),
        Case("estimate '-' (stdin is not read)", ["estimate", "-"], {}, "2", stdin=json.dumps(LORA).encode()),
        Case("quotes a sheet that is a symlink loop", ["quotes", EX, "loop.csv"], {"loop.csv": ("symlink", "loop.csv")},
             "2", ("loop.csv",)),
        Case("quotes a sheet that is a FIFO", ["quotes", EX, "q.xlsx"], {"q.xlsx": ("fifo",)}, "2", ("q.xlsx",)),
        Case("quotes a sheet that is a folder", ["quotes", EX, "q.csv"], {"q.csv/x": "1"}, "2", ("q.csv",)),
        Case("quotes a sheet /dev/zero via a link", ["quotes", EX, "z.xlsx"], {"z.xlsx": ("symlink", "/dev/zero")}, "2",
             ("z.xlsx",)),
        Case("kit-import a result that is a loop", ["kit-import", EX, "loop"], LOOP, "2", ("loop",)),
        Case("kit-import a result that is a FIFO", ["kit-import", EX, "r.json"], {"r.json": ("fifo",)}, "2",
             ("r.json",)),
        Case("kit --import a FIFO", ["kit", EX, "--import", "r.json"], {"r.json": ("fifo",)}, "2", ("r.json",)),
        Case("health a symlink loop", ["health", "loop"], LOOP, "2", ("loop",)),
        Case("health --dmesg a FIFO", ["health", "h.txt", "--dmesg", "d.log"], {"h.txt": SMI_Q, "d.log": ("fifo",)},
             "2", ("d.log",)),
        Case("health --dmesg a loop", ["health", "h.txt", "--dmesg", "loop"], {"h.txt": SMI_Q, **LOOP}, "2", ("loop",)),
        Case("health --plan a FIFO", ["health", "h.txt", "--plan", "p.gpuplan"], {"h.txt": SMI_Q, "p.gpuplan": ("fifo",)},
             "2", ("p.gpuplan",)),
        Case("net --topo a FIFO", ["net", "n.txt", "--topo", "t.txt"], {"n.txt": IBSTAT, "t.txt": ("fifo",)}, "2",
             ("t.txt",)),
        Case("net --topo a loop", ["net", "n.txt", "--topo", "loop"], {"n.txt": IBSTAT, **LOOP}, "2", ("loop",)),
        Case("net --plan a loop", ["net", "n.txt", "--plan", "loop"], {"n.txt": IBSTAT, **LOOP}, "2", ("loop",)),
        Case("net a folder", ["net", "d"], {"d/x": "1"}, "2", ("d",)),
        Case("topo a loop", ["topo", "loop"], LOOP, "2", ("loop",)),
        Case("topo stdin 30 MB", ["topo", "-"], {}, "2", stdin=b"GPU0\t" * 6_000_000),
        Case("net stdin binary", ["net", "-"], {}, "2", stdin=bytes(range(256)) * 4000),
        Case("health stdin UTF-16", ["health", "-"], {}, "0|2", stdin=SMI_Q.encode("utf-16")),
        Case("health stdin with NUL and RLO", ["health", "-"], {}, "0|2",
             stdin=SMI_Q.replace("H100", f"H1\x0000{RLO}").encode()),
    ]
    return cases


# ------------------------------------------------------------------------------------------ model sources

def _hf(ref: str, files: dict | None = None, cmd="estimate", expect="2", words=(), name="") -> Case:
    return Case(name or f"hf_config {ref[:30]!r}", [cmd, "s.json"],
                {"s.json": patched(EXAMPLE, model__preset=None, model__hf_config=ref), **(files or {})}, expect,
                tuple(words))


def cfg_cases() -> list[Case]:
    cfg = probe_lib.cfg()
    return [
        _hf("m", {"m/config.json": ("symlink", "config.json")}, name="config.json a symlink loop"),
        _hf("m", {"m/config.json": ("fifo",)}, name="config.json a FIFO", words=("config.json",)),
        _hf("m", {"m/config.json": ("symlink", "/dev/zero")}, name="config.json a link to /dev/zero"),
        _hf("m", {"m/config.json/x": "1"}, name="config.json a folder"),
        _hf("loop", LOOP, name="hf_config a symlink loop"),
        _hf("f", {"f": ("fifo",)}, name="hf_config a FIFO itself"),
        _hf("m/config.json", {"m/config.json": cfg}, expect="0", name="hf_config naming the file"),
        _hf("/dev/stdin", name="hf_config /dev/stdin"),
        _hf("/proc/self/environ", name="hf_config /proc/self/environ"),
        _hf("x" * 10_000, name="hf_config 10,000 characters"),
        _hf(f"org/mod{RLO}el", name="hf_config id with RLO"),
        _hf("org/model\x00x", name="hf_config id with NUL"),
        _hf("https://huggingface.co/meta-llama/Llama-3-8B", name="hf_config a URL"),
        _hf("~nobody/m", name="hf_config ~user"),
        _hf("m", {"m/config.json": cfg, "m/model.safetensors.index.json": json.dumps(
            {"weight_map": {"w": "../../../../etc/passwd"}})}, expect="0|2", name="index.json weight_map out of the folder"),
        _hf("m", {"m/config.json": cfg, "m/model.safetensors.index.json": "[" * 100_000}, expect="0|2",
            name="index.json 100,000 deep"),
        _hf("m", {"m/config.json": cfg, "m/model.safetensors": ("fifo",)}, expect="0|2", name="model.safetensors a FIFO"),
        _hf("m", {"m/config.json": cfg, "m/model.safetensors": (2**63).to_bytes(8, "little") + b"{}"}, expect="0|2",
            name="safetensors header length 2**63"),
        Case("plan hf_config ../ out of its folder", ["estimate", "sub/p.gpuplan"],
             {"sub/p.gpuplan": _plan(scenario__model__preset=None, scenario__model__hf_config="../m"),
              "m/config.json": cfg}, "0|2"),
    ]


# ------------------------------------------------------------------------------------------ scenario values

def scen_cases() -> list[Case]:
    e, lo = EXAMPLE, LORA
    return [
        s("num_gpus '８' (fullwidth)", e, ("hardware.num_gpus",), hardware__num_gpus="８"),
        s("num_gpus '٨' (Arabic-Indic)", e, ("hardware.num_gpus",), hardware__num_gpus="٨"),
        s("num_gpus '8 '", e, ("hardware.num_gpus",), expect="0|2", hardware__num_gpus="8 "),
        s("num_gpus '0x8'", e, ("hardware.num_gpus",), hardware__num_gpus="0x8"),
        s("num_gpus '1_6'", e, ("hardware.num_gpus",), expect="0|2", hardware__num_gpus="1_6"),
        s("num_gpus -0.0", e, ("hardware.num_gpus",), hardware__num_gpus=-0.0),
        s("num_gpus 8.0000000001", e, ("hardware.num_gpus",), hardware__num_gpus=8.0000000001),
        s("seq_len 2**31", e, ("training.seq_len",), training__seq_len=2**31),
        s("seq_len '4k'", e, ("training.seq_len",), training__seq_len="4k"),
        s("tokens '1e9' text", e, (), expect="0|2", data__tokens="1e9"),
        s("tokens '１００B' fullwidth", e, ("data.tokens",), expect="0|2", data__tokens="１００B"),
        s("tokens '100B' with RLO inside", e, ("data.tokens",), data__tokens=f"100{RLO}B"),
        s("tokens 1 MB of digits as text", e, ("data.tokens",), data__tokens="9" * 1_000_000),
        s("tokens '-0'", e, (), expect="0|2", data__tokens="-0"),
        s("gpu_candidates 100,000 entries", e, (), cmd="plan", expect="0|2",
          constraints__gpu_candidates=["h100-sxm-80gb"] * 100_000),
        s("gpu_candidates 1,000 unknown", e, ("constraints.gpu_candidates",), cmd="plan",
          constraints__gpu_candidates=[f"zz{i}" for i in range(1000)]),
        s("model.name 1 MB", e, (), expect="0|2", model__name="n" * 1_000_000),
        s("model.name RTL Arabic + LRM", e, (), expect="0", model__name="نموذج\u200e-7B"),
        s("model.name only controls", e, (), expect="0|2", model__name="\x01\x02\x7f\x85"),
        s("gpu 'H100' upper case", e, ("hardware.gpu",), expect="0|2", hardware__gpu="H100-SXM-80GB"),
        s("gpu with trailing NBSP", e, (), expect="0|2", hardware__gpu="h100-sxm-80gb\u00a0"),
        s("framework null", e, (), expect="0|2", training__framework=None),
        s("method 'LoRA' mixed case", lo, ("training.method",), expect="0|2", training__method="LoRA"),
        s("deadline_days NaN as text", e, ("constraints.deadline_days",), constraints__deadline_days="NaN"),
        s("deadline_days 'inf'", e, ("constraints.deadline_days",), constraints__deadline_days="inf"),
        s("budget -1e308", e, (), expect="0|2", constraints__budget=-1e308),
        s("budget 1e308", e, (), expect="0|2", constraints__budget=1e308),
        s("hf_config and preset both", e, (), expect="0|2", model__hf_config="m"),
        s("scenario 30,000 unknown keys", e, (), expect="0|2", **{f"x{i}": 1 for i in range(30_000)}),
        s("a section with 64 levels of nesting", e, ("s.json",), model__extra=json.loads("[" * 63 + "]" * 63)),
        Case("a scenario of one number", ["estimate", "s.json"], {"s.json": "42"}, "2", ("s.json",)),
        Case("a scenario of 'null'", ["plan", "s.json"], {"s.json": "null"}, "2", ("s.json",)),
        Case("a scenario with a CR-only layout", ["estimate", "s.json"],
             {"s.json": json.dumps(LORA, indent=1).replace("\n", "\r")}, "0"),
        Case("a scenario with a UTF-8 BOM twice", ["estimate", "s.json"],
             {"s.json": b"\xef\xbb\xbf\xef\xbb\xbf" + json.dumps(LORA).encode()}, "2", ("s.json",)),
        Case("a scenario in UTF-32", ["estimate", "s.json"], {"s.json": json.dumps(LORA).encode("utf-32")}, "2",
             ("s.json",)),
        Case("a scenario with C1 control in a key", ["estimate", "s.json"],
             {"s.json": json.dumps({**LORA, "mo\x85del": 1})}, "0|2"),
    ]


# ------------------------------------------------------------------------------------------ plan and project files

def plan_cases() -> list[Case]:
    pr = ["project", "p.gpuplan"]
    return [
        Case("project phase weeks NaN", pr, {"p.gpuplan": _project(_phase(0, weeks=float("nan")))}, "2", ("weeks",)),
        Case("project phase weeks -1", pr, {"p.gpuplan": _project(_phase(0, weeks=-1))}, "2", ("weeks",)),
        Case("project phase weeks 1e308", pr, {"p.gpuplan": _project(_phase(0, weeks=1e308))}, "2", ("weeks",)),
        Case("project phase weeks 0", pr, {"p.gpuplan": _project(_phase(0, weeks=0))}, "0|2"),
        Case("project hours_per_week 169", pr, {"p.gpuplan": _project(_phase(1, hours_per_week=169))}, "2",
             ("hours_per_week",)),
        Case("project hours_per_week '40'", pr, {"p.gpuplan": _project(_phase(1, hours_per_week="40"))}, "0|2"),
        Case("project cpu cores 10**9", pr, {"p.gpuplan": _project(lambda p: p["phases"][0]["cpu"].update(
            cores_per_node=10**9))}, "0|2"),
        Case("project cpu data_gb -5", pr, {"p.gpuplan": _project(lambda p: p["phases"][0]["cpu"].update(
            data_gb=-5))}, "2", ("data_gb",)),
        Case("project cpu a list", pr, {"p.gpuplan": _project(_phase(0, cpu=[1]))}, "2", ("cpu",)),
        Case("project inference concurrency 0", pr, {"p.gpuplan": _project(lambda p: p["phases"][3]["inference"].update(
            concurrency=0))}, "2", ("concurrency",)),
        Case("project inference concurrency 10**12", pr, {"p.gpuplan": _project(
            lambda p: p["phases"][3]["inference"].update(concurrency=10**12))}, "0|2"),
        Case("project inference tokens_per_s NaN literal", pr, {"p.gpuplan": _project(
            lambda p: p["phases"][3]["inference"].update(tokens_per_s_per_user=float("inf")))}, "2",
             ("tokens_per_s_per_user",)),
        Case("project phase name RTL + ESC", pr, {"p.gpuplan": _project(_phase(1, name=f"r{RLO}\x1b[31mx"))}, "0|2"),
        Case("project main_phase unknown", pr, {"p.gpuplan": _project(lambda p: p.update(main_phase="nope"))}, "0|2"),
        Case("project main_phase a number", pr, {"p.gpuplan": _project(lambda p: p.update(main_phase=3))}, "2",
             ("main_phase",)),
        Case("project 1,000 phases", pr, {"p.gpuplan": _project(lambda p: p["phases"].extend(
            [dict(p["phases"][0], name=f"c{i}") for i in range(1000)]))}, "0|2"),
        Case("project phase scenario a string", pr, {"p.gpuplan": _project(_phase(1, scenario="x"))}, "2",
             ("scenario",)),
        Case("project phase notes 1 MB", pr, {"p.gpuplan": _project(_phase(0, notes="n" * 1_000_000))}, "0|2"),
        Case("project phases null", pr, {"p.gpuplan": _project(lambda p: p.update(phases=None))}, "0|2"),
        Case("project: report with phase markup", ["report", "p.gpuplan", "-o", "r.pdf"],
             {"p.gpuplan": _project(_phase(1, name="<img src='/dev/zero'>"))}, "0|2", outputs=("r.pdf",)),
        Case("plan ui_state tokens_text '1e400'", ["estimate", "p.gpuplan"],
             {"p.gpuplan": _plan(ui_state__tokens_text="1e400")}, "0|2"),
        Case("plan ui_state epochs 'NaN'", ["estimate", "p.gpuplan"], {"p.gpuplan": _plan(ui_state__epochs="NaN")},
             "0|2"),
        Case("plan ui_state deadline_date 2026-99-99", ["estimate", "p.gpuplan"],
             {"p.gpuplan": _plan(ui_state__deadline_date="2026-99-99")}, "0|2"),
        Case("plan created year 0", ["estimate", "p.gpuplan"], {"p.gpuplan": _plan(created="0000-01-01T00:00:00")},
             "0|2"),
        Case("plan modified 9999-12-31T23:59:59-14:00", ["estimate", "p.gpuplan"],
             {"p.gpuplan": _plan(modified="9999-12-31T23:59:59-14:00")}, "0|2"),
        Case("plan title NUL", ["estimate", "p.gpuplan"], {"p.gpuplan": _plan(title="a\x00b")}, "0|2"),
        Case("plan a .gpuplan truncated at 1 byte", ["estimate", "p.gpuplan"], {"p.gpuplan": PLAN[:1]}, "2",
             ("p.gpuplan",)),
        Case("plan a .gpuplan that is a zip", ["estimate", "p.gpuplan"], {"p.gpuplan": _zip({"a": b"x"})}, "2",
             ("p.gpuplan",)),
        Case("plan schema_version 10**400", ["estimate", "p.gpuplan"],
             {"p.gpuplan": _plan(schema_version=10**400)}, "2", ("401 digits", "reads up to")),
        Case("plan 20 MB + 1 byte", ["estimate", "p.gpuplan"],
             {"p.gpuplan": PLAN[:-2] + b', "x": "' + b"a" * (20 * 1024 * 1024) + b'"}'}, "2", ("p.gpuplan",)),
    ]


# ------------------------------------------------------------------------------------------ quote sheets

def _zip(parts: dict, method=zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as z:
        for n, data in parts.items():
            z.writestr(n, data)
    return out.getvalue()


def _good_xlsx() -> bytes:
    return probe_lib.xlsx(lambda wb, ws: None)


def _xlsx_with(extra: dict, drop: tuple = ()) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(_good_xlsx()))
    parts = {i.filename: src.read(i) for i in src.infolist() if i.filename not in drop}
    parts.update(extra)
    return _zip(parts)


def _dup_entry_xlsx() -> bytes:
    src = zipfile.ZipFile(io.BytesIO(_good_xlsx()))
    out = io.BytesIO()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zipfile.ZipFile(out, "w") as z:
            for i in src.infolist():
                z.writestr(i.filename, src.read(i))
            z.writestr("xl/worksheets/sheet1.xml", b"<x/>")
    return out.getvalue()


def _sheet_rows(rows: str) -> str:
    return probe_lib.sheet_csv(extra_rows=rows)


def quote_cases() -> list[Case]:
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 4000
    big = b"<x>" + b"a" * (19 * 1024 * 1024) + b"</x>"
    cases = [
        q("csv NUL in a note", ("q.csv",), {"q.csv": _sheet_rows("question,x,yes,,,,,a\x00b,\n")}),
        q("csv semicolon-separated (European Excel)", (), {"q.csv": probe_lib.sheet_csv().replace(",", ";")}, "2"),
        q("csv UTF-16 (Excel Unicode text)", ("q.csv",), {"q.csv": probe_lib.sheet_csv().encode("utf-16")}),
        q("csv 2,001 lines", ("2000",), {"q.csv": _sheet_rows("# n\n" * 2000)}),
        q("csv one 2 MB + 1 line", ("q.csv",), {"q.csv": "#" + "a" * (2 * 1024 * 1024)}),
        q("csv an unclosed quote", ("q.csv",), {"q.csv": probe_lib.sheet_csv() + 'offer,x,"1\n'}),
        q("csv price '1e400'", (), {"q.csv": probe_lib.sheet_csv(offer_value="1e400")}),
        q("csv price '-0'", (), {"q.csv": probe_lib.sheet_csv(offer_value="-0")}),
        q("csv price '５.８８' fullwidth", (), {"q.csv": probe_lib.sheet_csv(offer_value="５.８８")}, "0|2"),
        q("csv price '5,88' (decimal comma)", (), {"q.csv": probe_lib.sheet_csv(offer_value='"5,88"')}, "0|2"),
        q("csv price '¥5.88'", (), {"q.csv": probe_lib.sheet_csv(offer_value="¥5.88")}, "0|2"),
        q("csv gpus_per_server 2**63", (), {"q.csv": _sheet_rows("offer,a800-sxm-80gb,5,card_hour,"
                                                                 f"{2**63},,no,,\n")}),
        q("csv min_term_days -1", (), {"q.csv": _sheet_rows("offer,a800-sxm-80gb,5,card_hour,8,-1,no,,\n")}),
        q("csv date 2026-02-30", (), {"q.csv": probe_lib.sheet_csv().replace("vendor,currency,CNY,,,,,,",
                                                                             "vendor,date,2026-02-30,,,,,,")}),
        q("csv RLO in the currency", (), {"q.csv": probe_lib.sheet_csv().replace("CNY", f"CN{RLO}Y")}),
        q("csv only the header", (), {"q.csv": probe_lib.sheet_csv().splitlines()[0] + "\n"}),
        q("csv 10,000 columns on a line", (), {"q.csv": _sheet_rows("question,x,yes" + ",z" * 10_000 + "\n")}, "0|2"),
        q("csv a formula everywhere", (), {"q.csv": _sheet_rows("question,=1+1,=1+1,=1+1,=1+1,=1+1,=1+1,=1+1,=1+1\n")},
          "0|2"),
        q("xlsx an OLE2 file (.xls or encrypted)", ("q.xlsx",), {"q.xlsx": ole}),
        q("xlsx an ODS renamed", ("q.xlsx",), {"q.xlsx": _zip({"mimetype": b"application/vnd.oasis.opendocument"
                                                                             b".spreadsheet", "content.xml": b"<x/>"})}),
        q("xlsx a zip with duplicate entry names", ("q.xlsx",), {"q.xlsx": _dup_entry_xlsx()}, "0|2"),
        q("xlsx entry names with ../", ("q.xlsx",), {"q.xlsx": _xlsx_with({"../../evil.xml": b"<x/>"})}, "0|2"),
        q("xlsx 201 entries", ("q.xlsx",), {"q.xlsx": _xlsx_with({f"x/{i}.xml": b"<x/>" for i in range(201)})}),
        q("xlsx a deflated 19 MB part (under the 20 MB unpacked bound)", (), {"q.xlsx": _xlsx_with({"x/big.xml": big})}, "0|2"),
        q("xlsx a zip inside a part", (), {"q.xlsx": _xlsx_with({"xl/embeddings/z.zip": _zip(
            {"a": b"0" * 10_000_000})})}, "0|2"),
        q("xlsx workbook.xml missing", ("q.xlsx",), {"q.xlsx": _xlsx_with({}, drop=("xl/workbook.xml",))}),
        q("xlsx sheet1.xml empty", ("q.xlsx",), {"q.xlsx": _xlsx_with({"xl/worksheets/sheet1.xml": b""})}),
        q("xlsx sheet1.xml not XML", ("q.xlsx",), {"q.xlsx": _xlsx_with({"xl/worksheets/sheet1.xml": b"\xff\xfe<"})}),
        q("xlsx sheet XML with a DTD in UTF-16", ("q.xlsx",), {"q.xlsx": _xlsx_with(
            {"xl/worksheets/sheet1.xml": '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE x [<!ENTITY a "b">]><x/>'
             .encode("utf-16")})}),
        q("xlsx an XInclude in the sheet", (), {"q.xlsx": _xlsx_with({"xl/worksheets/sheet1.xml": (
            b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            b'xmlns:xi="http://www.w3.org/2001/XInclude"><sheetData><xi:include href="/etc/passwd" parse="text"/>'
            b"</sheetData></worksheet>")})}, "0|2"),
        q("xlsx a cell at XFD1048576", (), {"q.xlsx": probe_lib.xlsx(lambda wb, ws: ws.cell(1048576, 16384, "x"))},
          "0|2"),
        q("xlsx a sheet named with RLO + ESC", (), {"q.xlsx": probe_lib.xlsx(
            lambda wb, ws: setattr(ws, "title", f"a{RLO}b"))}, "0|2"),
        q("xlsx a price that is a datetime", (), {"q.xlsx": probe_lib.xlsx(
            lambda wb, ws: ws.__setitem__("C4", __import__("datetime").datetime(2026, 1, 1)))}),
        q("xlsx a price of 1e308 * 10 as text", (), {"q.xlsx": probe_lib.xlsx(lambda wb, ws: ws.__setitem__("C4", "1e309"))}),
    ]
    return cases


# ------------------------------------------------------------------------------------------ kit results

def kit_cases() -> list[Case]:
    def kt(fn):
        return probe_lib.kit_text(fn)

    return [
        k("kit result a JSON string", ("r.json",), '"x"'),
        k("kit result with 65-deep nesting in an unknown key", ("r.json",), kt(lambda d: d.update(
            extra=json.loads("[" * 65 + "]" * 65)))),
        k("kit result gpu name 1 MB", (), kt(lambda d: d.update(gpu_name="g" * 1_000_000)), "0|2"),
        k("kit result gpu name RLO + ESC", (), kt(lambda d: d.update(gpu_name=f"H100{RLO}\x1b[2J")), "0|2"),
        k("kit result 20 MB", ("r.json",), kt(lambda d: d.update(pad="p" * (21 * 1024 * 1024)))),
        k("kit result UTF-16", ("r.json",), kt(lambda d: None).encode("utf-16")),
        k("kit result 100,000 unknown keys", (), kt(lambda d: d.update({f"k{i}": i for i in range(100_000)})), "0|2"),
        k("kit result duplicate key", (), kt(lambda d: None)[:-1] + ', "kit_version": 99}', "0|2"),
        k("kit result numbers as strings", (), json.dumps({key: str(v) if isinstance(v, (int, float)) else v
                                                           for key, v in json.loads(KIT.read_text()).items()}), "0|2"),
        k("kit result a list of results", (), json.dumps([json.loads(KIT.read_text())] * 2), "2"),
    ]


# ------------------------------------------------------------------------------------------ settings

def _set(name, body, expect="0", words=(), cmd=None) -> Case:
    return Case(name, cmd or ["report", EX, "-o", "r.pdf"], {}, expect, tuple(words), outputs=("r.pdf",),
                home={SETTINGS: body})


def settings_cases() -> list[Case]:
    est = ["estimate", EX]
    return [
        _set("settings author @Variant(...)", "[report]\nauthor=@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\x18)\n"),
        _set("settings author @ByteArray(...)", "[report]\nauthor=@ByteArray(\\x1b[2J)\n"),
        _set("settings author %(x)s interpolation", "[report]\nauthor=%(home)s %%\n"),
        _set("settings BOM + CRLF", "\ufeff[report]\r\nauthor=A\r\n"),
        _set("settings UTF-16", "[report]\nauthor=A\n".encode("utf-16")),
        _set("settings 1 MB + 1 byte", "[report]\nauthor=" + "a" * (1024 * 1024)),
        _set("settings a link to /dev/zero", ("symlink", "/dev/zero")),
        _set("settings a symlink loop", ("symlink", "gpuplanner-ui.ini")),
        _set("settings a FIFO", ("fifo",)),
        _set("settings language RLO", f"[General]\nlanguage=zh_CN{RLO}\n", cmd=est),
        _set("settings language 'zh_CN' quoted twice", '[General]\nlanguage=""zh_CN""\n', cmd=est),
        _set("settings section header unclosed", "[report\nauthor=x\n"),
    ]


# ------------------------------------------------------------------------------------------ CLI options

def arg_cases() -> list[Case]:
    return [
        Case("plan --top 1e2", ["plan", EX, "--top", "1e2"], {}, "2", ("--top",)),
        Case("plan --top '５'", ["plan", EX, "--top", "５"], {}, "0|2"),
        Case("plan --objective with RLO", ["plan", EX, "--objective", f"cheapest{RLO}"], {}, "2", ("--objective",)),
        Case("kit --nodes -1", ["kit", EX, "--nodes", "-1", "-o", "k.sh"], {}, "2", ("--nodes",)),
        Case("kit --nodes 2**70", ["kit", EX, "--nodes", str(2**70), "-o", "k.sh"], {}, "2", ("--nodes",)),
        Case("net --nics 0", ["net", "n.txt", "--network", "ib-ndr-400", "--nics", "0"], {"n.txt": IBSTAT}, "2",
             ("--nics",)),
        Case("net --network unknown with markup", ["net", "n.txt", "--network", "<b>x</b>"], {"n.txt": IBSTAT}, "2"),
        Case("health --gpu 10,000 characters", ["health", "h.txt", "--gpu", "g" * 10_000], {"h.txt": SMI_Q}, "2"),
        Case("topo --gpus -5", ["topo", "t.txt", "--gpus", "-5"], {"t.txt": TOPO}, "2", ("--gpus",)),
        Case("an option 100,000 characters", ["plan", EX, "--" + "x" * 100_000], {}, "2"),
        Case("a command with RLO", [f"plan{RLO}", EX], {}, "2"),
        Case("report --paper a3", ["report", EX, "-o", "r.pdf", "--paper", "a3"], {}, "2", ("--paper",)),
        Case("--author 10,000 characters", ["report", EX, "-o", "r.pdf", "--author", "a" * 10_000], {}, "0|2",
             outputs=("r.pdf",)),
        Case("quotes --template ods", ["quotes", "--template", "ods", "-o", "x.ods"], {}, "2", ("--template",)),
    ]


ALL = (out_cases, in_cases, cfg_cases, scen_cases, plan_cases, quote_cases, kit_cases, settings_cases, arg_cases)


# ------------------------------------------------------------------------------------------ direct checks

def direct_checks() -> list[probe_lib.Check]:
    """Autosave recovery, text pasted into every scenario field, files changing while read."""
    return probe_lib.guarded(_autosave_checks, _field_checks, _meta_checks, _changing_checks, _hardlink_check,
                             _round_trip_checks)


def _autosave_checks() -> list[probe_lib.Check]:
    from gpuplanner.io.autosave import AutosaveStore

    good = json.loads(PLAN.decode("utf-8"))
    rec = {"autosave_format": 1, "session": "other", "pid": 2**31 - 2, "source_path": None, "plan": good}
    dated = {"0001-01-01T00:00:00+14:00": "year 1, +14:00", "9999-12-31T23:59:59-14:00": "year 9999, -14:00",
             "0001-01-01T00:00:00": "year 1, no zone", "2026-12-07T00:00:00+23:59": "+23:59",
             "9999-12-31T23:59:59.999999": "the last microsecond, no zone"}
    out = []
    for when, what in dated.items():
        with tempfile.TemporaryDirectory(prefix="probe17-as-") as d:
            (Path(d) / "x-main.autosave").write_text(json.dumps({**rec, "saved_at": when}), encoding="utf-8")
            out.append(_recover(AutosaveStore, Path(d), f"autosave saved_at {what}", 1))
    with tempfile.TemporaryDirectory(prefix="probe17-as-") as d:
        root = Path(d)
        os.mkfifo(root / "fifo-main.autosave")
        os.symlink("loop-main.autosave", root / "loop-main.autosave")
        (root / "big-main.autosave").write_bytes(b'{"x": "' + b"a" * (21 * 1024 * 1024) + b'"}')
        (root / "deep-main.autosave").write_text("[" * 100_000, encoding="utf-8")
        (root / "nan-main.autosave").write_text(json.dumps({**rec, "saved_at": "x"}).replace('"pid": 2147483646',
                                                                                             '"pid": NaN'))
        out.append(_recover(AutosaveStore, root, "autosave FIFO, loop, 21 MB, 100,000-deep, NaN pid", 5))
    with tempfile.TemporaryDirectory(prefix="probe17-as-") as d:
        root = Path(d)
        text = json.dumps({**rec, "saved_at": "2026-12-07T00:00:00+00:00"})
        for i in range(200):
            (root / f"r{i}-main.autosave").write_text(text, encoding="utf-8")
        out.append(_recover(AutosaveStore, root, "autosave 200 records", 200, seconds=probe_lib.MAX_SECONDS))
    return out


def _recover(store_cls, root: Path, what: str, n: int, seconds: float = 5.0) -> probe_lib.Check:
    t0 = time.perf_counter()
    try:
        got = store_cls(root, session="mine").pending()
        lines = [str(r.describe()) for r in got]
    except Exception as err:  # noqa: BLE001
        return what, False, f"raised {type(err).__name__}: {err}"[:200]
    dt = time.perf_counter() - t0
    bad = [ln for ln in lines if not ln.isprintable() or len(ln) > 600]
    ok = len(got) == n and not bad and dt < seconds
    return what, ok, f"{len(got)} listed of {n}, {len(bad)} bad lines, {dt:.1f} s"


FIELD_TEXTS = {  # what a paste puts in a field: the model gets the text (line edits parse first: ui.fields)
    "RLO + ESC": f"8{RLO}\x1b[2J", "NUL": "8\x00", "1 MB": "9" * 1_000_000, "NaN": float("nan"),
    "inf": float("inf"), "-1e308": -1e308, "2**70": 2**70, "a list": [1, 2], "a dict": {"a": 1}, "markup": "<img src='/dev/zero'>",
    "lone surrogate": "\ud800", "True": True,
}


def _scenario_paths() -> list[str]:
    from gpuplanner.ui.model import default_scenario

    out, stack = [], [("", default_scenario().model_dump())]
    while stack:
        prefix, d = stack.pop()
        for key, v in d.items():
            path = f"{prefix}.{key}" if prefix else key
            if isinstance(v, dict) and v:
                stack.append((path, v))
            else:
                out.append(path)
    return sorted(out)


def _field_checks() -> list[probe_lib.Check]:
    """Each hostile value into every scenario path the window binds: ``set`` returns an error line or None, never
    raises; an error is one printable line; the value typed is what the field shows back (kept pending)."""
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui.model import ScenarioModel

    QApplication.instance() or QApplication([])
    paths = _scenario_paths()
    out = []
    for what, value in FIELD_TEXTS.items():
        raised, bad_line, lost = [], [], []
        t0 = time.perf_counter()
        for path in paths:
            m = ScenarioModel()
            try:
                err = m.set(path, value)
            except Exception as e:  # noqa: BLE001
                raised.append(f"{path}: {type(e).__name__}")
                continue
            if err is not None:
                text = str(err)
                if not text.isprintable() or len(text) > 400:
                    bad_line.append(path)
                try:
                    if m.value(path) is not value and m.value(path) != value:
                        lost.append(path)
                except Exception as e:  # noqa: BLE001
                    raised.append(f"{path} value(): {type(e).__name__}")
        dt = time.perf_counter() - t0
        ok = not raised and not bad_line and not lost and dt < probe_lib.MAX_SECONDS
        out.append((f"field paste {what} into {len(paths)} fields", ok,
                    f"raised {raised[:3]}, bad lines {bad_line[:3]}, lost {lost[:3]}, {dt:.1f} s"))
    return out


def _meta_checks() -> list[probe_lib.Check]:
    from PySide6.QtWidgets import QApplication

    from gpuplanner.ui.model import ScenarioModel

    QApplication.instance() or QApplication([])
    out = []
    for what, text in (("RLO + ESC", f"t{RLO}\x1b[2J"), ("1 MB", "t" * 1_000_000), ("NUL", "a\x00b"),
                       ("markup", "<img src='/dev/zero'>"), ("lone surrogate", "a\ud800")):
        m = ScenarioModel()
        try:
            m.set_meta(title=text, notes=text)
            ok, line = True, "kept"
        except Exception as err:  # noqa: BLE001
            ok, line = False, f"raised {type(err).__name__}: {err}"[:160]
        out.append((f"title/notes {what}", ok, line))
    return out


def _cli_in(folder: Path, argv: list[str], home: Path) -> tuple[bool, str]:
    old = os.getcwd(), os.environ.get("HOME")
    os.chdir(folder)
    os.environ["HOME"] = str(home)
    try:
        rc, out, err, dt = probe_lib._call_cli(argv, None)
    finally:
        os.chdir(old[0])
        if old[1] is not None:
            os.environ["HOME"] = old[1]
    problems = probe_lib.judge(Case("x", argv, expect="0|2"), rc, out, err, dt)
    return not problems, "; ".join(problems) + f" rc={rc}"


def _changing(what: str, argv: list[str], name: str, versions: list, runs: int = 6) -> probe_lib.Check:
    """Run ``argv`` ``runs`` times while a thread keeps replacing ``name`` in the folder by each of ``versions``
    (bytes: rewritten in place; ("symlink", target): swapped for a link; ("grow",): appended to without end)."""
    with tempfile.TemporaryDirectory(prefix="probe17-ch-") as d, tempfile.TemporaryDirectory(prefix="probe17-h-") as h:
        folder = Path(d)
        target = folder / name
        target.write_bytes(versions[0] if isinstance(versions[0], bytes) else b"{}")
        stop = threading.Event()

        def churn():
            i = 0
            while not stop.is_set():
                v = versions[i % len(versions)]
                i += 1
                try:
                    if isinstance(v, bytes):
                        with open(target, "r+b" if target.exists() and not target.is_symlink() else "wb") as fh:
                            fh.truncate(0)
                            fh.write(v[: len(v) // 2])
                            fh.flush()
                            fh.write(v[len(v) // 2:])
                    elif v[0] == "symlink":
                        tmp = folder / ".swap"
                        tmp.unlink(missing_ok=True)
                        os.symlink(v[1], tmp)
                        os.replace(tmp, target)
                    elif v[0] == "grow":
                        with open(target, "ab") as fh:
                            fh.write(b" " * (1 << 20))
                except OSError:
                    pass
                time.sleep(0.001)

        th = threading.Thread(target=churn, daemon=True)
        th.start()
        fails = []
        try:
            for _ in range(runs):
                ok, line = _cli_in(folder, argv, Path(h))
                if not ok:
                    fails.append(line)
        finally:
            stop.set()
            th.join(5)
        return what, not fails, f"{len(fails)} of {runs} runs failed" + (f": {fails[0][:160]}" if fails else "")


def _changing_checks() -> list[probe_lib.Check]:
    scen = json.dumps(LORA).encode()
    huge = b'{"x": "' + b"a" * (11 * 1024 * 1024) + b'"}'
    return [
        _changing("scenario rewritten while read (valid / 11 MB / broken)", ["estimate", "s.json"], "s.json",
                  [scen, huge, b"{", scen[:100]]),
        _changing("scenario grown without end while read", ["estimate", "s.json"], "s.json", [scen, ("grow",)]),
        _changing("plan swapped for a link to /dev/zero while read", ["estimate", "p.gpuplan"], "p.gpuplan",
                  [PLAN, ("symlink", "/dev/zero"), PLAN, ("symlink", "p.gpuplan")]),
        _changing("quote sheet rewritten while read", ["quotes", EX, "q.csv", "--json"], "q.csv",
                  [SHEET, SHEET[:50], b"\xff\xfe", SHEET + b"\0"]),
        _changing("xlsx rewritten while read", ["quotes", EX, "q.xlsx", "--json"], "q.xlsx",
                  [_good_xlsx(), _good_xlsx()[:300], b"PK\x03\x04"]),
        _changing("kit result rewritten while read", ["kit-import", EX, "r.json"], "r.json",
                  [KIT.read_bytes(), KIT.read_bytes()[:40], ("symlink", "r.json")]),
    ]


def _hardlink_check() -> list[probe_lib.Check]:
    """``--rfq`` onto a hard link of the plan (check_not_input compares files, not names)."""
    with tempfile.TemporaryDirectory(prefix="probe17-hl-") as d, tempfile.TemporaryDirectory(prefix="probe17-h-") as h:
        folder = Path(d)
        (folder / "p.gpuplan").write_bytes(PLAN)
        os.link(folder / "p.gpuplan", folder / "h.pdf")
        ok, line = _cli_in(folder, ["quotes", "p.gpuplan", str(QUOTES), "--rfq", "h.pdf"], Path(h))
        kept = (folder / "p.gpuplan").read_bytes() == PLAN
        return [("quotes --rfq onto a hard link of the plan", ok and kept, line + ("" if kept else "; the plan changed"))]


TYPED = {"RLO + ESC": "a\u202e\x1b[2Jb", "NUL": "a\x00b", "CR, CRLF": "l1\r\nl2\rl3", "markup": "<b>x</b>&amp;",
         "formula": "=1+1", "emoji ZWJ": "\U0001f469\u200d\U0001f4bb", "astral": "\U0001d518\U0001d52b",
         "spaces around": " x ", "BOM": "\ufeffx", "C1 NEL": "a\x85b", "at the bound": None}
TYPED_PATHS = (("title",), ("notes",), ("project", "phases", 0, "name"), ("project", "phases", 0, "notes"))
TYPED_BOUND = {"title": 1000, "notes": 4000, "name": 120}  # the longest each field takes (planfile, core.project)


def _round_trip_checks() -> list[probe_lib.Check]:
    """What the user typed in the title, notes, a phase's name and notes: saved (``planfile.save``) and opened
    again, it comes back as typed (nothing lost or changed), whatever the characters."""
    from gpuplanner.io import planfile

    base = json.loads(PLAN_PROJECT.read_text(encoding="utf-8"))
    out = []
    for what, text in TYPED.items():
        changed = []
        for path in TYPED_PATHS:
            value = text if text is not None else "x" * TYPED_BOUND.get(path[-1], 4000)
            d = json.loads(json.dumps(base))
            node = d
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
            try:
                doc, _ = planfile.from_data(d, "p.gpuplan")
                with tempfile.TemporaryDirectory(prefix="probe17-rt-") as tmp:
                    planfile.save(doc, Path(tmp) / "p.gpuplan")
                    back = planfile.to_data(planfile.load(Path(tmp) / "p.gpuplan")[0])
            except Exception as err:  # noqa: BLE001
                changed.append(f"{'.'.join(map(str, path))}: {type(err).__name__}")
                continue
            for key in path:
                back = back[key]
            if back != value:
                changed.append(f"{'.'.join(map(str, path))}: {back[:20]!r}")
        out.append((f"typed, saved, opened: {what}", not changed, f"changed {changed[:3]}"))
    return out


def main(argv: list[str] | None = None) -> int:
    return probe_lib.main(argv, __doc__, ALL, direct_checks,
                          "direct autosave field paste title changing hard link typed saved opened")


if __name__ == "__main__":
    sys.exit(main())
