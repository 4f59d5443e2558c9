"""Cheap attrs classes: `frozen`, `define` and `field`, as attrs spells them.

ast.py declares ~90 node classes with `@attrs.frozen`, and the front end, code generator
and engine some 40 records of their own (`Program`, `Frame`, `Local`, `Event`...) with
`@attrs.define` or `@attrs.frozen`. attrs builds each class by writing and compiling the
source of its methods: about half a millisecond per class, most of the import time of a
short command (`cardgame check`, issue 12). At run time those modules take `frozen`,
`define` and `field` from here instead (type checkers still see attrs, whose plugin types
the constructors), and a class costs a few microseconds:

- `__eq__`, `__hash__` and `__repr__` are shared closures over an `operator.attrgetter`
  of the class's fields, with attrs' semantics (same class only; fields with `eq=False`
  or `repr=False` left out; the hash salted by the class; a `define` class is mutable,
  so unhashable, and its `__init__` assigns plainly);
- `__init__` is written and compiled as attrs writes it, but only once the class was
  constructed a few times (the first calls bind their arguments in Python): a command
  that loads its files' ASTs from the cache (unpickling calls no `__init__`) compiles
  none, and the records made once per command (the Program, the flow graph) none;
- `__attrs_attrs__` holds real `attrs.Attribute`s (made when first read), so that
  `attrs.fields`, `attrs.has` and `attrs.evolve` work on them as before; setting an
  attribute of a frozen one raises attrs' `FrozenInstanceError`; pickles are a class and
  a tuple of field values.

A declaration this module does not support (a validator, a converter, `super()` in a
method, a method attrs would write but the class writes itself, decorator arguments, a
base of the other mutability) is handed to attrs itself, so a class written the attrs way
always works; it is only slower to create. tests/test_nodes.py compares every class built
here with the one attrs builds from the same declaration.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import attrs
from attrs.exceptions import FrozenInstanceError

_MISSING = attrs.NOTHING
_FACTORY: Any = attrs.Factory  # a class at run time (the stub declares a function)
_SETATTR = object.__setattr__


class _Field:
    """What `field(...)` returns inside a class body: read once by `frozen`."""

    __slots__ = ("default", "factory", "eq", "repr", "kw_only")

    def __init__(self, default: Any, factory: Any, eq: bool, repr: bool, kw_only: bool) -> None:
        self.default = default
        self.factory = factory
        self.eq = eq
        self.repr = repr
        self.kw_only = kw_only


_SUPPORTED = frozenset({"default", "factory", "eq", "repr", "kw_only"})


def field(**kw: Any) -> Any:
    """`attrs.field` for the options the AST uses; any other option gets attrs' own field
    (and its class is then built by attrs)."""
    default = kw.get("default", _MISSING)
    if isinstance(default, _FACTORY) and "factory" not in kw and not default.takes_self:
        kw = {**kw, "factory": default.factory}  # `default=attrs.Factory(list)`
        del kw["default"]
    if (not set(kw) <= _SUPPORTED or ("default" in kw and "factory" in kw)
            or isinstance(kw.get("default"), _FACTORY)):
        return attrs.field(**kw)
    return _Field(kw.get("default", _MISSING), kw.get("factory"), kw.get("eq", True),
                  kw.get("repr", True), kw.get("kw_only", False))


def fields(cls: type) -> Any:
    return attrs.fields(cls)


evolve = attrs.evolve  # (read often by the code generator: no module __getattr__ call)
Factory = attrs.Factory


def __getattr__(name: str) -> Any:  # anything else attrs offers (evolve, has, Factory...)
    return getattr(attrs, name)


def _frozen_error(self: Any, *args: Any) -> None:
    raise FrozenInstanceError()


# Methods attrs writes or, when the class writes its own, keeps (auto_detect): such a
# class is left to attrs.
_OWN_METHODS = frozenset(("__init__", "__eq__", "__ne__", "__hash__", "__repr__", "__getstate__",
                          "__setstate__", "__setattr__", "__delattr__", "__lt__", "__le__", "__gt__",
                          "__ge__", "__attrs_pre_init__", "__attrs_post_init__", "__attrs_init__"))


def _own_fields(cls: type, is_frozen: bool) -> list[tuple[str, Any, _Field]] | None:
    """(name, annotation, spec) of the fields cls declares, or None when attrs must build
    the class (an attrs-only option, a method using super() or written by the class
    itself, an attrs base class, a base of the other mutability)."""
    d = cls.__dict__
    out = []
    for name, ann in d.get("__annotations__", {}).items():
        if isinstance(ann, str) and (ann.startswith("ClassVar") or ann.startswith("typing.ClassVar")):
            continue
        v = d.get(name, _MISSING)
        if isinstance(v, _FACTORY) and not v.takes_self:
            v = _Field(_MISSING, v.factory, True, True, False)  # `x: list = Factory(list)`
        if isinstance(v, _Field):
            spec = v
        elif type(v).__name__ == "_CountingAttr" or isinstance(v, _FACTORY):
            return None  # attrs.field(...) with other options, or a Factory default
        else:
            spec = _Field(v, None, True, True, False)
        out.append((name, ann, spec))
    if not d.keys().isdisjoint(_OWN_METHODS):
        return None
    for v in d.values():
        closure = getattr(v, "__closure__", None) or getattr(getattr(v, "fget", None), "__closure__", None)
        if closure is not None:  # zero-argument super() needs attrs' cell rewriting
            return None
    for b in cls.__mro__[1:-1]:
        if "__attrs_attrs__" in b.__dict__ and ("_nodes_spec" not in b.__dict__
                                                or b.__dict__["_nodes_frozen"] != is_frozen):
            return None
    return out


def frozen(maybe_cls: type | None = None, **options: Any) -> Any:
    """`attrs.frozen` for a plain class declaration; with options, attrs' own."""
    return _decorate(maybe_cls, options, True)


def define(maybe_cls: type | None = None, **options: Any) -> Any:
    """`attrs.define` (mutable, slotted, compared by value, unhashable) for a plain class
    declaration; with options, attrs' own."""
    return _decorate(maybe_cls, options, False)


def _decorate(maybe_cls: type | None, options: dict[str, Any], is_frozen: bool) -> Any:
    by_attrs = attrs.frozen if is_frozen else attrs.define
    if maybe_cls is None or options:
        return by_attrs(maybe_cls, **options)
    own = _own_fields(maybe_cls, is_frozen)
    if own is None:
        for name, v in list(maybe_cls.__dict__.items()):  # our field() specs, for attrs
            if isinstance(v, _Field):
                setattr(maybe_cls, name, _to_attrs(v))
        return by_attrs(maybe_cls)
    return _build(maybe_cls, own, is_frozen)


def _to_attrs(f: _Field) -> Any:
    kw: dict[str, Any] = {"eq": f.eq, "repr": f.repr, "kw_only": f.kw_only}
    if f.factory is not None:
        kw["factory"] = f.factory
    elif f.default is not _MISSING:
        kw["default"] = f.default
    return attrs.field(**kw)


def _attribute(name: str, ann: Any, f: _Field, inherited: bool) -> Any:
    default = attrs.Factory(f.factory) if f.factory is not None else f.default
    make: Any = attrs.Attribute  # its stub declares no constructor
    return make(name=name, default=default, validator=None, repr=f.repr, cmp=None,
                hash=None, init=True, inherited=inherited, type=ann,
                kw_only=f.kw_only, eq=f.eq, alias=name.lstrip("_"))


class _Fields:
    """A class's `__attrs_attrs__`, made when first read (by attrs.fields, attrs.evolve,
    attrs.has, or attrs building a subclass) and then stored in its place: an
    `attrs.Attribute` costs a few microseconds, a millisecond over the AST's classes, and
    most commands read the fields of a few classes only."""

    __slots__ = ("specs", "own")

    def __init__(self, specs: tuple[tuple[str, Any, _Field], ...], own: frozenset[str]) -> None:
        self.specs = specs
        self.own = own

    def __get__(self, obj: Any, owner: type | None = None) -> tuple[Any, ...]:
        holder = next(c for c in (owner or type(obj)).__mro__
                      if c.__dict__.get("__attrs_attrs__") is self)
        # as attrs makes it: a tuple whose fields are also read by name
        # (`attrs.fields(Frame).env`)
        names = [n for n, _, _ in self.specs]
        by_name = type(f"{holder.__name__}Attributes", (tuple,), {
            "__slots__": (), **{n: property(operator.itemgetter(i)) for i, n in enumerate(names)}})
        fields = by_name(_attribute(n, a, s, n not in self.own) for n, a, s in self.specs)
        type.__setattr__(holder, "__attrs_attrs__", fields)
        return fields


def _build(cls: type, own: list[tuple[str, Any, _Field]], is_frozen: bool) -> type:
    inherited: list[tuple[str, Any, _Field]] = []
    seen = {name for name, _, _ in own}
    for b in reversed(cls.__mro__[1:-1]):  # as attrs collects: the farthest base first
        for name, ann, spec in b.__dict__.get("_nodes_spec", ()):
            if name not in seen:
                inherited = [x for x in inherited if x[0] != name]
                inherited.append((name, ann, spec))
    specs = [*inherited, *own]
    order = [x for x in specs if not x[2].kw_only]
    has_default = False
    for name, _, spec in order:
        if spec.default is not _MISSING or spec.factory is not None:
            has_default = True
        elif has_default:
            raise ValueError(f"No mandatory attributes allowed after an attribute with a "
                             f"default value or factory.  Attribute in question: {name!r}")
    names = tuple(name for name, _, _ in specs)
    own_names = [name for name, _, _ in own]
    base_slots = {s for b in cls.__mro__[1:] for s in b.__dict__.get("__slots__", ())}
    cd = {k: v for k, v in cls.__dict__.items()
          if k not in own_names and k not in ("__dict__", "__weakref__")}
    slots = [n for n in own_names if n not in base_slots]
    if "__weakref__" not in base_slots and not any(
            "__weakref__" in b.__dict__ for b in cls.__mro__[1:-1]):
        slots.append("__weakref__")
    cd["__slots__"] = tuple(slots)
    cd["__qualname__"] = cls.__qualname__
    cd["_nodes_spec"] = tuple(specs)
    cd["_nodes_frozen"] = is_frozen
    cd["__attrs_attrs__"] = _Fields(tuple(specs), frozenset(own_names))
    cd["__match_args__"] = tuple(n for n, _, s in specs if not s.kw_only)

    eq_get = _getter(tuple(n for n, _, s in specs if s.eq))
    salt = hash(f"cardgame node {cls.__module__}.{cls.__qualname__}")
    cd["__eq__"] = _make_eq(eq_get)
    cd["__ne__"] = _make_ne(eq_get)
    cd["__repr__"] = _make_repr(tuple(n for n, _, s in specs if s.repr))
    if is_frozen:
        cd["__hash__"] = _make_hash(eq_get, salt)
        cd["__setattr__"] = _frozen_error
        cd["__delattr__"] = _frozen_error
    else:  # as attrs: compared by value and mutable, so unhashable
        cd["__hash__"] = None
    cd["__getstate__"] = _make_getstate(_getter(names, tuple_always=True))
    cd["__setstate__"] = _make_setstate(names)
    new = type(cls)(cls.__name__, cls.__bases__, cd)
    type.__setattr__(new, "__init__", _lazy_init(new))
    return new


def _getter(names: tuple[str, ...], tuple_always: bool = False) -> Callable[[Any], Any]:
    if not names:
        return lambda _self: ()
    if len(names) == 1 and tuple_always:
        get1 = operator.attrgetter(names[0])
        return lambda self: (get1(self),)
    return operator.attrgetter(*names)


def _make_eq(get: Callable[[Any], Any]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return get(self) == get(other)
    return __eq__


def _make_ne(get: Callable[[Any], Any]) -> Callable[[Any, Any], Any]:
    def __ne__(self: Any, other: Any) -> Any:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return get(self) != get(other)
    return __ne__


def _make_hash(get: Callable[[Any], Any], salt: int) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash((salt, get(self)))
    return __hash__


def _make_repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{self.__class__.__qualname__.rsplit('>.', 1)[-1]}({inner})"
    return __repr__


def _make_getstate(get: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], tuple[Any, ...]]:
    def __getstate__(self: Any) -> tuple[Any, ...]:
        return get(self)
    return __getstate__


def _make_setstate(names: tuple[str, ...]) -> Callable[[Any, Any], None]:
    def __setstate__(self: Any, state: Any) -> None:
        for n, v in zip(names, state, strict=True):
            _SETATTR(self, n, v)
    return __setstate__


# Constructions of a class that bind their arguments in Python before its `__init__` is
# compiled (about 0.1 ms a class): a short command makes most records a few times only
# (the Program, the deck, the flow graph), the code generator's Frames and Locals hundreds.
_WARM = 24


def _lazy_init(cls: type) -> Callable[..., None]:
    """cls's `__init__`: its first _WARM calls bind their arguments here, then it compiles
    the real one (as attrs writes it) and puts it in its place. A call this binding does
    not take as is (a missing or unknown argument, one given twice, too many) goes to the
    compiled one at once, which raises as attrs' does."""
    fields = [(name, name.lstrip("_"), spec) for name, _, spec in cls.__dict__["_nodes_spec"]]
    positional = [alias for _, alias, spec in fields if not spec.kw_only]
    aliases = frozenset(alias for _, alias, _ in fields)
    required = frozenset(alias for _, alias, spec in fields
                         if spec.default is _MISSING and spec.factory is None)
    put = _SETATTR if cls.__dict__["_nodes_frozen"] else setattr
    calls = 0

    def __init__(self: Any, *args: Any, **kw: Any) -> None:
        nonlocal calls
        calls += 1
        if calls <= _WARM and len(args) <= len(positional) and aliases.issuperset(kw):
            # (fewer positional arguments than fields: the rest are named or defaulted)
            given = dict(zip(positional, args, strict=False))
            if given.keys().isdisjoint(kw):
                given.update(kw)
                if required.issubset(given):
                    for name, alias, spec in fields:
                        v = given.get(alias, _MISSING)
                        if v is _MISSING:  # (as compiled: NOTHING given calls a factory)
                            if spec.factory is not None:
                                v = spec.factory()
                            elif alias not in given:
                                v = spec.default
                        put(self, name, v)
                    return
        real = _compile_init(cls)
        type.__setattr__(cls, "__init__", real)
        real(self, *args, **kw)
    return __init__


def _compile_init(cls: type) -> Callable[..., None]:
    specs = cls.__dict__["_nodes_spec"]
    params: list[str] = []
    kw_params: list[str] = []
    body: list[str] = []
    glob: dict[str, Any] = {"_setattr": _SETATTR, "NOTHING": _MISSING}
    # as attrs writes it: a frozen class sets through object.__setattr__, a mutable one
    # plainly
    put = ("    _setattr(self, {name!r}, {value})" if cls.__dict__["_nodes_frozen"]
           else "    self.{name} = {value}")
    for name, _, spec in specs:
        arg = name.lstrip("_")
        if spec.factory is not None:
            glob[f"_factory_{name}"] = spec.factory
            p = f"{arg}=NOTHING"
            body.append(put.format(name=name,
                                   value=f"_factory_{name}() if {arg} is NOTHING else {arg}"))
        else:
            if spec.default is not _MISSING:
                glob[f"_default_{name}"] = spec.default
                p = f"{arg}=_default_{name}"
            else:
                p = arg
            body.append(put.format(name=name, value=arg))
        (kw_params if spec.kw_only else params).append(p)
    sig = ", ".join(["self", *params, *(["*", *kw_params] if kw_params else [])])
    src = f"def __init__({sig}):\n" + ("\n".join(body) or "    pass") + "\n"
    code = compile(src, f"<node init {cls.__module__}.{cls.__qualname__}>", "exec")
    ns: dict[str, Any] = {}
    exec(code, glob, ns)
    init: Callable[..., None] = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init
