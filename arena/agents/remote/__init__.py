"""A seat played by an agent behind a URL: the protocol, its signatures, and the client.

See `protocol.py` for the messages, `auth.py` for the signatures, `client.py` for how a
seat asks and times the agent, `transport.py` for the HTTP line it asks over, and
`replies.py` for how each reply is read and checked; docs/agents.md explains it for agent
authors.
"""

from arena.agents.remote.client import RemoteAgent
from arena.agents.remote.protocol import PROTOCOL, protocol_schema
from arena.agents.remote.transport import check_health

__all__ = ["PROTOCOL", "RemoteAgent", "check_health", "protocol_schema"]
