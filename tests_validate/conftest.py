"""Harness-wide fixtures: offline (no hub, no sockets), deterministic threads."""

from __future__ import annotations

import os
import socket

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


class NetworkBlocked(RuntimeError):
    pass


_orig_connect = socket.socket.connect


@pytest.fixture(autouse=True)
def _no_network(monkeypatch):
    """Models are built from configs with random weights: any connection attempt fails the test."""

    def guard(self, address, *args, **kwargs):
        if getattr(self, "family", None) == socket.AF_UNIX:
            return _orig_connect(self, address, *args, **kwargs)
        raise NetworkBlocked(f"network access attempted: {address!r}")

    monkeypatch.setattr(socket.socket, "connect", guard)
    monkeypatch.setattr(socket.socket, "connect_ex", guard)
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: (_ for _ in ()).throw(NetworkBlocked(str(a))))
    yield


def pytest_terminal_summary(terminalreporter):
    """Print the measured-vs-estimated table after the run."""
    import harness

    if harness.RESULTS:
        terminalreporter.write_sep("-", "memory: measured (PyTorch) vs estimated (gpuplanner), MiB")
        terminalreporter.write_line(harness.table(harness.RESULTS))
