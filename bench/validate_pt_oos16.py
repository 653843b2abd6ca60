"""Pre-training throughput the project had not used, round 16: an out-of-sample check (issue 35, ptoos16).

Usage: python bench/validate_pt_oos16.py [--before] [--flash1]

Every row was entered and scored BEFORE any model change (``BEFORE`` holds those predictions, main 96ef3860). No
constant was chosen from these rows. Error = predicted / published − 1 in tokens/s per GPU = published step /
predicted step − 1 (+ = the model is too fast).

Source: **MosaicML llm-foundry MPT training benchmarks**, ``scripts/train/benchmarking/README.md`` at
github.com/mosaicml/llm-foundry @8c8dd48f72168c5d51e2f7b151595892a8fba43d (file last changed 495218376830,
2024-04-22; the H100 tables came with #543 b2a43a1 (Oct 2023) and #838 5e85bd62 (Jan 2024), the A100 tables
re-measured in #543). The five tables (H100 BF16 large scale, H100 BF16, H100 FP8, A100 80GB and A100 40GB "with
1600 Gbps node-node interconnect (RoCE)") hold 216 rows; the public calibration set
(``/work/shared/reference/calibration-runs.jsonl``, ``llmfoundry-*``) uses 18 of them. The other 198 are entered
here (the held 18 are dropped by id at run time), below as the README's own columns: table, model, SeqLen, # GPUs,
MicroBatchSize, GradAccum, GlobalBatchSize, Throughput (T/s/GPU), Precision, MP Mode, Sharding Strategy,
Activation Checkpointing (T/F), NumParams.

What was already held (grep of bench/, tests/, docs/ and the calibration file for ``llm-foundry``,
``llmfoundry``, ``MPT-``): only those 18 rows (``bench/validate_time.py`` ``foundry_scenario``; ``mfu_ceilings.py``
and ``hopper_implied_eff*.py`` read the same 18).

Mapping: ``bench/validate_time.py::foundry_scenario`` unchanged (the public rows' own mapping: MPT with learned
positions, biases, GeLU 4h MLP, tied embeddings, LayerNorm; PyTorch FSDP1; FULL_SHARD = ``zero`` 3,
SHARD_GRAD_OP = ``zero`` 2; Activation Checkpointing True = full; FlashAttention; default fabric, 8 GPUs a node).
Architecture per size from ``scripts/train/yamls/pretrain/mpt-*.yaml`` @v0.3.0 (d_model / n_heads / n_layers,
expansion 4, vocab 50,368); every row's NumParams is checked against
``L·(12h² + 13h) + V·h + seq·h + 2h`` (``tests/test_validation_pt_oos16.py``). GBS = the table's GlobalBatchSize;
micro-batch = MicroBatchSize (Composer's microbatching: the last micro-batch may be short; here every row has
GBS = MicroBatchSize × GradAccum × GPUs).

Flags (ASSUMED): the H100 FP8 table ran ``--precision fp8`` = Composer ``amp_fp8`` with ``fc_type: te``
(``submit_benchmarks.py`` @5e85bd62: "if gpu_type == 'h100_80gb' and precision == 'fp8':
parameters['model']['fc_type'] = 'te'"): Transformer Engine linears under Composer's ``fp8_autocast`` with TE's
default ``DelayedScaling`` → entered as ``precision: fp8``, ``fp8_recipe: te_delayed`` (FP8 parameter all-gather
not used: ``fp8_all_gather`` default); attention, LayerNorm and GeLU stay bf16 (TE linears only). "bf16 / PURE"
rows (A100 40GB and the A100 80GB 70B rows): Composer's FSDP ``mixed_precision: PURE`` keeps parameters, gradients
and buffers in bf16; entered as ``bf16`` as the public rows are (not a field).
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import validate_bridge_dense as vbd  # noqa: E402
import validate_time as vt  # noqa: E402

SRC = ("https://github.com/mosaicml/llm-foundry/blob/8c8dd48f72168c5d51e2f7b151595892a8fba43d/"
       "scripts/train/benchmarking/README.md")
#: table key -> (the README's heading, the card's id as ``validate_time.gpu_id`` names it, id prefix)
TABLES = {"h100L": ("H100 80GB BF16 (Large Scale, >= 128 GPUs)", "H100 80GB", "h100_80gb"),
          "h100": ("H100 80GB BF16", "H100 80GB", "h100_80gb"),
          "h100fp8": ("H100 80GB FP8", "H100 80GB", "h100_80gb"),
          "a100_80": ("A100 80GB with 1600 Gbps node-node interconnect (RoCE)", "A100 80GB", "a100_80gb"),
          "a100_40": ("A100 40GB with 1600 Gbps node-node interconnect (RoCE)", "A100 40GB", "a100_40gb")}
#: MPT sizes, ``scripts/train/yamls/pretrain/mpt-*.yaml`` @v0.3.0: d_model, n_heads, n_layers (expansion 4)
MPT = {"125m": (768, 12, 12), "350m": (1024, 16, 24), "760m": (1536, 12, 24), "1b": (2048, 16, 24),
       "3b": (2560, 20, 32), "7b": (4096, 32, 32), "13b": (5120, 40, 40), "30b": (7168, 56, 48),
       "70b": (8192, 64, 80)}
VOCAB = 50368

#: the README's rows (columns in the module doc), in its order
TABLE = """\
h100L 70b 2048 512 8 1 4096 1007 amp_bf16 DEFAULT FULL_SHARD T 64862437376
h100L 70b 2048 256 8 1 2048 1035 amp_bf16 DEFAULT FULL_SHARD T 64862437376
h100L 70b 2048 128 8 1 1024 1058 amp_bf16 DEFAULT FULL_SHARD T 64862437376
h100L 30b 2048 512 8 1 4096 2115 amp_bf16 DEFAULT FULL_SHARD T 29975214080
h100L 30b 2048 256 8 1 2048 2148 amp_bf16 DEFAULT FULL_SHARD T 29975214080
h100L 30b 2048 128 8 1 1024 2199 amp_bf16 DEFAULT FULL_SHARD T 29975214080
h100L 13b 2048 512 16 1 8192 4952 amp_bf16 DEFAULT FULL_SHARD T 12853954560
h100L 13b 2048 256 16 1 4096 4989 amp_bf16 DEFAULT FULL_SHARD T 12853954560
h100L 13b 2048 128 16 1 2048 5080 amp_bf16 DEFAULT FULL_SHARD T 12853954560
h100L 7b 2048 512 6 1 3072 9670 amp_bf16 DEFAULT FULL_SHARD F 6658859008
h100L 7b 2048 256 6 1 1536 10119 amp_bf16 DEFAULT FULL_SHARD F 6658859008
h100L 7b 2048 128 6 1 768 10475 amp_bf16 DEFAULT FULL_SHARD F 6658859008
h100L 3b 2048 512 8 1 4096 21664 amp_bf16 DEFAULT SHARD_GRAD_OP F 2651837440
h100L 3b 2048 256 8 1 2048 22772 amp_bf16 DEFAULT SHARD_GRAD_OP F 2651837440
h100L 3b 2048 128 8 1 1024 23422 amp_bf16 DEFAULT SHARD_GRAD_OP F 2651837440
h100L 1b 2048 512 12 1 6144 39837 amp_bf16 DEFAULT SHARD_GRAD_OP F 1315950592
h100L 1b 2048 256 12 1 3072 42555 amp_bf16 DEFAULT SHARD_GRAD_OP F 1315950592
h100L 1b 2048 128 12 1 1536 44123 amp_bf16 DEFAULT SHARD_GRAD_OP F 1315950592
h100 70b 2048 64 8 4 2048 1039 amp_bf16 DEFAULT FULL_SHARD T 64862437376
h100 70b 2048 32 2 16 1024 882 amp_bf16 DEFAULT FULL_SHARD T 64862437376
h100 30b 8192 8 1 21 168 1384 amp_bf16 DEFAULT FULL_SHARD T 30019254272
h100 30b 4096 8 1 21 168 1802 amp_bf16 DEFAULT FULL_SHARD T 29989894144
h100 30b 2048 32 14 3 1344 2308 amp_bf16 DEFAULT FULL_SHARD T 29975214080
h100 30b 2048 16 10 3 480 2263 amp_bf16 DEFAULT FULL_SHARD T 29975214080
h100 30b 2048 8 3 21 504 2002 amp_bf16 DEFAULT FULL_SHARD T 29975214080
h100 30b 1024 8 6 21 1008 2084 amp_bf16 DEFAULT FULL_SHARD T 29967874048
h100 13b 32768 8 1 3 24 1976 amp_bf16 DEFAULT FULL_SHARD T 13011240960
h100 13b 16384 8 3 3 72 2985 amp_bf16 DEFAULT FULL_SHARD T 12927354880
h100 13b 4096 8 10 3 240 4717 amp_bf16 DEFAULT FULL_SHARD T 12864440320
h100 13b 2048 64 2 1 128 4800 amp_bf16 DEFAULT FULL_SHARD F 12853954560
h100 13b 2048 32 2 1 64 4811 amp_bf16 DEFAULT FULL_SHARD F 12853954560
h100 13b 2048 16 2 1 32 4767 amp_bf16 DEFAULT FULL_SHARD F 12853954560
h100 13b 2048 8 2 1 16 4792 amp_bf16 DEFAULT FULL_SHARD F 12853954560
h100 13b 1024 8 40 3 960 5502 amp_bf16 DEFAULT FULL_SHARD T 12848711680
h100 7b 65536 8 1 2 16 1956 amp_bf16 DEFAULT FULL_SHARD T 6918905856
h100 7b 32768 8 2 2 32 3318 amp_bf16 DEFAULT FULL_SHARD T 6784688128
h100 7b 8192 8 8 2 128 6935 amp_bf16 DEFAULT FULL_SHARD T 6684024832
h100 7b 4096 8 16 2 256 8611 amp_bf16 DEFAULT FULL_SHARD T 6667247616
h100 7b 2048 8 6 1 48 10643 amp_bf16 DEFAULT FULL_SHARD F 6658859008
h100 7b 1024 8 64 2 1024 10203 amp_bf16 DEFAULT FULL_SHARD T 6654664704
h100 3b 65536 8 1 2 16 3262 amp_bf16 DEFAULT FULL_SHARD T 2814366720
h100 3b 32768 8 3 6 144 5873 amp_bf16 DEFAULT FULL_SHARD T 2730480640
h100 3b 16384 8 1 6 48 11152 amp_bf16 DEFAULT FULL_SHARD F 2688537600
h100 3b 8192 8 3 6 144 16578 amp_bf16 DEFAULT FULL_SHARD F 2667566080
h100 3b 4096 8 5 6 240 20964 amp_bf16 DEFAULT FULL_SHARD F 2657080320
h100 3b 2048 64 6 3 1152 22525 amp_bf16 DEFAULT FULL_SHARD F 2651837440
h100 3b 2048 32 6 3 576 23021 amp_bf16 DEFAULT FULL_SHARD F 2651837440
h100 3b 2048 16 10 3 480 24142 amp_bf16 DEFAULT FULL_SHARD F 2651837440
h100 3b 1024 8 20 6 960 27046 amp_bf16 DEFAULT FULL_SHARD F 2649216000
h100 3b 512 8 40 6 1920 27965 amp_bf16 DEFAULT FULL_SHARD F 2647905280
h100 1b 65536 8 1 2 16 5506 amp_bf16 DEFAULT FULL_SHARD T 1445974016
h100 1b 32768 8 1 4 32 12025 amp_bf16 DEFAULT FULL_SHARD F 1378865152
h100 1b 16384 8 2 4 64 19649 amp_bf16 DEFAULT FULL_SHARD F 1345310720
h100 1b 8192 8 3 4 96 29157 amp_bf16 DEFAULT FULL_SHARD F 1328533504
h100 1b 4096 8 7 4 224 38535 amp_bf16 DEFAULT FULL_SHARD F 1320144896
h100 1b 2048 64 20 1 1280 44402 amp_bf16 DEFAULT FULL_SHARD F 1315950592
h100 1b 2048 32 20 1 640 45130 amp_bf16 DEFAULT FULL_SHARD F 1315950592
h100 1b 2048 16 20 1 320 46037 amp_bf16 DEFAULT FULL_SHARD F 1315950592
h100 1b 2048 8 14 1 112 45455 amp_bf16 DEFAULT FULL_SHARD F 1315950592
h100 1b 1024 8 18 4 576 48910 amp_bf16 DEFAULT FULL_SHARD F 1313853440
h100 1b 512 8 56 4 1792 52275 amp_bf16 DEFAULT FULL_SHARD F 1312804864
h100 760m 32768 8 1 2 16 16291 amp_bf16 DEFAULT FULL_SHARD F 807656448
h100 760m 16384 8 3 2 48 27815 amp_bf16 DEFAULT FULL_SHARD F 782490624
h100 760m 8192 8 6 2 96 41825 amp_bf16 DEFAULT FULL_SHARD F 769907712
h100 760m 4096 8 12 2 192 55459 amp_bf16 DEFAULT FULL_SHARD F 763616256
h100 760m 2048 32 24 1 768 67971 amp_bf16 DEFAULT FULL_SHARD F 760470528
h100 760m 2048 16 24 1 384 68551 amp_bf16 DEFAULT FULL_SHARD F 760470528
h100 760m 2048 8 24 2 384 63147 amp_bf16 DEFAULT FULL_SHARD F 760470528
h100 760m 1024 8 48 2 768 78581 amp_bf16 DEFAULT FULL_SHARD F 758897664
h100 760m 512 8 96 2 1536 83749 amp_bf16 DEFAULT FULL_SHARD F 758111232
h100fp8 3b 32768 8 3 6 144 5856 amp_fp8 DEFAULT FULL_SHARD T 2730480640
h100fp8 3b 8192 8 3 6 144 19146 amp_fp8 DEFAULT FULL_SHARD F 2667566080
h100fp8 3b 2048 8 10 6 480 30586 amp_fp8 DEFAULT FULL_SHARD F 2651837440
h100fp8 3b 512 8 40 6 1920 36527 amp_fp8 DEFAULT FULL_SHARD F 2647905280
h100fp8 1b 32768 8 1 4 32 12580 amp_fp8 DEFAULT FULL_SHARD F 1378865152
h100fp8 1b 8192 8 2 4 64 32010 amp_fp8 DEFAULT FULL_SHARD F 1328533504
h100fp8 1b 512 8 56 4 1792 70315 amp_fp8 DEFAULT FULL_SHARD F 1312804864
a100_80 70b 2048 64 8 4 2048 410 bf16 PURE FULL_SHARD T 64862437376
a100_80 70b 2048 32 2 16 1024 373 bf16 PURE FULL_SHARD T 64862437376
a100_80 30b 8192 8 1 21 168 574 amp_bf16 DEFAULT FULL_SHARD T 30019254272
a100_80 30b 4096 8 1 21 168 814 amp_bf16 DEFAULT FULL_SHARD T 29989894144
a100_80 30b 2048 8 3 21 504 916 amp_bf16 DEFAULT FULL_SHARD T 29975214080
a100_80 30b 1024 8 6 21 1008 946 amp_bf16 DEFAULT FULL_SHARD T 29967874048
a100_80 30b 512 8 12 21 2016 967 amp_bf16 DEFAULT FULL_SHARD T 29964204032
a100_80 13b 32768 8 1 3 24 1016 amp_bf16 DEFAULT FULL_SHARD T 13011240960
a100_80 13b 16384 8 3 3 72 1431 amp_bf16 DEFAULT FULL_SHARD T 12927354880
a100_80 13b 8192 8 5 3 120 1795 amp_bf16 DEFAULT FULL_SHARD T 12885411840
a100_80 13b 4096 8 10 3 240 2060 amp_bf16 DEFAULT FULL_SHARD T 12864440320
a100_80 13b 2048 8 2 3 48 2262 amp_bf16 DEFAULT FULL_SHARD F 12853954560
a100_80 13b 1024 8 40 3 960 2330 amp_bf16 DEFAULT FULL_SHARD T 12848711680
a100_80 7b 65536 8 1 2 16 1013 amp_bf16 DEFAULT FULL_SHARD T 6918905856
a100_80 7b 32768 8 2 2 32 1672 amp_bf16 DEFAULT FULL_SHARD T 6784688128
a100_80 7b 16384 8 4 2 64 2453 amp_bf16 DEFAULT FULL_SHARD T 6717579264
a100_80 7b 8192 8 8 2 128 3206 amp_bf16 DEFAULT FULL_SHARD T 6684024832
a100_80 7b 4096 8 16 2 256 3684 amp_bf16 DEFAULT FULL_SHARD T 6667247616
a100_80 7b 2048 8 6 2 96 4641 amp_bf16 DEFAULT FULL_SHARD F 6658859008
a100_80 7b 1024 8 64 2 1024 4357 amp_bf16 DEFAULT FULL_SHARD T 6654664704
a100_80 3b 65536 8 1 2 16 1767 amp_bf16 DEFAULT FULL_SHARD T 2814366720
a100_80 3b 32768 8 3 6 144 3029 amp_bf16 DEFAULT FULL_SHARD T 2730480640
a100_80 3b 16384 8 1 6 48 5529 amp_bf16 DEFAULT FULL_SHARD F 2688537600
a100_80 3b 8192 8 3 6 144 7695 amp_bf16 DEFAULT FULL_SHARD F 2667566080
a100_80 3b 4096 8 5 6 240 9457 amp_bf16 DEFAULT FULL_SHARD F 2657080320
a100_80 3b 2048 8 10 2 160 10811 amp_bf16 DEFAULT FULL_SHARD F 2651837440
a100_80 3b 1024 8 20 6 960 11580 amp_bf16 DEFAULT FULL_SHARD F 2649216000
a100_80 3b 512 8 40 6 1920 12127 amp_bf16 DEFAULT FULL_SHARD F 2647905280
a100_80 1b 65536 8 1 2 16 3044 amp_bf16 DEFAULT FULL_SHARD T 1445974016
a100_80 1b 32768 8 1 4 32 6275 amp_bf16 DEFAULT FULL_SHARD F 1378865152
a100_80 1b 16384 8 2 4 64 9956 amp_bf16 DEFAULT FULL_SHARD F 1345310720
a100_80 1b 8192 8 3 4 96 13814 amp_bf16 DEFAULT FULL_SHARD F 1328533504
a100_80 1b 4096 8 7 4 224 17807 amp_bf16 DEFAULT FULL_SHARD F 1320144896
a100_80 1b 2048 8 14 4 448 20513 amp_bf16 DEFAULT FULL_SHARD F 1315950592
a100_80 1b 1024 8 18 4 576 22112 amp_bf16 DEFAULT FULL_SHARD F 1313853440
a100_80 1b 512 8 56 4 1792 23148 amp_bf16 DEFAULT FULL_SHARD F 1312804864
a100_80 760m 65536 8 1 2 16 4143 amp_bf16 DEFAULT FULL_SHARD T 857988096
a100_80 760m 32768 8 1 2 16 8802 amp_bf16 DEFAULT FULL_SHARD F 807656448
a100_80 760m 16384 8 3 2 48 14274 amp_bf16 DEFAULT FULL_SHARD F 782490624
a100_80 760m 8192 8 6 2 96 20933 amp_bf16 DEFAULT FULL_SHARD F 769907712
a100_80 760m 4096 8 12 2 192 27351 amp_bf16 DEFAULT FULL_SHARD F 763616256
a100_80 760m 2048 8 24 2 384 32434 amp_bf16 DEFAULT FULL_SHARD F 760470528
a100_80 760m 1024 8 48 2 768 29765 amp_bf16 DEFAULT FULL_SHARD F 758897664
a100_80 760m 512 8 96 2 1536 29446 amp_bf16 DEFAULT FULL_SHARD F 758111232
a100_80 350m 65536 8 1 2 16 7524 amp_bf16 DEFAULT FULL_SHARD F 420997120
a100_80 350m 32768 8 2 2 32 13652 amp_bf16 DEFAULT FULL_SHARD F 387442688
a100_80 350m 16384 8 4 2 64 23559 amp_bf16 DEFAULT FULL_SHARD F 370665472
a100_80 350m 8192 8 8 2 128 36569 amp_bf16 DEFAULT FULL_SHARD F 362276864
a100_80 350m 4096 8 16 2 256 49555 amp_bf16 DEFAULT FULL_SHARD F 358082560
a100_80 350m 2048 8 32 2 512 58782 amp_bf16 DEFAULT FULL_SHARD F 355985408
a100_80 350m 1024 8 64 2 1024 64813 amp_bf16 DEFAULT FULL_SHARD F 354936832
a100_80 350m 512 8 128 2 2048 69330 amp_bf16 DEFAULT FULL_SHARD F 354412544
a100_80 125m 65536 8 1 2 16 20368 amp_bf16 DEFAULT FULL_SHARD F 174070272
a100_80 125m 32768 8 2 2 32 36407 amp_bf16 DEFAULT FULL_SHARD F 148904448
a100_80 125m 16384 8 4 2 64 60040 amp_bf16 DEFAULT FULL_SHARD F 136321536
a100_80 125m 8192 8 8 2 128 90392 amp_bf16 DEFAULT FULL_SHARD F 130030080
a100_80 125m 4096 8 16 2 256 118396 amp_bf16 DEFAULT FULL_SHARD F 126884352
a100_80 125m 2048 8 40 2 640 142830 amp_bf16 DEFAULT FULL_SHARD F 125311488
a100_80 125m 2048 8 32 2 512 141737 amp_bf16 DEFAULT FULL_SHARD F 125311488
a100_80 125m 1024 8 64 2 1024 156468 amp_bf16 DEFAULT FULL_SHARD F 124525056
a100_80 125m 512 8 128 2 2048 165681 amp_bf16 DEFAULT FULL_SHARD F 124131840
a100_40 70b 2048 128 4 1 512 376 bf16 PURE FULL_SHARD T 64862437376
a100_40 70b 2048 64 2 1 128 276 bf16 PURE FULL_SHARD T 64862437376
a100_40 30b 2048 128 6 1 768 865 bf16 PURE FULL_SHARD T 29975214080
a100_40 30b 2048 32 4 1 128 857 bf16 PURE FULL_SHARD T 29975214080
a100_40 13b 8192 8 1 16 128 1407 bf16 PURE FULL_SHARD T 12885411840
a100_40 13b 4096 8 2 16 256 1603 bf16 PURE FULL_SHARD T 12864440320
a100_40 13b 2048 128 16 1 2048 1972 bf16 PURE FULL_SHARD T 12853954560
a100_40 13b 2048 64 16 1 1024 1976 bf16 PURE FULL_SHARD T 12853954560
a100_40 13b 2048 32 14 1 448 1998 bf16 PURE FULL_SHARD T 12853954560
a100_40 13b 2048 16 10 1 160 1993 bf16 PURE FULL_SHARD T 12853954560
a100_40 13b 2048 8 4 16 512 1668 bf16 PURE FULL_SHARD T 12853954560
a100_40 13b 1024 8 8 16 1024 1727 bf16 PURE FULL_SHARD T 12848711680
a100_40 13b 512 8 16 16 2048 1763 bf16 PURE FULL_SHARD T 12846090240
a100_40 7b 16384 8 1 4 32 2249 bf16 PURE FULL_SHARD T 6717579264
a100_40 7b 8192 8 3 4 96 2887 bf16 PURE FULL_SHARD T 6684024832
a100_40 7b 4096 8 6 4 192 3366 bf16 PURE FULL_SHARD T 6667247616
a100_40 7b 2048 128 18 1 2304 3623 bf16 PURE FULL_SHARD T 6658859008
a100_40 7b 2048 64 18 1 1152 3665 bf16 PURE FULL_SHARD T 6658859008
a100_40 7b 2048 32 18 1 576 3725 bf16 PURE FULL_SHARD T 6658859008
a100_40 7b 2048 16 16 1 256 3645 bf16 PURE FULL_SHARD T 6658859008
a100_40 7b 2048 8 12 4 384 3679 bf16 PURE FULL_SHARD T 6658859008
a100_40 7b 1024 8 24 4 768 3854 bf16 PURE FULL_SHARD T 6654664704
a100_40 7b 512 8 48 4 1536 3895 bf16 PURE FULL_SHARD T 6652567552
a100_40 3b 32768 8 1 4 32 2955 bf16 PURE FULL_SHARD T 2730480640
a100_40 3b 16384 8 2 8 128 4465 bf16 PURE FULL_SHARD T 2688537600
a100_40 3b 8192 8 1 8 64 7149 bf16 PURE FULL_SHARD F 2667566080
a100_40 3b 4096 8 2 8 128 8777 bf16 PURE FULL_SHARD F 2657080320
a100_40 3b 2048 128 6 1 768 9538 bf16 PURE FULL_SHARD F 2651837440
a100_40 3b 2048 64 6 1 384 9736 bf16 PURE FULL_SHARD F 2651837440
a100_40 3b 2048 32 6 1 192 9914 bf16 PURE FULL_SHARD F 2651837440
a100_40 3b 2048 16 5 1 80 9750 bf16 PURE FULL_SHARD F 2651837440
a100_40 3b 2048 8 5 8 320 10065 bf16 PURE FULL_SHARD F 2651837440
a100_40 3b 1024 8 10 8 640 10731 bf16 PURE FULL_SHARD F 2649216000
a100_40 3b 512 8 20 8 1280 11324 bf16 PURE FULL_SHARD F 2647905280
a100_40 1b 32768 8 1 4 32 5095 bf16 PURE FULL_SHARD T 1378865152
a100_40 1b 16384 8 1 8 64 9715 bf16 PURE FULL_SHARD F 1345310720
a100_40 1b 8192 8 2 8 128 13474 bf16 PURE FULL_SHARD F 1328533504
a100_40 1b 4096 8 4 8 256 16856 bf16 PURE FULL_SHARD F 1320144896
a100_40 1b 2048 128 10 1 1280 18647 bf16 PURE FULL_SHARD F 1315950592
a100_40 1b 2048 64 10 1 640 19001 bf16 PURE FULL_SHARD F 1315950592
a100_40 1b 2048 32 10 1 320 15555 bf16 PURE FULL_SHARD F 1315950592
a100_40 1b 2048 16 8 1 128 19085 bf16 PURE FULL_SHARD F 1315950592
a100_40 1b 2048 8 8 8 512 19271 bf16 PURE FULL_SHARD F 1315950592
a100_40 1b 1024 8 16 8 1024 20959 bf16 PURE FULL_SHARD F 1313853440
a100_40 1b 512 8 32 8 2048 21782 bf16 PURE FULL_SHARD F 1312804864
a100_40 760m 32768 8 1 4 32 7183 bf16 PURE FULL_SHARD T 807656448
a100_40 760m 16384 8 1 4 32 13914 bf16 PURE FULL_SHARD F 782490624
a100_40 760m 8192 8 3 4 96 20106 bf16 PURE FULL_SHARD F 769907712
a100_40 760m 4096 8 6 4 192 25863 bf16 PURE FULL_SHARD F 763616256
a100_40 760m 2048 128 12 1 1536 28940 bf16 PURE FULL_SHARD F 760470528
a100_40 760m 2048 64 12 1 768 29344 bf16 PURE FULL_SHARD F 760470528
a100_40 760m 2048 32 12 1 384 29648 bf16 PURE FULL_SHARD F 760470528
a100_40 760m 2048 16 12 1 192 29607 bf16 PURE FULL_SHARD F 760470528
a100_40 760m 2048 8 12 4 384 30173 bf16 PURE FULL_SHARD F 760470528
a100_40 760m 1024 8 24 4 768 33422 bf16 PURE FULL_SHARD F 758897664
a100_40 760m 512 8 48 4 1536 34938 bf16 PURE FULL_SHARD F 758111232
a100_40 350m 32768 8 1 4 32 13416 bf16 PURE FULL_SHARD F 387442688
a100_40 350m 16384 8 2 4 64 22896 bf16 PURE FULL_SHARD F 370665472
a100_40 350m 8192 8 4 4 128 34933 bf16 PURE FULL_SHARD F 362276864
a100_40 350m 4096 8 8 4 256 46833 bf16 PURE FULL_SHARD F 358082560
a100_40 350m 2048 128 18 1 2304 51934 bf16 PURE FULL_SHARD F 355985408
a100_40 350m 2048 64 18 1 1152 52689 bf16 PURE FULL_SHARD F 355985408
a100_40 350m 2048 32 18 1 576 53811 bf16 PURE FULL_SHARD F 355985408
a100_40 350m 2048 16 18 1 288 55413 bf16 PURE FULL_SHARD F 355985408
a100_40 350m 2048 8 16 4 512 55995 bf16 PURE FULL_SHARD F 355985408
a100_40 350m 1024 8 32 4 1024 62523 bf16 PURE FULL_SHARD F 354936832
a100_40 350m 512 8 64 4 2048 66284 bf16 PURE FULL_SHARD F 354412544
a100_40 125m 32768 8 1 4 32 32651 bf16 PURE FULL_SHARD F 148904448
a100_40 125m 16384 8 2 3 48 55484 bf16 PURE FULL_SHARD F 136321536
a100_40 125m 8192 8 5 3 120 86858 bf16 PURE FULL_SHARD F 130030080
a100_40 125m 4096 8 13 3 312 115162 bf16 PURE FULL_SHARD F 126884352
a100_40 125m 2048 128 26 1 3328 123936 bf16 PURE FULL_SHARD F 125311488
a100_40 125m 2048 64 26 1 1664 125234 bf16 PURE FULL_SHARD F 125311488
a100_40 125m 2048 32 26 1 832 127122 bf16 PURE FULL_SHARD F 125311488
a100_40 125m 2048 16 26 1 416 130535 bf16 PURE FULL_SHARD F 125311488
a100_40 125m 2048 8 26 3 624 136334 bf16 PURE FULL_SHARD F 125311488
a100_40 125m 1024 8 52 3 1248 148289 bf16 PURE FULL_SHARD F 124525056
a100_40 125m 512 8 104 3 2496 156735 bf16 PURE FULL_SHARD F 124131840
"""


def mpt_params(size: str, seq: int) -> int:
    """MPT's parameter count with learned positions and biases (the README's NumParams column)."""
    h, _heads, n_layers = MPT[size]
    return n_layers * (12 * h * h + 13 * h) + VOCAB * h + seq * h + 2 * h


def parse() -> list[dict]:
    """Every README row as a calibration-style row (``foundry_scenario``'s keys), the held 18 included."""
    out, seen = [], set()
    for line in TABLE.strip().splitlines():
        tab, size, seq, n, mbs, acc, gbs, tps, prec, mp, shard, ac, nparams = line.split()
        h, heads, n_layers = MPT[size]
        rid = f"llmfoundry-{TABLES[tab][2]}-{size}-seq{seq}-{n}gpu"
        if rid in seen:  # the A100 80GB table's two 125m seq 2048 rows
            rid += f"-mb{mbs}"
        seen.add(rid)
        out.append({"id": rid, "table": tab, "size": size, "model_name": f"MPT-{size}", "hidden_size": h,
                    "num_layers": n_layers, "num_heads": heads, "ffn_hidden_size": 4 * h, "vocab_size": VOCAB,
                    "seq_len": int(seq), "num_gpus": int(n), "micro_batch_size": int(mbs), "grad_accum": int(acc),
                    "global_batch_size": int(gbs), "tokens_per_sec_per_gpu": float(tps), "precision": prec,
                    "mp_mode": mp, "sharding": shard, "zero_stage": 3 if shard == "FULL_SHARD" else 2,
                    "activation_recompute": "full" if ac == "T" else "none", "gpu_type": TABLES[tab][1],
                    "num_params": int(nparams)})
    return out


def held_ids() -> set[str]:
    return {r["id"] for r in vt.throughput_rows() if r["id"].startswith("llmfoundry")}


def rows() -> list[dict]:
    """The rows the public set does not hold."""
    held = held_ids()
    return [r for r in parse() if r["id"] not in held]


def flag(row: dict) -> str:
    out = []
    if row["table"] == "h100fp8":
        out.append("amp_fp8 (TE linears) as fp8 te_delayed")
    if row["mp_mode"] == "PURE":
        out.append("FSDP PURE bf16 as bf16")
    return "; ".join(out)


#: ``--flash1`` (sensitivity, not the entry): the Triton FlashAttention kernel llm-foundry v0.3.0 ran
#: (``attn_impl: triton``) entered as ``attention_kernel: flash1`` — on Ampere it runs at FlashAttention-1's rate,
#: not FlashAttention-2's (FlashAttention-2 paper, Dao 2023, arXiv:2307.08691, Figure 4; the same figure is
#: ``assets/flash2_a100_fwd_bwd_benchmark.png`` in github.com/Dao-AILab/flash-attention @4f285b35, causal fwd+bwd,
#: A100 80GB: "FlashAttention Triton" 59/75/79/76/79/80 (head dim 64) and 50/61/68/74/78/80 (head dim 128) TFLOP/s at
#: 512 … 16k against FlashAttention 58/70/77/87/92/97 and 55/62/69/76/80/83, FlashAttention-2 88 … 171 and 99 … 189).
#: Not the entry: the same mapping moves the public set's llm-foundry rows (same stack) further too slow (note §4).
FLASH1 = "--flash1" in sys.argv


def scenario(row: dict) -> dict:
    sc = vt.foundry_scenario(row)[0]
    if row["table"] == "h100fp8":
        sc["training"] = {**sc["training"], "precision": "fp8", "fp8_recipe": "te_delayed"}
    if FLASH1:
        sc["training"] = {**sc["training"], "attention_kernel": "flash1"}
    return sc


def family(row: dict) -> str:
    gpu = {"h100L": "H100", "h100": "H100", "h100fp8": "H100 FP8", "a100_80": "A100 80GB",
           "a100_40": "A100 40GB"}[row["table"]]
    return f"{gpu}, {'8 GPUs' if row['num_gpus'] == 8 else '16+ GPUs'}"


def results() -> list[dict]:
    res = vbd.results([(row, row["tokens_per_sec_per_gpu"]) for row in rows()], lambda pair: scenario(pair[0]))
    for i, r in enumerate(res):
        r["row"] = row = r["row"][0]
        r["family"], r["flag"] = family(row), flag(row)
        r["before"] = BEFORE[i] if i < len(BEFORE) else None
    return res


def _err(r, key="pred"):
    v = r[key]
    return None if v is None else v / r["pub"] - 1


def _group(name, sub, key="pred"):
    e = [_err(r, key) for r in sub if r[key] is not None]
    if not e:
        return f"| {name} | 0 | — | — | — |"
    a = [abs(x) for x in e]
    return f"| {name} | {len(e)} | {statistics.median(a):.1%} | {vbd._pct(a, 0.9):.1%} | {statistics.median(e):+.1%} |"


def _pct_or_dash(x) -> str:
    return "—" if x is None else f"{x:+.1%}"


def row_lines(res) -> list[str]:
    out = ["| # | table | model | seq | GPUs | MBS × accum | AC | sharding | published tok/s/GPU | before | now | "
           "error before | error now | top part | note |",
           "|---:|---|---|---:|---:|---|---|---|---:|---:|---:|---:|---:|---|---|"]
    for i, r in enumerate(res):
        row = r["row"]
        now = "—" if r["pred"] is None else f"{r['pred']:,.0f}"
        bef = "—" if r["before"] is None else f"{r['before']:,}"
        out.append(f"| {i} | {row['table']} | {row['size']} | {row['seq_len']} | {row['num_gpus']} | "
                   f"{row['micro_batch_size']} × {row['grad_accum']} | {row['activation_recompute']} | "
                   f"{row['sharding']} | {r['pub']:,.0f} | {bef} | {now} | {_pct_or_dash(_err(r, 'before'))} | "
                   f"{_pct_or_dash(_err(r))} | {r['top'] or r['why']} | {r['flag']} |")
    return out


def seq_band(row: dict) -> str:
    s = row["seq_len"]
    return "seq ≤ 2k" if s <= 2048 else ("seq 4k–8k" if s <= 8192 else "seq ≥ 16k")


def group_lines(res, key="pred") -> list[str]:
    out = ["| group | rows | median |err| | p90 |err| | signed median |", "|---|---:|---:|---:|---:|"]
    for fam in sorted(dict.fromkeys(r["family"] for r in res)):
        out.append(_group(fam, [r for r in res if r["family"] == fam], key))
    for band in ("seq ≤ 2k", "seq 4k–8k", "seq ≥ 16k"):
        out.append(_group(band, [r for r in res if seq_band(r["row"]) == band], key))
    for ac in ("none", "full"):
        out.append(_group(f"AC {ac}", [r for r in res if r["row"]["activation_recompute"] == ac], key))
    out.append(_group("rows without a flag", [r for r in res if not r["flag"]], key))
    out.append(_group("all rows", res, key))
    return out


def main(argv=None) -> int:
    res = results()
    print("\n".join(row_lines(res)))
    if all(r["before"] is not None for r in res):
        print("\nBefore (main 96ef3860):\n")
        print("\n".join(group_lines(res, "before")))
    print("\nNow:\n")
    print("\n".join(group_lines(res)))
    n, med, p90, sgn = vbd.stats(res)
    print(f"\nSCORE (now): {n} rows, median |error| {med:.1%}, p90 {p90:.1%}, signed median {sgn:+.1%}")
    if "--before" in (argv or sys.argv[1:]):
        print("BEFORE =", [None if r["pred"] is None else round(r["pred"]) for r in res])
    return 0


#: predictions on main 96ef3860 before any change of this round (tokens/s per GPU, ``rows()`` order)
BEFORE = [897, 898, 1901, 1909, 1912, 4278, 4294, 4303, 10041, 10140, 22206, 22715, 42195, 43151, 43640, 833, 1664, 1706,
          1938, 1925, 1870, 2363, 3124, 4094, 5048, 5051, 5023, 4440, 2651, 4054, 6720, 8316, 4651, 7549, 13869,
          18124, 21211, 22671, 22792, 23217, 24400, 25027, 7965, 16734, 25022, 33119, 39728, 44107, 44207, 44233,
          46139, 47987, 23439, 36260, 49772, 61168, 68938, 69019, 69076, 73850, 76493, 8479, 22349, 30676, 33878,
          18196, 39007, 62350, 356, 749, 747, 793, 797, 1294, 1549, 1712, 1809, 1889, 1681, 2300, 2819, 3178, 3576,
          3143, 4612, 7803, 9238, 10094, 10587, 10877, 11020, 5511, 10906, 14540, 17379, 19350, 20929, 21430, 7763,
          15884, 22006, 27193, 30826, 33032, 34258, 34906, 16175, 26133, 37756, 48552, 56652, 61808, 64754, 66336,
          42272, 68279, 98615, 126779, 147898, 161541, 161336, 169014, 173134, 349, 792, 779, 1617, 1704, 1811,
          1808, 1796, 1752, 1776, 1789, 2710, 3065, 3266, 3393, 3394, 3394, 3387, 3435, 3464, 4474, 5785, 8619,
          9397, 9930, 9973, 9985, 9898, 9942, 10185, 10310, 8045, 13875, 16512, 18246, 19207, 19286, 19315, 19199,
          19257, 19806, 20092, 11702, 20832, 25644, 28861, 30486, 30656, 30730, 30742, 30793, 31859, 32420, 25156,
          35782, 45364, 52376, 56106, 56501, 56688, 56755, 56764, 59245, 60569, 65336, 92678, 117461, 135691,
          144947, 146014, 146533, 146752, 146926, 153271, 156653]


if __name__ == "__main__":
    raise SystemExit(main())
