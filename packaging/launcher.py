"""PyInstaller entry script: the frozen ``gpuplanner`` executable runs the package's console entry point.

(A script, not ``gpuplanner/__main__.py`` itself, because that module uses relative imports.)
"""

import sys

from gpuplanner.__main__ import main

if __name__ == "__main__":
    # The plan search runs in a process of its own (gpuplanner/app/search_process.py: ``spawn`` when frozen). In
    # the frozen app that process is this executable started again with multiprocessing's arguments:
    # freeze_support() (patched by PyInstaller's pyi_rth_multiprocessing hook) runs the child's work and exits
    # before the app would open a second window.
    import multiprocessing

    multiprocessing.freeze_support()
    sys.exit(main())
