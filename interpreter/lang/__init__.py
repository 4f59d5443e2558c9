"""The front end: text -> parse tree -> AST -> loaded declarations -> checked program.

Never imports codegen or engine. Its public face is below; other layers import these
names from `cardgame.interpreter.lang`, not from its modules.
"""

from . import ast
from .ast import walk_stmts
from .check import check
from .loader import Loaded, bundled_dir, bundled_names, load, resolve_game
from .parser import lark_parser, parse
from .program import Checked, Program
from .types import elem

__all__ = ["Checked", "Loaded", "Program", "ast", "bundled_dir", "bundled_names", "check", "elem",
           "lark_parser", "load", "parse", "resolve_game", "walk_stmts"]
