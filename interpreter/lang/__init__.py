"""The front end: text -> parse tree -> AST -> loaded declarations -> checked program.

Never imports codegen or engine. Its public face is below; other layers import these
names from `cardgame.interpreter.lang`, not from its modules.
"""

from . import ast
from .checker import Checked, check, elem, walk_stmts
from .loader import Loaded, bundled_dir, bundled_names, load, resolve_game
from .parser import lark_parser, parse

__all__ = ["Checked", "Loaded", "ast", "bundled_dir", "bundled_names", "check", "elem",
           "lark_parser", "load", "parse", "resolve_game", "walk_stmts"]
