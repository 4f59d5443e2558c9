"""The same seed gives the same figures wherever the games run: in this process, on
local processes, in batches of any size, on a real Dask cluster (a LocalCluster of two
worker processes); and `cardgame fuzz` searches in parallel."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator
from pathlib import Path

import pytest
from cardgame.interpreter.analysis import simulate, simulation_json
from cardgame.interpreter.analysis.parallel import (
    DaskRunner,
    Processes,
    Runner,
    batches,
    make_runner,
)
from cardgame.interpreter.cli import main
from cardgame.interpreter.engine import GameSpec
from cardgame.interpreter.errors import UsageError

MUTANTS = Path(__file__).resolve().parent / "mutants"
GAMES = 60


def figures(sim: object) -> dict[str, object]:
    r = simulation_json(sim)  # type: ignore[arg-type]
    for key in ("seconds", "games_per_second", "moves_per_second", "runner", "tasks"):
        r.pop(key)
    return r


@pytest.fixture(scope="module")
def inline() -> object:
    return simulate("interaction", GAMES, 21, coverage_games=10)


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as c:
        yield c.scheduler_address


def test_a_recipe_is_a_small_picklable_value() -> None:
    r = GameSpec.of("arsene", 3, {"advanced": "true"})
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.compile() is r.compile()
    assert back.compile().players == 3 and back.compile().options["advanced"] is True
    local = GameSpec.of(MUTANTS / "calc-dead-rule.cardgame")
    assert Path(local.game).is_absolute()  # a worker may run elsewhere
    changed = GameSpec(r.game, r.players, r.settings, "0" * 16)
    with pytest.raises(Exception, match="changed since this spec was made"):
        changed.compile()


def test_batch_sizes_and_process_pools_change_nothing(inline: object) -> None:
    again = simulate("interaction", GAMES, 21, coverage_games=10, batch=7)
    assert figures(again) == figures(inline)
    with Processes(2) as pool:
        par = simulate("interaction", GAMES, 21, coverage_games=10, runner=pool, batch=9)
    assert par.runner == "2 processes" and par.batch_count == 7 + 2
    assert par.records == inline.records  # type: ignore[attr-defined]
    assert figures(par) == figures(inline)


def test_a_dask_cluster_changes_nothing(inline: object, cluster: str) -> None:
    with make_runner(dask=cluster) as runner:
        assert runner.workers == 2
        sim = simulate("interaction", GAMES, 21, coverage_games=10, runner=runner, batch=11)
    assert sim.runner.startswith("Dask at tcp://") and sim.batch_count == 6 + 1
    assert figures(sim) == figures(inline)


def test_the_command_line_on_the_cluster(cluster: str, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    args = ["simulate", "interaction", "--games", "40", "--seed", "4", "--json",
            "--coverage-games", "0"]
    assert main(args) == 0
    here = json.loads(capsys.readouterr().out)
    assert main(args + ["--dask", cluster, "--batch", "5"]) == 0
    there = json.loads(capsys.readouterr().out)
    assert there["tasks"] == 8 and there["metrics"] == here["metrics"]


def test_runner_errors_are_usage_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UsageError, match="--jobs must be at least 1"):
        make_runner(0)
    with pytest.raises(UsageError, match="--dask local:N takes a number of workers"):
        make_runner(dask="local:x")
    pytest.importorskip("distributed")
    with pytest.raises(UsageError, match="^cannot reach the Dask scheduler at "
                       "tcp://127.0.0.1:9: "):
        DaskRunner("tcp://127.0.0.1:9", timeout=0.5)  # nothing listens on port 9
    assert isinstance(make_runner(1), Runner) and make_runner(1).workers == 1
    # without the extra: a one-line usage error
    import builtins

    real = builtins.__import__

    def no_dask(name: str, *a: object, **k: object) -> object:
        if name == "distributed":
            raise ImportError(name)
        return real(name, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_dask)
    with pytest.raises(UsageError, match=r"^--dask needs the Dask extra: pip install "
                       r"'cardgame\[dask\]'$"):
        make_runner(dask="tcp://127.0.0.1:8786")


def test_default_batches() -> None:
    assert batches(20000, 2, None)[:2] == [(0, 500), (500, 1000)]  # at most 500 a task
    assert batches(100, 2, None) == [(i, i + 7) for i in range(0, 98, 7)] + [(98, 100)]
    assert batches(5, 1, 2) == [(0, 2), (2, 4), (4, 5)]


def test_fuzz_searches_in_parallel_and_keeps_the_shortest(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.chdir(tmp_path)  # the fuzz database and the replay go here
    code = main(["fuzz", str(MUTANTS / "calc-division.cardgame"), "--jobs", "2",
                 "--examples", "20", "--seed", "1", "--json"])
    r = json.loads(capsys.readouterr().out)
    assert code == 1 and r["failure"]["property"] in ("rule-error", "legal-move-fails")
    assert len(r["failure"]["moves"]) + (r["failure"]["failing_move"] is not None) == 1
    assert Path(r["failure"]["replay"]).exists() and r["failure"]["replay_ok"]
    # two searches of the same budget: twice the games of one
    one = main(["fuzz", "calculation", "--examples", "15", "--seed", "3", "--json"])
    solo = json.loads(capsys.readouterr().out)
    two = main(["fuzz", "calculation", "--searches", "2", "--examples", "15", "--seed",
                "3", "--json"])
    both = json.loads(capsys.readouterr().out)
    assert one == two == 0
    assert both["games"] == 2 * solo["games"] == 30 and both["ok"]


def test_fuzz_on_the_cluster(cluster: str, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["fuzz", "calculation", "--dask", cluster, "--examples", "4", "--seed", "2",
                 "--json"])
    r = json.loads(capsys.readouterr().out)
    assert code == 0 and r["ok"] and r["games"] == 2 * 4  # one search per worker thread
    assert not (tmp_path / ".cardgame").exists()  # a cluster's searches use no local database
