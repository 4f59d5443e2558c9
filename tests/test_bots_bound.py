"""benchmarks/interaction_bound.py, the omniscient CHEAT that measures a bound (not a
bot): its simulation of the greedy replies is the match's own game, and it is never
reachable as a bot (the figures are not checked: a benchmark, not a timed test)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))


def test_the_lines_found_play_the_same_in_the_match_loop() -> None:
    import interaction_bound as ib
    from cardgame.interpreter.engine import compile_game

    game = compile_game("interaction", players=4)
    for deal, seat in ((1, 1), (2, 2), (7, 3)):
        v, line, tried, exact = ib.search(game, deal, seat, 3000)
        assert line and tried > 0
        assert ib.replay(game, deal, seat, line) == v
        # the simulated replies reach the very state the match loop reaches
        rep = ib.Replies(game, deal, seat)
        s = rep.run(game.new_state(deal))
        for m in line:
            s, _ = rep.after(s, rep.snap(), m)
        assert game.is_terminal(s) and ib.share(game, s, seat) == v


def test_the_bound_never_cuts_what_greedy_play_then_reached() -> None:
    """Sound: in games of greedy seats, wherever the bound says a seat can take at most a
    share x from a position, the seat's final share is at most x; and it does cut."""
    import interaction_bound as ib
    from cardgame.interpreter.bots import make_bot
    from cardgame.interpreter.engine import compile_game

    game = compile_game("interaction", players=4)
    b = ib.Bound(game)
    assert b.best(game.new_state(3), 1) == 1.0  # before the first turn: nothing is cut
    cuts = 0
    for deal in range(1, 31):
        bots = [make_bot("greedy", deal * 31 + i) for i in range(4)]
        s = game.new_state(deal)
        seen = []
        while not game.is_terminal(s):
            p = game.to_move(s)[0]
            seen.append((p, b.best(s, p)))
            s = game.apply(s, bots[p - 1].choose(game, s, p))
        for p, x in seen:
            assert ib.share(game, s, p) <= x
            cuts += x < 1.0
    assert cuts > 0


def test_the_cheat_is_not_a_bot() -> None:
    import interaction_bound as ib
    from cardgame.interpreter.bots import BOTS

    for name in (ib.CHEAT, ib.Scripted.name, ib.Replanner.name, ib.TruthLead.name,
                 ib.JokerLead.name):
        assert name not in BOTS


def test_the_hands_and_stock_cheats_know_what_they_say_and_no_more() -> None:
    """`--mode hands`: the others' hands true, the stock dealt again; `--mode stock`: the
    stock in its true order, the others' hands dealt again; either way the seat's view
    is the real one and the cards are the real cards."""
    import random

    import interaction_bound as ib
    from cardgame.interpreter.bots import make_bot
    from cardgame.interpreter.engine import compile_game
    from cardgame.interpreter.observe import view

    game = compile_game("interaction", players=4)
    bots = [make_bot("greedy", 40 + i) for i in range(4)]
    s = game.new_state(3)
    for _ in range(12):
        p = game.to_move(s)[0]
        s = game.apply(s, bots[p - 1].choose(game, s, p))
    seat = game.to_move(s)[0]
    true = game.zone_contents(s)
    others = [f"hand-p{p}" for p in range(1, 5) if p != seat]
    cards = sorted(c for ids in true.values() for c in ids)
    hands_moved = stock_moved = 0
    for k in range(6):
        for cls in (ib.HandsLead, ib.StockLead):
            bot = cls(k)
            bot.rng = random.Random(k)
            w = bot.world(game, s, seat)
            c = game.zone_contents(w)
            assert view(game, w, seat) == view(game, s, seat)
            assert sorted(x for ids in c.values() for x in ids) == cards
            if cls is ib.HandsLead:
                assert all(c[h] == true[h] for h in others)
                stock_moved += c["stock"] != true["stock"]
            else:
                assert c["stock"] == true["stock"]
                hands_moved += any(c[h] != true[h] for h in others)
    assert hands_moved >= 5 and stock_moved >= 5
