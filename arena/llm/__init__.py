"""Provider-neutral chat-model types and the adapters that speak to real providers."""
