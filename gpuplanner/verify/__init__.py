"""Verification of the rented server: ``nvidia-smi topo -m`` parsing and diagnosis (:mod:`.topology`), the
acceptance-test kit and the analysis of its results (:mod:`.acceptance`; the benchmark program itself is
:mod:`.kit_bench`, a real module). Builds on :mod:`gpuplanner.core`; never imports the UI."""
