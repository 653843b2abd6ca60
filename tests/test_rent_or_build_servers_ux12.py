"""ux12: the rent-or-build line of a 4-GPU plan read "1 server with 8 GPUs each" (review ux11, PDF and Project
page). Building buys an SXM board whole (cost.default_build_inputs), so the line names the one 8-GPU server and
says how many of its GPUs the plan uses; a plan that fills its servers reads as before."""

from __future__ import annotations

import json

from gpuplanner.cli import run_cli
from gpuplanner.core.cost import BuildInputs, rent_vs_build


def _scenario(tmp_path, gpus):
    scn = {"model": {"preset": "llama-3-8b"}, "training": {"method": "full", "seq_len": 4096, "global_batch_size": 128},
           "parallel": {"zero": 3}, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": gpus, "gpus_per_node": 8},
           "data": {"tokens": "200M"}, "constraints": {"currency": "CNY"}}
    f = tmp_path / f"s{gpus}.json"
    f.write_text(json.dumps(scn), encoding="utf-8")
    return f


def _sentence(machines, gpus_per_machine, plan_gpus):
    b = BuildInputs(machines=machines, gpus_per_machine=gpus_per_machine, machine_price=2_000_000.0, currency="CNY")
    return rent_vs_build(b, rent_total=10_000.0, busy_hours=24.0, horizon_months=0.05, plan_gpus=plan_gpus).sentence


def test_a_part_server_plan_says_what_it_uses():
    text = _sentence(1, 8, 4).render()
    assert "one 8-GPU server (the plan uses 4 of its GPUs)" in text, text
    assert "each" not in text, text
    assert "1 server with 8 GPUs each" not in _sentence(1, 8, 8).render()
    # a 1.5-day job is no build decision (ux25): the servers named as what the job is no reason to buy
    assert "no reason to buy one 8-GPU server (¥2,000,000)" in _sentence(1, 8, 8).render()
    assert "no reason to buy 2 servers with 8 GPUs each (¥4,000,000)" in _sentence(2, 8, 16).render()
    assert "2 servers with 8 GPUs each (the plan uses 12 of their GPUs)" in _sentence(2, 8, 12).render()


def test_the_cli_line_in_both_languages(tmp_path, capsys):
    f = _scenario(tmp_path, 4)
    assert run_cli(["estimate", str(f), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "one 8-GPU server (the plan uses 4 of its GPUs)" in out and "1 server with 8 GPUs each" not in out, out
    assert run_cli(["estimate", str(f), "--lang", "zh_CN"]) == 0
    out = capsys.readouterr().out
    assert "1 台 8 卡服务器（方案只用其中 4 张卡）" in out, out
    assert "server" not in out.split("1 台 8 卡服务器")[0][-40:]
