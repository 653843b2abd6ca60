"""The nine holes of issue #32, each reproduced as the user runs it: ``python -m gpuplanner …`` in a child
process, measured.

Every reproducer must give exit 0, or exit 2 with exactly one line on stderr, within 2 s of CPU time and
300 MB of resident memory (``wait4``'s rusage of that child: CPU time rather than wall time, so a busy shared
machine does not fail it). The child also runs under an address-space and CPU-time limit, so a regression
fails fast instead of eating the machine. Before the fixes (notes/issue-32.md): health 11-52 s, project 2.9 GB
and MemoryError, topo /dev/zero past 1.4 GB, tracebacks (exit 1), a FIFO that hung.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
LORA = ROOT / "examples" / "7b-lora-1x4090.json"
KIT = ROOT / "tests" / "data" / "kit" / "result-cpu-sample.json"
SMI = ROOT / "tests" / "data" / "health" / "constructed-nvidia-smi-q-h100-throttled-ecc.txt"
TOPO = ROOT / "tests" / "data" / "topo" / "8gpu-two-nvlink-islands.txt"
QUOTES = ROOT / "examples" / "quotes" / "autodl-a800.csv"
MAX_CPU_S = 2.0
MAX_RSS_MB = 300
pytestmark = pytest.mark.skipif(not hasattr(os, "wait4"), reason="rusage of one child (POSIX)")


#: The measuring parent: a fresh interpreter that forks ``python -m gpuplanner`` and reports its rusage. Linux
#: carries the forking process's resident high-water mark into the child's ``ru_maxrss`` across ``exec``
#: (``exec_mmap``: ``setmax_mm_hiwater_rss``), so a child forked straight from a pytest process that has grown past
#: 300 MB reads as 300 MB before it runs a line; forked from this small launcher, it reads its own peak.
LAUNCHER = """
import json, os, resource, sys
report = sys.argv[1]
pid = os.fork()
if pid == 0:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))  # a runaway fails at 2 GB, not the machine's end
    resource.setrlimit(resource.RLIMIT_CPU, (30, 30))
    os.execv(sys.executable, [sys.executable, "-m", "gpuplanner", *sys.argv[2:]])
_, status, ru = os.wait4(pid, 0)
with open(report, "w") as f:
    json.dump({"rc": os.waitstatus_to_exitcode(status), "cpu": ru.ru_utime + ru.ru_stime,
               "rss": ru.ru_maxrss / 1024}, f)
"""


def run(argv: list[str], tmp: Path, stdin: str | None = None) -> dict:
    """``gpuplanner argv`` in a child: exit code, stdout, stderr, CPU seconds and peak RSS (MB)."""
    out, err, report = tmp / "stdout", tmp / "stderr", tmp / "rusage.json"
    report.unlink(missing_ok=True)
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", QT_QPA_PLATFORM="offscreen", COLUMNS="120")
    with open(out, "wb") as o, open(err, "wb") as e, open(stdin or os.devnull, "rb") as i:
        proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(report), *argv], stdin=i, stdout=o, stderr=e,
                                cwd=tmp, env=env, start_new_session=True)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:  # a FIFO that blocks: fail, never hang the suite
            os.killpg(proc.pid, 9)
            proc.wait()
    got = json.loads(report.read_text()) if report.exists() else {"rc": proc.returncode, "cpu": 99.0, "rss": 0.0}
    return {"rc": got["rc"], "out": out.read_text(encoding="utf-8", errors="replace"),
            "err": err.read_text(encoding="utf-8", errors="replace"), "cpu": got["cpu"], "rss": got["rss"]}


def check(res: dict, *, names: str | None = None) -> None:
    """Exit 0, or 2 with one line (naming ``names`` when given); within the time and memory bounds."""
    summary = {k: (v[-300:] if isinstance(v, str) else v) for k, v in res.items()}
    assert res["rc"] in (0, 2), summary
    assert res["cpu"] < MAX_CPU_S and res["rss"] < MAX_RSS_MB, summary
    if res["rc"] == 2:
        lines = res["err"].strip().splitlines()
        assert len(lines) == 1 and lines[0].isprintable() and len(lines[0]) <= 400, summary
        if names:
            assert names in lines[0], summary
    else:
        assert res["err"].strip() == "", summary  # no warning, no traceback


def scenario(tmp: Path, base: Path = LORA, **sections) -> Path:
    d = json.loads(base.read_text(encoding="utf-8"))
    for k, v in sections.items():
        d.setdefault(k, {}).update(v)
    f = tmp / "s.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    return f


# 1 ------------------------------------------------------------------------------ NUL in model.hf_config

@pytest.mark.parametrize("cmd", [["estimate"], ["plan"], ["project"], ["kit", "-o", "kit.sh"],
                                 ["report", "-o", "r.pdf"]])
def test_1_nul_byte_in_hf_config(tmp_path, cmd):
    f = scenario(tmp_path, EXAMPLE, model={"preset": None, "hf_config": "a\u0000b"})
    res = run([cmd[0], str(f), *cmd[1:]], tmp_path)
    assert res["rc"] == 2
    check(res, names="model.hf_config")


@pytest.mark.parametrize("ref", ["\ud800x", "x" * 5000, "/dev/zero", "a/" * 3000])
def test_1_other_bad_model_paths(tmp_path, ref):
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"model": {"hf_config": ref}}).replace("\\\\ud800", "\\ud800"), encoding="utf-8")
    res = run(["estimate", str(f)], tmp_path)
    assert res["rc"] == 2
    check(res)


# 2 ------------------------------------------------------------------------------ quadratic regexes

@pytest.mark.parametrize("text", ["NVRM: GPU 0000:b3:00.0 " * 4000 + "\n", "x" + "\n" * 80_000])
def test_2_health_is_linear(tmp_path, text):
    (tmp_path / "d.txt").write_text(text, encoding="utf-8")
    check(run(["health", "d.txt"], tmp_path))


# 3 ------------------------------------------------------------------------------ topo without limit

def test_3_topo_refuses_devices_stdin_floods_and_fifos(tmp_path):
    res = run(["topo", "/dev/zero"], tmp_path)
    assert res["rc"] == 2 and "regular file" in res["err"]
    check(res)
    res = run(["topo", "-"], tmp_path, stdin="/dev/zero")
    assert res["rc"] == 2 and "too large" in res["err"]
    check(res)
    os.mkfifo(tmp_path / "f")
    res = run(["topo", "f"], tmp_path)
    assert res["rc"] == 2 and "regular file" in res["err"]
    check(res)


# 4 ------------------------------------------------------------------------------ lone surrogate in a kit result

def test_4_kit_import_lone_surrogate(tmp_path):
    kit = json.loads(KIT.read_text(encoding="utf-8"))
    text = json.dumps(kit).replace(json.dumps(kit["host"]), '"\\ud800"')
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    res = run(["kit-import", str(EXAMPLE), "r.json"], tmp_path)
    assert res["rc"] == 2
    check(res)


@pytest.mark.parametrize("where, literal", [("host", "NaN"), ("gpus", "Infinity")])
def test_4_kit_import_non_finite_numbers_name_the_field(tmp_path, where, literal):
    kit = json.loads(KIT.read_text(encoding="utf-8"))
    if where == "gpus":
        kit["gpus"] = [{"index": 0, "memory_gib": "@@"}]
        field = "gpus[0].memory_gib"
    else:
        kit["host"] = "@@"
        field = "host"
    (tmp_path / "r.json").write_text(json.dumps(kit).replace('"@@"', literal), encoding="utf-8")
    res = run(["kit-import", str(EXAMPLE), "r.json"], tmp_path)
    assert res["rc"] == 2
    check(res, names=f"{field}: {literal} is not allowed")


# 5, 6 -------------------------------------------------------------------------- absurd assumptions, long jobs

@pytest.mark.parametrize("sections, field", [
    ({"assumptions": {"mfu": 1e-9}}, "assumptions.mfu"),
    ({"data": {"tokens": "1000000T"}}, "data.tokens"),
    ({"constraints": {"hours_per_week": 0.2}}, "constraints.hours_per_week"),
])
@pytest.mark.parametrize("cmd", [["project"], ["estimate"], ["estimate", "--json"], ["plan"], ["plan", "--json"],
                                 ["report", "-o", "r.pdf"], ["quotes", str(QUOTES)], ["quotes", str(QUOTES), "--json"]])
def test_5_6_absurd_jobs_are_refused_naming_the_field(tmp_path, sections, field, cmd):
    """Every command that shows a plan refuses an absurd one through the one gate (app.answer.shown); round 1
    had it in estimate and project only (plan and report exited 0 with 0.2 hours a week)."""
    res = run([cmd[0], str(scenario(tmp_path, **sections)), *cmd[1:]], tmp_path)
    assert res["rc"] == 2
    check(res, names=field)
    assert not (tmp_path / "r.pdf").exists()


@pytest.mark.parametrize("cmd", [["report", "-o", "r.pdf"], ["estimate"], ["plan"]])
def test_zero_tokens_is_no_division_by_zero(tmp_path, cmd):
    """data.tokens 0 (in range): the report's "why not this plan" divided by a cost per token of 0 (a
    ZeroDivisionError traceback on main f7ecbb5; found by the report's 10,000-case fuzz, round 2)."""
    check(run([cmd[0], str(scenario(tmp_path, data={"tokens": 0})), *cmd[1:]], tmp_path))


def test_6_estimate_json_is_strict(tmp_path):
    res = run(["estimate", str(scenario(tmp_path, constraints={"hours_per_week": 3})), "--json"], tmp_path)
    check(res)
    if res["rc"] == 0:
        json.loads(res["out"], parse_constant=lambda c: pytest.fail(f"{c} in JSON output"))


# 7 ------------------------------------------------------------------------------ deep nesting (CLI side)

def test_7_deep_plan_file(tmp_path):
    text = (ROOT / "examples" / "8b-full-8xh100.gpuplan").read_text(encoding="utf-8").rstrip()
    (tmp_path / "p.gpuplan").write_text(text[:-1] + ', "zz": ' + "[" * 1000 + "]" * 1000 + "}", encoding="utf-8")
    res = run(["estimate", "p.gpuplan"], tmp_path)
    assert res["rc"] == 2
    check(res)


# 8 ------------------------------------------------------------------------------ bad flags

@pytest.mark.parametrize("argv, names", [
    (["health", str(SMI), "--gpu", "nope-gpu"], "nope-gpu"),
    (["topo", str(TOPO), "--tp", "1" + "0" * 30], "from 1 to 1,024"),
    (["topo", str(TOPO), "--gpus", "0"], "from 1 to"),
    (["net", str(ROOT / "tests" / "data" / "net" / "constructed-8x-ndr-400-plus-2-eth-ibstat.txt"),
      "--network", "ib-ndr-400", "--nics", "10" * 10], "from 1 to 64"),
    (["net", str(ROOT / "tests" / "data" / "net" / "constructed-8x-ndr-400-plus-2-eth-ibstat.txt"),
      "--network", "nope"], "nope"),
    (["plan", str(EXAMPLE), "--top", "0"], "from 1 to"),
])
def test_8_bad_flag_values_are_errors_naming_the_range(tmp_path, argv, names):
    res = run(argv, tmp_path)
    assert res["rc"] == 2
    check(res, names=names)


# 9 ------------------------------------------------------------------------------ invisible controls in output

def test_9_bidi_and_invisible_characters_never_reach_stdout(tmp_path):
    evil = "ab\u202ecd\u2066e\u200ff\u200bg\u2028h"
    f = scenario(tmp_path, EXAMPLE, model={"preset": None, "name": evil, "hidden_size": 4096,
                                          "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 32000,
                                          "intermediate_size": 11008})
    for cmd in (["estimate", str(f)], ["estimate", str(f), "--json"]):
        res = run(cmd, tmp_path)
        check(res)
        assert res["rc"] == 0 and not set(res["out"]) & set("\u202e\u2066\u200f\u200b\u2028"), res["out"][:300]
        assert "ab\ufffdcd" in res["out"]  # replaced where it was, not silently dropped


# 10 ----------------------------------------------------------------------------- quote sheets and `quotes` (round 2)

PLAN_LORA = ROOT / "examples" / "7b-lora-1x4090.gpuplan"
_SHEET = "xl/worksheets/sheet1.xml"


def _good_xlsx() -> bytes:
    from gpuplanner.io import quote_sheets

    return quote_sheets.write_xlsx(quote_sheets.read_quotes(QUOTES))


def _rezip(raw: bytes, part: str, change) -> bytes:
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in zin.infolist():
            data = zin.read(info.filename)
            z.writestr(info.filename, change(data) if info.filename == part else data)
    return out.getvalue()


def _lying_sizes(raw: bytes) -> bytes:
    """The sheet's declared uncompressed size set to 1,000 bytes in both headers (it unpacks to 30 MB)."""
    import struct

    raw = bytearray(_rezip(raw, _SHEET, lambda d: d.replace(b"</sheetData>", b"</sheetData><!--" + b" " * 30_000_000
                                                            + b"-->")))
    i = 0
    while (i := raw.find(b"PK", i)) >= 0:
        sig = bytes(raw[i:i + 4])
        if sig == b"PK\x03\x04" and raw[i + 30:i + 30 + len(_SHEET)] == _SHEET.encode():
            struct.pack_into("<I", raw, i + 22, 1000)
        elif sig == b"PK\x01\x02" and raw[i + 46:i + 46 + len(_SHEET)] == _SHEET.encode():
            struct.pack_into("<I", raw, i + 24, 1000)
        i += 4
    return bytes(raw)


def _full_xlsx() -> bytes:
    """The example sheet, then note lines up to the 2,000-line limit with all 9 columns filled (shared strings,
    as Excel writes them): the markup bound must leave it readable."""
    import csv
    import io

    import openpyxl

    wb = openpyxl.Workbook()
    rows = list(csv.reader(io.StringIO(QUOTES.read_text(encoding="utf-8"))))
    rows += [[f"# note {i}"] + [f"cell {i}-{j} " + "x" * 30 for j in range(8)] for i in range(2000 - len(rows))]
    for row in rows:
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


_LOL = (b'<!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">' + b"".join(
    b'<!ENTITY %c "%s">' % (98 + k, b"&%c;" % (97 + k) * 10) for k in range(8)) + b"]>")


def _sheet(change):
    return lambda: _rezip(_good_xlsx(), _SHEET, change)


def _csv(change):
    return lambda: change(QUOTES.read_text(encoding="utf-8")).encode("utf-8", "surrogatepass")


# name: (file name, bytes or a maker, expected exit (None: 0 or 2), words the one line holds)
QUOTE_SHEETS = {
    "csv over 2 MB": ("q.csv", _csv(lambda t: t + "# " + "x" * 2_200_000), 2, "too large"),
    "csv 1.9 MB cell": ("q.csv", _csv(lambda t: t + "offer,a800-sxm-80gb,5,card_hour,8,,no," + "n" * 1_900_000 + ",\n"),
                        2, "q.csv"),
    "csv 600-character cell": ("q.csv", _csv(lambda t: t + "offer,a800-sxm-80gb,5,card_hour,8,,no," + "n" * 600 + ",\n"),
                               2, "longer than 500"),
    "csv NUL": ("q.csv", _csv(lambda t: t.replace("AutoDL (example)", "Auto\0DL")), 2, "not a text file"),
    "csv lone surrogate (CESU bytes)": ("q.csv", _csv(lambda t: t.replace("AutoDL (example)", "Auto\ud800DL")), 2,
                                        "UTF-8"),
    "csv price 1e400": ("q.csv", _csv(lambda t: t.replace("5.88", "1e400")), 2, "cell C"),
    "csv price NaN": ("q.csv", _csv(lambda t: t.replace("5.88", "NaN")), 2, "finite"),
    "csv 3,000 lines": ("q.csv", _csv(lambda t: t + "question,real_stock,unknown,,,,,,\n" * 3000), 2, "2000 lines"),
    "csv 1M empty lines": ("q.csv", _csv(lambda t: t + "\n" * 1_000_000), 2, "2000 lines"),
    "csv 100,000 columns": ("q.csv", _csv(lambda t: t + "," * 100_000 + "\n"), None, ""),
    "csv formulas": ("q.csv", _csv(lambda t: t.replace("AutoDL (example)", '"=HYPERLINK(""http://x"",""y"")"')
                                   .replace("not published", "+cmd|' /C calc'!A0")), 0, ""),
    "csv bidi and escape": ("q.csv", _csv(lambda t: t.replace("AutoDL (example)", "Auto\u202eLD\u2066x\u200b\x1b[31m")),
                            0, ""),
    "xlsx zip bomb (50 MB declared)": ("q.xlsx", _sheet(lambda d: d.replace(
        b"</sheetData>", b"</sheetData><!--" + b" " * 50_000_000 + b"-->")), 2, "unpacks to too much"),
    "xlsx lying sizes": ("q.xlsx", lambda: _lying_sizes(_good_xlsx()), 2, "q.xlsx"),
    "xlsx billion laughs": ("q.xlsx", _sheet(lambda d: _LOL + d.replace(b"AutoDL (example)", b"&i;")), 2, "DTD"),
    "xlsx external entity": ("q.xlsx", _sheet(lambda d: b'<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>'
                                              + d.replace(b"AutoDL (example)", b"&e;")), 2, "DTD"),
    "xlsx 2M-deep XML": ("q.xlsx", _sheet(lambda d: d.replace(b"</sheetData>", b"</sheetData>" + b"<a>" * 2_000_000
                                                              + b"</a>" * 2_000_000)), 2, "too much markup"),
    "xlsx 1.5M-deep inline string": ("q.xlsx", _sheet(lambda d: d.replace(
        b"<sheetData>", b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is>' + b"<r>" * 1_500_000
        + b"</r>" * 1_500_000 + b"</is></c></row>", 1)), 2, "too much markup"),
    "xlsx 15 MB cell": ("q.xlsx", _sheet(lambda d: d.replace(b"AutoDL (example)", b"A" * 15_000_000)), 2,
                        "longer than 500"),
    "xlsx row 1048576": ("q.xlsx", _sheet(lambda d: d.replace(b"</sheetData>", b'<row r="1048576"><c r="A1048576" '
                                                              b't="inlineStr"><is><t>x</t></is></c></row></sheetData>')),
                         None, ""),
    "xlsx column XFD": ("q.xlsx", _sheet(lambda d: d.replace(b"</sheetData>", b'<row r="90"><c r="XFD90" t="inlineStr">'
                                                             b"<is><t>x</t></is></c></row></sheetData>")), None, ""),
    "xlsx NUL and surrogate escapes": ("q.xlsx", _sheet(lambda d: d.replace(b"AutoDL (example)", b"A_x0000_B_xD800_")),
                                       0, ""),
    "xlsx formula cell": ("q.xlsx", _sheet(lambda d: d.replace(
        b'<c r="C15" t="inlineStr"><is><t>AutoDL (example)</t></is></c>',
        b'<c r="C15" t="str"><f>WEBSERVICE("http://x")</f><v>AutoDL</v></c>')), 0, ""),
    "xlsx truncated sheet": ("q.xlsx", _sheet(lambda d: d[:len(d) // 2]), 2, "not a readable XLSX"),
    "xlsx 2,000 full lines (a real sheet at the limits)": ("q.xlsx", lambda: _full_xlsx(), 0, ""),
    "xlsx not a zip": ("q.xlsx", lambda: b"PK\x03\x04" + b"\0" * 100, 2, "not an XLSX"),
}


@pytest.mark.parametrize("case", list(QUOTE_SHEETS))
@pytest.mark.parametrize("json_out", [False, True])
def test_10_hostile_quote_sheets(tmp_path, case, json_out):
    """Each hostile sheet: exit 0, or 2 with one line naming the file (and the cell when there is one), within
    2 s and 300 MB; stdout strict JSON with --json and free of terminal controls. Before round 2 a billion-laughs
    or external-entity XLSX killed the interpreter (SIGSEGV after the one-line error)."""
    name, make, rc, words = QUOTE_SHEETS[case]
    (tmp_path / name).write_bytes(make() if callable(make) else make)
    res = run(["quotes", str(PLAN_LORA), name, *(["--json"] if json_out else [])], tmp_path)
    if rc is not None:
        assert res["rc"] == rc, {k: (v[-300:] if isinstance(v, str) else v) for k, v in res.items()}
    check(res, names=words or None)
    if res["rc"] == 0:
        assert not set(res["out"]) & set("\0\x1b\u202e\u2066\u200b"), res["out"][:300]
        if json_out:
            json.loads(res["out"], parse_constant=lambda c: pytest.fail(f"{c} in JSON output"))


@pytest.mark.parametrize("argv, names", [
    (["quotes", str(PLAN_LORA), "/dev/zero"], "regular file"),
    (["quotes", str(PLAN_LORA), "."], "folder"),
    (["quotes", str(PLAN_LORA), "fifo"], "regular file"),
    (["quotes", "/dev/zero", str(QUOTES)], "regular file"),
    (["quotes", "--template", "csv", "-o", "."], "folder"),  # a traceback before round 2
    (["quotes", "--template", "xlsx", "-o", "no/such/dir/q.xlsx"], "does not exist"),
])
def test_10_quotes_paths(tmp_path, argv, names):
    os.mkfifo(tmp_path / "fifo")
    res = run(argv, tmp_path)
    assert res["rc"] == 2
    check(res, names=names)
