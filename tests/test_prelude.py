"""Preludes: `use "tricks"` adds shared declarations written in the language, which a game
overrides by declaring the same kind and name, or drops with `remove`."""

from __future__ import annotations

from pathlib import Path

import pytest
from cardgame.interpreter.engine import compile_game
from cardgame.interpreter.errors import Diagnostic, Diagnostics
from cardgame.interpreter.examples import run_examples
from cardgame.interpreter.lang import load

TRICKS = '''game "Tiny tricks"
players 3
use "tricks"
deck standard
zone hand[player]: owner, fanned
zone trick: face up, row
zone taken[player]: face down, squared
var leader: player = 1
var tricks[player] = 0
setup {
  shuffle deck
  deal 3 from deck to hand[players]
}
move play(c in hand[me]) "play {c}" when follows_suit(c, me) "you must follow {led}" {
  move c to trick
}
flow {
  repeat 3 times {
    for p in players from leader { p chooses play }
    leader = winner_of_trick
    tricks[leader] += 1
    move all of trick to taken[leader]
  }
}
score = tricks[me]
result highest score
'''


def write(tmp_path: Path, text: str, name: str = "t") -> Path:
    p = tmp_path / f"{name}.cardgame"
    p.write_text(text, encoding="utf-8")
    return p


def errors_of(path: Path) -> list[Diagnostic]:
    with pytest.raises((Diagnostic, Diagnostics)) as ei:
        compile_game(path)
    e = ei.value
    return list(e.items) if isinstance(e, Diagnostics) else [e]


def test_a_game_uses_the_prelude_and_reads_only_the_named_files(tmp_path: Path) -> None:
    path = write(tmp_path, TRICKS)
    loaded = load(path)
    assert [Path(p).name for p in loaded.preludes] == ["tricks.cardgame"]
    assert len(loaded.sources) == 2  # the game and its prelude, nothing else
    names = {getattr(d, "name", "") for d in loaded.decls}
    assert {"led", "is_trump", "power", "strength", "follows_suit",
            "winner_of_trick"} <= names
    g = compile_game(path)
    st = g.new_state(3)
    n = 0
    while not g.is_terminal(st):
        st = g.apply(st, g.legal_moves(st)[0])
        n += 1
    assert n == 9 and sum(g.scores(st)) == 3


EXAMPLES = '''
example "follow suit; ace high; no trumps" {
  hand[p1] has 2♥ 5♠ K♣
  hand[p2] has A♥ 3♠ 4♦
  hand[p3] has 9♥ Q♠ 2♣
  p1 plays "play 2♥"
  expect p2 cannot play "play 3♠" because "you must follow hearts"
  p2 plays "play A♥"
  p3 plays "play 9♥"
  expect leader == p2
  p2 plays "play 4♦"
  p3 plays "play 2♣"
  expect p1 can play "play K♣"
  p1 plays "play 5♠"
  expect leader == p2
}
'''

OVERRIDDEN = '''
def power(c: card) = c.rank
def is_trump(c: card) = c.suit == clubs
example "the game's power (ace low) and trumps (clubs) replace the prelude's" {
  hand[p1] has 2♥ 5♠ K♣
  hand[p2] has A♥ 3♠ 4♦
  hand[p3] has 9♥ Q♠ 2♣
  p1 plays "play 2♥"
  p2 plays "play A♥"
  p3 plays "play 9♥"
  expect leader == p3
  p3 plays "play Q♠"
  p1 plays "play 5♠"
  p2 plays "play 3♠"
  expect leader == p3
  p3 plays "play 2♣"
  p1 plays "play K♣"
  p2 plays "play 4♦"
  expect leader == p1
}
'''


def outcomes(path: Path) -> list[tuple[str, list[str]]]:
    return [(o.name, o.failures) for o in run_examples(path)]


def test_follow_suit_and_ace_high_without_trumps(tmp_path: Path) -> None:
    [(_, failures)] = outcomes(write(tmp_path, TRICKS + EXAMPLES))
    assert failures == []


def test_the_examples_fail_when_the_rules_differ(tmp_path: Path) -> None:
    """The example above can fail: with the game's ace-low power it does."""
    [(_, failures)] = outcomes(write(tmp_path, TRICKS + EXAMPLES
                                     + "def power(c: card) = c.rank\n"))
    assert failures and "leader" in failures[0]


def test_a_game_overrides_a_prelude_def(tmp_path: Path) -> None:
    [(_, failures)] = outcomes(write(tmp_path, TRICKS + OVERRIDDEN))
    assert failures == []


def test_a_game_removes_a_prelude_def(tmp_path: Path) -> None:
    path = write(tmp_path, TRICKS + "remove def power\n")
    errs = errors_of(path)
    assert any("unknown function 'power'" in e.message or "'power'" in e.message
               for e in errs), [e.message for e in errs]


def test_a_variant_of_a_game_that_uses_a_prelude_keeps_the_games_overrides(
        tmp_path: Path) -> None:
    write(tmp_path, TRICKS + "def power(c: card) = c.rank\n", "base")
    variant = write(tmp_path, 'extends "base"\nuse "tricks"\ngame "Variant"\n', "variant")
    loaded = load(variant)
    [power] = [d for d in loaded.decls if getattr(d, "name", "") == "power"]
    assert power.span.file.endswith("base.cardgame")  # not the prelude's ace-high power
    compile_game(variant)


def test_unknown_prelude_suggests_the_bundled_ones(tmp_path: Path) -> None:
    [e] = errors_of(write(tmp_path, 'game "T"\nuse "trick"\ndeck standard\n'))
    assert e.message == "unknown prelude 'trick'" and "tricks" in e.hint
    assert (e.span.line, e.span.column) == (2, 5)


def test_a_name_the_prelude_reads_and_the_game_lacks_is_explained(tmp_path: Path) -> None:
    errs = errors_of(write(tmp_path, TRICKS.replace("var leader: player = 1\n", "")))
    prelude = [e for e in errs if e.span.file.endswith("prelude/tricks.cardgame")]
    assert prelude and prelude[0].message == "unknown name 'leader'"
    assert "reads 'leader': declare it in the game" in prelude[0].hint


def test_a_prelude_is_used_once_and_neither_extends_nor_uses(tmp_path: Path) -> None:
    [e] = errors_of(write(tmp_path, TRICKS.replace('use "tricks"\n', 'use "tricks"\nuse "tricks"\n')))
    assert "used twice" in e.message
    write(tmp_path, 'use "tricks"\ndef x = 1\n', "mine")
    [e] = errors_of(write(tmp_path, TRICKS.replace('use "tricks"', 'use "mine.cardgame"')))
    assert e.message == "a prelude uses nothing"


def test_a_prelude_path_must_be_a_game_file_in_the_games_folder(tmp_path: Path) -> None:
    [e] = errors_of(write(tmp_path, TRICKS.replace('use "tricks"', 'use "notes.txt"')))
    assert e.message == "'notes.txt' is not a game file"
    (tmp_path / "sub").mkdir()
    outside = tmp_path / "outside.cardgame"
    outside.write_text("def x = 1\n", encoding="utf-8")
    game = write(tmp_path / "sub", TRICKS.replace('use "tricks"', 'use "../outside.cardgame"'))
    [e] = errors_of(game)
    assert "outside the game's folder" in e.message


def test_a_local_prelude_file_is_used(tmp_path: Path) -> None:
    write(tmp_path, "def power(c: card) = c.rank\n", "lowace")
    text = TRICKS.replace('use "tricks"', 'use "lowace.cardgame"\nuse "tricks"')
    loaded = load(write(tmp_path, text))
    [power] = [d for d in loaded.decls if getattr(d, "name", "") == "power"]
    assert power.span.file.endswith("lowace.cardgame")  # the first prelude's comes first
    compile_game(tmp_path / "t.cardgame")


# ------------------------------------------------- Arsène's trick rules are the prelude's
ARSENE = Path(__file__).resolve().parent.parent / "games" / "arsene.cardgame"
ARSENE_TRICKS = '''def led = (bottom of trick).suit
def power(c: card) = if c.rank == A then 14 else c.rank
def strength(c: card) =
  if trumps and c.suit == diamonds then 100 + power(c)
  else if c.suit == led then 50 + power(c)
  else 0
# The i-th card of the trick was played by the i-th player clockwise from the leader.
def winner_of_trick =
  let best = (max c in trick: strength(c)) in
  (players from leader)[first i in 1..size(trick) where strength(trick[i]) == best]

move play(c in hand[me]) "play {c}"
  when trick is empty or c.suit == led or not (any d in hand[me]: d.suit == led) "you must follow {led}"
'''


def arsene_on_the_prelude(tmp_path: Path) -> Path:
    """Arsène with its led suit, trick winner and following written by the prelude: only
    which cards are trumps is its own."""
    text = ARSENE.read_text(encoding="utf-8")
    assert ARSENE_TRICKS in text  # what is replaced is still Arsène's
    text = text.replace(ARSENE_TRICKS, '''def is_trump(c: card) = trumps and c.suit == diamonds

move play(c in hand[me]) "play {c}" when follows_suit(c, me) "you must follow {led}"
''').replace("deck standard\n", 'deck standard\nuse "tricks"\n', 1)
    return write(tmp_path, text, "arsene-prelude")


@pytest.mark.parametrize("players", [3, 4])
def test_arsene_on_the_prelude_plays_exactly_as_arsene(tmp_path: Path, players: int) -> None:
    import random

    mine = compile_game(arsene_on_the_prelude(tmp_path), players=players)
    theirs = compile_game(ARSENE, players=players)
    for seed in range(3):
        a, b = mine.new_state(seed), theirs.new_state(seed)
        rng = random.Random(seed)
        steps = 0
        while not theirs.is_terminal(b) and steps < 400:
            ma, mb = mine.legal_moves(a), theirs.legal_moves(b)
            assert [mine.move_text(m) for m in ma] == [theirs.move_text(m) for m in mb]
            i = rng.randrange(len(mb))
            a, b = mine.apply(a, ma[i]), theirs.apply(b, mb[i])
            steps += 1
        assert mine.variables(a) == theirs.variables(b)
        assert mine.zone_contents(a) == theirs.zone_contents(b)


def test_arsene_on_the_prelude_passes_arsenes_examples(tmp_path: Path) -> None:
    outcomes = run_examples(arsene_on_the_prelude(tmp_path))
    assert len(outcomes) >= 9
    assert [(o.name, o.failures) for o in outcomes if not o.ok] == []


def test_checking_a_prelude_alone_says_it_is_a_prelude() -> None:
    from cardgame.interpreter.lang.loader import prelude_dir

    errs = errors_of(prelude_dir() / "tricks.cardgame")
    [name] = [e for e in errs if e.message == "the game has no name"]
    assert "this file is a prelude, not a game" in name.hint
