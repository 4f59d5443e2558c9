"""Rule coverage: which moves, choices, endings and `if` arms of a game fired, and in
which of its configurations (player counts and option values).

The rules are listed from the checked program (the declarations and the flow as
written), never from generated code: a game's moves, the `chooses` statements of its
flow (its choices), and the ways it can end (`end` conditions, `end "..."` statements,
the move limit). A played game tells which of them fired through the engine's API only:
the moves applied and legal, the phase and the legal moves at each decision, the end
reason. The arms of `if` statements (its branches) come from a game compiled with
`coverage=True`: `Game.branches()` lists them and `Game.covered()` tells which ran. The fuzzer's `Coverage` counts the same things per compiled game; here they are
summed over every configuration, so a move legal only with 3 players is not reported as
dead after a 4-player run.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from ..codegen import BARE_END
from ..engine import Game
from ..lang import ast as A
from ..options import option_text

# more configurations than this: every option value once (with the others at their
# defaults) for every player count, not the full product
MAX_CONFIGS = 64


@attrs.frozen
class Choice:
    """A `chooses` statement of the flow: the moves it offers and its phase."""

    moves: frozenset[str]
    phase: str | None  # None: inside a procedure, whatever phase calls it
    text: str  # "keep | push"
    where: str  # file:line


@attrs.frozen
class Ending:
    """A way the game can end, and a pattern for the reasons it gives at run time."""

    text: str
    where: str
    pattern: str  # a regular expression over the end reason (interpolated parts: .*)


@attrs.frozen
class BranchArm:
    """An arm of an `if` statement: `if trick_winner == me` (file:line), its else arm."""

    text: str  # "if <condition>" or "else if <condition>", as written
    where: str
    arm: str  # then, elif, else
    key: tuple[Any, ...]  # its order: the `if` statement's place, then its arms in order


@attrs.frozen
class Catalogue:
    """Every rule whose firing a simulation can see."""

    moves: tuple[tuple[str, str], ...]  # (name, file:line)
    choices: tuple[Choice, ...]
    endings: tuple[Ending, ...]
    # ordered by source position, so that configurations compiled apart agree on indices
    branches: tuple[BranchArm, ...] = ()
    arm_index: dict[int, int] = attrs.field(factory=dict, eq=False)  # Branch.id -> index

    def branches_of(self, ids: Iterable[int]) -> tuple[int, ...]:
        """The indices of the branches that ran, from the ids `Game.covered()` gives."""
        return tuple(sorted(self.arm_index[i] for i in ids))

    def ending_of(self, reason: str | None) -> int | None:
        """The index of the ending that gives this reason (None: a concession, unknown)."""
        if reason is None:
            return None
        for i, e in enumerate(self.endings):
            if re.fullmatch(e.pattern, reason, re.S):
                return i
        return None


def _where(span: Any) -> str:
    line = getattr(span, "line", 0)
    return f"{span.file}:{line}" if line else ""


def _children(x: Any) -> Iterable[Any]:
    if isinstance(x, (tuple, list)):
        return x
    if attrs.has(type(x)):
        return [getattr(x, f.name) for f in attrs.fields(type(x)) if f.name != "span"]
    return ()


def _walk_flow(x: Any, phase: str | None, choices: list[Choice], ends: list[A.End]) -> None:
    if isinstance(x, A.Phase):
        for st in x.body:
            _walk_flow(st, x.name, choices, ends)
        return
    if isinstance(x, A.Choose):
        text = " | ".join(x.moves) + (" | pass" if x.optional else "")
        choices.append(Choice(frozenset(x.moves), phase, text, _where(x.span)))
        return
    if isinstance(x, A.End):
        ends.append(x)
        return
    for c in _children(x):
        _walk_flow(c, phase, choices, ends)


def catalogue(game: Game) -> Catalogue:
    """The moves, choices, endings and `if` arms of a compiled game, in source order."""
    c = game.checked
    moves = tuple((name, _where(decl.span)) for name, decl in c.moves.items())
    choices: list[Choice] = []
    ends: list[A.End] = []
    _walk_flow(c.flow or (), "", choices, ends)
    # choices and endings inside procedures (their phase is the caller's) and moves
    for decl in (*c.procs.values(), *c.moves.values()):
        _walk_flow(decl, None, choices, ends)
    endings = [Ending(reason, _where(e.span), re.escape(reason))
               for reason, e in zip(game.end_reasons, c.ends, strict=False)]
    seen = {e.text for e in endings}
    for st in ends:
        text = st.reason or BARE_END
        if text in seen:
            continue
        seen.add(text)
        if st.parts and any(not isinstance(p, str) for p in st.parts):
            pattern = "".join(re.escape(p) if isinstance(p, str) else ".*" for p in st.parts)
        else:
            pattern = re.escape(text)
        endings.append(Ending(text, _where(st.span), pattern))
    if game.limit:
        lim = c.limit
        endings.append(Ending(game.limit_reason, _where(lim.span) if lim else "",
                              re.escape(game.limit_reason)))
    arms = _branch_arms(game)
    order = sorted(range(len(arms)), key=lambda k: arms[k][1].key)
    return Catalogue(moves, tuple(choices), tuple(endings),
                     tuple(arms[k][1] for k in order),
                     {arms[k][0]: pos for pos, k in enumerate(order)})


_ARM_ORDER = {"then": 0, "elif": 1, "else": 2}


def arm_text(arm: str) -> str:
    """How a report names an arm: the `else if` condition's arm is its then arm."""
    return "else arm" if arm == "else" else "then arm"


def _branch_arms(game: Game) -> list[tuple[int, BranchArm]]:
    """(Branch.id, arm) for each arm the game's code records (none unless it was compiled
    with coverage=True)."""
    sources = game.checked.sources
    out = []
    for b in game.branches():
        sp = b.span
        line = sp.line
        text = "if"
        lines = sources.get(sp.file, "").splitlines()
        if 0 < line <= len(lines):
            src = lines[line - 1]
            if b.arm == "else":  # the span is the `if` statement: show its first condition
                text = src[sp.column - 1:].strip()
                text = text[:text.index("{")].strip() if "{" in text else text
            else:
                end = sp.end_column - 1 if sp.end_line == line else len(src)
                kw = "if" if b.arm == "then" else "else if"
                text = f"{kw} {src[sp.column - 1:end].strip()}"
        at = b.stmt
        key = (at.file, at.line, at.column, _ARM_ORDER[b.arm], sp.line, sp.column)
        out.append((b.id, BranchArm(text, _where(sp), b.arm, key)))
    return out


def choices_at(cat: Catalogue, phase: str, legal_names: frozenset[str]) -> tuple[int, ...]:
    """The choices a decision can be: in its phase, offering every move legal there. Two
    statements offering the same moves in the same phase cannot be told apart: both count
    as reached (so a choice is called dead only when no decision can have been it)."""
    names = legal_names - {"pass"}
    return tuple(i for i, ch in enumerate(cat.choices)
                 if (ch.phase is None or ch.phase == phase) and names <= ch.moves)


# ---------------------------------------------------------------------- configurations
Config = tuple[int, tuple[tuple[str, str], ...]]  # (players, sorted (option, value) pairs)


def option_values(decl: A.OptionDecl) -> list[str]:
    """The values of an option a coverage run tries: every value of a bool or a choice;
    for an integer range its ends and its default (a full 1..1000 range would cost a
    thousand runs and rarely changes which rules can fire)."""
    if decl.kind == "int":
        vals = sorted({decl.low, decl.high, int(decl.default if decl.default is not None
                                                 else decl.low)})
        return [str(v) for v in vals]
    return [option_text(v) for v in decl.choices]


def configurations(game: Game) -> list[Config]:
    """Every allowed player count crossed with every option value (MAX_CONFIGS at most:
    past that, each option value once with the other options at their defaults)."""
    c = game.checked
    lo, hi = c.player_range
    players = list(range(lo, hi + 1))
    decls = list(c.option_decls.values())
    values = [option_values(d) for d in decls]
    total = len(players)
    for v in values:
        total *= len(v)
    out: list[Config] = []
    if total <= MAX_CONFIGS:
        for n in players:
            for combo in itertools.product(*values):
                out.append((n, tuple(sorted(zip((d.name for d in decls), combo, strict=True)))))
        return out
    defaults = {d.name: option_text(d.default) for d in decls}
    seen: set[Config] = set()
    for n in players:
        for d, vals in zip(decls, values, strict=True):
            for val in vals:
                cfg = (n, tuple(sorted({**defaults, d.name: val}.items())))
                if cfg not in seen:
                    seen.add(cfg)
                    out.append(cfg)
    return out


def config_of(game: Game) -> Config:
    return (game.players, tuple(sorted((k, option_text(v)) for k, v in game.options.items())))


def config_text(cfg: Config, game: Game) -> str:
    """`3 players, advanced=true` (only what can vary: the player count when the game
    allows several, and the options)."""
    n, opts = cfg
    lo, hi = game.checked.player_range
    parts = [f"{n} player{'s' if n != 1 else ''}"] if lo != hi else []
    parts += [f"{k}={v}" for k, v in opts]
    return ", ".join(parts) or "the one configuration"


# ---------------------------------------------------------------------- summing up
@attrs.frozen
class RuleUse:
    """One rule over a run and its coverage sweep. For a move, `fired` counts plays and
    `legal_in` the configurations where it was ever legal; for a choice, decisions that
    can have been it; for an ending, games that ended so."""

    kind: str  # move, choice, end, branch
    text: str
    where: str
    here: int  # in the configuration asked for
    fired_in: tuple[int, ...]  # indices into Coverage.configs
    legal_in: tuple[int, ...] = ()
    arm: str = ""  # a branch: then, elif or else


@attrs.frozen
class Coverage:
    configs: tuple[Config, ...]  # configs[0] is the one asked for
    games: tuple[int, ...]  # games played in each
    rules: tuple[RuleUse, ...]

    def never(self) -> list[RuleUse]:
        return [r for r in self.rules if not r.fired_in]

    def elsewhere(self) -> list[RuleUse]:
        return [r for r in self.rules if r.fired_in and not r.here]


def summarize(cat: Catalogue, runs: list[tuple[Config, list[Any]]]) -> Coverage:
    """`runs`: (configuration, its game records), the configuration asked for first."""
    played: list[dict[str, int]] = []
    legal: list[set[str]] = []
    chosen: list[dict[int, int]] = []
    ended: list[dict[int, int]] = []
    ran: list[dict[int, int]] = []
    for _, records in runs:
        p: dict[str, int] = {}
        lg: set[str] = set()
        ch: dict[int, int] = {}
        en: dict[int, int] = {}
        br: dict[int, int] = {}
        for r in records:
            for i in r.branches:
                br[i] = br.get(i, 0) + 1
            for name, k in r.played:
                p[name] = p.get(name, 0) + k
            lg.update(r.legal)
            for i in r.choices:
                ch[i] = ch.get(i, 0) + 1
            e = cat.ending_of(r.end_reason) if r.outcome == "ended" else None
            if e is not None:
                en[e] = en.get(e, 0) + 1
        played.append(p)
        legal.append(lg)
        chosen.append(ch)
        ended.append(en)
        ran.append(br)
    n = range(len(runs))
    rules: list[RuleUse] = []
    for name, where in cat.moves:
        rules.append(RuleUse("move", name, where, played[0].get(name, 0),
                             tuple(k for k in n if played[k].get(name)),
                             tuple(k for k in n if name in legal[k])))
    for i, choice in enumerate(cat.choices):
        rules.append(RuleUse("choice", choice.text, choice.where, chosen[0].get(i, 0),
                             tuple(k for k in n if chosen[k].get(i))))
    for i, ending in enumerate(cat.endings):
        rules.append(RuleUse("end", ending.text, ending.where, ended[0].get(i, 0),
                             tuple(k for k in n if ended[k].get(i))))
    for i, arm in enumerate(cat.branches):
        rules.append(RuleUse("branch", arm.text, arm.where, ran[0].get(i, 0),
                             tuple(k for k in n if ran[k].get(i)), arm=arm.arm))
    return Coverage(tuple(cfg for cfg, _ in runs), tuple(len(recs) for _, recs in runs),
                    tuple(rules))


def condition(cov: Coverage, where: Sequence[int]) -> str:
    """The configurations `where` in few words: `with 3 players`, `with advanced=true`,
    or a list."""
    got = set(where)
    cfgs = cov.configs
    factors: list[tuple[str, Callable[[Config], str]]] = [("players", _players)]
    for k, _ in cfgs[0][1]:
        factors.append((k, _option_getter(k)))
    for name, get in factors:
        for v in sorted({get(c) for c in cfgs}):
            if got == {i for i, c in enumerate(cfgs) if get(c) == v}:
                return f"with {v} players" if name == "players" else f"with {name}={v}"
    shown = [_cfg_text(cfgs[i]) for i in sorted(got)[:3]]
    more = len(got) - len(shown)
    return "in " + "; ".join(shown) + (f" and {more} more" if more > 0 else "")


def _players(c: Config) -> str:
    return str(c[0])


def _option_getter(name: str) -> Callable[[Config], str]:
    return lambda c: dict(c[1])[name]


def _cfg_text(cfg: Config) -> str:
    n, opts = cfg
    return ", ".join([f"{n} player{'s' if n != 1 else ''}"] + [f"{k}={v}" for k, v in opts])
