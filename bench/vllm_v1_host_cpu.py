"""vLLM 0.8.5 V1's host work per decode step of an in-process engine, timed on this machine's CPU (issue 35 round 11,
helper rollv1_12). Needs vLLM 0.8.5 and torch 2.6.0 installed apart from the planner (``pip install vllm==0.8.5``;
the CUDA wheels import without a GPU); no model weights, no GPU: a Qwen2.5-7B ``config.json`` is written to a temporary
folder and the tokenizer is skipped.

What it times, each step of a steady decode of ``n`` requests (``prompt`` tokens each, ``ignore_eos``):
``Scheduler.schedule()``; the model runner's output lists as ``GPUModelRunner.execute_model`` builds them
(``sampled_token_ids.tolist()`` and ``LogprobsTensors.tolists()``); ``Scheduler.update_from_output``; and
``OutputProcessor.process_outputs`` — the four host parts an in-process V1 engine (``LLM`` with
``distributed_executor_backend="external_launcher"``, which sets ``VLLM_ENABLE_V1_MULTIPROCESSING=0``: verl's
rollout; NeMo RL sets it itself) runs between two forwards, one after the other (``LLMEngine.step`` →
``InprocClient.get_output`` → ``EngineCore.step``, then ``output_processor.process_outputs``). Sampling parameters
as verl's: ``logprobs=0`` (the sampled token's log-probability), ``detokenize=False``, ``RequestOutputKind.FINAL_ONLY``
(``LLM.generate``); and ``logprobs=None`` for the serving case. Not timed: the model runner's ``_update_states`` and
``_prepare_inputs`` (they need the GPU's tensors) and the forward's own launches.

Usage: python bench/vllm_v1_host_cpu.py [--steps 200] [--long]
(``--long``: 1,000 steps at 256 and 1,024 requests, the step time by blocks of 100 steps.)
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

QWEN25_7B = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 3584,
             "intermediate_size": 18944, "num_hidden_layers": 28, "num_attention_heads": 28,
             "num_key_value_heads": 4, "vocab_size": 152064, "max_position_embeddings": 32768,
             "rope_theta": 1000000.0, "rms_norm_eps": 1e-06, "hidden_act": "silu", "tie_word_embeddings": False,
             "torch_dtype": "bfloat16", "bos_token_id": 151643, "eos_token_id": 151643, "sliding_window": 131072,
             "max_window_layers": 28, "use_sliding_window": False, "attention_dropout": 0.0}


class _NoTokenizer:
    """The OutputProcessor's tokenizer group: none (``detokenize=False`` drops it anyway)."""

    def get_lora_tokenizer(self, lora_request=None):
        return None


def _engine(model_dir: str, n_max: int):
    import torch
    import vllm.platforms.interface as pi
    from vllm.config import CacheConfig, ModelConfig, SchedulerConfig, VllmConfig
    from vllm.v1.core.sched.scheduler import Scheduler
    from vllm.v1.engine.output_processor import OutputProcessor
    from vllm.v1.kv_cache_interface import FullAttentionSpec, KVCacheConfig, KVCacheGroupSpec
    from vllm.v1.structured_output import StructuredOutputManager
    # no GPU platform here: V0's async output processing check is the only platform query VllmConfig makes
    pi.Platform.is_async_output_supported = classmethod(lambda cls, enforce_eager: False)
    mc = ModelConfig(model=model_dir, task="generate", tokenizer=model_dir, tokenizer_mode="auto",
                     trust_remote_code=False, dtype="bfloat16", seed=0, max_model_len=4096, skip_tokenizer_init=True)
    cc = CacheConfig(block_size=16, gpu_memory_utilization=0.9, swap_space=0, cache_dtype="auto",
                     enable_prefix_caching=True)
    cc.num_gpu_blocks = 400_000
    sc = SchedulerConfig(max_num_seqs=n_max, max_num_batched_tokens=max(8192, n_max), max_model_len=4096)
    vc = VllmConfig(model_config=mc, cache_config=cc, scheduler_config=sc)
    spec = FullAttentionSpec(block_size=16, num_kv_heads=4, head_size=128, dtype=torch.bfloat16, use_mla=False)
    kvc = KVCacheConfig(num_blocks=400_000, tensors={},
                        kv_cache_groups=[KVCacheGroupSpec(["model.layers.0.self_attn.attn"], spec)])
    return Scheduler(vc, kvc, StructuredOutputManager(vc), log_stats=False), OutputProcessor(_NoTokenizer(), False)


def run(model_dir: str, n: int, logprobs, steps: int, prompt: int = 100) -> list[dict]:
    """Per steady decode step: seconds of each host part."""
    import torch
    from vllm.sampling_params import RequestOutputKind, SamplingParams
    from vllm.v1.engine import EngineCoreRequest
    from vllm.v1.outputs import LogprobsTensors, ModelRunnerOutput
    from vllm.v1.request import Request
    sched, proc = _engine(model_dir, n)
    for i in range(n):
        sp = SamplingParams(n=1, logprobs=logprobs, max_tokens=steps + 50, detokenize=False, ignore_eos=True)
        sp.output_kind = RequestOutputKind.FINAL_ONLY  # LLM.generate
        req = EngineCoreRequest(request_id=str(i), prompt_token_ids=[(i * 7 + j) % 150_000 for j in range(prompt)],
                                mm_inputs=None, mm_hashes=None, mm_placeholders=None, sampling_params=sp,
                                eos_token_id=151643, arrival_time=time.time(), lora_request=None)
        proc.add_request(req, None)
        sched.add_request(Request.from_engine_core_request(req))
    out = []
    for s in range(steps):
        t0 = time.perf_counter()
        so = sched.schedule()
        t1 = time.perf_counter()
        ids = list(so.num_scheduled_tokens.keys())
        sampled = torch.full((len(ids), 1), 1000 + s, dtype=torch.int64)
        lp = None
        if logprobs is not None:
            lp = LogprobsTensors(sampled.clone(), torch.full((len(ids), 1), -0.5),
                                 torch.ones(len(ids), dtype=torch.int64)).tolists()
        mro = ModelRunnerOutput(req_ids=ids, req_id_to_index={r: k for k, r in enumerate(ids)},
                                sampled_token_ids=sampled.tolist(), spec_token_ids=None, logprobs=lp,
                                prompt_logprobs_dict={})
        t2 = time.perf_counter()
        eco = sched.update_from_output(so, mro)
        t3 = time.perf_counter()
        proc.process_outputs(eco.outputs)
        t4 = time.perf_counter()
        if so.total_num_scheduled_tokens == len(ids) == n:  # steady decode only
            out.append({"schedule": t1 - t0, "runner_lists": t2 - t1, "update": t3 - t2, "process": t4 - t3})
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--long", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "config.json").write_text(json.dumps(QWEN25_7B))
        if args.long:
            for lp in (0, None):
                for n in (256, 1024):
                    per = [sum(r.values()) for r in run(d, n, lp, 1000)]
                    blocks = [statistics.mean(per[i:i + 100]) * 1e3 for i in range(0, len(per) - 99, 100)]
                    print(f"logprobs={lp} n={n} mean {statistics.mean(per) * 1e3:.2f} ms, "
                          f"{statistics.mean(per) / n * 1e6:.1f} µs a request; by 100 steps (ms): "
                          + ", ".join(f"{b:.1f}" for b in blocks), flush=True)
            return
        for lp in (0, None):
            for n in (32, 64, 128, 256, 512):
                rows = run(d, n, lp, args.steps + 20)[20:]
                med = {k: statistics.median(r[k] for r in rows) * 1e6 for k in rows[0]}
                tot = sum(med.values())
                print(f"logprobs={lp} n={n}: " + ", ".join(f"{k} {v:.0f} µs" for k, v in med.items())
                      + f"; total {tot:.0f} µs, {tot / n:.1f} µs a request", flush=True)


if __name__ == "__main__":
    sys.exit(main())
