"""The compiled games against the plain Python yardsticks of the speed benchmark
(benchmarks/handwritten_chains.py, handwritten_interaction.py, handwritten_arsene.py),
as tests/test_differential.py does for Calculation and Besieged Castle: the engine is set
to the hand-written version's deal with `Game.make_state`, then both play the same random
moves and must offer exactly the same moves (as move texts) at every step, and agree on
the scores and results at the end.

Two random events are the engine's own and cannot be given to it: Interaction's start
player (a random lowest scorer) and Arsène's later deals. The first is read from the
engine (`to_move`) after checking that it is a lowest scorer; for the second, the engine
is set to the hand-written version's next deal again, after checking that every variable
the deal's robbing changed agrees.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.engine import Game, State, compile_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import handwritten_arsene as ha  # noqa: E402
import handwritten_chains as hch  # noqa: E402
import handwritten_interaction as hi  # noqa: E402

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUIT_SYMBOLS = "♠♥♦♣"  # suits 0..3 of the yardsticks, in the deck's order


def card_text(c: tuple[int, int]) -> str:
    if c == hi.JOKER:
        return "JK"
    return RANKS[c[0] - 1] + SUIT_SYMBOLS[c[1]]


# ---------------------------------------------------------------------- Chains
def chains_text(m: tuple) -> str:
    if len(m) == 1:
        return m[0]
    if m[0] == "close":
        return f"close {m[1]}"
    return f"{m[0]} {m[1] + 1}"  # to_slot / from_slot: slots are 1-based in the game


@pytest.mark.parametrize("name,settings,slots", [
    ("chains", None, 5),
    ("chains-advanced", None, 4),
    ("chains", {"mode": "advanced"}, 4),
])
def test_chains_matches_handwritten(name: str, settings: dict[str, str] | None,
                                    slots: int) -> None:
    game = compile_game(name, settings=settings)
    assert [z for z in game.zone_text.values() if z.startswith("slot")] == \
        [f"slot{i + 1}" for i in range(slots)]
    closes = 0
    for seed in range(25):
        hand = hch.Game(seed, slots=slots)
        state = game.make_state(zones={"terminals": [str(r) for r in hand.terminals],
                                       "stock": [str(r) for r in hand.stock]})
        assert game.zone_cards(state, "deck") == []
        rng = random.Random(seed)
        while True:
            moves = hand.legal_moves()
            assert sorted(game.legal_texts(state)) == sorted(chains_text(m) for m in moves)
            assert game.is_terminal(state) == hand.is_over()
            if not moves:
                break
            m = rng.choice(moves)
            hand.apply(m)
            state = game.apply_text(state, chains_text(m))
        assert game.scores(state) == [hand.score()]
        assert game.results(state) == ["win" if hand.won() else "loss"]
        assert list(game.var(state, "closed")) == hand.closed
        assert game.zone_cards(state, "discard") == [str(r) for r in hand.discard]
        closes += len(hand.closed)
    assert closes > 0  # runs were closed (a won game is too rare to ask for)


# ---------------------------------------------------------------------- Interaction
def interaction_text(m: tuple) -> str:
    if m[0] == "open":
        return f"open {card_text(m[2])}"
    return " ".join([m[0]] + [card_text(c) for c in m[1:]])


def interaction_zones(hand: hi.Game) -> dict[str, list[str]]:
    zones = {"stock": [card_text(c) for c in hand.stock],
             "center": [card_text(c) for c in hand.center]}
    for p in range(hand.players):
        zones[f"hand-p{p + 1}"] = [card_text(c) for c in hand.hands[p]]
        zones[f"field-p{p + 1}"] = [card_text(c) for c in hand.fields[p]]
    return zones


@pytest.mark.parametrize("players", [3, 4])
def test_interaction_matches_handwritten(players: int) -> None:
    game = compile_game("interaction", players=players)
    paid = 0
    for seed in range(25):
        hand = hi.Game(seed, players)
        state = game.make_state(zones=interaction_zones(hand))
        assert game.zone_cards(state, "deck") == []
        rng = random.Random(seed)
        while True:
            moves = hand.legal_moves()
            assert sorted(game.legal_texts(state)) == sorted(interaction_text(m) for m in moves)
            assert game.is_terminal(state) == hand.is_over()
            assert game.var(state, "chips") == hand.chips
            if not moves:
                break
            if hand.first_turn_over:
                assert game.to_move(state) == (hand.current + 1,)
            else:
                assert game.to_move(state) == tuple(p + 1 for p in range(players)
                                                    if hand.opened[p] is None)
            m = rng.choice(moves)
            paid += m[0] == "pay_and_play"
            opening = not hand.first_turn_over
            hand.apply(m)
            state = game.apply_text(state, interaction_text(m))
            if opening and hand.first_turn_over:
                # The engine drew its own start player: a lowest scorer; play on with it.
                (starter,) = game.to_move(state)
                assert hand.chips[starter - 1] == min(hand.chips)
                hand.current = starter - 1
            if hand.first_turn_over and not hand.is_over():
                assert interaction_zones(hand) == {
                    z: game.zone_cards(state, z) for z in interaction_zones(hand)}
        assert game.scores(state) == hand.scores()
        assert game.results(state) == hand.results()
    assert paid > 0


# ---------------------------------------------------------------------- Arsène
def arsene_text(m: tuple) -> str:
    if m[0] == "give_dummy":
        return f"give_dummy {card_text(m[2])}"
    return " ".join([m[0]] + [card_text(c) for c in m[1:]])


# The variables a deal's robbing changes (and the deal counter, dealer and contest mode):
# compared when a deal ends, then given to the engine with the next hand-written deal.
CARRIED = ("store", "chips", "tokens", "exempt", "supply", "confiscated", "deals",
           "dealer", "store_has_emptied", "contest")


def arsene_vars(hand: ha.Game) -> dict[str, Any]:
    return {"store": [tuple(s) for s in hand.store], "chips": hand.chips,
            "tokens": hand.tokens, "exempt": hand.exempt, "supply": hand.supply,
            "confiscated": hand.confiscated, "deals": hand.deals,
            "dealer": hand.dealer + 1, "store_has_emptied": hand.store_has_emptied,
            "contest": hand.contest}


def decision_kind(hand: ha.Game) -> str:
    return hand.legal_moves()[0][0]  # lay_trump or show


class ArseneDeals:
    """Sets an engine state to a hand-written deal. `make_state` keeps the flow at the
    decision setup reached (the taker's lay_trump or show, for the seed's own deal), so
    the state starts from a seed whose first decision is the same player's same kind."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seeds: dict[tuple[tuple[int, ...], str], int] = {}
        seed = 0
        while len(self.seeds) < 2 * game.players:
            st = game.new_state(seed)
            key = (game.to_move(st), game.legal_texts(st)[0].split()[0])
            self.seeds.setdefault(key, seed)
            seed += 1

    def state(self, hand: ha.Game) -> State:
        game = self.game
        seed = self.seeds[((hand.taker + 1,), decision_kind(hand))]
        stores = [card_text((r, ha.DIAMONDS)) for r in range(1, 6)]
        out = [card_text((r, s)) for s in range(4) for r in range(1, 14)
               if card_text((r, s)) not in stores and (r, s) not in hand.cards]
        assert sorted(out) == sorted(game.zone_cards(game.new_state(seed), "out"))
        zones = {"stores": stores, "out": out, "widow": [card_text(c) for c in hand.widow],
                 "trump_card": [], "shown": [], "trick": [], "dummy": []}
        for p in range(hand.players):
            zones[f"hand-p{p + 1}"] = [card_text(c) for c in hand.hands[p]]
            zones[f"taken-p{p + 1}"] = []
        st = game.make_state(zones=zones, vars=arsene_vars(hand), seed=seed)
        assert game.zone_cards(st, "deck") == []
        return st


def arsene_to_move(hand: ha.Game) -> tuple[int, ...]:
    if hand.phase == "dummy":
        return tuple(p + 1 for p in range(hand.players) if hand.given[p] is None)
    if hand.phase == "trump":
        return (hand.taker + 1,)
    return (hand.to_play + 1,)


class RecordingArsene(ha.Game):
    """The yardstick, remembering each robbing's trick counts and contest mode."""

    robbed: list[tuple[list[int], bool]]

    def rob_stores(self) -> None:
        self.robbed = getattr(self, "robbed", []) + [(list(self.tricks), self.contest)]
        super().rob_stores()


def play_arsene(game: Game, deals: ArseneDeals, hand: RecordingArsene, rng: random.Random,
                seen: set[str]) -> None:
    """Play random moves to the end on the hand-written game and the engine alike."""
    state = deals.state(hand)
    while True:
        moves = hand.legal_moves()
        assert sorted(game.legal_texts(state)) == sorted(arsene_text(m) for m in moves)
        assert game.is_terminal(state) == hand.is_over()
        if not moves:
            break
        assert game.to_move(state) == arsene_to_move(hand)
        assert game.var(state, "tricks") == hand.tricks
        assert game.var(state, "dummy_tricks") == hand.dummy_tricks
        assert game.var(state, "trumps") == hand.trumps
        m = rng.choice(moves)
        seen.add(m[0])
        deal, exempt = hand.deals, list(hand.exempt)
        hand.apply(m)
        state = game.apply_text(state, arsene_text(m))
        if hand.deals != deal or hand.is_over():
            # A deal ended: the robbing agrees; then play the hand-written next deal.
            assert {v: game.var(state, v) for v in CARRIED} == arsene_vars(hand)
            assert game.var(state, "lost") == (hand.lost if hand.is_over()
                                               else [False] * hand.players)
            if all(hand.caught) and not any(hand.lost):
                seen.add("deal that does not count")
            if hand.exempt != exempt:
                seen.add("escape")
            tricks, contest = hand.robbed[-1]
            if contest:
                seen.add("contest")
                if tricks.count(0) >= 2:
                    seen.add("exchange at 0 tricks")
            if not hand.is_over():
                state = deals.state(hand)
    assert game.var(state, "caught") == hand.caught
    assert game.scores(state) == hand.scores()
    assert game.results(state) == hand.results()
    if all(not s for s in hand.store):
        seen.add("every store empty")


def arsene(players: int, advanced: bool, max_deals: int | None = None) -> Game:
    settings = {"advanced": "true" if advanced else "false"}
    if max_deals is not None:
        settings["max_deals"] = str(max_deals)
    return compile_game("arsene", players=players, settings=settings)


@pytest.mark.parametrize("players,advanced", [(4, False), (4, True), (3, False), (3, True)])
def test_arsene_matches_handwritten(players: int, advanced: bool) -> None:
    game = arsene(players, advanced)
    deals = ArseneDeals(game)
    seen: set[str] = set()
    for seed in range(5):
        play_arsene(game, deals, RecordingArsene(seed, players, advanced), random.Random(seed), seen)
    assert {"play", "keep", "push", "show", "lay_trump", "escape"} <= seen
    assert ("give_dummy" in seen) == (players == 3)
    assert ("contest" in seen) == advanced


def test_arsene_deal_limit() -> None:
    game = arsene(4, False, max_deals=2)
    deals = ArseneDeals(game)
    for seed in range(3):
        hand = RecordingArsene(seed, 4, max_deals=2)
        play_arsene(game, deals, hand, random.Random(seed), set())
        assert hand.deals <= 2


@pytest.mark.parametrize("players,advanced", [(4, False), (3, True)])
def test_arsene_rare_endings(players: int, advanced: bool) -> None:
    """Rare in random play, so started from chosen variables: only store 5 holds chips (a
    deal where every player is caught does not count), or none (the game ends)."""
    game = arsene(players, advanced)
    deals = ArseneDeals(game)
    seen: set[str] = set()
    for seed in range(12):
        hand = RecordingArsene(seed, players, advanced)
        hand.store = [[], [], [], [], [1]] if seed % 3 else [[], [], [], [], []]
        hand.confiscated = 27 - sum(map(sum, hand.store))
        hand.store_has_emptied = True
        if seed % 3 == 0:
            hand.tokens[0] = 2  # may escape
            hand.supply -= 2
        play_arsene(game, deals, hand, random.Random(seed), seen)
    assert {"deal that does not count", "every store empty", "escape"} <= seen


def test_arsene_contest_from_the_start() -> None:
    """Contest mode in every deal (as if a store had emptied before): exchanges at every
    count, 0 tricks included, which random play reaches in about one deal in 40."""
    game = arsene(4, True)
    deals = ArseneDeals(game)
    seen: set[str] = set()
    for seed in range(16):
        hand = RecordingArsene(seed, 4, True)
        hand.store_has_emptied = hand.contest = True
        play_arsene(game, deals, hand, random.Random(seed), seen)
    assert "exchange at 0 tricks" in seen


# ---------------------------------------------------------------------- the benchmark
def test_bench_covers_the_twelve_rule_sets(capsys: pytest.CaptureFixture[str]) -> None:
    import bench

    # the seed games (issue 12's yardsticks); the classics are measured against OpenSpiel
    seed_games = {"arsene", "besieged-castle", "besieged-castle-spice-1",
                  "besieged-castle-spice-2", "calculation", "chains", "chains-advanced",
                  "interaction"}
    games_dir = Path(__file__).resolve().parent.parent / "games"
    assert seed_games <= {p.stem for p in games_dir.glob("*.cardgame")}
    assert {c.game for c in bench.CASES} == seed_games
    assert len({c.title for c in bench.CASES}) == len(bench.CASES) == 12
    for case in bench.CASES:
        row = bench.measure(case, 1, 7, 1)
        assert row["api_avg_moves"] > 0 and row["engine_avg_moves"] > 0
        assert row["hand_avg_moves"] > 0
    assert bench.main(["--only", "calculation", "--games", "2", "--repeat", "1", "--json"]) == 0
    assert '"api_ratio_games_per_s"' in capsys.readouterr().out
