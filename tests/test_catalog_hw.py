"""Hardware / economics catalog: data integrity, dense-not-sparse figures, lookups, CLI, price conversion.

Expected numbers are hand-derived from the reference (gpu-catalog.md / gpu-specs.csv), not read back from
the resource files.
"""

from __future__ import annotations

import csv
import json
import math
import re
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli
from gpuplanner.core import catalog_hw as hw
from gpuplanner.core.errors import CatalogError, PlannerError

REQUIRED_IDS = {
    "h100-sxm-80gb", "h100-pcie-80gb", "h100-nvl-94gb", "h800-sxm-80gb", "h200-sxm-141gb", "h200-nvl-141gb",
    "h20-96gb", "a100-sxm-40gb", "a100-sxm-80gb", "a100-pcie-40gb", "a100-pcie-80gb", "a800-sxm-80gb",
    "a800-pcie-80gb", "l40s-48gb", "l40-48gb", "l20-48gb", "rtx-a6000-48gb", "rtx-4090-24gb", "rtx-4090d-24gb",
    "rtx-5090-32gb", "b200-180gb", "gb200-186gb", "v100-sxm-32gb", "v100-pcie-32gb", "mi300x-192gb",
    "mi250x-128gb", "ascend-910b-64gb", "ascend-910c-128gb", "mlu370-x8-48gb", "mlu590", "hygon-dcu",
}
DATE_RE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")
REFERENCE = Path("/work/shared/reference")


def _raw(name: str) -> dict:
    return json.loads(files("gpuplanner.resources").joinpath(name).read_text(encoding="utf-8"))


def _cited(rec: dict, where: str) -> None:
    assert isinstance(rec.get("source"), str) and rec["source"].strip(), f"{where}: no source"
    date = str(rec.get("source_date", rec.get("date", "")))
    assert DATE_RE.match(date), f"{where}: bad source_date {date!r}"


# ------------------------------------------------------------------------------------------ data integrity


def test_every_gpu_record_is_cited_and_complete():
    doc = _raw("gpus.json")
    recs = doc["gpus"]
    assert len(recs) >= 25
    keys = set(recs[0])
    assert keys == {
        "id", "name", "vendor", "class", "memory_gib", "mem_bw_tbs", "bf16_tflops", "fp16_tflops", "fp8_tflops",
        "fp32_tflops", "tdp_w", "form_factor", "intra_node_link", "intra_node_bw_gbs", "pcie_gen", "nvlink_domain",
        "gpus_per_node", "p2p", "source", "source_date", "notes", "market",
    }
    for rec in recs:
        assert set(rec) == keys, rec["id"]
        _cited(rec, rec["id"])
        assert rec["id"] == rec["id"].lower()
    # NVIDIA's China-market SKUs are marked (the _about names the sources); every other card is sold worldwide
    china = {r["id"] for r in recs if r["market"] == "mainland_china"}
    assert china == {"h800-sxm-80gb", "h20-96gb", "a800-sxm-80gb", "a800-pcie-80gb", "l20-48gb", "rtx-4090d-24gb"}
    assert all(r["market"] is None for r in recs if r["id"] not in china)
    assert REQUIRED_IDS <= {r["id"] for r in recs}
    assert set(hw.load_gpus()) == {r["id"] for r in recs}


def test_networks_prices_economics_are_cited():
    nets = _raw("networks.json")
    for kind in ("intra_node", "inter_node"):
        for rec in nets[kind]:
            _cited(rec, f"{kind}:{rec['id']}")
    prices = _raw("prices.json")
    for i, rec in enumerate(prices["prices"]):
        _cited(rec, f"prices[{i}]")
    _cited(prices["exchange_rate_cny_per_usd"], "exchange rate")
    econ = _raw("economics.json")
    n = 0
    for section, body in econ.items():
        if section.startswith("_"):
            continue
        items = body.items() if isinstance(body, dict) else enumerate(body)
        for key, rec in items:
            _cited(rec, f"economics.{section}.{key}")
            n += 1
    assert n >= 40


def test_required_networks_present():
    nets = hw.load_networks()
    for nid in ("nvlink3", "nvlink3-a800", "nvlink4", "nvlink4-h800", "nvlink5", "pcie3", "pcie4", "pcie5",
                "ib-ndr-400", "ib-hdr-200", "ib-edr-100", "roce-400", "roce-200", "roce-100", "eth-25"):
        assert nid in nets, nid
    # gpu-catalog.md §2.1: NVLink3 A100 12 x 50 = 600, A800/H800 8 links = 400, NVLink4 18 x 50 = 900.
    assert nets["nvlink3"].bw_gbs_bidir == 12 * 50
    assert nets["nvlink4"].bw_gbs_bidir == 18 * 50
    assert nets["nvlink3-a800"].bw_gbs_bidir == nets["nvlink4-h800"].bw_gbs_bidir == 8 * 50
    assert nets["nvlink5"].bw_gbs_bidir == 2 * 900
    # PCIe x16 bidirectional doubles each generation: 32 / 64 / 128.
    assert [nets[f"pcie{g}"].bw_gbs_bidir for g in (3, 4, 5)] == [32, 64, 128]
    assert nets["ib-ndr-400"].default_nics_per_node == 8  # DGX H100: 8 x 400G compute NICs
    # Measured busbw (gpu-catalog.md §4.2): H800 all-reduce 215 GB/s, A100 SXM ~200.
    assert nets["nvlink4-h800"].busbw_gbs == 215
    assert nets["nvlink3"].busbw_gbs == 200
    # Every GPU an intra-node class names exists in the catalog.
    gpus = hw.load_gpus()
    for n in nets.values():
        for gid in n.gpus:
            assert gid in gpus, (n.id, gid)


def test_inter_node_units():
    ndr = hw.get_network("ib-ndr-400")
    assert ndr.gbs_per_direction == 400 / 8 == 50  # 400 Gb/s = 50 GB/s (DeepSeek-V3 "IB 50 GB/s")
    hdr = hw.get_network("ib-hdr-200")
    # NCCL maintainer (nccl-tests #119): ~24 GB/s achievable per 200G NIC.
    assert hdr.achievable_gbs_per_nic == pytest.approx(24.0, abs=0.01)
    assert hw.get_network("eth-25").achievable_gbs_per_nic is None  # efficiency unknown stays unknown
    for n in hw.load_networks().values():
        if n.kind == "inter_node" and n.efficiency is not None:
            assert 0 < n.efficiency <= 1


# -------------------------------------------------------------------------------------- dense, not sparse


@pytest.mark.parametrize(
    "gid, sparse_bf16",
    [
        ("h100-sxm-80gb", 1979),  # H100 datasheet "BF16 1,979 TFLOPS*" (* with sparsity)
        ("h100-pcie-80gb", 1513),
        ("a100-sxm-80gb", 624),
        ("b200-180gb", 4500),
        ("rtx-a6000-48gb", 309.7),
    ],
)
def test_bf16_is_half_the_sparse_datasheet_figure(gid, sparse_bf16):
    assert hw.peak_tflops(gid, "bf16") == pytest.approx(sparse_bf16 / 2, abs=0.6)


def test_dense_headline_values():
    assert hw.get_gpu("h100-sxm-80gb").bf16_tflops == 989
    assert hw.get_gpu("h100-sxm-80gb").fp8_tflops == 1979  # 3958 sparse / 2
    # RTX 4090: FP32-accumulate dense 165.2 (FP16-accumulate would be 330.3, sparse 660.6).
    assert hw.get_gpu("rtx-4090-24gb").bf16_tflops == 165.2
    assert hw.get_gpu("rtx-4090-24gb").bf16_tflops == pytest.approx(330.3 / 2, abs=0.1)
    # H800 = H100 compute; A800 = A100 compute.
    assert hw.get_gpu("h800-sxm-80gb").bf16_tflops == hw.get_gpu("h100-sxm-80gb").bf16_tflops
    assert hw.get_gpu("a800-sxm-80gb").bf16_tflops == hw.get_gpu("a100-sxm-80gb").bf16_tflops
    # H20 ~ 15% of H100: 148 / 989.
    assert hw.get_gpu("h20-96gb").bf16_tflops / 989 == pytest.approx(0.15, abs=0.005)


def test_fp8_is_never_more_than_twice_bf16():
    """FP8 tensor rate is 2x BF16 on every part that has both; more would mean a sparse figure slipped in.

    2.5% slack: NVIDIA's own L40S datasheet rounds BF16 to 362.05 but FP8 to 733 (2.02x)."""
    for g in hw.load_gpus().values():
        if g.fp8_tflops is not None and g.bf16_tflops is not None:
            assert g.fp8_tflops <= 2.025 * g.bf16_tflops, g.id


def test_v100_has_fp16_but_no_bf16():
    v = hw.get_gpu("v100-sxm-32gb")
    assert v.bf16_tflops is None and v.fp16_tflops == 125
    assert hw.peak_tflops(v, "fp16") == 125
    assert hw.peak_tflops("v100-pcie-32gb", "fp16") == 112


def test_unknowns_stay_null():
    mlu = hw.get_gpu("mlu590")
    for attr in ("memory_gib", "mem_bw_tbs", "bf16_tflops", "fp16_tflops", "fp8_tflops", "fp32_tflops", "tdp_w",
                 "intra_node_bw_gbs"):
        assert getattr(mlu, attr) is None, attr
    assert hw.get_gpu("hygon-dcu").memory_gib is None
    assert hw.get_gpu("ascend-910c-128gb").bf16_tflops is None  # unofficial 752 vs 780: not filled
    assert hw.get_gpu("h200-nvl-141gb").bf16_tflops is None  # compute unverified
    assert hw.peak_tflops("a100-sxm-80gb", "fp8") is None  # no FP8 on Ampere; no fallback to bf16
    assert hw.peak_tflops("mlu590", "bf16") is None


def test_topology_fields():
    assert hw.get_gpu("gb200-186gb").nvlink_domain == 72
    for gid in ("h100-sxm-80gb", "h200-sxm-141gb", "a100-sxm-80gb", "b200-180gb", "mi300x-192gb"):
        assert hw.get_gpu(gid).gpus_per_node == 8
        assert hw.get_gpu(gid).nvlink_domain == 8
    assert hw.get_gpu("rtx-4090-24gb").p2p is False
    assert hw.get_gpu("h100-nvl-94gb").nvlink_domain == 2
    assert hw.get_gpu("rtx-4090-24gb").nvlink_domain == 1


@pytest.mark.skipif(not (REFERENCE / "gpu-specs.csv").exists(), reason="reference folder not present")
def test_matches_reference_csv():
    ids = {
        "H100 SXM5 80GB": "h100-sxm-80gb", "H100 PCIe 80GB": "h100-pcie-80gb", "H100 NVL 94GB": "h100-nvl-94gb",
        "H800 SXM5 80GB": "h800-sxm-80gb", "H200 SXM 141GB": "h200-sxm-141gb", "H200 NVL 141GB": "h200-nvl-141gb",
        "H20 96GB": "h20-96gb", "A100 SXM4 40GB": "a100-sxm-40gb", "A100 SXM4 80GB": "a100-sxm-80gb",
        "A100 PCIe 40GB": "a100-pcie-40gb", "A100 PCIe 80GB": "a100-pcie-80gb", "A800 SXM4 80GB": "a800-sxm-80gb",
        "A800 PCIe 80GB": "a800-pcie-80gb", "L40S": "l40s-48gb", "L40": "l40-48gb", "L20": "l20-48gb",
        "RTX A6000": "rtx-a6000-48gb", "RTX 4090": "rtx-4090-24gb", "RTX 4090D": "rtx-4090d-24gb",
        "RTX 5090": "rtx-5090-32gb", "B200 (HGX B200)": "b200-180gb", "GB200 (per Blackwell GPU)": "gb200-186gb",
        "V100 SXM2 32GB": "v100-sxm-32gb", "V100 PCIe 32GB": "v100-pcie-32gb", "MI300X": "mi300x-192gb",
        "MI250X": "mi250x-128gb", "Ascend 910B": "ascend-910b-64gb", "Ascend 910C": "ascend-910c-128gb",
        "Cambricon MLU370-X8": "mlu370-x8-48gb", "Cambricon MLU590": "mlu590",
        "Hygon DCU (Z100/K100/BW series)": "hygon-dcu",
    }
    cols = {"memory_gb": "memory_gib", "mem_bw_tbs": "mem_bw_tbs", "bf16_dense_tflops": "bf16_tflops",
            "fp8_dense_tflops": "fp8_tflops", "fp32_tflops": "fp32_tflops", "tdp_w": "tdp_w"}
    with open(REFERENCE / "gpu-specs.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(ids)
    for row in rows:
        g = hw.get_gpu(ids[row["name"]])
        for col, attr in cols.items():
            want = float(row[col]) if row[col].strip() else None
            assert getattr(g, attr) == want, (g.id, attr)
        # Link bandwidth: the CSV gives the PCIe figure for the bridged NVL cards; we store the bridge.
        if g.id not in ("h100-nvl-94gb", "h200-nvl-141gb"):
            want = float(row["interconnect_gbs"]) if row["interconnect_gbs"].strip() else None
            assert g.intra_node_bw_gbs == want, g.id


# ------------------------------------------------------------------------------------------------ lookups


def test_get_gpu_normalises_and_is_cached():
    assert hw.get_gpu(" H100-SXM-80GB ") is hw.get_gpu("h100-sxm-80gb")
    assert hw.load_gpus()["b200-180gb"] is hw.load_gpus()["b200-180gb"]


def test_get_gpu_error_suggests_close_ids():
    with pytest.raises(CatalogError) as err:
        hw.get_gpu("h100-sxm")
    msg = str(err.value)
    assert "unknown GPU 'h100-sxm'" in msg and "gpuplanner gpus" in msg
    assert "h100-sxm-80gb" in msg
    assert "\n" not in msg
    with pytest.raises(CatalogError) as err:
        hw.get_gpu("rtx4090")
    assert "rtx-4090-24gb" in str(err.value)
    assert isinstance(err.value, PlannerError)


def test_peak_tflops_rejects_unknown_precision():
    with pytest.raises(CatalogError):
        hw.peak_tflops("h100-sxm-80gb", "int4")


def test_get_network_errors():
    with pytest.raises(CatalogError) as err:
        hw.get_network("ib-ndr")
    assert "ib-ndr-400" in str(err.value)


def test_intra_node_bandwidth_is_half_of_bidirectional():
    assert hw.intra_node_bandwidth_gbs("h100-sxm-80gb") == 900 / 2
    assert hw.intra_node_bandwidth_gbs("h800-sxm-80gb") == 400 / 2
    assert hw.intra_node_bandwidth_gbs("rtx-4090-24gb") == 64 / 2
    assert hw.intra_node_bandwidth_gbs("rtx-4090-24gb", "pcie") == 32
    assert hw.intra_node_bandwidth_gbs("h100-sxm-80gb", "pcie") == 64  # Gen5 x16 128 bidir
    assert hw.intra_node_bandwidth_gbs("a100-sxm-80gb", "nvlink4") == 450
    assert hw.intra_node_bandwidth_gbs("a100-sxm-80gb", 250) == 125
    assert hw.intra_node_bandwidth_gbs("h200-nvl-141gb") is None  # bridge bandwidth unverified
    with pytest.raises(CatalogError):
        hw.intra_node_bandwidth_gbs("rtx-4090-24gb", "nvlink")
    with pytest.raises(CatalogError):
        hw.intra_node_bandwidth_gbs("h100-sxm-80gb", "ib-ndr-400")
    assert hw.intra_node_network("h800-sxm-80gb").id == "nvlink4-h800"
    assert hw.intra_node_network("a100-pcie-80gb").id == "pcie4"


# ------------------------------------------------------------------------------------------------- prices


def test_price_records_reference_known_gpus_and_derivations():
    prices = hw.load_prices()
    assert len(prices) >= 30
    gpus = hw.load_gpus()
    assert all(p.gpu in gpus and p.currency in ("CNY", "USD") for p in prices)
    # cnBeta: ~70k CNY per 8-card H100 node per month -> 8,750 per card-month (a monthly lease, not card-hours)
    h100_cny = [p for p in prices if p.gpu == "h100-sxm-80gb" and p.currency == "CNY" and "cnBeta" in p.source]
    assert len(h100_cny) == 1 and h100_cny[0].card_month * h100_cny[0].machine_gpus == 70_000
    assert (h100_cny[0].unit, h100_cny[0].mode, h100_cny[0].card_hour) == ("node_month", "monthly", None)
    # CoreWeave HGX H200 spot $20.93 per node-hour -> per GPU; its on-demand quote joins it in one offer.
    cw = [p for p in prices if p.gpu == "h200-sxm-141gb" and p.provider == "CoreWeave" and p.mode == "spot"]
    assert cw[0].spot_card_hour == pytest.approx(20.93 / 8, abs=1e-4)
    offer = [p for p in hw.load_offers() if p.gpu == "h200-sxm-141gb" and p.provider == "CoreWeave"]
    assert len(offer) == 1 and offer[0].card_hour == 6.31 and offer[0].spot_card_hour == pytest.approx(20.93 / 8)
    assert set(offer[0].modes) == {"on_demand", "spot"}


def test_price_conversion_arithmetic():
    usd = hw.Price(gpu="h100-sxm-80gb", currency="USD", region="x", provider="x", card_hour=2.5, card_week=None,
                   card_month=1000.0, spot_card_hour=None, machine_gpus=8, source="test", source_date="2026")
    cny = hw.convert_price(usd, "CNY", 7.2)
    assert cny.converted and cny.currency == "CNY" and cny.exchange_rate == 7.2
    assert cny.card_hour == pytest.approx(18.0) and cny.card_month == pytest.approx(7200.0)
    assert cny.card_week is None
    back = hw.convert_price(cny, "USD", 7.2)
    assert back.card_hour == pytest.approx(2.5)
    assert hw.convert_price(usd, "USD") is usd
    with pytest.raises(CatalogError):
        hw.convert_price(usd, "CNY", 0)
    with pytest.raises(CatalogError):
        hw.convert_price(usd, "EUR", 7.0)


def test_default_price_picks_median_and_converts():
    # B200 has USD quotes only: Akash 5.00, Lambda 6.69, CoreWeave 8.60 -> median 6.69.
    usd = hw.default_price("b200-180gb", "USD")
    assert usd.card_hour == 6.69 and not usd.converted
    # a CNY (mainland) plan never takes a converted foreign quote unless asked (issue 31)
    assert hw.default_price("b200-180gb", "CNY") is None
    cny = hw.default_price("b200-180gb", "CNY", rate_cny_per_usd=7.1, converted=True)
    assert cny.converted and cny.currency == "CNY"
    assert cny.card_hour == pytest.approx(6.69 * 7.1)
    rate = hw.exchange_rate_cny_per_usd()
    assert rate is not None and rate > 0
    assert hw.default_price("b200-180gb", "CNY", converted=True).card_hour == pytest.approx(6.69 * rate)
    # RTX 4090D has CNY quotes only (AutoDL list 2.08 CNY/card-h; the 1.14 lowest seller is a marketplace figure).
    # ... a worldwide plan does not convert it by default: the card is sold only in mainland China (market);
    # asked for (converted=True), the converted price is there
    assert hw.default_price("rtx-4090d-24gb", "USD", rate_cny_per_usd=7.0) is None
    d = hw.default_price("rtx-4090d-24gb", "USD", rate_cny_per_usd=7.0, converted=True)
    assert d.converted and d.card_hour == pytest.approx(2.08 / 7.0)
    # a card sold worldwide with mainland quotes only (RTX 4090: AutoDL list 1.98) is still converted by default
    w = hw.default_price("rtx-4090-24gb", "USD", rate_cny_per_usd=7.0)
    assert w.converted and w.card_hour == pytest.approx(1.98 / 7.0)
    assert hw.default_price("rtx-4090d-24gb", "CNY").card_hour == 2.08
    assert hw.default_price("rtx-4090d-24gb", "CNY", kinds=("marketplace",)).card_hour == 1.14
    # No quote at all: None, not an invented number.
    assert hw.default_price("mlu590", "CNY") is None
    with pytest.raises(CatalogError):
        hw.default_price("no-such-gpu", "USD")


def test_exchange_rate_derivation():
    # Implied by "H200 8-card module ~1.4M CNY (~$200k)".
    assert hw.exchange_rate_cny_per_usd() == pytest.approx(1_400_000 / 200_000)


# ---------------------------------------------------------------------------------------------- economics


def test_economics_contents():
    econ = hw.load_economics()
    tou = next(e for e in econ["electricity"] if e["id"] == "shenzhen-general-business-tou")
    assert (tou["peak"], tou["flat"], tou["valley"]) == (1.0526, 0.7001, 0.2561)
    assert tou["source_date"] == "2020-06-30"
    assert hw.economics_default("pue") == 1.3
    assert hw.economics_default("depreciation_years") == 3  # 36-month amortisation in the TCO sketch
    assert hw.economics_default("colocation_cny_per_rack_month") is None  # not found by the reference
    assert hw.economics_default("ops_staff_cny_per_month") is None
    assert hw.economics_default("spare_failure_rate") is None
    with pytest.raises(CatalogError):
        hw.economics_default("nope")
    # TCO sketch check (gpu-catalog.md §3.6's arithmetic on the 30-day month, econ17): 10.2 kW x 1.3 x 720 h x 0.7001 = ~6.7k CNY.
    dgx = next(n for n in econ["node_power"] if n["id"] == "dgx-h100")
    monthly = dgx["max_kw"] * hw.economics_default("pue") * hw.economics_default("hours_per_month") * tou["flat"]
    assert monthly == pytest.approx(6684, abs=5)
    # MFU values are fractions.
    for run in econ["mfu_runs"]:
        assert 0 < run["mfu_low"] <= run["mfu_high"] < 1, run["id"]
    llama = next(r for r in econ["mfu_runs"] if r["id"] == "llama3-405b-8k")
    assert llama["tflops_per_gpu"] / 989 == pytest.approx(llama["mfu_low"], abs=0.01)
    # load_economics returns a copy: mutation does not leak.
    econ["defaults"]["pue"]["value"] = 99
    assert hw.economics_default("pue") == 1.3


def test_core_module_imports_no_qt():
    code = ("import sys, gpuplanner.core.catalog_hw as m; m.load_gpus(); "
            "assert not any(k.split('.')[0] in ('PySide6', 'pyqtgraph') for k in sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# ---------------------------------------------------------------------------------------------------- CLI


def test_cli_json_subprocess():
    out = subprocess.run([sys.executable, "-m", "gpuplanner", "gpus", "--json"], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    recs = json.loads(out)
    assert isinstance(recs, list) and len(recs) >= 25
    by_id = {r["id"]: r for r in recs}
    assert REQUIRED_IDS <= set(by_id)
    assert by_id["h100-sxm-80gb"]["bf16_tflops"] == 989
    assert by_id["mlu590"]["memory_gib"] is None
    assert by_id["rtx-4090-24gb"]["class"] == "consumer"


def test_cli_table_says_unknown(capsys):
    assert run_cli(["gpus"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "BF16" in lines[0] and "TDP" in lines[0]
    row = next(line for line in lines if line.startswith("mlu590 "))
    # memory, BF16, mem BW, link, TDP all unknown
    assert row.count("unknown") == 5
    h100 = next(line for line in lines if line.startswith("h100-sxm-80gb "))
    assert "989" in h100 and "900" in h100 and "unknown" not in h100
    assert len([ln for ln in lines[2:] if ln.strip()]) == len(hw.load_gpus())


def test_custom_gpu_from_the_scenario_is_estimated_and_searched():
    """A GPU the catalog lacks, entered by the user, drives the estimate and the search like a catalog GPU."""
    from gpuplanner.core.errors import PlannerError
    from gpuplanner.core.estimate import estimate
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.search import search

    data = {"model": {"preset": "llama-3-8b"}, "training": {"method": "lora", "seq_len": 2048},
            "hardware": {"gpu": "custom-my-card", "num_gpus": 1, "custom_gpus": [
                {"id": "custom-my-card", "name": "My card 48G", "memory_gib": 48, "bf16_tflops": 200,
                 "mem_bw_tbs": 1.0}]},
            "constraints": {"max_gpus": 4, "gpu_candidates": ["custom-my-card"],
                            "prices": {"custom-my-card": {"card_hour": 3.0, "currency": "CNY"}}}}
    e = estimate(scenario_from_dict(data))
    assert e.memory.capacity == 48 and e.resolved.gpu.bf16_tflops == 200
    assert e.time is not None and e.time.to_json()["compute_days"] > 0
    res = search(scenario_from_dict(data), top=3)
    assert res.plans and all(p.gpu == "custom-my-card" for p in res.plans)
    assert res.plans[0].price["card_hour"] == 3.0
    bad = {**data, "hardware": {**data["hardware"], "custom_gpus": [{"id": "h100", "name": "x", "memory_gib": 1}]}}
    with pytest.raises(PlannerError, match="custom_gpus"):
        scenario_from_dict(bad)
