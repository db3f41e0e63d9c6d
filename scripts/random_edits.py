#!/usr/bin/env python3
"""Random edits of labelled positions: fresh, unlabelled test positions.

Each edit takes a position of a labelled set (`testdata/dev-positions.txt`,
`testdata/hard-positions.txt`: `LABEL FEN` lines) and changes one thing:

* ``move``: a piece other than a king moves to an empty square;
* ``remove``: a piece other than a king is taken off the board;
* ``add``: a piece (a pawn, knight, bishop, rook or queen of either colour)
  is put on an empty square.

An edit is kept when python-chess calls the result valid (`Board.is_valid`:
kings, pawns on the right ranks, the side not to move not in check, ...),
it is not already over, and it repeats neither an edit made before in the
same run nor a position of the source set. The output has one
`FEN kind source` line per edit, the format `cargo xtask compare` reads as
an unlabelled set (one query per position: the side not to move as the
intended winner, each helpmate replayed, each solver's "unwinnable" judged
against the other's replayed helpmates).

The edits are a function of the seed: the README's figures name the seeds.

    python3 scripts/random_edits.py testdata/hard-positions.txt --kind move --count 1500 --seed 91 > hard-move-91.txt
    cargo xtask compare hard-move-91.txt

Needs python-chess (`pip install chess`).
"""

import argparse
import random
import sys

import chess

PIECES = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]


def read_positions(path):
    """The (line number, FEN with 4 fields) of a `LABEL FEN` file, in order."""
    fens = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            fens.append((number, " ".join(fields[1:5])))
    return fens


def edit(board, kind, rng):
    """One random edit of `board` (a copy), or None when it found none."""
    board = board.copy(stack=False)
    pieces = [sq for sq, p in board.piece_map().items() if p.piece_type != chess.KING]
    empty = [sq for sq in chess.SQUARES if board.piece_at(sq) is None]
    if kind == "move":
        if not pieces or not empty:
            return None
        src, dst = rng.choice(pieces), rng.choice(empty)
        board.set_piece_at(dst, board.remove_piece_at(src))
    elif kind == "remove":
        if not pieces:
            return None
        board.remove_piece_at(rng.choice(pieces))
    else:
        if not empty:
            return None
        board.set_piece_at(rng.choice(empty), chess.Piece(rng.choice(PIECES), rng.choice([chess.WHITE, chess.BLACK])))
    # Castling rights and an en passant square the edit contradicts go.
    board.castling_rights = board.clean_castling_rights()
    if board.ep_square is not None and not board.has_legal_en_passant():
        board.ep_square = None
    return board


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set", help="a labelled set: LABEL FEN lines")
    parser.add_argument("--kind", choices=["move", "remove", "add"], required=True)
    parser.add_argument("--count", type=int, default=1500, help="edits to make (default 1500)")
    parser.add_argument("--seed", type=int, required=True)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    sources = read_positions(args.set)
    seen = {fen for _, fen in sources}
    made = 0
    attempts = 0
    while made < args.count:
        attempts += 1
        if attempts > 100 * args.count:
            sys.exit(f"random_edits: only {made} valid edits in {attempts} attempts")
        line, source = sources[rng.randrange(len(sources))]
        board = edit(chess.Board(source + " 0 1"), args.kind, rng)
        if board is None or not board.is_valid() or board.is_game_over(claim_draw=False):
            continue
        fen = " ".join(board.fen().split()[:4])
        if fen in seen:
            continue
        seen.add(fen)
        made += 1
        print(f"{fen} {args.kind}-of-line-{line}")


if __name__ == "__main__":
    main()
