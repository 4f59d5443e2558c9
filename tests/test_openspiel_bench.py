"""benchmarks/openspiel_diff.py and openspiel_speed.py: they skip cleanly without pyspiel,
their statistics are right, and (with pyspiel installed) the differential agrees on Oh Hell
and catches a rule that differs. The speed figures are not checked (a benchmark, not a
timed test)."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))

import openspiel_common  # noqa: E402
import openspiel_diff  # noqa: E402
import openspiel_speed  # noqa: E402
from openspiel_adapters import adapters  # noqa: E402
from openspiel_adapters.oh_hell import OhHell  # noqa: E402


@pytest.mark.parametrize("script", [openspiel_diff, openspiel_speed])
def test_both_scripts_skip_with_a_message_without_pyspiel(
        script: object, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(openspiel_common, "load_pyspiel", lambda: None)
    with pytest.raises(SystemExit) as ei:
        script.main(["--games", "2"])  # type: ignore[attr-defined]
    assert ei.value.code == 0
    out = capsys.readouterr().out
    assert "pyspiel is not installed" in out and "pip install open_spiel" in out


def test_the_adapters_are_listed_by_name() -> None:
    found = adapters()
    assert "oh_hell" in found and found["oh_hell"].game == "oh-hell"
    assert {"hearts", "crazy_eights", "blackjack"} <= set(found)


@pytest.mark.parametrize("name,games", [("hearts", 150), ("crazy_eights", 60),
                                        ("blackjack", 1500)])
def test_the_other_classics_agree_with_openspiel(name: str, games: int) -> None:
    pytest.importorskip("pyspiel")
    rep = openspiel_diff.compare(adapters()[name], 3, games, 5)
    assert rep["differs"] == [], rep["differs"]
    compared = {r["what"] for r in rep["rows"]}
    assert any(w.startswith("legal moves per") for w in compared)
    if name == "hearts":  # the passes: a set here, card by card there; listed, not compared
        assert "legal moves per play decision" in compared
        assert not any("pass" in w for w in compared)
        assert any("pass (a set) decision (ours only): 286.000" in w for w in rep["one_side"])


def test_a_changed_hearts_rule_is_caught(tmp_path: Path) -> None:
    """Hearts where any card may be played (no following suit): the play decision differs."""
    pytest.importorskip("pyspiel")
    from openspiel_adapters.hearts import Hearts

    loose = _variant(Hearts(), tmp_path, "hearts", "Hearts without following suit",
                     'move play(c in hand[me]) "play {c}" {\n  move c to trick\n}')
    rep = openspiel_diff.compare(loose, 4, 60, 5)
    assert "legal moves per play decision" in rep["differs"], rep["differs"]


def test_chi_square_tells_equal_from_different_distributions() -> None:
    same = [[400, 300, 300], [404, 298, 298]]
    other = [[400, 300, 300], [250, 300, 450]]
    assert openspiel_common.chi2_p(same) > 0.5
    assert openspiel_common.chi2_p(other) < 0.001


def _clustered(rng: random.Random, games: int, low_share: float) -> list[dict[int, int]]:
    """Games of 100 decisions each, every game of one of two kinds (legal-move counts
    1-3, or 2-5): its decisions are not independent, as in a card game."""
    out = []
    for _ in range(games):
        values = (1, 2, 3) if rng.random() < low_share else (2, 3, 4, 5)
        counts: dict[int, int] = {}
        for _ in range(100):
            v = rng.choice(values)
            counts[v] = counts.get(v, 0) + 1
        out.append(counts)
    return out


def test_the_legal_move_test_takes_the_game_as_the_unit() -> None:
    """Two samples of one process: counting every decision as independent rejects
    (p ~ 1e-8); dealing whole games to the sides at random does not."""
    rng = random.Random(0)
    a, b = _clustered(rng, 200, 0.5), _clustered(rng, 200, 0.5)
    p, naive = openspiel_common.game_chi2_p(a, b, random.Random(1), 199)
    assert naive < 1e-6
    assert p > 0.05


def test_the_legal_move_test_still_finds_a_real_difference() -> None:
    rng = random.Random(0)
    a, b = _clustered(rng, 200, 0.5), _clustered(rng, 200, 0.8)
    p, naive = openspiel_common.game_chi2_p(a, b, random.Random(1), 1999)
    assert p < 0.001 and naive < 1e-9


def test_rare_counts_are_pooled_into_bins_of_five_expected() -> None:
    a = {1: 500, 2: 300, 3: 100, 4: 6, 5: 2, 9: 1}
    b = {1: 490, 2: 310, 3: 95, 4: 5, 5: 3, 7: 1}
    bins = openspiel_common.pooled_bins(a, b)
    assert bins == [[1], [2], [3], [4, 5, 7, 9]]
    assert openspiel_common.pooled_bins({1: 3}, {}) == []


def test_ratio_ci_treats_the_game_as_the_unit() -> None:
    r, h = openspiel_common.ratio_ci([10.0, 20.0, 30.0], [5.0, 5.0, 5.0])
    assert r == pytest.approx(4.0)
    # the per-game ratios 2, 4, 6: the CI is that of their mean
    assert h == pytest.approx(1.96 * (4 / 3) ** 0.5, rel=1e-6)


def test_oh_hell_agrees_with_openspiel_and_a_changed_rule_is_caught(tmp_path: Path) -> None:
    pytest.importorskip("pyspiel")
    rep = openspiel_diff.compare(OhHell(), 3, 400, 3)
    assert rep["differs"] == [], rep["differs"]
    # without the dealer's rule, the dealer has one more bid: the bid decision differs
    loose = _variant(OhHell(), tmp_path, "oh-hell", "Oh Hell without the hook",
                     'move bid(n in 0..hand_size) "bid {n}" {\n  bid[me] = n\n}')
    rep = openspiel_diff.compare(loose, 3, 400, 3)
    assert "legal moves per bid decision" in rep["differs"], rep["differs"]


def _variant(adapter: Any, tmp_path: Path, base: str, title: str, move: str) -> Any:
    """The adapter, playing the bundled game `base` with one move redefined."""
    path = tmp_path / "variant.cardgame"
    path.write_text(f'extends "{base}"\ngame "{title}"\n{move}\n', encoding="utf-8")
    adapter.game = str(path)
    return adapter
