"""The Lark parser, built once per grammar and kept in the user's cache directory.

Building the LALR table takes about 0.2-0.5 s, most of a short command's time; loading
Lark's serialised parser takes a tenth of that. The file is keyed by a hash of the
grammar text, the parser options, Lark's version and Python's, so an edited grammar or an
upgraded Lark never loads a stale table. The cache lives in `$XDG_CACHE_HOME/cardgame`
(default `~/.cache/cardgame`), never beside the package: an installed package may be
read-only. Every failure (no home, an unwritable or corrupt cache) falls back silently to
building the parser in memory; a cache can make a command faster, never break it.

module_cache.py keeps a game file's AST the same way.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

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
           load: Callable[[IO[bytes]], T], file: str | None = None, keep: int = 0) -> T:
    """`load` the object stored under `key`, or `build` it and `save` it for next time.

    parser.py passes Lark's own serialisation (`Lark.save`/`Lark.load`): this module
    knows files, not Lark. The file is named by the key, or by `file` when one file holds
    successive versions of one thing (a game file's AST as the file is edited). With
    `keep`, writing a file removes the oldest files of its kind (the name up to its first
    '-') beyond that many, so that the cache stays small."""
    path = cache_path(key, file)
    if path is not None:
        loaded: T | None = _read(path, key, load)
        if loaded is not None:
            return loaded
    obj = build()
    if path is not None:
        _write(path, key, obj, save)
        if keep:
            _prune(path.parent, path.name.split("-", 1)[0], keep)
    return obj


def _header(key: str) -> bytes:
    return _FORMAT + b" " + key.encode() + b"\n"


def _trusted(path: Path) -> bool:
    """Load only files that nobody else could have written: a cache file holds a pickle,
    so it is as trusted as the code that reads it. As ssh does with its keys, the file
    and its directory must belong to this user and be writable by nobody else."""
    if not hasattr(os, "getuid"):  # no POSIX owners (Windows): a per-user profile dir
        return True
    uid = os.getuid()
    for p in (path, path.parent):
        st = p.stat()
        if st.st_uid != uid or st.st_mode & 0o022:
            return False
    return True


def _read(path: Path, key: str, load: Callable[[IO[bytes]], Any]) -> Any:
    try:
        if not _trusted(path):
            return None
        with open(path, "rb") as f:
            if f.readline() != _header(key):
                return None
            return load(f)
    except Exception:  # a missing, truncated or foreign file: build instead
        return None


def _write(path: Path, key: str, obj: T, save: Callable[[T, IO[bytes]], None]) -> None:
    """Write to a temporary file and rename it: a reader never sees half a file."""
    import tempfile  # (only when writing: a warm command never imports it)

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



def _prune(d: Path, kind: str, keep: int) -> None:
    try:
        files = sorted(d.glob(f"{kind}-*.pickle"), key=lambda p: p.stat().st_mtime_ns)
        for p in files[:-keep]:
            p.unlink()
    except OSError:  # another process pruned first, or the directory is read-only
        pass
