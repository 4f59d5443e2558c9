"""Start-up: the parser cache and the imports a short command pays for (not timed here:
benchmarks/startup.py prints the times).

The LALR table is kept in the user's cache directory keyed by the grammar's hash; every
cache failure falls back silently; nothing is ever written inside the package; `list`
and `check` import neither the plotting, REPL, fuzzing nor cluster libraries.
Each test runs a fresh interpreter, so the lru caches of this process do not interfere.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import lark
import pytest
from cardgame.interpreter.lang.parser import _LARK_OPTIONS, grammar_text
from cardgame.interpreter.lang.parser_cache import cache_key, cached

ROOT = Path(__file__).resolve().parent.parent
CALCULATION = str(ROOT / "games" / "calculation.cardgame")

# Builds the parser and says whether it was loaded from the cache (Lark's constructor,
# which builds the table, never ran) and where the cache file is.
PROBE = """
import json, lark
built = []
init = lark.Lark.__init__
def spy(self, *a, **k):
    built.append(1)
    init(self, *a, **k)
lark.Lark.__init__ = spy
from cardgame.interpreter.lang import parse
from cardgame.interpreter.lang.parser import lark_parser
tree = parse('game "x"', "x.cardgame")
print(json.dumps({"built": bool(built), "terminals": len(lark_parser().terminals)}))
"""


def run_py(code: str, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "HOME")}
    full.update(env, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=full, cwd="/", timeout=120)


def probe(env: dict[str, str]) -> dict[str, object]:
    out = run_py(PROBE, env)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""  # a failing cache is silent
    result: dict[str, object] = json.loads(out.stdout)
    return result


def expected_file(cache_home: Path) -> Path:
    key = cache_key(grammar_text(), repr(sorted(_LARK_OPTIONS.items())), lark.__version__)
    return cache_home / "cardgame" / f"parser-{key[:32]}.pickle"


def test_the_parser_is_cached_in_the_user_cache_dir_and_reused(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path), "HOME": str(tmp_path / "home")}
    first = probe(env)
    assert first["built"]
    path = expected_file(tmp_path)
    assert [p.name for p in (tmp_path / "cardgame").iterdir()] == [path.name]
    stamp = path.stat().st_mtime_ns
    second = probe(env)
    assert not second["built"], "the second run rebuilt the LALR table"
    assert second["terminals"] == first["terminals"]
    assert path.stat().st_mtime_ns == stamp


def test_without_xdg_the_cache_is_under_home(tmp_path: Path) -> None:
    first = probe({"HOME": str(tmp_path)})
    assert first["built"]
    assert expected_file(tmp_path / ".cache").is_file()
    assert not probe({"HOME": str(tmp_path)})["built"]


def test_the_key_follows_the_grammar_and_lark_version() -> None:
    g = grammar_text()
    opts = repr(sorted(_LARK_OPTIONS.items()))
    key = cache_key(g, opts, lark.__version__)
    assert key == cache_key(g, opts, lark.__version__)
    assert key != cache_key(g + "\n// edited", opts, lark.__version__)
    assert key != cache_key(g, opts, lark.__version__ + ".1")


def test_a_corrupt_cache_is_rebuilt_silently(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    probe(env)
    path = expected_file(tmp_path)
    good = path.read_bytes()
    for junk in (b"", b"garbage\n", good[: len(good) // 2], good.splitlines()[0] + b"\nxx"):
        path.write_bytes(junk)
        assert probe(env)["built"]
        assert path.read_bytes()[:40] == good[:40]  # rewritten whole
    assert not probe(env)["built"]


@pytest.mark.parametrize("where", ["file", "home-file", "relative"])
def test_an_unusable_cache_dir_falls_back_silently(tmp_path: Path, where: str) -> None:
    # The tests may run as root, which ignores permissions: a path under a regular file
    # can be neither created nor written by anyone.
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    env = {"file": {"XDG_CACHE_HOME": str(blocker / "cache"), "HOME": str(blocker)},
           "home-file": {"HOME": str(blocker)},
           "relative": {"XDG_CACHE_HOME": "relative/dir", "HOME": str(blocker)}}[where]
    assert probe(env)["built"]
    assert probe(env)["built"]  # still works, still uncached
    assert blocker.read_text() == "x"


def test_cached_builds_once_and_loads_after(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    builds: list[int] = []

    def build() -> dict[str, int]:
        builds.append(1)
        return {"n": len(builds)}

    def save(obj: dict[str, int], f: object) -> None:
        f.write(json.dumps(obj).encode())  # type: ignore[attr-defined]

    def load(f: object) -> dict[str, int]:
        return json.loads(f.read())  # type: ignore[attr-defined,no-any-return]

    assert cached("k1", build, save, load) == {"n": 1}
    assert cached("k1", build, save, load) == {"n": 1}
    assert len(builds) == 1
    assert cached("k2", build, save, load) == {"n": 2}  # another key, another file
    assert len(list((tmp_path / "cardgame").iterdir())) == 2


@pytest.mark.parametrize("loose", ["file", "dir"])
def test_a_cache_file_others_could_write_is_not_loaded(tmp_path: Path, loose: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # A cache file is a pickle: loading one that another user could have written would run
    # their code. Group- or world-writable files or directories are rebuilt instead.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    builds: list[int] = []

    def build() -> int:
        builds.append(1)
        return len(builds)

    def save(obj: int, f: object) -> None:
        f.write(str(obj).encode())  # type: ignore[attr-defined]

    def load(f: object) -> int:
        return int(f.read())  # type: ignore[attr-defined]

    assert cached("k", build, save, load) == 1
    (path,) = (tmp_path / "cardgame").iterdir()
    target = path if loose == "file" else path.parent
    target.chmod(target.stat().st_mode | 0o022)
    assert cached("k", build, save, load) == 2
    assert len(builds) == 2


# An audit hook in the child refuses any file opened for writing, directory made or file
# renamed outside the cache directory and /dev: the package may be read-only.
GUARD = """
import os, sys
allowed = (os.environ["XDG_CACHE_HOME"], "/dev/")
def hook(event, args):
    path = None
    if event == "open" and args[0] is not None and not isinstance(args[0], int):
        mode, flags = args[1] or "r", args[2]
        if any(c in mode for c in "wax+") or flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            path = args[0]
    elif event in ("os.mkdir", "os.rename", "os.replace", "os.remove", "os.chmod"):
        path = args[0] if event not in ("os.rename", "os.replace") else args[1]
    if path is not None and not str(os.path.abspath(os.fsdecode(path))).startswith(allowed):
        os.write(2, f"write outside the cache: {event} {path}\\n".encode())
        os._exit(99)
sys.addaudithook(hook)
from cardgame.interpreter.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("argv", [["list"], ["check", CALCULATION]])
def test_nothing_is_written_outside_the_cache_dir(tmp_path: Path, argv: list[str]) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    for _ in range(2):  # first with an empty cache (it is written), then from the cache
        out = run_py(GUARD, env, *argv)
        assert out.returncode == 0, out.stderr
    assert list((tmp_path / "cardgame").iterdir())


# `list` and `check` must stay cheap: no plotting, REPL, fuzzing, progress-bar or cluster
# library, and `list` not even the engine (importing it costs more than listing).
HEAVY = ("matplotlib", "hypothesis", "prompt_toolkit", "tqdm", "dask", "distributed",
         "numpy", "importlib.metadata")
IMPORTS = """
import io, sys, contextlib
from cardgame.interpreter.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
modules = sorted(sys.modules)  # (before json, which the probe imports to answer)
import json
print(json.dumps({"code": code, "modules": modules}))
"""


@pytest.mark.parametrize("argv,also", [
    (["list"], ("cardgame.interpreter.engine", "cardgame.interpreter.bots")),
    (["check", CALCULATION], ("cardgame.interpreter.bots", "cardgame.interpreter.fuzz",
                             "cardgame.interpreter.analysis", "cardgame.repl")),
])
def test_short_commands_import_no_heavy_library(tmp_path: Path, argv: list[str],
                                                also: tuple[str, ...]) -> None:
    out = run_py(IMPORTS, {"XDG_CACHE_HOME": str(tmp_path)}, *argv)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["code"] == 0
    loaded = set(result["modules"])
    bad = [m for m in (*HEAVY, *also) if m in loaded or any(x.startswith(m + ".")
                                                              for x in loaded)]
    assert not bad, f"`cardgame {argv[0]}` imports {bad}"


# ---------------------------------------------------------------- parsed game files
MODULE_PROBE = """
import json, sys
from cardgame.interpreter.lang import load, module_cache
built = []
orig = module_cache.build_module
def spy(text, name):
    built.append(name)
    return orig(text, name)
module_cache.build_module = spy
try:
    loaded = load(sys.argv[1])
    result = {"built": built, "decls": len(loaded.decls)}
except Exception as e:
    result = {"built": built, "error": type(e).__name__}
print(json.dumps(result))
"""


def load_probe(env: dict[str, str], path: Path) -> dict[str, object]:
    out = run_py(MODULE_PROBE, env, str(path))
    assert out.returncode == 0 and out.stderr == "", out.stderr
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_a_game_file_is_parsed_once_per_text(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    game = tmp_path / "mine.cardgame"
    base = (ROOT / "games" / "chains.cardgame").read_text(encoding="utf-8")
    game.write_text(base, encoding="utf-8")
    first = load_probe(env, game)
    assert len(first["built"]) == 1  # type: ignore[arg-type]
    second = load_probe(env, game)
    assert second == {**first, "built": []}  # the same declarations, not parsed again
    game.write_text(base + "\n# an edit\n", encoding="utf-8")
    assert load_probe(env, game)["built"] == first["built"]  # edited: parsed again
    assert load_probe(env, game)["built"] == []
    # one cache file per game file: the edited text replaced the first version
    assert len(list((tmp_path / "cache" / "cardgame").glob("module-*"))) == 1


def test_a_file_that_does_not_parse_is_never_cached(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    game = tmp_path / "bad.cardgame"
    game.write_text('game "x"\nmove m {', encoding="utf-8")
    for _ in range(2):
        result = load_probe(env, game)
        assert result["error"] == "Diagnostic" and len(result["built"]) == 1  # type: ignore[arg-type]
    assert not list((tmp_path / "cache" / "cardgame").glob("module-*"))


def test_a_corrupt_module_cache_is_parsed_again(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    game = tmp_path / "g.cardgame"
    game.write_text((ROOT / "games" / "calculation.cardgame").read_text(encoding="utf-8"),
                    encoding="utf-8")
    first = load_probe(env, game)
    [path] = (tmp_path / "cache" / "cardgame").glob("module-*")
    header = path.read_bytes().splitlines()[0]
    for junk in (b"", header + b"\n\x80\x05junk", header + b"\n" + pickle.dumps([1, 2])):
        path.write_bytes(junk)
        assert load_probe(env, game) == first
    assert load_probe(env, game)["built"] == []


def test_the_module_cache_stays_small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                      ) -> None:
    from cardgame.interpreter.lang import module_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(module_cache, "KEEP", 3)
    text = (ROOT / "games" / "calculation.cardgame").read_text(encoding="utf-8")
    for i in range(6):
        module_cache.cached_module(text, f"g{i}.cardgame")
    files = sorted(p.name for p in (tmp_path / "cardgame").glob("module-*"))
    assert len(files) == 3
    # the newest stay: g5's is still there (read without being parsed again)
    assert module_cache.cached_module(text, "g5.cardgame").file == "g5.cardgame"
    assert sorted(p.name for p in (tmp_path / "cardgame").glob("module-*")) == files


@pytest.mark.parametrize("argv", [["list"], ["check", CALCULATION]])
def test_with_a_warm_cache_nothing_is_parsed(tmp_path: Path, argv: list[str]) -> None:
    """Every file read from the cache: neither Lark nor the AST builder is imported."""
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    first = json.loads(run_py(IMPORTS, env, *argv).stdout)
    assert "lark" in first["modules"]  # the cold run parses (and fills the cache)
    warm = json.loads(run_py(IMPORTS, env, *argv).stdout)
    assert warm["code"] == 0
    assert not [m for m in warm["modules"] if m == "lark" or m.startswith("lark.")
                or m.endswith((".builder", ".parser"))]


@pytest.mark.parametrize("argv,also", [(["list"], set()), (["check", CALCULATION], {"json"})])
def test_a_warm_command_imports_no_reader_of_files_it_does_not_write(
        tmp_path: Path, argv: list[str], also: set[str]) -> None:
    """With the caches warm: the package's folders found without importlib.resources'
    readers (zipfile), no temporary-file module (cache writes only), no difflib (hints on
    an error only), and `check` no json (the catalog's and saved states' format). About a
    millisecond each, on every short command."""
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    run_py(IMPORTS, env, *argv)
    warm = json.loads(run_py(IMPORTS, env, *argv).stdout)
    assert warm["code"] == 0
    loaded = set(warm["modules"])
    assert not loaded & {"importlib.resources", "zipfile", "tempfile", "difflib", *also}


def test_the_package_folders_are_where_importlib_resources_finds_them() -> None:
    import importlib.resources

    from cardgame.interpreter.lang import bundled_dir
    from cardgame.interpreter.lang.module_cache import package_dir

    for package in ("cardgame.games", "cardgame.grammar"):
        assert package_dir(package) == Path(str(importlib.resources.files(package)))
    assert bundled_dir() == package_dir("cardgame.games")
    assert (bundled_dir() / "calculation.cardgame").is_file()


def test_the_front_ends_fingerprint_skips_hidden_files(monkeypatch: pytest.MonkeyPatch) -> None:
    # as `glob("*.py")` did: an editor's lock link `.#ast.py` (dangling) in the package's
    # folder neither breaks the module cache nor changes its key
    from cardgame.interpreter.lang import module_cache

    module_cache._front_end_fingerprint.cache_clear()
    plain = module_cache._front_end_fingerprint()
    listed = os.listdir

    monkeypatch.setattr(module_cache.os, "listdir", lambda d: [*listed(d), ".#ast.py"])
    module_cache._front_end_fingerprint.cache_clear()
    try:
        assert module_cache._front_end_fingerprint() == plain
    finally:
        module_cache._front_end_fingerprint.cache_clear()
