"""Arsène, new edition (rules: ../shared/rules/arsene.md): 4 players, 3 players with the
dummy, and the advanced rule (contest mode) with either.

Three kinds of test:
- scenarios played through the engine: a real deal is played up to a chosen point, then
  the trick counts, hands and variables are rewritten (every card stays in play) and the
  rest is played with chosen moves (`finish_deal`, `force_trick`);
- the robbing procedure on its own (`rob`: a variant of the game whose flow only robs);
- model checks over random games: the trick, push, trump and robbing rules recomputed here
  from the rules file and compared with the engine at every step.
"""

from __future__ import annotations

import atexit
import random
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.engine import Game, Position, State, compile_game
from cardgame.interpreter.errors import IllegalMove
from cardgame.interpreter.lang import bundled_dir
from cardgame.interpreter.observe import view

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
STORE_GROUPS = [(1, 1, 1), (1, 2, 3), (1, 3, 5), (1, 2, 3), (1, 1, 1)]
REMOVED_3P = {"6d", "7d"} | {f"{r}{s}" for r in "234" for s in "shc"}
RULE_SETS = [(3, False), (3, True), (4, False), (4, True)]


def arsene(n: int, advanced: bool = False, max_deals: int | None = None) -> Game:
    settings = {"advanced": "true" if advanced else "false"}
    if max_deals is not None:
        settings["max_deals"] = str(max_deals)
    return compile_game("arsene", players=n, settings=settings)


@pytest.fixture(params=RULE_SETS, ids=lambda p: f"{p[0]}p-{'adv' if p[1] else 'basic'}",
                scope="module")
def g(request: pytest.FixtureRequest) -> Game:
    return arsene(*request.param)


@pytest.fixture(params=[3, 4], scope="module")
def gb(request: pytest.FixtureRequest) -> Game:
    """The basic rule, 3 and 4 players."""
    return arsene(request.param)


# ---------------------------------------------------------------------- cards
def norm(card: str) -> str:
    return card[:-1] + SUITS.get(card[-1], card[-1])


def rank(card: str) -> int:
    return RANKS.index(norm(card)[:-1]) + 1


def suit(card: str) -> str:
    return norm(card)[-1]


def power(card: str) -> int:
    return 14 if rank(card) == 1 else rank(card)


def non_court_diamond(card: str) -> bool:
    return suit(card) == "d" and 6 <= rank(card) <= 10


def cards_of(g: Game, st: State | Position, zone: str) -> list[str]:
    texts = st.cards(zone) if isinstance(st, Position) else g.zone_cards(st, zone)
    return [norm(c) for c in texts]


def left(p: int, n: int) -> int:
    return p % n + 1


def clockwise_from(p: int, n: int) -> list[int]:
    """p, then the players to p's left in order."""
    return [(p - 1 + i) % n + 1 for i in range(n)]


# ---------------------------------------------------------------------- variables
def getv(g: Game, s: State | Position, name: str) -> Any:
    return s.value(name) if isinstance(s, Position) else g.var(s, name)


def balance_chips(pos: Position) -> None:
    """Make `confiscated` the chips that are neither on a store nor held (27 in all)."""
    on_stores = sum(sum(t) for t in pos.value("store"))
    held = sum(pos.value("chips"))
    assert on_stores + held <= 27, "bad test position: more than 27 chips"
    pos.var("confiscated", 27 - on_stores - held)


def set_table(pos: Position, values: Mapping[str, Any]) -> None:
    """Set variables; tokens also set the supply, chips and stores the confiscated count."""
    values = dict(values)
    if "store" in values:
        values["store"] = [tuple(t) for t in values["store"]]
    if "tokens" in values and "supply" not in values:
        values["supply"] = 8 - sum(values["tokens"])
    pos.vars(values)
    if "confiscated" not in values:
        balance_chips(pos)


# ---------------------------------------------------------------------- positions
def zone_of(g: Game, pos: Position, card: str) -> tuple[str, int]:
    for z in g.zone_names():
        cards = cards_of(g, pos, z)
        if card in cards:
            return z, cards.index(card)
    raise AssertionError(f"card {card} is nowhere")


def put(g: Game, pos: Position, wanted: Mapping[str, Sequence[str]]) -> None:
    """Make each zone hold the wanted cards (it keeps its size): a wanted card swaps places
    with a card of that zone that nobody wants, wherever the wanted card was."""
    for zone, cs in wanted.items():
        locked = {norm(c) for c in cs}
        for c in map(norm, cs):
            if c in cards_of(g, pos, zone):
                continue
            src, i = zone_of(g, pos, c)
            assert src not in ("stores", "out"), c
            ids, src_ids = list(pos.ids(zone)), list(pos.ids(src))
            j = next(j for j, v in enumerate(cards_of(g, pos, zone)) if v not in locked)
            ids[j], src_ids[i] = src_ids[i], ids[j]
            pos.rearrange({zone: ids, src: src_ids})


def set_counts(g: Game, pos: Position, tricks: Sequence[int], dummy: int | None = None) -> None:
    """Set the trick counts and share the taken cards out to match (a trick is n cards)."""
    n = g.players
    taken = [f"taken-p{p}" for p in range(1, n + 1)]
    pool = [c for z in [*taken, "dummy"] for c in pos.ids(z)]
    dummy = pos.value("dummy_tricks") if dummy is None else dummy
    assert len(pool) == n * (sum(tricks) + dummy), "bad test position: trick total"
    deal: dict[str, list[int]] = {}
    for p in range(n):
        deal[taken[p]] = pool[:n * tricks[p]]
        pool = pool[n * tricks[p]:]
    deal["dummy"] = pool
    pos.rearrange(deal)
    pos.var("tricks", list(tricks)).var("dummy_tricks", dummy)


def total_tricks(g: Game, st: State) -> int:
    return sum(getv(g, st, "tricks")) + getv(g, st, "dummy_tricks")


def first_legal(g: Game, st: State, prefer: str = "keep") -> State:
    legal = g.legal_moves(st)
    for m in legal:
        if g.move_names[m[1]] == prefer:
            return g.apply(st, m)
    return g.apply(st, legal[0])


def start_tricks(g: Game, st: State) -> State:
    """From the trump decision of a deal to its first trick (first legal choices)."""
    assert g.phase(st) == "Trump"
    while g.phase(st) == "Trump":
        st = first_legal(g, st)
    assert g.phase(st) == "Tricks"
    return st


def play_until(g: Game, st: State, total: int) -> State:
    """Play (first legal card, keep rather than push) until `total` tricks are counted,
    the dummy's included, with the next trick not begun."""
    while total_tricks(g, st) < total or cards_of(g, st, "trick"):
        assert g.phase(st) == "Tricks"
        st = first_legal(g, st)
    return st


def force_trick(g: Game, st: State, winner: int, decision: str | None = "keep",
                events: list[str] | None = None) -> State:
    """Play the next trick so that `winner` wins it: the winner gets A♠, the leader (if
    another player) 5♠, no trumps this deal; everyone else plays their first legal card.
    Then the winner keeps or pushes if offered."""
    assert g.phase(st) == "Tricks" and not cards_of(g, st, "trick")
    pos = Position(g, st)
    leader = pos.value("leader")
    wanted = {f"hand-p{winner}": ["As"]}
    if leader != winner:
        wanted[f"hand-p{leader}"] = ["5s"]
    put(g, pos, wanted)
    st = pos.var("trumps", False).state()
    for p in clockwise_from(leader, g.players):
        assert g.to_move(st) == (p,)
        if p == winner:
            m = g.parse_move(st, "play As", p)
        elif p == leader:
            m = g.parse_move(st, "play 5s", p)
        else:
            m = g.legal_moves(st, p)[0]
        st, ev = g.apply_with_events(st, m)
        if events is not None:
            events += ev
    if decision is not None and g.to_move(st) == (winner,) and set(g.legal_texts(st)) == {
            "keep", "push"}:
        st, ev = g.apply_with_events(st, g.parse_move(st, decision, winner))
        if events is not None:
            events += ev
    return st


def finish_deal(g: Game, st: State, final: Sequence[int], winner: int = 0,
                dummy: int = 1, events: list[str] | None = None, **table: Any) -> State:
    """From the trump decision of a deal: play it to its last trick, rewrite the counts
    so that after `winner` takes the last trick they are `final` (the dummy's `dummy`),
    set the table (stores, chips, tokens, ...), play the last trick. Returns the state after
    the deal's robbing: the next deal's trump decision, or the end."""
    n = g.players
    winner = winner or next(p for p in range(1, n + 1) if final[p - 1] > 0)
    st = play_until(g, start_tricks(g, st), 10)
    pos = Position(g, st)
    before = list(final)
    before[winner - 1] -= 1
    assert before[winner - 1] >= 0
    assert sum(final) + (dummy if n == 3 else 0) == 11, "bad test position: 11 tricks"
    set_counts(g, pos, before, dummy if n == 3 else 0)
    set_table(pos, table)
    st = pos.state()
    assert g.check_invariants(st) == [], g.check_invariants(st)
    return force_trick(g, st, winner, "keep", events)


# The robbing procedure on its own: a variant of the game whose flow only asks the dealer
# to rob (the procedure is the game's own).
ROB_ONLY = """extends "arsene"
move rob "rob the stores" { rob_stores() }
flow { repeat { dealer chooses rob } }
"""
ROB_VARS = ("store", "chips", "tokens", "exempt", "supply", "confiscated", "caught", "lost",
            "store_has_emptied")


VARIANTS = Path(tempfile.mkdtemp(prefix="arsene-variants-"))
atexit.register(shutil.rmtree, VARIANTS, ignore_errors=True)


def robbing_game(g: Game, text: str, name: str) -> Game:
    """The variant `text` of Arsène, for g's players and options."""
    path = VARIANTS / f"{name}.cardgame"
    if not path.exists():
        path.write_text(text, encoding="utf-8")
    return compile_game(str(path), players=g.players, settings=dict(g.spec.settings))


def rob(g: Game, tricks: Sequence[int], dummy: int = 0, **table: Any) -> dict[str, Any]:
    """Run the game's robbing procedure on a table; return the variables after it."""
    r = robbing_game(g, ROB_ONLY, "rob-only")
    pos = Position(r, seed=0).var("tricks", list(tricks)).var("dummy_tricks", dummy)
    set_table(pos, table)
    after = r.apply_text(pos.state(), "rob")
    out = {name: r.var(after, name) for name in ROB_VARS}
    out["store"] = [tuple(t) for t in out["store"]]
    assert sum(sum(t) for t in out["store"]) + sum(out["chips"]) + out["confiscated"] == 27
    assert out["supply"] + sum(out["tokens"]) == 8
    return out


def full_stores(**changes: Sequence[int]) -> list[tuple[int, ...]]:
    """The stores as at the start, with some changed: full_stores(s1=[]) empties store 1."""
    out = [tuple(t) for t in STORE_GROUPS]
    for key, groups in changes.items():
        out[int(key[1:]) - 1] = tuple(groups)
    return out


# ====================================================================== setup
def test_setup_stores_chips_tokens(g: Game) -> None:
    dealers = set()
    for seed in range(40):
        st = g.new_state(seed)
        assert cards_of(g, st, "stores") == ["Ad", "2d", "3d", "4d", "5d"]
        assert [tuple(t) for t in getv(g, st, "store")] == STORE_GROUPS
        assert [sum(t) for t in STORE_GROUPS] == [3, 6, 9, 6, 3]
        assert getv(g, st, "supply") == 8
        assert getv(g, st, "tokens") == [0] * g.players
        assert getv(g, st, "chips") == [0] * g.players
        assert getv(g, st, "confiscated") == 0
        assert g.check_invariants(st) == []
        dealers.add(getv(g, st, "dealer"))
    assert dealers == set(range(1, g.players + 1))  # the first dealer is random


def test_4p_deal_47_cards() -> None:
    g = arsene(4)
    for seed in range(20):
        st = g.new_state(seed)
        taker = left(getv(g, st, "dealer"), 4)
        assert cards_of(g, st, "out") == []
        sizes = [len(g.zone_cards(st, f"hand-p{p}")) for p in range(1, 5)]
        assert sizes == [12 if p == taker else 11 for p in range(1, 5)]
        assert len(g.zone_cards(st, "widow")) == 2  # one of the 3 went to the taker
        dealt = [c for p in range(1, 5) for c in cards_of(g, st, f"hand-p{p}")]
        dealt += cards_of(g, st, "widow")
        assert len(set(dealt)) == 47
        assert not set(dealt) & {"Ad", "2d", "3d", "4d", "5d"}


def test_3p_removes_11_cards_and_deals_36() -> None:
    g = arsene(3)
    rng = random.Random(2)
    for seed in range(20):
        st = g.new_state(seed)
        assert set(cards_of(g, st, "out")) == REMOVED_3P
        assert len(REMOVED_3P) == 11
        taker = left(getv(g, st, "dealer"), 3)
        sizes = [len(g.zone_cards(st, f"hand-p{p}")) for p in range(1, 4)]
        assert sizes == [12 if p == taker else 11 for p in range(1, 4)]
        dealt = {c for p in range(1, 4) for c in cards_of(g, st, f"hand-p{p}")}
        dealt |= set(cards_of(g, st, "widow"))
        assert len(dealt) == 36 and not dealt & REMOVED_3P
        # The removed cards never come back into play.
        for _ in range(150):
            if g.is_terminal(st):
                break
            st = g.apply(st, rng.choice(g.legal_moves(st)))
            assert set(cards_of(g, st, "out")) == REMOVED_3P


# ====================================================================== the trump decision
def check_trump_decision(g: Game, st: State) -> None:
    """At a trump decision: the rules' choice for the taker's hand, then its effects."""
    n = g.players
    taker = left(getv(g, st, "dealer"), n)
    assert g.to_move(st) == (taker,)
    hand = cards_of(g, st, f"hand-p{taker}")
    assert len(hand) == 12 and len(g.zone_cards(st, "widow")) == 2
    legal = sorted(g.legal_texts(st))
    ncd = [c for c in hand if non_court_diamond(c)]
    if ncd:
        assert legal == sorted(f"lay_trump {c}" for c in g.zone_cards(st, f"hand-p{taker}")
                               if non_court_diamond(norm(c)))
    else:
        assert legal == sorted(f"show {c}" for c in g.zone_cards(st, f"hand-p{taker}"))
    for p in range(1, n + 1):
        assert g.legal_moves(st, p) == [] or p == taker


def test_trump_decision_rule_over_many_deals(gb: Game) -> None:
    g = gb
    seen = {"lay": 0, "show": 0, "court_only": 0}
    for seed in range(150):
        st = g.new_state(seed)
        check_trump_decision(g, st)
        taker = left(getv(g, st, "dealer"), g.players)
        hand = cards_of(g, st, f"hand-p{taker}")
        if any(non_court_diamond(c) for c in hand):
            seen["lay"] += 1
        else:
            seen["show"] += 1
            if any(suit(c) == "d" for c in hand):
                seen["court_only"] += 1  # only J/Q/K of diamonds: no trumps
    assert all(seen.values()), seen
    if g.players == 3:  # diamond 6 and 7 are out: 8, 9, 10 are the non-court diamonds
        for seed in range(60):
            st = g.new_state(seed)
            assert not any(t.endswith(("6♦", "7♦")) for t in g.legal_texts(st))


def find_seed(g: Game, want: Callable[[list[str]], bool]) -> State:
    for seed in range(500):
        st = g.new_state(seed)
        taker = left(getv(g, st, "dealer"), g.players)
        if want(cards_of(g, st, f"hand-p{taker}")):
            return st
    raise AssertionError("no such deal in 500 seeds")


def test_lay_trump_is_forced_and_public(gb: Game) -> None:
    g = gb
    n = g.players
    st = find_seed(g, lambda h: sum(non_court_diamond(c) for c in h) >= 2
                   and any(suit(c) != "d" for c in h))
    taker = left(getv(g, st, "dealer"), n)
    names = {t.split()[0] for t in g.legal_texts(st)}
    assert names == {"lay_trump"}
    other = next(c for c in g.zone_cards(st, f"hand-p{taker}") if not non_court_diamond(norm(c)))
    with pytest.raises(IllegalMove):
        g.apply_text(st, f"show {other}", player=taker)
    move = g.legal_moves(st)[0]
    card = g.card_text[move[2]]
    after = g.apply(st, move)
    assert getv(g, after, "trumps") is True
    assert g.zone_cards(after, "trump_card") == [card]
    assert len(g.zone_cards(after, f"hand-p{taker}")) == 11
    for viewer in [None, *range(1, n + 1)]:
        zones = view(g, after, viewer)["zones"]
        assert zones["trump_card"] == [card]
        assert zones["widow"] == {"hidden": 2}  # hidden from everyone, the taker too


def test_show_when_no_non_court_diamond(gb: Game) -> None:
    g = gb
    n = g.players
    st = find_seed(g, lambda h: not any(non_court_diamond(c) for c in h)
                   and any(suit(c) == "d" for c in h))
    taker = left(getv(g, st, "dealer"), n)
    hand = g.zone_cards(st, f"hand-p{taker}")
    assert sorted(g.legal_texts(st)) == sorted(f"show {c}" for c in hand)
    court = next(c for c in hand if norm(c).endswith("d"))
    after = g.apply_text(st, f"show {court}", player=taker)
    assert getv(g, after, "trumps") is False
    assert g.zone_cards(after, "trump_card") == []
    assert g.zone_cards(after, "shown") == [court]
    for viewer in [None, *range(1, n + 1)]:
        zones = view(g, after, viewer)["zones"]
        assert zones["shown"] == [court]  # the shown card is public knowledge
        assert zones["widow"] == {"hidden": 2}
    assert all(len(g.zone_cards(after, f"hand-p{p}")) == 11 for p in range(1, n + 1))


# ====================================================================== tricks
def expected_winner(cards: Sequence[str], leader: int, n: int, trumps: bool) -> int:
    led = suit(cards[0])

    def strength(c: str) -> int:
        if trumps and suit(c) == "d":
            return 100 + power(c)
        if suit(c) == led:
            return 50 + power(c)
        return 0

    best = max(range(len(cards)), key=lambda i: strength(cards[i]))
    return clockwise_from(leader, n)[best]


def expected_receiver(tricks: Sequence[int], dummy: int | None, w: int) -> int | str | None:
    """Whom the winner w may push to: 'dummy', a player, or None (no push)."""
    n = len(tricks)
    t = tricks[w - 1]
    if t == 0:
        return None
    if dummy is not None and dummy == t:
        return "dummy"
    for q in clockwise_from(w, n)[1:]:
        if tricks[q - 1] == t:
            return q
    return None


def test_must_follow_suit(gb: Game) -> None:
    g = gb
    n = g.players
    st = start_tricks(g, g.new_state(4))
    pos = Position(g, st)
    leader = pos.value("leader")
    p2, p3 = clockwise_from(leader, n)[1:3]
    size = len(pos.ids(f"hand-p{p3}"))
    no_clubs = [f"{r}{x}" for x in "sh" for r in ("5", "6", "8", "9", "10", "J", "Q", "K", "A")]
    put(g, pos, {f"hand-p{leader}": ["Kc"], f"hand-p{p2}": ["5c", "Ac", "7h"],
                 f"hand-p{p3}": no_clubs[:size]})
    st = pos.state()
    assert not any(suit(c) == "c" for c in cards_of(g, st, f"hand-p{p3}"))
    # Any card may lead.
    assert len(g.legal_moves(st, leader)) == len(g.zone_cards(st, f"hand-p{leader}"))
    st = g.apply_text(st, "play Kc", player=leader)
    clubs2 = sorted(f"play {c}" for c in g.zone_cards(st, f"hand-p{p2}") if norm(c)[-1] == "c")
    assert "play 5♣" in clubs2 and "play A♣" in clubs2
    assert sorted(g.legal_texts(st, p2)) == clubs2
    with pytest.raises(IllegalMove):
        g.apply_text(st, "play 7h", player=p2)
    st = g.apply_text(st, "play Ac", player=p2)
    # Void in the led suit: any card.
    assert sorted(g.legal_texts(st, p3)) == sorted(
        f"play {c}" for c in g.zone_cards(st, f"hand-p{p3}"))


PLAIN = [f"{r}{x}" for x in "sc" for r in ("5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")]


@pytest.mark.parametrize(("lead", "second", "trumps", "wins"), [
    ("Kc", "Ac", False, "second"),  # A is high
    ("Kc", "Ac", True, "second"),
    ("Ah", "Kd", False, "leader"),  # no trumps: an off-suit diamond cannot win
    ("Ah", "Kd", True, "second"),   # trumps: the diamond beats the led suit's A
    ("8d", "Kd", True, "second"),
    ("Qd", "Jd", True, "leader"),
])
def test_trick_winner_rule(gb: Game, lead: str, second: str, trumps: bool, wins: str) -> None:
    """The leader leads `lead`; the next player, void in the led suit unless `second` is
    of that suit, plays `second`; the others play their first legal card (none of which can
    beat the winner: A♦ is a store, so K♦ is the highest diamond in play)."""
    g = gb
    n = g.players
    st = start_tricks(g, g.new_state(9))
    pos = Position(g, st)
    leader = pos.value("leader")
    p2 = left(leader, n)
    size = len(pos.ids(f"hand-p{p2}"))
    plain = [c for c in PLAIN if suit(c) != suit(lead) and c not in (lead, second)]
    put(g, pos, {f"hand-p{leader}": [lead], f"hand-p{p2}": [second, *plain[:size - 1]]})
    st = pos.var("trumps", trumps).state()
    st = g.apply_text(st, f"play {lead}", player=leader)
    st = g.apply_text(st, f"play {second}", player=p2)
    while len(cards_of(g, st, "trick")) not in (0, n) and g.phase(st) == "Tricks":
        st = g.apply(st, g.legal_moves(st)[0])
    assert getv(g, st, "trick_winner") == (leader if wins == "leader" else p2)


def test_trick_winner_examples() -> None:
    assert expected_winner(["Kc", "Ac", "10d", "2c"], 1, 4, False) == 2
    assert expected_winner(["Kc", "Ac", "10d", "2c"], 1, 4, True) == 3
    assert expected_winner(["Kc", "Ac", "10d", "Jd"], 3, 4, True) == 2  # Jd by seat 2
    assert expected_winner(["2h", "Ks", "Kd"], 2, 3, False) == 2


def test_tricks_per_deal_and_winner_rule_over_random_games(g: Game) -> None:
    """The model check: every play decision offers exactly the must-follow cards, every
    trick goes to the rules' winner, every push decision is offered exactly when an
    eligible receiver exists and goes to the one receiver."""
    n = g.players
    rng = random.Random(n * 10 + g.options["advanced"])
    deals_checked = 0
    for seed in range(12):
        st = g.new_state(seed)
        while not g.is_terminal(st):
            phase = g.phase(st)
            if phase == "Trump" and not view(g, st, None)["pending"] and g.to_move(st) == (
                    left(getv(g, st, "dealer"), n),) and len(g.zone_cards(st, "widow")) == 2:
                check_trump_decision(g, st)
            if phase != "Tricks":
                st = g.apply(st, rng.choice(g.legal_moves(st)))
                continue
            trick = cards_of(g, st, "trick")
            p = g.to_move(st)[0]
            names = {g.move_names[m[1]] for m in g.legal_moves(st)}
            tricks = getv(g, st, "tricks")
            dummy = getv(g, st, "dummy_tricks") if n == 3 else None
            deal = getv(g, st, "deals")
            if names == {"play"}:
                hand = cards_of(g, st, f"hand-p{p}")
                if trick and any(suit(c) == suit(trick[0]) for c in hand):
                    want = [c for c in hand if suit(c) == suit(trick[0])]
                else:
                    want = hand
                got = [norm(g.card_text[m[2]]) for m in g.legal_moves(st)]
                assert sorted(got) == sorted(want)
                leader = getv(g, st, "leader")
                assert p == clockwise_from(leader, n)[len(trick)]
                m = rng.choice(g.legal_moves(st))
                after = g.apply(st, m)
                if len(trick) == n - 1:
                    cards = [*trick, norm(g.card_text[m[2]])]
                    w = expected_winner(cards, leader, n, getv(g, st, "trumps"))
                    receiver = expected_receiver(tricks, dummy, w)
                    if getv(g, after, "deals") != deal or g.is_terminal(after):
                        deals_checked += 1
                    elif receiver is None:
                        want_tricks = list(tricks)
                        want_tricks[w - 1] += 1
                        assert getv(g, after, "tricks") == want_tricks
                        assert getv(g, after, "leader") == w
                    else:
                        assert g.to_move(after) == (w,)
                        assert sorted(g.legal_texts(after)) == ["keep", "push"]
                        assert cards_of(g, after, "trick") == cards
                st = after
            else:
                assert names == {"keep", "push"}
                w = getv(g, st, "trick_winner")
                assert p == w
                receiver = expected_receiver(tricks, dummy, w)
                assert receiver is not None
                choice = rng.choice(["keep", "push"])
                after = g.apply_text(st, choice, player=w)
                if getv(g, after, "deals") != deal or g.is_terminal(after):
                    deals_checked += 1
                else:
                    want_tricks = list(tricks)
                    want_dummy = dummy
                    if choice == "keep":
                        want_tricks[w - 1] += 1
                        want_leader = w
                    elif receiver == "dummy":
                        want_dummy += 1
                        want_leader = left(w, n)
                    else:
                        want_tricks[receiver - 1] += 1
                        want_leader = receiver
                    assert getv(g, after, "tricks") == want_tricks
                    if n == 3:
                        assert getv(g, after, "dummy_tricks") == want_dummy
                    assert getv(g, after, "leader") == want_leader
                st = after
    assert deals_checked >= 12


# ====================================================================== pushing
@pytest.mark.parametrize(("counts", "winner", "receiver"), [
    ([1, 2, 1, 1], 1, 3),      # the rules' example: A may push only to C
    ([1, 2, 1, 1], 4, 1),      # D: the first clockwise with 1 is A
    ([1, 2, 1, 1], 3, 4),
    ([1, 2, 1, 1], 2, None),   # nobody else has 2
    ([1, 2, 2, 0], 1, None),
    ([0, 2, 2, 1], 1, None),   # 0 tricks: no push, even though C and D... have other counts
    ([0, 0, 3, 2], 1, None),   # the count must not be 0
    ([2, 2, 1, 0], 1, 2),
    ([2, 1, 1, 1], 2, 3),
])
def test_push_receiver_4p(counts: list[int], winner: int, receiver: int | None) -> None:
    g = arsene(4)
    st = play_until(g, start_tricks(g, g.new_state(21)), sum(counts))
    pos = Position(g, st)
    set_counts(g, pos, counts)
    st = pos.state()
    assert expected_receiver(counts, None, winner) == receiver
    after = force_trick(g, st, winner, decision=None)
    if receiver is None:
        want = list(counts)
        want[winner - 1] += 1
        assert getv(g, after, "tricks") == want  # taken at once, no decision
        assert g.to_move(after) == (winner,)
        assert g.legal_moves(after) and all(
            g.move_names[m[1]] == "play" for m in g.legal_moves(after))
        return
    assert g.to_move(after) == (winner,)
    assert sorted(g.legal_texts(after)) == ["keep", "push"]
    trick = cards_of(g, after, "trick")
    kept = g.apply_text(after, "keep", player=winner)
    want = list(counts)
    want[winner - 1] += 1
    assert getv(g, kept, "tricks") == want
    assert g.to_move(kept) == (winner,)
    pushed = g.apply_text(after, "push", player=winner)
    want = list(counts)
    want[receiver - 1] += 1
    assert getv(g, pushed, "tricks") == want
    assert cards_of(g, pushed, f"taken-p{receiver}")[-4:] == trick
    assert g.to_move(pushed) == (receiver,)  # the receiver leads
    assert g.check_invariants(pushed) == []


@pytest.mark.parametrize(("counts", "dummy", "winner", "receiver"), [
    ([1, 1, 0], 1, 1, "dummy"),   # p2 qualifies too, but the dummy takes precedence
    ([1, 0, 1], 1, 3, "dummy"),
    ([1, 1, 0], 2, 1, 2),         # the dummy has 2: the push goes to p2
    ([2, 0, 0], 2, 1, "dummy"),
    ([0, 1, 1], 2, 3, 2),
    ([2, 1, 0], 1, 2, "dummy"),
    ([0, 0, 2], 1, 1, None),
    ([2, 1, 0], 2, 2, None),
])
def test_push_receiver_3p_dummy(counts: list[int], dummy: int, winner: int,
                                receiver: int | str | None) -> None:
    g = arsene(3)
    st = play_until(g, start_tricks(g, g.new_state(5)), sum(counts) + dummy)
    pos = Position(g, st)
    set_counts(g, pos, counts, dummy)
    st = pos.state()
    assert expected_receiver(counts, dummy, winner) == receiver
    after = force_trick(g, st, winner, decision=None)
    if receiver is None:
        want = list(counts)
        want[winner - 1] += 1
        assert getv(g, after, "tricks") == want
        return
    assert sorted(g.legal_texts(after)) == ["keep", "push"]
    trick = cards_of(g, after, "trick")
    pushed = g.apply_text(after, "push", player=winner)
    if receiver == "dummy":
        assert getv(g, pushed, "tricks") == counts
        assert getv(g, pushed, "dummy_tricks") == dummy + 1
        assert cards_of(g, pushed, "dummy")[-3:] == trick
        # After a push to the dummy the player to the left of the pusher leads.
        assert g.to_move(pushed) == (left(winner, 3),)
        assert getv(g, pushed, "leader") == left(winner, 3)
    else:
        want = list(counts)
        want[receiver - 1] += 1
        assert getv(g, pushed, "tricks") == want
        assert getv(g, pushed, "dummy_tricks") == dummy
        assert g.to_move(pushed) == (receiver,)
    assert g.check_invariants(pushed) == []


# ====================================================================== the dummy's trick
def test_dummy_trick_is_secret_and_simultaneous() -> None:
    g = arsene(3)
    for seed in range(5):
        st = g.apply(g.new_state(seed), g.legal_moves(g.new_state(seed))[0])
        assert g.phase(st) == "Trump"
        assert g.to_move(st) == (1, 2, 3)
        for p in (1, 2, 3):
            assert len(g.zone_cards(st, f"hand-p{p}")) == 11
            assert sorted(g.legal_texts(st, p)) == sorted(
                f"give_dummy {c}" for c in g.zone_cards(st, f"hand-p{p}"))
        a, b = g.legal_moves(st, 2)[:2]
        after_a, after_b = g.apply(st, a), g.apply(st, b)
        for viewer in (None, 1, 3):
            va, vb = view(g, after_a, viewer), view(g, after_b, viewer)
            assert va == vb  # p2's choice cannot be told from any other seat
            assert va["pending"] == [{"player": 2, "move": "(chosen)"}]
            assert va["zones"]["dummy"] == {"hidden": 0}
        assert view(g, after_a, 2)["pending"] == [{"player": 2, "move": g.move_text(a)}]
        assert g.zone_cards(after_a, "hand-p2") == g.zone_cards(st, "hand-p2")
        assert g.to_move(after_a) == (1, 3)
        with pytest.raises(IllegalMove):
            g.apply(after_a, b)
        st = g.apply(after_a, g.legal_moves(after_a, 3)[0])
        assert view(g, st, 1)["pending"] == [{"player": 2, "move": "(chosen)"},
                                            {"player": 3, "move": "(chosen)"}]
        chosen = [g.card_text[a[2]], g.card_text[g.legal_moves(st, 1)[0][2]]]
        st = g.apply(st, g.legal_moves(st, 1)[0])
        assert g.phase(st) == "Tricks"
        assert getv(g, st, "dummy_tricks") == 1
        dummy = g.zone_cards(st, "dummy")
        assert len(dummy) == 3 and set(chosen) <= set(dummy)
        for viewer in (None, 1, 2, 3):
            assert view(g, st, viewer)["zones"]["dummy"] == {"hidden": 3}
            assert view(g, st, viewer)["pending"] == []
        for p in (1, 2, 3):
            assert len(g.zone_cards(st, f"hand-p{p}")) == 10
        assert g.to_move(st) == (left(getv(g, st, "dealer"), 3),)


def test_4p_has_no_dummy_trick() -> None:
    g = arsene(4)
    st = g.apply(g.new_state(1), g.legal_moves(g.new_state(1))[0])
    assert g.phase(st) == "Tricks"
    assert getv(g, st, "dummy_tricks") == 0
    assert all(len(g.zone_cards(st, f"hand-p{p}")) == 11 for p in range(1, 5))
    assert g.to_move(st) == (left(getv(g, st, "dealer"), 4),)


# ====================================================================== robbing (unit)
# Later in a game the stores hold fewer chips and players hold some: `late` stores keep
# only their last group (13 chips), leaving 14 for the players and the confiscated.
def late(**changes: Sequence[int]) -> list[tuple[int, ...]]:
    out = [(1,), (3,), (5,), (3,), (1,)]
    for key, groups in changes.items():
        out[int(key[1:]) - 1] = tuple(groups)
    return out


def test_robbing_alone_takes_the_next_group_smallest_first() -> None:
    g = arsene(4)
    table: dict[str, Any] = {"store": full_stores(), "chips": [0, 0, 0, 0]}
    history = []
    for _ in range(3):
        r = rob(g, [1, 2, 3, 5], **table)
        history.append(r["chips"])
        table = {"store": r["store"], "chips": r["chips"]}
    # Stores A and 5 give 1 each time, 2 and 4 give 1, 2, 3, store 3 gives 1, 3, 5.
    assert history == [[1, 1, 1, 1], [2, 3, 4, 2], [3, 6, 9, 3]]
    assert table["store"] == full_stores(s1=[], s2=[], s3=[], s5=[])
    r = rob(g, [4, 0, 0, 7], store=full_stores(), chips=[0, 0, 0, 0])
    assert r["chips"] == [1, 0, 0, 0]
    assert r["store"] == full_stores(s4=[2, 3])


def test_0_and_6_or_more_tricks_rob_nothing() -> None:
    g = arsene(4)
    r = rob(g, [0, 0, 0, 11], store=late(), chips=[1, 2, 3, 4])
    assert r["chips"] == [1, 2, 3, 4]
    assert r["tokens"] == [0, 0, 0, 0]  # batting is at a store (1..5): no token at 0
    assert r["store"] == late()
    r = rob(g, [0, 0, 5, 6], store=full_stores(), chips=[0, 0, 0, 0])
    assert r["chips"] == [0, 0, 1, 0]
    assert r["tokens"] == [0, 0, 0, 0]


def test_batting_gives_tokens_not_chips() -> None:
    g = arsene(4)
    r = rob(g, [2, 2, 3, 4], store=full_stores(), chips=[0, 0, 0, 0], tokens=[0, 1, 0, 0])
    assert r["chips"] == [0, 0, 1, 1]
    assert r["tokens"] == [1, 2, 0, 0]
    assert r["supply"] == 5
    assert r["store"] == full_stores(s3=[3, 5], s4=[2, 3])  # store 2 keeps its chips
    # Three at one store.
    r = rob(g, [3, 3, 3, 2], store=full_stores(), chips=[0, 0, 0, 0])
    assert r["tokens"] == [1, 1, 1, 0] and r["chips"] == [0, 0, 0, 1]
    assert r["store"] == full_stores(s2=[2, 3])


def test_no_third_token_and_none_after_an_escape() -> None:
    g = arsene(4)
    r = rob(g, [2, 2, 3, 4], store=full_stores(), chips=[0, 0, 0, 0], tokens=[2, 0, 0, 0],
            exempt=[False, True, False, False])
    assert r["tokens"] == [2, 0, 0, 0]
    assert r["supply"] == 6


def test_caught_at_an_empty_store_loses_all_chips() -> None:
    g = arsene(4)
    r = rob(g, [1, 2, 3, 5], store=late(s1=[]), chips=[5, 0, 0, 0], tokens=[1, 0, 0, 0])
    assert r["caught"] == [True, False, False, False]
    assert r["lost"] == [True, False, False, False]
    assert r["chips"] == [0, 3, 5, 1]  # the others rob as usual
    assert r["confiscated"] == (27 - 12 - 5) + 5
    assert r["tokens"] == [1, 0, 0, 0]  # a caught player keeps a single token
    # Confiscated even with 0 chips.
    r = rob(g, [1, 2, 3, 5], store=late(s1=[]), chips=[0, 0, 0, 0])
    assert r["lost"] == [True, False, False, False]


def test_caught_with_two_tokens_escapes_once() -> None:
    g = arsene(4)
    r = rob(g, [1, 2, 3, 5], store=late(s1=[]), chips=[5, 0, 0, 0], tokens=[2, 1, 0, 0])
    assert r["caught"][0] and not r["lost"][0]
    assert r["chips"] == [5, 3, 5, 1]
    assert r["tokens"] == [0, 1, 0, 0]
    assert r["supply"] == 7
    assert r["exempt"] == [True, False, False, False]
    # Escaped once: never takes a token again, so can never escape again.
    r2 = rob(g, [4, 4, 0, 3], store=full_stores(s1=[], s2=[], s5=[]), chips=[0, 0, 0, 0],
             tokens=r["tokens"], exempt=r["exempt"])
    assert r2["tokens"] == [0, 2, 0, 0]


def test_batting_at_an_empty_store_is_caught_not_tokens() -> None:
    g = arsene(4)
    r = rob(g, [1, 1, 4, 5], store=late(s1=[]), chips=[3, 4, 0, 0], tokens=[0, 1, 0, 0])
    assert r["caught"] == [True, True, False, False]
    assert r["tokens"] == [0, 1, 0, 0]  # catching replaces batting: no tokens
    assert r["chips"] == [0, 0, 3, 1]


def test_police_is_judged_before_robbing() -> None:
    g = arsene(4)
    # p1 takes the last group of store 3; the store empties, but p1 is not caught.
    r = rob(g, [3, 2, 1, 5], store=full_stores(s3=[5]), chips=[0, 0, 0, 0])
    assert r["caught"] == [False] * 4
    assert r["chips"] == [5, 1, 1, 1]
    assert r["store"][2] == ()
    assert r["store_has_emptied"] is True


def test_every_player_caught_deal_does_not_count() -> None:
    g = arsene(4)
    stores = full_stores(s1=[], s2=[], s3=[], s5=[])
    r = rob(g, [1, 2, 3, 5], store=stores, chips=[5, 4, 3, 2], tokens=[1, 1, 0, 0])
    assert r["lost"] == [False] * 4
    assert r["chips"] == [5, 4, 3, 2]
    assert r["tokens"] == [1, 1, 0, 0]
    assert r["store"] == stores
    # One of them holds 2 tokens: they escape; the deal counts and the others lose.
    r = rob(g, [1, 2, 3, 5], store=stores, chips=[5, 4, 3, 2], tokens=[2, 1, 0, 0])
    assert r["lost"] == [False, True, True, True]
    assert r["chips"] == [5, 0, 0, 0]
    assert r["exempt"][0] is True


def test_contest_exchange_two_way_swap() -> None:
    g = arsene(4, advanced=True)
    r = rob(g, [2, 2, 3, 4], store=late(), chips=[5, 7, 0, 0], contest=True)
    assert r["chips"] == [7, 5, 5, 3]
    assert r["tokens"] == [0, 0, 0, 0]  # no tokens in contest mode
    assert r["supply"] == 8
    r = rob(g, [4, 3, 0, 4], store=late(), chips=[1, 2, 3, 7], contest=True)
    assert r["chips"] == [7, 7, 3, 1]  # p1 and p4 swap (batting at 4); p2 robs store 3


def test_contest_exchange_three_way_rotation() -> None:
    g = arsene(4, advanced=True)
    # p1, p2, p4 bat at 3: each passes their holding to the next of them clockwise.
    r = rob(g, [3, 3, 2, 3], store=late(), chips=[1, 2, 7, 4], contest=True)
    assert r["chips"] == [4, 1, 10, 2]
    r = rob(g, [3, 2, 3, 3], store=late(), chips=[1, 7, 2, 4], contest=True)
    assert r["chips"] == [4, 10, 1, 2]


def test_contest_exchange_at_0_tricks() -> None:
    g = arsene(4, advanced=True)
    r = rob(g, [0, 0, 0, 11], store=late(), chips=[1, 2, 3, 4], contest=True)
    assert r["chips"] == [3, 1, 2, 4]
    r = rob(g, [0, 0, 5, 6], store=late(), chips=[4, 9, 0, 0], contest=True)
    assert r["chips"] == [9, 4, 1, 0]
    # Without contest mode nothing happens at 0.
    r = rob(g, [0, 0, 5, 6], store=late(), chips=[4, 9, 0, 0], contest=False)
    assert r["chips"] == [4, 9, 1, 0]


def test_contest_caught_players_exchange_nothing() -> None:
    g = arsene(4, advanced=True)
    r = rob(g, [2, 2, 3, 4], store=late(s2=[]), chips=[5, 6, 0, 0], contest=True)
    assert r["lost"] == [True, True, False, False]
    assert r["chips"] == [0, 0, 5, 3]
    # Exchange first, then the caught lose: p1 and p2 swap, p4 is caught.
    r = rob(g, [1, 1, 4, 5], store=late(s5=[]), chips=[2, 6, 0, 3], contest=True)
    assert r["chips"] == [6, 2, 3, 0]
    assert r["lost"] == [False, False, False, True]


# ---------------------------------------------------------------------- the dummy (unit)
def test_dummy_never_takes_chips_or_tokens() -> None:
    g = arsene(3)
    r = rob(g, [0, 4, 2], dummy=5, store=full_stores(), chips=[0, 0, 0])
    assert r["chips"] == [0, 1, 1]
    assert r["store"] == full_stores(s2=[2, 3], s4=[2, 3])  # store 5 untouched
    assert r["supply"] == 8


def test_batting_with_the_dummy_gives_a_token() -> None:
    g = arsene(3)
    r = rob(g, [3, 4, 2], dummy=2, store=full_stores(), chips=[0, 0, 0])
    assert r["chips"] == [1, 1, 0]
    assert r["tokens"] == [0, 0, 1]
    assert r["supply"] == 7
    assert r["store"] == full_stores(s3=[3, 5], s4=[2, 3])


def test_dummy_alone_at_an_empty_store_is_not_caught() -> None:
    g = arsene(3)
    r = rob(g, [2, 3, 5], dummy=1, store=full_stores(s1=[]), chips=[0, 0, 0])
    assert r["caught"] == [False] * 3 and r["lost"] == [False] * 3
    assert r["chips"] == [1, 1, 1]


def test_contest_no_exchange_with_the_dummy() -> None:
    g = arsene(3, advanced=True)
    r = rob(g, [2, 4, 3], dummy=2, store=late(), chips=[5, 0, 0], contest=True)
    assert r["chips"] == [5, 3, 5]  # p1 bats with the dummy: nothing, not even a token
    assert r["tokens"] == [0, 0, 0]
    r = rob(g, [3, 3, 2], dummy=3, store=late(), chips=[5, 1, 0], contest=True)
    assert r["chips"] == [1, 5, 3]  # the two players swap; the dummy is not involved
    r = rob(g, [0, 0, 9], dummy=2, store=late(), chips=[5, 1, 0], contest=True)
    assert r["chips"] == [1, 5, 0]


def test_3p_special_case_means_all_three_players() -> None:
    g = arsene(3)
    stores = full_stores(s2=[], s4=[], s5=[])
    r = rob(g, [2, 4, 5], dummy=0, store=stores, chips=[3, 2, 1])
    assert r["lost"] == [False] * 3 and r["chips"] == [3, 2, 1]
    r = rob(g, [2, 4, 3], dummy=2, store=stores, chips=[3, 2, 1])
    assert r["lost"] == [True, True, False]
    assert r["chips"] == [0, 0, 2]


# ====================================================================== robbing in play
def deal_events(g: Game, st: State, final: Sequence[int], **kw: Any) -> tuple[State, list[str]]:
    events: list[str] = []
    after = finish_deal(g, st, final, events=events, **kw)
    return after, events


def test_a_whole_deal_robs_and_passes_the_deal(gb: Game) -> None:
    g = gb
    n = g.players
    st = g.new_state(8)
    dealer = getv(g, st, "dealer")
    final = [1, 2, 3, 5] if n == 4 else [2, 3, 5]
    after, events = deal_events(g, st, final, dummy=1)
    assert not g.is_terminal(after)
    assert g.phase(after) == "Trump"
    assert getv(g, after, "deals") == 2
    assert getv(g, after, "dealer") == left(dealer, n)
    want = [1, 1, 1, 1] if n == 4 else [1, 1, 1]
    assert getv(g, after, "chips") == want
    assert getv(g, after, "tricks") == [0] * n
    assert any("robs store" in e for e in events)
    assert g.check_invariants(after) == []


def test_someone_caught_ends_the_game_after_robbing(gb: Game) -> None:
    g = gb
    n = g.players
    final = [1, 2, 3, 5] if n == 4 else [1, 5, 4]
    after = finish_deal(g, g.new_state(3), final, dummy=1, store=late(s1=[]),
                        chips=[6] + [0] * (n - 1))
    assert g.is_terminal(after)
    assert getv(g, after, "lost") == [True] + [False] * (n - 1)
    chips = getv(g, after, "chips")
    assert chips[0] == 0 and all(c >= 1 for c in chips[1:])  # the others still robbed
    assert g.results(after)[0] == "loss"


def test_every_player_caught_deal_does_not_count_in_play(gb: Game) -> None:
    g = gb
    n = g.players
    st = g.new_state(12)
    dealer = getv(g, st, "dealer")
    if n == 4:
        final, stores = [1, 2, 3, 5], full_stores(s1=[], s2=[], s3=[], s5=[])
    else:
        final, stores = [1, 2, 5], full_stores(s1=[], s2=[], s5=[])
    chips = [4, 3, 2, 1][:n]
    after = finish_deal(g, st, final, dummy=3, store=stores, chips=chips,
                        tokens=[1] + [0] * (n - 1))
    assert not g.is_terminal(after)
    assert g.phase(after) == "Trump"
    assert getv(g, after, "chips") == chips
    assert getv(g, after, "tokens") == [1] + [0] * (n - 1)
    assert [tuple(t) for t in getv(g, after, "store")] == stores
    assert getv(g, after, "dealer") == left(dealer, n)  # the deal passes as usual


def test_every_store_empty_ends_the_game(g: Game) -> None:
    n = g.players
    stores = full_stores(s1=[], s2=[], s3=[], s4=[], s5=[3])
    final = [5, 0, 0, 6] if n == 4 else [5, 0, 0]  # 3 players: the dummy has 6
    chips = [1, 9, 2, 4][:n]
    after = finish_deal(g, g.new_state(6), final, dummy=6, store=stores, chips=chips,
                        contest=False, store_has_emptied=True)
    assert g.is_terminal(after)
    assert getv(g, after, "lost") == [False] * n
    assert getv(g, after, "chips") == [4, 9, 2, 4][:n]
    assert g.results(after)[1] == "win"


def test_every_store_empty_in_contest_exchanges_first() -> None:
    g = arsene(4, advanced=True)
    stores = full_stores(s1=[], s2=[], s3=[], s4=[], s5=[3])
    st = g.new_state(6)
    after = finish_deal(g, st, [5, 0, 0, 6], store=stores, chips=[1, 9, 2, 4], contest=True,
                        store_has_emptied=True)
    assert g.is_terminal(after)
    assert getv(g, after, "chips") == [4, 2, 9, 4]  # p2 and p3 bat at 0: swap, then end
    assert g.results(after) == ["loss", "loss", "win", "loss"]


def test_dummy_alone_at_an_empty_store_ends_nothing_in_play() -> None:
    g = arsene(3)
    after = finish_deal(g, g.new_state(2), [2, 3, 5], dummy=1, store=full_stores(s1=[]),
                        store_has_emptied=True)
    assert not g.is_terminal(after)
    assert getv(g, after, "chips") == [1, 1, 1]


@pytest.mark.parametrize("advanced", [False, True])
def test_contest_mode_from_the_deal_after_a_store_first_empties(advanced: bool) -> None:
    g = arsene(4, advanced=advanced)
    st = g.new_state(14)
    assert getv(g, st, "contest") is False
    # Deal 1: p1 robs the last chip of store 1; p2 and p3 bat (tokens: not contest yet).
    st = finish_deal(g, st, [1, 2, 2, 6], store=full_stores(s1=[1]), chips=[0, 0, 0, 0])
    assert not g.is_terminal(st)
    assert getv(g, st, "chips") == [1, 0, 0, 0]
    assert getv(g, st, "tokens") == [0, 1, 1, 0]
    assert getv(g, st, "store_has_emptied") is True
    assert getv(g, st, "contest") is advanced
    # Deal 2: p1 and p2 bat at store 3.
    st = finish_deal(g, st, [3, 3, 0, 5], store=late(s1=[]), chips=[4, 7, 2, 0])
    assert not g.is_terminal(st)
    if advanced:
        assert getv(g, st, "chips") == [7, 4, 2, 1]
        assert getv(g, st, "tokens") == [0, 1, 1, 0]  # no tokens in contest mode
    else:
        assert getv(g, st, "chips") == [4, 7, 2, 1]
        assert getv(g, st, "tokens") == [1, 2, 1, 0]


def test_contest_mode_does_not_start_before_a_store_empties() -> None:
    g = arsene(4, advanced=True)
    st = g.new_state(15)
    st = finish_deal(g, st, [2, 2, 1, 6], chips=[0, 0, 0, 0])
    assert getv(g, st, "contest") is False
    assert getv(g, st, "tokens") == [1, 1, 0, 0]


def test_deal_limit_ends_a_game_that_the_rules_would_not_end() -> None:
    # 0, 0, 0 and 11 tricks: nobody robs, nobody is caught; the declared bound ends it.
    g = arsene(4, max_deals=3)
    st = g.new_state(1)
    events: list[str] = []
    for deal in range(1, 4):
        assert not g.is_terminal(st)
        st = finish_deal(g, st, [0, 0, 0, 11], winner=4, events=events, store=late(),
                         chips=[2, 1, 0, 0])
        assert getv(g, st, "deals") == min(deal + 1, 3)  # the deal after it has begun
    assert g.is_terminal(st)
    assert "deal limit" in (g.end_reason(st) or "")  # the reason the game gives
    assert g.results(st) == ["win", "loss", "loss", "loss"]


# ====================================================================== model check of robbing
def reference_rob(n: int, v: dict[str, Any]) -> dict[str, Any]:
    """The rules file's order of resolution, written out independently."""
    tricks, dummy = v["tricks"], (v["dummy_tricks"] if n == 3 else None)
    store = [list(t) for t in v["store"]]
    chips, tokens = list(v["chips"]), list(v["tokens"])
    exempt, supply, confiscated = list(v["exempt"]), v["supply"], v["confiscated"]
    contest = v["contest"]
    names = [1 <= t <= 5 for t in tricks]
    caught = [names[p] and not store[tricks[p] - 1] for p in range(n)]
    lost = [False] * n
    if all(caught[p] and tokens[p] < 2 for p in range(n)):
        return {"store": [tuple(t) for t in store], "chips": chips, "tokens": tokens,
                "exempt": exempt, "supply": supply, "confiscated": confiscated, "lost": lost}
    for p in range(n):
        t = tricks[p]
        if caught[p] or not names[p]:
            continue
        bats = any(tricks[q] == t for q in range(n) if q != p) or dummy == t
        if not bats:
            chips[p] += store[t - 1].pop(0)
        elif not contest and not exempt[p] and tokens[p] < 2:
            tokens[p] += 1
            supply -= 1
    if contest:
        for t in range(0, 6):
            group = [p for p in range(n) if not caught[p] and tricks[p] == t]
            if len(group) >= 2:
                held = [chips[p] for p in group]
                for i in range(len(group)):
                    chips[group[(i + 1) % len(group)]] = held[i]
    for p in range(n):
        if caught[p]:
            if tokens[p] == 2:
                tokens[p] = 0
                supply += 2
                exempt[p] = True
            else:
                confiscated += chips[p]
                chips[p] = 0
                lost[p] = True
    return {"store": [tuple(t) for t in store], "chips": chips, "tokens": tokens,
            "exempt": exempt, "supply": supply, "confiscated": confiscated, "lost": lost}


def in_play_variant() -> str:
    """Arsène with its own flow, but the robbing made a move of the dealer's, then a second
    move to go on: the states just before and just after robbing can be looked at."""
    text = (bundled_dir() / "arsene.cardgame").read_text(encoding="utf-8")
    flow = text[text.index("\nflow {\n") + 1:]
    flow = flow[:flow.index("\n}\n") + 3]
    assert flow.count("      rob_stores()\n") == 1
    return ('extends "arsene"\n'
            'move rob "rob the stores" { rob_stores() }\n'
            'move go_on "go on" { }\n'
            + flow.replace("      rob_stores()\n",
                           "      dealer chooses rob\n      dealer chooses go_on\n"))


def test_robbing_matches_the_rules_over_random_games(g: Game) -> None:
    n = g.players
    keys = ("tricks", "dummy_tricks", "store", "chips", "tokens", "exempt", "supply",
            "confiscated", "contest", "deals")
    r = robbing_game(g, in_play_variant(), "rob-in-play")
    rng = random.Random(99)
    robbed = ends = 0
    for seed in range(60):
        st = r.new_state(seed)
        contest_now = getv(r, st, "contest")
        while not r.is_terminal(st):
            if r.legal_texts(st) != ["rob"]:
                contest_now = getv(r, st, "contest")
                st = r.apply(st, rng.choice(r.legal_moves(st)))
                continue
            before = {k: getv(r, st, k) for k in keys}
            before["store"] = [tuple(t) for t in before["store"]]
            # Facts at the end of every deal: all tricks played, hands and trick empty.
            assert sum(before["tricks"]) + before["dummy_tricks"] == 11
            assert all(not r.zone_cards(st, f"hand-p{p}") for p in range(1, n + 1))
            assert not r.zone_cards(st, "trick")
            if n == 3:
                assert before["dummy_tricks"] >= 1
            else:
                assert before["dummy_tricks"] == 0
            assert before["contest"] == contest_now
            st = r.apply_text(st, "rob")
            robbed += 1
            assert r.legal_texts(st) == ["go_on"]
            after = {k: getv(r, st, k) for k in (*keys, "lost")}
            after["store"] = [tuple(t) for t in after["store"]]
            want = reference_rob(n, before)
            for k in ("store", "chips", "tokens", "exempt", "supply", "confiscated", "lost"):
                assert after[k] == want[k], (k, before, after, want)
            st = r.apply_text(st, "go_on")
            stores_empty = all(not t for t in want["store"])
            should_end = (any(want["lost"]) or stores_empty
                          or before["deals"] >= r.options["max_deals"])
            assert r.is_terminal(st) == should_end
            if not should_end:
                emptied = any(not t for t in want["store"])
                assert getv(r, st, "contest") == (bool(r.options["advanced"])
                                                  and (emptied or before["contest"]))
        ends += 1
        assert r.check_invariants(st) == []
    assert ends == 60
    assert robbed >= 60


# ====================================================================== termination
@pytest.mark.parametrize(("n", "advanced"), RULE_SETS)
def test_random_games_end(n: int, advanced: bool) -> None:
    g = arsene(n, advanced)
    longest = 0
    for seed in range(200):
        s, moves = g.random_playout(seed, random.Random(seed))
        final = g.final_state(s)
        assert g.is_terminal(final)
        assert g.check_invariants(final) == []
        deals = getv(g, final, "deals")
        assert 1 <= deals <= g.options["max_deals"]
        longest = max(longest, deals)
    # Random play ends in a few deals, far from the declared bound.
    assert longest < g.options["max_deals"]
