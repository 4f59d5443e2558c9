"""Grammar fuzzing: whatever text it is given, the toolchain answers with a game or with a
clean CardgameError (a compiler-style diagnostic, or a rule error when a game runs),
never with another exception.

Programs come from two sources, both drawn by Hypothesis (so a crash shrinks to a small
repro):
- the grammar itself: a generator walks the rules of the Lark parser, choosing an
  expansion at each step (the shortest ones past a depth bound) and giving terminals
  plausible values (names a game would use, small numbers, strings);
- the bundled games, mutated: tokens or lines deleted, duplicated, swapped or replaced.

Every program that compiles is also played for a few random moves.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import lark
import pytest
from cardgame.interpreter.engine import compile_loaded
from cardgame.interpreter.errors import CardgameError
from cardgame.interpreter.lang.loader import bundled_dir, load
from cardgame.interpreter.lang.parser import EXAMPLE_WORDS, lark_parser
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark.grammar import NonTerminal, Terminal
from lark.lexer import PatternStr
from support.clock import time_limit

EXAMPLES = 150
SECONDS_PER_PROGRAM = 5.0

# Names a game would use: declared things, builtins, types, zone properties, ranks.
NAMES = ("hand", "stock", "pile", "c", "k", "p", "x", "draw", "play", "size", "rank",
         "suit", "suits", "spades", "hearts", "int", "player", "list", "face", "up", "down",
         "owner", "only", "fanned", "A", "K", "no_moves", "legal_count", "moves_played",
         "ended", "player_count", "first", "rest", "cards", "random", "abs", "moves",
         "limit", "mode", "n")
FUNCTIONS = ("size", "abs", "cards", "rest", "sorted", "reverse", "last", "distance")
VALUES = {
    "INT": ("0", "1", "2", "3", "4", "13"),
    "STRING": ('"x"', '"Name"', '"take {c}"', '""', '"""two\nlines"""'),
    "COMP": ("==", "!=", "<", "<=", ">", ">="),
    "ADDOP": ("+", "-"),
    "MULOP": ("*", "/", "%"),
    "QUANT": ("any", "count", "sum", "min", "max", "first", "each", "random"),
    "HIGHLOW": ("highest", "lowest"),
    "NAME": NAMES,
    "CARD": ("7♣", "10♥", "Q♠"),
    # the words of an example block, which the post-lexer makes keywords there
    **{term: tuple(w for w, t in EXAMPLE_WORDS.items() if t == term)
       for term in set(EXAMPLE_WORDS.values())},
    # the words of an expectation, which the post-lexer makes keywords before a condition
    "_EXPECT_KW": ("expect",),
    "_SOMETIMES": ("sometimes",),
    "_NEVER": ("never",),
}




def scratch(factory: pytest.TempPathFactory) -> Path:
    d = factory.getbasetemp() / "grammar-fuzz"
    d.mkdir(exist_ok=True)
    return d


def answer(text: str, tmp: Path) -> str:
    """Compile (and play a little) one program: 'game', 'error', or raise."""
    path = tmp / "fuzzed.cardgame"
    path.write_text(text, encoding="utf-8")
    try:
        with time_limit(SECONDS_PER_PROGRAM):
            game = compile_loaded(load(path))
            rng = random.Random(0)
            for seed in (0, 1):
                try:
                    game.random_playout(seed, rng, 60)
                except CardgameError:
                    pass
            return "game"
    except CardgameError as e:
        str(e)  # formatting a diagnostic must not fail either
        return "error"


# ---------------------------------------------------------------------- grammar walker
class Grammar:
    def __init__(self, parser: lark.Lark) -> None:
        self.rules: dict[str, list[tuple[Any, ...]]] = {}
        for r in parser.rules:
            self.rules.setdefault(r.origin.name, []).append(tuple(r.expansion))
        self.patterns = {t.name: t.pattern for t in parser.terminals}
        # the least height of a derivation from each rule (terminals: 0)
        inf = 10**9
        self.height: dict[str, int] = {n: inf for n in self.rules}
        changed = True
        while changed:
            changed = False
            for n, exps in self.rules.items():
                best = min(self.exp_height(e) for e in exps)
                if best < self.height[n]:
                    self.height[n] = best
                    changed = True
        self.shortest = {n: [e for e in exps if self.exp_height(e) == self.height[n]]
                         for n, exps in self.rules.items()}

    def exp_height(self, exp: tuple[Any, ...]) -> int:
        hs = [self.height.get(s.name, 10**9) if isinstance(s, NonTerminal) else 0 for s in exp]
        return 1 + max(hs, default=0)

    def token(self, draw: Any, name: str) -> str:
        if name in VALUES:
            return str(draw(st.sampled_from(VALUES[name])))
        pat = self.patterns[name]
        if isinstance(pat, PatternStr):
            return str(pat.value)
        return str(draw(st.from_regex(pat.to_regexp(), fullmatch=True)))  # pragma: no cover


GRAMMAR = Grammar(lark_parser())


# A valid beginning that declares the names the walker uses, so that generated
# declarations often get past the checker into code generation and play.
PREAMBLE = """game "G"
players 2
deck standard
zone stock "stock": face down
zone pile "pile": face up
zone hand[player] "hand": owner only
var n = 0
var x = 1
move draw "draw" when stock is not empty { move top of stock to hand[me] }
move play(c in hand[me]) "play {c}" { move c to pile }
flow { repeat { for p in players { p chooses draw | play } } }
end when stock is empty
"""


# declarations the preamble makes already (a second one is an error)
IN_PREAMBLE = {"game_decl", "deck_decl", "players_decl", "flow_decl", "extends_decl"}


@st.composite
def programs(draw: Any, max_depth: int = 14, max_tokens: int = 300) -> str:
    g = GRAMMAR
    out: list[str] = []
    pre = draw(st.sampled_from((PREAMBLE, "")))

    def walk(sym: Any, depth: int) -> None:
        if isinstance(sym, Terminal):
            out.append(g.token(draw, sym.name))
            return
        exps = g.rules[sym.name]
        if depth >= max_depth or len(out) >= max_tokens:
            exps = g.shortest[sym.name]
        if pre and sym.name == "item":
            exps = [e for e in exps if e[0].name not in IN_PREAMBLE] or exps
        exp = draw(st.sampled_from(exps)) if len(exps) > 1 else exps[0]
        if (len(exp) > 1 and isinstance(exp[0], Terminal) and exp[0].name == "NAME"
                and isinstance(exp[1], Terminal) and exp[1].name == "LPAR"):
            out.append(draw(st.sampled_from(FUNCTIONS)))  # a call: name a function
            exp = exp[1:]
        for s in exp:
            walk(s, depth + 1)

    walk(NonTerminal("start"), 0)
    sep = draw(st.sampled_from((" ", "\n")))
    return pre + sep.join(out)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(programs())
def test_programs_from_the_grammar(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    answer(text, scratch(tmp_path_factory))


def test_the_walker_reaches_the_checker_and_the_engine(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """The generator is only useful if what it writes gets past the parser, and some of
    it past the checker into code generation and play."""
    seen: dict[str, int] = {"game": 0, "error": 0, "parsed": 0}
    tmp = scratch(tmp_path_factory)

    @settings(max_examples=200, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(programs(max_depth=10))
    def collect(text: str) -> None:
        try:
            lark_parser().parse(text, start="start")
            seen["parsed"] += 1
        except lark.exceptions.LarkError:
            pass
        seen[answer(text, tmp)] += 1

    collect()
    assert seen["parsed"] >= 180, seen
    assert seen["game"] >= 3, seen


# ---------------------------------------------------------------------- mutated games
TOKEN = re.compile(r'"""(?:.|\n)*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|\w+|\.\.|[+\-]=|[=!<>]=|\S')
GAMES = sorted(p for p in bundled_dir().glob("*.cardgame"))


def tokens(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in TOKEN.finditer(text)]


@st.composite
def mutated(draw: Any) -> str:
    path = draw(st.sampled_from(GAMES))
    text = path.read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(("delete", "duplicate", "swap", "replace", "delete line",
                                     "duplicate line", "swap lines")))
        if kind.endswith("line") or kind.endswith("lines"):
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            if kind == "delete line":
                del lines[i]
            elif kind == "duplicate line":
                lines.insert(i, lines[i])
            else:
                j = draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
            continue
        toks = tokens(text)
        i = draw(st.integers(0, len(toks) - 1))
        a, b = toks[i]
        if kind == "delete":
            text = text[:a] + text[b:]
        elif kind == "duplicate":
            text = text[:b] + " " + text[a:b] + text[b:]
        elif kind == "swap" and i + 1 < len(toks):
            c, d = toks[i + 1]
            text = text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
        else:
            j = draw(st.integers(0, len(toks) - 1))
            c, d = toks[j]
            text = text[:a] + text[c:d] + text[b:]
    return text


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(mutated())
def test_mutated_bundled_games(tmp_path_factory: pytest.TempPathFactory, text: str) -> None:
    answer(text, scratch(tmp_path_factory))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_bundled_games_compile_unchanged(path: Path, tmp_path: Path) -> None:
    assert answer(path.read_text(encoding="utf-8"), tmp_path) == "game"
