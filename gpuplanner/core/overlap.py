"""Communication overlap: the four switches a scenario may set and each framework's defaults.

Shared facts of the memory and time models and of the framework table (``core/frameworks.py`` reports the
defaults, ``core/timing.py`` prices what stays exposed): kept in a module of their own that imports nothing of
the formula sheets, so none of them needs another to know them.
"""

from __future__ import annotations

from .arrayops import ScalarOps

#: The four overlap switches of a scenario (``training.<name>``; ``None`` = the framework's default).
OVERLAP_FIELDS = ("overlap_grad_reduce", "overlap_param_gather", "tp_comm_overlap", "overlap_p2p_comm")


#: What the DeepSpeed configs a fine-tuning tool ships (engine ``hf`` with ZeRO ≥ 1) do: ``overlap_comm`` under
#: ZeRO-1/2, ``overlap_comm`` under ZeRO-3, and whether ZeRO-3 prefetches (a ``stage3_max_live_parameters`` of 0
#: leaves ``fetch_sub_module`` no room to prefetch: ``max_params_to_prefetch = min(max_live − available, bucket)``,
#: deepspeed/runtime/zero/partitioned_param_coordinator.py). Sources, per tool: ``hf`` — the Transformers DeepSpeed
#: guide's ZeRO-2/ZeRO-3 templates (``docs/source/en/deepspeed.md``: ``overlap_comm`` true, max live 1e9);
#: ``ms-swift`` — ``swift/llm/ds_config/zero2.json``, ``zero3.json`` (``overlap_comm`` false since ms-swift 3.3,
#: modelscope/ms-swift e5c4c39ec "compat transformers 4.50", PR #3625, 2025-03-24, every ZeRO config of the tool; still
#: false in ``swift/config/zero3.json`` at 3602360; earlier versions said true: a run on one of those sets
#: ``training.overlap_grad_reduce``); ``axolotl`` —
#: ``deepspeed_configs/zero2.json`` (true) and ``zero3.json``/``zero3_bf16.json`` (true, but
#: ``stage3_max_live_parameters`` 0); ``llamafactory`` — ``examples/deepspeed/ds_z2_config.json`` and
#: ``ds_z3_config.json`` (``overlap_comm`` false, 2025-10 onwards; earlier versions said true); ``trl`` —
#: ``examples/accelerate_configs/deepspeed_zero2/3.yaml`` through Accelerate's ``DeepSpeedPlugin``, whose generated
#: config sets stage and offload only, so DeepSpeed's own defaults hold (``overlap_comm`` = ZeRO-3 only).
DS_TOOL_OVERLAP = {
    "hf": (True, True, True),
    "ms-swift": (False, False, True),
    "axolotl": (True, True, False),
    "llamafactory": (False, False, False),
    "trl": (False, True, True),
}

#: Megatron tools that keep Megatron-LM's own overlap defaults, off: Megatron-SWIFT declares ``tp_comm_overlap``,
#: ``overlap_grad_reduce`` and ``overlap_param_gather`` ``False`` (modelscope/ms-swift
#: ``swift/megatron/arguments/megatron_args.py`` at 3602360; ``swift/megatron/argument/megatron_args.py`` at
#: ad907793e, ea766ff5b, 98c652525), and no example script under ``examples/megatron`` turns them on;
#: ``overlap_p2p_comm`` True, which Megatron keeps for the interleaved schedule only (issue 35 round 9, swiftmoe9)
NO_OVERLAP_TOOLS = ("megatron-swift",)


#: GPT-NeoX v1.0's overlap switches (grad, param, TP, p2p; issue 35 round 10, neox11): ``megatron/training.py`` builds
#: ``GPT2ModelPipe`` whenever ``pipe-parallel-size`` >= 1 (its shipped configs, the Pythia ones included, set 1), so
#: DeepSpeed's pipeline engine runs: gradients reduced after the whole schedule (``pipe/schedule.py``
#: ``TrainSchedule``: ``ReduceGrads`` at the last step), blocking p2p sends (``pipe/p2p.py``), ZeRO-1's weight
#: all-gather inside ``step()`` (``stage_1_and_2.py`` ``all_gather_dp_groups``), Megatron's TP without userbuffers.
GPT_NEOX_OVERLAP = (False, False, False, False)


def overlap_flags(framework: str, zero, vpp, pp, sp, ops=ScalarOps, *, overlap_grad_reduce=None,
                  overlap_param_gather=None, tp_comm_overlap=None, overlap_p2p_comm=None, tool: str | None = None):
    """The overlap switches in force: the scenario's value where it gives one, else the framework default.

    Defaults (what each framework does when the user does not say), element-wise over ``zero``/``vpp``/``pp``/
    ``sp`` (candidate arrays in the search):

    ============== ====================================== ============================ =================
    switch         megatron                               fsdp (FSDP2/torchtitan)      deepspeed / hf
    ============== ====================================== ============================ =================
    grad reduce    on                                     on                           deepspeed: ZeRO-3
                                                                                       only; hf: DDP on,
                                                                                       ZeRO: the tool's
    param gather   on with the distributed optimizer      on (sharded weights:         ZeRO-3: as grad
                   (ZeRO-1)                               ZeRO-2/3)                    reduce; else off
    TP comm        on with sequence parallelism           off                          (no TP)
    PP p2p         on with the interleaved schedule       off                          off
    ============== ====================================== ============================ =================

    Sources: Megatron-LM's own flags default off (``--overlap-grad-reduce``, ``--overlap-param-gather``,
    ``--tp-comm-overlap``: ``megatron/training/arguments.py``), but every pretraining recipe of
    Megatron-Bridge/NeMo sets ``ddp.overlap_grad_reduce = overlap_param_gather = True`` with the distributed
    optimizer and ``CommOverlapConfig(tp_comm_overlap=True)`` for its tensor-parallel models
    (``src/megatron/bridge/recipes/llama/llama3.py``), and the Megatron-LM README benchmarks run with all
    three; ``--overlap-param-gather`` needs the distributed optimizer and ``--tp-comm-overlap`` needs
    ``--sequence-parallel`` (asserted in ``arguments.py``). ``overlap_p2p_comm`` is on unless
    ``--no-overlap-p2p-communication`` and is switched off for the non-interleaved schedule (``arguments.py``).
    PyTorch DDP always reduces bucket by bucket during the backward (Li et al. 2020, arXiv:2006.15704).
    FSDP2 all-gathers the next block on a separate stream (implicit prefetching) and reduce-scatters on
    another (``torch.distributed.fsdp.fully_shard`` docs); torchtitan's async TP is off by default
    (``parallelism.enable_async_tensor_parallel``). DeepSpeed: ``overlap_comm`` defaults to true for ZeRO-3
    only (``deepspeed/runtime/zero/config.py`` ``overlap_comm_valid``). The same switch puts ZeRO-3's
    parameter all-gathers on their own stream (``deepspeed/runtime/zero/parameter_offload.py``:
    ``__allgather_stream`` is a new stream if ``overlap_comm`` else the default stream; since v0.5.10, PR #1453,
    January 2022), where ``PartitionedParameterCoordinator.fetch_sub_module`` prefetches the next
    ``stage3_prefetch_bucket_size`` (5e7) elements of the recorded module trace while the current module
    computes: the ZeRO-3 parameter gather follows the gradient switch in force. (v0.3.13–v0.5.4 had the side
    stream too, but a ``torch.cuda.synchronize()`` before every per-parameter gather made it "not async at all"
    (PR #1188, v0.5.5): ``training.ds_zero3_gather = "list"`` turns both ZeRO-3 switches off by default,
    ``timing.ds_list_collectives``; the ZeRO-3 runs of Narayanan et al. 2021, Table 2, are entered so:
    bench/validate_time.py.) The HF Trainer runs plain data parallelism through DDP and ZeRO through
    DeepSpeed with the config templates of the Transformers DeepSpeed guide, which set ``"overlap_comm":
    true`` for ZeRO-2 and ZeRO-3 (``docs/source/en/deepspeed.md``).
    """
    zero, vpp, pp, sp = ops.b(zero), ops.f(vpp), ops.f(pp), ops.b(sp)
    if tool == "nanotron":
        # Nanotron (issue 35 round 9): torch DDP reduces its fp32 gradient buffers bucket by bucket in a comm hook
        # during the backward (``trainer.py`` ``DistributedDataParallel``; ``gradient_accumulator.py``
        # ``get_fp32_accum_hook``, ``async_op=True``); ZeRO-1 all-gathers the updated weights after the step,
        # blocking (``optim/zero.py`` ``_all_gather_params``); no userbuffers TP overlap, no interleaved schedule
        d_grad, d_param, d_tp, d_p2p = True, False, False, False
    elif tool == "gpt-neox":  # DeepSpeed's pipeline engine under GPT-NeoX (GPT_NEOX_OVERLAP)
        d_grad, d_param, d_tp, d_p2p = GPT_NEOX_OVERLAP
    elif tool in NO_OVERLAP_TOOLS:  # Megatron-SWIFT: Megatron-LM's own defaults, off (NO_OVERLAP_TOOLS)
        d_grad, d_param, d_tp, d_p2p = False, False, False, (vpp > 1) & (pp > 1)
    elif framework == "megatron":
        d_grad, d_param, d_tp, d_p2p = True, zero >= 1, sp, (vpp > 1) & (pp > 1)
    elif framework == "fsdp":
        d_grad, d_param, d_tp, d_p2p = True, zero >= 2, False, False
    elif framework == "deepspeed":
        d_grad, d_param, d_tp, d_p2p = zero >= 3, False, False, False
    else:  # hf: DDP without ZeRO, DeepSpeed with the tool's shipped configs (DS_TOOL_OVERLAP)
        z12, z3, _ = DS_TOOL_OVERLAP.get(tool or "hf", DS_TOOL_OVERLAP["hf"])
        d_grad, d_param, d_tp, d_p2p = ops.where(zero >= 3, z3, ops.where(zero >= 1, z12, True)), False, False, False

    def pick(value, default):
        return default if value is None else bool(value)

    grad = pick(overlap_grad_reduce, d_grad)
    if framework in ("deepspeed", "hf"):
        # DeepSpeed ZeRO-3: one switch, overlap_comm, puts both the gradient reduce-scatter and the parameter
        # prefetch on side streams (docstring)
        prefetch = framework == "deepspeed" or DS_TOOL_OVERLAP.get(tool or "hf", DS_TOOL_OVERLAP["hf"])[2]
        d_param = (zero >= 3) & grad & prefetch
    param = pick(overlap_param_gather, d_param)
    tp = pick(tp_comm_overlap, d_tp)
    p2p = pick(overlap_p2p_comm, d_p2p)
    # what a framework cannot do stays off: TP overlap needs sequence parallelism (Megatron asserts it);
    # p2p overlap needs a pipeline
    return grad, param, tp & sp, p2p & (pp > 1)
