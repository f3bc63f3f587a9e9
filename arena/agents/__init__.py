"""Agents: anything that answers the referee's decision requests."""
