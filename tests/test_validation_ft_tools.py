"""Published fine-tuning tool runs (bench/validate_ft_tools.py holds the rows, their sources and ASSUMED notes).

Regression bounds on the tables the model reproduces (measured 2026-12-06 plus a margin; not targets): the Qwen
README's LoRA memory (median 6.2%), the LLaMA-Factory wiki long-context QLoRA throughput (median 5.9%), and the Unsloth
docs' "Hugging Face + FA2" maximum context on 80 GB (TRL QLoRA under prepare_model_for_kbit_training: -15%).
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path

_path = Path(__file__).resolve().parents[1] / "bench" / "validate_ft_tools.py"
_spec = importlib.util.spec_from_file_location("validate_ft_tools", _path)
FT = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = FT
_spec.loader.exec_module(FT)


def _errors(table: str, kind: str) -> list[float]:
    rows = [r for r in FT.all_rows() if r.table == table and (r.kind == "memory") == (kind == "memory")]
    assert rows
    return [FT.error(r, FT.predict(r)) for r in rows]


def test_qwen_readme_lora_memory():
    e = [abs(x) for x in _errors("qwen-readme-mem", "memory")]
    assert statistics.median(e) <= 0.10
    assert max(e) <= 0.30


def test_llamafactory_wiki_long_context_throughput():
    e = [abs(x) for x in _errors("lf-wiki-longctx", "time")]
    assert statistics.median(e) <= 0.10
    assert max(e) <= 0.30


def test_unsloth_hf_column_row():
    (e,) = _errors("unsloth-docs-hf", "memory")
    assert -0.20 <= e <= 0.05


def test_qwen_readme_zero3_multi_gpu_memory():
    # Qwen-7B full on 2 GPUs and Qwen-72B LoRA on 4 GPUs under ZeRO-3 (median 8.6% on 2026-12-06)
    e = [abs(x) for x in _errors("qwen-readme-z3-multi", "memory")]
    assert statistics.median(e) <= 0.12
    assert max(e) <= 0.25


def test_swift_benchmark_reserved_memory():
    # ms-swift Benchmark.md (max_memory_reserved, batches padded to their longest sample; issue 35 r6): median 11.1%
    # with the cached loss segments of one earlier, shorter batch (before: 27.9%). The Qwen bf16 LoRA rows at 512 to
    # 4,096 tokens stay at or below the published figure: more than one earlier batch near max_length leaves its
    # segments cached, and one is counted (memory.varlen_cache_bytes_per_logit)
    rows = [r for r in FT.all_rows() if r.table == "swift-bench-mem"]
    e = {r.id: FT.error(r, FT.predict(r)) for r in rows}
    assert statistics.median(abs(x) for x in e.values()) <= 0.14
    for size in ("1.8B", "7B", "14B"):
        for seq in (512, 1024, 2048, 4096):
            assert e[f"swift-qwen-{size}-lora-{seq}"] <= 0.0
    # the 4-bit rows (issue 35 r7: ms-swift v1's non-reentrant checkpoint and fp16 storage): none beyond 25%
    assert max(abs(e[f"swift-qwen-{size}-int4-bnb"]) for size in ("7B", "14B", "72B")) <= 0.25
