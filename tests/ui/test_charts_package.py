"""ui/charts/ is a package (one module per chart plus shared pieces): every import in it — the ones inside
functions too, which run only when a chart exports or is hovered — names a module and a name that exist, and the
package still exports what ``from gpuplanner.ui.charts import X`` used to find in the single module."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

CHARTS = Path(__file__).resolve().parents[2] / "gpuplanner" / "ui" / "charts"


@pytest.mark.parametrize("path", sorted(CHARTS.glob("*.py")), ids=lambda p: p.name)
def test_every_import_resolves(path):
    pkg = "gpuplanner.ui.charts"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = importlib.util.resolve_name("." * node.level + (node.module or ""), pkg) if node.level else node.module
        mod = importlib.import_module(base)
        for alias in node.names:
            if not hasattr(mod, alias.name):
                importlib.import_module(f"{base}.{alias.name}")  # a submodule (from .. import settings)


def test_the_package_exports_the_old_names():
    import gpuplanner.ui.charts as charts

    for name in ("ChartBase", "MemoryChart", "ScalingChart", "CostChart", "MemoryCountChart", "LogLineItem",
                 "StackedBarsItem", "PointsItem", "LabeledLine", "FormattedAxis", "legend_html", "gpu_ticks",
                 "nice_ceil", "snap_log_range", "configure_pyqtgraph", "_export_scale", "_scaled_pen"):
        assert hasattr(charts, name), name
    assert set(charts.__all__) <= set(dir(charts))
