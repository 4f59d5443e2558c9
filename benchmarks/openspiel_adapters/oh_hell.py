"""Oh Hell: games/oh-hell.cardgame with `one_deal=N` against OpenSpiel's `oh_hell` with
`num_tricks_fixed=N`.

The same rules: one deal of N cards each from a 52-card deck, the next card turned for
trumps (with N <= 51 div players a card is always left), bidding 0..N from the dealer's
left, the dealer (last) may not make the bids add up to N, follow suit, ace high, the
player left of the dealer leads the first trick, the winner leads the next.

Differences, and how they are handled:
- The score. OpenSpiel's is `points_per_trick` x tricks, + 10 for an exact bid (there is no
  10 + bid). It is configured with points_per_trick=1 and no off-bid penalty, and
  rescored: the bids come from the actions played, the tricks from the final state's text
  (each return is checked to be tricks + 10 x exact), and the points are 10 + bid when
  exact, else 0, as ours. The raw return is compared too (ours recomputed as
  tricks + 10 x exact).
- The dealer. OpenSpiel draws the dealer at random (a chance node); ours is player 1 for
  the first deal. Per-seat metrics are therefore by seat relative to the dealer
  (rel1 = the first bidder, rel0 = the dealer).
- Dealing. OpenSpiel deals one card at a time as chance nodes, player 0 first; ours
  shuffles and deals from the dealer's left. Under a uniform shuffle both give uniform
  hands.
"""

from __future__ import annotations

import re
from typing import Any

_DECK = 52


class OhHell:
    name = "oh_hell"
    game = "oh-hell"
    notes = __doc__ or ""

    def __init__(self, tricks: int = 5) -> None:
        self.tricks = tricks
        self.players = 3

    def ours(self, players: int) -> tuple[str, int, dict[str, str]]:
        self.players = players
        return self.game, players, {"one_deal": str(self.tricks)}

    def openspiel(self, players: int) -> tuple[str, dict[str, Any]]:
        self.players = players
        return "oh_hell", {"players": players, "num_tricks_fixed": self.tricks,
                           "points_per_trick": 1, "off_bid_penalty": False}

    def our_kind(self, move_name: str) -> str:
        return move_name  # "bid" or "play"

    def os_kind(self, state: Any) -> str:
        # bids are actions 52..52+N, cards 0..51
        return "bid" if min(state.legal_actions()) >= _DECK else "play"

    def _metrics(self, dealer: int, bids: list[int], tricks: list[int]) -> dict[str, float]:
        n = len(bids)
        out: dict[str, float] = {}
        exact = [b == t for b, t in zip(bids, tricks, strict=True)]
        points = [10 + b if e else 0 for b, e in zip(bids, exact, strict=True)]
        out["made (any seat)"] = sum(exact) / n
        out["points (any seat)"] = sum(points) / n
        out["OpenSpiel return (any seat)"] = sum(t + 10 * e for t, e in
                                                 zip(tricks, exact, strict=True)) / n
        out["sum of bids"] = sum(bids)
        out["bids over tricks"] = float(sum(bids) > self.tricks)
        for rel in range(n):
            p = (dealer + rel) % n
            out[f"made rel{rel}"] = float(exact[p])
            out[f"points rel{rel}"] = points[p]
            out[f"bid rel{rel}"] = bids[p]
            out[f"tricks rel{rel}"] = tricks[p]
        return out

    def our_outcome(self, game: Any, state: Any) -> dict[str, float]:
        bids = list(game.var(state, "bid"))
        tricks = list(game.var(state, "tricks"))
        # players are 1..n; the first (and only) deal's dealer is player 1: index 0
        return self._metrics(0, bids, tricks)

    def os_outcome(self, state: Any, history: list[tuple[int, int]]) -> dict[str, float]:
        n = self.players
        dealer = history[1][1]  # chance: the number of tricks, then the dealer
        bids = [0] * n
        for player, action in history:
            if player >= 0 and action >= _DECK:
                bids[player] = action - _DECK
        m = re.search(r"Tricks Won:\s*([\d ]+)", str(state))
        if m is None:  # pragma: no cover - a pyspiel whose text has changed
            raise RuntimeError("cannot read the tricks won from OpenSpiel's state text")
        tricks = [int(x) for x in m.group(1).split()]
        returns = state.returns()
        for p in range(n):  # the text and the returns agree, or the rescoring is wrong
            exact = bids[p] == tricks[p]
            if returns[p] != tricks[p] + 10 * exact:
                raise RuntimeError(f"OpenSpiel's return {returns[p]} is not tricks + 10 "
                                   f"x exact for player {p}: its scoring has changed")
        return self._metrics(dealer, bids, tricks)
