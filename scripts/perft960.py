#!/usr/bin/env python3
"""python-chess's perft and legal moves of Chess960 positions, for
`cargo xtask perft --chess960` (the independent generator it compares with).

Reads lines `DEPTH FEN` from standard input; writes one line per input, in
order: the perft counts at depths 1 to DEPTH separated by spaces, a tab,
and the legal moves of the position in UCI (python-chess's Chess960 form:
castling as the king taking its rook), sorted and separated by spaces.
Every board is `chess.Board(fen, chess960=True)`. The last ply is counted
in bulk (`legal_moves.count()`), the others are played.

    echo "3 bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1" | python3 scripts/perft960.py

`--jobs N` spreads the lines over N processes (default 1). Needs
python-chess (`pip install chess`).
"""

import argparse
import sys
from multiprocessing import Pool

import chess


def perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in list(board.legal_moves):
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def answer(line):
    depth, fen = line.rstrip("\n").split(" ", 1)
    board = chess.Board(fen, chess960=True)
    counts = [str(perft(board, d)) for d in range(1, int(depth) + 1)]
    moves = sorted(board.uci(move) for move in board.legal_moves)
    return " ".join(counts) + "\t" + " ".join(moves) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    lines = [line for line in sys.stdin if line.strip()]
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            out = pool.map(answer, lines, chunksize=4)
    else:
        out = [answer(line) for line in lines]
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
