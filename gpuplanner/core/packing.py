"""How full a packed row is when a tool packs whole samples and does not pad the row (pure).

ms-swift's ``--packing true`` (modelscope/ms-swift @3602360, ``swift/dataset/packing.py``):

- ``PackingDataset`` takes the encoded samples in groups of ``PACKING_BATCH_SIZE`` = 1000 and packs each group with
  ``calculate_matched_group``, whose default strategy calls ``binpacking.to_constant_volume(sequences,
  packing_length)``: best-fit decreasing (benmaier/binpacking ``to_constant_volume.py``: the samples sorted longest
  first, each put into the fullest open row it fits, else a new row). ``packing_length`` defaults to ``max_length``.
- Samples longer than ``max_length`` are dropped (``TemplateArguments.truncation_strategy`` default ``delete``).
- The packed row is not padded to ``max_length``: the template runs as ``padding_free`` (``Template._data_collator``
  concatenates the row's samples and pads only where Megatron's ``padding_to`` asks for it).

So a packed row carries the sum of its samples, not ``max_length`` tokens: with samples of a size comparable to the
row (long-context data), best-fit leaves part of most rows empty and each step runs fewer tokens. The fill is found by
running the same best-fit decreasing packing on one group of samples at the mid-quantiles of their length
distribution: log-normal with the data's mean and spread, as :func:`flops.expected_longest` takes it, cut at the row
(samples above it dropped).

TRL's ``SFTTrainer`` with ``packing`` (huggingface/trl @f2cd577, ``trl/data_utils.py`` ``pack_dataset``; default
``packing_strategy`` ``"bfd"``, ``sft_config.py``): ``dataset.map(_pack_bfd, batched=True)`` packs each map batch (the
``datasets`` default ``batch_size`` = 1000) by best-fit decreasing, truncating a sample longer than ``max_length``
(``on_seq_length_overflow="truncate"``), and the trainer then runs padding-free (``sft_trainer.py``:
``padding_free = args.padding_free or (args.packing and args.packing_strategy in {"bfd", "bfd_split"})``): rows are
not padded either. ``bfd`` is the default since 0353d6766 (2025-07-07; first-fit decreasing from fef915e36,
2025-06-02); TRL's ``"wrapped"`` strategy, and TRL's packing before June 2025, fill rows completely.

LLaMA-Factory and Axolotl pad a packed row to the cut-off (LLaMA-Factory ``data/processor/supervised.py``
``PackedSupervisedDatasetProcessor.preprocess_dataset``: a row shorter than ``cutoff_len + 1`` is padded to it, "avoid
flash_attn drops attn mask"; Axolotl's ``pad_to_sequence_len`` is on with ``sample_packing``): their rows run full,
as before.
"""

from __future__ import annotations

import bisect
import math
from functools import lru_cache
from statistics import NormalDist

from .lognormal import lognormal_loc_sig

#: ms-swift ``swift/dataset/packing.py`` ``PackingDataset.PACKING_BATCH_SIZE``: the samples packed together
SWIFT_PACK_GROUP = 1000
#: TRL ``pack_dataset``: ``datasets.Dataset.map(batched=True)`` with its default ``batch_size`` of 1000
TRL_PACK_GROUP = 1000
#: tools whose packed rows are not padded to the row length: the group each packs at once and what happens to a
#: sample longer than the row (ms-swift drops it, TRL's ``bfd`` truncates it to a full row)
UNPADDED_PACKERS = {"ms-swift": (SWIFT_PACK_GROUP, "delete"), "trl": (TRL_PACK_GROUP, "truncate")}


def kept_lengths(mean: float, cv: float, cap: float, n: int, overflow: str = "delete") -> list[float]:
    """``n`` sample lengths at the mid-quantiles of a log-normal (mean ``mean``, spread ``cv``) cut at ``cap``:
    samples above it dropped (``overflow`` "delete", ms-swift's ``truncation_strategy``) or cut to ``cap``
    ("truncate", TRL's ``bfd``)."""
    loc, sig = lognormal_loc_sig(mean, cv)
    nd = NormalDist()
    top = nd.cdf((math.log(cap) - loc) / sig) if overflow == "delete" else 1.0
    return [min(cap, math.exp(loc + sig * nd.inv_cdf(top * (i + 0.5) / n))) for i in range(n)]


def best_fit_decreasing(lengths: list[float], cap: float) -> list[float]:
    """The rows' loads after best-fit decreasing packing (benmaier/binpacking ``to_constant_volume``: longest
    first, each into the fullest row it fits, else a new row)."""
    loads: list[float] = []  # kept sorted
    for w in sorted(lengths, reverse=True):
        i = bisect.bisect_right(loads, cap - w) - 1  # the fullest row with room for w
        if i >= 0:
            load = loads.pop(i) + w
        else:
            load = w
        bisect.insort(loads, load)
    return loads


@lru_cache(maxsize=256)
def _fill(mean: float, cv: float, cap: float, group: int, overflow: str) -> float:
    loads = best_fit_decreasing(kept_lengths(mean, cv, cap, group, overflow), cap)
    return sum(loads) / (len(loads) * cap)


def packed_row_fill(tool: str, mean_sample_len: float | None, cv: float, cap: float) -> float:
    """Mean tokens of a packed row over ``cap`` for ``tool`` (1.0 where the tool pads its rows or the samples
    fill them: no mean given, or a mean at the cap)."""
    packer = UNPADDED_PACKERS.get(tool)
    if packer is None or mean_sample_len is None or float(mean_sample_len) >= cap:
        return 1.0
    if cv <= 0.0:  # every sample the same length: as many whole samples as fit a row
        return math.floor(cap / float(mean_sample_len)) * float(mean_sample_len) / cap
    group, overflow = packer
    return _fill(round(float(mean_sample_len), 3), round(float(cv), 6), float(cap), group, overflow)
