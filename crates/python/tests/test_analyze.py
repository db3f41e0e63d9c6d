"""analyze, is_dead, analyze_many: answers against labelled data (the
paper's positions, the dev set), helpmates replayed with python-chess,
bad input, threads, the GIL and Ctrl-C."""

from __future__ import annotations

import doctest
import json
import signal
import subprocess
import sys
import threading
import time

import chess
import pytest

import unwinnable
from conftest import TESTDATA, binary, without_none

# White's helpmate here takes the full algorithm 142 nodes to find.
BACK_RANK = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1"
# Paper position 3: White mates after 28 moves with two underpromotions;
# the shortest mode (iterative deepening without heuristics) runs for
# minutes (8 million nodes in 3 s without an answer).
LONG = "8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1"


def labelled(path, limit=None):
    """(label, fen) pairs of a labelled file: `WB`, `W-`, `-B`, `--`."""
    pairs = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if path.suffix == ".tsv":
            _, label, fen = line.split("\t")[:3]
        else:
            label, fen = line.split(" ", 1)
        pairs.append((label, fen.strip()))
    return pairs[:limit]


def check(fen: str, color: bool, label: str, analysis) -> None:
    """The answer agrees with the label; a helpmate replays to mate."""
    can_mate = label[0 if color == chess.WHITE else 1] != "-"
    if can_mate:
        assert analysis.verdict == "winnable", (fen, color, analysis)
        board = chess.Board(fen)
        for uci in analysis.helpmate:
            move = chess.Move.from_uci(uci)
            assert move in board.legal_moves, (fen, uci)
            board.push(move)
        assert board.is_checkmate() and board.turn != color, (fen, analysis.helpmate)
    else:
        # The labelled positions are all decided within the default limits.
        assert analysis.verdict == "unwinnable", (fen, color, analysis)
        assert analysis.helpmate is None and analysis.reason


@pytest.mark.parametrize("label,fen", labelled(TESTDATA / "paper-positions.tsv"))
def test_paper_positions(label, fen):
    for color in (chess.WHITE, chess.BLACK):
        check(fen, color, label, unwinnable.analyze(chess.Board(fen), color))
    assert unwinnable.is_dead(fen) is (label == "--")


def test_dev_set_in_parallel():
    pairs = labelled(TESTDATA / "dev-positions.txt", limit=150)
    queries = [(fen, color) for _, fen in pairs for color in ("white", "black")]
    answers = unwinnable.analyze_many(queries, threads=2)
    assert len(answers) == len(queries)
    for (fen, color), answer in zip(queries, answers):
        assert answer.fen == fen and answer.winner == color
        label = dict((f, l) for l, f in pairs)[fen]
        check(fen, chess.WHITE if color == "white" else chess.BLACK, label, answer)


# `memory_mb` means what `--memory-mb` means: the budget of the whole run,
# planned by the pipeline for its threads (here one), so a call and the
# command give the same analyzer the same share.
COMMAND_MEMORY_MB = 1024


def test_same_answers_as_the_command():
    fens = [fen for _, fen in labelled(TESTDATA / "paper-positions.tsv")]
    out = subprocess.run(
        [str(binary("unwinnable")), "analyze", "--format", "jsonl", "--winner", "both"]
        + ["--threads", "1", "--memory-mb", str(COMMAND_MEMORY_MB)],
        input="\n".join(fens),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    expected = [json.loads(line) for line in out.splitlines()]
    got = [
        unwinnable.analyze(fen, color, memory_mb=COMMAND_MEMORY_MB).to_dict()
        for fen in fens
        for color in ("white", "black")
    ]
    assert len(got) == len(expected) == 2 * len(fens)
    for mine, theirs in zip(got, expected):
        # The same fields (the command leaves out those without a value and
        # numbers its input lines).
        assert set(without_none(mine)) == set(theirs), (mine, theirs)
        for key in ("fen", "winner", "verdict", "helpmate", "helpmate_san", "reason", "cause", "nodes"):
            assert mine[key] == theirs.get(key), (key, theirs["line"], theirs["winner"])


def test_winner_and_inputs():
    board = chess.Board("8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1")
    by_board = unwinnable.analyze(board)
    assert by_board.winner == "white"  # the side not to move
    for winner in ("white", "WHITE", "w", chess.WHITE):
        same = unwinnable.analyze(board.fen(), winner)
        assert (same.verdict, same.helpmate) == (by_board.verdict, by_board.helpmate)
    assert unwinnable.analyze(board, chess.BLACK).winner == "black"
    four_fields = unwinnable.analyze("8/8/1p6/1B2k3/5pK1/8/8/8 b - -", "white")
    assert four_fields.helpmate == by_board.helpmate
    assert "winnable" in repr(by_board) and board.fen() in repr(by_board)
    # A position already checkmate by the winner: the empty helpmate.
    mated = chess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert mated.is_checkmate()
    answer = unwinnable.analyze(mated, chess.BLACK)
    assert (answer.verdict, answer.helpmate) == ("winnable", [])
    assert unwinnable.analyze(mated, chess.WHITE).verdict == "unwinnable"


def test_chess960_boards():
    # King b1, rook a1: O-O-O takes the king to c1 and the rook to d1, where
    # it mates the king on d8 boxed in by its own rooks and pawns.
    board = chess.Board("2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1", chess960=True)
    answer = unwinnable.analyze(board, chess.WHITE)
    assert answer.verdict == "winnable"
    # The helpmate in python-chess's Chess960 notation (king takes rook),
    # replayed by python-chess to mate.
    replay = board.copy()
    for move in answer.helpmate:
        replay.push_uci(move)
    assert replay.is_checkmate() and replay.turn == chess.BLACK
    # The Shredder-FEN and the X-FEN strings are read as the same position.
    for fen in (board.fen(), board.shredder_fen()):
        assert unwinnable.analyze(fen, chess.WHITE).verdict == "winnable"
    # A Chess960 start position: both sides can mate.
    start = chess.Board.from_chess960_pos(0)
    assert unwinnable.is_dead(start) is False


@pytest.mark.parametrize(
    "fen",
    [
        "",
        "nonsense",
        "8/8/8/8/8/8/8/8 w - - 0 1",  # no kings
        "4k3/8/8/8/8/8/8/4K2P w - - 0 1",  # a pawn on the back rank
        "4k3/8/8/8/8/8/8/4K3 x - - 0 1",  # side to move
        "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1",  # castling without rooks
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\x00",
        "k7/8/8/8/8/8/8/7K\u00e9 w - - 0 1",
    ],
)
def test_garbage_fen(fen):
    for call in (unwinnable.analyze, unwinnable.is_dead):
        with pytest.raises(unwinnable.InvalidFen) as error:
            call(fen)
        assert isinstance(error.value, ValueError)
    with pytest.raises(unwinnable.InvalidFen, match="item 1"):
        unwinnable.analyze_many(["8/8/8/8/8/8/8/K1k5 w - - 0 1", fen])


def test_bad_arguments():
    fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1"
    with pytest.raises(TypeError):
        unwinnable.analyze(42)
    with pytest.raises(TypeError):
        unwinnable.analyze(fen, 3)
    # Every bad argument's error names the argument.
    for kwargs, name in (
        ({"mode": "fast"}, "mode"),
        ({"nodes": 0}, "nodes"),
        ({"nodes": -5}, "nodes"),
        ({"deadline_ms": -1.0}, "deadline_ms"),
        ({"memory_mb": 0}, "memory_mb"),
    ):
        with pytest.raises(ValueError, match=f"^{name}: "):
            unwinnable.analyze(fen, **kwargs)
    with pytest.raises(TypeError, match="tt_mb"):
        unwinnable.analyze(fen, tt_mb=64)
    with pytest.raises(ValueError, match="^winner: "):
        unwinnable.analyze(fen, "green")
    with pytest.raises(ValueError, match="^threads: "):
        unwinnable.analyze_many([fen], threads=0)
    with pytest.raises(TypeError, match="^timeout must be"):
        unwinnable.adjudicate(fen, timeout=3)
    assert unwinnable.analyze_many([]) == []
    # A string where a list is expected.
    with pytest.raises(TypeError, match="^positions must be a list"):
        unwinnable.analyze_many(fen)


def test_python_chess_conventions():
    """Issue 32: colours round-trip, analyses compare by value and pickle,
    moves are chess.Move, "both" is accepted, other variants are refused,
    the FEN rules are the command's."""
    import pickle

    import chess.variant

    board = chess.Board(LONG)
    analysis = unwinnable.analyze(board, chess.WHITE)
    assert analysis.color == chess.WHITE and analysis.winner == "white"
    assert unwinnable.analyze(board, analysis.color).helpmate == analysis.helpmate
    again = pickle.loads(pickle.dumps(analysis))
    assert again == analysis and hash(again) == hash(analysis) and again is not analysis
    assert analysis != unwinnable.analyze(board, chess.BLACK)
    for move in analysis.moves():
        assert isinstance(move, chess.Move)
        board.push(move)
    assert board.is_checkmate() and board.outcome().winner == chess.WHITE
    white, black = unwinnable.analyze(LONG, "both")
    assert (white.color, black.color) == (chess.WHITE, chess.BLACK)
    both = unwinnable.analyze_many([LONG], "both")
    assert [a.winner for a in both] == ["white", "black"]
    for variant in (chess.variant.AtomicBoard(), chess.variant.AntichessBoard(), chess.variant.KingOfTheHillBoard(),
                    chess.variant.RacingKingsBoard()):
        with pytest.raises(ValueError, match="^position: a board of the variant"):
            unwinnable.analyze(variant)
    # The command's FEN rules: 5 fields and a fullmove number 0 are refused.
    for fen in ("8/8/8/8/8/8/8/K1k5 w - - 0", "8/8/8/8/8/8/8/K1k5 w - - 0 0"):
        with pytest.raises(unwinnable.InvalidFen):
            unwinnable.analyze(fen)
    # A dict with the keys of the command's records, integers as integers.
    record = unwinnable.analyze(LONG, "white").to_dict()
    assert isinstance(record["nodes"], int) and record["line"] == 1


def test_limits_give_undetermined_never_a_guess():
    answer = unwinnable.analyze(BACK_RANK, "white", nodes=50)
    assert (answer.verdict, answer.cause, answer.helpmate) == ("undetermined", "node-budget", None)
    assert answer.nodes <= 50
    assert unwinnable.is_dead(BACK_RANK, nodes=50) is not True
    # A static proof needs no search: it holds whatever the budget.
    dead = "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 54"
    assert unwinnable.analyze(dead, "white", nodes=1).verdict == "unwinnable"
    answer = unwinnable.analyze(LONG, "white", mode="shortest", deadline_ms=50)
    assert (answer.verdict, answer.cause) == ("undetermined", "deadline")
    quick = unwinnable.analyze(chess.Board(), "white", mode="quick")
    assert quick.verdict in ("winnable", "undetermined")


def test_shortest_mode_finds_a_shortest_helpmate():
    # Mate in one for White (back-rank mate): the shortest is one ply.
    answer = unwinnable.analyze("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "white", mode="shortest")
    assert answer.helpmate == ["d1d8"]


def test_python_threads_share_the_work():
    fens = [fen for _, fen in labelled(TESTDATA / "paper-positions.tsv")]
    expected = [unwinnable.analyze(fen, "white").verdict for fen in fens]
    results = {}

    def worker(index):
        results[index] = [unwinnable.analyze(fen, "white").verdict for fen in fens]

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(results[i] == expected for i in range(4))


def test_the_gil_is_released_during_analysis():
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    start = ticks
    unwinnable.analyze(LONG, "white", mode="shortest", deadline_ms=600)
    during = ticks - start
    done.set()
    counter.join()
    # Holding the GIL for 600 ms would have let the counter run only
    # around the call; released, it ticks about every millisecond.
    assert during > 100


# The child installs Python's own Ctrl-C handler first: a process started in
# the background by a shell without job control (`cmd &` in a script, as some
# CI runners do) inherits SIGINT as ignored, and Python then never installs
# the handler that raises KeyboardInterrupt. What is tested is that the
# analysis notices the handler's flag, not how the runner was launched.
SCRIPT = """
import signal, sys, time, unwinnable
signal.signal(signal.SIGINT, signal.default_int_handler)
print("started", flush=True)
start = time.monotonic()
try:
    {call}
except KeyboardInterrupt:
    print("KeyboardInterrupt after %.2f s" % (time.monotonic() - start), flush=True)
    raise
print("finished", flush=True)
"""


@pytest.mark.parametrize(
    "call",
    [
        f"unwinnable.analyze({LONG!r}, 'white', mode='shortest', nodes=10**15)",
        f"unwinnable.analyze_many([{LONG!r}] * 4, 'white', threads=2, mode='shortest', nodes=10**15)",
        f"unwinnable.is_dead({LONG!r}, mode='shortest', nodes=10**15)",
    ],
)
def test_ctrl_c_interrupts_a_long_analysis(call):
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT.format(call=call)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline().strip() == "started"
    time.sleep(1.0)
    assert process.poll() is None, "the analysis should still be running"
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    stopped = time.monotonic() - sent
    assert "KeyboardInterrupt after" in out and "finished" not in out
    assert "KeyboardInterrupt" in err and process.returncode != 0
    assert stopped < 2.0, f"took {stopped:.2f} s to stop"


def test_docstring_examples():
    for name in ("analyze", "is_dead", "analyze_many", "adjudicate"):
        function = getattr(unwinnable, name)
        assert ">>>" in function.__doc__
        tests = doctest.DocTestFinder().find(function, name, globs={name: function})
        runner = doctest.DocTestRunner()
        for test in tests:
            runner.run(test)
        assert runner.failures == 0 and runner.tries > 0, name


def test_unreachable_positions_are_flagged_and_strict_rejects_them():
    # Issue 33: nine white pawns; two rooks checking on one rank.
    nine = "rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    analysis = unwinnable.analyze(nine, "black", nodes=10_000)
    assert analysis.unreachable == "white has 9 pawns (a game has at most 8)"
    assert analysis.to_dict()["unreachable"] == analysis.unreachable
    rooks = chess.Board("R3k2R/8/8/8/8/8/8/4K3 b - - 0 1")
    assert unwinnable.analyze(rooks, chess.WHITE).unreachable.startswith("no last move could have given the check")
    # python-chess agrees that these cannot arise.
    assert not chess.Board(nine).is_valid() and not rooks.is_valid()
    for position in (nine, rooks):
        with pytest.raises(unwinnable.InvalidFen, match="rejected with strict=True"):
            unwinnable.analyze(position, "white", strict=True)
    # A reachable position: no flag, and strict changes nothing.
    p3 = "8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1"
    assert unwinnable.analyze(p3, "white").unreachable is None
    assert unwinnable.analyze(p3, "white", strict=True).verdict == "winnable"
    # The same field as the command's records.
    out = subprocess.run(
        [str(binary("unwinnable")), "analyze", "--format", "jsonl", "-q", nine, "black"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert json.loads(out)["unreachable"] == analysis.unreachable


def test_stubs_name_the_api():
    stub = (unwinnable.__file__.replace("__init__.py", "_native.pyi"))
    text = open(stub).read()
    from unwinnable import _native

    for name in unwinnable.__all__:
        if hasattr(_native, name):
            assert f"def {name}(" in text or f"class {name}" in text, name
    assert open(unwinnable.__file__.replace("__init__.py", "py.typed")).read() == ""


def test_certificates_are_checked_by_the_independent_checker() -> None:
    # The paper's Position 1: unwinnable for White (the paper); the other
    # position: White mates (its helpmate replays in python-chess).
    dead = chess.Board("8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 b - - 0 1")
    proof = unwinnable.analyze(dead, chess.WHITE, certificate=True)
    assert proof.verdict == "unwinnable" and proof.certificate["kind"] == "static"
    assert unwinnable.check(proof) == "accepted"
    assert unwinnable.check(proof.to_dict()) == "accepted"
    assert unwinnable.check(json.dumps(proof.to_dict())) == "accepted"
    mate = unwinnable.analyze(chess.Board("8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1"), chess.WHITE, certificate=True)
    assert mate.verdict == "winnable" and unwinnable.check(mate) == "accepted"
    # A helpmate of no moves (the position is no mate), no certificate, no
    # record: rejected.
    empty = mate.to_dict()
    empty["certificate"] = dict(empty["certificate"], moves=[])
    assert unwinnable.check(empty).startswith("rejected: ")
    assert unwinnable.check(unwinnable.analyze(dead, chess.WHITE)).startswith("rejected: ")
    assert unwinnable.check("not json").startswith("rejected: ")
    with pytest.raises(TypeError, match="record"):
        unwinnable.check(42)  # type: ignore[arg-type]
