"""The provider layer: provider-neutral chat types and the adapters that speak to providers.

Only this package imports `openai` or `langchain_*`. It knows nothing of the game: the
model seat (`arena.agents.model`) builds the prompts and hands each endpoint the probe it
asks (`base.Dialogue`), so nothing here imports the rules, the seats or the storage.
"""
