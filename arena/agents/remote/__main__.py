"""Print the protocol's JSON Schema: `python -m arena.agents.remote > …/protocol.json`."""

import sys

from arena.agents.remote.protocol import render_schema

sys.stdout.write(render_schema())
