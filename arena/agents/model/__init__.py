"""The model seat: a chat model playing a seat, one step per module.

`agent.LLMAgent` asks the model through `arena.llm`'s `ChatModel`, in one append-only
`conversation` per seat; `library` reads the versioned prompts (`prompts/`), `rules_text`
renders the board's rules, `tools` gives the one `act` tool and each request's legal
answers, `parsing` reads a reply into an action, `overflow` condenses a chat that outgrew
its context, and `probe` is the dialogue each endpoint is probed with before a game.
"""
