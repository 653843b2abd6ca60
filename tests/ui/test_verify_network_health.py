"""The Verify step's Network and Health sections and the multi-node kit export/import (issue 23)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from gpuplanner.io.scenario_files import load_scenario  # noqa: E402
from gpuplanner.ui.verify_panel import VerifyPanel  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PLAN16 = ROOT / "tests" / "data" / "net" / "plan-16x-h100.json"
NET = ROOT / "tests" / "data" / "net"
HEALTH = ROOT / "tests" / "data" / "health"
MN = ROOT / "tests" / "data" / "kit" / "multinode-socket-fallback-constructed.json"


@pytest.fixture
def panel(qtbot):
    w = VerifyPanel()
    qtbot.addWidget(w)
    s, base = load_scenario(PLAN16)
    w.set_scenario(s, base)
    return w


def test_network_section_flags_roce_against_the_plan(panel):
    assert panel.nodes_spin.value() == 2  # 16 GPUs at 8 per node
    assert panel.load_network_text((NET / "constructed-8x-roce-400-ibstat.txt").read_text())
    t = panel.net_table
    assert t.rowCount() == 8 and t.item(0, 0).text() == "mlx5_0" and t.item(0, 4).text() == "400"
    assert "RoCE" in t.item(0, 2).text()
    assert "are RoCE" in panel.net_verdict.text()
    rep = panel.network_report()
    assert rep.worst == "bad" and rep.plan.network == "ib-ndr-400"


def test_network_garbage_shows_the_line(panel):
    assert not panel.load_network_text((NET / "garbage-line3.txt").read_text())
    assert "line 3" in panel.net_verdict.text() and panel.net_table.rowCount() == 0


def test_health_section(panel):
    assert panel.load_health_text((HEALTH / "constructed-nvidia-smi-q-h100-throttled-ecc.txt").read_text())
    assert "2 cards" in panel.health_summary.text() and "535.104.05" in panel.health_summary.text()
    v = panel.health_verdict.text()
    assert "power limit 500 W" in v and v.index("power limit") < v.index("recent enough")  # problems first
    assert not panel.load_health_text("nonsense here\n")
    assert "line 1" in panel.health_verdict.text()


def test_multinode_export_and_import(panel, tmp_path):
    out = tmp_path / "kit.sh"
    panel.export_kit_file(out)
    assert "gpuplanner-kit-multinode/1" in out.read_text()
    panel.nodes_spin.setValue(1)
    panel.export_kit_file(out)
    assert "gpuplanner-kit/1" in out.read_text() and "gpuplanner-kit-multinode/1" not in out.read_text()
    assert panel.import_result_file(MN)
    assert "NET/Socket" in panel.findings_label.text()


def test_findings_are_translated(panel, qtbot):
    from PySide6.QtCore import QCoreApplication

    from gpuplanner.i18n import LanguageManager

    lm = LanguageManager(QCoreApplication.instance())
    try:
        assert lm.install("zh_CN")
        QCoreApplication.processEvents()  # the LanguageChange event reaches the panel
        panel.load_network_text((NET / "constructed-8x-roce-400-ibstat.txt").read_text())
        text = panel.net_verdict.text()
        assert "are RoCE" not in text and any("\u4e00" <= ch <= "\u9fff" for ch in text)
        assert panel.net_box.title() != "Network between nodes (ibstat / ibv_devinfo)"
    finally:
        lm.install("en")
