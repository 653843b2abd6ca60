"""Start the desktop application."""

from __future__ import annotations

import argparse
import sys


def run_app(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="gpuplanner", description="GPU Planner desktop app")
    parser.add_argument("file", nargs="?", help="a scenario or .gpuplan file to open")
    parser.add_argument("--self-test", action="store_true", help="open the window, render every page, exit 0")
    args = parser.parse_args(argv)

    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("GPU Planner")
    app.setOrganizationName("GPU Planner")
    window = MainWindow()
    window.show()
    if args.self_test:
        return window.self_test()
    return app.exec()
