"""The checked program: everything code generation needs, as data (no checker inside)."""

from __future__ import annotations

from typing import Any

import attrs

from . import ast as A
from .consts import Constants
from .consts import const_int as fold_int


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
class Program:
    """A checked game: its declarations resolved for one player count and option values."""

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
    bool_attrs: frozenset[str] = frozenset()
    # what the constant folder knows: the constants and the constant defs
    consts: Constants = attrs.field(factory=lambda: Constants({}), repr=False)

    def const_int(self, e: A.Expr) -> int | None:
        """The value of a constant integer expression (numbers, options, constant defs,
        arithmetic), or None: the checker's own folder."""
        return fold_int(e, self.consts)


Checked = Program
