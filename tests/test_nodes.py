"""lang/nodes.py builds the AST's classes from their attrs declarations, cheaply: each
class must behave as attrs would build it (fields, constructor, equality without spans,
hash, repr, pickling, frozenness, attrs.fields/evolve/has), and a declaration nodes.py
does not support is handed to attrs."""

from __future__ import annotations

import inspect
import pickle
import re
import types
from pathlib import Path
from typing import Any

import attrs
import pytest
from attrs.exceptions import FrozenInstanceError
from cardgame.interpreter.errors import Span
from cardgame.interpreter.lang import ast as A
from cardgame.interpreter.lang import nodes

AST_PY = Path(A.__file__)


def _attrs_built() -> types.ModuleType:
    """ast.py's declarations built by attrs itself (the type checker's view)."""
    src = AST_PY.read_text()
    assert "if TYPE_CHECKING:\n    import attrs" in src
    mod = types.ModuleType("cardgame.interpreter.lang.ast_by_attrs")
    mod.__package__ = "cardgame.interpreter.lang"
    exec(compile(src.replace("if TYPE_CHECKING:\n", "if True:\n", 1), str(AST_PY), "exec"),
         mod.__dict__)
    return mod


BY_ATTRS = _attrs_built()
CLASSES = sorted(name for name, c in vars(BY_ATTRS).items()
                 if isinstance(c, type) and attrs.has(c) and c.__module__ == BY_ATTRS.__name__)


def _sig(f: Any) -> str:
    return re.sub(r": '[^']*'", "", str(inspect.signature(f))).replace(" -> None", "").replace(" = ", "=")


def _field_rows(cls: type) -> list[str]:
    return [repr((a.name, a.default, a.eq, a.repr, a.kw_only, a.alias, a.inherited, a.init,
                  a.type)).replace("ast_by_attrs", "ast") for a in attrs.fields(cls)]


def _sample(mod: Any, cls: type) -> Any:
    return cls(**{a.alias: mod.Int(7) for a in attrs.fields(cls) if a.default is attrs.NOTHING})


def test_every_ast_class_is_built_by_nodes() -> None:
    assert len(CLASSES) > 60
    for name in CLASSES:
        assert "_nodes_spec" in getattr(A, name).__dict__, name


@pytest.mark.parametrize("name", CLASSES)
def test_a_node_class_is_what_attrs_would_build(name: str) -> None:
    ref, cls = getattr(BY_ATTRS, name), getattr(A, name)
    assert [b.__name__ for b in cls.__mro__] == [b.__name__ for b in ref.__mro__]
    assert _field_rows(cls) == _field_rows(ref)
    assert _sig(nodes._compile_init(cls)) == _sig(ref.__init__)
    assert cls.__match_args__ == ref.__match_args__
    assert cls.__slots__ == ref.__slots__
    assert cls.__doc__ == ref.__doc__
    x, y = _sample(A, cls), _sample(BY_ATTRS, ref)
    assert repr(x) == repr(y)
    assert pickle.loads(pickle.dumps(x)) == x
    assert attrs.evolve(x) == x
    with pytest.raises(FrozenInstanceError):
        x.span = None
    for p, v in vars(ref).items():
        if isinstance(v, property):
            assert isinstance(getattr(cls, p), property)


def test_equality_and_hash_ignore_spans_and_compare_fields() -> None:
    s = Span("f", 1, 2, 1, 3)
    a = A.Binary("+", A.Int(1, span=s), A.Name("x"), span=s)
    b = A.Binary("+", A.Int(1), A.Name("x"))
    assert a == b and hash(a) == hash(b) and not a != b
    assert a != A.Binary("-", A.Int(1), A.Name("x"))
    assert A.Int(1) != A.Bool(True)  # another class is never equal
    assert A.NoneLit() == A.NoneLit() and A.NoneLit() != A.Me()
    assert hash(A.NoneLit()) != hash(A.Me())
    assert a.span == s and A.Int(2).span == A.NOSPAN
    assert {a: 1}[b] == 1
    assert attrs.evolve(a, op="*") == A.Binary("*", A.Int(1), A.Name("x"))


def test_constructors_check_their_arguments() -> None:
    with pytest.raises(TypeError):
        A.WhenClause()  # a mandatory field
    with pytest.raises(TypeError):
        A.Int(1, 2)
    with pytest.raises(TypeError):
        A.Int(nope=1)
    assert A.Attr().obj == A.Expr() and A.Attr().obj is not A.Attr().obj  # a factory


def test_pickles_keep_spans() -> None:
    s = Span("f", 1, 2, 1, 3)
    m = A.Module("f", (A.GameDecl("g", span=s),), source="text")
    back = pickle.loads(pickle.dumps(m, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == m and back.decls[0].span == s and back.source == "text"


def test_what_nodes_does_not_support_goes_to_attrs() -> None:
    @nodes.frozen
    class Conv:
        n: int = nodes.field(default=0, converter=int)

    assert "_nodes_spec" not in Conv.__dict__ and Conv("3").n == 3

    @nodes.frozen
    class Sub(A.Expr):  # an attrs class on a nodes base
        k: int = nodes.field(default=0, converter=int)

    assert Sub("4").k == 4 and Sub("4") == Sub(4) and attrs.fields(Sub)[0].name == "span"

    @nodes.frozen
    class Plain(A.Expr):  # a nodes class written the attrs way
        k: int = 0
        m: A.Expr = nodes.field(factory=A.Expr)

    assert Plain(2) == Plain(2, A.Expr(), span=Span("f", 1, 1, 1, 1))
    assert repr(Plain(2)) == "Plain(k=2, m=Expr())"

    @nodes.frozen
    class Fac:
        a: list[int] = nodes.field(default=attrs.Factory(list))
        b: list[int] = attrs.Factory(list)

    assert Fac().a == [] and Fac().b == [] and Fac().a is not Fac().a

    with pytest.raises(ValueError):
        @nodes.frozen
        class Bad:
            a: int = 0
            b: int
