"""Screenshots of issue 35 round 12's new controls at 1280×800, English and Simplified Chinese (offscreen):
Megatron-SWIFT GRPO Qwen3-30B-A3B with the training model offloaded during rollouts (training.rl.offload_model),
Megatron-Core Qwen3-30B-A3B with the expert all-to-all overlap (parallel.ep_a2a_overlap) and selective recompute
modules (training.recompute_modules), and the Plans page's details of both.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r12_ux19.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r12-ux19; the integrator regenerates screenshots.)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin, wait_search  # noqa: E402

GRPO = {"model.preset": "qwen3-30b-a3b", "training.framework": "megatron-swift", "training.method": "full",
        "training.objective": "grpo", "training.seq_len": 3072, "training.micro_batch_size": 1,
        "training.global_batch_size": 256, "training.rl.group_size": 8, "training.rl.prompt_len": 1024,
        "training.rl.rollout_len": 2048, "training.rl.generation_engine": "vllm_colocated",
        "training.rl.offload_model": True, "data.tokens": 50_000_000, "hardware.gpu": "a800-sxm-80gb",
        "hardware.num_gpus": 8}
MOE = {"model.preset": "qwen3-30b-a3b", "training.framework": "megatron", "training.method": "full",
       "training.seq_len": 4096, "training.recompute": "megatron_selective",
       "training.recompute_modules": ["moe_act", "layernorm"], "parallel.auto": False, "parallel.ep": 8,
       "parallel.tp": 1, "parallel.pp": 1, "parallel.moe_dispatcher": "alltoall", "parallel.ep_a2a_overlap": True,
       "data.tokens": 1_000_000_000, "hardware.gpu": "h800-sxm-80gb", "hardware.num_gpus": 16}


def shots(app, w, name: str, suffix: str, out: Path) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.go_to(PAGE_KEYS.index("training"))
    page = w.page("training")
    spin(app, 0.5)
    w.grab().save(str(out / f"{name}-training-top{suffix}.png"))
    keys = ["rl_offload_model"] if name == "grpo" else ["ep_a2a_overlap", "recompute_modules"]
    for k in keys:
        fld = getattr(page, k, None) or page.advanced.fields[k]
        page.scroll.ensureWidgetVisible(fld, 0, 200)
        spin(app, 0.3)
        w.grab().save(str(out / f"{name}-training-{k}{suffix}.png"))


def plans(app, w, name: str, suffix: str, out: Path) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    w.go_to(PAGE_KEYS.index("plans"))
    p = w.page("plans")
    spin(app, 0.8)
    w.grab().save(str(out / f"{name}-plans{suffix}.png"))
    for anchor in ("time", "cost"):
        p.details.scrollToAnchor(anchor)
        spin(app, 0.3)
        w.grab().save(str(out / f"{name}-plans-{anchor}{suffix}.png"))
    sb = p.details.verticalScrollBar()
    p.details.scrollToAnchor("time")
    spin(app, 0.2)
    for i in range(1, 4):
        sb.setValue(sb.value() + p.details.viewport().height() - 40)
        spin(app, 0.2)
        w.grab().save(str(out / f"{name}-plans-time{i}{suffix}.png"))


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        for name, values in (("grpo", GRPO), ("moe", MOE)):
            w = open_window(app, search=True)
            errs = {k: w.model.set(k, v) for k, v in values.items()}
            print(name, lang, {k: e for k, e in errs.items() if e})
            shots(app, w, name, suffix, out)
            wait_search(app, w, 240)
            plans(app, w, name, suffix, out)
            w.model.set_dirty(False)
            w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs/screenshots/issue35-r12-ux19"))
