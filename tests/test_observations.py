"""Observations: the events of each step, what each seat sees of them, its history.

- The invariant: two states with the same observation history for a seat give that seat
  the same view and the same legal moves. Checked over random playthroughs of every
  bundled rule set, against worlds the seat cannot tell apart at the start (its hidden
  cards dealt again), played on with moves that look the same to it.
- Arsène: every card played to a trick is seen by every seat, though the last one is
  gathered face down in the same step (`cardgame play` used to write it as a card back).
- Log lines name only the cards a seat may see.
- Nobody observing costs nothing: the generated code records only while a call observes.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cardgame.interpreter.engine import Event, Game, State, compile_game, replay
from cardgame.interpreter.engine import events as E
from cardgame.interpreter.observe import (
    BACK,
    CHOSEN,
    History,
    describe,
    determinize,
    histories,
    history,
    observe_step,
    replay_histories,
    view,
)

ROOT = Path(__file__).resolve().parent.parent


def bundled() -> list[tuple[str, int, dict[str, str]]]:
    """Each bundled game with each player count and each value of its bool and choice options."""
    out = []
    for path in sorted((ROOT / "games").glob("*.cardgame")):
        g = compile_game(path.stem)
        lo, hi = g.checked.player_range
        choices = [[(name, str(v).lower()) for v in ((True, False) if d.kind == "bool" else d.choices)]
                   for name, d in g.checked.option_decls.items() if d.kind in ("bool", "choice")]
        for n in range(lo, hi + 1):
            for combo in itertools.product(*choices):
                out.append((path.stem, n, dict(combo)))
    return out


CONFIGS = bundled()


def config_id(c: tuple[str, int, dict[str, str]]) -> str:
    return f"{c[0]}-{c[1]}p" + "".join(f"-{k}={v}" for k, v in sorted(c[2].items()))


def seen_by(g: Game, st: State, seat: int) -> tuple[Any, ...]:
    v = view(g, st, seat)
    return v, [g.move_text(m) for m in g.legal_moves(st, seat)]


def twin_step(g: Game, alt: State, move: tuple[Any, ...], seat: int,
              want: tuple[Any, ...]) -> tuple[State, tuple[Event, ...]] | None:
    """A move in the other world that `seat` sees as `want` (the real step's
    observations): the same move if it is legal there, else another of the same player's."""
    legal = g.legal_moves(alt)
    cands = [move] if move in legal else []
    cands += [m for m in legal if m[0] == move[0] and m != move][:40]
    for m in cands:
        after, events = g.apply_observed(alt, m)
        if observe_step(g, events, seat) == want:
            return after, events
    return None


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_same_history_same_view_and_moves(config: tuple[str, int, dict[str, str]]) -> None:
    """Group the states of real and look-alike worlds by (seat, history): each group gives
    its seat one view and one list of legal moves."""
    name, n, settings = config
    g = compile_game(name, n, settings)
    rng = random.Random(f"obs:{config_id(config)}")
    groups: dict[tuple[int, History], tuple[Any, ...]] = {}
    differ = compared = 0
    for seed in itertools.count():  # solitaires tell the worlds apart at the first card drawn
        if compared >= 60:
            break
        start, events = g.start_observed(seed)
        for seat in range(1, g.players + 1):
            for _ in range(2):
                real, alt = start, determinize(g, start, seat, rng)
                hist: History = observe_step(g, events, seat)
                for _step in range(60):
                    key = (seat, hist)
                    for st in (real, alt):
                        got = seen_by(g, st, seat)
                        assert groups.setdefault(key, got) == got, (seat, len(hist))
                    compared += 1
                    differ += real != alt
                    if g.is_terminal(real) or g.is_terminal(alt):
                        break
                    move = rng.choice(g.legal_moves(real))
                    real, ev = g.apply_observed(real, move)
                    mine = observe_step(g, ev, seat)
                    twin = twin_step(g, alt, move, seat, mine)
                    if twin is None:
                        break  # the seat can tell the worlds apart from here
                    alt = twin[0]
                    hist += mine
    assert differ > compared // 4  # the look-alike worlds really differed


def test_an_event_left_out_breaks_the_invariant(monkeypatch: pytest.MonkeyPatch) -> None:
    """The invariant test can fail: with the cards dealt left out of the events, two
    worlds with other hands look alike to a seat, and their views differ."""
    from cardgame.interpreter.engine.events import Recorder

    monkeypatch.setattr(Recorder, "deal", lambda *a: None)
    with pytest.raises(AssertionError):
        test_same_history_same_view_and_moves(("arsene", 4, {"advanced": "false"}))


# ------------------------------------------------------------------ Arsène's tricks
def arsene_steps(seed: int, players: int = 4) -> list[tuple[State, tuple[Event, ...]]]:
    g = compile_game("arsene", players, {"advanced": "false"})
    rng = random.Random(seed)
    st, ev = g.start_observed(seed)
    out = [(st, ev)]
    while not g.is_terminal(st) and len(out) < 400:
        st, ev = g.apply_observed(st, rng.choice(g.legal_moves(st)))
        out.append((st, ev))
    return out


@pytest.mark.parametrize("seed", [21, 3, 8, 1234])
def test_every_card_played_to_a_trick_is_seen_by_every_seat(seed: int) -> None:
    g = compile_game("arsene", 4, {"advanced": "false"})
    played = gathered = 0
    for _, events in arsene_steps(seed):
        to_trick = [g.card_text[e.card] for e in events if e.kind == E.MOVE and e.dst == "trick"]
        left = [g.card_text[e.card] for e in events if e.kind == E.MOVE and e.src == "trick"]
        played += len(to_trick)
        gathered += bool(to_trick and left)
        for seat in range(1, 5):
            obs = observe_step(g, events, seat)
            seen = [o.card for o in obs if o.kind == E.MOVE and o.dst == "trick"]
            assert seen == to_trick
            assert [o.card for o in obs if o.kind == E.MOVE and o.src == "trick"] == left
            for o in obs:
                if o.kind == E.CHOICE and o.move.startswith("play"):
                    assert BACK not in o.move and BACK not in describe(g, o, seat), o
    assert played > 40
    assert gathered > 5  # the last card of a trick, gathered in its own step


def test_cards_in_hands_stay_hidden_from_other_seats() -> None:
    g = compile_game("arsene", 4, {"advanced": "false"})
    _, events = arsene_steps(5)[0]
    for seat in range(1, 5):
        obs = observe_step(g, events, seat)
        to_hands = [o for o in obs if o.kind == E.MOVE and o.dst.startswith("hand-")]
        assert to_hands
        for o in to_hands:
            mine = o.dst == f"hand-p{seat}"
            assert (o.card != BACK) == mine
            assert (o.dst_index is not None) == mine
    spectator = observe_step(g, events, None)
    assert all(o.card == BACK for o in spectator if o.kind == E.MOVE and o.dst.startswith("hand-"))


def test_piped_play_never_writes_a_played_card_face_down() -> None:
    """`cardgame play arsene --players 4 --seed 21` with `1` typed a few hundred times:
    no line about a move (`p2 (greedy bot): play ...`) writes a card back."""
    out = subprocess.run([sys.executable, "-m", "cardgame.interpreter.cli", "play", "arsene",
                          "--players", "4", "--seed", "21"], input="1\n" * 300,
                         capture_output=True, text=True, timeout=300, encoding="utf-8")
    plays = [ln for ln in out.stdout.splitlines() if ": play " in ln]
    assert len(plays) > 100
    assert not [ln for ln in plays if BACK in ln]
    assert not [ln for ln in out.stdout.splitlines() if ln.startswith("  ") and BACK in ln
                and not ln.lstrip().startswith(("hand", "widow", "tricks"))]


# ------------------------------------------------------------------ log lines
LOGGING = """
game "Tell"
players 2
deck standard
zone pile: face down
zone hand[player]: owner, fanned
zone table: face up, fanned

setup {
  shuffle deck
  deal 3 from deck to hand
  move all of deck to pile
}

move show(c in hand[me]) "show {c}" {
  move c to table
  log "{me} shows {c}; the pile's top is {top of pile}; {me} still holds {all of hand[me]}"
}

flow {
  repeat {
    for p in players {
      p chooses show
    }
  }
}

end when hand is empty "no cards left"
score = 0
result highest score
"""


def test_log_lines_mask_the_cards_a_seat_cannot_see(tmp_path: Path) -> None:
    path = tmp_path / "peek.cardgame"
    path.write_text(LOGGING, encoding="utf-8")
    g = compile_game(str(path))
    st, _ = g.start_observed(4)
    move = g.legal_moves(st, 1)[0]
    shown = g.card_text[move[2]]
    st, events = g.apply_observed(st, move)
    full = [g.log_text(e) for e in events if e.kind == E.LOG]
    assert BACK not in full[0] and shown in full[0]
    mine = [o.text for o in observe_step(g, events, 1) if o.kind == E.LOG]
    theirs = [o.text for o in observe_step(g, events, 2) if o.kind == E.LOG]
    top = g.zone_cards(st, "pile")[-1]
    held = g.zone_cards(st, "hand-p1")
    assert mine == [f"p1 shows {shown}; the pile's top is {BACK}; p1 still holds {', '.join(held)}"]
    assert theirs == [f"p1 shows {shown}; the pile's top is {BACK}; p1 still holds "
                      f"{', '.join([BACK] * len(held))}"]
    assert top not in mine[0]
    # the omniscient wrappers the older callers use are unchanged
    assert g.apply_with_events(g.new_state(4), move)[1] == full


def test_simultaneous_choices_are_secret_until_revealed() -> None:
    g = compile_game("interaction", 3)
    st, _ = g.start_observed(2)
    while not g.pending(st) and g.to_move(st) and len(g.to_move(st)) < 2:
        st = g.apply(st, g.legal_moves(st)[0])
    if len(g.to_move(st)) < 2:
        pytest.skip("no simultaneous choice at the start of this deal")
    first = g.to_move(st)[0]
    st, events = g.apply_observed(st, g.legal_moves(st, first)[0])
    other = next(p for p in range(1, 4) if p != first)
    [choice] = [o for o in observe_step(g, events, other) if o.kind == E.CHOICE]
    assert choice.move == CHOSEN
    assert describe(g, choice, other) == f"p{first}: chose, in secret"
    [own] = [o for o in observe_step(g, events, first) if o.kind == E.CHOICE]
    assert own.move != CHOSEN
    while g.pending(st):
        p = g.to_move(st)[0]
        st, events = g.apply_observed(st, g.legal_moves(st, p)[0])
    reveals = [o for o in observe_step(g, events, other) if o.kind == E.REVEAL]
    assert first in {o.actor for o in reveals}


# ------------------------------------------------------------------ the API around it
def test_histories_replay_and_are_saved_in_replays() -> None:
    g = compile_game("arsene", 4, {"advanced": "false"})
    rng = random.Random(9)
    st = g.new_state(9)
    moves = []
    for _ in range(30):
        m = rng.choice(g.legal_moves(st))
        moves.append(m)
        st = g.apply(st, m)
    h = histories(g, 9, moves)
    assert h[2] == history(g, 9, moves, 2)
    assert h[1] != h[2]  # each sees its own hand
    assert h[1][-1].kind == E.PUBLIC and h[1][-1].to_move == g.to_move(st)
    rep = replay.from_game(g, "arsene", 9, moves)
    rep.observations = replay_histories(g, rep)
    assert rep.observations[3] == [o.to_data() for o in h[3]]
    text = rep.to_json()
    assert '"observations"' in text
    assert replay.parse(text).moves == rep.moves
    saved = {int(k): v for k, v in json.loads(text)["observations"].items()}
    assert replay.parse(text).observations == saved  # read back as saved
    with pytest.raises(replay.ReplayError, match="'observations' must"):
        replay.parse(text.replace('"observations": {', '"observations": {"x": 1, ', 1))
    assert '"observations"' not in replay.from_game(g, "arsene", 9, moves).to_json()


def test_unobserved_calls_record_nothing() -> None:
    """The recorder is set only while an observed call runs; states are the same either way."""
    g = compile_game("arsene", 4, {"advanced": "false"})
    st = g.new_state(3)
    a, events = g.apply_observed(st, g.legal_moves(st)[0])
    assert a == g.apply(st, g.legal_moves(st)[0])
    assert g.apply_observed(st, g.legal_moves(st)[0])[1] == events
    assert events[0].kind == E.CHOICE and events[-1].kind == E.PUBLIC
    s, n = g.random_playout(3, random.Random(1), 50)
    assert n == 50


# ------------------------------------------------------------------ the fuzzer's leak check
MASKED_LOG = """
extends "duel"

game "Duel (a raise names the stock's top card, which every seat sees masked)"

move raise "put a chip in the pot"
  when chips[me] > 0 and (any c in hand[me]: c.rank >= 10)
{
  chips[me] -= 1
  pot += 1
  log "{me} raises; the stock's top card is {top of stock}; {me} holds {all of hand[me]}"
}
"""


def fuzz_ok(path: Path) -> Any:
    from cardgame.interpreter import fuzz

    return fuzz.fuzz(path, seed=0, examples=40, database=None, shrink_seconds=2,
                     write_replay=False)


def test_leak_check_passes_a_log_line_that_masks_hidden_cards(tmp_path: Path) -> None:
    (tmp_path / "duel.cardgame").write_text(
        (ROOT / "tests" / "mutants" / "duel.cardgame").read_text(encoding="utf-8"),
        encoding="utf-8")
    path = tmp_path / "masked.cardgame"
    path.write_text(MASKED_LOG, encoding="utf-8")
    report = fuzz_ok(path)
    assert report.ok, report


def test_leak_check_catches_a_log_line_that_tells_a_hidden_rank(tmp_path: Path) -> None:
    from cardgame.interpreter import fuzz

    out = tmp_path / "cx.json"
    report = fuzz.fuzz(ROOT / "tests" / "mutants" / "duel-log-leak.cardgame", seed=0,
                       examples=40, database=None, shrink_seconds=2, out=out)
    assert report.failure is not None
    assert report.failure.property == "leak"
    assert "a log line reads" in report.failure.message
    # the counterexample keeps what the seat concerned had observed
    saved = json.loads(out.read_text(encoding="utf-8"))
    seat = report.failure.player
    assert seat is not None
    assert saved["observations"][str(seat)][-1]["kind"] == "public"


def test_the_repl_writes_log_lines_as_its_seat_sees_them(tmp_path: Path) -> None:
    """`cardgame play`: a bot's log line names its hidden hand only as card backs."""
    from cardgame.repl.session import Session

    path = tmp_path / "tell.cardgame"
    path.write_text(LOGGING, encoding="utf-8")
    g = compile_game(str(path))
    sess = Session(g, str(path), 4, seats=[2], auto=False)
    step = sess.step_once()
    assert step is not None and step.move[0] == 1
    held = g.zone_cards(sess.state, "hand-p1")
    shown = g.card_text[step.move[2]]
    [line] = [ln for ln in sess.event_lines() if "shows" in ln and "still holds" in ln]
    assert shown in line and f"still holds {', '.join([BACK] * len(held))}" in line
    assert not any(c in line for c in held)
    spectator = sess.event_lines(reveal_all=True)
    assert any(", ".join(held) in ln for ln in spectator)
