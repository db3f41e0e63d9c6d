"""unwinnable.dask with fsspec URLs, against real servers started here: a
S3-compatible server (moto's server mode) for input and output, and
`python -m http.server` for input; the data-frame API (map_partitions),
nullable integer columns, progress with an ETA."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pyarrow.parquet as pq
import pytest

from conftest import S3_PORT, without_none
from unwinnable import dask as udask

pytest.importorskip("fsspec")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listens on {port}")


@pytest.fixture(scope="module")
def http_root(data):
    """`python -m http.server` serving the generated games."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(data["dir"])],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for(port)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="module")
def s3(data):
    """moto's S3 server on loopback, with a bucket holding the games."""
    pytest.importorskip("s3fs")
    pytest.importorskip("moto")
    port = S3_PORT
    process = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for(port)
    # Whatever answers must be that server, not another process on the port.
    assert process.poll() is None, f"moto's server exited (port {port} taken?)"
    endpoint = f"http://127.0.0.1:{port}"
    import fsspec

    fs = fsspec.filesystem("s3", client_kwargs={"endpoint_url": endpoint}, skip_instance_cache=True)
    fs.mkdir("games")
    fs.put(str(data["zst"]), "games/games.pgn.zst")
    fs.put(str(data["pgn"]), "games/games.pgn")
    yield endpoint
    process.terminate()
    process.wait(timeout=30)


def same_as_cli(got, cli):
    assert len(got) == len(cli)
    by_offset = {record["offset"]: record for record in cli}
    for row in got:
        expected = {k: v for k, v in by_offset[row["offset"]].items() if k != "input"}
        assert {k: v for k, v in without_none(row).items() if k != "input"} == expected


def test_input_over_http(data, cluster, http_root, tmp_path):
    out = tmp_path / "out.parquet"
    url = f"{http_root}/games.pgn.zst"
    summary = udask.adjudicate([url], str(out), client=cluster, chunk_bytes=400_000)
    got = pq.read_table(out).to_pylist()
    assert summary.games == 1500 and {row["input"] for row in got} == {url}
    same_as_cli(got, data["cli"])
    assert summary.tasks >= 4


def test_input_and_output_on_s3(data, cluster, s3):
    import fsspec

    out = "s3://games/out.parquet"
    summary = udask.adjudicate(["s3://games/games.pgn.zst", "s3://games/games.pgn"], out, client=cluster)
    assert summary.games == 3000
    fs = fsspec.filesystem("s3", client_kwargs={"endpoint_url": s3}, skip_instance_cache=True)
    names = [name.rsplit("/", 1)[-1] for name in fs.ls("games/out.parquet")]
    assert "_summary.json" in names and not [name for name in names if name.endswith(".tmp")]
    table = pq.read_table("games/out.parquet", filesystem=fs)
    rows = table.to_pylist()
    for source in ("s3://games/games.pgn.zst", "s3://games/games.pgn"):
        same_as_cli([row for row in rows if row["input"] == source], data["cli"])


def test_data_frames_and_nullable_integers(data, cluster, tmp_path):
    import dask.dataframe as dd
    import pandas as pd

    frame = pd.read_parquet(data["parquet"])
    lazy = dd.from_pandas(frame, npartitions=4)
    result = udask.adjudicate_frame(lazy).compute()
    assert list(result.columns[: len(frame.columns)]) == list(frame.columns)
    assert len(result) == 1500 and str(result["nodes"].dtype) == "Int64" and str(result["ply"].dtype) == "Int32"
    assert list(result["correct"]) == [record["correct"] for record in data["cli"]]
    assert list(result["rule"]) == [record["rule"] for record in data["cli"]]
    out = tmp_path / "out.parquet"
    udask.adjudicate([str(data["pgn"])], str(out), client=cluster)
    read = pd.read_parquet(out)
    assert str(read["nodes"].dtype) == "Int64" and read["nodes"].isna().any()


def test_progress_with_an_eta(data, cluster, tmp_path):
    seen = []
    udask.adjudicate(
        [str(data["pgn"])],
        str(tmp_path / "out.parquet"),
        client=cluster,
        chunk_bytes=200_000,
        progress=lambda done, total, summary, eta: seen.append((done, total, summary.games, eta)),
    )
    assert seen and seen[-1][0] == seen[-1][1] and seen[-1][2] == 1500
    assert any(eta is not None and eta >= 0 for _, _, _, eta in seen[:-1])
    lines = []
    show = udask._progress_printer(stream=type("S", (), {"write": lambda self, t: lines.append(t), "flush": lambda self: None})())
    show(1, 4, udask.Summary(games=10, seconds=1.0), 75.0)
    assert "1/4 tasks, 10 games" in "".join(lines) and "ETA 1:15" in "".join(lines)
