"""Screenshots for issue 19 ("Chinese end to end, charts that read at a glance"): every wizard page in English
and Simplified Chinese at 1280×800 (offscreen), the Hardware page scrolled to the memory-against-GPU-count
chart, the Verify page before any import, and the PDF report's pages of each example in both languages.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue19.py [OUT_DIR] [--no-pdf]
(OUT_DIR defaults to docs/screenshots/issue19; the PDF pages need poppler's ``pdftoppm``.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("GPUPLANNER_CONFIG_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-"))
# the translations compiled from this checkout's .ts (not a .qm another checkout left in the user cache)
os.environ.setdefault("GPUPLANNER_CACHE_DIR", tempfile.mkdtemp(prefix="gpuplanner-shots-cache-"))

ROOT = Path(__file__).resolve().parents[1]
PDF_EXAMPLES = ("70b-cpt-64xh100.gpuplan", "7b-lora-1x4090.gpuplan")


def pages(out: Path) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    app = qt_app()
    for lang in each_language(app):
        d = out / lang
        d.mkdir(parents=True, exist_ok=True)
        w = open_window(app)
        for i in range(w.sidebar.count()):
            try:
                w.go_to(i)
            except Exception as err:  # noqa: BLE001 - a broken page is reported, the others still shot
                print(f"page {i + 1}: {type(err).__name__}: {err}", file=sys.stderr)
            page = w.stack.currentWidget()
            view = getattr(page, "view", None)
            if view is not None and hasattr(view, "selectRow") and view.model() is not None \
                    and view.model().rowCount():
                view.selectRow(0)
            spin(app, 0.15)
            key = PAGE_KEYS[i] if i < len(PAGE_KEYS) else f"page{i + 1}"
            w.grab().save(str(d / f"{i + 1}-{key}.png"))
            chart = getattr(page, "count_chart", None)
            if chart is not None and hasattr(page, "scroll"):
                page.scroll.ensureWidgetVisible(chart, 0, 0)
                spin(app, 0.15)
                w.grab().save(str(d / f"{i + 1}-{key}-memory-by-count.png"))
                page.scroll.verticalScrollBar().setValue(0)
        verify_shots(app, w, d)
        w.model.set_dirty(False)
        w.search.shutdown()
        w.close()
        w.deleteLater()
        spin(app, 0.1)


def verify_shots(app, w, d: Path) -> None:
    """The Verify page: the kit section before any import (its empty state), then fed with the test samples
    (topology, network, health, a two-node kit result): the findings in the UI language."""
    data = ROOT / "tests" / "data"
    w.go_to(6)
    page = w.stack.currentWidget()
    panel = page.panel
    spin(app, 0.1)
    page.scroll.ensureWidgetVisible(panel.scaling_empty, 0, 40)
    spin(app, 0.15)
    w.grab().save(str(d / "7-verify-kit-before-import.png"))
    panel.load_topology_text((data / "topo" / "8gpu-two-nvlink-islands.txt").read_text())
    panel.load_network_text((data / "net" / "constructed-8x-ndr-one-down-ibstat.txt").read_text())
    panel.load_health_text((data / "health" / "constructed-nvidia-smi-q-h100-throttled-ecc.txt").read_text())
    panel.import_result_file(data / "kit" / "multinode-2x8-h100-ib-constructed.json")
    spin(app, 0.2)
    page.scroll.ensureWidgetVisible(panel.topo_verdict, 0, 40)
    spin(app, 0.15)
    w.grab().save(str(d / "7-verify-topology-findings.png"))
    page.scroll.ensureWidgetVisible(panel.net_verdict, 0, 40)
    spin(app, 0.15)
    w.grab().save(str(d / "7-verify-network-health-findings.png"))
    page.scroll.ensureWidgetVisible(panel.findings_label, 0, 40)
    spin(app, 0.15)
    w.grab().save(str(d / "7-verify-kit-findings.png"))
    page.scroll.ensureWidgetVisible(panel.scaling_legend, 0, 10)
    spin(app, 0.15)
    w.grab().save(str(d / "7-verify-kit-scaling.png"))


def pdfs(out: Path) -> None:
    if not shutil.which("pdftoppm"):
        print("pdftoppm not found: PDF pages skipped", file=sys.stderr)
        return
    for lang in ("en", "zh_CN"):
        d = out / lang / "report"
        d.mkdir(parents=True, exist_ok=True)
        for ex in PDF_EXAMPLES:
            stem = Path(ex).stem
            pdf = d / f"{stem}.pdf"
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            subprocess.run([sys.executable, "-m", "gpuplanner", "report", str(ROOT / "examples" / ex), "-o", str(pdf),
                            "--lang", lang], check=True, env=env)
            subprocess.run(["pdftoppm", "-r", "70", "-png", str(pdf), str(d / stem)], check=True)
            pdf.unlink()


sys.path.insert(0, str(Path(__file__).resolve().parent))
from _screens import each_language, open_window, qt_app, spin  # noqa: E402


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    out = Path(args[0]) if args else ROOT / "docs" / "screenshots" / "issue19"
    pages(out)
    if "--no-pdf" not in argv:
        pdfs(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
