"""Replay files: a game's identity, options, seed and moves, as JSON.

The REPL's `save`/`load`, `cardgame play --replay` and the fuzzer's counterexamples all
use this one format:

    {"format": "cardgame-replay", "version": 1,
     "game": "calculation",            # bundled name or path, as given by the user
     "title": "Calculation", "source": "<fingerprint of the game files>",
     "players": 1, "options": {"slots": "5"}, "seed": 7,
     "moves": [{"player": 1, "move": "draw"}, ...],
     "note": "free text (e.g. what the fuzzer found)",
     "observations": {"1": [{"kind": "move", ...}, ...]}}   # optional: each seat's history

Moves are stored in their text form, so a replay stays readable and survives changes to
the engine's internal numbering; replaying re-checks every move's legality.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from ..errors import CardgameError, IllegalMove
from ..options import option_text
from .game import Game, Move, State

FORMAT = "cardgame-replay"


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

    def to_json(self) -> str:
        data: dict[str, Any] = {
            "format": FORMAT, "version": 1, "game": self.game, "title": self.title,
            "source": self.source, "players": self.players, "options": self.options,
            "seed": self.seed, "moves": [{"player": p, "move": m} for p, m in self.moves],
            "note": self.note,
        }
        if self.observations:
            data["observations"] = {str(p): obs for p, obs in self.observations.items()}
        return json.dumps(data, indent=1, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        try:
            Path(path).write_text(self.to_json() + "\n", encoding="utf-8")
        except OSError as e:
            raise ReplayError(f"cannot write {path}: {e.strerror or e}") from None

    def compile(self) -> Game:
        from .pipeline import compile_game

        return compile_game(self.game, self.players, {k: str(v) for k, v in self.options.items()})

    def states(self, game: Game | None = None) -> list[State]:
        """Every state from the start to the end of the replay (moves re-checked)."""
        game = game or self.compile()
        state = game.new_state(self.seed)
        out = [state]
        for i, (player, text) in enumerate(self.moves):
            try:
                state = game.apply(state, game.parse_move(state, text, player))
            except IllegalMove as e:
                raise ReplayError(f"move {i + 1} ('{text}' by p{player}) does not replay: {e}"
                                  ) from None
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
                  title=game.name, source=game.source_id, note=note)


def parse(text: str, where: str = "replay") -> Replay:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(f"{where} is not valid JSON (line {e.lineno}: {e.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{where} is not a cardgame replay or save file")
    try:
        moves = []
        for m in data.get("moves", []):
            if not isinstance(m, dict) or not isinstance(m.get("move"), str):
                raise ReplayError(f"{where}: a move entry is malformed: {m!r}")
            moves.append((int(m.get("player", 1)), m["move"]))
        seed = data["seed"]
        game = data["game"]
        if not isinstance(seed, int) or not isinstance(game, str):
            raise ReplayError(f"{where}: 'seed' must be a number and 'game' a name")
        players = data.get("players")
        if players is not None and not isinstance(players, int):
            raise ReplayError(f"{where}: 'players' must be a number")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise ReplayError(f"{where}: 'options' must be an object")
        return Replay(game=game, players=players,
                      options={str(k): option_text(v) for k, v in options.items()}, seed=seed,
                      moves=moves, title=str(data.get("title", "")),
                      source=str(data.get("source", "")), note=str(data.get("note", "")))
    except KeyError as e:
        raise ReplayError(f"{where} lacks {e}") from None
    except (TypeError, ValueError) as e:
        raise ReplayError(f"{where} is malformed: {e}") from None


def load(path: str | Path) -> Replay:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ReplayError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ReplayError(f"{path} is not a text file") from None
    return parse(text, str(path))
