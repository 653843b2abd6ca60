"""Entry point: ``gpuplanner`` opens the app; ``gpuplanner COMMAND ...`` runs the command line."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    from .cli import command_names, run_cli

    if argv and (argv[0] in ("-h", "--help", "--version") or argv[0] in command_names()):
        return run_cli(argv)
    # Otherwise: the desktop app (optional plan file, --self-test).
    from .ui.app import run_app

    return run_app(argv)


if __name__ == "__main__":
    sys.exit(main())
