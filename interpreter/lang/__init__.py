"""The front end: text -> parse tree -> AST -> loaded declarations -> checked program.

Never imports codegen or engine. Its public face is below; other layers import these
names from `cardgame.interpreter.lang`, not from its modules.

    program = check(load(path), players, settings)
    program.type_of(expr)     # the type of every expression (see types.py)
    program.ref_of(name)      # what a Name, Call or CallStmt refers to: a Ref
    BUILTINS["size"]          # the built-in functions and names: arity, typing, may_fail
"""

from typing import Any

from . import ast, nodes, types
from .ast import walk_stmts
from .builtins import BUILTINS, Builtin
from .catalog import bundled_catalog
from .check import check
from .check_example import effective_settings
from .consts import const_int
from .loader import Loaded, bundled_dir, bundled_names, load, resolve_game
from .program import Checked, MissingEntry, NodeTable, Program, Ref, TableSpec
from .types import elem

__all__ = ["BUILTINS", "Builtin", "effective_settings", "Checked", "Loaded", "MissingEntry", "NodeTable", "Program",
           "Ref", "TableSpec", "ast", "bundled_catalog", "bundled_dir", "bundled_names", "check", "const_int", "elem",
           "lark_parser", "load", "nodes", "parse", "resolve_game", "types", "walk_stmts"]


def __getattr__(name: str) -> Any:
    # The parser is imported when first used: with every file read from the cache
    # (module_cache.py) a command never imports Lark, a good part of its start-up.
    if name in ("lark_parser", "parse"):
        from . import parser

        return getattr(parser, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
