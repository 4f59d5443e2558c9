"""benchmarks/bench.py measures the fuzz search too (the figures are not checked: a
benchmark, not a timed test)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))


def test_bench_measures_fuzz_moves_per_second() -> None:
    import bench

    case = next(c for c in bench.CASES if c.game == "chains")
    row = bench.measure(case, 1, 7, 1, fuzz_examples=2)
    assert row["fuzz_moves"] > 0 and row["fuzz_moves_per_s"] > 0
    assert bench.measure(case, 1, 7, 1)["fuzz_moves_per_s"] is None


def test_bench_table_has_a_fuzz_column(capsys: pytest.CaptureFixture[str]) -> None:
    import bench

    assert bench.main(["--only", "calculation", "--games", "2", "--repeat", "1",
                       "--fuzz-examples", "1"]) == 0
    head, _, row = capsys.readouterr().out.splitlines()[:3]
    assert "fuzz moves/s" in head
    assert row.split()[-1].replace(",", "").isdigit()
