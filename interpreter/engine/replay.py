"""Replay files: a game's identity, options, seed and moves, as JSON.

The REPL's `save`/`load`, `cardgame play --replay` and the fuzzer's counterexamples all
use this one format:

    {"format": "cardgame-replay", "version": 1,
     "game": "calculation",            # bundled name or path, as given by the user
     "title": "Calculation", "source": "<fingerprint of the game files>",
     "players": 1, "options": {"slots": "5"}, "seed": 7,
     "moves": [{"player": 1, "move": "draw", "id": ["draw"]}, ...],
     "note": "free text (e.g. what the fuzzer found)",
     "observations": {"1": [{"kind": "move", ...}, ...]}}   # optional: each seat's history

Moves are stored in their text form, so a replay stays readable and survives changes to
the engine's internal numbering, and by identity (`id`: the move's name and argument
values), so a save replays exactly even where two moves share a text; the identity is used
while the game files are the ones the save was made with (`source`), the text otherwise
and in older saves. Replaying re-checks every move's legality.

A save is a file from anywhere: `load` reads at most MAX_SAVE bytes of a regular file
(a FIFO or a device is refused without blocking), every JSON failure (deep nesting, a
number of 5,000 digits) is a ReplayError, and the game it names is a bundled name or a
`.cardgame` file, looked up beside the save first (`game_path`). Messages quote what the
file says only through `sanitize`.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import attrs

from ..errors import CardgameError, Diagnostic, IllegalMove
from ..lang import bundled_names
from ..options import option_text
from ..terminal import sanitize
from .game import Game, Move, State

FORMAT = "cardgame-replay"
VERSION = 1  # the newest save format this code reads and the one it writes
MAX_SAVE = 16 * 2**20  # bytes of a save or replay file
MAX_SEED = 2**64  # a seed is 0 <= seed < 2**64


class ReplayError(CardgameError):
    pass


@attrs.define
class Replay:
    game: str
    players: int | None
    options: dict[str, str]
    seed: int
    moves: list[tuple[int, str]]  # (player, move text)
    title: str = ""
    source: str = ""
    note: str = ""
    # each seat's observation history (`observe.replay_histories`), saved when given:
    # seat -> one JSON object per observation, from the setup on
    observations: dict[int, list[dict[str, Any]]] = attrs.Factory(dict)
    # each move's identity, [name, *argument values], or None (an older save)
    ids: list[list[Any] | None] = attrs.Factory(list)
    base: str = ""  # the folder of the file it was read from: a game path is relative to it
    origin: str = ""  # the file it was read from, as messages name it

    def to_json(self) -> str:
        ids = self.ids + [None] * (len(self.moves) - len(self.ids))
        data: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": self.game, "title": self.title,
            "source": self.source, "players": self.players, "options": self.options,
            "seed": self.seed,
            "moves": [{"player": p, "move": m, **({"id": i} if i is not None else {})}
                      for (p, m), i in zip(self.moves, ids, strict=True)],
            "note": self.note,
        }
        if self.observations:
            data["observations"] = {str(p): obs for p, obs in self.observations.items()}
        return json.dumps(data, indent=1, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        out = self
        if self.game not in bundled_names():  # a path: written relative to the save
            game = Path(self.base or ".", self.game).resolve()
            rel = os.path.relpath(game, Path(path).resolve().parent)
            out = attrs.evolve(self, game=rel)
        try:
            Path(path).write_text(out.to_json() + "\n", encoding="utf-8")
        except OSError as e:
            raise ReplayError(f"cannot write {_show(path)}: {e.strerror or e}") from None

    def game_path(self) -> str:
        """The game to compile: a bundled name, or a regular `.cardgame` file beside the
        save (or, for an older save, relative to the working folder)."""
        return game_path(self.game, self.base)

    def compile(self, game: str | None = None, players: int | None = None,
                settings: dict[str, str] | None = None) -> Game:
        """The game the save names (or `game`), with its players and options, where the
        command line does not give its own (`players`, `settings`). Where a value taken
        from the save does not fit the game (a save edited by hand, or a game file changed
        since), the error names the save and that value, not a command-line flag; an error
        of the game file itself, or of a value the command line gave, stays as it is."""
        from .pipeline import compile_game

        path = game or self.game_path()
        saved = {k: str(v) for k, v in self.options.items()}
        p = players if players is not None else self.players
        s = settings if settings else saved
        try:
            return compile_game(path, p, s)
        except Diagnostic as e:
            from_save = [w for w, mine in (("players", players is None and p is not None),
                                           ("options", not settings and bool(saved))) if mine]
            if not from_save:
                raise
            compile_game(path)  # (the game file's own error, if it has one, first)
            if players is not None or settings:  # (then the command line's own values)
                compile_game(path, players, settings or None)
            if len(from_save) == 2:  # (which of the two, if one alone does not fit)
                for what, args in (("players", (p, None)), ("options", (None, s))):
                    try:
                        compile_game(path, *args)
                    except Diagnostic:
                        from_save = [what]
                        break
            message = re.sub(r"^--set [^:]*: ", "", e.message)
            raise ReplayError(f"{_show(self.origin or 'the save')}: its "
                              f"{' and '.join(from_save)} do not fit the game "
                              f"'{_show(self.game)}': {_show(message)}") from None

    def move(self, game: Game, state: State, i: int) -> Move:
        """The i-th move, among the legal moves of `state`. Its text decides; where two
        legal moves have that text, its identity tells them apart (while the game files are
        the save's own)."""
        player, text = self.moves[i]
        ident = self.ids[i] if i < len(self.ids) else None
        if ident is not None and self.source and not self.changed_game(game):
            name, *args = ident
            args = [tuple(a) if isinstance(a, list) else a for a in args]
            if name in game.move_names:
                want = (player, game.move_names.index(name), *args)
                for m in game.legal_moves(state, player):
                    if m == want and game.move_text(m) == text:
                        return m
        return game.parse_move(state, text, player)

    def states(self, game: Game | None = None) -> list[State]:
        """Every state from the start to the end of the replay (moves re-checked)."""
        game = game or self.compile()
        state = game.new_state(self.seed)
        out = [state]
        for i, (player, text) in enumerate(self.moves):
            try:
                state = game.apply(state, self.move(game, state, i))
            except IllegalMove as e:
                raise ReplayError(f"move {i + 1} ('{_show(text)}' by p{player}) does not "
                                  f"replay: {e}") from None
            out.append(state)
        return out

    def changed_game(self, game: Game) -> bool:
        """True when the game files differ from the ones the replay was made with."""
        return bool(self.source) and self.source != game.source_id


def from_game(game: Game, game_ref: str, seed: int, moves: list[Move],
              settings: dict[str, str] | None = None, note: str = "") -> Replay:
    return Replay(game=game_ref, players=game.players,
                  options=dict(settings if settings is not None else
                               {k: option_text(v) for k, v in game.options.items()}),
                  seed=seed, moves=[(m[0], game.move_text(m)) for m in moves],
                  title=game.name, source=game.source_id, note=note,
                  ids=[[game.move_names[m[1]], *m[2:]] for m in moves])


def _show(v: object) -> str:
    """A value from a file, quoted in a message: one line, shown safely, and short."""
    text = sanitize(str(v), newlines=False)
    return text if len(text) <= 200 else text[:200] + "..."


def game_path(game: str, base: str = "") -> str:
    """The game a save names: a bundled name as it is; a path must be a regular
    `.cardgame` file, beside the save (`base`) or else from the working folder."""
    if game in bundled_names():
        return game
    for root in ([base] if base else []) + ["."]:
        p = Path(root, game)
        try:
            ok = p.suffix == ".cardgame" and stat.S_ISREG(p.stat().st_mode)
        except (OSError, ValueError):
            ok = False
        if ok:
            return str(p.resolve())
    raise ReplayError(f"unknown game '{_show(game)}': a save names a bundled game or a "
                      ".cardgame file beside it")


def _int(v: Any) -> bool:
    return type(v) is int


def parse(text: str, where: str = "replay", base: str = "") -> Replay:
    where = _show(where)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(f"{where} is not valid JSON (line {e.lineno}: {e.msg})") from None
    except RecursionError:
        raise ReplayError(f"{where} is nested too deeply to be a save file") from None
    except ValueError as e:  # a number of thousands of digits
        raise ReplayError(f"{where} is not a save file: {_show(e)}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{where} is not a cardgame replay or save file")
    version = data.get("version", 1)
    if not _int(version) or version < 1:
        raise ReplayError(f"{where}: 'version' must be a number from 1")
    if version > VERSION:
        raise ReplayError(f"{where} is a save of version {version}, newer than this cardgame "
                          f"reads (version {VERSION}): use a newer cardgame")
    try:
        moves = []
        ids: list[list[Any] | None] = []
        raw = data.get("moves", [])
        if not isinstance(raw, list):
            raise ReplayError(f"{where}: 'moves' must be a list")
        for m in raw:
            if not isinstance(m, dict) or not isinstance(m.get("move"), str):
                raise ReplayError(f"{where}: a move entry is malformed: {_show(repr(m))}")
            player = m.get("player", 1)
            if not _int(player) or not 1 <= player <= 1000:
                raise ReplayError(f"{where}: a move's player must be a small number")
            moves.append((player, m["move"]))
            ident = m.get("id")
            ok = (isinstance(ident, list) and ident and isinstance(ident[0], str)
                  and all(_int(a) or type(a) is bool or (  # a set of cards: their ids
                      isinstance(a, list) and len(a) <= 1000 and all(_int(c) for c in a))
                      for a in ident[1:]))
            ids.append(ident if ok else None)
        seed = data["seed"]
        game = data["game"]
        if not _int(seed) or not isinstance(game, str):
            raise ReplayError(f"{where}: 'seed' must be a number and 'game' a name")
        if not 0 <= seed < MAX_SEED:
            raise ReplayError(f"{where}: the seed must be a number from 0 to 2**64 - 1")
        players = data.get("players")
        if players is not None and (not _int(players) or not 1 <= players <= 1000):
            raise ReplayError(f"{where}: 'players' must be a small number")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ReplayError(f"{where}: 'options' must be an object")
        # each seat's observation history, as saved (kept as data: what a seat saw is
        # recomputed from the seed and moves when it matters; this is a record of it)
        observations: dict[int, list[dict[str, Any]]] = {}
        raw_obs = data.get("observations", {})
        if not isinstance(raw_obs, dict):
            raise ReplayError(f"{where}: 'observations' must be an object")
        for seat, seen in raw_obs.items():
            if not (isinstance(seat, str) and seat.isascii() and seat.isdigit()
                    and len(seat) <= 4 and isinstance(seen, list)
                    and all(isinstance(o, dict) for o in seen)):
                raise ReplayError(f"{where}: 'observations' must map seats to lists")
            observations[int(seat)] = seen
        return Replay(game=game, players=players,
                      options={str(k): option_text(v) for k, v in options.items()}, seed=seed,
                      moves=moves, title=str(data.get("title", "")),
                      source=str(data.get("source", "")), note=str(data.get("note", "")),
                      observations=observations, ids=ids, base=base, origin=where)
    except KeyError as e:
        raise ReplayError(f"{where} lacks {_show(e)}") from None
    except (TypeError, ValueError, RecursionError) as e:
        raise ReplayError(f"{where} is malformed: {_show(e)}") from None


def read_bounded(path: str | Path, limit: int = MAX_SAVE, what: str = "a save file") -> bytes:
    """The bytes of a regular file of at most `limit` bytes. Opened without blocking, so a
    FIFO is refused rather than waited on; a device (/dev/zero) or folder is refused."""
    shown = _show(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise ReplayError(f"cannot read {shown}: {e.strerror or e}") from None
    except ValueError:  # a NUL in the name
        raise ReplayError(f"cannot read {shown}: not a file name") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ReplayError(f"{shown} is not a regular file, so not {what}")
        if st.st_size > limit:
            raise ReplayError(f"{shown} is {st.st_size:,} bytes: more than {what} may be "
                              f"({limit:,})")
        chunks = []
        n = 0
        while n <= limit:
            b = os.read(fd, min(1 << 20, limit + 1 - n))
            if not b:
                break
            chunks.append(b)
            n += len(b)
        if n > limit:  # it grew while we read it
            raise ReplayError(f"{shown} is more than {limit:,} bytes")
        return b"".join(chunks)
    except OSError as e:
        raise ReplayError(f"cannot read {shown}: {e.strerror or e}") from None
    finally:
        os.close(fd)


def load(path: str | Path) -> Replay:
    data = read_bounded(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ReplayError(f"{_show(path)} is not a text file") from None
    rep = parse(text, str(path), base=str(Path(path).parent))
    rep.game = game_path(rep.game, rep.base)  # a path: checked now, and kept absolute
    return rep
