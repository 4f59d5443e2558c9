"""Hearts: games/hearts.cardgame, one hand (`target=1`, `queen_breaks=true`), against
OpenSpiel's `hearts` (its defaults: pass 3, no points on the first trick, hearts must be
broken, the Q♠ breaks them).

The same rules, with these differences, and how they are handled:
- The passes. OpenSpiel passes card by card (13, 12 and 11 legal actions); ours passes a
  set (286 sets of 3 of 13 cards). They are counted as different kinds of decision
  ("pass (a set)" and "pass (card by card)"), each on its own side, and not compared.
- The lead of the 2♣. OpenSpiel asks its holder (one legal action); ours plays it for
  them. It is its own kind ("lead of the 2♣", OpenSpiel's side only).
- The pass direction. Ours passes left in the first hand; OpenSpiel draws the direction
  by chance (one hand in four passes nothing). Under random play a pass of random cards
  is another random deal: the distributions compared do not depend on it.
- The points. OpenSpiel's return is 26 - points (a moon: 26 to the shooter, 0 to the
  others); ours counts points. OpenSpiel's are rescored as 26 - return.
"""

from __future__ import annotations

from typing import Any

_NO_PASS = 0  # OpenSpiel's first chance outcome: the pass direction, 0 = no pass


class Hearts:
    name = "hearts"
    game = "hearts"
    notes = __doc__ or ""

    def ours(self, players: int) -> tuple[str, int, dict[str, str]]:
        return self.game, 4, {"target": "1", "queen_breaks": "true"}

    def openspiel(self, players: int) -> tuple[str, dict[str, Any]]:
        return "hearts", {}

    def our_kind(self, move_name: str) -> str:
        return "pass (a set)" if move_name == "pass" else "play"

    def os_kind(self, state: Any) -> str:
        h = state.history()
        plays_from = 53 + (0 if h[0] == _NO_PASS else 12)  # direction, deal, passes
        if len(h) < plays_from:
            return "pass (card by card)"
        return "lead of the 2♣" if len(h) == plays_from else "play"

    def _metrics(self, points: list[float]) -> dict[str, float]:
        out = {f"points of seat {p + 1}": points[p] for p in range(4)}
        out["points (any seat)"] = sum(points) / 4
        out["moon shot"] = float(points.count(26) == 3 and 0 in points)
        return out

    def our_outcome(self, game: Any, state: Any) -> dict[str, float]:
        return self._metrics([float(x) for x in game.var(state, "points")])

    def os_outcome(self, state: Any, history: list[tuple[int, int]]) -> dict[str, float]:
        return self._metrics([26.0 - r for r in state.returns()])
