"""`cardgame compare`, `--plot` and the progress bar."""

from __future__ import annotations

import io
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cardgame.interpreter.analysis.compare import Side, compare, comparison_text, labels
from cardgame.interpreter.cli import main

TIME = re.compile(r"played in [0-9.]+ s")


def test_compare_two_games_on_the_same_seeds(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["compare", "chains", "chains-advanced", "--games", "200", "--seed", "1"])
    out = TIME.sub("played in ... s", capsys.readouterr().out)
    assert code == 0
    lines = out.splitlines()
    assert lines[:4] == [
        "compare: 200 random games each, on the same seeds (seed 1)",
        "  A  chains: Chains, 1 player, mode=beginner, bots random",
        "  B  chains-advanced: Chains: advanced, 1 player, mode=advanced, bots random",
        "  played in ... s, this process"]
    rows = {ln.split("  ")[1]: ln for ln in lines[5:-1]}
    assert rows["moves"].endswith(" *") and rows["branching factor"].endswith(" *")
    assert re.search(r"  -\d\.\d\d \[-\d\.\d\d, -\d\.\d\d\] \*$", rows["score"])
    assert not rows["rule errors"].endswith("*")
    assert lines[-1].startswith("  * the 95% interval of B - A excludes 0 (")


def test_compare_one_game_under_two_settings(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["compare", "interaction", "--set-b", "x=1", "--games", "2"])
    assert code == 1  # an unknown option is the game's own error
    capsys.readouterr()
    code = main(["compare", "arsene", "--set-b", "advanced=true", "--games", "10", "--seed",
                 "2", "--json"])
    r = json.loads(capsys.readouterr().out)
    assert code == 0 and r["format"] == "cardgame-comparison"
    assert r["labels"] == {"a": "arsene", "b": "arsene advanced=true"}
    assert r["a"]["options"]["advanced"] is False and r["b"]["options"]["advanced"] is True
    d = r["differences"]["moves"]
    assert d["difference"]["method"] == "t-paired" and d["difference"]["n"] == 10
    assert d["difference"]["value"] == pytest.approx(d["b"]["value"] - d["a"]["value"])
    assert d["significant"] == (d["difference"]["low"] > 0 or d["difference"]["high"] < 0)
    assert set(r["differences"]) >= {"win.p1", "win.p4", "lead_changes", "decisiveness",
                                     "drama", "branching"}


def test_compare_needs_two_different_sides(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "chains", "chains", "--games", "2"]) == 2
    assert "A and B are the same" in capsys.readouterr().err


def test_labels_say_what_differs() -> None:
    a = Side("arsene", 4, (("advanced", "false"),), ("random",))
    b = Side("arsene", 3, (("advanced", "true"),), ("greedy",))
    assert labels(a, b) == ("arsene 4 players advanced=false bots random",
                            "arsene 3 players advanced=true bots greedy")


def test_different_player_counts_compare_the_seats_they_share() -> None:
    c = compare(Side("interaction", 3), Side("interaction", 4), 20, 5)
    keys = {r.metric.key: r for r in c.rows}
    assert keys["win.p4"].a.n == 0 and keys["win.p4"].b.n == 20
    assert keys["win.p4"].diff.value is None and keys["win.p1"].diff.value is not None
    assert "p4 wins" in comparison_text(c)


def test_plots_are_written_as_png_and_svg_and_repeat(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    out = tmp_path / "charts"
    args = ["simulate", "interaction", "--games", "60", "--seed", "1", "--plot", str(out),
            "--coverage-games", "0"]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"  charts         8 files in {out}"
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(f"{n}.{e}" for n in ("win_share", "scores", "length",
                                                "lead_changes") for e in ("png", "svg"))
    for p in out.glob("*.png"):
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for p in out.glob("*.svg"):
        ET.parse(p)  # well-formed
    svg = (out / "win_share.svg").read_text()
    assert "fair share 25%" in svg and "p4" in svg  # text stays text (svg.fonttype none)
    first = {p.name: p.read_bytes() for p in out.iterdir()}
    assert main(args) == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == first  # byte for byte


def test_compare_plots_overlay_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                    ) -> None:
    out = tmp_path / "cmp"
    assert main(["compare", "calculation", "--bots-b", "greedy", "--games", "20", "--seed",
                 "1", "--plot", str(out)]) == 0
    assert "  charts  6 files in" in capsys.readouterr().out  # no lead changes: 1 player
    svg = (out / "length.svg").read_text()
    assert "calculation bots random" in svg and "calculation bots greedy" in svg


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_progress_bar_at_a_terminal_only(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "calculation", "--games", "30", "--seed", "1", "--batch", "10"]
    assert main(args) == 0
    assert capsys.readouterr().err == ""  # piped: nothing
    tty = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty)
    assert main(args) == 0
    assert tty.getvalue().startswith("\rsimulate:   0%|") and "/30 [" in tty.getvalue()
    tty2 = FakeTTY()
    monkeypatch.setattr(sys, "stderr", tty2)
    assert main(args + ["--json"]) == 0
    assert tty2.getvalue() == ""  # --json: no bar even at a terminal
