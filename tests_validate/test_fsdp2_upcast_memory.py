"""Issue 35 round 15 (mgpumem15): what Accelerate's FSDP2 preparation does to a LoRA model's frozen base, replayed on
the CPU (gloo, one rank) against core.memory.fsdp2_fp32_base_applies.

Accelerate through v1.12.0 ends ``fsdp2_prepare_model`` with ``model = model.to(torch.float32)`` when
``mixed_precision != "no"``; from d1c96ba9 (#3848, v1.13.0) it casts only ``requires_grad`` parameters. The test
builds bf16 blocks (a frozen base linear and trainable fp32 adapters, as PEFT's ``autocast_adapter_dtype`` leaves
them), applies ``fully_shard`` with Accelerate's ``MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=bf16)``, runs
each cast, and reads (1) the bytes of every rank-local shard and (2) the dtype of the weight a forward computes
with (the all-gathered copy)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
dist = pytest.importorskip("torch.distributed")
from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard  # noqa: E402

H, R, BLOCKS = 256, 8, 3


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.base = torch.nn.Linear(H, H, bias=False, dtype=torch.bfloat16).requires_grad_(False)
        self.a = torch.nn.Linear(H, R, bias=False, dtype=torch.float32)
        self.b = torch.nn.Linear(R, H, bias=False, dtype=torch.float32)
        self.seen = None

    def forward(self, x):
        self.seen = self.base.weight.dtype  # the weight the forward computes with (unsharded by FSDP2's pre-hook)
        return self.base(x) + self.b(self.a(x.float())).to(x.dtype)


@pytest.fixture(scope="module")
def group(tmp_path_factory):
    store = dist.FileStore(str(tmp_path_factory.mktemp("pg") / "store"), 1)
    dist.init_process_group("gloo", store=store, rank=0, world_size=1)
    yield
    dist.destroy_process_group()


def _model():
    torch.manual_seed(0)
    m = torch.nn.Sequential(*[Block() for _ in range(BLOCKS)])
    mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.bfloat16)
    for blk in m:
        # Accelerate wraps the LoRA layers apart from the frozen base (its auto-wrap plus PEFT's policy); one unit
        # per dtype keeps fully_shard's one-dtype rule
        fully_shard(blk.a, mp_policy=mp)
        fully_shard(blk.b, mp_policy=mp)
        fully_shard(blk, mp_policy=mp)
    fully_shard(m, mp_policy=mp)
    return m


def _shard_bytes(m, trainable: bool) -> int:
    return sum(p.to_local().numel() * p.to_local().element_size() for p in m.parameters()
               if p.requires_grad == trainable)


def _forward_dtype(m):
    x = torch.randn(2, H, dtype=torch.bfloat16)
    m(x)
    return {blk.seen for blk in m}


def test_accelerate_le_1_12_casts_the_frozen_shard(group):
    m = _model()
    frozen_bf16 = _shard_bytes(m, False)
    assert frozen_bf16 == BLOCKS * H * H * 2
    m = m.to(torch.float32)  # accelerate <= 1.12: fsdp2_prepare_model's cast
    assert _shard_bytes(m, False) == 2 * frozen_bf16  # 4 bytes a frozen parameter
    assert _forward_dtype(m) == {torch.bfloat16}  # the gathered compute copy stays in param_dtype


def test_accelerate_1_13_leaves_the_frozen_shard(group):
    m = _model()
    frozen_bf16 = _shard_bytes(m, False)
    for p in m.parameters():  # d1c96ba9: only parameters that require grad
        if p.requires_grad and p.dtype != torch.float32:
            p.data = p.data.to(torch.float32)
    assert _shard_bytes(m, False) == frozen_bf16
