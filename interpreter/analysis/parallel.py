"""Where batches of games run: in this process, on N local processes (`--jobs N`), or on
a Dask distributed cluster (`--dask ADDRESS`).

A task crosses a process boundary as a value: a picklable recipe of the game (never a
`Game`, whose executed code cannot be pickled), the seeds and the settings. Each worker
process compiles a recipe once and keeps it. Results come back in task order whatever
order they finish in, so the figures never depend on the runner.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from types import TracebackType
from typing import Any, TypeVar

from ..errors import UsageError

T = TypeVar("T")
R = TypeVar("R")
Done = Callable[[int, Any], None]  # (task index, its result), as each task finishes


# ---------------------------------------------------------------------- runners
class Runner:
    """Runs `fn` over picklable tasks; `map` returns the results in task order."""

    workers = 1
    name = "this process"
    same_machine = True  # do the workers share this machine's disk?

    def map(self, fn: Callable[[T], R], tasks: Sequence[T], done: Done | None = None
            ) -> list[R]:
        out = []
        for i, t in enumerate(tasks):
            r = fn(t)
            out.append(r)
            if done is not None:
                done(i, r)
        return out

    def close(self) -> None:
        pass

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, typ: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _start_method() -> str:
    # forkserver where the platform has it (Linux): workers start from a clean process,
    # not a fork of one holding threads (a progress bar's, Dask's) and a compiled game;
    # spawn elsewhere. Never plain fork.
    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if "forkserver" in methods else "spawn"


class Processes(Runner):
    """N local worker processes (concurrent.futures)."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self.name = f"{jobs} processes"
        self._pool: ProcessPoolExecutor | None = None

    def map(self, fn: Callable[[T], R], tasks: Sequence[T], done: Done | None = None
            ) -> list[R]:
        if self._pool is None:
            ctx = multiprocessing.get_context(_start_method())
            self._pool = ProcessPoolExecutor(self.workers, mp_context=ctx)
        futures: dict[Future[R], int] = {self._pool.submit(fn, t): i
                                         for i, t in enumerate(tasks)}
        out: list[Any] = [None] * len(tasks)
        try:
            for f in as_completed(futures):
                i = futures[f]
                out[i] = f.result()
                if done is not None:
                    done(i, out[i])
        except BaseException:
            for f in futures:
                f.cancel()
            raise
        return out

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


class DaskRunner(Runner):
    """A Dask distributed cluster: `tcp://host:8786` (a running scheduler) or `local:N`
    (a LocalCluster of N worker processes started here, for trying it out)."""

    def __init__(self, address: str, timeout: float = 10.0) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise UsageError("--dask needs the Dask extra: pip install 'cardgame[dask]'"
                             ) from None
        self._cluster: Any = None
        if address == "local" or address.startswith("local:"):
            n = address.partition(":")[2] or str(os.cpu_count() or 1)
            if not n.isdigit() or int(n) < 1:
                raise UsageError(f"--dask local:N takes a number of workers, not '{n}'")
            # its workers' shutdown chatter (heartbeats to a closed scheduler) is noise
            self._cluster = LocalCluster(n_workers=int(n), threads_per_worker=1,
                                         processes=True, dashboard_address=None,
                                         silence_logs=logging.CRITICAL)
            address = self._cluster.scheduler_address
        self.same_machine = self._cluster is not None
        try:
            self._client = Client(address, timeout=f"{timeout}s")
        except (OSError, TimeoutError) as e:
            if self._cluster is not None:
                self._cluster.close()
            raise UsageError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        # one task at a time per worker thread: a task is a batch of games
        self.workers = max(1, sum(self._client.nthreads().values()))
        self.name = f"Dask at {address} ({self.workers} worker threads)"

    def map(self, fn: Callable[[T], R], tasks: Sequence[T], done: Done | None = None
            ) -> list[R]:
        from distributed import as_completed as dask_completed

        futures = self._client.map(fn, list(tasks), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        out: list[Any] = [None] * len(tasks)
        try:
            for f in dask_completed(futures):
                i = index[f.key]
                out[i] = f.result()
                if done is not None:
                    done(i, out[i])
        except BaseException:
            self._client.cancel(futures)
            raise
        return out

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_runner(jobs: int = 1, dask: str | None = None) -> Runner:
    """The runner for `--jobs N` / `--dask ADDRESS` (one process by default)."""
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if dask:
        return DaskRunner(dask)
    return Processes(jobs) if jobs > 1 else Runner()


def batches(total: int, workers: int, batch: int | None) -> list[tuple[int, int]]:
    """[start, stop) ranges of game indices. The default size aims at about 8 tasks per
    worker (an even load, a progress bar that moves) and at most 500 games a task."""
    if batch is None:
        batch = max(1, min(500, -(-total // (workers * 8))))
    if batch < 1:
        raise UsageError("--batch must be at least 1")
    return [(i, min(i + batch, total)) for i in range(0, total, batch)]
