"""lang/nodes.py builds the AST's classes from their attrs declarations, cheaply: each
class must behave as attrs would build it (fields, constructor, equality without spans,
hash, repr, pickling, frozenness, attrs.fields/evolve/has), and a declaration nodes.py
does not support is handed to attrs."""

from __future__ import annotations

import importlib
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
    for a in attrs.fields(ref):  # the fields by name, as attrs' (`attrs.fields(C).span`)
        assert getattr(attrs.fields(cls), a.name).name == a.name
    x, y = _sample(A, cls), _sample(BY_ATTRS, ref)
    assert repr(x) == repr(y)
    z = cls.__new__(cls)
    nodes._compile_init(cls)(z, **{a.alias: getattr(x, a.name) for a in attrs.fields(cls)})
    assert z == x and _values(z) == _values(x)  # (spans and all)
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


# ------------------------------------------------- the other modules' attrs classes
# The front end's, code generator's and engine's own records (Program, Frame, Local, the
# flow graph's nodes, Event...) are built by nodes.py too, `define` as well as `frozen`:
# attrs' per-class compile was most of the remaining import time of `cardgame check`.
INTERPRETER = Path(A.__file__).resolve().parent.parent
USERS = sorted(p for p in INTERPRETER.rglob("*.py")
               if re.search(r"^    from \.+(lang)? import nodes as attrs$",
                            p.read_text(encoding="utf-8"), re.M)
               and p.name != "ast.py")


def _by_attrs(path: Path) -> tuple[types.ModuleType, types.ModuleType]:
    """(the module as imported, its declarations built by attrs itself)."""
    rel = path.relative_to(INTERPRETER).with_suffix("").parts
    name = ".".join(("cardgame.interpreter", *rel))
    real = importlib.import_module(name)
    src = path.read_text(encoding="utf-8")
    mod = types.ModuleType(name + "_by_attrs")
    mod.__package__ = name.rpartition(".")[0]
    exec(compile(src.replace("if TYPE_CHECKING:\n    import attrs", "if True:\n    import attrs",
                             1), str(path), "exec"), mod.__dict__)
    return real, mod


def _default(a: Any) -> Any:
    d = a.default
    if isinstance(d, attrs.Factory):  # type: ignore[arg-type]
        return ("factory", getattr(d.factory, "__qualname__", repr(d.factory)), d.takes_self)
    return repr(d)


def _rows(cls: type) -> list[Any]:
    return [(a.name, _default(a), a.eq, a.repr, a.kw_only, a.alias, a.inherited, a.init,
             a.type, a.hash, a.order) for a in attrs.fields(cls)]


def _repr(x: Any) -> str:
    return re.sub(r" at 0x[0-9a-f]+", "", repr(x)).replace("_by_attrs", "")


def _values(x: Any) -> list[str]:
    return [_repr(getattr(x, a.name)) for a in attrs.fields(type(x))]


def _classes(mod: types.ModuleType) -> list[str]:
    return sorted(n for n, c in vars(mod).items()
                  if isinstance(c, type) and attrs.has(c) and c.__module__ == mod.__name__)


def test_the_records_of_every_layer_are_built_by_nodes() -> None:
    assert len(USERS) >= 15
    count = 0
    for path in USERS:
        real, _ = _by_attrs(path)
        for name in _classes(real):
            assert "_nodes_spec" in getattr(real, name).__dict__, f"{path.name}: {name}"
            count += 1
    assert count >= 35


@pytest.mark.parametrize("path", USERS, ids=lambda p: p.name)
def test_each_record_is_what_attrs_would_build(path: Path) -> None:
    real, ref_mod = _by_attrs(path)
    names = _classes(real)
    assert names == _classes(ref_mod)
    for name in names:
        cls, ref = getattr(real, name), getattr(ref_mod, name)
        assert [b.__name__ for b in cls.__mro__] == [b.__name__ for b in ref.__mro__], name
        assert _rows(cls) == _rows(ref), name
        assert _sig(nodes._compile_init(cls)) == _sig(ref.__init__), name
        assert cls.__match_args__ == ref.__match_args__, name
        assert cls.__slots__ == ref.__slots__, name
        assert cls.__doc__ == ref.__doc__, name
        assert (cls.__hash__ is None) == (ref.__hash__ is None), name
        for a in attrs.fields(ref):  # by name, as attrs' (`attrs.fields(Frame).env`)
            assert getattr(attrs.fields(cls), a.name).name == a.name, name
        args = {a.alias: 7 for a in attrs.fields(ref) if a.default is attrs.NOTHING}
        x, y = cls(**args), ref(**args)
        assert _repr(x) == _repr(y), name
        z = cls.__new__(cls)
        nodes._compile_init(cls)(z, **args)  # what the first calls bound, compiled
        assert _values(z) == _values(x), name
        back = pickle.loads(pickle.dumps(x))  # (a NodeTable compares by identity)
        assert _values(back) == _values(x), name
        assert attrs.evolve(x) == x, name
        if not attrs.fields(cls):
            continue
        first = attrs.fields(cls)[0].name
        if cls.__hash__ is not None:  # frozen: hashable when its values are
            try:
                hash(y)
            except TypeError:  # a dict field (Constants)
                with pytest.raises(TypeError):
                    hash(x)
            else:
                assert hash(x) == hash(cls(**args))
            with pytest.raises(FrozenInstanceError):
                setattr(x, first, 8)
        else:
            with pytest.raises(TypeError):
                hash(x)
            setattr(x, first, 8)
            setattr(y, first, 8)
            assert getattr(x, first) == 8 and _repr(x) == _repr(y)
            assert (x == cls(**args)) == (y == ref(**args))


def test_define_builds_mutable_records() -> None:
    @nodes.define
    class Rec:
        a: int
        b: list[int] = nodes.Factory(list)
        c: dict[str, int] = nodes.field(factory=dict, repr=False)
        d: str = nodes.field(default="x", eq=False)

    assert "_nodes_spec" in Rec.__dict__ and Rec.__hash__ is None
    r = Rec(1)
    assert r.b == [] and r.b is not Rec(1).b and r.c == {} and repr(r) == "Rec(a=1, b=[], d='x')"
    r.a = 2
    r.b.append(3)
    assert r == Rec(2, [3], d="y") and r != Rec(2) and not hasattr(r, "__dict__")
    with pytest.raises(TypeError):
        hash(r)
    with pytest.raises(AttributeError):
        r.e = 1  # type: ignore[attr-defined]  # slotted
    assert attrs.evolve(r, a=5) == Rec(5, [3]) and attrs.evolve(r, a=5).b is r.b

    @nodes.define
    class Sub(Rec):
        e: int = 0

    assert "_nodes_spec" in Sub.__dict__ and Sub(1, e=2) == Sub(1, [], {}, "z", 2)
    assert repr(Sub(1)) == "Sub(a=1, b=[], d='x', e=0)"


def test_what_define_does_not_support_goes_to_attrs() -> None:
    @nodes.define
    class Base:
        a: int = 0

        def f(self) -> int:
            return self.a

    @nodes.define
    class Super(Base):  # zero-argument super(): attrs rewrites the class cell
        def f(self) -> int:
            return super().f() + 1

    @nodes.define
    class Own:  # a method of its own that attrs would keep
        a: int = 0

        def __repr__(self) -> str:
            return "mine"

    @nodes.frozen
    class Frozen:
        a: int = 0

    @nodes.define
    class Thawed(Frozen):  # another mutability than its base's
        b: int = 0

    assert "_nodes_spec" not in Super.__dict__ and Super(2).f() == 3
    assert "_nodes_spec" not in Own.__dict__ and repr(Own()) == "mine" and Own() == Own()
    assert "_nodes_spec" not in Thawed.__dict__


def _fresh() -> Any:
    @nodes.define
    class Rec:
        a: int
        b: list[int] = nodes.Factory(list)
        c: Any = nodes.field(default=None, repr=False)
        d: str = nodes.field(default="x", kw_only=True)
        _e: int = 5

    return Rec


def test_the_first_constructions_bind_in_python_then_init_is_compiled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    real_compile = nodes._compile_init

    def spy(cls: type) -> Any:
        compiled.append(cls.__name__)
        return real_compile(cls)

    monkeypatch.setattr(nodes, "_compile_init", spy)
    Rec = _fresh()
    lazy = Rec.__dict__["__init__"]
    made = [Rec(1), Rec(a=2, e=3), Rec(1, [7], d="y"), Rec(1, attrs.NOTHING, attrs.NOTHING)]
    assert compiled == [] and Rec.__dict__["__init__"] is lazy  # made a few times: no compile

    def by_compiled(*args: Any, **kw: Any) -> Any:
        obj = Rec.__new__(Rec)
        real_compile(Rec)(obj, *args, **kw)
        return obj

    for x, (args, kw) in zip(made, [((1,), {}), ((), {"a": 2, "e": 3}), ((1, [7]), {"d": "y"}),
                                    ((1, attrs.NOTHING, attrs.NOTHING), {})], strict=True):
        y = by_compiled(*args, **kw)
        assert (x.a, x.b, x.c, x.d, x._e) == (y.a, y.b, y.c, y.d, y._e)
    assert made[0].b is not made[1].b and made[3].b == [] and made[3].c is attrs.NOTHING
    for _ in range(nodes._WARM):
        Rec(0)
    assert compiled == ["Rec"] and Rec.__dict__["__init__"] is not lazy
    assert Rec(4).a == 4 and compiled == ["Rec"]


@pytest.mark.parametrize("args,kw", [((), {}), ((1, 2, 3, 4, 5), {}), ((1,), {"a": 1}),
                                     ((1,), {"f": 1}), ((1,), {"_e": 1}), ((1, 2, 3), {"d": 1, "x": 2})])
def test_a_call_the_binding_refuses_raises_as_the_compiled_init(args: tuple[Any, ...],
                                                                kw: dict[str, Any]) -> None:
    Rec = _fresh()
    with pytest.raises(TypeError) as compiled:
        nodes._compile_init(Rec)(Rec.__new__(Rec), *args, **kw)
    with pytest.raises(TypeError) as first:
        Rec(*args, **kw)
    assert str(first.value) == str(compiled.value)


def test_the_attrs_fields_are_made_when_first_read() -> None:
    @nodes.frozen
    class P:
        a: int = 0
        b: str = nodes.field(default="", eq=False)

    @nodes.frozen
    class Q(P):
        c: int = 1

    assert isinstance(P.__dict__["__attrs_attrs__"], nodes._Fields)  # not made yet

    class Plain(Q):  # not an attrs class: reads its bases' fields
        pass

    assert [(f.name, f.eq, f.inherited) for f in attrs.fields(Plain)] == [
        ("a", True, True), ("b", False, True), ("c", True, False)]
    made = Q.__dict__["__attrs_attrs__"]  # made once, kept in its place
    assert isinstance(made, tuple) and not isinstance(made, nodes._Fields)
    assert made.c is made[2] and made.a.name == "a"  # read by name too, as attrs' are
    assert isinstance(P.__dict__["__attrs_attrs__"], nodes._Fields)
    assert [f.name for f in attrs.fields(P)] == ["a", "b"] and attrs.has(P)
    assert P(1).__attrs_attrs__ is attrs.fields(P)
    assert attrs.evolve(Q(1, "x", 2), c=3) == Q(1, "y", 3)
