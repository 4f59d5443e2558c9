"""The inferred worlds of the search (`sampling.move_loglik`, `MctsBot.infer`): worlds
drawn from the seat's history, weighted by the likelihood of the other seats' past moves
under a Boltzmann model of the `greedy` bot, and picked by weight (sample-importance-
resample). The real game of greedy players is likelier under the model than worlds
re-dealt at random; the bot stays deterministic, legal and blind to the hidden cards."""

from __future__ import annotations

import random

from cardgame.interpreter.bots.ismcts import IsmctsLeadBot
from cardgame.interpreter.bots.sampling import Worlds, move_loglik
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.observe import Record, Sampler, World, view
from conftest import random_history
from test_bots_model import greedy_game, same_choice_with_other_hidden_cards


def test_the_real_game_of_greedy_players_is_likelier_than_re_dealt_worlds() -> None:
    game = compile_game("interaction", players=4)
    beaten = drawn = 0
    for deal in (1, 2, 3):
        s, hist = greedy_game(game, deal, 15)
        seat = game.to_move(s)[0]
        real = move_loglik(game, World((), tuple(hist), s), deal, seat, 0.5)
        sampler = Sampler(game, Record(deal, tuple(hist)), seat)
        rng = random.Random(deal)
        for _ in range(10):
            w = sampler.sample(rng)
            assert w is not None
            ll = move_loglik(game, w, deal, seat, 0.5)
            drawn += 1
            beaten += ll < real - 1e-9
    assert beaten >= drawn * 0.7  # most re-dealt worlds explain the greedy moves worse


def test_a_lower_temperature_judges_a_misfit_more_harshly() -> None:
    """A random player's moves are seldom greedy's: the colder the model, the less likely."""
    game = compile_game("interaction", players=4)
    s, hist = random_history(game, 9, random.Random(3), 14)
    w = World((), tuple(hist), s)
    seat = game.to_move(s)[0]
    cold, warm = (move_loglik(game, w, 9, seat, t) for t in (0.25, 2.0))
    assert cold < warm < 0


def test_the_worlds_are_drawn_by_weight_and_their_stock_dealt_again() -> None:
    game = compile_game("interaction", players=4)
    s, hist = greedy_game(game, 2, 15)
    seat = game.to_move(s)[0]
    w = Worlds(game, s, seat, random.Random(1), Record(2, tuple(hist)), infer=24,
               temperature=0.5)
    assert w.source == "history (inferred)" and len(w.pool) == 24
    assert len(w.cum) == 24 and 1.0 <= w.ess <= 24
    assert "stock" in w.loose and not any(z.startswith("hand") for z in w.loose)
    hands = {f"hand-p{p}" for p in range(1, 5) if p != seat}
    for _ in range(5):
        x = w()
        assert view(game, x, seat) == view(game, s, seat)
        c = game.zone_contents(x)
        # the others' hands are one of the weighted worlds' hands
        assert any(all(c[h] == game.zone_contents(p.state)[h] for h in hands) for p in w.pool)


class Inferred(IsmctsLeadBot):
    infer = 16
    temperature = 0.5


def test_inferred_the_same_history_with_other_hidden_cards_gives_the_same_choice() -> None:
    """No peeking with the inference on."""
    same_choice_with_other_hidden_cards(Inferred, 5, "history (inferred)")


def test_the_chain_stays_in_the_seats_history_and_moves() -> None:
    """`chain`: every step is a world of the seat's history (the same view), the chain
    starts at the likeliest world drawn, and it moves."""
    game = compile_game("interaction", players=4)
    s, hist = greedy_game(game, 3, 14)
    seat = game.to_move(s)[0]
    w = Worlds(game, s, seat, random.Random(2), Record(3, tuple(hist)), infer=8,
               temperature=0.5, chain=True)
    assert w.source == "history (inferred, chain)" and w.chain is not None
    assert w.chain_ll == max(move_loglik(game, x, 3, seat, 0.5) for x in w.pool)
    for _ in range(20):
        x = w()
        assert view(game, x, seat) == view(game, s, seat)
        assert w.chain is not None and view(game, w.chain.state, seat) == view(game, s, seat)
    assert w.moved >= 5


class Chained(IsmctsLeadBot):
    infer = 8
    temperature = 0.5
    chain = True
    refresh = False


def test_chained_the_same_history_with_other_hidden_cards_gives_the_same_choice() -> None:
    """No peeking with the chain on (and the stock kept as the chain's world has it)."""
    same_choice_with_other_hidden_cards(Chained, 6, "history (inferred, chain)")


def test_a_cut_rollout_scored_by_the_win_share_as_it_stands() -> None:
    """`share_cut`: a cut rollout is worth 1/k to each of k players tied first, 0 to the
    others (the lowest score first where it wins)."""
    from cardgame.interpreter.bots.mcts import first_shares

    assert first_shares([3, 5, 5, 1]) == [0.0, 0.5, 0.5, 0.0]
    assert first_shares([3, 5, 5, 1], lowest=True) == [0.0, 0.0, 0.0, 1.0]
    assert first_shares([2, 2, 2]) == [1 / 3] * 3
    game = compile_game("interaction", players=4)
    s, _ = greedy_game(game, 4, 9)
    assert not game.is_terminal(s)

    class Share(IsmctsLeadBot):
        share_cut = True

    assert Share(1).reward(game, s, False) == first_shares(game.scores(s))
    assert IsmctsLeadBot(1).reward(game, s, False) != first_shares(game.scores(s))
