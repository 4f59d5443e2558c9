"""The solver's NRPA phase: wins found by learned playouts, checked against the exact
search on small positions, replayed; the command's --nrpa and its figures over all deals."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import Game, State, compile_game
from cardgame.interpreter.engine import replay as replay_mod
from cardgame.interpreter.intervals import wilson
from cardgame.interpreter.solve.nrpa import Nrpa, check_win, nrpa
from cardgame.interpreter.solve.search import Bounds, solve
from cardgame.interpreter.solve.symmetry import key_for

# a Chains deal that NRPA wins in a few hundred playouts (seeded, so always the same)
EASY_SEED = 5


@pytest.fixture(scope="module")
def chains() -> Game:
    return compile_game("chains", 1, {})


def replays_to_win(game: Game, state: State, moves: tuple[tuple[int, ...], ...]) -> bool:
    for m in moves:
        state = game.apply(state, m)
    return game.is_terminal(state) and game.results(state) == ["win"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["solve", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_nrpa_wins_a_chains_deal_the_exact_search_leaves_undecided(chains: Game) -> None:
    start = chains.new_state(EASY_SEED)
    key, _ = key_for(chains)
    exact = solve(chains, start, Bounds(nodes=20_000, seconds=600), key, order="mixed")
    assert exact.verdict == "undecided"
    r = nrpa(chains, start, 600, seed=EASY_SEED, max_playouts=3_000)
    assert r.verdict == "solved" and replays_to_win(chains, start, r.moves)
    # seeded: the same seed plays the same playouts, so finds the same win
    again = nrpa(chains, start, 600, seed=EASY_SEED, max_playouts=3_000)
    assert again.moves == r.moves and again.nodes == r.nodes


def test_nrpa_stops_undecided_at_its_playout_budget(chains: Game) -> None:
    r = nrpa(chains, chains.new_state(1), 600, seed=1, max_playouts=3)
    assert r.verdict == "undecided" and r.stopped_by == "playouts" and r.moves == ()
    assert r.nodes >= 3 * 90  # three whole games: 45 draws and 45 placements at least


def test_a_win_is_checked_by_replaying_it(chains: Game) -> None:
    start = chains.new_state(EASY_SEED)
    r = nrpa(chains, start, 600, seed=EASY_SEED, max_playouts=3_000)
    check_win(chains, start, r.moves)  # a win: no error
    with pytest.raises(AssertionError, match="does not replay to a win"):
        check_win(chains, start, r.moves[:-1])


def test_a_code_is_what_lands_on_what_whichever_slot_and_whichever_copy(chains: Game) -> None:
    """The move codes the policy learns: the move's name and, for each zone that gained
    cards, the zone's declaration, the card on top and the card beneath, as attributes:
    a card put on any slot with the same top card is one code."""
    p = Nrpa(chains, chains.new_state(1), 60)
    node = p.root
    space = p.space

    def pile(node: tuple, i: int) -> tuple[int, ...]:
        return chains.zone_ids(space.state(node), f"slot{i}")

    while True:  # draw until the drawn card can go on a slot with a card
        node = space.settle(space.step(node, node[1][0]))  # draw
        to_slot = [m for m in node[1] if chains.move_names[m[1]] == "to_slot"]
        if any(pile(node, m[2]) for m in to_slot):
            break
        node = space.settle(space.step(node, to_slot[0]))
    codes = {}
    before = list(chains.zone_contents(space.state(node)).values())
    for m in to_slot:
        top = pile(node, m[2])
        rank = chains.checked.cards[top[-1]].rank if top else None
        codes.setdefault(rank, set()).add(p._code(before, space.step(node, m), m))
    assert all(len(c) == 1 for c in codes.values())  # one code per top card, any slot
    assert len({next(iter(c)) for c in codes.values()}) == len(codes)  # distinct tops differ


def _late_positions(game: Game, seed: int, left: int, count: int) -> list[State]:
    """Positions of a deal with `left` cards in the stock: along a win NRPA found (so
    winnable ones) and reached by random play (mostly lost)."""
    start = game.new_state(seed)
    win = nrpa(game, start, 600, seed=seed, max_playouts=3_000)
    assert win.verdict == "solved"
    out = []
    state = start
    for m in win.moves:
        state = game.apply(state, m)
        if len(game.zone_ids(state, "stock")) == left and not game.zone_ids(state, "drawn"):
            out.append(state)
            break
    rng = random.Random(seed)
    while len(out) < count:
        state = start
        while len(game.zone_ids(state, "stock")) > left or game.zone_ids(state, "drawn"):
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if not game.is_terminal(state):
            out.append(state)
    return out


@pytest.mark.parametrize("seed", [EASY_SEED, 8])
def test_nrpa_agrees_with_a_complete_search_on_small_positions(chains: Game, seed: int) -> None:
    """Brute force as the reference: on late positions (3 cards left in the stock) the
    exact search decides; NRPA finds a win of every position it proves winnable, and never
    one of a position it proves unsolvable."""
    key, _ = key_for(chains)
    verdicts = []
    for state in _late_positions(chains, seed, 3, 8):
        exact = solve(chains, state, Bounds(nodes=200_000, seconds=600), key, order="mixed")
        assert exact.verdict in ("solved", "unsolvable")
        r = nrpa(chains, state, 600, seed=1, max_playouts=2_000)
        assert r.verdict == ("solved" if exact.verdict == "solved" else "undecided")
        if r.verdict == "solved":
            assert replays_to_win(chains, state, r.moves)
        verdicts.append(exact.verdict)
    assert "solved" in verdicts and "unsolvable" in verdicts


def test_the_command_finds_a_win_with_nrpa_and_writes_a_replay(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "sol.json"
    code, out, err = run(capsys, "chains", "--seed", str(EASY_SEED), "--thoughtful",
                         "--nodes", "2000", "--out", str(out_file))
    assert code == 0 and err == "" and "undecided" in out and "--nrpa SECONDS" in out
    assert not out_file.exists()
    code, out, err = run(capsys, "chains", "--seed", str(EASY_SEED), "--thoughtful",
                         "--nodes", "2000", "--nrpa", "600", "--out", str(out_file))
    assert code == 0 and err == ""
    assert "solved in" in out and "a win found by NRPA playouts" in out
    rep = replay_mod.load(out_file)
    game = rep.compile()
    assert game.results(rep.states(game)[-1]) == ["win"]


def test_deals_report_at_least_and_at_most_over_all_deals(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "besieged-castle", "--deals", "4", "--nodes", "300", "--json")
    data = json.loads(out)
    assert code == 0 and (data["solved"], data["unsolvable"]) == (0, 2)  # seeds 3 and 4
    assert data["at_least"] == 0.0 and data["at_least_ci95"] == list(wilson(0, 4))
    assert data["at_most"] == 0.5 and data["at_most_ci95"] == list(wilson(2, 4))
    assert data["solved_by_nrpa"] == 0
    code, out, _ = run(capsys, "chains", "--deals", "2", "--thoughtful", "--nodes", "2000",
                       "--nrpa", "600", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["solved_by_nrpa"] == data["solved"] >= 1
    assert data["at_least"] == data["solved"] / 2 and data["at_most"] == 1.0
    assert all(v["found_by"] == "nrpa" for v in data["verdicts"] if v["verdict"] == "solved")


def test_a_playout_never_comes_back_to_a_position() -> None:
    """Besieged Castle's column-to-column moves can be undone: a random playout would go
    round in circles to the move limit. NRPA's playouts draw again instead."""
    castle = compile_game("besieged-castle", 1, {})
    start = castle.new_state(1)
    p = Nrpa(castle, start, 600, seed=1)
    for _ in range(3):
        _, moves, _ = p.playout({})
        state = start
        keys = {castle.position_key(state)}
        for m in moves:
            state = castle.apply(state, m)
            keys.add(castle.position_key(state))
        assert len(keys) == len(moves) + 1  # every position of the playout is new
    assert p.repeats > 0  # moves back were drawn, and drawn again
