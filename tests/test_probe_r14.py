"""Round-14 hostile-input probe (bench/probe_hostile_r14.py): the holes it found, each as the user meets it.

Every test here failed before its fix (run against main 652765e5).
"""

from __future__ import annotations

import copy
import io
import json
import os
import stat
from pathlib import Path

import pytest

from tests.probe_helpers import cli as _cli
from tests.probe_helpers import one_line as _one_line

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = json.loads((ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json").read_text(encoding="utf-8"))
LORA_JSON = ROOT / "examples" / "7b-lora-1x4090.json"
PLAN_LORA = ROOT / "examples" / "7b-lora-1x4090.gpuplan"






def _scenario(tmp_path: Path, base: dict, **paths) -> Path:
    d = copy.deepcopy(base)
    for path, value in paths.items():
        node = d
        keys = path.split("__")
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        node[keys[-1]] = value
    f = tmp_path / "s.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    return f


# 1. An output path naming a device, FIFO or socket was replaced by a regular file (os.replace over it): as root,
#    ``gpuplanner report x -o /dev/full`` (or /dev/null, or a link to it) put a PDF where the device node was.

def _special(tmp_path: Path, kind: str) -> Path:
    p = tmp_path / "out"
    if kind == "fifo":
        os.mkfifo(p)
    elif kind == "chardev":
        if os.geteuid() != 0:
            pytest.skip("mknod needs root")
        os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's numbers, in the test's folder
    return p


@pytest.mark.parametrize("kind", ["fifo", "chardev"])
def test_atomic_write_never_replaces_a_special_file(tmp_path, kind):
    from gpuplanner.io.planfile import PlanFileError, write_output

    p = _special(tmp_path, kind)
    mode = p.lstat().st_mode
    with pytest.raises(PlanFileError, match="not a regular file"):
        write_output(p, b"%PDF")
    assert p.lstat().st_mode == mode  # still the FIFO / device
    link = tmp_path / "link.sh"
    link.symlink_to(p)
    with pytest.raises(PlanFileError, match="not a regular file"):
        write_output(link, b"#!/bin/sh")
    assert p.lstat().st_mode == mode and link.is_symlink()


def test_kit_output_onto_a_fifo_is_one_line(tmp_path):
    p = _special(tmp_path, "fifo")
    rc, _, err = _cli(["kit", str(LORA_JSON), "-o", str(p)])
    assert rc == 2 and "not a regular file" in _one_line(err)
    assert stat.S_ISFIFO(p.lstat().st_mode)


# 2. A plan's title and the report author were unbounded: the PDF lays them out as its heading and title block
#    (a 10 MB title crashed Qt, SIGSEGV; 1 MB held the layout for minutes; a 900 kB author in the settings file too).

def test_plan_title_is_bounded(tmp_path):
    from gpuplanner.io import planfile

    MAX_TITLE = getattr(planfile, "MAX_TITLE", 1000)  # (getattr: the test fails on the behaviour before the fix)
    d = json.loads(PLAN_LORA.read_text(encoding="utf-8"))
    d["title"] = "T" * (MAX_TITLE + 1)
    f = tmp_path / "p.gpuplan"
    f.write_text(json.dumps(d), encoding="utf-8")
    rc, _, err = _cli(["report", str(f), "-o", str(tmp_path / "r.pdf")])
    assert rc == 2 and "title" in _one_line(err)
    assert not (tmp_path / "r.pdf").exists()
    d["title"] = "T" * MAX_TITLE  # at the bound: read
    f.write_text(json.dumps(d), encoding="utf-8")
    assert _cli(["estimate", str(f)])[0] == 0


def test_report_author_flag_is_bounded(tmp_path):
    rc, _, err = _cli(["report", str(LORA_JSON), "-o", str(tmp_path / "r.pdf"), "--author", "B" * 201])
    assert rc == 2 and "--author" in _one_line(err) and "200" in err


def test_report_author_setting_is_cut(tmp_path, monkeypatch):
    from gpuplanner.io import app_settings

    monkeypatch.setenv("GPUPLANNER_CONFIG_DIR", str(tmp_path))
    (tmp_path / app_settings.SETTINGS_FILE).write_text("[report]\nauthor=" + "A" * 900_000 + "\n", encoding="utf-8")
    assert app_settings.report_author() == "A" * getattr(app_settings, "MAX_AUTHOR", 200)


# 3. Pasted ``nvidia-smi topo -m`` with 2,000 GPU columns printed 34 MB (every pair named) in 10 s.

def test_topo_columns_are_bounded():
    from gpuplanner.verify import topology
    from gpuplanner.verify.topology import TopologyError, parse_topo

    MAX_TOPO_GPUS = getattr(topology, "MAX_TOPO_GPUS", 64)

    def matrix(n):
        head = "\t" + "\t".join(f"GPU{i}" for i in range(n)) + "\n"
        return head + "".join(f"GPU{i}\t" + "\t".join(" X " if i == j else "NV18" for j in range(n)) + "\n"
                              for i in range(n))

    assert parse_topo(matrix(MAX_TOPO_GPUS)).gpus == MAX_TOPO_GPUS
    with pytest.raises(TopologyError, match="at most 64"):
        parse_topo(matrix(MAX_TOPO_GPUS + 1))


# 4. An XLSX quote written by a script (a formula with no saved result) read the formula cell as empty: the price
#    line was skipped as a blank template line and the offer lost without a word; worksheets past 20 were left out.

def _workbook(build) -> bytes:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    for r in [["section", "item", "value", "unit", "gpus_per_server"], ["vendor", "provider", "X"],
              ["vendor", "currency", "CNY"], ["offer", "rtx-4090-24gb", 5.88, "card_hour", 8]]:
        ws.append(r)
    build(wb, ws)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_xlsx_formula_without_result_is_refused(tmp_path):
    from gpuplanner.io.quote_sheets import QuoteSheetError, read_quotes

    f = tmp_path / "q.xlsx"
    f.write_bytes(_workbook(lambda wb, ws: ws.__setitem__("C4", "=5.88*1")))
    with pytest.raises(QuoteSheetError, match=r"cell C4: a formula with no saved result \('=5\.88\*1'\)"):
        read_quotes(f)
    f.write_bytes(_workbook(lambda wb, ws: None))
    assert [str(o.price) for o in read_quotes(f)[0].offers] == ["5.88"]


def test_xlsx_more_sheets_than_read_is_refused(tmp_path):
    from gpuplanner.io.quote_sheets import MAX_SHEETS, QuoteSheetError, read_quotes

    def many(wb, ws):
        for i in range(MAX_SHEETS):
            h = wb.create_sheet(f"v{i + 2}")
            for r in ws.iter_rows(values_only=True):
                h.append(list(r))
            h["C2"] = f"Vendor {i + 2}"

    f = tmp_path / "q.xlsx"
    f.write_bytes(_workbook(many))
    with pytest.raises(QuoteSheetError, match="more than 20 worksheets"):
        read_quotes(f)


# 5. An unknown hardware.inter_node named no field ("unknown network 'ib-zz'; known: …"), and ``plan`` ignored it.

@pytest.mark.parametrize("cmd", ["estimate", "plan"])
def test_unknown_network_names_its_field(tmp_path, cmd):
    f = _scenario(tmp_path, EXAMPLE, hardware__inter_node="ib-zz", hardware__num_gpus=16)
    rc, _, err = _cli([cmd, str(f)])
    assert rc == 2 and _one_line(err).startswith("gpuplanner: error: hardware.inter_node: unknown network 'ib-zz'")


# 6. A multi-node kit result saying 10**12 nodes was reported as "1000000000000 nodes × 8".

def test_multinode_result_nodes_bounded():
    from gpuplanner.verify import multinode
    from gpuplanner.verify.multinode import MultiNodeError, parse_multinode_result

    MAX_NODES = getattr(multinode, "MAX_NODES", 4096)

    d = json.loads((ROOT / "tests" / "data" / "kit" / "multinode-2x8-h100-ib-constructed.json").read_text())
    parse_multinode_result(d)
    for key, value in (("nodes", MAX_NODES + 1), ("gpus_per_node", 65)):
        with pytest.raises(MultiNodeError, match=key):
            parse_multinode_result({**d, key: value})


# 7. hardware.custom_gpus: 5,000 entries printed 348,000 characters (a "skipped" line each); a repeated id hid the
#    second GPU behind the first.

def test_custom_gpus_bounded_and_unique(tmp_path):
    from gpuplanner.core import scenario

    MAX_CUSTOM_GPUS = getattr(scenario, "MAX_CUSTOM_GPUS", 100)

    gpus = [{"id": f"custom-g{i}", "name": "x", "memory_gib": 80} for i in range(MAX_CUSTOM_GPUS + 1)]
    rc, _, err = _cli(["plan", str(_scenario(tmp_path, EXAMPLE, hardware__custom_gpus=gpus))])
    assert rc == 2 and "hardware.custom_gpus" in _one_line(err)
    dup = [{"id": "custom-a", "name": "x", "memory_gib": 80}, {"id": "custom-a", "name": "y", "memory_gib": 40}]
    rc, _, err = _cli(["estimate", str(_scenario(tmp_path, EXAMPLE, hardware__custom_gpus=dup))])
    assert rc == 2 and "custom-a is given twice" in _one_line(err)


# 8. The autosave recovery line (the recovery dialog's list) carried a stranger's title as it was: newlines, ESC.

def test_autosave_describe_is_one_line(tmp_path):
    from gpuplanner.io.autosave import AutosaveStore

    good = json.loads(PLAN_LORA.read_text(encoding="utf-8"))
    rec = {"autosave_format": 1, "session": "other", "pid": 2**31 - 2, "saved_at": "2026-12-07T00:00:00+00:00",
           "source_path": "/x\n/y", "plan": {**good, "title": "t\x1b[2J\u202e\nsecond line"}}
    (tmp_path / "a-main.autosave").write_text(json.dumps(rec), encoding="utf-8")
    (got,) = AutosaveStore(tmp_path, session="mine").pending()
    line = got.describe()
    assert got.document is not None and line.isprintable() and "second line" in line


# 9. A DeepSeek-V2/V3 config.json with kv_lora_rank 0 was read as a model without latent attention (another
#    attention priced); transformers builds every key and value from the kv_lora_rank-wide latent.

def test_mla_rank_zero_is_refused(tmp_path):
    cfg = {"model_type": "deepseek_v3", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
           "vocab_size": 1000, "intermediate_size": 1024, "kv_lora_rank": 0, "q_lora_rank": 64,
           "qk_rope_head_dim": 16, "qk_nope_head_dim": 32, "v_head_dim": 32, "n_routed_experts": 8,
           "num_experts_per_tok": 2, "moe_intermediate_size": 64}
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    f = _scenario(tmp_path, EXAMPLE, model={"hf_config": "m"})
    rc, _, err = _cli(["estimate", str(f)])
    assert rc == 2 and "kv_lora_rank" in _one_line(err)
    cfg["kv_lora_rank"] = 64
    (tmp_path / "m" / "config.json").write_text(json.dumps(cfg), encoding="utf-8")
    assert _cli(["estimate", str(f)])[0] == 0


# 10. Megatron's interleaved schedule: vpp with pp=1 (Megatron-LM refuses it) and more chunks than layers (pp=8,
#     vpp=8 on 32 layers: 64 chunks of half a layer) were priced without a word.

@pytest.mark.parametrize("pp, vpp, gpus, words", [(1, 2, 8, "needs pp > 1"), (8, 8, 8, "64 model chunks")])
def test_vpp_refusals(tmp_path, pp, vpp, gpus, words):
    f = _scenario(tmp_path, EXAMPLE, training__framework="megatron", training__recompute="none", parallel__zero=1,
                  parallel__pp=pp, parallel__vpp=vpp, hardware__num_gpus=gpus)
    rc, _, err = _cli(["estimate", str(f)])
    line = _one_line(err)
    assert rc == 2 and "parallel.vpp" in line and words in line


def test_vpp_at_the_bound_is_read(tmp_path):
    f = _scenario(tmp_path, EXAMPLE, training__framework="megatron", training__recompute="none", parallel__zero=1,
                  parallel__pp=8, parallel__vpp=4, hardware__num_gpus=8)
    assert _cli(["estimate", str(f)])[0] == 0


# 11. A plan's vendor checklist (and benchmarks) took any number of entries and any note: 100,000 entries took 10 s to
#     open (every pass over the file walks each entry), a 20 MB file of them minutes. Bounded before those passes;
#     and the JSON reader walks the tree for a path only when a NaN/overflow marker was kept.

def test_checklist_bounded_before_the_passes(tmp_path):
    import time

    d = json.loads(PLAN_LORA.read_text(encoding="utf-8"))
    d["vendor_checklist"] = [{"id": f"c{i}", "checked": True} for i in range(100_000)]
    f = tmp_path / "p.gpuplan"
    f.write_text(json.dumps(d), encoding="utf-8")
    t0 = time.perf_counter()
    rc, _, err = _cli(["estimate", str(f)])
    assert rc == 2 and "vendor_checklist" in _one_line(err) and "100000" in err
    d["vendor_checklist"] = [{"id": "nvlink_topology", "note": "n" * 10_001}]
    f.write_text(json.dumps(d), encoding="utf-8")
    rc, _, err = _cli(["estimate", str(f)])
    assert rc == 2 and "vendor_checklist[0].note" in _one_line(err)
    assert time.perf_counter() - t0 < 20


def test_loads_finite_still_names_the_path():
    from gpuplanner.io.safe_read import loads_finite

    assert loads_finite('{"a": [1.5, {"b": 2}]}') == {"a": [1.5, {"b": 2}]}
    for text, where in (('{"a": [1, NaN]}', "a[1]"), ('{"a": {"b": 1e999}}', "a.b")):
        with pytest.raises(ValueError) as info:
            loads_finite(text)
        assert info.value.args[0] == where
