"""The records as Arrow columns built in Rust (what unwinnable.dask writes)
hold exactly what the dicts of ``adjudicate()`` hold, converted by pyarrow
with the output schema: every file of the test data, malformed games and
unreadable inputs included, in batches of any size."""

from __future__ import annotations

import pyarrow as pa
import pytest

import unwinnable
from unwinnable import _native
from unwinnable import dask as udask
from conftest import TESTDATA

FILES = sorted((TESTDATA / "pgn").glob("*.pgn"))


def batches(path, rows, first_row=None):
    records = _native._adjudicate_range(str(path), 0, path.stat().st_size)
    tables = []
    while (batch := records._next_batch(rows, first_row)) is not None:
        tables.append(pa.Table.from_batches([pa.record_batch(batch)]))
    return tables


@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_batches_equal_the_dicts(path):
    dicts = list(_native._adjudicate_range(str(path), 0, path.stat().st_size))
    expected = pa.Table.from_pylist(dicts, udask.SCHEMA)
    for rows in (1, 7, 50_000):
        tables = batches(path, rows)
        assert all(table.num_rows <= rows for table in tables)
        got = pa.concat_tables(tables) if tables else expected.slice(0, 0)
        assert got.schema.equals(expected.schema, check_metadata=False)
        assert got.to_pylist() == expected.to_pylist(), (path.name, rows)


def test_error_records_and_row_group_numbering():
    path = TESTDATA / "pgn" / "malformed.pgn"
    dicts = list(unwinnable.adjudicate(str(path)))
    assert any(record.get("error") for record in dicts)
    got = pa.concat_tables(batches(path, 1000, first_row=100)).to_pylist()
    assert [row["game"] for row in got] == [record["game"] + 100 for record in dicts]
    assert all(row["offset"] is None for row in got)
    assert [row["error"] for row in got] == [record.get("error") for record in dicts]


def test_a_batch_is_exported_once():
    path = TESTDATA / "pgn" / "checkmate.pgn"
    records = _native._adjudicate_range(str(path), 0, path.stat().st_size)
    batch = records._next_batch(10)
    assert len(batch) > 0
    pa.record_batch(batch)
    assert len(batch) == 0
    with pytest.raises(ValueError, match="exported already"):
        pa.record_batch(batch)
