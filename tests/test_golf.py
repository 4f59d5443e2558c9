"""Golf (games/golf.cardgame, docs/games/golf.md): each rule from built positions."""

from __future__ import annotations

import random

import pytest
from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.observe import view
from conftest import ALL_CARDS, build_position, legal, norm, random_walk

COLUMNS = [f"column{i}" for i in range(1, 8)]


@pytest.fixture(scope="module")
def golf() -> Game:
    return compile_game("golf")


def position(g: Game, tops: dict[int, list[str]], waste: list[str], stock: list[str],
             fill: bool = True):
    """Columns whose top cards are given (bottom first), topped up to 5 cards from the cards
    named nowhere when `fill`; the waste and the stock; the other cards under the waste."""
    named = {norm(c) for cs in tops.values() for c in cs} | {norm(c) for c in [*waste, *stock]}
    spare = [c for c in ALL_CARDS if c not in named]
    zones: dict[str, list[str]] = {}
    for i, z in enumerate(COLUMNS, 1):
        given = list(tops.get(i, []))
        pad = max(5 - len(given), 0) if fill and i not in tops else 0
        zones[z] = [spare.pop(0) for _ in range(pad)] + given
    zones["waste"] = spare + list(waste)
    zones["stock"] = list(stock)
    return build_position(g, zones)


# ---------------------------------------------------------------------- the deal
@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_deal_seven_columns_of_five_one_waste_card_16_in_stock(golf, seed):
    g = golf
    st = g.new_state(seed)
    assert [len(g.zone_cards(st, z)) for z in COLUMNS] == [5] * 7
    assert len(g.zone_cards(st, "waste")) == 1
    assert len(g.zone_cards(st, "stock")) == 16
    everything = [c for z in g.zone_names() for c in g.zone_cards(st, z)]
    assert len(everything) == len(set(everything)) == 52
    assert g.scores(st) == [35]
    assert g.check_invariants(st) == []


def test_the_columns_are_face_up_and_the_stock_face_down(golf):
    g = golf
    st = g.new_state(4)
    zones = view(g, st, 1)["zones"]
    assert zones["stock"] == {"hidden": 16}
    assert zones["column3"] == g.zone_cards(st, "column3")


# ---------------------------------------------------------------------- building on the waste
@pytest.mark.parametrize(("waste", "fits", "no"), [
    ("7d", ["6c", "8s"], ["7s", "5c", "9s"]),
    ("As", ["2c"], ["Kc", "Ac", "3c"]),
    ("Qs", ["Jc", "Kc"], ["Ac", "Qc"]),
    ("2h", ["Ac", "3c"], ["Kc"]),
])
def test_one_rank_above_or_below_no_wrap(golf, waste, fits, no):
    g = golf
    cards = fits + no
    st = position(g, {i: [c] for i, c in enumerate(cards, 1)}, [waste], ["9d"], fill=False)
    plays = {m for m in legal(g, st) if m.startswith("play")}
    got = {norm(m.split()[1]) for m in plays}
    assert got == set(fits)


def test_nothing_goes_on_a_king(golf):
    g = golf
    st = position(g, {1: ["Qc"], 2: ["Ac"], 3: ["Kc"]}, ["Kd"], ["9d"])
    assert legal(g, st) == ["draw"]
    with pytest.raises(IllegalMove, match="not one rank above or below"):
        g.apply_text(st, "play Q♣")


def test_only_a_column_top_is_played_and_the_run_goes_on(golf):
    g = golf
    st = position(g, {1: ["5h", "6c"]}, ["7d"], ["9d"])
    assert "play 5♥" not in legal(g, st)
    st = g.apply_text(st, "play 6♣")
    st = g.apply_text(st, "play 5♥")
    assert g.zone_cards(st, "waste")[-2:] == ["6♣", "5♥"]
    assert g.zone_cards(st, "column1") == []


def test_draw_at_any_time(golf):
    g = golf
    st = position(g, {1: ["8c"]}, ["7d"], ["3d", "2h"])
    assert set(legal(g, st)) >= {"play 8♣", "draw"}
    st = g.apply_text(st, "draw")
    assert g.zone_cards(st, "waste")[-1] == "2♥" and g.zone_cards(st, "stock") == ["3♦"]


# ---------------------------------------------------------------------- the end and the score
def test_won_when_every_column_is_cleared_score_minus_stock(golf):
    g = golf
    st = position(g, {1: ["8c"], **{i: [] for i in range(2, 8)}}, ["7d"], ["3d", "2h", "Js"])
    assert g.scores(st) == [1]
    st = g.apply_text(st, "play 8♣")
    assert g.is_terminal(st)
    assert g.results(st) == ["win"]
    assert g.scores(st) == [-3]
    assert g.end_reason(st) == "every column is cleared"


def test_lost_when_stuck_score_is_the_cards_left(golf):
    g = golf
    tops = {i: [c] for i, c in enumerate(["5c", "5s", "5h", "5d", "Qc", "Qs", "Qh"], 1)}
    st = position(g, tops, ["2d"], ["9h"])
    st = g.apply_text(st, "draw")
    assert g.is_terminal(st)
    assert g.results(st) == ["loss"]
    assert g.scores(st) == [7]  # one card in each column: `position` pads only unnamed ones
    assert "no column's top card fits" in g.end_reason(st)


def test_random_games_end_and_keep_the_invariants(golf):
    g = golf
    rng = random.Random(5)
    for seed in range(20):
        st = random_walk(g, seed, rng, 200)
        assert g.is_terminal(st)
        assert g.scores(st)[0] == sum(len(g.zone_cards(st, z)) for z in COLUMNS) or \
            g.results(st) == ["win"]


# ---------------------------------------------------------------------- fuzz
def test_fuzz_finds_no_rule_hole_and_witnesses_every_expectation(tmp_path, monkeypatch):
    import io
    from contextlib import redirect_stdout

    from cardgame.interpreter.cli import main
    monkeypatch.chdir(tmp_path)
    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(["fuzz", "golf", "--examples", "60", "--seed", "1", "--reach-seconds", "20"])
    out = buf.getvalue()
    assert code == 0, out
    assert "no rule hole found" in out and "60 games" in out
    assert "error" not in out
    assert out.count(": ok: '") == 2, out  # every `expect sometimes` witnessed
