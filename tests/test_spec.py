"""GameSpec: the picklable recipe of a compiled game, compiled once per process."""

from __future__ import annotations

import multiprocessing
import os
import pickle
from pathlib import Path

import pytest
from cardgame.interpreter.engine import GameSpec, compile_game, pipeline
from cardgame.interpreter.errors import CardgameError
from support import workers

TWO_HANDS = Path(__file__).parent / "data" / "two_hands.cardgame"


def test_a_bundled_game_spec_names_the_game_and_pickles() -> None:
    game = compile_game("arsene", 3, {"advanced": "true"})
    spec = game.spec
    assert spec == GameSpec("arsene", 3, (("advanced", "true"),), game.source_id)
    assert spec == GameSpec.of("arsene", 3, {"advanced": "true"})
    back = pickle.loads(pickle.dumps(spec))
    assert back == spec and hash(back) == hash(spec)
    again = back.compile()
    assert again.spec == spec and again.options == game.options
    assert back.compile() is again  # once per process
    assert again.replay(5, []) == game.new_state(5)


def test_a_game_file_spec_holds_its_absolute_path() -> None:
    spec = compile_game(os.path.relpath(TWO_HANDS)).spec
    assert spec.game == str(TWO_HANDS.resolve()) and spec.players == 2
    assert spec.compile().name == "Two Hands"


def test_a_worker_process_compiles_the_spec_once_and_plays_the_same_games() -> None:
    spec = compile_game(str(TWO_HANDS)).spec
    here = workers.playout_scores(spec, [1, 2, 3])
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        there = pool.apply(workers.playout_scores, (spec, [1, 2, 3]))
    assert there[2] != os.getpid()  # another process...
    assert there[1] is True  # ...that compiled the spec once
    assert there[0] == here[0]  # ...and plays the same games


def test_a_spec_reads_and_compiles_its_files_once_per_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "once.cardgame"
    path.write_text(TWO_HANDS.read_text(encoding="utf-8"), encoding="utf-8")
    spec = compile_game(str(path)).spec
    loads = []
    real_load = pipeline.load
    monkeypatch.setattr(pipeline, "load", lambda p: loads.append(p) or real_load(p))
    first = spec.compile()
    assert spec.compile() is first and pickle.loads(pickle.dumps(spec)).compile() is first
    assert len(loads) == 1


def test_a_changed_game_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "hands.cardgame"
    text = TWO_HANDS.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    spec = compile_game(str(path)).spec
    path.write_text(text.replace("deal 5 from deck", "deal 4 from deck"), encoding="utf-8")
    with pytest.raises(CardgameError, match="changed since this spec was made"):
        spec.compile()
    path.write_text(text, encoding="utf-8")
    assert spec.compile().spec == spec  # the same files again: accepted


def test_the_fingerprint_is_the_files_texts_not_how_they_were_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A file is named relative to the folder a command runs in where it lies below it:
    # a save replayed, or a spec compiled on a Dask worker, from another folder named
    # the same files otherwise, and was refused as changed.
    from cardgame.interpreter.lang import load, resolve_game

    repo = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(repo)
    here = pipeline.source_id(load(resolve_game("interaction")))
    user = pipeline.source_id(load(Path(os.path.relpath(TWO_HANDS))))
    monkeypatch.chdir(tmp_path)
    assert pipeline.source_id(load(resolve_game("interaction"))) == here
    assert pipeline.source_id(load(TWO_HANDS)) == user
    # a spec made in one folder compiles in another, as a fresh worker does
    monkeypatch.chdir(repo)
    spec = compile_game(os.path.relpath(TWO_HANDS)).spec
    bundled = compile_game("interaction").spec
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(pipeline, "_specs", {})
    monkeypatch.setattr(pipeline, "_cache", {})
    assert spec.compile().spec == spec and bundled.compile().spec == bundled


def test_the_fingerprint_covers_the_files_a_game_extends_and_uses(tmp_path: Path) -> None:
    from cardgame.interpreter.lang import load

    (tmp_path / "base.cardgame").write_text(TWO_HANDS.read_text(encoding="utf-8"),
                                            encoding="utf-8")
    (tmp_path / "helpers.cardgame").write_text("def two = 2\n", encoding="utf-8")
    variant = tmp_path / "variant.cardgame"
    variant.write_text('extends "base.cardgame"\nuse "helpers.cardgame"\n', encoding="utf-8")
    first = pipeline.source_id(load(variant))
    (tmp_path / "helpers.cardgame").write_text("def two = 1 + 1\n", encoding="utf-8")
    used = pipeline.source_id(load(variant))
    assert used != first
    base = (tmp_path / "base.cardgame").read_text(encoding="utf-8")
    (tmp_path / "base.cardgame").write_text(base.replace("deal 5", "deal 4"), encoding="utf-8")
    assert pipeline.source_id(load(variant)) not in (first, used)
