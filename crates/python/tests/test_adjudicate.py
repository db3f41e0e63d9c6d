"""adjudicate(): the same records as `unwinnable adjudicate --format
jsonl`, from every kind of source; errors; byte ranges of a file cut on
game boundaries give the games of the whole file."""

from __future__ import annotations

import pytest

import unwinnable
from conftest import TESTDATA, cli_adjudicate, without_none
from unwinnable import _native

PGN_FILES = sorted((TESTDATA / "pgn").glob("*.pgn"))


def test_same_records_as_the_command(data):
    records = list(unwinnable.adjudicate(str(data["pgn"]), threads=2))
    assert [without_none(record) for record in records] == data["cli"]
    assert len(records) == 1500 and all(record["input"] == str(data["pgn"]) for record in records)


def test_zstd_every_ply_and_one_thread(data):
    expected = cli_adjudicate("--every-ply", str(data["zst"]))
    records = unwinnable.adjudicate(data["zst"], every_ply=True, threads=1)
    assert [without_none(record) for record in records] == expected


@pytest.mark.parametrize("path", PGN_FILES, ids=lambda path: path.name)
def test_project_pgn_files(path):
    """The project's PGN test files (checkmates, dead positions, timeouts,
    malformed and truncated games, junk): the same records and error
    records as the command (one pipeline: the same texts)."""
    expected = cli_adjudicate(str(path))
    records = list(unwinnable.adjudicate(path))
    assert [without_none(record) for record in records] == expected


def test_sources_text_bytes_pathlike(data):
    text = data["pgn"].read_text()
    expected = data["cli"][:50]
    for source, name in ((text, "<string>"), (text.encode(), "<bytes>"), (data["pgn"], str(data["pgn"]))):
        records = unwinnable.adjudicate(source)
        first = [next(records) for _ in range(50)]
        assert all(record["input"] == name for record in first)
        assert [{**without_none(r), "input": "x"} for r in first] == [{**e, "input": "x"} for e in expected]
    with pytest.raises(FileNotFoundError):
        unwinnable.adjudicate("no-such-file.pgn")
    # Issue 32: a missing path with a space in it is not PGN text.
    with pytest.raises(FileNotFoundError):
        unwinnable.adjudicate("no such file.pgn")
    with pytest.raises(TypeError, match="^source must be"):
        unwinnable.adjudicate(42)
    with pytest.raises(ValueError, match="^errors: "):
        unwinnable.adjudicate(text, errors="ignore")
    with pytest.raises(ValueError, match="^timeout: "):
        unwinnable.adjudicate(text, timeout="red")
    # A file object, a chess.pgn.Game and a list of sources.
    with open(data["pgn"], "rb") as file:
        first = [next(iter(unwinnable.adjudicate(file))) for _ in range(1)]
    assert {**without_none(first[0]), "input": "x"} == {**expected[0], "input": "x"}
    import io

    import chess.pgn

    game = chess.pgn.read_game(io.StringIO(text))
    record = next(unwinnable.adjudicate(game))
    assert record["input"] == "<game>" and (record["recorded"], record["correct"]) == (
        expected[0]["recorded"],
        expected[0]["correct"],
    )
    both = list(unwinnable.adjudicate([data["pgn"], data["zst"]], threads=1))
    assert len(both) == 3000 and {r["input"] for r in both} == {str(data["pgn"]), str(data["zst"])}


def test_timeout_option_and_timeout_only(data):
    text = (TESTDATA / "pgn" / "checkmate.pgn").read_text()
    assert [without_none(r) for r in unwinnable.adjudicate(text, timeout="white")] == [
        {**r, "input": "<string>"} for r in cli_adjudicate("--timeout", "white", str(TESTDATA / "pgn" / "checkmate.pgn"))
    ]
    records = unwinnable.adjudicate(data["pgn"], timeout_only=True)
    kept = list(records)
    lost_on_time = data["pgn"].read_text().count('[Termination "Time forfeit"]')
    assert len(kept) == lost_on_time and records.skipped == 1500 - lost_on_time
    by_offset = {record["offset"]: record for record in data["cli"]}
    assert all(without_none(record) == by_offset[record["offset"]] for record in kept)


def test_malformed_games_raise_pgn_error_and_iteration_goes_on():
    text = '[Event "a"]\n\n1. e4 e5 1-0\n\n[Event "b"]\n\n1. e4 Ke7?? 2. Qh5 0-1\n\n1. d4 1/2-1/2\n'
    records = unwinnable.adjudicate(text, errors="raise")
    assert next(records)["recorded"] == "1-0"
    with pytest.raises(unwinnable.PgnError) as error:
        next(records)
    assert isinstance(error.value, ValueError)
    assert (error.value.game, error.value.input) == (2, "<string>")
    assert error.value.offset == text.index('[Event "b"]')
    assert "illegal move" in str(error.value)
    assert next(records)["recorded"] == "1/2-1/2"
    with pytest.raises(StopIteration):
        next(records)


def test_garbage_bytes_never_crash():
    garbage = bytes(range(256)) * 64 + b"\n[Event \"x\"]\n\n1. e4 *\n" + b"\xff\xfe{[(" * 1000
    records = list(unwinnable.adjudicate(garbage))
    assert records and all(record.get("error") or record.get("rule") for record in records)
    assert list(unwinnable.adjudicate(b"hello\n"))[0]["error"]
    broken = b"\x28\xb5\x2f\xfd" + b"\x00" * 64  # a zstd magic number and junk
    with pytest.raises(OSError):
        list(unwinnable.adjudicate(broken, errors="raise"))
    assert list(unwinnable.adjudicate(broken))[-1]["error"]


TRICKY = (
    '[Event "tags only"]\n[Site "a"]\n\n'
    '[Event "comment across lines"]\n\n1. e4 { a comment\n[Not "a tag"]\n[Still "a tag?"] } e5 1-0\n\n'
    "%escape line between games\n"
    '[Event "escape in tags"]\n%escape\n[Site "b"]\n\n1. d4 d5 *\n'
    '[Event "no blank line before the next"]\n1. c4 0-1\n'
    "junk without tags\n"
    '[Event "vt"]\n\x0b\n[Site "c"]\n\n1. e4 (1. d4 {x\n[Y "z"]\n}) e5 *\n\n'
    '[Event "crlf"]\r\n\r\n1. Nf3 Nf6 1/2-1/2\r\n\r\n'
    '[Event "unterminated"]\n\n1. e4 e5\n\n'
    '[Event "last"]\n\n1. e4 e5 1-0\n'
)


def in_ranges(path, chunk, **options):
    """The records of `path` read range by range, numbered by counting."""
    offsets = _native._pgn_boundaries(str(path), chunk)
    assert offsets[0] == 0 and offsets[-1] == path.stat().st_size and offsets == sorted(set(offsets))
    records, first = [], 1
    text = path.read_bytes()
    for start, end in zip(offsets, offsets[1:]):
        records += list(_native._adjudicate_range(str(path), start, end, first, options))
        first += _native._count_games(text[start:end])
    return records


def in_chunks(path, chunk, **options):
    """The records of `path` decompressed once and cut into chunks."""
    records, first = [], 1
    for start, text in _native._chunks(str(path), chunk):
        records += list(_native._adjudicate_chunk(str(path), text, start, first, options))
        first += _native._count_games(text)
    return records


@pytest.mark.parametrize("name", ["tricky", *[path.name for path in PGN_FILES]])
def test_byte_ranges_give_the_games_of_the_whole_file(tmp_path, name):
    path = tmp_path / "input.pgn"
    if name == "tricky":
        path.write_bytes(TRICKY.encode() * 3)
    else:
        path.write_bytes((TESTDATA / "pgn" / name).read_bytes())
    whole = list(unwinnable.adjudicate(path))
    for chunk in (1, 7, 64, 200, 1000, path.stat().st_size):
        assert in_ranges(path, chunk) == whole, chunk
        assert in_chunks(path, chunk) == whole, chunk


def test_byte_ranges_of_generated_games(data):
    # 1,500 games of about 2.7 kB: some 40 ranges of 100 kB.
    assert len(_native._pgn_boundaries(str(data["pgn"]), 100_000)) >= 30
    assert [without_none(r) for r in in_ranges(data["pgn"], 100_000)] == data["cli"]
    chunked = in_chunks(data["zst"], 100_000)
    assert [{**without_none(r), "input": "x"} for r in chunked] == [{**r, "input": "x"} for r in data["cli"]]


def test_the_private_entry_points_take_adjudicates_options_as_a_dict():
    # A game lost on time by White where Black, with a lone king and a rook
    # against queen and bishop, could still mate: the timeout stands.
    text = (
        '[Result "0-1"]\n[SetUp "1"]\n[FEN "8/4P2p/1p6/3Q1P2/2p3B1/Pk6/1P6/1K3r2 w - - 1 38"]\n'
        '[Termination "Time forfeit"]\n\n0-1\n'
    )
    for options in ({}, {"mode": "quick", "nodes": 5000}, {"timeout": "white", "timeout_only": True, "threads": 1}):
        native = [{**r, "input": None} for r in _native._adjudicate_texts([text], "x", options)]
        public = [{**r, "input": None} for r in unwinnable.adjudicate(text, **options)]
        assert native == public, options
    assert list(_native._adjudicate_texts([text], "x", None)) == list(_native._adjudicate_texts([text], "x"))
    # None is the default, as for the keywords.
    assert list(_native._adjudicate_texts([text], "x", {"mode": None})) == list(_native._adjudicate_texts([text], "x"))
    with pytest.raises(TypeError, match="not an option"):
        _native._adjudicate_texts([text], "x", {"mdoe": "quick"})
    with pytest.raises(ValueError, match="mode"):
        _native._adjudicate_texts([text], "x", {"mode": "fast"})


def test_texts_one_game_each():
    texts = ['[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1', "", '1. e4 e5 1-0\n\n1. d4 d5 0-1', b"1. e4 *"]
    records = list(_native._adjudicate_texts(texts, "table.parquet"))
    assert [r.get("rule") or r["error"] for r in records] == [
        "checkmate",
        "no game in the text",
        "the text holds more than one game",
        "recorded",
    ]
    assert [r["game"] for r in records] == [1, 2, 3, 4]
