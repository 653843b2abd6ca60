"""Published peak-memory figures of pretraining runs outside the shared calibration set (torchtitan), as scenarios.

Each row: (family, row id, scenario, published GiB, source). Every figure is torchtitan's logged memory, which
reads ``torch.cuda.max_memory_reserved`` (torchtitan ``metrics.py``/``DeviceMemoryMonitor``: "memory:
{max_reserved_gib}GiB"), so the core's reserved figure is compared. Imported by bench/validate_memory.py.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path


def _validate_time():
    """bench/validate_time.py (its ``_tt`` scenario builder and the December 2024 torchtitan table)."""
    name = "validate_time_for_memory"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("validate_time.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def rows() -> list[tuple[str, str, dict, float, str]]:
    vt = _validate_time()
    tt, f8 = vt._tt, vt._F8
    out = []
    src = ("pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md (torchtitan 9dec370, torch 1963fc8; "
           "96 GB H100s; max over all ranks)")
    for label, sc, _tps, gib, _bt, _bg in vt.TORCHTITAN_SANITY:
        out.append(("torchtitan Dec 2024 table", label, sc, gib, src))
    src = "torchtitan 7a04053 float8 docs (docs/float8.md, Jan 2025): Llama 3 8B, 8 H100, per-op SAC, batch 1 × 8192"
    out.append(("torchtitan 7a04053 (8B, 8 H100)", "7a04053 8B BF16", tt("llama-3.1-8b", 8, 8192, 1), 47.65, src))
    out.append(("torchtitan 7a04053 (8B, 8 H100)", "7a04053 8B FP8 tensorwise + FP8 all-gather",
                tt("llama-3.1-8b", 8, 8192, 1, precision=f8, fp8_all_gather=True), 47.32, src))
    # e7c0cae (June 2025) and 6fc499f (Aug 2025) compile the loss with the model (compile_loss: torchtitan's default)
    src = ("pytorch/torchtitan benchmarks/llama3-8b_h200_202506_trainy-whitefiber.md (torchtitan e7c0cae): local "
           "batch 2 × 8192, compile, float8 tensorwise with FP8 all-gather, per-op SAC (llama3_8b.toml)")
    for n, gib in ((32, 47.96), (64, 46.97)):
        sc = tt("llama-3.1-8b", n, 8192, 2, mbs=2, precision=f8, fp8_all_gather=True, compile_loss=None)
        sc["hardware"]["gpu"] = "h200-sxm-141gb"
        out.append(("torchtitan Trainy H200 (Jun 2025)", f"Trainy 8B {n} H200 FP8", sc, gib, src))
    src = ("pytorch/ao torchao/prototype/mx_formats/README.md, 'Training e2e benchmarks on NVIDIA B200' (torchtitan "
           "6fc499f, Aug 2025; also torchtitan mxfp8 docs): Llama 3 8B, 8 B200, batch 1 × 8192, compile, FSDP2, "
           "per-op SAC; 'Peak Memory (GB)' as torchtitan logs it (GiB)")
    for label, prec, extra, gib in (("bf16", "bf16", {}, 33.71),
                                    ("FP8 tensorwise + FP8 all-gather", f8, {"fp8_all_gather": True}, 33.38),
                                    ("FP8 rowwise", "fp8_rowwise", {}, 33.72)):
        sc = tt("llama-3.1-8b", 8, 8192, 1, precision=prec, compile_loss=None, **extra)
        sc["hardware"]["gpu"] = "b200-180gb"
        out.append(("torchao B200 (torchtitan Aug 2025)", f"B200 8B {label}", sc, gib, src))
    return out
