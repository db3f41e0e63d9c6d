"""Games per second of unwinnable.dask on 1 and 2 local worker processes,
against the same work in one process (unwinnable.adjudicate, one thread);
medians of three runs each.

    python crates/python/bench/dask_throughput.py GAMES.pgn[.zst] [--every-ply]

(`cargo xtask gen-pgn 200000 --out GAMES.pgn`, or `--zst` for one
compressed file, which the client decompresses once and cuts.)"""

import os
import statistics
import sys
import tempfile
import time

from distributed import Client, LocalCluster

import unwinnable
from unwinnable import dask as udask

RUNS = 3


def main():
    path = sys.argv[1]
    every_ply = "--every-ply" in sys.argv
    rates = []
    for _ in range(RUNS):
        start = time.perf_counter()
        games = sum(1 for _ in unwinnable.adjudicate(path, threads=1, every_ply=every_ply))
        rates.append(games / (time.perf_counter() - start))
    single = statistics.median(rates)
    print(f"one process, one thread: {games} games, {single:.0f} games/s (runs: {', '.join(f'{r:.0f}' for r in rates)})")
    settings = udask.Settings.of(every_ply=every_ply)
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
            with Client(cluster) as client:
                rates = []
                for _ in range(RUNS):
                    with tempfile.TemporaryDirectory() as out:
                        summary = udask.adjudicate([path], os.path.join(out, "o.parquet"), client=client, settings=settings)
                    rates.append(summary.games_per_second)
                rate = statistics.median(rates)
                print(f"dask, {workers} worker(s): {rate:.0f} games/s, {rate / single:.2f}x one process; "
                      f"{summary.tasks} tasks (runs: {', '.join(f'{r:.0f}' for r in rates)})")


if __name__ == "__main__":
    main()
