"""Issue 32: the command, the service and the Python package run one
pipeline: on the same files, plain and compressed (zstd, gzip, bzip2), they
write the same records. The real command, the real service on loopback and
the installed package."""

from __future__ import annotations

import bz2
import gzip
import json
import re
import subprocess
import urllib.request

import pytest

import unwinnable
from conftest import TESTDATA, binary, cli_adjudicate, without_none

COMPRESSIONS = {
    "plain": lambda data: data,
    "gzip": gzip.compress,
    "bzip2": bz2.compress,
    "zstd": None,  # by the zstd command, below, or skipped
}


@pytest.fixture(scope="module")
def service():
    """`unwinnable serve` on a free port of loopback."""
    process = subprocess.Popen(
        [str(binary("unwinnable")), "serve", "--addr", "127.0.0.1:0", "--workers", "2"],
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stderr.readline()
    match = re.search(r"listening on (http://[^/]+/)", line)
    assert match, line
    yield match.group(1)
    process.terminate()
    process.wait(timeout=30)


def service_adjudicate(base: str, body: bytes) -> list:
    request = urllib.request.Request(base + "api/adjudicate", data=body, method="POST")
    with urllib.request.urlopen(request, timeout=120) as response:
        return [json.loads(line) for line in response.read().decode().splitlines()]


def inputs(tmp_path, data):
    """The test files: the project's PGN files and 300 generated games,
    each plain and compressed."""
    games = data["pgn"].read_text().split("\n\n[")
    generated = ("\n\n[".join(games[:300]) + "\n").encode()
    sources = {path.name: path.read_bytes() for path in sorted((TESTDATA / "pgn").glob("*.pgn"))}
    sources["generated.pgn"] = generated
    written = []
    for name, text in sources.items():
        for compression, compress in COMPRESSIONS.items():
            path = tmp_path / f"{name}.{compression}"
            if compress is not None:
                path.write_bytes(compress(text))
            else:
                plain = tmp_path / f"{name}.plain"
                done = subprocess.run(["zstd", "-q", "-f", str(plain), "-o", str(path)], capture_output=True)
                if done.returncode != 0:
                    continue
            written.append(path)
    return written


def normalised(records, name):
    return [{**without_none(record), "input": name} for record in records]


def test_the_command_the_service_and_python_write_the_same_records(tmp_path, data, service):
    paths = inputs(tmp_path, data)
    compressions = {path.suffix for path in paths}
    assert {".plain", ".gzip", ".bzip2"} <= compressions
    for path in paths:
        command = normalised(cli_adjudicate(str(path)), "x")
        python = normalised(unwinnable.adjudicate(path), "x")
        served = normalised(service_adjudicate(service, path.read_bytes()), "x")
        assert python == command, path.name
        assert served == command, path.name
        assert command, path.name
