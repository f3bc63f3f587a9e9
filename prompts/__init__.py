"""The versioned prompt library of the model seats: data only (see `README.md`).

A package so that the wheel ships it as `arena.prompts` and `importlib.resources` finds it
there; in a source checkout it is the top-level `prompts/` folder.
"""
