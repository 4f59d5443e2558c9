"""Stage 3: find game files, follow `extends`, merge declarations.

A file that `extends` another replaces each declaration of the same kind and name
(a `def`, `move`, `zone`, `setup`, `flow`, ...) and adds the rest. `remove KIND NAME`
drops an inherited declaration. Loading reads only the named file and the files it
explicitly extends; nothing in a game file is ever executed as Python.

`use "NAME"` adds a prelude, `games/prelude/NAME.cardgame` (or a `.cardgame` file named by
its path, in the game's folder): shared declarations written in the language, such as the
trick-taking mechanics of `tricks`. A prelude's declaration is added only where neither the
game nor the game it extends declares the same kind and name, so a game overrides any piece
by declaring it, or drops it with `remove`. A prelude neither extends nor uses another.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from . import nodes as attrs

from ..errors import Diagnostic, did_you_mean
from . import ast as A
from .module_cache import cached_module, package_dir

MAX_EXTENDS_DEPTH = 16
MAX_FILE_BYTES = 1 << 20  # a game file is at most 1 MiB (docs/limits.md)
_BOM = b"\xef\xbb\xbf"


def bundled_dir() -> Path:
    return package_dir("cardgame.games")


def prelude_dir() -> Path:
    return bundled_dir() / "prelude"


def prelude_names() -> list[str]:
    return sorted(p.stem for p in prelude_dir().glob("*.cardgame"))


def bundled_names() -> list[str]:
    return sorted(p.stem for p in bundled_dir().glob("*.cardgame"))


def resolve_game(name_or_path: str) -> Path:
    """A bundled game name (`calculation`) or a path to a .cardgame file."""
    p = Path(name_or_path)
    if p.suffix == ".cardgame" or os.sep in name_or_path or "/" in name_or_path:
        if not p.exists():
            raise Diagnostic(f"no such game file: {name_or_path}", hint=_near_files(p))
        if not p.is_file():
            raise Diagnostic(f"{name_or_path} is not a game file (not a regular file)")
        if p.suffix != ".cardgame":
            # its contents are never shown: only a .cardgame file is read as a game
            raise Diagnostic(f"{name_or_path} is not a game file (its name does not end "
                             "in .cardgame)")
        return p
    bundled = bundled_dir() / f"{name_or_path}.cardgame"
    if bundled.is_file():
        return bundled
    if p.is_file():
        return p
    hint = did_you_mean(name_or_path, bundled_names())
    local = Path(f"{name_or_path}.cardgame")
    if local.is_file():
        # a bare name is a bundled game only (never silently a file here, which could
        # shadow one): say how to name the file
        hint = (f"did you mean ./{local}? (a bare name is a bundled game; give a file's "
                "path)" + (f"; or {hint}" if hint else ""))
    raise Diagnostic(f"unknown game '{name_or_path}'",
                     hint=hint or "run 'cardgame list' for the bundled games, or give a path")


def _near_files(p: Path) -> str:
    """A did-you-mean among the game files in the folder of a path that does not exist,
    written as the path was (`mygam.cardgame` -> 'mygame.cardgame')."""
    try:
        stems = [f.stem for f in itertools.islice(p.parent.glob("*.cardgame"), 1000)]
    except (OSError, ValueError):  # an unreadable folder, a path with no name
        return ""
    # the stems compared (every name ends in .cardgame, which would make any two alike)
    hint = did_you_mean(p.stem, stems)
    for stem in stems:
        hint = hint.replace(f"'{stem}'", f"'{p.with_name(stem + '.cardgame')}'")
    return hint


@attrs.frozen
class Loaded:
    """The merged declarations of a game, and the source text of every file read."""

    path: str
    decls: tuple[A.Decl, ...]
    sources: dict[str, str]
    chain: tuple[str, ...]  # the file and the files it extends, nearest first
    preludes: tuple[str, ...] = ()  # the preludes the chain uses (`use "tricks"`)


def _display_name(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if not rel.startswith("..") else str(path)


def read_text(path: Path, name: str) -> str:
    """A game file's text: a regular file of at most MAX_FILE_BYTES of UTF-8 (a BOM is
    skipped). The errors never show the contents of a file that is not a game file."""
    try:
        if not path.is_file():  # a FIFO would block, /dev/zero never end, a folder fail
            raise Diagnostic(f"cannot read {name}: not a regular file")
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise Diagnostic(f"cannot read {name}: {e.strerror or 'error'}") from None
    if len(data) > MAX_FILE_BYTES:
        raise Diagnostic(f"cannot read {name}: a game file is at most {MAX_FILE_BYTES:,} "
                         "bytes (1 MiB)")
    if data.startswith(_BOM):
        data = data[len(_BOM):]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        col = len(data[start:e.start].decode("utf-8", "replace")) + 1
        raise Diagnostic(f"this file is not UTF-8 text: byte 0x{data[e.start]:02x} cannot be "
                         "decoded", A.Span(name, line, col, line, col + 1),
                         "save the file as UTF-8") from None


def read_module(path: Path, sources: dict[str, str]) -> A.Module:
    name = _display_name(path)
    text = read_text(path, name)
    sources[name] = text
    try:
        return cached_module(text, name)  # parsed once per text (module_cache.py)
    except Diagnostic as d:
        d.source = text
        raise


def load(path: Path | str, sources: dict[str, str] | None = None,
         allowed: tuple[Path, ...] = (), home: Path | None = None) -> Loaded:
    """Read a game and the games it extends. An `extends` reads only files in the folder
    of `path`, in the bundled games, or in the folders of `allowed` (paths the user
    named), symlinks resolved. `home`: the folder the file's own relative `extends` and
    `use` are read from when it is not the file's folder (mutate compiles a copy of the
    text in a scratch folder, and its `extends "base"` means the base beside the
    original)."""
    sources = {} if sources is None else sources
    path = Path(path)
    chain: list[str] = []
    roots = (path, bundled_dir(), *allowed, *((home,) if home is not None else ()))
    folders = tuple((r.parent if r.suffix == ".cardgame" else r).resolve() for r in roots)
    used: list[str] = []
    decls = _load(path, sources, chain, 0, folders, used, home)
    return Loaded(_display_name(path), tuple(decls), sources, tuple(chain), tuple(used))


def _load(path: Path, sources: dict[str, str], chain: list[str], depth: int,
          folders: tuple[Path, ...], used: list[str], home: Path | None = None) -> list[A.Decl]:
    module = read_module(path, sources)
    # where this file's relative names are read from: its folder, unless told otherwise
    here = path.parent if home is None else home
    chain.append(module.file)
    extends = [d for d in module.decls if isinstance(d, A.Extends)]
    base: list[A.Decl] = []
    if len(extends) > 1:
        raise _at(Diagnostic("a game extends at most one other game", extends[1].span), sources)
    if extends:
        ext = extends[0]
        target = _find_base(ext, here, sources)
        real = target.resolve()
        if not any(real.is_relative_to(f) for f in folders):
            raise _at(Diagnostic(f"'{ext.target}' is outside the game's folder", ext.span,
                                 "a game extends a bundled game or a file in its own folder "
                                 "(symbolic links are followed)"), sources)
        if _display_name(target) in chain:
            cycle = " -> ".join([*chain, _display_name(target)])
            raise _at(Diagnostic(f"'{ext.target}' extends itself (a cycle of extends)",
                                 ext.span, f"the chain is {cycle}; a variant extends its "
                                 "base game, never the other way round"), sources)
        if depth >= MAX_EXTENDS_DEPTH:
            raise _at(Diagnostic(f"too many levels of 'extends' (at most {MAX_EXTENDS_DEPTH})",
                                 ext.span, f"{chain[0]} starts a chain of more than "
                                 f"{MAX_EXTENDS_DEPTH} games each extending the next"), sources)
        base = _load(target, sources, chain, depth + 1, folders, used)
    seen_uses: set[str] = set()
    for u in (d for d in module.decls if isinstance(d, A.Use)):
        if u.target in seen_uses:
            raise _at(Diagnostic(f"'{u.target}' is used twice", u.span,
                                 "a file uses a prelude once"), sources)
        seen_uses.add(u.target)
        base = _add_prelude(base, _load_prelude(u, here, sources, folders, used))
    own = [d for d in module.decls if not isinstance(d, (A.Extends, A.Use))]
    return merge(base, own, sources)


def _add_prelude(base: list[A.Decl], prelude: list[A.Decl]) -> list[A.Decl]:
    """The prelude's declarations that the game so far does not declare (same key)."""
    have = {_key(d) for d in base}
    return base + [d for d in prelude if _key(d) not in have]


def _load_prelude(u: A.Use, here: Path, sources: dict[str, str], folders: tuple[Path, ...],
                  used: list[str]) -> list[A.Decl]:
    target = u.target
    if "/" in target or "\\" in target or "." in Path(target).name:
        if not target.endswith(".cardgame"):
            raise _at(Diagnostic(f"'{target}' is not a game file", u.span,
                                 "use a bundled prelude by name ("
                                 + ", ".join(prelude_names()) + "), or a .cardgame file"),
                      sources)
        file = here / target
        if not file.is_file():
            raise _at(Diagnostic(f"cannot find the prelude '{target}'", u.span,
                                 "a path is read from the game's own folder"), sources)
        if not any(file.resolve().is_relative_to(f) for f in folders):
            raise _at(Diagnostic(f"'{target}' is outside the game's folder", u.span,
                                 "a game uses a bundled prelude or a file in its own folder "
                                 "(symbolic links are followed)"), sources)
    else:
        file = prelude_dir() / f"{target}.cardgame"
        if not file.is_file():
            raise _at(Diagnostic(f"unknown prelude '{target}'", u.span,
                                 did_you_mean(target, prelude_names())
                                 or "the bundled preludes: " + ", ".join(prelude_names())),
                      sources)
    module = read_module(file, sources)
    used.append(module.file)
    for d in module.decls:
        if isinstance(d, (A.Extends, A.Use)):
            word = "extends" if isinstance(d, A.Extends) else "uses"
            raise _at(Diagnostic(f"a prelude {word} nothing", d.span,
                                 "a prelude is a plain list of declarations; the game names "
                                 "each prelude it uses"), sources)
    return merge([], list(module.decls), sources)


def _find_base(ext: A.Extends, here: Path, sources: dict[str, str]) -> Path:
    target = ext.target
    candidates = []
    if "/" in target or "\\" in target or "." in Path(target).name:
        # only game files are read: a path must name a .cardgame file
        if not target.endswith(".cardgame"):
            raise _at(Diagnostic(f"'{target}' is not a game file", ext.span,
                                 "extend a bundled game by name, or a .cardgame file"), sources)
        candidates.append(here / target)
    else:
        candidates.append(here / f"{target}.cardgame")
        candidates.append(bundled_dir() / f"{target}.cardgame")
    for c in candidates:
        if c.is_file():
            return c
    hint = did_you_mean(target, bundled_names() + [p.stem for p in here.glob("*.cardgame")])
    raise _at(Diagnostic(f"cannot find game '{target}' to extend", ext.span,
                         hint or "name a bundled game or a .cardgame file next to this one"),
              sources)


_REMOVABLE = {
    "move": "MoveDecl", "def": "DefDecl", "proc": "ProcDecl", "zone": "ZoneDecl",
    "var": "VarDecl", "option": "OptionDecl", "invariant": "InvariantDecl", "end": "EndDecl",
    "limit": "LimitDecl", "auto": "AutoDecl", "example": "ExampleDecl",
}


_SINGLETONS = {"GameDecl:": "game", "About:": "about", "PlayersDecl:": "players",
               "DeckDecl:": "deck", "SetupDecl:": "setup", "FlowDecl:": "flow",
               "ScoreDecl:": "score", "ResultDecl:": "result", "LimitDecl:": "limit",
               "TableDecl:": "table"}


def merge(base: list[A.Decl], own: list[A.Decl], sources: dict[str, str]) -> list[A.Decl]:
    # Within one file a name is declared once; only an extending file replaces.
    seen: dict[str, A.Decl] = {}
    for d in own:
        if isinstance(d, A.RemoveDecl):
            continue
        k = _key(d)
        if k in seen:
            first = seen[k]
            what = _SINGLETONS.get(k) or f"'{k.split(':', 1)[1]}'"
            raise _at(Diagnostic(f"{what} is declared again (first at line {first.span.line})",
                                 d.span, "a name is declared once in a file; a variant that "
                                 "'extends' this game may replace it"), sources)
        seen[k] = d
    out = list(base)
    index = {_key(d): i for i, d in enumerate(out)}
    for d in own:
        if isinstance(d, A.RemoveDecl):
            kind = _REMOVABLE.get(d.kind)
            if kind is None:
                raise _at(Diagnostic(f"cannot remove a '{d.kind}'", d.span,
                                     "removable: " + ", ".join(sorted(_REMOVABLE))), sources)
            key = f"{kind}:{d.name}" if d.kind != "limit" else "LimitDecl:"
            if key not in index:
                names = [k.split(":", 1)[1] for k in index if k.startswith(kind + ":")]
                raise _at(Diagnostic(f"no inherited {d.kind} '{d.name}' to remove", d.span,
                                     did_you_mean(d.name, names)), sources)
            out[index.pop(key)] = d  # a tombstone keeps the other indices valid
            continue
        k = _key(d)
        if k in index:
            out[index[k]] = d
        else:
            index[k] = len(out)
            out.append(d)
    return [d for d in out if not isinstance(d, A.RemoveDecl)]


def _key(d: A.Decl) -> str:
    if isinstance(d, A.EndDecl) and not d.name:
        return f"EndDecl@{d.span}"  # unnamed end conditions accumulate
    return d.key


def _at(d: Diagnostic, sources: dict[str, str]) -> Diagnostic:
    if d.source is None:
        d.source = sources.get(d.span.file)
    return d
