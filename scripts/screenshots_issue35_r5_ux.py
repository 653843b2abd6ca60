"""Screenshots of the issue 35 round-5 ux pass (ux5), at 1280×800 in English and Simplified Chinese (offscreen):
the live scaling chart's deadline label (tokens/s and days), the Training page's DeepSpeed ZeRO-3 collectives
control, the Data page's token total (万/亿 in Chinese), and the Plans page of a 32-node A100 plan priced from
the networked cluster lease (it rents its 32 servers together: prices.json min_nodes) (its likely range prints one cost).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r5_ux.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r5-ux.) Besides the window, the scaling chart alone is saved
(``scaling-*-chart*.png``) to look at its label closely.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin  # noqa: E402

#: 8B full fine-tuning on A100 80GB in CNY, ranked fastest: plan #1 is 32 nodes billed from the SMM cluster lease
#: (the lease rents its 32 servers together: smaller plans keep AutoDL's single machines)
A100_PLAN = {"model": {"preset": "llama-3-8b"},
             "training": {"method": "full", "precision": "bf16", "seq_len": 4096, "micro_batch_size": 1,
                          "global_batch_size": 512, "recompute": "full"},
             "parallel": {"tp": 1, "pp": 1, "zero": 3},
             "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 256, "gpus_per_node": 8},
             "data": {"tokens": "2B"},
             "constraints": {"currency": "CNY", "gpu_candidates": ["a100-sxm-80gb"], "max_gpus": 256,
                             "objective": "fastest"}}
SCALING_EXAMPLES = ("llama3-70b-pretrain-64xh800-tp8pp4.json", "llama3-8b-full-8xh100-zero3.json",
                    "mixtral-8x7b-ep8-16xa800.json")


def _wait_search(app, w, seconds: float = 120.0) -> None:
    import time

    t0 = time.monotonic()
    spin(app, 0.3)
    while w.search.state not in ("done", "failed") and time.monotonic() - t0 < seconds:
        app.processEvents()
        time.sleep(0.01)
    spin(app, 0.8)


def _scaling(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    for name in SCALING_EXAMPLES:
        assert w.open_path(ROOT / "examples" / name, show_errors=False), name
        _wait_search(app, w)
        w.go_to(PAGE_KEYS.index("training"))
        chart = w.live.scaling_chart
        stem = Path(name).stem
        for i, mode in enumerate(("tokens", "days")):
            chart.mode.setCurrentIndex(i)
            spin(app, 0.8)
            w.grab().save(str(out / f"scaling-{stem}-{mode}{suffix}.png"))
            chart.grab().save(str(out / f"scaling-{stem}-{mode}-chart{suffix}.png"))
        chart.mode.setCurrentIndex(0)
        w.model.set_dirty(False)


def _training_and_data(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    assert w.open_path(ROOT / "examples" / "llama3-70b-pretrain-64xh800-tp8pp4.json", show_errors=False)
    _wait_search(app, w)
    w.go_to(PAGE_KEYS.index("data"))
    spin(app, 0.6)
    w.grab().save(str(out / f"data-tokens{suffix}.png"))
    w.model.set_dirty(False)
    assert w.open_path(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json", show_errors=False)
    _wait_search(app, w)
    w.model.set("parallel.auto", False)
    w.model.set("training.framework", "deepspeed")
    w.model.set("parallel.zero", 3)
    w.go_to(PAGE_KEYS.index("training"))
    page = w.page("training")
    adv = page.advanced
    field = adv.fields["ds_zero3_gather"]
    spin(app, 0.4)
    scroll = page.findChild(__import__("PySide6.QtWidgets", fromlist=["QScrollArea"]).QScrollArea)
    if scroll is not None:
        scroll.ensureWidgetVisible(field, 0, 120)
    field.setCurrentIndex(field.findData("list"))
    field.activated.emit(field.currentIndex())
    spin(app, 0.6)
    w.grab().save(str(out / f"training-zero3-gather{suffix}.png"))
    w.model.set_dirty(False)


def _plans(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "a100-32-nodes.json"
        f.write_text(json.dumps(A100_PLAN), encoding="utf-8")
        assert w.open_path(f, show_errors=False)
        _wait_search(app, w)
    w.go_to(PAGE_KEYS.index("plans"))
    page = w.page("plans")
    if page.table_model.rowCount() > 0:
        page.view.selectRow(0)
    spin(app, 0.6)
    w.grab().save(str(out / f"plans-a100-networked{suffix}.png"))
    page.details.find(page.tr("Likely range"))
    bar = page.details.verticalScrollBar()
    bar.setValue(bar.value() + page.details.cursorRect().top() - 8)
    spin(app, 0.3)
    w.grab().save(str(out / f"plans-a100-networked-range{suffix}.png"))
    page.details.moveCursor(page.details.textCursor().MoveOperation.Start)
    page.details.find(page.tr("Priced from: {0} · region {1} · {2}, {3}").split("{0}")[0])  # the offer that billed it
    bar.setValue(bar.value() + page.details.cursorRect().top() - 120)
    spin(app, 0.3)
    w.grab().save(str(out / f"plans-a100-networked-offer{suffix}.png"))
    w.model.set_dirty(False)


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app)
        if "--plans-only" not in sys.argv:
            _scaling(app, w, out, suffix)
            _training_and_data(app, w, out, suffix)
        _plans(app, w, out, suffix)
        w.model.set_dirty(False)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    sys.exit(main(Path(args[0]) if args else ROOT / "docs" / "screenshots" / "issue35-r5-ux"))
