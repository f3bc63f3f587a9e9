"""A seat played by an agent behind a URL: the protocol, its signatures, and the client.

See `protocol.py` for the messages, `auth.py` for the signatures and `client.py` for how
a seat asks, times and checks the agent; docs/agents.md explains it for agent authors.
"""

from arena.agents.remote.client import RemoteAgent, check_health
from arena.agents.remote.protocol import PROTOCOL, protocol_schema

__all__ = ["PROTOCOL", "RemoteAgent", "check_health", "protocol_schema"]
