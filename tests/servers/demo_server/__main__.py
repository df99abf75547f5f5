"""Runs the demo server: `python tests/servers/demo_server [options]` (a directory, as a
script) or `python -m demo_server [options]` with `tests/servers` on the path."""

import sys
from pathlib import Path

if not __package__:
    # Run as a directory: Python put the package's own folder first on the path, where its
    # modules would shadow top-level names; put the folder that holds the package there.
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    sys.path.insert(0, str(here.parent))

from demo_server.cli import main  # noqa: E402 - needs the path above

sys.exit(main())
