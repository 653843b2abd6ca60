"""What-if: the RL rollouts' vLLM host work per decode step, by engine, on every RL table (issue 35 round 11,
helper rollv1_12). Nothing here changes the model: each setting replaces the two constants the rollouts use
(``methods.ENGINE_STEP_S``, ``methods.ENGINE_SEQ_S``) for one run of a table script, then puts them back.

Usage: python bench/rl_loop_whatif_r11.py [--tables all|r11]

Settings (seconds a decode step: fixed + per running request):

* ``v0`` — the model as it stands: vLLM V0's RFC figures, 4 ms + 80 µs (RFC #6854 / #6801, vLLM 0.5 era).
* ``v0async`` — serve11's vLLM 0.6+ V0 figures (``inference.VLLM_V0_ERAS``): 3.8 ms + 37.6 µs.
* ``v1inproc`` — vLLM 0.8.5 V1 with its EngineCore in the trainer's process (verl, TRL colocate and NeMo RL all run
  it that way: ``external_launcher`` sets ``VLLM_ENABLE_V1_MULTIPROCESSING=0`` in vLLM's ``ParallelConfig``; NeMo RL's
  ``vllm_worker.py`` sets it itself): the serving V1 step, ``inference.ENGINE_HOST_STEP_S`` (0.43 ms), plus the per
  request work measured on this project's CPU with vLLM 0.8.5's own scheduler, ``update_from_output`` and
  ``OutputProcessor`` at ``logprobs=0, detokenize=False`` (verl's sampling parameters), bench/vllm_v1_host_cpu.py:
  :data:`V1_INPROC_SEQ_S`.

Which rows ran which engine (read in the sources): play-verl (vLLM 0.8.3) and every verl script before verl PR #2257
(2025-06-29) export ``VLLM_ATTENTION_BACKEND=XFORMERS``, which makes vLLM 0.8.x fall back to V0 (play-verl's logs:
"VLLM_ATTENTION_BACKEND=XFORMERS is not supported by the V1 Engine. Falling back to V0"); round 9's rows are vLLM
0.6.3 (V0); round 10's verl-data LoRA rows vLLM 0.9.1 V0; round 11's two report rows verl 3ebe6717a (vLLM 0.8.5+, V1,
``enforce_eager`` True); NeMo RL's rows V1 with CUDA graphs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from gpuplanner.core import methods  # noqa: E402
from gpuplanner.core.inference import ENGINE_HOST_STEP_S, VLLM_V0_ERAS  # noqa: E402

#: vLLM 0.8.5 V1, in-process engine, per running request and decode step (schedule + the runner's output lists +
#: update_from_output + process_outputs with logprobs=0): the median of bench/vllm_v1_host_cpu.py's runs at 64 to
#: 256 running requests on this project's 2-core VM, shared with other test runs, so an upper bound for that
#: configuration; a whole generation's mean (garbage collection included) is 2-7x more (docs/notes/2026-12-07/
#: issue-35-r11-rollv1_12.md, section 2). A what-if figure, not a model constant.
V1_INPROC_SEQ_S = 14e-6

SETTINGS = {
    "v0": (methods.ENGINE_STEP_S, methods.ENGINE_SEQ_S),
    "v0async": VLLM_V0_ERAS["v0async"],
    "v1inproc": (ENGINE_HOST_STEP_S, V1_INPROC_SEQ_S),
}
TABLES = {
    "r11": ["bench/rl_step_times_r11.py"],
    "all": ["bench/rl_step_times.py", "bench/rl_step_times_r9.py", "bench/rl_step_times_r10.py",
            "bench/rl_step_times_r11.py"],
}


@contextlib.contextmanager
def host_figures(step_s: float, seq_s: float):
    """The rollouts' vLLM host figures replaced for the block, then restored."""
    old = methods.ENGINE_STEP_S, methods.ENGINE_SEQ_S
    methods.ENGINE_STEP_S, methods.ENGINE_SEQ_S = step_s, seq_s
    try:
        yield
    finally:
        methods.ENGINE_STEP_S, methods.ENGINE_SEQ_S = old


def run_table(script: str, setting: str) -> str:
    """One table script's printed output under one setting."""
    buf = io.StringIO()
    argv = sys.argv
    sys.argv = [script]
    try:
        with host_figures(*SETTINGS[setting]), contextlib.redirect_stdout(buf):
            runpy.run_path(str(ROOT / script), run_name="__main__")
    finally:
        sys.argv = argv
    return buf.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", choices=sorted(TABLES), default="all")
    args = ap.parse_args()
    for script in TABLES[args.tables]:
        for setting in SETTINGS:
            print(f"=== {script} — {setting}: {SETTINGS[setting][0] * 1e3:.2f} ms + "
                  f"{SETTINGS[setting][1] * 1e6:.1f} µs a running request")
            for line in run_table(script, setting).splitlines():
                if "|error|" in line or "gen:" in line or line.startswith("- report") or line.startswith("- rlinf"):
                    print(line)


if __name__ == "__main__":
    main()
