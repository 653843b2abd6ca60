"""Screenshots of issue 35 round 3: the Plans page (with #1's details: the step's named parts — MoE host sync,
expert all-to-all, rollouts, optimizer offload ...) and the Training page for the MoE, GRPO and 8B examples, at
1280×800 in English and Simplified Chinese (offscreen).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35.)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin  # noqa: E402

EXAMPLES = ("qwen3-moe-full-16xh100.gpuplan", "7b-grpo-lora-8xh100-vllm.json", "8b-dpo-full-8xh100-zero3.json")


def main(out: Path, width: int = 1280, height: int = 800) -> int:
    from gpuplanner.ui.app import install_message_filter
    from gpuplanner.ui.main_window import PAGE_KEYS

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        for name in EXAMPLES:
            w = open_window(app)
            w.resize(width, height)
            assert w.open_path(ROOT / "examples" / name, show_errors=False)
            t0 = time.monotonic()
            while w.search.state not in ("done", "failed") and time.monotonic() - t0 < 120:
                app.processEvents()
                time.sleep(0.01)
            spin(app, 0.5)
            for key in ("plans", "training"):
                w.go_to(PAGE_KEYS.index(key))
                spin(app, 0.8)
                w.grab().save(str(out / f"{Path(name).stem}-{key}-{lang}.png"))
            w.model.set_dirty(False)
            w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue35"))
