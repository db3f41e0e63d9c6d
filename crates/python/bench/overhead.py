"""Per-call cost of unwinnable.analyze against the same analyses inside
analyze_many (one thread), on positions of online games (the corpus), and
the Python adjudicate against the command, both on one thread; medians of
three runs. Run in the environment where the package is installed:

    python crates/python/bench/overhead.py [GAMES.pgn]

(GAMES.pgn: e.g. `cargo xtask gen-pgn 100000 --out GAMES.pgn`; the
command is target/release/unwinnable.)"""

import statistics
import subprocess
import sys
import time
from pathlib import Path

import unwinnable

ROOT = Path(__file__).resolve().parents[3]
RUNS = 3


def median(function):
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


with open(ROOT / "testdata" / "lichess-30k-positions.txt") as file:
    fens = [" ".join(line.split()[:6]) for line in file if line.strip() and not line.startswith("#")][:5000]
many = median(lambda: unwinnable.analyze_many(fens, "white", threads=1)) / len(fens) * 1e6
single = median(lambda: [unwinnable.analyze(fen, "white") for fen in fens]) / len(fens) * 1e6
print(f"analyze_many, one thread: {many:.1f} us per position; analyze, one call at a time: {single:.1f} us "
      f"({single / many:.2f}x); {len(fens)} corpus positions, medians of {RUNS} runs")

if len(sys.argv) > 1:
    games = sys.argv[1]
    command = ROOT / "target" / "release" / "unwinnable"
    count = sum(1 for _ in unwinnable.adjudicate(games, threads=1))
    python = median(lambda: sum(1 for _ in unwinnable.adjudicate(games, threads=1)))
    cli = median(lambda: subprocess.run([str(command), "adjudicate", "--threads", "1", "-q", "--format", "jsonl", games],
                                        stdout=subprocess.DEVNULL, check=True))
    print(f"adjudicate, one thread: Python {count / python:.0f} games/s, the command {count / cli:.0f} games/s "
          f"({cli / python:.0%}); {count} games, medians of {RUNS} runs")
