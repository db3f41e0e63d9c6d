"""The final position of every game of PGN files, as python-chess reads them.

Usage: python final_positions.py FILE...

Writes one JSON object per game: the file, the game's number in it (from 1),
whether it is a game of standard chess or of Chess960, the errors python-chess reported, the
number of moves of the main line, and the FEN of the position after them
(the en passant square only when a legal en passant capture exists).
"""

import json
import sys

import chess
import chess.pgn


def main(paths):
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as handle:
            number = 0
            while True:
                game = chess.pgn.read_game(handle)
                if game is None:
                    break
                number += 1
                board = game.end().board()
                standard = type(board) is chess.Board and not board.chess960
                chess960 = type(board) is chess.Board and board.chess960
                record = {
                    "file": path,
                    "game": number,
                    "standard": standard,
                    "chess960": chess960,
                    "errors": [str(error) for error in game.errors],
                    "plies": len(list(game.mainline_moves())),
                    "fen": board.fen(en_passant="legal"),
                }
                print(json.dumps(record))


if __name__ == "__main__":
    main(sys.argv[1:])
