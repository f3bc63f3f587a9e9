"""Werewolf Arena: a referee, agents, queue and dashboard for Werewolf (狼人杀) among LLMs."""

__version__ = "0.1.0"
