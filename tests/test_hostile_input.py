"""Hostile and broken input, on every input path, through the CLI as a user runs it.

Property, for every generated case: exit code 0 or 2 (never a traceback), an exit 2 prints exactly one line
``gpuplanner: error: …`` of at most 400 characters without control characters, and no case takes more than
5 s. Paths: scenario JSON, plan file, config.json, model folder (safetensors headers, index), ``topo`` text,
kit result, and the report's content.

Cases are generated from a seed (reproducible): the default run checks a quick subset of each path
(``QUICK`` cases); ``pytest -m slow tests/test_hostile_input.py`` runs ``FULL`` (10,000) per path.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import struct
import time
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
QUICK = 150
FULL = 10_000
MAX_SECONDS = 5.0
#: ``project`` runs one search per phase plus the serving and build sides: an ordinary case took 4.4-8.5 s on the
#: loaded 2-core machine (rounds 15-16), so its bound against a hostile file that never ends is wider; still a bound
PROJECT_MAX_SECONDS = 20.0

# values a stranger's file may hold where a number, a name or an object is expected
HOSTILE = [0, -1, 1, 2, 3, 48, 2**31, 2**63, 10**40, 10**400, 1e300, -0.5, 0.5, 1e-300, True, False, None, "x", "",
           "4096", "1.5T", [], [1], {}, {"a": 1}, "@PY@", "$(touch x)", "\x1b[2J\x1b]0;pwned\x07", "a" * 5000,
           "GPU<img src='file:///etc/passwd'>", 4294967296, 100_000_000, [[[[[]]]]], "\u202eevil"]


def _run(argv: list[str]) -> tuple[int, float, str]:
    out, err = io.StringIO(), io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = run_cli(argv)
        except SystemExit as e:  # argparse
            rc = e.code
    return rc, time.perf_counter() - t0, err.getvalue()


def _check(argv: list[str], what: str) -> None:
    rc, dt, err = _run(argv)
    assert rc in (0, 2), (what, rc, err[-500:])
    assert dt < (PROJECT_MAX_SECONDS if argv[:1] == ["project"] else MAX_SECONDS), (what, dt)
    if rc == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("gpuplanner: error: "), (what, err[:500])
        assert len(lines[0]) <= 400 and lines[0].isprintable(), (what, lines[0][:200])


def _mutate(rng: random.Random, data, depth: int = 0):
    """One random change somewhere in ``data`` (a replaced value, a removed key or list item)."""
    if isinstance(data, dict) and data and depth < 6:
        key = rng.choice(list(data))
        if rng.random() < 0.55 and isinstance(data[key], (dict, list)):
            _mutate(rng, data[key], depth + 1)
        elif rng.random() < 0.15:
            data.pop(key)
        else:
            data[key] = copy.deepcopy(rng.choice(HOSTILE))
    elif isinstance(data, list) and data and depth < 6:
        i = rng.randrange(len(data))
        if rng.random() < 0.5 and isinstance(data[i], (dict, list)):
            _mutate(rng, data[i], depth + 1)
        elif rng.random() < 0.2:
            data.pop(i)
        else:
            data[i] = copy.deepcopy(rng.choice(HOSTILE))
    return data


def _raw_attack(rng: random.Random) -> str:
    return rng.choice([
        "[" * 100_000, '{"model": ' * 5000, "1" + "0" * 5000, '{"data": {"tokens": ' + "9" * 5000 + "}}",
        '{"assumptions": {"memory_headroom_gib": Infinity}}', '{"constraints": {"budget": NaN}}',
        "\ufeff{}", "", "\x00\x01", "null", "[]", '"just text"', '{"model": {"hidden_size": 1e999}}',
    ])


# --------------------------------------------------------------------------------------------- paths

SCENARIOS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "examples").glob("*.json"))]
PLANS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "examples").glob("*.gpuplan"))]
CONFIGS = [
    {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
     "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256, "architectures": ["LlamaForCausalLM"]},
    {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257},
    {"model_type": "mpt", "d_model": 2048, "n_layers": 24, "n_heads": 16, "vocab_size": 50432,
     "attn_config": {"kv_n_heads": 16}},
    {"model_type": "mixtral", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
     "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 32000, "num_local_experts": 8,
     "num_experts_per_tok": 2},
    {"model_type": "deepseek_v3", "hidden_size": 7168, "num_hidden_layers": 61, "num_attention_heads": 128,
     "vocab_size": 129280, "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_rope_head_dim": 64,
     "qk_nope_head_dim": 128, "v_head_dim": 128, "n_routed_experts": 256, "num_experts_per_tok": 8,
     "moe_intermediate_size": 2048, "intermediate_size": 18432, "first_k_dense_replace": 3},
    {"model_type": "chatglm", "hidden_size": 4096, "num_layers": 28, "num_attention_heads": 32,
     "ffn_hidden_size": 13696, "padded_vocab_size": 65024, "multi_query_attention": True, "multi_query_group_num": 2},
    {"model_type": "qwen2_moe", "hidden_size": 2048, "num_hidden_layers": 24, "num_attention_heads": 16,
     "vocab_size": 151936, "num_experts": 60, "num_experts_per_tok": 4, "moe_intermediate_size": 1408,
     "shared_expert_intermediate_size": 5632, "intermediate_size": 5632, "mlp_only_layers": []},
]
TOPOS = [p.read_text(encoding="utf-8", errors="replace") for p in sorted((ROOT / "tests" / "data" / "topo").glob("*.txt"))]
KIT = json.loads((ROOT / "tests" / "data" / "kit" / "result-cpu-sample.json").read_text(encoding="utf-8"))
SCENARIO_FOR_MODEL = {"model": {"hf_config": "m"}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8},
                      "parallel": {"zero": 3}, "training": {"framework": "fsdp"}}


def case_scenario(rng, tmp: Path) -> list[str]:
    f = tmp / "s.json"
    if rng.random() < 0.05:
        f.write_text(_raw_attack(rng), encoding="utf-8")
    else:
        d = copy.deepcopy(rng.choice(SCENARIOS))
        for _ in range(rng.randint(1, 3)):
            _mutate(rng, d)
        f.write_text(json.dumps(d), encoding="utf-8")
    return ["estimate", str(f), "--json"]


def case_plan(rng, tmp: Path) -> list[str]:
    f = tmp / "p.gpuplan"
    d = copy.deepcopy(rng.choice(PLANS))
    for _ in range(rng.randint(1, 3)):
        _mutate(rng, d)
    f.write_text(json.dumps(d), encoding="utf-8")
    return ["estimate", str(f)]


def case_config(rng, tmp: Path) -> list[str]:
    folder = tmp / "cfg"
    folder.mkdir(exist_ok=True)
    cfg = copy.deepcopy(rng.choice(CONFIGS))
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(list(cfg) + ["architectures", "_name_or_path", "mlp_only_layers", "attn_config", "head_dim",
                                      "moe_intermediate_size", "text_config", "torch_dtype", "expansion_ratio"])
        if rng.random() < 0.2:
            cfg.pop(key, None)
        else:
            cfg[key] = copy.deepcopy(rng.choice(HOSTILE))
    (folder / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    (tmp / "s.json").write_text(json.dumps({**SCENARIO_FOR_MODEL, "model": {"hf_config": "cfg/config.json"}}),
                                encoding="utf-8")
    return ["estimate", str(tmp / "s.json")]


def _safetensors(rng) -> bytes:
    header: object = {"model.embed_tokens.weight": {"dtype": "BF16", "shape": [128256, 4096], "data_offsets": [0, 0]},
                      "__metadata__": {"format": "pt"}}
    kind = rng.randrange(8)
    if kind == 0:
        header = _mutate(rng, header)
    elif kind == 1:
        raw = json.dumps(header).encode()
        return struct.pack("<Q", rng.choice([0, 2**63, len(raw) + 100, 10**12])) + raw
    elif kind == 2:
        return b"\x01\x02"
    elif kind == 3:
        raw = b"[" * 50_000
        return struct.pack("<Q", len(raw)) + raw
    elif kind == 4:
        raw = b'{"w": {"dtype": "BF16", "shape": [Infinity], "data_offsets": [0, 0]}}'
        return struct.pack("<Q", len(raw)) + raw
    elif kind == 5:
        header = {"w": {"dtype": rng.choice(HOSTILE), "shape": [rng.choice(HOSTILE), 3], "data_offsets": [0, 0]}}
    raw = json.dumps(header).encode()
    return struct.pack("<Q", len(raw)) + raw


def case_model_folder(rng, tmp: Path) -> list[str]:
    folder = tmp / "m"
    folder.mkdir(exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    (folder / "config.json").write_text(json.dumps(CONFIGS[0]), encoding="utf-8")
    if rng.random() < 0.7:
        (folder / "model-00001-of-00002.safetensors").write_bytes(_safetensors(rng))
    else:
        idx = {"metadata": {"total_size": rng.choice(HOSTILE)}, "weight_map": {}}
        (folder / "model.safetensors.index.json").write_text(json.dumps(idx), encoding="utf-8")
    (tmp / "s.json").write_text(json.dumps(SCENARIO_FOR_MODEL), encoding="utf-8")
    return ["estimate", str(tmp / "s.json")]


def case_topo(rng, tmp: Path) -> list[str]:
    lines = rng.choice(TOPOS).splitlines()
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        i = rng.randrange(len(lines)) if lines else 0
        if op == 0 and lines:
            lines.pop(i)
        elif op == 1 and lines:
            toks = lines[i].split()
            if toks:
                toks[rng.randrange(len(toks))] = str(rng.choice(HOSTILE))[:200]
                lines[i] = "  ".join(toks)
        elif op == 2:
            lines.insert(i, str(rng.choice(HOSTILE))[:5000])
        elif op == 3:
            lines.insert(i, rng.choice(["@" * 40_000, "user@host:~$ " + "x" * 40_000, "\x1b]0;t\x07NIC0: \x1b[2Jmlx"]))
        elif op == 4 and lines:
            lines[i] = lines[i].replace(" ", "\t")
        else:
            lines = lines[: rng.randrange(len(lines) + 1)]
    f = tmp / "topo.txt"
    f.write_text("\n".join(lines), encoding="utf-8")
    return ["topo", str(f)]


def case_kit(rng, tmp: Path) -> list[str]:
    d = copy.deepcopy(KIT)
    for _ in range(rng.randint(1, 4)):
        _mutate(rng, d)
    f = tmp / "r.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    return ["kit-import", str(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"), str(f)]


def _strings(data, path=()):
    """Every (container, key) of a string in ``data`` (a JSON value)."""
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, str):
                yield data, k
            else:
                yield from _strings(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            if isinstance(v, str):
                yield data, i
            else:
                yield from _strings(v, path + (i,))


_LONE = "@LONE-SURROGATE@"


def _poison_string(rng, data) -> str:
    """``data`` as JSON with one string field holding a NUL byte, a bidi override, or (as an escape, which
    json.dumps never writes) a lone surrogate (issue #32: "NUL in every string field, lone surrogates in every
    JSON input")."""
    spots = list(_strings(data))
    if spots:
        box, key = rng.choice(spots)
        box[key] = rng.choice([box[key] + "\x00", "\x00", "a\x00b", box[key][:3] + _LONE, _LONE,
                               "\u202e" + box[key], box[key] + "\u2066\u200f"])
    return json.dumps(data).replace(_LONE, rng.choice(["\\ud800", "\\udfff", "\\uDC00x", "\\ud83d"]))


def case_nul_and_surrogates(rng, tmp: Path) -> list[str]:
    kind = rng.randrange(4)
    if kind == 0:
        f = tmp / "s.json"
        f.write_text(_poison_string(rng, copy.deepcopy(rng.choice(SCENARIOS))), encoding="utf-8")
        return ["estimate", str(f), "--json"]
    if kind == 1:
        f = tmp / "p.gpuplan"
        f.write_text(_poison_string(rng, copy.deepcopy(rng.choice(PLANS))), encoding="utf-8")
        return [rng.choice(["estimate", "project"]), str(f)]
    if kind == 2:
        f = tmp / "r.json"
        f.write_text(_poison_string(rng, copy.deepcopy(KIT)), encoding="utf-8")
        return ["kit-import", str(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"), str(f)]
    folder = tmp / "cfg"
    folder.mkdir(exist_ok=True)
    (folder / "config.json").write_text(_poison_string(rng, copy.deepcopy(rng.choice(CONFIGS))), encoding="utf-8")
    (tmp / "s.json").write_text(json.dumps({**SCENARIO_FOR_MODEL, "model": {"hf_config": "cfg/config.json"}}),
                                encoding="utf-8")
    return ["estimate", str(tmp / "s.json")]


HEALTH = [p.read_text(encoding="utf-8", errors="replace")
          for p in sorted((ROOT / "tests" / "data" / "health").glob("*.txt"))]
NET = [p.read_text(encoding="utf-8", errors="replace") for p in sorted((ROOT / "tests" / "data" / "net").glob("*.txt"))]
_WORST = ["NVRM: GPU 0000:b3:00.0 " * 2000, "\n" * 20_000, " " * 20_000 + "x", "1" * 20_000, "| " * 5000,
          "NVRM: Xid (0000:b3:00.0): 1" * 500, "Key" + " " * 20_000 + "x", "\ufeff\x00\x1b[2J", "\u202eevil"]


def _mutate_lines(rng, text: str) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines)) if lines else 0
        op = rng.randrange(5)
        if op == 0 and lines:
            lines.pop(i)
        elif op == 1 and lines:
            toks = lines[i].split()
            if toks:
                toks[rng.randrange(len(toks))] = str(rng.choice(HOSTILE))[:200]
                lines[i] = "  ".join(toks)
        elif op == 2:
            lines.insert(i, rng.choice(_WORST))
        elif op == 3:
            lines.insert(i, str(rng.choice(HOSTILE))[:2000])
        else:
            lines = lines[: rng.randrange(len(lines) + 1)]
    return "\n".join(lines)


def case_health(rng, tmp: Path) -> list[str]:
    f = tmp / "h.txt"
    f.write_text(_mutate_lines(rng, rng.choice(HEALTH)), encoding="utf-8", errors="surrogatepass")
    extra = rng.choice([[], [], ["--json"], ["--gpu", rng.choice(["h100-sxm-80gb", "nope", "", "\u202e"])],
                        ["--dmesg", str(f)]])
    return ["health", str(f), *extra]


def case_net(rng, tmp: Path) -> list[str]:
    f = tmp / "n.txt"
    f.write_text(_mutate_lines(rng, rng.choice(NET)), encoding="utf-8", errors="surrogatepass")
    extra = rng.choice([[], ["--json"], ["--network", rng.choice(["ib-ndr-400", "nope", "roce-400"])],
                        ["--network", "ib-ndr-400", "--nics", rng.choice(["8", "0", "65", "1" * 30])]])
    return ["net", str(f), *extra]


def case_project(rng, tmp: Path) -> list[str]:
    f = tmp / "s.json"
    d = copy.deepcopy(rng.choice(SCENARIOS))
    for _ in range(rng.randint(0, 2)):
        _mutate(rng, d)
    if rng.random() < 0.3:  # in-range values that make a job absurd (issue #32, holes 5 and 6)
        section, key, value = rng.choice([("assumptions", "mfu", 1e-9), ("assumptions", "mfu", 0.0005),
                                          ("data", "tokens", "1000000T"), ("constraints", "hours_per_week", 0.2),
                                          ("constraints", "hours_per_week", 0.01)])
        if not isinstance(d.get(section), dict):
            d[section] = {}
        d[section][key] = value
    f.write_text(json.dumps(d), encoding="utf-8")
    return ["project", str(f), *rng.choice([[], ["--json"]])]


def case_special_files(rng, tmp: Path) -> list[str]:
    """Every door given a device, a FIFO, a folder, a NUL or an overlong name as its file argument."""
    import os

    fifo = tmp / "fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    bad = rng.choice(["/dev/zero", "/dev/null", str(fifo), str(tmp), "a\x00b", "x" * 5000, "a/" * 3000, ""])
    door = rng.choice([["estimate", bad], ["plan", bad], ["project", bad], ["topo", bad], ["net", bad],
                       ["health", bad], ["kit-import", str(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"), bad],
                       ["health", str(ROOT / "tests" / "data" / "health" / "dmesg-xid.txt"), "--dmesg", bad],
                       ["net", str(ROOT / "tests" / "data" / "net" / "roce-100-ibstat.txt"), "--topo", bad]])
    return door


QUOTE_CSVS = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples" / "quotes").glob("*.csv"))]
QUOTE_PLANS = [ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json", ROOT / "examples" / "7b-lora-1x4090.gpuplan",
               ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"]
_CELLS = ["=1+1", "+cmd|' /C calc'!A0", "@SUM(A1)", "-2", "'=x", "NaN", "inf", "-Infinity", "1e400", "9" * 400, "0",
          "1,000.5", "5，88", "\x00", "a\x00b", "\u202eevil", "\x1b[2J", "是", "未知", "card_hour", "month",
          "server_month", "yes", "no", "2026-13-45", "<script>", "_x0000_", "a" * 501, "a" * 500, "#", "", " ",
          "vendor", "offer", "question", "provider", "a800-sxm-80gb", "h800-sxm-80gb", "nope-gpu", "real_stock"]
_XML = [b"&lt;", b"&amp;#0;", b"_x0000_", b"_xD800_", b"]]>", b"<![CDATA[x]]>", b"<a>" * 500 + b"</a>" * 500,
        b'<!DOCTYPE x [<!ENTITY e "e">]>', b"&e;", b"\xff\xfe", b"<t>", b"</c>"]


def _quote_csv(rng) -> str:
    import csv as _csv

    rows = list(_csv.reader(io.StringIO(rng.choice(QUOTE_CSVS))))
    for _ in range(rng.randint(0, 3)):
        i, op = rng.randrange(len(rows) or 1), rng.randrange(6)
        if op <= 1 and rows and rows[i]:
            rows[i][rng.randrange(len(rows[i]))] = str(rng.choice(_CELLS + [str(v)[:600] for v in HOSTILE]))
        elif op == 2 and rows:
            rows.pop(i)
        elif op == 3:
            rows.insert(i, [rng.choice(["vendor", "offer", "question", "#", "供应商"])] + [rng.choice(_CELLS)
                                                                                   for _ in range(rng.randint(0, 14))])
        elif op == 4 and rows:
            rows.insert(i, list(rows[i]))  # a line given twice
        else:
            rows = rows[: rng.randrange(len(rows) + 1)]
    out = io.StringIO()
    _csv.writer(out).writerows(rows)
    text = out.getvalue()
    if rng.random() < 0.1:
        text = text[: rng.randrange(len(text) + 1)] + rng.choice(['"', "\r", "\x00", "\ufeff", ",,,\n" * 3000])
    return text


def case_quotes(rng, tmp: Path) -> list[str]:
    """Vendor quote sheets (round 2 of issue #32): mutated CSV lines, the same as XLSX, XML-level attacks inside
    the workbook, and the ``quotes`` flags."""
    text = _quote_csv(rng)
    kind = rng.randrange(4)
    if kind == 0:
        f = tmp / "q.csv"
        f.write_bytes(text.encode("utf-8", "surrogatepass"))
    else:
        import csv as _csv

        import openpyxl

        wb = openpyxl.Workbook()
        for row in _csv.reader(io.StringIO(text.replace("\x00", "").replace("\r", ""))):
            try:
                wb.active.append(row)
            except Exception:  # noqa: BLE001 - a character openpyxl refuses to write: leave the line out
                pass
        buf = io.BytesIO()
        wb.save(buf)
        raw = buf.getvalue()
        if kind == 3:  # XML-level: a snippet dropped into the sheet, or bytes of the zip flipped
            import zipfile

            out = io.BytesIO()
            with zipfile.ZipFile(io.BytesIO(raw)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
                for info in zin.infolist():
                    data = zin.read(info.filename)
                    if info.filename.endswith(".xml") and rng.random() < 0.5 and data:
                        at = rng.randrange(len(data))
                        data = data[:at] + rng.choice(_XML) + data[at:]
                    z.writestr(info.filename, data)
            raw = out.getvalue()
            if rng.random() < 0.2:
                at = rng.randrange(len(raw))
                raw = raw[:at] + bytes([rng.randrange(256)]) + raw[at + 1:]
        f = tmp / "q.xlsx"
        f.write_bytes(raw)
    extra = rng.choice([[], ["--json"], ["--json"], ["--rfq", str(tmp / "r.pdf")] if rng.random() < 0.05 else []])
    return ["quotes", str(rng.choice(QUOTE_PLANS)), str(f), *extra]


PATHS = {"scenario": case_scenario, "plan": case_plan, "config": case_config, "model_folder": case_model_folder,
         "topo": case_topo, "kit_result": case_kit, "nul_and_surrogates": case_nul_and_surrogates,
         "health": case_health, "net": case_net, "project": case_project, "special_files": case_special_files,
         "quotes": case_quotes}
#: the quick (default) run of the doors added for issue #32 is smaller: the full 10,000 run under -m slow
QUICK_OF = {"nul_and_surrogates": 40, "health": 40, "net": 40, "project": 20, "special_files": 30, "quotes": 30}


def _fuzz(path: str, n: int, tmp: Path, seed: int) -> None:
    rng = random.Random(f"{path}-{seed}")
    gen = PATHS[path]
    for i in range(n):
        _check(gen(rng, tmp), f"{path} case {i}")


@pytest.mark.parametrize("path", sorted(PATHS))
def test_quick_fuzz_every_input_path(path, tmp_path):
    _fuzz(path, QUICK_OF.get(path, QUICK), tmp_path, seed=1)


@pytest.mark.slow
@pytest.mark.timeout(3600)  # 10,000 cases: 3-10 min a door on a loaded 2-core machine (the default 300 s killed it)
@pytest.mark.parametrize("path", sorted(PATHS))
def test_full_fuzz_every_input_path(path, tmp_path):
    _fuzz(path, FULL, tmp_path, seed=2)


def _report_fuzz(tmp_path, n: int, seed: str) -> None:
    """The report gathers from any scenario (search, Evaluations, requirements, checklist) without a traceback
    and within the time limit; the PDF layout of hostile text is checked in tests/test_report_notes.py."""
    from gpuplanner.core.errors import PlannerError
    from gpuplanner.app.answer import report_data as load_report_data

    rng = random.Random(seed)
    for i in range(n):
        args = case_scenario(rng, tmp_path)
        t0 = time.perf_counter()
        try:
            load_report_data(Path(args[1]))
        except PlannerError:
            pass
        assert time.perf_counter() - t0 < MAX_SECONDS, f"report case {i}"


def test_report_content_survives_hostile_scenarios(tmp_path):
    _report_fuzz(tmp_path, 60, "report")


@pytest.mark.slow
def test_report_content_full_fuzz(tmp_path):
    # the slowest of the 10,000 cases (#8798: Llama-3-70B, the framework searched, max_gpus 4096, 6.4 M candidates)
    # takes 2.6-3.8 s on the shared 2-core VM at load ~2 since the search reuses a chunk's memory across GPU
    # types (bench/results/perf-2026-12-01.md); every other case < 0.5 s
    _report_fuzz(tmp_path, FULL, "report-full")


# ------------------------------------------------------------------------------ the reproducers

def _scenario_file(tmp: Path, **sections) -> Path:
    d = {"hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}, "model": {"preset": "llama-3-8b"}}
    for k, v in sections.items():
        d.setdefault(k, {}).update(v)
    f = tmp / "s.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    return f


@pytest.mark.parametrize("cfg_change, message", [
    ({"num_attention_heads": 0}, "num_attention_heads"),
    ({"num_key_value_heads": 0}, "num_key_value_heads"),
    ({"architectures": [1]}, None),
    ({"architectures": 5}, None),
    ({"_name_or_path": {"a": 1}}, None),
    ({"num_attention_heads": 48}, "not divisible"),
    ({"vocab_size": 10**300}, "vocab_size"),
    ({"mlp_only_layers": 5, "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 64}, "mlp_only_layers"),
    # transformers' Qwen2-MoE/Qwen3-MoE place an MoE block where (layer + 1) % decoder_sparse_step == 0: 0 divides by
    # zero there (the model cannot load); it was read as 1, every layer MoE (issue 35 round 10)
    ({"decoder_sparse_step": 0, "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 64,
      "model_type": "qwen3_moe", "architectures": ["Qwen3MoeForCausalLM"]}, "decoder_sparse_step"),
    # configs that loaded without complaint but describe no model (issue 35 round 10, probe10's "left open"):
    # Mixtral builds its sparse MoE block in every layer (0 experts was planned dense); Qwen3-MoE's experts are
    # moe_intermediate_size wide (0 fell back to intermediate_size); head_dim 0 builds zero-width q/k/v/o in
    # LlamaAttention while RoPE uses hidden/heads (0 was read as hidden/heads)
    ({"num_local_experts": 0, "num_experts_per_tok": 2, "model_type": "mixtral",
      "architectures": ["MixtralForCausalLM"]}, "'num_local_experts' must be a whole number ≥ 1, got 0"),
    ({"num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 0, "model_type": "qwen3_moe",
      "architectures": ["Qwen3MoeForCausalLM"]}, "'moe_intermediate_size' must be a whole number ≥ 1, got 0"),
    ({"head_dim": 0}, "'head_dim' must be a whole number ≥ 1, got 0"),
])
def test_config_reproducers_exit_2_or_estimate(tmp_path, capsys, cfg_change, message):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({**CONFIGS[0], **cfg_change}), encoding="utf-8")
    f = _scenario_file(tmp_path, model={"preset": None, "hf_config": "m"})
    rc = run_cli(["estimate", str(f)])
    err = capsys.readouterr().err
    if message is None:
        assert rc == 0, err
    else:
        assert rc == 2 and message in err and len(err.strip().splitlines()) == 1, err


def test_nan_and_infinity_in_json_are_refused(tmp_path, capsys):
    for text in ('{"model": {"preset": "llama-3-8b"}, "assumptions": {"memory_headroom_gib": Infinity}}',
                 '{"model": {"preset": "llama-3-8b"}, "constraints": {"budget": NaN}}',
                 '{"model": {"preset": "llama-3-8b"}, "constraints": {"deadline_days": 1e999}}'):
        f = tmp_path / "s.json"
        f.write_text(text, encoding="utf-8")
        assert run_cli(["report", str(f), "-o", str(tmp_path / "r.pdf")]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "not valid JSON" in err


def test_huge_numbers_are_bounded_not_overflowed(tmp_path, capsys):
    for model in ({"preset": None, "hidden_size": 10**400, "num_hidden_layers": 2, "num_attention_heads": 2,
                   "vocab_size": 10, "intermediate_size": 8},
                  {"preset": None, "hidden_size": 64, "num_hidden_layers": 4294967296, "num_attention_heads": 2,
                   "vocab_size": 10, "intermediate_size": 8}):
        f = _scenario_file(tmp_path, model=model)
        t0 = time.perf_counter()
        assert run_cli(["estimate", str(f)]) == 2
        assert time.perf_counter() - t0 < 1.0
        err = capsys.readouterr().err
        assert "less than or equal" in err and len(err.strip().splitlines()) == 1
    f = _scenario_file(tmp_path, data={"tokens": 10**400})
    assert run_cli(["estimate", str(f)]) == 2
    assert "too large" in capsys.readouterr().err


def test_deep_nesting_and_long_digits_exit_2(tmp_path, capsys):
    for text in ("[" * 100_000, "1" + "0" * 5000):
        f = tmp_path / "s.json"
        f.write_text(text, encoding="utf-8")
        assert run_cli(["estimate", str(f)]) == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_fifo_and_device_are_refused_not_read(tmp_path, capsys):
    import os

    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)
    f = _scenario_file(tmp_path, model={"preset": None, "hf_config": "config.json"})
    t0 = time.perf_counter()
    assert run_cli(["estimate", str(f)]) == 2
    assert time.perf_counter() - t0 < 2
    assert "regular file" in capsys.readouterr().err
    f2 = _scenario_file(tmp_path, model={"preset": None, "hf_config": "/dev/zero"})
    assert run_cli(["estimate", str(f2)]) == 2
    assert "regular file" in capsys.readouterr().err


def test_model_folder_symlink_escape_is_refused(tmp_path, capsys):
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(CONFIGS[0]), encoding="utf-8")
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "config.json").symlink_to(outside)
    f = _scenario_file(tmp_path, model={"preset": None, "hf_config": "m"})
    assert run_cli(["estimate", str(f)]) == 2
    assert "outside the folder" in capsys.readouterr().err


def test_plan_file_hf_config_outside_its_folder_is_refused(tmp_path, capsys):
    """A plan from someone else may not point at files outside its folder (absolute or ../)."""
    from gpuplanner.io import planfile

    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "config.json").write_text(json.dumps(CONFIGS[0]), encoding="utf-8")
    plans = tmp_path / "plans"
    plans.mkdir()
    for ref in (str(secret / "config.json"), "../secret/config.json"):
        (secret / "config.json").write_text(json.dumps(CONFIGS[0]), encoding="utf-8")
        doc = planfile.new_document(_scenario_obj(ref))
        planfile.save(doc, plans / "p.gpuplan", base_dir=plans)  # embeds the model read now
        # the file outside is never read again: the plan's embedded model is used
        (secret / "config.json").write_text("not json", encoding="utf-8")
        assert run_cli(["estimate", str(plans / "p.gpuplan"), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["params"]["total"] == 8_030_261_248
        # without an embedded model it is refused with one line
        data = json.loads((plans / "p.gpuplan").read_text(encoding="utf-8"))
        data.pop("embedded_model")
        (plans / "p.gpuplan").write_text(json.dumps(data), encoding="utf-8")
        assert run_cli(["estimate", str(plans / "p.gpuplan")]) == 2
        assert "outside the plan's folder" in capsys.readouterr().err


def _scenario_obj(ref: str):
    from gpuplanner.core.scenario import scenario_from_dict

    return scenario_from_dict({**SCENARIO_FOR_MODEL, "model": {"hf_config": ref}})


def test_terminal_escapes_from_a_vendor_file_never_reach_the_terminal(tmp_path, capsys):
    d = copy.deepcopy(KIT)
    d["host"] = "evil\x1b[2J\x1b]0;pwned\x07host"
    f = tmp_path / "r.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    rc = run_cli(["kit-import", str(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"), str(f)])
    out = capsys.readouterr()
    assert rc in (0, 2)
    assert "\x1b" not in out.out and "\x1b" not in out.err and "\x07" not in out.out


def test_long_prompt_line_in_topology_is_fast(tmp_path):
    from gpuplanner.verify.topology import TopologyError, parse_topo

    t0 = time.perf_counter()
    with pytest.raises(TopologyError):
        parse_topo("@" * 40_000 + "\n" + "user@host:~" + "@" * 40_000)
    assert time.perf_counter() - t0 < 1.0


def test_error_lines_are_capped(tmp_path, capsys):
    f = _scenario_file(tmp_path, hardware={"gpu": "x" * 150})
    assert run_cli(["estimate", str(f)]) == 2
    line = capsys.readouterr().err.strip()
    assert len(line.splitlines()) == 1 and len(line) <= 400


# ------------------------------------------------------------------ estimate --json parses strictly (hypothesis)

def _strict(text: str):
    def refuse(token):
        raise ValueError(f"{token} in JSON output")

    return json.loads(text, parse_constant=refuse)


def _scenarios():
    from hypothesis import strategies as st

    num = st.one_of(st.integers(-2, 10**6), st.floats(allow_nan=True, allow_infinity=True), st.none(),
                    st.sampled_from([1e-9, 1e-4, 0.001, 0.2, 168, 1e300, 2**63]))
    return st.fixed_dictionaries({
        "model": st.fixed_dictionaries({"preset": st.sampled_from(["llama-3-8b", "qwen2.5-7b", "mistral-7b-v0.1",
                                                                   "llama-3-70b"])}),
        "hardware": st.fixed_dictionaries({"gpu": st.sampled_from(["h100-sxm-80gb", "rtx-4090-24gb", "a800-80gb",
                                                                   "nope"]),
                                           "num_gpus": st.one_of(st.sampled_from([1, 8, 64]), num)}),
        "training": st.fixed_dictionaries({"method": st.sampled_from(["full", "lora", "qlora"]),
                                           "seq_len": st.one_of(st.sampled_from([2048, 8192]), num)}),
        "data": st.fixed_dictionaries({"tokens": st.one_of(st.sampled_from(["100M", "1T", "1000000T", "0"]), num)}),
        "assumptions": st.fixed_dictionaries({}, optional={"mfu": num}),
        "constraints": st.fixed_dictionaries({}, optional={"hours_per_week": num, "deadline_days": num,
                                                           "budget": num}),
    })


def _estimate_json_parses(d: dict) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / "s.json"
        try:
            f.write_text(json.dumps(d, allow_nan=False), encoding="utf-8")
        except ValueError:
            f.write_text(json.dumps(d), encoding="utf-8")  # NaN/Infinity in the file: refused by the reader
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = run_cli(["estimate", str(f), "--json"])
    assert rc in (0, 2), err.getvalue()[-300:]
    if rc == 0:
        _strict(out.getvalue())
        assert err.getvalue() == ""
    else:
        assert len(err.getvalue().strip().splitlines()) == 1


def test_estimate_json_always_parses_strictly():
    from hypothesis import HealthCheck, given, settings

    given(_scenarios())(settings(max_examples=40, deadline=None, derandomize=True,
                                 suppress_health_check=list(HealthCheck))(_estimate_json_parses))()


@pytest.mark.slow
def test_estimate_json_always_parses_strictly_full():
    from hypothesis import HealthCheck, given, settings

    given(_scenarios())(settings(max_examples=2000, deadline=None,
                                 suppress_health_check=list(HealthCheck))(_estimate_json_parses))()


@pytest.mark.parametrize("ext", [".json", ".gpuplan"])
def test_duplicate_keys_in_our_own_files_are_refused(tmp_path, capsys, ext):
    """A scenario or plan file giving one key twice was read with the last one silently (``{"model": A, "model":
    B}`` planned B; issue 35 round 10): refused in one line naming the key. A third party's config.json keeps
    transformers' last-one-wins (json.load)."""
    if ext == ".json":
        text = ('{"model": {"preset": "qwen2.5-7b"}, "model": {"preset": "llama-3-8b"}, '
                '"hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 8}}')
    else:
        text = (ROOT / "examples" / "8b-full-8xh100.gpuplan").read_text(encoding="utf-8")
        text = text.replace('"title"', '"title": "x", "title"', 1)
    f = tmp_path / ("s" + ext)
    f.write_text(text, encoding="utf-8")
    rc = run_cli(["estimate", str(f)])
    err = capsys.readouterr().err
    assert rc == 2 and "given twice" in err and ("model" in err if ext == ".json" else "title" in err), err
    assert len(err.strip().splitlines()) == 1, err
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(CONFIGS[0])[:-1] + ', "vocab_size": 128256}', encoding="utf-8")
    f = _scenario_file(tmp_path, model={"preset": None, "hf_config": "m"})
    assert run_cli(["estimate", str(f)]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("sample, old, new", [
    ("result-cpu-sample.json", '{\n "allreduce"', '{\n "allreduce": [],\n "allreduce"'),
    ("result-cpu-run.json", '"mode"', '"mode": "cuda", "mode"'),
    ("multinode-2x8-h100-ib-constructed.json", '"nodes": 2,', '"nodes": 3, "nodes": 2,'),
])
def test_duplicate_keys_in_a_kit_result_are_refused(tmp_path, capsys, sample, old, new):
    """A kit result giving one key twice was read with the last one silently (issue 35 round 10, probe10's "left
    open"): refused in one line naming the key, as for scenario and plan files. The kit scripts write their result
    with ``json.dump`` of a dict with string keys only, so they never write one (the committed results read)."""
    text = (ROOT / "tests" / "data" / "kit" / sample).read_text(encoding="utf-8")
    scenario = str(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json")
    f = tmp_path / "r.json"
    f.write_text(text, encoding="utf-8")
    assert run_cli(["kit-import", scenario, str(f)]) in (0, 1), capsys.readouterr().err
    capsys.readouterr()
    assert old in text
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    rc = run_cli(["kit-import", scenario, str(f)])
    err = capsys.readouterr().err
    key = old.split(":")[0].strip('{\n "')
    assert rc == 2 and "given twice" in err and key in err, err
    assert len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("section, values, where, message", [
    ("training", {"micro_batch_size": True}, "training.micro_batch_size", "Input should be a valid integer"),
    ("training", {"objective": "grpo", "method": "lora", "rl": {"response_len_std": True}},
     "training.rl.response_len_std", "Input should be a valid number"),
    ("training", {"fsdp_version": True}, "training.fsdp_version", "Input should be 1 or 2"),
    ("parallel", {"tp": False}, "parallel.tp", "Input should be a valid integer"),
    ("constraints", {"budget": True}, "constraints.budget", "Input should be a valid number"),
    ("constraints", {"prices": {"h100-sxm-80gb": {"card_hour": True}}}, "card_hour", "Input should be a valid number"),
    ("hardware", {"num_gpus": True}, "hardware.num_gpus", "Input should be a valid integer"),
    ("data", {"images_per_sample": False}, "data.images_per_sample", "Input should be a valid number"),
])
def test_a_bool_for_a_number_is_refused(tmp_path, capsys, section, values, where, message):
    """``true``/``false`` where a number is expected was read as 1/0 by pydantic's lax mode
    (``training.rl.response_len_std: true`` planned with 1.0; issue 35 round 10, probe10's "left open"): refused in
    one line naming the field, for every section (core/nobool.NoBoolForNumbers); the same file with the number
    plans."""
    f = _scenario_file(tmp_path, **{section: values})
    rc = run_cli(["estimate", str(f)])
    err = capsys.readouterr().err
    assert rc == 2 and where in err and message in err, err
    assert len(err.strip().splitlines()) == 1, err
    d = json.loads(f.read_text(encoding="utf-8"))
    d[section] = json.loads(json.dumps(values).replace("true", "1").replace("false", "1"))
    f.write_text(json.dumps(d), encoding="utf-8")
    assert run_cli(["estimate", str(f)]) in (0, 1), capsys.readouterr().err


@pytest.mark.parametrize("old, new, where, message", [
    ('"concurrency": 50', '"concurrency": true', "concurrency", "Input should be a valid integer"),
    ('"tokens_per_s_per_user": 20.0', '"tokens_per_s_per_user": true', "tokens_per_s_per_user",
     "Input should be a valid number"),
    ('"weeks": 4.0', '"weeks": false', "weeks", "Input should be a valid number"),
])
def test_a_bool_for_a_number_in_a_plan_file_is_refused(tmp_path, capsys, old, new, where, message):
    """The same in a plan file's project (the serving phase's inference figures and the phase's weeks)."""
    text = (ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan").read_text(encoding="utf-8")
    assert old in text
    f = tmp_path / "p.gpuplan"
    f.write_text(text.replace(old, new, 1), encoding="utf-8")
    rc = run_cli(["project", str(f)])
    err = capsys.readouterr().err
    assert rc == 2 and where in err and message in err, err
    assert len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("value", [None, "", "SET", "set ", "all\x1b[2J", True, 0, 10**40, 1e300, [], {}, ["set"],
                                   {"set": "set"}, "s" * 1_000_000, "\ud800"])
def test_saved_fields_of_a_plan_is_validated_and_bounded(value, tmp_path, capsys):
    """Round 16 (savefile16): the plan file's ``saved_fields`` ("set": the file holds the fields the user set; "all":
    every field) accepts only those two words; anything else is one printable line naming the field, exit 2, for
    every command that reads a plan, and the examples that carry the key keep it inside the plan fuzzers' reach."""
    assert any("saved_fields" in p for p in PLANS)
    base = json.loads((ROOT / "examples" / "8b-full-8xh100.gpuplan").read_text(encoding="utf-8"))
    f = tmp_path / "p.gpuplan"
    f.write_text(json.dumps({**base, "saved_fields": value}), encoding="utf-8")
    for argv in (["estimate", str(f)], ["plan", str(f), "--top", "1"], ["project", str(f)]):
        rc, dt, err = _run(argv)
        assert rc == 2 and dt < MAX_SECONDS, (argv, rc, err[-300:])
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("gpuplanner: error: p.gpuplan: "), lines
        assert len(lines[0]) <= 400 and lines[0].isprintable(), lines[0][:200]
        assert "saved_fields" in lines[0] or "Unicode" in lines[0], lines[0]
    for word in ("set", "all"):
        f.write_text(json.dumps({**base, "saved_fields": word}), encoding="utf-8")
        _check(["estimate", str(f)], word)
        assert _run(["estimate", str(f)])[0] == 0
