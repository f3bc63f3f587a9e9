"""`python -m arena`: the same entry point as the `arena` console script (`arena.cli:main`).

Useful where the console script is not on PATH (a bare checkout with `PYTHONPATH=.`, or a
venv that is not activated): `python -m arena play --board std9`.
"""

from __future__ import annotations

import sys

from arena.cli import main

if __name__ == "__main__":
    sys.exit(main())
