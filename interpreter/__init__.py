"""cardgame's compiler and engine: grammar -> parse tree -> AST -> checks -> code -> Game.

One subpackage per layer, each importing only the layers below it (tests/test_layers.py):
`lang` (text to checked program), `codegen` (program to Python), `engine` (the game API),
`observe` (what a seat may know), then the tools on top: `bots`, `solve`, `fuzz`,
`analysis`, and the thin `cli`. `errors`, `cards`
and `options` are shared by all. This package root holds only `__version__`.
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # `__version__` is read on demand: importing importlib.metadata costs more than a
    # short command's whole budget (`cardgame list`), and only `--version` needs it.
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib.metadata

    try:
        version = importlib.metadata.version("cardgame")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - a bare source tree
        version = "0+unknown"
    globals()["__version__"] = version
    return version
