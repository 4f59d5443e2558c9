"""The pipeline: file -> parse -> AST -> merged declarations -> checks -> code -> Game."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from ..codegen import generate
from ..errors import Diagnostic
from ..lang.ast import Span
from ..lang.checker import check
from ..lang.loader import Loaded, load, resolve_game
from .game import Game

_cache: dict[tuple[str, str, int | None, tuple[tuple[str, str], ...]], Game] = {}


def source_id(loaded: Loaded) -> str:
    """A fingerprint of every file the game was built from (saves check it)."""
    h = hashlib.sha256()
    for name in loaded.chain:
        h.update(name.encode())
        h.update(loaded.sources[name].encode())
    return h.hexdigest()[:16]


NESTING_LIMIT = 20_000


def compile_loaded(loaded: Loaded, players: int | None = None,
                   settings: dict[str, str] | None = None) -> Game:
    # Deeply nested expressions recurse deeply in every stage; Python 3.11's frames are
    # cheap, so allow more depth while compiling and turn the rest into a clean error.
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, NESTING_LIMIT))
    try:
        checked = check(loaded, players, settings)
        return Game(checked, generate(checked), source_id(loaded))
    except (RecursionError, MemoryError):
        raise _too_deep(loaded) from None
    except SyntaxError as e:  # Python's own limits on the generated code (nesting)
        if "nested" in str(e) or "too many" in str(e):
            raise _too_deep(loaded) from None
        raise
    finally:
        sys.setrecursionlimit(old)


def _too_deep(loaded: Loaded) -> Diagnostic:
    return Diagnostic("the game nests expressions too deeply to compile",
                      Span(loaded.path, 1, 1, 1, 2),
                      "split a very long or deeply nested expression with 'def' or 'let'",
                      loaded.sources.get(loaded.path))


def compile_game(game: str | Path, players: int | None = None,
                 settings: dict[str, str] | None = None) -> Game:
    """Compile a bundled game (by name) or a game file, for a player count and options."""
    path = resolve_game(str(game))
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, NESTING_LIMIT))
    try:
        loaded = load(path)
    except RecursionError:
        raise Diagnostic("the game nests expressions too deeply to parse",
                         Span(str(path), 1, 1, 1, 2)) from None
    finally:
        sys.setrecursionlimit(old)
    sid = source_id(loaded)
    key = (str(path), sid, players, tuple(sorted((settings or {}).items())))
    if key not in _cache:
        _cache[key] = compile_loaded(loaded, players, settings)
    return _cache[key]
