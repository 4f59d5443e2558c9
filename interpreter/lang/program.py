"""The checked program: everything code generation needs, as data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from . import ast as A


@attrs.define
class Card:
    id: int
    rank: int
    suit: int  # 0: none
    joker: bool
    extra: dict[str, int]


@attrs.define
class ZoneInfo:
    name: str
    label: str
    dim: tuple[str, int] | None  # ("int", n) / ("suit", 4) / ("player", n)
    visibility: str  # hidden, public, owner
    layout: str  # fanned, squared, row
    span: A.Span


@attrs.define
class VarInfo:
    name: str
    type: str
    dim: tuple[str, int] | None
    init: A.Expr
    span: A.Span


@attrs.define
class Checked:
    name: str
    about: str
    path: str
    sources: dict[str, str]
    players: int
    player_range: tuple[int, int]
    options: dict[str, Any]
    option_decls: dict[str, A.OptionDecl]
    cards: list[Card]
    rank_names: tuple[str, ...]
    card_attrs: tuple[str, ...]
    has_suitless: bool
    zones: dict[str, ZoneInfo]
    vars: dict[str, VarInfo]
    defs: dict[str, A.DefDecl]
    procs: dict[str, A.ProcDecl]
    moves: dict[str, A.MoveDecl]
    setup: tuple[A.Stmt, ...]
    flow: tuple[A.Stmt, ...] | None
    ends: list[A.EndDecl]
    score: A.Expr | None
    result: A.ResultDecl | None
    invariants: list[A.InvariantDecl]
    limit: A.LimitDecl | None
    types: dict[int, str]
    blocking_procs: set[str]
    constants: dict[str, tuple[str, Any]]
    uses_no_moves: bool = False
    bool_attrs: frozenset[str] = frozenset()
    # the checker's constant folder (numbers, options, constant defs, arithmetic)
    const_int: Callable[[A.Expr], int | None] = attrs.field(default=lambda e: None, repr=False)
