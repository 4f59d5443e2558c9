"""cardgame's compiler and engine: grammar -> parse tree -> AST -> checks -> code -> Game.

One subpackage per layer, each importing only the layers below it (tests/test_layers.py):
`lang` (text to checked program), `codegen` (program to Python), `engine` (the game API),
`observe` (what a seat may know), then the tools on top: `bots`, `solve`, `fuzz`,
`analysis`, and the thin `cli`. `errors`, `cards`
and `options` are shared by all. This package root holds only `__version__`.
"""

from __future__ import annotations

import importlib.metadata

try:
    __version__ = importlib.metadata.version("cardgame")
except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a bare source tree
    __version__ = "0+unknown"
