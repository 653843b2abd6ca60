"""Screenshots of the Training page with DPO and GRPO and of the memory chart with a reference model, at
1280x800, English and Chinese (docs/screenshots/methods/). Run offscreen:

    QT_QPA_PLATFORM=offscreen PYTHONPATH=. python scripts/screenshots_methods.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "methods"

SCENES = {
    "training-dpo": {"model.preset": "llama-3.1-8b", "training.method": "full", "training.objective": "dpo",
                     "training.framework": "trl", "training.seq_len": 2048, "training.micro_batch_size": 2,
                     "training.recompute": "full", "parallel.auto": False, "hardware.num_gpus": 8, "parallel.zero": 3},
    "training-grpo": {"model.preset": "qwen2.5-7b", "training.method": "lora", "training.objective": "grpo",
                      "training.framework": "trl", "training.seq_len": 2048, "training.micro_batch_size": 4,
                      "training.preference.beta": 0.04, "training.rl.rollout_len": 1024,
                      "training.rl.prompt_len": 512, "training.rl.generation_engine": "vllm_colocated",
                      "training.recompute": "full", "parallel.auto": False, "hardware.num_gpus": 8,
                      "parallel.zero": 2},
}


def settle(ms: int = 400) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def main() -> int:
    from gpuplanner.ui.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv)
    OUT.mkdir(parents=True, exist_ok=True)
    for lang in ("en", "zh_CN"):
        w = MainWindow(autosave=False)
        w.resize(1280, 800)
        w.show()
        w.set_language(lang)
        for name, values in SCENES.items():
            err = w.model.set_many(values)
            if err:
                print(name, err, file=sys.stderr)
                return 1
            w.go_to(1)
            settle(1500)
            page = w.page("training")
            area = page.findChild(QScrollArea)
            if area is not None:  # show the objective's fields (the group below the batch settings)
                area.ensureWidgetVisible(page.obj_box.findChildren(QLabel)[-1], 0, 0)
                settle(300)
            suffix = "" if lang == "en" else f"-{lang}"
            w.grab().save(str(OUT / f"{name}{suffix}.png"))
            if name == "training-dpo":
                chart = w.live.memory_chart
                if chart is not None:
                    chart.grab().save(str(OUT / f"memory-chart-dpo-reference{suffix}.png"))
        w.model.set_dirty(False)
        w.search.shutdown()
        w.close()
        settle(200)
    w.set_language("en")
    QCoreApplication.processEvents()
    print("\n".join(str(p) for p in sorted(OUT.glob("*.png"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
