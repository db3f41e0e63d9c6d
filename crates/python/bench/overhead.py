"""Per-call cost of unwinnable.analyze from Python (compare with
`cargo run --release --example call_cost --manifest-path crates/python/Cargo.toml`),
and analyze_many on 1 and 2 threads. Run in the environment where the
package is installed: python crates/python/bench/overhead.py"""

import time

import unwinnable

REPEAT = 5


def best(function, calls):
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        times.append((time.perf_counter() - start) / calls * 1e6)
    return min(times)


def loop_only():
    pass


KINGS = "8/8/8/8/8/8/8/K1k5 w - - 0 1"
empty = best(loop_only, 1_000_000)
kings = best(lambda: unwinnable.analyze(KINGS, "white"), 1_000_000)
print(f"analyze, lone kings: {kings:.3f} us per call ({kings - empty:.3f} us without the Python loop)")

with open(__file__.replace("bench/overhead.py", "../../testdata/lichess-30k-positions.txt")) as file:
    fens = [" ".join(line.split()[:6]) for line in file if line.strip() and not line.startswith("#")][:3000]
for threads in (1, 2):
    start = time.perf_counter()
    unwinnable.analyze_many(fens, "white", threads=threads)
    seconds = time.perf_counter() - start
    print(f"analyze_many, {len(fens)} positions of online games, {threads} thread(s): {seconds:.2f} s")
