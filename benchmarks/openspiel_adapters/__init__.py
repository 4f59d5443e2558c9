"""Adapters between a bundled game and the same game in OpenSpiel (`pyspiel`), for
benchmarks/openspiel_diff.py (the differential) and benchmarks/openspiel_speed.py (speed).

An adapter says, for one game, how to build both sides with the same rules, how to name a
decision (so that legal-move counts are compared decision kind by decision kind: "bid",
"play"...), and what each finished game measured (the outcome metrics, by the same names
on both sides). Where the rules differ (OpenSpiel's Oh Hell scores tricks + 10 for an exact
bid), the adapter configures OpenSpiel or rescores its outcome, and says how in `notes`.

To add a game: write `benchmarks/openspiel_adapters/NAME.py` with a class implementing
`Adapter`, and list it in ADAPTERS below. Nothing here imports `pyspiel` at module level:
the scripts skip with a clear message when it is missing.
"""

from __future__ import annotations

from typing import Any, Protocol

# the engine's Game and State, and pyspiel's objects, are passed through as Any: this
# package must import without pyspiel


class Adapter(Protocol):
    name: str  # the name on the command line and in the table: "oh_hell"
    game: str  # the bundled game: "oh-hell"
    notes: str  # how the two sides were made to play the same rules

    def ours(self, players: int) -> tuple[str, int, dict[str, str]]:
        """The game file (a bundled game's name, or a variant's path written to
        OpenSpiel's rules), players and option settings (`compile_game(*...)`). A game
        with a fixed number of players (Hearts: 4, Blackjack: 1 here) ignores `players`."""

    def openspiel(self, players: int) -> tuple[str, dict[str, Any]]:
        """The pyspiel game name and its parameters (`pyspiel.load_game(name, params)`)."""

    def our_kind(self, move_name: str) -> str:
        """The kind of one of our decisions, from the name of its legal moves' move.
        Kinds that only one side has (Hearts' passes: a set here, card by card there)
        are listed, each on its side, and not compared."""

    def os_kind(self, state: Any) -> str:
        """The kind of an OpenSpiel decision (a player's node)."""

    def our_outcome(self, game: Any, state: Any) -> dict[str, float]:
        """Metrics of one finished game of ours (the same names as `os_outcome`)."""

    def os_outcome(self, state: Any, history: list[tuple[int, int]]) -> dict[str, float]:
        """Metrics of one finished OpenSpiel game; `history` is (player, action) with
        chance as -1, in order."""


def adapters() -> dict[str, Adapter]:
    from .blackjack import Blackjack
    from .crazy_eights import CrazyEights
    from .hearts import Hearts
    from .oh_hell import OhHell

    found: list[Adapter] = [OhHell(), Hearts(), CrazyEights(), Blackjack()]
    return {a.name: a for a in found}
