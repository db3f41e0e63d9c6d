"""Shared fixtures: the project's binaries (`unwinnable`, `xtask`), a
generated PGN database with the command's own adjudication of it, its
zstd and Parquet editions, and a real Dask LocalCluster."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TESTDATA = ROOT / "testdata"
GAMES = 1500


def binary(name: str) -> Path:
    """`target/release/NAME`, built if missing (CI has built it already)."""
    path = ROOT / "target" / "release" / name
    if not path.exists():
        subprocess.run(["cargo", "build", "--release", "-p", "unwinnable", "-p", "xtask"], cwd=ROOT, check=True)
    return path


def cli_adjudicate(*args: str) -> list:
    """The records of `unwinnable adjudicate --format jsonl ARGS`."""
    out = subprocess.run(
        [str(binary("unwinnable")), "adjudicate", "--format", "jsonl", "--threads", "2", "-q", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(scope="session")
def data(tmp_path_factory):
    """gen-pgn output: `pgn`, `zst`, `parquet` paths and `cli` (the
    command's records of the PGN)."""
    directory = tmp_path_factory.mktemp("games")
    pgn = directory / "games.pgn"
    zst = directory / "games.pgn.zst"
    xtask = str(binary("xtask"))
    subprocess.run([xtask, "gen-pgn", str(GAMES), "--out", str(pgn)], check=True)
    subprocess.run([xtask, "gen-pgn", str(GAMES), "--out", str(zst), "--zst"], check=True)
    parquet = directory / "games.parquet"
    to_parquet(pgn, parquet, row_group_size=400)
    return {"pgn": pgn, "zst": zst, "parquet": parquet, "cli": cli_adjudicate(str(pgn)), "dir": directory}


# The columns of the public Parquet edition of the Lichess database, with
# their types (its dataset card).
LICHESS_COLUMNS = [
    ("Event", "string"),
    ("Site", "string"),
    ("White", "string"),
    ("Black", "string"),
    ("Result", "string"),
    ("WhiteTitle", "string"),
    ("BlackTitle", "string"),
    ("WhiteElo", "int16"),
    ("BlackElo", "int16"),
    ("WhiteRatingDiff", "int16"),
    ("BlackRatingDiff", "int16"),
    ("UTCDate", "date32"),
    ("UTCTime", "time32[s]"),
    ("ECO", "string"),
    ("Opening", "string"),
    ("Termination", "string"),
    ("TimeControl", "string"),
    ("movetext", "string"),
]

TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$')


def to_parquet(pgn: Path, out: Path, row_group_size: int) -> None:
    """Converts a PGN export (tag pairs, a blank line, one movetext line)
    into the Lichess Parquet layout, independently of the project's
    reader."""
    import datetime

    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = []
    for block in pgn.read_text().strip().split("\n\n["):
        block = block if block.startswith("[") else "[" + block
        header, _, movetext = block.partition("\n\n")
        tags = {}
        for line in header.splitlines():
            match = TAG.match(line)
            assert match, line
            tags[match.group(1)] = match.group(2)
        tags["movetext"] = movetext.strip()
        rows.append(tags)

    def value(name, kind, tags):
        text = tags.get(name)
        if text is None or text == "?":
            return None
        if kind == "int16":
            return int(text)
        if kind == "date32":
            return datetime.date(*map(int, text.split(".")))
        if kind == "time32[s]":
            return datetime.time(*map(int, text.split(":")))
        return text

    types = {"string": pa.string(), "int16": pa.int16(), "date32": pa.date32(), "time32[s]": pa.time32("s")}
    schema = pa.schema([(name, types[kind]) for name, kind in LICHESS_COLUMNS])
    columns = {name: [value(name, kind, row) for row in rows] for name, kind in LICHESS_COLUMNS}
    pq.write_table(pa.table(columns, schema=schema), out, row_group_size=row_group_size)


@pytest.fixture(scope="session")
def cluster():
    """A LocalCluster with two single-threaded worker processes."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        with Client(local) as client:
            yield client


def without_none(record: dict) -> dict:
    return {key: value for key, value in record.items() if value is not None}


@pytest.fixture
def repo_root():
    return ROOT


def have_zstd_tool() -> bool:
    return shutil.which("zstd") is not None


os.environ.setdefault("PYTHONFAULTHANDLER", "1")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_below_ephemeral_range() -> int:
    """A free loopback port below the kernel's ephemeral range. A port
    `free_port` returns is free only now: the Dask processes started after
    it bind port 0 and may be given the same one (a worker then answered
    the S3 server's requests). The ephemeral range never hands this one
    out; the start depends on the process so concurrent runs differ."""
    import socket

    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    start = 10000 + os.getpid() % max(low - 11000, 1)
    for port in list(range(start, low)) + list(range(10000, start)):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    return free_port()


# The S3-compatible server of test_dask_io.py (moto's server mode) listens
# on this port; the Dask workers, started before it, read these variables
# when they first use fsspec's S3 file system.
S3_PORT = port_below_ephemeral_range()
os.environ.update(
    {
        "AWS_ACCESS_KEY_ID": "test",
        "AWS_SECRET_ACCESS_KEY": "test",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": f"http://127.0.0.1:{S3_PORT}",
        "FSSPEC_S3_ENDPOINT_URL": f"http://127.0.0.1:{S3_PORT}",
    }
)
