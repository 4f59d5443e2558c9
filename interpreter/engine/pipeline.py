"""The pipeline: file -> parse -> AST -> merged declarations -> checks -> code -> Game.

A compiled `Game` holds executed code and cannot cross a process boundary; a `GameSpec`
(the game, players, settings and the files' fingerprint) can, and each process compiles
it once.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from ..lang import nodes as attrs

from ..codegen import generate
from ..errors import CardgameError, Diagnostic, Span
from ..lang import Loaded, bundled_dir, check, load, resolve_game
from .game import Game

_cache: dict[tuple[str, str, tuple[str, ...], int | None, tuple[tuple[str, str], ...], bool, bool],
             Game] = {}


def source_id(loaded: Loaded) -> str:
    """A fingerprint of every file the game was built from (saves and specs check it):
    their texts, the chain's in its order, then the preludes'. Not their names: a file
    is named as it was reached (relative to the folder a command runs in, or absolute),
    and a save replayed from another folder, or a spec compiled on a Dask worker, names
    the same files otherwise."""
    h = hashlib.sha256()
    chain = [loaded.sources[name] for name in loaded.chain]
    rest = sorted(text for name, text in loaded.sources.items() if name not in loaded.chain)
    for text in (*chain, "", *rest):  # ("": where the chain ends)
        data = text.encode()
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()[:16]


NESTING_LIMIT = 20_000


def compile_loaded(loaded: Loaded, players: int | None = None,
                   settings: dict[str, str] | None = None, ref: str | None = None,
                   optimize: bool = True, coverage: bool = False) -> Game:
    """`optimize=False`: the plain code, the reference the optimised code is tested
    against (codegen/module.py). `coverage=True`: code that records which arms of `if`
    statements run (`Game.branches`, `Game.covered`)."""
    # Deeply nested expressions recurse deeply in every stage; Python 3.11's frames are
    # cheap, so allow more depth while compiling and turn the rest into a clean error.
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, NESTING_LIMIT))
    try:
        checked = check(loaded, players, settings)
        sid = source_id(loaded)
        game = Game(checked, generate(checked, optimize=optimize, coverage=coverage), sid)
        game.spec = GameSpec(ref if ref is not None else str(Path(loaded.path).resolve()),
                             game.players, tuple(sorted((settings or {}).items())), sid,
                             coverage)
        return game
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
                 settings: dict[str, str] | None = None, optimize: bool = True,
                 coverage: bool = False) -> Game:
    """Compile a bundled game (by name) or a game file, for a player count and options
    (`optimize=False`: the plain code, for testing the optimiser; `coverage=True`: code
    that records which arms of `if` statements run)."""
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
    # the files' names as spans show them (relative to the working folder, so a compile
    # made in another folder names them otherwise) are part of the compiled code
    key = (str(path), sid, loaded.chain, players, tuple(sorted((settings or {}).items())),
           optimize, coverage)
    if key not in _cache:
        _cache[key] = compile_loaded(loaded, players, settings, _ref(path), optimize,
                                     coverage)
    return _cache[key]


def _ref(path: Path) -> str:
    """How a spec names the game: its bundled name (however it was reached, so that the
    compile cache cannot make the name depend on which call came first), else the file's
    absolute path."""
    if path.parent.resolve() == bundled_dir().resolve() and path.suffix == ".cardgame":
        return path.stem
    return str(path.resolve())


@attrs.frozen
class GameSpec:
    """The recipe of a compiled game: a small picklable value. `compile()` compiles it once
    per process and refuses game files that changed since the spec was made."""

    game: str  # a bundled game's name, or the absolute path of a .cardgame file
    players: int | None = None
    settings: tuple[tuple[str, str], ...] = ()  # --set NAME=VALUE pairs, sorted
    source: str = ""  # the fingerprint of the game files (Game.source_id); "": not checked
    coverage: bool = False  # compiled to record which arms of `if` statements run

    @classmethod
    def of(cls, game: str | Path, players: int | None = None,
           settings: dict[str, str] | None = None, coverage: bool = False) -> GameSpec:
        """The spec of a game as `compile_game` takes it (compiled here, for its fingerprint)."""
        spec: GameSpec = compile_game(game, players, settings, coverage=coverage).spec
        return spec

    def compile(self) -> Game:
        if self not in _specs:
            game = compile_game(self.game, self.players, dict(self.settings),
                                coverage=self.coverage)
            if self.source and game.source_id != self.source:
                raise CardgameError(f"the game files of '{self.game}' changed since this spec "
                                    f"was made (fingerprint {self.source}, now "
                                    f"{game.source_id})")
            _specs[self] = game
        return _specs[self]


_specs: dict[GameSpec, Game] = {}
