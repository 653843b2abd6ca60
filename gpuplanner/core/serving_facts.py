"""Achieved fractions of the hardware roofs that serving engines reach: shared by the serving sizing
(:mod:`core.inference`) and the RL rollouts inside a training step (:mod:`core.timing`), so the training time
formula sheet needs no import of the serving module (``gpuplanner estimate`` loads only what it runs:
tests/test_cli_imports.py).

Sources:
- ``DECODE_MBU_HBM`` 0.6: Databricks/MosaicML, "LLM Inference Performance Engineering: Best Practices"
  (databricks.com/blog, October 2023): model bandwidth utilisation about 60% decoding 7B models at small batch
  on A100/H100.
- ``DECODE_MBU_GDDR`` 0.75: GDDR cards at batch 1 (``inference.GDDR_BOARDS``: the median of the llama.cpp
  table cited there).
"""

from __future__ import annotations

DECODE_MBU_HBM = 0.6
DECODE_MBU_GDDR = 0.75
