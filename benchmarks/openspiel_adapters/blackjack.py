"""Blackjack: benchmarks/blackjack-openspiel.cardgame (the bundled game, `extends
"blackjack"`, written to OpenSpiel's rules) against OpenSpiel's `blackjack`, one player.

OpenSpiel's rules, which the variant follows: no naturals (an ace and a ten-card is a 21
paid 1 to 1, and pushes a dealer's 21), no peek, the player asked until they stand or
bust (also at 21), no doubling down, the dealer stands on every 17. Dealing: OpenSpiel
deals each card at a chance node from the cards left; ours shuffles the deck and deals
from the top: under a uniform shuffle the same distribution. OpenSpiel's returns (+1, 0,
-1) are its results: no rescoring. The bundled game's own rules (naturals paid 3 to 2, the
dealer's peek, a 21 stands, doubling down) change the outcomes: `--bundled` on
openspiel_speed.py times it as well.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

_VARIANT = str(Path(__file__).resolve().parent.parent / "blackjack-openspiel.cardgame")


class Blackjack:
    name = "blackjack"
    game = "blackjack"
    notes = __doc__ or ""
    bundled: tuple[str, dict[str, str]] = ("blackjack", {})

    def ours(self, players: int) -> tuple[str, int, dict[str, str]]:
        return _VARIANT, 1, {}

    def openspiel(self, players: int) -> tuple[str, dict[str, Any]]:
        return "blackjack", {}

    def our_kind(self, move_name: str) -> str:
        return "hit or stand"

    def os_kind(self, state: Any) -> str:
        return "hit or stand"

    def _metrics(self, result: float, decisions: int) -> dict[str, float]:
        return {"win": float(result > 0), "push": float(result == 0),
                "loss": float(result < 0), "decisions per hand": float(decisions)}

    def our_outcome(self, game: Any, state: Any) -> dict[str, float]:
        result = {"win": 1.0, "push": 0.0, "loss": -1.0}[game.results(state)[0]]
        return self._metrics(result, game.moves_played(state))

    def os_outcome(self, state: Any, history: list[tuple[int, int]]) -> dict[str, float]:
        return self._metrics(state.returns()[0], sum(1 for p, _ in history if p >= 0))
