"""Stage 4: checks. Run the passes in order, collect every diagnostic, build the Program.

1. declarations (declare.py): players, options, constants, the deck (deck.py), names,
   zones, variables;
2. bodies: defs, procs, moves, setup, flow, end conditions, score, result, invariants,
   by the statement checker (check_stmt.py) and the expression checker (check_expr.py).

Every error found is reported together; the Program is built only when there is none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from ..cards import MAX_SUITS, SUITS, suit_symbols
from ..errors import Diagnostic, Diagnostics, did_you_mean
from . import ast as A
from .check_example import check_examples, effective_settings
from .check_expr import ExprChecker
from .check_stmt import StmtChecker, check_recursion, proc_blocks, proc_ends
from .check_table import check_table
from .consts import Constants, const_int
from .deck import apply_order, build_deck, rank_names
from .declare import (
    Decls,
    add_rank_names,
    base_constants,
    check_declared_names,
    collect,
    declare_vars,
    declare_zones,
    option_values,
    player_count,
)
from .limits import check_calls, check_loops, check_move_params, check_move_texts
from .loader import Loaded, prelude_dir
from .program import Program, ZoneInfo
from .symbols import Ctx, Reporter, Scope, Symbols
from .words import KEYWORDS

_FILE_START = 1, 1, 1, 2  # where a diagnostic about the whole file points


def check(loaded: Loaded, players: int | None = None,
          settings: dict[str, str] | None = None) -> Program:
    try:
        program = _check(loaded, players, settings)
        # an example that names other players or options is checked as compiled for them
        done = {(program.players, tuple(sorted(program.options.items())))}
        for ex in program.examples:
            n, values = effective_settings(ex, collect(loaded.decls).players,
                                           program.option_decls)
            key = (n, tuple(sorted(values.items())))
            if key not in done:
                done.add(key)
                _check(loaded, n, {k: str(v).lower() if isinstance(v, bool) else str(v)
                                   for k, v in values.items()})
        return program
    except Diagnostic as d:  # one error that stops the check (a constant too large...)
        if d.source is None:
            d.source = loaded.sources.get(d.span.file)
        _prelude_hint(d, loaded)
        raise
    except Diagnostics as ds:
        for item in ds.items:
            _prelude_hint(item, loaded)
        raise


_PRELUDE_HINT = ('this file is a prelude, not a game: a game adds it with use "NAME"; check a '
                 'game that uses it')


def _is_prelude(path: str) -> bool:
    try:
        return Path(path).resolve().parent == prelude_dir().resolve()
    except OSError:
        return False


def _prelude_hint(d: Diagnostic, loaded: Loaded) -> None:
    """A name a prelude reads and the game does not declare: say that the game declares it
    (the prelude's header lists what it reads)."""
    if d.span.file in loaded.preludes and d.message.startswith("unknown "):
        name = d.message.split("'")[1] if "'" in d.message else "it"
        d.hint = (f"the prelude {d.span.file} reads '{name}': declare it in the game (the "
                  "prelude's first lines list what it reads)")


def _check(loaded: Loaded, players: int | None,
           settings: dict[str, str] | None) -> Program:
    report = Reporter(loaded.sources)
    start = A.Span(loaded.path, *_FILE_START)
    d = collect(loaded.decls)
    if not d.name:
        report.err("the game has no name", start, _PRELUDE_HINT if _is_prelude(loaded.path)
                   else 'start the file with: game "Name"')
    # players, options, constants
    n = player_count(d.players, players, report)
    options = option_values(d.options, settings or {}, report)
    deck_decl = d.deck
    if deck_decl is None:
        report.err("the game has no deck", start,
                   "add 'deck standard' or a custom 'deck { ... }'")
        deck_decl = A.DeckDecl(standard=True)
    suit_names = _suit_names(d.suits, deck_decl, report)
    constants = base_constants(n, d.options, options, suit_names)
    # the deck
    add_rank_names(constants, rank_names(deck_decl))
    deck = build_deck(deck_decl, constants, report, suit_names)
    if d.order is not None:
        deck = apply_order(deck, d.order, report)
    consts = Constants(constants, {k: dd for k, dd in d.defs.items() if dd.is_const})
    if d.limit is not None and d.limit.count_name:
        d.limit = _named_limit(d.limit, consts, report)
    # names, zones, variables
    zones = {"deck": ZoneInfo("deck", "deck", None, "hidden", "squared", A.NOSPAN)}
    check_declared_names(loaded.decls, report)
    check_roles(d, constants, report)
    declare_zones(d.zones, zones, n, consts, report, len(suit_names), d.roles)
    syms = Symbols(players=n, constants=constants, consts=consts, card_attrs=deck.card_attrs,
                   bool_attrs=deck.bool_attrs, zones=zones, vars={}, defs=d.defs,
                   procs=d.procs, moves=d.moves, option_decls=d.options,
                   suit_names=suit_names,
                   roles={r: rd.label or r for r, rd in d.roles.items()})
    exprs = ExprChecker(syms, report)
    declare_vars(d.vars, syms, exprs)
    for dname, dd in d.defs.items():
        if dname in zones or dname in syms.vars or dname in constants:
            report.err(f"'{dname}' is already defined", dd.span)
    check_move_texts(d.moves, zones, report, suit_names)
    if check_calls(d.defs, d.procs, report):
        report.fail()  # the passes below follow the calls, recursively
    game_flow = _check_bodies(d, syms, exprs, report, start)
    table = check_table(d.table, set(zones), set(syms.vars), report)
    check_move_params(d.moves, syms, len(deck.cards), report)
    check_loops(loaded.decls, syms, report)
    broken = check_examples(d.examples, d.players, d.options, n, options, exprs, report,
                            loaded.path)
    report.fail()
    syms.types.freeze()
    syms.refs.freeze()
    return Program(
        name=d.name, about=d.about, path=loaded.path, sources=loaded.sources, players=n,
        player_range=(d.players.low, d.players.high), options=options,
        option_decls=d.options, cards=deck.cards, rank_names=deck.rank_names,
        card_attrs=deck.card_attrs, has_suitless=any(c.suit == 0 for c in deck.cards),
        zones=zones, vars=syms.vars, defs=d.defs, procs=d.procs, moves=d.moves,
        setup=d.setup, flow=d.flow, ends=d.ends, score=d.score, result=d.result,
        invariants=d.invariants + _nevers(d.expects), limit=d.limit, blocking_procs=syms.blocking,
        constants=constants, bool_attrs=deck.bool_attrs, consts=consts,
        expr_types=syms.types, refs=syms.refs, game_flow=game_flow, table=table,
        autos=d.autos, suit_names=suit_names, suit_symbols=suit_symbols(suit_names),
        examples=tuple(d.examples), players_default=d.players.default,
        example_errors=broken, expects=[x for x in d.expects if x.kind == "sometimes"],
        equivalents=d.equivalents, roles=syms.roles,
    )


def check_roles(d: Decls, constants: dict[str, Any], report: Reporter) -> None:
    """`role NAME`: a name of its own; `result against NAME` names a declared role."""
    taken = ({z.name for z in d.zones} | {v.name for v in d.vars} | set(d.defs)
             | set(d.procs) | set(d.moves) | set(constants))
    for rname, rd in d.roles.items():
        if rname in taken or rname in ("player", "players", "me", "suit", "deck"):
            report.err(f"'{rname}' is already defined", rd.span,
                       f"call the role something else, such as 'the_{rname}'")
    res = d.result
    if res is not None and res.kind == "against" and res.role not in d.roles:
        report.err(f"'result against {res.role}': '{res.role}' is not a role", res.span,
                   did_you_mean(res.role, list(d.roles))
                   or f'declare it: role {res.role} "the {res.role}"')


def _nevers(expects: list[A.ExpectDecl]) -> list[A.InvariantDecl]:
    """`expect never COND` is the invariant `not COND`, named `never_K` (K counts them)."""
    nevers = [x for x in expects if x.kind == "never"]
    return [A.InvariantDecl(f"never_{k}", x.title, x.cond, negated=True, span=x.span)
            for k, x in enumerate(nevers, 1)]


def _check_bodies(d: Decls, syms: Symbols, exprs: ExprChecker, report: Reporter,
                  start: A.Span) -> tuple[A.Stmt, ...]:
    """Check every rule; return the flow the game runs."""
    stmts = StmtChecker(exprs)
    for dname in d.defs:
        exprs.def_type(dname)
    syms.blocking = {p for p in d.procs if proc_blocks(d.procs, p, set())}
    check_recursion(d.procs, report)
    for pd in d.procs.values():
        stmts.proc(pd)
    for dd in d.defs.values():
        stmts.params_unique(dd.params, dd.name)
    scopes = {name: stmts.move(md) for name, md in d.moves.items()}
    for ad in d.autos.values():
        scope = scopes.get(ad.name)
        if scope is None:
            report.err(f"'auto move {ad.name}': the game has no move '{ad.name}'", ad.span,
                       did_you_mean(ad.name, list(d.moves)) or "name one of the game's moves")
        else:
            exprs.want("bool", ad.cond, Scope(scope),
                       Ctx("pure", me=True, rule=f"auto move {ad.name}"))
    stmts.block(d.setup, Scope(), Ctx("setup", rule="setup"))
    for call in A.walk_stmts(d.setup):
        if isinstance(call, A.CallStmt) and call.func in d.procs and proc_ends(
                d.procs, call.func, set()):
            report.err(f"'{call.func}' can end the game, and the game cannot end during "
                       "setup", call.span)
    flow = d.flow
    if flow is None and syms.players > 1:
        report.err("a game for several players needs a 'flow' that says who chooses when",
                   start)
    elif flow is None and not d.moves:
        report.err("the game has no moves", start)
    elif flow is None:
        # one player and no flow: the player chooses any move, for ever
        flow = (A.Repeat(None, (A.Choose(A.Int(1), tuple(d.moves)),)),)
    if flow is not None:
        stmts.block(flow, Scope(), Ctx("flow", rule="flow"))
    for e in d.ends:
        exprs.want("bool", e.cond, Scope(), Ctx("pure", rule="end"))
    if d.score is not None:
        exprs.want("int", d.score, Scope(), Ctx("pure", me=True, rule="score"))
    if d.result is not None and d.result.cond is not None:
        exprs.want("bool", d.result.cond, Scope(), Ctx("pure", me=True, rule="result"))
    if d.result is not None and d.result.push is not None:
        exprs.want("bool", d.result.push, Scope(), Ctx("pure", me=True, rule="result"))
    if d.result is not None and d.result.kind in ("highest", "lowest") and d.score is None:
        report.err(f"'result {d.result.kind} score' needs a 'score = ...'", d.result.span)
    for inv in d.invariants:
        exprs.want("bool", inv.cond, Scope(), Ctx("pure", rule=f"invariant {inv.name}"))
    for x in d.expects:
        exprs.want("bool", x.cond, Scope(), Ctx("pure", rule=f"expect {x.kind}"))
    for eq in d.equivalents:  # (a mutant marked twice: the loader's "declared again")
        if not eq.mutant.strip():
            report.err("'equivalent' needs the name of a mutant, as 'cardgame mutate' lists "
                       "it", eq.span, 'copy it from the report: equivalent "move m: n < 3 '
                       '-> n <= 3" "why it is the same game"')
        elif not eq.reason.strip():
            report.err(f"'equivalent \"{eq.mutant}\"' gives no reason", eq.span,
                       "say why the mutant is the same game, as its second string")
    return flow or ()


def _named_limit(lim: A.LimitDecl, consts: Constants, report: Reporter) -> A.LimitDecl:
    """`limit cap moves`: the number an option or a constant names, known when the game
    is compiled (so each `--set` gets its own limit)."""
    value = const_int(A.Name(lim.count_name, span=lim.span), consts)
    if value is None or isinstance(value, bool):
        report.err(f"'limit {lim.count_name} moves' needs an int option or constant", lim.span,
                   f"declare 'option {lim.count_name}: 100..1000 default 500' or "
                   f"'def {lim.count_name} = 500', or write the number")
        return attrs.evolve(lim, count=1)
    if value < 1:
        report.err(f"a limit is at least 1 move, and {lim.count_name} is {value}", lim.span)
        return attrs.evolve(lim, count=1)
    return attrs.evolve(lim, count=value)


def _suit_names(sd: A.SuitsDecl | None, deck: A.DeckDecl,
                report: Reporter) -> tuple[str, ...]:
    """`deck suits coins cups swords batons`: a custom deck's suits (else the French four)."""
    if sd is None:
        return SUITS
    if deck.standard:
        report.err("a standard deck has the four French suits", sd.span,
                   "declare the cards in a custom deck: deck { for s in suits { ... } }")
        return SUITS
    if len(sd.names) > MAX_SUITS:
        report.err(f"a deck has at most {MAX_SUITS} suits", sd.span)
        return SUITS
    seen: set[str] = set()
    for name, sp in zip(sd.names, sd.name_spans or (sd.span,) * len(sd.names), strict=False):
        if name in seen:
            report.err(f"suit '{name}' is named twice", sp)
        elif name in KEYWORDS or name in ("suits", "colors", "player_count", "red", "black"):
            report.err(f"'{name}' cannot name a suit", sp, f"call it '{name}_'")
        seen.add(name)
    return sd.names
