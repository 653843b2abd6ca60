"""Megatron-Bridge / NeMo published dense pre-training rows against the time model (out of sample).

Usage: python bench/validate_bridge_dense.py

Every dense pre-training row of NVIDIA's public performance tables whose system the catalogue has (DGX-H100,
DGX-B200, DGX-GB200; GB300/B300 are not in the catalogue) and whose precision the model can represent (BF16,
FP8 delayed scaling, FP8 current scaling, MXFP8; NVFP4 rows are left out), entered the way a user would fill the
scenario: framework ``megatron``, the table's GPUs, GBS, MBS, sequence, TP/PP/CP/VP, Megatron FSDP (``zero 3``)
where the FSDP column says so, else the distributed optimizer (``zero 1``); sequence parallelism with TP > 1;
the overlaps at the framework's defaults, which are what the recipes set (``core/overlap.py``). Nothing here is
fitted: the rows are not in the shared calibration set.

Sources (tables read with ``git show``):

* Megatron-Bridge ``docs/performance-summary.md`` at fa0315ae2 (25.09), 97ad8cc6f (25.11), c0b9a0003 (26.02),
  74695a06d (26.04), 21d102f5e (26.04.01), 8f341b04f (26.06), and ``docs/performance-summary-archive.md`` at
  067f987df (every release, 25.09–26.06.01), github.com/NVIDIA-NeMo/Megatron-Bridge.
* NeMo 24.07: github.com/NVIDIA/NeMo ``docs/source/performance/performance_summary.md`` at 8e3d65dcfe (DGX-H100,
  FP8; NeMo's default FP8 recipe of the time, Transformer Engine delayed scaling).
* NeMo 25.02 (DGX-B200), 25.04 and 25.07 (DGX-GB200): docs.nvidia.com/nemo-framework/user-guide/latest/
  performance/performance_summary.html and archive/25.04-performance-summary.html ("per-tensor FP8 quantization
  … scaling factors computed in the current step" for 25.04 and 25.07; 25.02 says FP8 only: entered as delayed
  scaling, Megatron-Core's default then).

Precision codes: ``cs`` FP8 current scaling (``te_current``), ``ds`` FP8 delayed scaling (``te_delayed``),
``mx`` MXFP8 (``te_mxfp8``: Blackwell 1×32 block scaling), ``bf16``. The 25.09 table has no precision column;
its numbers match 25.11's FP8-CS (plain) and FP8-MX (parentheses) figures and are entered so.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gpuplanner.core.errors import ScenarioError  # noqa: E402
from gpuplanner.core.estimate import resolve  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402
from gpuplanner.core.timing import time_estimate  # noqa: E402

GPU = {"H100": "h100-sxm-80gb", "B200": "b200-180gb", "GB200": "gb200-186gb"}
#: ``--compat``: enter the rows as the model before issue 35 round 4 could (for the before/after figures)
COMPAT = "--compat" in sys.argv
#: ``--compat7``: the fine-tuning rows as entered before issue 35 round 7 (no packing), for the before figures
COMPAT7 = "--compat7" in sys.argv
#: SQuAD's mean sample length in tokens (ASSUMED 256; derivation in bench/validate_nemo_finetune.py)
SQUAD_MEAN_TOKENS = 256
#: NeMo 24.07 SFT virtual stages (NeMo-Framework-Launcher ``examples/peft/llama/h100/13b_1node.sh``, ``70b_2node.sh``
#: at 97f45c18; the published table lists no VP column)
NEMO2407_SFT_VP = {("llama-2-13b", "full"): 10, ("llama-2-70b", "full"): 20}

#: Nemotron-4 (NeMo ``collections/llm/gpt/model/nemotron.py``: ``Nemotron4Config15B`` / ``Nemotron4Config340B``;
#: squared-ReLU MLP without gate, LayerNorm, untied embeddings, vocabulary 256,000 — Parmar et al. 2024,
#: arXiv:2402.16819 §2). The squared ReLU is entered as a plain (ungated) two-matrix MLP: the same GEMM shapes, with
#: ``hidden_act: relu2`` (HF's name for squared ReLU) (NeMo's ``NemotronConfig.activation_func``, every Nemotron-3/4 size; run eagerly:
#: ``timing.SQRELU_FWD_ELEMS``); ``--compat`` / ``--compat5`` leave it out (the model before issue 35 round 5).
_NEMOTRON = {"gated_mlp": False, "vocab_size": 256000, "tie_word_embeddings": False, "norm_type": "layernorm",
             **({} if COMPAT or "--compat5" in sys.argv else {"hidden_act": "relu2"})}
NEMOTRON4_15B = {"name": "Nemotron-4 15B", "hidden_size": 6144, "num_hidden_layers": 32, "num_attention_heads": 48,
                 "num_key_value_heads": 8, "intermediate_size": 24576, **_NEMOTRON}
NEMOTRON4_340B = {"name": "Nemotron-4 340B", "hidden_size": 18432, "num_hidden_layers": 96,
                  "num_attention_heads": 96, "num_key_value_heads": 8, "intermediate_size": 73728, **_NEMOTRON}
#: NeMo's Nemotron-3 8B / 22B (``Nemotron3Config8B`` / ``Nemotron3Config22B``: multi-head attention)
NEMOTRON3_8B = {"name": "Nemotron-3 8B", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
                "num_key_value_heads": 32, "intermediate_size": 16384, **_NEMOTRON}
NEMOTRON3_22B = {"name": "Nemotron-3 22B", "hidden_size": 6144, "num_hidden_layers": 40, "num_attention_heads": 48,
                 "num_key_value_heads": 48, "intermediate_size": 24576, **_NEMOTRON}
#: NeMo GPT-3 5B / 20B (``collections/llm/gpt/model/base.py``: ``GPTConfig5B``: 24 layers, 4096, 32 heads, FFN
#: 16384; ``GPTConfig20B``: 44, 6144, 48, 24576), GeLU MLP, GPT-2 vocabulary
_GPT = {"gated_mlp": False, "vocab_size": 50257, "tie_word_embeddings": True, "norm_type": "layernorm",
        "position_embedding": "learned", "attention_bias": True, "mlp_bias": True}
GPT3_5B = {"name": "NeMo GPT-3 5B", "hidden_size": 4096, "num_hidden_layers": 24, "num_attention_heads": 32,
           "num_key_value_heads": 32, "intermediate_size": 16384, **_GPT}
GPT3_20B = {"name": "NeMo GPT-3 20B", "hidden_size": 6144, "num_hidden_layers": 44, "num_attention_heads": 48,
            "num_key_value_heads": 48, "intermediate_size": 24576, **_GPT}
MODELS = {"nemotron4-15b": NEMOTRON4_15B, "nemotron4-340b": NEMOTRON4_340B, "nemotron3-8b": NEMOTRON3_8B,
          "nemotron3-22b": NEMOTRON3_22B, "gpt3-5b": GPT3_5B, "gpt3-20b": GPT3_20B}

#: (source, system, model, precision, GPUs, GBS, MBS, sequence, FSDP, TP, PP, CP, VP, published tok/s/GPU)
B, N = "Bridge", "NeMo"
ROWS = [
    # Megatron-Bridge 25.09 (no precision column: FP8-CS, parentheses FP8-MX)
    (f"{B} 25.09", "GB200", "llama-3-8b", "cs", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 31357),
    (f"{B} 25.09", "GB200", "llama-3-8b", "mx", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 29925),
    (f"{B} 25.09", "GB200", "llama-3-70b", "cs", 64, 128, 2, 8192, 1, 1, 1, 1, 1, 3986),
    (f"{B} 25.09", "GB200", "llama-3-70b", "mx", 64, 128, 2, 8192, 0, 2, 4, 1, 5, 3546),
    (f"{B} 25.09", "GB200", "llama-3.1-405b", "cs", 128, 64, 1, 8192, 1, 2, 1, 1, 1, 729),
    (f"{B} 25.09", "GB200", "llama-3.1-405b", "mx", 128, 64, 1, 8192, 0, 4, 8, 2, 8, 578),
    (f"{B} 25.09", "B200", "llama-3-8b", "cs", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 29994),
    (f"{B} 25.09", "B200", "llama-3-8b", "mx", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 29388),
    (f"{B} 25.09", "B200", "llama-3.1-405b", "cs", 128, 64, 1, 8192, 0, 4, 8, 2, 8, 664),
    (f"{B} 25.09", "B200", "llama-3.1-405b", "mx", 128, 64, 1, 8192, 0, 4, 8, 2, 8, 622),
    (f"{B} 25.09", "H100", "llama-3-8b", "cs", 8, 128, 1, 8192, 1, 1, 1, 1, 1, 14079),
    (f"{B} 25.09", "H100", "llama-3-70b", "cs", 64, 128, 1, 8192, 0, 4, 8, 1, 5, 1619),
    (f"{B} 25.09", "H100", "llama-3.1-405b", "cs", 1024, 512, 1, 8192, 0, 8, 8, 2, 8, 302),
    # 25.11
    (f"{B} 25.11", "GB200", "llama-3-8b", "cs", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 31508),
    (f"{B} 25.11", "GB200", "llama-3-8b", "mx", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 29789),
    (f"{B} 25.11", "GB200", "llama-3-70b", "cs", 64, 256, 2, 8192, 1, 1, 1, 1, 1, 4312),
    (f"{B} 25.11", "GB200", "llama-3.1-405b", "cs", 256, 1536, 1, 8192, 0, 4, 16, 1, 4, 813),
    (f"{B} 25.11", "B200", "llama-3-8b", "cs", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 30624),
    (f"{B} 25.11", "B200", "llama-3-8b", "mx", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 29521),
    (f"{B} 25.11", "B200", "llama-3.1-405b", "cs", 128, 64, 1, 8192, 0, 4, 8, 2, 8, 661),
    (f"{B} 25.11", "B200", "llama-3.1-405b", "mx", 128, 64, 1, 8192, 0, 4, 8, 2, 8, 624),
    (f"{B} 25.11", "H100", "llama-3-8b", "cs", 8, 128, 1, 8192, 1, 1, 1, 1, 1, 14451),
    (f"{B} 25.11", "H100", "llama-3-70b", "cs", 64, 128, 1, 8192, 0, 4, 8, 1, 5, 1602),
    (f"{B} 25.11", "H100", "llama-3.1-405b", "cs", 1024, 512, 1, 8192, 0, 8, 8, 2, 8, 292),
    # 26.02 ("FP8" = current scaling, the recipes' ``fp8_cs``)
    (f"{B} 26.02", "GB200", "llama-3-70b", "cs", 64, 256, 2, 8192, 1, 1, 1, 1, 1, 4040),
    (f"{B} 26.02", "GB200", "llama-3-70b", "mx", 64, 256, 1, 8192, 0, 2, 4, 1, 5, 3613),
    (f"{B} 26.02", "GB200", "llama-3.1-405b", "cs", 256, 1536, 1, 8192, 0, 4, 16, 1, 4, 793),
    (f"{B} 26.02", "GB200", "llama-3.1-405b", "mx", 256, 1536, 1, 8192, 0, 4, 16, 1, 8, 786),
    (f"{B} 26.02", "H100", "llama-3-70b", "cs", 64, 256, 1, 8192, 0, 4, 8, 1, 5, 1621),
    (f"{B} 26.02", "H100", "llama-3.1-405b", "cs", 1024, 1536, 1, 8192, 0, 8, 8, 2, 8, 311),
    # 26.02.01
    (f"{B} 26.02.01", "GB200", "llama-3-70b", "cs", 64, 256, 2, 8192, 1, 1, 1, 1, 1, 4357),
    (f"{B} 26.02.01", "GB200", "llama-3-70b", "mx", 64, 256, 1, 8192, 0, 2, 4, 1, 5, 3837),
    (f"{B} 26.02.01", "GB200", "llama-3.1-405b", "cs", 256, 1536, 1, 8192, 0, 4, 16, 1, 4, 818),
    (f"{B} 26.02.01", "GB200", "llama-3.1-405b", "mx", 256, 1536, 1, 8192, 0, 4, 16, 1, 8, 775),
    (f"{B} 26.02.01", "H100", "llama-3-70b", "cs", 64, 256, 1, 8192, 0, 4, 8, 1, 5, 1639),
    # 26.04
    (f"{B} 26.04", "GB200", "llama-3-70b", "mx", 64, 256, 1, 8192, 0, 2, 4, 1, 5, 3828),
    (f"{B} 26.04", "GB200", "llama-3-70b", "cs", 64, 256, 2, 8192, 1, 1, 1, 1, 1, 4143),
    (f"{B} 26.04", "GB200", "llama-3.1-405b", "mx", 256, 1536, 1, 8192, 0, 4, 16, 1, 8, 793),
    (f"{B} 26.04", "GB200", "llama-3.1-405b", "cs", 256, 1536, 1, 8192, 0, 4, 16, 1, 4, 842),
    (f"{B} 26.04", "H100", "llama-3-70b", "cs", 64, 256, 1, 8192, 0, 4, 8, 1, 5, 1633),
    # 26.04.01
    (f"{B} 26.04.01", "GB200", "llama-3-70b", "cs", 64, 256, 2, 8192, 1, 1, 1, 1, 1, 4224),
    (f"{B} 26.04.01", "GB200", "llama-3-70b", "mx", 64, 256, 1, 8192, 0, 2, 4, 1, 5, 3712),
    (f"{B} 26.04.01", "GB200", "llama-3.1-405b", "cs", 256, 1536, 1, 8192, 0, 4, 16, 1, 4, 864),
    (f"{B} 26.04.01", "GB200", "llama-3.1-405b", "mx", 256, 1536, 1, 8192, 0, 4, 16, 1, 8, 800),
    (f"{B} 26.04.01", "H100", "llama-3-70b", "cs", 64, 256, 1, 8192, 0, 4, 8, 1, 5, 1664),
    (f"{B} 26.04.01", "H100", "llama-3.1-405b", "cs", 1024, 1536, 1, 8192, 0, 8, 8, 2, 8, 328),
    # 26.06
    (f"{B} 26.06", "GB200", "llama-3.1-405b", "cs", 256, 1536, 1, 8192, 0, 4, 16, 1, 4, 843),
    (f"{B} 26.06", "GB200", "llama-3.1-405b", "mx", 256, 1536, 1, 8192, 0, 4, 16, 1, 8, 783),
    (f"{B} 26.06", "H100", "llama-3.1-405b", "cs", 1024, 1536, 1, 8192, 0, 8, 8, 2, 8, 326),
    # NeMo 24.07, DGX-H100, FP8 (delayed scaling)
    (f"{N} 24.07", "H100", "gpt3-5b", "ds", 64, 2048, 4, 2048, 0, 1, 1, 1, 1, 23406),
    (f"{N} 24.07", "H100", "gpt3-20b", "ds", 64, 256, 2, 2048, 0, 2, 1, 1, 1, 5851),
    (f"{N} 24.07", "H100", "gpt3-175b", "ds", 128, 256, 1, 2048, 0, 4, 8, 1, 6, 716),
    (f"{N} 24.07", "H100", "gpt3-175b", "ds", 512, 2048, 2, 2048, 0, 4, 8, 1, 6, 825),
    (f"{N} 24.07", "H100", "llama-2-7b", "ds", 8, 128, 1, 4096, 0, 1, 1, 1, 1, 16934),
    (f"{N} 24.07", "H100", "llama-2-13b", "ds", 16, 128, 1, 4096, 0, 1, 4, 1, 10, 8715),
    (f"{N} 24.07", "H100", "llama-2-70b", "ds", 64, 128, 1, 4096, 0, 4, 4, 1, 20, 1728),
    (f"{N} 24.07", "H100", "nemotron3-8b", "ds", 64, 256, 4, 4096, 0, 2, 1, 1, 1, 12507),
    (f"{N} 24.07", "H100", "nemotron3-22b", "ds", 64, 256, 2, 4096, 0, 2, 4, 1, 10, 4312),
    (f"{N} 24.07", "H100", "nemotron4-340b", "ds", 128, 32, 1, 4096, 0, 8, 8, 1, 12, 326),
    (f"{N} 24.07", "H100", "llama-3-8b", "ds", 8, 128, 1, 8192, 0, 1, 1, 2, 1, 12273),
    (f"{N} 24.07", "H100", "llama-3-70b", "ds", 64, 128, 1, 8192, 0, 4, 4, 2, 5, 1524),
    # NeMo 25.02, DGX-B200, FP8
    (f"{N} 25.02", "B200", "gpt3-175b", "ds", 512, 2048, 2, 2048, 0, 4, 4, 1, 6, 1600),
    (f"{N} 25.02", "B200", "llama-3-8b", "ds", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 26006),
    (f"{N} 25.02", "B200", "llama-3-70b", "ds", 64, 128, 1, 8192, 0, 2, 4, 2, 5, 3062),
    (f"{N} 25.02", "B200", "llama-3.1-405b", "ds", 128, 64, 1, 8192, 0, 4, 8, 2, 8, 625),
    (f"{N} 25.02", "B200", "nemotron4-15b", "ds", 64, 256, 2, 4096, 0, 1, 1, 1, 1, 14760),
    (f"{N} 25.02", "B200", "nemotron4-340b", "ds", 128, 32, 1, 4096, 0, 8, 4, 1, 12, 602),
    # NeMo 25.04, DGX-GB200, FP8 current scaling
    (f"{N} 25.04", "GB200", "gpt3-175b", "cs", 128, 256, 2, 2048, 0, 4, 4, 1, 12, 1804),
    (f"{N} 25.04", "GB200", "llama-3-8b", "cs", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 33099),
    (f"{N} 25.04", "GB200", "llama-3-70b", "cs", 64, 128, 1, 8192, 1, 1, 1, 1, 1, 4035),
    (f"{N} 25.04", "GB200", "llama-3.1-405b", "cs", 128, 64, 1, 8192, 0, 4, 8, 2, 8, 665),
    (f"{N} 25.04", "GB200", "nemotron4-15b", "cs", 64, 256, 2, 4096, 0, 1, 1, 1, 1, 17809),
    (f"{N} 25.04", "GB200", "nemotron4-340b", "cs", 128, 32, 1, 4096, 0, 8, 4, 1, 12, 737),
    # NeMo 25.07, DGX-GB200, FP8 current scaling (parentheses: MXFP8)
    (f"{N} 25.07", "GB200", "llama-3-8b", "cs", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 31737),
    (f"{N} 25.07", "GB200", "llama-3-8b", "mx", 8, 128, 2, 8192, 0, 1, 1, 1, 1, 30341),
    (f"{N} 25.07", "GB200", "llama-3-70b", "cs", 64, 128, 1, 8192, 1, 1, 1, 1, 1, 4066),
    (f"{N} 25.07", "GB200", "llama-3-70b", "mx", 64, 128, 1, 8192, 0, 2, 4, 2, 5, 2605),
    (f"{N} 25.07", "GB200", "llama-3.1-405b", "cs", 128, 64, 1, 8192, 1, 2, 1, 1, 1, 706),
    (f"{N} 25.07", "GB200", "llama-3.1-405b", "mx", 128, 64, 1, 8192, 0, 4, 8, 2, 8, 638),
]
#: Fine-tuning rows (packed / padded to the sequence length, so every token counts): Megatron-Bridge 26.06 (Llama 3 70B
#: SFT and LoRA, ``docs/performance-summary.md`` at 8f341b04f; recipes ``perf_recipes/llama/{h100,gb200}/llama3.py``:
#: LoRA on ``linear_qkv`` only, rank 32, no recompute in the FP8 recipes, ``pad_to_max_length``) and NeMo 24.07
#: (DGX-H100, FP8, SQuAD packed to 4096; NeMo's LoRA default then: ``target_modules: ['attention_qkv']``, adapter_dim
#: 32, examples/nlp/language_modeling/tuning/conf/megatron_gpt_finetuning_config.yaml at 8e3d65dcfe). LoRA is entered
#: with ``lora_targets: qkv`` (``--compat``: q/k/v/o, the closest choice before issue 35 round 4).
#: (source, system, model, method, precision, GPUs, GBS, MBS, sequence, TP, PP, VP, published tok/s/GPU)
FT_ROWS = [
    (f"{B} 26.06", "GB200", "llama-3-70b", "full", "cs", 32, 32, 1, 4096, 1, 8, 10, 3864),
    (f"{B} 26.06", "GB200", "llama-3-70b", "full", "mx", 32, 32, 1, 4096, 1, 8, 10, 3593),
    (f"{B} 26.06", "H100", "llama-3-70b", "full", "cs", 32, 32, 1, 4096, 4, 4, 5, 1638),
    (f"{B} 26.06", "GB200", "llama-3-70b", "lora", "cs", 8, 32, 1, 4096, 1, 2, 20, 6206),
    (f"{B} 26.06", "GB200", "llama-3-70b", "lora", "mx", 8, 32, 1, 4096, 1, 4, 20, 5958),
    (f"{B} 26.06", "H100", "llama-3-70b", "lora", "cs", 8, 32, 1, 4096, 2, 4, 20, 2643),
    (f"{N} 24.07", "H100", "llama-2-7b", "full", "ds", 8, 32, 1, 4096, 1, 1, 1, 16891),
    (f"{N} 24.07", "H100", "llama-2-13b", "full", "ds", 8, 32, 1, 4096, 1, 4, 1, 10176),
    (f"{N} 24.07", "H100", "llama-2-70b", "full", "ds", 16, 32, 1, 4096, 4, 4, 1, 1816),
    (f"{N} 24.07", "H100", "llama-2-7b", "lora", "ds", 8, 32, 1, 4096, 1, 1, 1, 24824),
    (f"{N} 24.07", "H100", "llama-2-13b", "lora", "ds", 8, 32, 1, 4096, 1, 1, 1, 14629),
    (f"{N} 24.07", "H100", "llama-2-70b", "lora", "ds", 8, 32, 1, 4096, 2, 4, 1, 2621),
]
#: how each precision code is entered
PRECISION = {"cs": ("fp8", "te_current"), "ds": ("fp8", "te_delayed"), "mx": ("fp8", "te_mxfp8"),
             "bf16": ("bf16", None)}


#: The models whose recipes count the embedding and the loss as a pipeline layer each
#: (``parallel.pp_account_embedding_loss``): Llama 3.1 405B (126 layers: 128 slots over PP 8 or 16).
#: Megatron-Bridge v0.2.2 ``src/megatron/bridge/recipes/llama/llama3.py`` ``llama31_405b_pretrain_config``
#: (``account_for_embedding_in_pipeline_split`` / ``account_for_loss_in_pipeline_split`` True); NeMo 2.0
#: ``nemo/collections/llm/recipes/llama31_405b.py`` (both default True in ``model``). The other models' recipes
#: keep Megatron's even split (Bridge ``llama3_70b_pretrain_config`` does not set them).
PP_EDGES = ("llama-3.1-405b",)


def scenario(row) -> dict:
    """The scenario a Megatron-Bridge / NeMo user would enter for one :data:`ROWS` row."""
    src, system, model, prec, n, gbs, mbs, seq, fsdp, tp, pp, cp, vp, _pub = row
    precision, recipe = PRECISION[prec]
    # Bridge's and NeMo 2.0's FP8 presets gather the weights in FP8 (fp8_param_gather; core/fp8.all_gather_in_fp8);
    # NeMo 24.07 predates them (its configs' fp8_params defaulted to off)
    # (NeMo's performance scripts switched it off under Megatron FSDP until 2025-05-01, NVIDIA/NeMo 12d8e7c: the
    # 25.04 FSDP row runs without it)
    fp8_ag = {"fp8_all_gather": True} if recipe and not src.startswith(f"{N} 24.07") and not (
        src == f"{N} 25.04" and fsdp) else {}
    if COMPAT:  # what the model before issue 35 round 4 could represent: MXFP8 as current scaling, no FP8 gather
        fp8_ag, recipe = {}, ("te_current" if recipe == "te_mxfp8" else recipe)
    return {"model": MODELS.get(model, {"preset": model}),
            "training": {"framework": "megatron", "precision": precision, "seq_len": seq, "micro_batch_size": mbs,
                         "global_batch_size": gbs, **({"fp8_recipe": recipe} if recipe else {}), **fp8_ag,
                         # NeMo 24.07 (launcher yamls: cross_entropy_loss_fusion: true since 2024-06-17) and Bridge
                         # (GPTModelProvider): the fused loss (frameworks.FUSED_CE_DEFAULT)
                         "fused_cross_entropy": True},
            "parallel": {"tp": tp, "pp": pp, "cp": cp, "vpp": vp, "sequence_parallel": tp > 1,
                         "zero": 3 if fsdp else 1,
                         **({"pp_account_embedding_loss": True} if model in PP_EDGES and pp > 1 else {})},
            "hardware": {"gpu": GPU[system], "num_gpus": n}}


def ft_scenario(row) -> dict:
    """The scenario for one :data:`FT_ROWS` row (same conventions as :func:`scenario`)."""
    src, system, model, method, prec, n, gbs, mbs, seq, tp, pp, vp, pub = row
    sc = scenario((src, system, model, prec, n, gbs, mbs, seq, 0, tp, pp, 1, vp, pub))
    sc["training"].update({"method": method, **({"lora_rank": 32, "lora_targets": "attention" if COMPAT else "qkv"}
                                                if method == "lora" else {})})
    # SQuAD packed to the sequence length (NeMo 24.07 "inputs are packed to 4096 tokens", GPTSFTPackedDataset with
    # cu_seqlens and THD PackedSeqParams, megatron_gpt_model.py; Bridge 26.06 llama3_llm_finetune.py
    # packed_sequence_specs, default_squad_config): attention runs per packed sample (core/flops.sample_shape), the
    # mean sample being validate_nemo_finetune.SQUAD_MEAN_TOKENS (ASSUMED 256). ``--compat7``: as entered before
    # issue 35 round 7 (helper ptoos7), unpacked.
    if not (COMPAT or COMPAT7):
        sc["training"]["packing"] = True
        sc["data"] = {"mean_sample_len": SQUAD_MEAN_TOKENS}
        # NeMo 24.07's runs (NeMo-Framework-Launcher examples/peft/llama/h100/*.sh, read by bench/
        # validate_nemo_finetune.py): SFT 13B VP 10 and 70B VP 20; LoRA with fused_adam (no distributed optimizer) and
        # dropout 0, the 70B LoRA without sequence parallelism (NeMo then turns ub_tp_comm_overlap off)
        if src == f"{N} 24.07":
            sc["parallel"]["vpp"] = NEMO2407_SFT_VP.get((model, method), vp)
            if method == "lora":
                sc["training"]["lora_dropout"] = 0.0
                sc["parallel"].update({"zero": 0, "sequence_parallel": False})
                if tp > 1:
                    sc["training"]["tp_comm_overlap"] = False
    return sc


def results(rows=None, make=None) -> list[dict]:
    """Each row with its prediction (``pred`` None where the scenario is refused: ``why``)."""
    out = []
    for row in ROWS if rows is None else rows:
        res = {"row": row, "pub": row[-1], "pred": None, "why": "", "top": ""}
        try:
            t = time_estimate(resolve(scenario_from_dict((make or scenario)(row))))
        except ScenarioError as e:
            res["why"] = str(e)
        else:
            res["pred"] = t.tokens_per_s_per_gpu
            bd = {k: v for k, v in t.seconds.items() if k != "compute"}
            bd.update(t.parts)
            k, v = max(bd.items(), key=lambda kv: kv[1]) if bd else ("", 0.0)
            res["top"] = f"{k} {v / t.step_time_s:.0%}" if k else ""
        out.append(res)
    return out


def _pct(values: list[float], q: float) -> float:
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def stats(res: list[dict]) -> tuple[int, float, float, float]:
    """(rows predicted, median |error|, p90 |error|, signed median error)."""
    e = [r["pred"] / r["pub"] - 1 for r in res if r["pred"] is not None]
    if not e:
        return 0, float("nan"), float("nan"), float("nan")
    a = [abs(x) for x in e]
    return len(e), statistics.median(a), _pct(a, 0.9), statistics.median(e)


def group_lines(res: list[dict]) -> list[str]:
    """Per system × precision: rows, median |error|, p90 |error|, signed median."""
    out = ["| system | precision | rows | median |err| | p90 |err| | signed median |", "|---|---|---:|---:|---:|---:|"]
    keys = sorted({(r["row"][1], r["row"][3]) for r in res})
    for sysname, prec in keys + [("all", "all")]:
        sub = [r for r in res if sysname == "all" or (r["row"][1], r["row"][3]) == (sysname, prec)]
        n, med, p90, sgn = stats(sub)
        out.append(f"| {sysname} | {prec} | {n} | {med:.1%} | {p90:.1%} | {sgn:+.1%} |")
    return out


def row_lines(res: list[dict]) -> list[str]:
    out = ["| source | system | model | prec | GPUs | GBS/MBS | seq | FSDP | TP/PP/CP/VP | published | predicted | "
           "error | largest overhead |", "|---|---|---|---|---:|---|---:|---|---|---:|---:|---:|---|"]
    for r in res:
        src, system, model, prec, n, gbs, mbs, seq, fsdp, tp, pp, cp, vp, pub = r["row"]
        pred = "—" if r["pred"] is None else f"{r['pred']:,.0f}"
        err = "—" if r["pred"] is None else f"{r['pred'] / pub - 1:+.1%}"
        out.append(f"| {src} | {system} | {model} | {prec} | {n} | {gbs}/{mbs} | {seq} | {'yes' if fsdp else ''} | "
                   f"{tp}/{pp}/{cp}/{vp} | {pub:,} | {pred} | {err} | {r['top'] or r['why']} |")
    return out


def ft_row_lines(res: list[dict]) -> list[str]:
    out = ["| source | system | model | method | prec | GPUs | GBS/MBS | seq | TP/PP/VP | published | predicted | "
           "error | largest overhead |", "|---|---|---|---|---|---:|---|---:|---|---:|---:|---:|---|"]
    for r in res:
        src, system, model, method, prec, n, gbs, mbs, seq, tp, pp, vp, pub = r["row"]
        pred = "—" if r["pred"] is None else f"{r['pred']:,.0f}"
        err = "—" if r["pred"] is None else f"{r['pred'] / pub - 1:+.1%}"
        out.append(f"| {src} | {system} | {model} | {method} | {prec} | {n} | {gbs}/{mbs} | {seq} | {tp}/{pp}/{vp} | "
                   f"{pub:,} | {pred} | {err} | {r['top'] or r['why']} |")
    return out


def ft_results() -> list[dict]:
    """:data:`FT_ROWS` with predictions; ``row`` re-keyed so :func:`group_lines` reads system [1] and precision [3]."""
    res = results(FT_ROWS, ft_scenario)
    for r in res:
        r["ft_row"] = r["row"]
    return res


def ft_group_lines(res: list[dict]) -> list[str]:
    """Per system × method: rows, median |error|, p90 |error|, signed median."""
    keyed = [{**r, "row": (r["row"][0], r["row"][1], r["row"][2], r["row"][3])} for r in res]
    return group_lines(keyed)


#: per (system, precision) before issue 35 round 4 (main at efaf7ef, rows entered with ``--compat``): rows, median
#: |error|, p90 |error|, signed median
BEFORE = {("B200", "cs"): (4, 0.035, 0.061, 0.035), ("B200", "ds"): (6, 0.164, 0.235, 0.164),
          ("B200", "mx"): (4, 0.080, 0.128, 0.080), ("GB200", "cs"): (24, 0.057, 0.163, 0.013),
          ("GB200", "mx"): (16, 0.104, 0.276, 0.104), ("H100", "cs"): (13, 0.026, 0.066, -0.011),
          ("H100", "ds"): (12, 0.050, 0.134, 0.023), ("all", "all"): (79, 0.058, 0.198, 0.029)}
FT_BEFORE = {("GB200", "full"): (2, 0.105, 0.137, 0.105), ("GB200", "lora"): (2, 0.040, 0.060, -0.040),
             ("H100", "full"): (4, 0.079, 0.218, -0.079), ("H100", "lora"): (4, 0.208, 0.266, -0.208),
             ("all", "all"): (12, 0.131, 0.256, -0.095)}


def _before_after(res: list[dict], before: dict, key) -> list[str]:
    out = ["| system | precision / method | rows | median |err| before → after | p90 |err| before → after | "
           "signed median before → after |", "|---|---|---:|---:|---:|---:|"]
    for (sysname, prec), (n0, med0, p900, sgn0) in before.items():
        sub = [r for r in res if sysname == "all" or key(r) == (sysname, prec)]
        n, med, p90, sgn = stats(sub)
        out.append(f"| {sysname} | {prec} | {n} | {med0:.1%} → {med:.1%} | {p900:.1%} → {p90:.1%} | "
                   f"{sgn0:+.1%} → {sgn:+.1%} |")
    return out


def doc_section() -> list[str]:
    """The dense Bridge/NeMo section of docs/validation_time.md (bench/validate_time.py --write)."""
    res, ft = results(), ft_results()
    return [
        "### Megatron-Bridge and NeMo dense pre-training and fine-tuning rows (not in the shared set)",
        "",
        "Every dense row of NVIDIA's public performance tables whose GPU the catalogue has (DGX-H100, DGX-B200, "
        "DGX-GB200) and whose precision the model represents (FP8 delayed `ds`, current `cs`, MXFP8 `mx`): "
        "Megatron-Bridge `docs/performance-summary.md` and `-archive.md` (releases 25.09 to 26.06), NeMo's 24.07 "
        "summary (git) and the 25.02/25.04/25.07 user-guide pages, entered as a user would fill the scenario "
        "(`bench/validate_bridge_dense.py`: rows, sources and recipe settings). GB300/B300 and NVFP4 rows are left "
        "out (not in the catalogue). Nothing is fitted to them. Issue 35 round 4 added three mechanisms: (1) a "
        "GB200 NVL72 rack is one 72-GPU NVLink domain for every collective, not only the expert all-to-all "
        "(`timing.nvlink_span`: TP 8 over NVLink, data-parallel rings driving one NIC per domain member); (2) "
        "Transformer Engine's MXFP8 recipe (`fp8_recipe: te_mxfp8`, Blackwell only: its block-scaled GEMM at "
        "6.812/7.161 of the tensor-scaled one, TE's GEMM profiling tutorial on B300; both orientations quantised "
        "in one pass, 4.06 bytes per element); (3) Megatron's `--fp8-param-gather` (`training.fp8_all_gather`, "
        "set by Bridge's and NeMo's FP8 presets): the weight all-gather moves 1 byte per parameter. Before = main "
        "at efaf7ef with the same rows (MXFP8 entered as current scaling, no FP8 gather).",
        "",
        *_before_after(res, BEFORE, lambda r: (r["row"][1], r["row"][3])),
        "",
        "Fine-tuning rows (SFT = full, LoRA; Megatron-Bridge 26.06 Llama 3 70B, NeMo 24.07 Llama 2):",
        "",
        *_before_after(ft, FT_BEFORE, lambda r: (r["row"][1], r["row"][3])),
        "",
        *fsdp_doc_lines(),
        "",
        "What still misses, and why (no factor is added for any of them):",
        "",
        "- **GB200 runs 5–9% too fast** (signed median of its FP8 rows). The catalogue's GB200 peak is 11% above "
        "B200's (NVIDIA's NVL72 and HGX figures), but the published tables show the same layouts only ~2% faster "
        "on GB200 than on B200 (Llama 3 8B: 31,508 vs 30,624 CS, 29,789 vs 29,521 MX; 405B TP4/PP8/CP2/VP8: 665 vs "
        "661). No published sustained-clock or GEMM measurement of GB200 was found, so the datasheet peak stays "
        "(round 5 looked again: NVIDIA's NVL72 totals, 720 PF FP8 and 1.44 EF FP4 sparse for 72 GPUs, give 5 PF "
        "dense per GPU; one third-party table, verda.com's GB300 article, lists GB200 at B200's 4.5 PF, which "
        "contradicts NVIDIA's totals and is not used).",
        "- **MXFP8 vs current scaling**: Bridge publishes MX 3–6% slower on identical layouts; the model gives "
        "~1% (the slower block-scaled GEMM is offset by MXFP8's cheaper quantisation, which TE's own autocast "
        "benchmark also shows: 8.98 vs 9.15 ms per layer on B300). The rest of the gap is not explained.",
        "- **B200 `ds` p90 moves 23.5% → 24.1%**: NeMo 25.02's Nemotron-4 340B (TP 8, PP 4, DP 4, 8 micro-batches) "
        "goes from −0.5% to +10.1% because its preset gathers the weights in FP8 (NeMo 25.02 `bf16_with_fp8_mixed`: "
        "`fp8_params = True`), which halves its exposed parameter all-gather. The recipe is entered as it was run.",
        "- **NeMo 25.02 on B200** (+13% to +26%): the same layouts ran 6–15% faster in Bridge 25.09 on the same "
        "GPU (Llama 3 8B 26,006 → 29,994); early Blackwell software, not a mechanism.",
        "- **Nemotron-3/4** (issue 35 round 5): NeMo's `NemotronConfig` runs squared ReLU as two eager kernels "
        "(`torch.pow(F.relu(x), 2)`; Megatron's `bias_activation_fusion` fuses only GeLU and SwiGLU), now "
        "`model.hidden_act: relu2` (`timing.SQRELU_FWD_ELEMS`: 4 elements per MLP element in the forward, "
        "a fused GeLU's 2). The seven Nemotron rows move 0.6–3.5 points toward the published figures (GB200 15B "
        "+13.6% → +10.3%, H100 Nemotron-3 8B +8.2% → +4.9%); they stay 5–27% too fast. Other candidates checked "
        "and too small to matter: the 256k-vocabulary loss (Megatron's fused cross-entropy makes about 30 bytes "
        "of fp32 passes per logit against the model's 8: +1.8% on the 15B), the untied output layer (already at "
        "BF16 rate, 11% of the 15B's FLOPs); NeMo's GB200 recipes capture CUDA graphs, which would make the rows "
        "faster still.",
        "- Fine-tuning rows (issue 35 round 7, helper ptoos7): entered as run since then, SQuAD packed into THD "
        "rows with `cu_seqlens` (`training.packing`, `data.mean_sample_len` 256: attention per sample) and NeMo "
        "24.07's launcher settings (SFT 13B VP 10, 70B VP 20; LoRA without the distributed optimizer, 70B LoRA "
        "without sequence parallelism). The table's VP column still shows the published table's value. H100 LoRA "
        "is now −7% to −16%.",
        "- **LoRA on H100** (before round 7: −11% to −26%): Megatron's LoRA runs the frozen base without weight-gradient GEMMs "
        "(modelled: 4N instead of 6N FLOPs), yet the published LoRA/SFT ratio (NeMo 24.07 7B: 24,824 / 16,891 = "
        "1.47) exceeds the FLOP ratio (1.44): the element-wise and FP8-cast traffic the model keeps for LoRA "
        "(unchanged from full training) must be smaller in practice. Bridge LoRA targets only the fused QKV "
        "(`linear_qkv`, now `lora_targets: qkv`); with sequence parallelism its adapter also gathers its input over "
        "the TP ranks outside the userbuffers overlap, which is not modelled (it would make LoRA slower still).",
        "- **GB200 405B TP4/PP8/CP2/VP8 on 128 GPUs** (+16% to +30%) and **NeMo 25.07 70B MXFP8 with CP 2** "
        "(+55%): the same layout on B200 is within +6% to +13%; the GB200 runs are slower than B200's in the "
        "tables, which no modelled mechanism explains.",
        "",
        *row_lines(res),
        "",
        *ft_row_lines(ft),
    ]


#: The Megatron FSDP rows through the scenario path (``evaluate``, what the app and CLI run) before issue 35 round 4's
#: Megatron-FSDP work (main at 63ad561): every one refused with "Megatron-Core does not run ZeRO-3 for pretrain"
#: (core/frameworks.py listed ZeRO 0/1 only), so they were scored by calling the time model directly (``results``).
FSDP_SCENARIO_BEFORE = "refused (Megatron-Core does not run ZeRO-3)"


#: the same 12 rows through the time model directly, before (main at 63ad561, generic ZeRO-3): rows, median |error|,
#: p90 |error|, signed median
FSDP_DIRECT_BEFORE = (12, 0.0750, 0.1309, 0.0692)


def fsdp_doc_lines() -> list[str]:
    """The Megatron-FSDP paragraph and table of docs/validation_time.md (issue 35 round 4, helper mfsdp)."""
    sp = scenario_path_results()
    n, med, p90, sgn = stats(sp)
    n0, med0, p900, sgn0 = FSDP_DIRECT_BEFORE
    return [
        "Megatron-FSDP rows (`zero 3`, issue 35 round 4): before, `evaluate()` refused every one (\"Megatron-Core does "
        "not run ZeRO-3\") and this table scored them by calling the time model directly. Megatron-FSDP is now a "
        "stack a user enters and the search proposes (`core/megatron_fsdp.py`: sharded FP8/BF16 compute weights "
        "beside fp32 main weights, BF16 main gradients and reduce-scatter, two units' gathered weights and "
        "gradients in flight, embedding/output layer kept gathered and gathered once per step, no copies around "
        "the collectives, TE's FP8 cast per micro-batch without `--fp8-param-gather`). Through the scenario path "
        f"the {n} rows now evaluate: modelled median |error| {med0:.1%} → {med:.1%}, p90 {p900:.1%} → {p90:.1%}, "
        f"signed {sgn0:+.1%} → {sgn:+.1%} (before = the direct time-model call). Two things the user still sees "
        "differently from the published run: the GB200 rows do not fit in memory as entered, because Bridge's "
        "recipes also offload 20–92 layers' activations to the Grace CPU (`cpu_offloading_num_layers`, "
        "`scripts/performance/configs/llama/llama3_workload_base_configs.py` before NVIDIA-NeMo/Megatron-Bridge "
        "c8327cfc2), which the scenario cannot express for Megatron; and the figure shown is capped by the MFU "
        "ceiling of the class (no published GB200 run in it: the ceiling falls back to a Megatron-LM README H100 row, 48% MFU).",
        "",
        *scenario_path_lines(sp),
    ]


def scenario_path_results() -> list[dict]:
    """The Megatron FSDP rows (``zero 3``) as a user enters them, through :func:`gpuplanner.core.evaluate.evaluate`:
    the modelled tokens/s per GPU (before the MFU ceiling), the figure the plan shows (after it), memory and fit."""
    from gpuplanner.core.evaluate import evaluate

    out = []
    for row in ROWS:
        if not row[8]:
            continue
        res = {"row": row, "pub": row[-1], "pred": None, "shown": None, "why": "", "mem": None, "fits": None}
        try:
            ev = evaluate(scenario_from_dict(scenario(row)))
        except ScenarioError as e:
            res["why"] = str(e)
        else:
            res["pred"] = (ev.time_modelled or ev.time).tokens_per_s_per_gpu
            res["shown"] = ev.time.tokens_per_s_per_gpu
            res["mem"], res["fits"] = ev.memory_total_gib, ev.fits
        out.append(res)
    return out


def scenario_path_lines(res: list[dict]) -> list[str]:
    out = ["| source | system | model | GPUs | GBS/MBS | TP | published | modelled (error) | shown (MFU ceiling) | "
           "GiB/GPU | fits |", "|---|---|---|---:|---|---:|---:|---:|---:|---:|---|"]
    for r in res:
        src, system, model, prec, n, gbs, mbs, seq, fsdp, tp, pp, cp, vp, pub = r["row"]
        if r["pred"] is None:
            out.append(f"| {src} | {system} | {model} | {n} | {gbs}/{mbs} | {tp} | {pub:,} | {r['why']} | | | |")
            continue
        out.append(f"| {src} | {system} | {model} | {n} | {gbs}/{mbs} | {tp} | {pub:,} | {r['pred']:,.0f} "
                   f"({r['pred'] / pub - 1:+.1%}) | {r['shown']:,.0f} | {r['mem']:.0f} | {'yes' if r['fits'] else 'no'} |")
    return out


def main() -> int:
    res = results()
    print("\n".join(row_lines(res)))
    print()
    print("\n".join(group_lines(res)))
    ft = ft_results()
    print()
    print("\n".join(ft_row_lines(ft)))
    print()
    print("\n".join(ft_group_lines(ft)))
    sp = scenario_path_results()
    print()
    print(f"Megatron FSDP rows through the scenario path (before: {FSDP_SCENARIO_BEFORE}):")
    print("\n".join(scenario_path_lines(sp)))
    n, med, p90, sgn = stats(sp)
    print(f"modelled: {n} rows, median |error| {med:.1%}, p90 {p90:.1%}, signed median {sgn:+.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
