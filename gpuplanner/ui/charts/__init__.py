"""Live charts (pyqtgraph), one module per chart plus the shared pieces.

Items are created once and updated in place with ``setOpts``/``setData`` (about twice as fast as
clearing and re-adding, and it keeps the legend and the user's zoom; qt-app-engineering notes §C1).
Hovering shows the values under the cursor; every chart exports as PNG (``ImageExporter``; SVG is
broken in pyqtgraph 0.14.0, notes §C2).

- ``axes``: colours, tick arithmetic, the formatted axis, pyqtgraph's configuration, export scaling;
- ``legend``: the legends' HTML; ``items``: the light drawing items; ``base``: ``ChartBase``, labelled lines;
- ``memory``, ``scaling``, ``cost``, ``memory_count``: one chart each, reading its series from the
  Evaluation (the live one, the sweep's, the ranked plans').

``from gpuplanner.ui.charts import X`` keeps working: every name is re-exported here.
"""

from __future__ import annotations

from .axes import SERIES_COLORS, LINK_COLORS, RED, short_num, gpu_ticks, LOG_RANGE_STEP, NICE_STEPS, nice_ceil, snap_log_range, log_ticks, FormattedAxis, configure_pyqtgraph, set_ticks, set_axis_label, _set_line_label, _export_scale, _scaled_pen  # noqa: F401
from .legend import unbreakable, legend_html  # noqa: F401
from .items import _LightItem, LogLineItem, StackedBarsItem, PointsItem  # noqa: F401
from .base import _follow_while_shown, LabeledLine, _HoverPoint, _once, ChartBase  # noqa: F401
from .memory import fmt_gib, MemoryChart  # noqa: F401
from .scaling import ScalingChart  # noqa: F401
from .cost import CostChart  # noqa: F401
from .memory_count import CARD_COLORS, MemoryCountChart  # noqa: F401

__all__ = ['SERIES_COLORS', 'LINK_COLORS', 'RED', 'short_num', 'gpu_ticks', 'LOG_RANGE_STEP', 'NICE_STEPS', 'nice_ceil', 'snap_log_range', 'log_ticks', 'FormattedAxis', 'configure_pyqtgraph', 'set_ticks', 'set_axis_label', '_set_line_label', '_export_scale', '_scaled_pen', 'unbreakable', 'legend_html', '_LightItem', 'LogLineItem', 'StackedBarsItem', 'PointsItem', '_follow_while_shown', 'LabeledLine', '_HoverPoint', '_once', 'ChartBase', 'fmt_gib', 'MemoryChart', 'ScalingChart', 'CostChart', 'CARD_COLORS', 'MemoryCountChart']
