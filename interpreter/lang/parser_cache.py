"""The Lark parser and the parsed game files, kept in the user's cache directory.

Building the LALR table takes about 0.2-0.5 s, most of a short command's time; loading
Lark's serialised parser takes a tenth of that. The file is keyed by a hash of the
grammar text, the parser options, Lark's version and Python's, so an edited grammar or an
upgraded Lark never loads a stale table. The cache lives in `$XDG_CACHE_HOME/cardgame`
(default `~/.cache/cardgame`), never beside the package: an installed package may be
read-only. Every failure (no home, an unwritable or corrupt cache) falls back silently to
building the parser in memory; a cache can make a command faster, never break it.

A game file's AST is kept the same way (`cached_module`), keyed by its text, its
display name and a hash of the front end's code and grammar, one file per game file.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

from . import ast as A

T = TypeVar("T")

# A format tag: bump it when what is written changes.
_FORMAT = b"cardgame-parser-1"


def cache_dir() -> Path | None:
    """`$XDG_CACHE_HOME/cardgame`, else `~/.cache/cardgame`; None without a home."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base and os.path.isabs(base):
        return Path(base) / "cardgame"
    try:
        home = Path.home()
    except (RuntimeError, KeyError, OSError):
        return None
    return home / ".cache" / "cardgame"


def cache_key(*parts: str) -> str:
    """A hash of everything the cached object depends on (with Python's version)."""
    text = "\0".join([*parts, f"{sys.version_info[0]}.{sys.version_info[1]}", _FORMAT.decode()])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_path(key: str, file: str | None = None) -> Path | None:
    d = cache_dir()
    return None if d is None else d / f"{file or 'parser-' + key[:32]}.pickle"


def cached(key: str, build: Callable[[], T], save: Callable[[T, IO[bytes]], None],
           load: Callable[[IO[bytes]], T], file: str | None = None) -> T:
    """`load` the object stored under `key`, or `build` it and `save` it for next time.

    parser.py passes Lark's own serialisation (`Lark.save`/`Lark.load`): this module
    knows files, not Lark. The file is named by the key, or by `file` when one file holds
    successive versions of one thing (a game file's AST as the file is edited)."""
    path = cache_path(key, file)
    if path is not None:
        loaded: T | None = _read(path, key, load)
        if loaded is not None:
            return loaded
    obj = build()
    if path is not None:
        _write(path, key, obj, save)
    return obj


def _header(key: str) -> bytes:
    return _FORMAT + b" " + key.encode() + b"\n"


def _read(path: Path, key: str, load: Callable[[IO[bytes]], Any]) -> Any:
    try:
        with open(path, "rb") as f:
            if f.readline() != _header(key):
                return None
            return load(f)
    except Exception:  # a missing, truncated or foreign file: build instead
        return None


def _write(path: Path, key: str, obj: T, save: Callable[[T, IO[bytes]], None]) -> None:
    """Write to a temporary file and rename it: a reader never sees half a file."""
    tmp = None
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".parser-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(_header(key))
            save(obj, f)
        os.replace(tmp, path)
        tmp = None
    except Exception:  # unwritable, full, or read-only: the parser works uncached
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


# ---------------------------------------------------------------- parsed game files
@functools.lru_cache(maxsize=1)
def _front_end_fingerprint() -> str:
    """A hash of the grammar and of the code that turns text into an AST (every module of
    this package, and errors.py for spans): an edited front end never loads a stale AST."""
    here = Path(__file__).resolve().parent
    parts = [p.read_bytes() for p in sorted(here.glob("*.py"))]
    parts.append((here.parent / "errors.py").read_bytes())
    from .parser import grammar_text

    parts.append(grammar_text().encode("utf-8"))
    return hashlib.sha256(b"\0".join(parts)).hexdigest()


def cached_module(source: str, filename: str) -> A.Module:
    """`build_module(source, filename)`, from the cache when this text was parsed before.

    Parsing is most of `cardgame list` (every bundled game and the bases they extend);
    unpickling the AST takes a tenth of it. A file that does not parse raises as before
    and is never cached."""
    from .builder import build_module

    try:
        front = _front_end_fingerprint()
    except OSError:  # the package's sources are not readable files: no cache
        return build_module(source, filename)
    key = cache_key("module", front, filename, source)
    slot = "module-" + cache_key("module", front, filename)[:32]
    return cached(key, lambda: build_module(source, filename),
                  lambda m, f: pickle.dump(m, f, protocol=pickle.HIGHEST_PROTOCOL),
                  _load_module, file=slot)


def _load_module(f: IO[bytes]) -> A.Module:
    m = pickle.load(f)
    if not isinstance(m, A.Module):
        raise TypeError("not a module")
    return m
