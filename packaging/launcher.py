"""PyInstaller entry script: the frozen ``gpuplanner`` executable runs the package's console entry point.

(A script, not ``gpuplanner/__main__.py`` itself, because that module uses relative imports.)
"""

import sys

from gpuplanner.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
