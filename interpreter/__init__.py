"""cardgame's compiler and engine: grammar -> parse tree -> AST -> checks -> code -> Game.

Stages, one module each: parser (syntax), builder (AST), loader (extends), checker
(names, types, arity), codegen (Python code over a flat state), engine (the game API).
"""

from __future__ import annotations

import importlib.metadata

try:
    __version__ = importlib.metadata.version("cardgame")
except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a bare source tree
    __version__ = "0+unknown"
