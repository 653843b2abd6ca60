"""Argument types shared by the CLI subcommands."""

from __future__ import annotations

import argparse


def positive_int(value: str) -> int:
    """argparse type: a whole number ≥ 1, with a one-line message otherwise."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {n}")
    return n
