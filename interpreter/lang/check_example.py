"""Checks of `example` blocks: their settings, their size, and every expression in them,
typed by the expression checker like any rule's (docs/testing.md).

An example that names a player count or option values is checked against the program
compiled with them: under other settings its expressions are not checked (`p4` does not
exist in a game for 3), only its settings are. What an example does not name is the
game's default. `effective_settings` gives each example's settings, so that a tool can
compile the game once per distinct setting.
"""

from __future__ import annotations

from typing import Any

from ..errors import Diagnostics, did_you_mean
from . import ast as A
from .check_expr import ExprChecker
from .limits import MAX_EXAMPLE_CARDS, MAX_EXAMPLE_STEPS, MAX_EXAMPLE_TEXT, MAX_EXAMPLES
from .program import Ref
from .symbols import Ctx, Reporter, Scope
from .types import compatible

# the steps that say something about the position before anything is played
_SETTINGS = ("players", "option")


def example_settings(ex: A.ExampleDecl) -> tuple[int | None, dict[str, Any]]:
    """(the player count it names or None, the option values it names)."""
    players: int | None = None
    options: dict[str, Any] = {}
    for st in ex.steps:
        if st.kind == "players" and isinstance(st.value, int):
            players = st.value
        elif st.kind == "option":
            options[st.text] = st.value
    return players, options


def effective_settings(ex: A.ExampleDecl, pdecl: A.PlayersDecl,
                       opts: dict[str, A.OptionDecl]) -> tuple[int, dict[str, Any]]:
    """The player count and option values an example runs under: those it names, else the
    game's defaults."""
    want_players, want_options = example_settings(ex)
    options = {name: od.default for name, od in opts.items()}
    options.update(want_options)
    return (want_players if want_players is not None else pdecl.default), options


def applies(ex: A.ExampleDecl, players: int, options: dict[str, Any],
            pdecl: A.PlayersDecl, opts: dict[str, A.OptionDecl]) -> bool:
    """Does the example run under this player count and these option values?"""
    return effective_settings(ex, pdecl, opts) == (players, options)


def check_examples(examples: list[A.ExampleDecl], pdecl: A.PlayersDecl,
                   opts: dict[str, A.OptionDecl], players: int, options: dict[str, Any],
                   exprs: ExprChecker, report: Reporter, own_file: str
                   ) -> dict[str, tuple[str, ...]]:
    """Check the examples that run under these settings; return, by name, the errors of
    inherited examples that do not fit this game."""
    broken: dict[str, tuple[str, ...]] = {}
    if len(examples) > MAX_EXAMPLES:
        report.err(f"this game has {len(examples)} examples; at most {MAX_EXAMPLES}",
                   examples[MAX_EXAMPLES].span, "see docs/limits.md")
    seen: dict[str, A.ExampleDecl] = {}
    for ex in examples:
        if ex.name in seen:
            report.err(f"example '{ex.name}' is declared again (first at line "
                       f"{seen[ex.name].span.line})", ex.span, "give each example its own name")
        seen[ex.name] = ex
        if not ex.name.strip():
            report.err("an example needs a name", ex.span, 'write example "what it shows" { ... }')
        ok = _check_settings(ex, pdecl, opts, report)
        if len(ex.steps) > MAX_EXAMPLE_STEPS:
            report.err(f"this example has {len(ex.steps)} lines; at most {MAX_EXAMPLE_STEPS}",
                       ex.steps[MAX_EXAMPLE_STEPS].span, "split it into several examples")
        if ok and applies(ex, players, options, pdecl, opts):
            if ex.span.file == own_file:
                _check_steps(ex, exprs, report)
            else:
                # inherited from the game a variant extends: one that does not fit the
                # variant (a pile it removed) fails in `cardgame test`, not in `check`
                side = Reporter(report.sources)
                try:
                    _check_steps(ex, ExprChecker(exprs.syms, side), side)
                except Diagnostics as many:
                    side.errors = list(many.items)
                if side.errors:
                    broken[ex.name] = tuple(d.format() for d in side.errors)
    return broken


def _check_settings(ex: A.ExampleDecl, pdecl: A.PlayersDecl, opts: dict[str, A.OptionDecl],
                    report: Reporter) -> bool:
    ok = True
    started = False
    for st in ex.steps:
        if st.kind not in _SETTINGS:
            started = True
            continue
        if started:
            report.err(f"'{st.kind}' belongs at the top of the example", st.span,
                       "set the players and options before the position and the moves")
            ok = False
        if st.kind == "players":
            n = st.value
            if not isinstance(n, int) or not pdecl.low <= n <= pdecl.high:
                rng = (f"{pdecl.low}" if pdecl.low == pdecl.high
                       else f"{pdecl.low} to {pdecl.high}")
                report.err(f"this game is for {rng} player{'' if pdecl.high == 1 else 's'}, not {n}", st.span)
                ok = False
        else:
            od = opts.get(st.text)
            if od is None:
                report.err(f"unknown option '{st.text}'", st.span,
                           did_you_mean(st.text, list(opts)) or (
                               "options: " + ", ".join(opts) if opts
                               else "this game has no options"))
                ok = False
            elif not _option_ok(od, st.value):
                report.err(f"option '{st.text}' cannot be {_shown(st.value)}", st.span,
                           _option_hint(od))
                ok = False
    return ok


def _shown(v: Any) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def _option_ok(od: A.OptionDecl, v: Any) -> bool:
    if od.kind == "bool":
        return isinstance(v, bool)
    if od.kind == "int":
        return isinstance(v, int) and not isinstance(v, bool) and od.low <= v <= od.high
    return v in od.choices


def _option_hint(od: A.OptionDecl) -> str:
    if od.kind == "bool":
        return "write true or false"
    if od.kind == "int":
        return f"a number from {od.low} to {od.high}"
    return "one of: " + ", ".join(_shown(c) for c in od.choices)


def seats(players: int) -> Scope:
    """The scope of an example's expressions: the seats, `p1` to `pN`, are named."""
    scope = Scope()
    for i in range(1, players + 1):
        scope.names[f"p{i}"] = Ref("constant", f"p{i}", "player", None, i)
    return scope


def _check_steps(ex: A.ExampleDecl, exprs: ExprChecker, report: Reporter) -> None:
    ctx = Ctx("pure", rule=f"example {ex.name}")
    sc = seats(exprs.syms.players)  # every expression of the example sees the seats
    for st in ex.steps:
        k = st.kind
        if len(st.cards) > MAX_EXAMPLE_CARDS:
            report.err(f"{len(st.cards)} cards on one line; at most {MAX_EXAMPLE_CARDS}",
                       st.span)
        if len(st.text) > MAX_EXAMPLE_TEXT or len(st.reason) > MAX_EXAMPLE_TEXT:
            report.err(f"this text is longer than {MAX_EXAMPLE_TEXT} characters", st.span)
        if k in ("has", "expect_has", "expect_has_no"):
            assert st.target is not None
            exprs.want("zone", st.target, sc, ctx)
        elif k == "is":
            assert st.target is not None
            t = exprs.expr(st.target, sc, ctx, zone=True)
            if t == "card":
                if not (isinstance(st.target, A.Unary) and st.target.op in ("top", "bottom")):
                    report.err("name the card's place: 'top of ZONE is CARD' or "
                               "'bottom of ZONE is CARD'", st.target.span)
                elif len(st.cards) != 1:  # `is empty` is for a zone
                    report.err(f"one card goes there, not {len(st.cards)}", st.span)
            elif t not in ("zone", "any"):
                report.err(f"expected a zone or 'top of ZONE', found {t}", st.target.span,
                           "write 'hand[p1] is 7♣ K♥' or 'top of stock is Q♠'")
        elif k == "set":
            assert st.target is not None and st.expr is not None
            _check_set(st, exprs, ctx, sc, report)
        elif k in ("to_move", "play", "can_play", "cannot_play", "expect_to_move", "result",
                   "scores", "can_see", "cannot_see"):
            assert st.target is not None
            exprs.want("player", st.target, sc, ctx)
            if k == "scores":
                assert st.expr is not None
                exprs.want("int", st.expr, sc, ctx)
            elif k in ("can_see", "cannot_see"):
                assert st.expr is not None
                exprs.want("zone", st.expr, sc, ctx)
            elif k in ("play", "can_play", "cannot_play") and not st.text.strip():
                report.err("name the move, as the prompt takes it", st.span,
                           'write p1 plays "draw"')
        elif k == "expect":
            assert st.expr is not None
            exprs.want("bool", st.expr, sc, ctx)


def _check_set(st: A.ExStep, exprs: ExprChecker, ctx: Ctx, scope: Scope,
               report: Reporter) -> None:
    target, value = st.target, st.expr
    assert target is not None and value is not None
    base = target.obj if isinstance(target, A.Index) else target
    if not isinstance(base, A.Name) or base.name not in exprs.syms.vars:
        report.err("'set' takes a variable or one element of one", target.span,
                   did_you_mean(base.name, list(exprs.syms.vars))
                   if isinstance(base, A.Name) else "write 'set chips[p2] = 3'")
        return
    want = exprs.expr(target, scope, ctx)
    got = exprs.expr(value, scope, ctx)
    if not compatible(want, got):
        report.err(f"'{base.name}' holds {want}, not {got}", value.span)
