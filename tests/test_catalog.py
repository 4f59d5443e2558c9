"""`cardgame list` reads its rows from the user's cache directory (lang/catalog.py): the
same rows as checking every bundled game, computed once per set of game texts and front
end; a corrupt or foreign cache file is ignored; an unwritable cache still lists."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from cardgame.interpreter.lang import bundled_names, check, load
from cardgame.interpreter.lang.catalog import _catalog

# Lists twice in one process with the cache in argv[1]; says how many games were checked.
PROBE = """
import json, sys
from cardgame.interpreter.lang import catalog
checked = []
real = catalog.check
catalog.check = lambda loaded: checked.append(1) or real(loaded)
rows = catalog.bundled_catalog()
print(json.dumps({"rows": rows, "checked": len(checked)}))
"""


def run(cache: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_CACHE_HOME", "HOME")}
    env.update(XDG_CACHE_HOME=str(cache), HOME=str(cache / "home"))
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         env=env, timeout=300, check=True)
    assert out.stderr == ""
    result: dict[str, object] = json.loads(out.stdout)
    return result


def test_rows_are_what_checking_the_games_gives() -> None:
    rows = _catalog(bundled_names())
    assert [r["name"] for r in rows] == bundled_names()
    arsene = next(r for r in rows if r["name"] == "arsene")
    checked = check(load(Path(__file__).resolve().parent.parent / "games" / "arsene.cardgame"))
    assert arsene["title"] == checked.name
    assert arsene["players"] == list(checked.player_range)
    assert set(arsene["options"]) == set(checked.option_decls)
    assert any(r["extends"] for r in rows)  # the variants name their base
    json.dumps(rows)  # plain data


def test_the_catalog_is_cached_and_reused(tmp_path: Path) -> None:
    first = run(tmp_path)
    assert first["checked"] == len(bundled_names())
    files = list((tmp_path / "cardgame").glob("catalog-*"))
    assert len(files) == 1
    second = run(tmp_path)
    assert second["checked"] == 0, "the second listing checked the games again"
    assert second["rows"] == first["rows"] == json.loads(json.dumps(_catalog(bundled_names())))

    files[0].write_bytes(files[0].read_bytes()[:-20])  # truncated: ignored, rebuilt
    third = run(tmp_path)
    assert third["checked"] == len(bundled_names()) and third["rows"] == first["rows"]


def test_an_unwritable_cache_still_lists(tmp_path: Path) -> None:
    (tmp_path / "cardgame").write_text("not a directory")
    out = run(tmp_path)
    assert out["checked"] == len(bundled_names()) and out["rows"]
