"""Bots that choose moves."""
from .simple import BOTS, Bot, make_bot  # noqa: F401  (the registry, re-exported)
