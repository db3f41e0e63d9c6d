"""unwinnable.dask on a real LocalCluster (two worker processes): the same
results as `unwinnable adjudicate` over PGN, PGN.zst and Parquet inputs,
atomic parts when a worker is killed mid-task, resume, the command."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pandas as pd
import pyarrow.parquet as pq
import pytest

from conftest import cli_adjudicate, to_parquet, without_none
from unwinnable import dask as udask

FIELDS = [name for name in udask.SCHEMA.names if name not in ("input", "offset", "error")]


def rows(out):
    """The output as records (None fields left out), in input order."""
    table = pq.read_table(out)
    assert len(pd.read_parquet(out)) == table.num_rows  # pandas reads it as one table too
    return [without_none(row) for row in table.to_pylist()]


def same_as_cli(got, cli, key):
    """Each game once, with the command's fields."""
    assert len(got) == len(cli)
    assert len({row[key] for row in got}) == len(got)
    by_key = {record[key]: record for record in cli}
    for row in got:
        expected = by_key[row[key]]
        for name in FIELDS:
            assert row.get(name) == expected.get(name), (name, row, expected)


def test_pgn_in_byte_ranges_and_zstd(data, cluster, tmp_path):
    out = tmp_path / "out.parquet"
    summary = udask.adjudicate(
        [str(data["pgn"]), str(data["zst"])], str(out), client=cluster, chunk_bytes=300_000
    )
    tasks = udask.plan([str(data["pgn"]), str(data["zst"])], 300_000, workers=2)
    assert len(tasks) >= 10 and {task.kind for task, _ in tasks} == {"range", "stream"}
    got = rows(out)
    assert summary.games == len(got) == 3000 and summary.errors == 0
    for path in ("pgn", "zst"):
        mine = [row for row in got if row["input"] == str(data[path])]
        same_as_cli(mine, data["cli"], "offset")
    # The zstd file is decompressed once and cut: several tasks, on both
    # workers.
    parts = [name for name in os.listdir(out) if name.startswith("part-")]
    zst_parts = [p for p in parts if pq.read_table(out / p).column("input")[0].as_py() == str(data["zst"])]
    assert len(zst_parts) >= 8
    assert summary.tasks == len(parts)
    stored = json.loads((out / "_summary.json").read_text())
    assert stored["games"] == 3000 and stored["rules"] == summary.rules
    wrong = sum(1 for row in got if row["wrong"])
    assert sum(summary.wrong.values()) == wrong


def test_parquet_row_groups(data, cluster, tmp_path):
    out = tmp_path / "out.parquet"
    summary = udask.adjudicate([str(data["parquet"])], str(out), client=cluster)
    assert summary.tasks == pq.ParquetFile(data["parquet"]).metadata.num_row_groups == 4
    got = rows(out)
    assert [row["game"] for row in got] == list(range(1, 1501))
    same_as_cli(got, data["cli"], "game")


def test_parquet_without_result_in_movetext(data, cluster, tmp_path):
    import pyarrow as pa

    table = pq.read_table(data["parquet"])
    moves = [text.rsplit(" ", 1)[0] for text in table.column("movetext").to_pylist()]
    stripped = tmp_path / "stripped.parquet"
    pq.write_table(table.set_column(table.schema.get_field_index("movetext"), "movetext", pa.array(moves)), stripped)
    out = tmp_path / "out.parquet"
    udask.adjudicate([str(stripped)], str(out), client=cluster)
    same_as_cli(rows(out), data["cli"], "id")


def test_every_ply_and_timeout_only(data, cluster, tmp_path):
    out = tmp_path / "out.parquet"
    settings = udask.Settings.of(every_ply=True, timeout_only=True)
    summary = udask.adjudicate([str(data["pgn"])], str(out), client=cluster, settings=settings, chunk_bytes=1 << 20)
    expected = cli_adjudicate("--every-ply", str(data["pgn"]))
    lost_on_time = data["pgn"].read_text().count('[Termination "Time forfeit"]')
    got = rows(out)
    assert len(got) == summary.games == lost_on_time and summary.skipped == 1500 - lost_on_time
    by_offset = {record["offset"]: record for record in expected}
    same_as_cli(got, [by_offset[row["offset"]] for row in got], "offset")


def test_a_killed_worker_loses_and_duplicates_nothing(data, tmp_path):
    from distributed import Client, LocalCluster

    # A bigger input: tasks long enough to be caught running.
    big = tmp_path / "big.pgn"
    with open(big, "wb") as file:
        for _ in range(4):
            file.write(data["pgn"].read_bytes())
    out = tmp_path / "out.parquet"
    settings = udask.Settings.of(every_ply=True)
    tasks = udask.plan([str(big)], 1 << 20, workers=2)
    killed = {}

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:

            def kill_one_running_task():
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline and not killed:
                    busy = {worker: keys for worker, keys in client.processing().items() if keys}
                    partial = [name for name in os.listdir(out) if name.endswith(".tmp")] if out.exists() else []
                    if busy and partial:
                        worker = sorted(busy)[0]
                        pids = client.run(os.getpid, workers=[worker])
                        os.kill(pids[worker], signal.SIGKILL)
                        killed["worker"] = worker
                        killed["tasks"] = busy[worker]
                        return
                    time.sleep(0.01)

            killer = threading.Thread(target=kill_one_running_task)
            killer.start()
            summary = udask.adjudicate([str(big)], str(out), client=client, settings=settings, chunk_bytes=1 << 20)
            killer.join()

    assert killed, "no task was caught running"
    got = rows(out)
    assert summary.games == len(got) == 6000
    offsets = [row["offset"] for row in got]
    assert len(set(offsets)) == len(offsets)
    expected = cli_adjudicate("--every-ply", str(big))
    same_as_cli(got, expected, "offset")
    assert not [name for name in os.listdir(out) if name.endswith(".tmp")]
    assert len([name for name in os.listdir(out) if name.startswith("part-")]) == len(tasks)


def test_resume_and_overwrite(data, cluster, tmp_path):
    out = tmp_path / "out.parquet"
    first = udask.adjudicate([str(data["pgn"])], str(out), client=cluster, chunk_bytes=500_000)
    parts = sorted(name for name in os.listdir(out) if name.startswith("part-"))
    os.remove(out / parts[1])
    with pytest.raises(udask.UsageError):
        udask.adjudicate([str(data["pgn"])], str(out), client=cluster, chunk_bytes=500_000)
    with pytest.raises(udask.UsageError):
        udask.adjudicate([str(data["pgn"])], str(out), client=cluster, chunk_bytes=400_000, resume=True)
    resumed = udask.adjudicate([str(data["pgn"])], str(out), client=cluster, chunk_bytes=500_000, resume=True)
    assert (resumed.games, resumed.rules, resumed.tasks) == (first.games, first.rules, first.tasks)
    same_as_cli(rows(out), data["cli"], "offset")
    again = udask.adjudicate([str(data["pgn"])], str(out), client=cluster, overwrite=True)
    assert again.games == 1500


def test_the_command(data, tmp_path):
    out = tmp_path / "out.parquet"
    command = [sys.executable, "-m", "unwinnable.dask", "adjudicate"]
    done = subprocess.run(
        [*command, str(data["parquet"]), "--out", str(out), "--workers", "2", "-q"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 1500 and summary["tasks"] == 4
    assert "1500 games" in done.stderr and "games/s" in done.stderr
    assert "dashboard: http://" in done.stderr
    same_as_cli(rows(out), data["cli"], "id")
    for arguments in (["missing.pgn", "--out", str(tmp_path / "x")], [str(data["pgn"]), "--out", str(out)]):
        failed = subprocess.run([*command, *arguments], capture_output=True, text=True, timeout=300)
        assert failed.returncode == 2 and "error:" in failed.stderr
    usage = subprocess.run([*command, "--help"], capture_output=True, text=True)
    assert usage.returncode == 0 and "adjudicate" in usage.stdout
