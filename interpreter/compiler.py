"""The pipeline: file -> parse -> AST -> merged declarations -> checks -> code -> Game."""

from __future__ import annotations

import hashlib
from pathlib import Path

from .checker import check
from .codegen import generate
from .engine import Game
from .loader import Loaded, load, resolve_game

_cache: dict[tuple[str, str, int | None, tuple[tuple[str, str], ...]], Game] = {}


def source_id(loaded: Loaded) -> str:
    """A fingerprint of every file the game was built from (saves check it)."""
    h = hashlib.sha256()
    for name in loaded.chain:
        h.update(name.encode())
        h.update(loaded.sources[name].encode())
    return h.hexdigest()[:16]


def compile_loaded(loaded: Loaded, players: int | None = None,
                   settings: dict[str, str] | None = None) -> Game:
    checked = check(loaded, players, settings)
    return Game(checked, generate(checked), source_id(loaded))


def compile_game(game: str | Path, players: int | None = None,
                 settings: dict[str, str] | None = None) -> Game:
    """Compile a bundled game (by name) or a game file, for a player count and options."""
    path = resolve_game(str(game))
    loaded = load(path)
    sid = source_id(loaded)
    key = (str(path), sid, players, tuple(sorted((settings or {}).items())))
    if key not in _cache:
        _cache[key] = compile_loaded(loaded, players, settings)
    return _cache[key]
