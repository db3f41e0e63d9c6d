"""Games per second of unwinnable.dask on 1 and 2 local worker processes,
against the same work in one process (unwinnable.adjudicate, one thread).
python crates/python/bench/dask_throughput.py GAMES.pgn [--every-ply]"""

import os
import sys
import tempfile
import time

from distributed import Client, LocalCluster

import unwinnable
from unwinnable import dask as udask


def main():
    path = sys.argv[1]
    settings = udask.Settings(every_ply="--every-ply" in sys.argv)
    start = time.perf_counter()
    games = sum(1 for _ in unwinnable.adjudicate(path, threads=1, every_ply=settings.every_ply))
    single = games / (time.perf_counter() - start)
    print(f"one process, one thread: {games} games, {single:.0f} games/s")
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                with tempfile.TemporaryDirectory() as out:
                    summary = udask.adjudicate([path], os.path.join(out, "o.parquet"), client=client,
                                               settings=settings, chunk_bytes=8 << 20)
        print(f"dask, {workers} worker(s): {summary}; {summary.games_per_second / single:.2f}x one process")


if __name__ == "__main__":
    main()
