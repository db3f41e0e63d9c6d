"""python-chess's verdict on positions, for crates/movegen/tests/reachability_python_chess.rs.

Reads lines `MARK FEN` from standard input (MARK `-` or `?`, followed by
`960` for a Chess960 position, read by python-chess with `chess960=True`)
and writes one line per input:
`STATUS EXPLAINED`, where STATUS is python-chess's `Board.status()` (an
integer bit mask, 0 for a valid position; with the bad castling rights bit
also when python-chess's parser dropped a castling letter of the FEN) and EXPLAINED is `-` when no
retrograde search was asked for (MARK `-`, or a status that is not 0), else
`yes` or `no`: whether some move of the side that just moved leads to the
position from one where the side to move was not in check.

That search is independent of the Rust rules: it tries every piece of the
side that moved, every empty square it may have come from, an optional
captured piece on its square, promotions, en passant and castling, and lets
python-chess decide whether the move is pseudo-legal in the position before,
whether it yields the position (and its en passant square, if the FEN gives
one), and whether the side to move was in check before it.
"""

import sys

import chess

PIECES = [chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN]


def origins(kind, to):
    """A superset of the squares a piece of this kind can have come from
    (python-chess's is_pseudo_legal then decides)."""
    if kind == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[to]
    if kind == chess.KING:
        return chess.BB_KING_ATTACKS[to] | chess.BB_RANK_1 | chess.BB_RANK_8  # castling too
    if kind == chess.PAWN:
        return chess.SquareSet(
            sq for sq in chess.SQUARES
            if abs(chess.square_file(sq) - chess.square_file(to)) <= 1
            and 0 < abs(chess.square_rank(sq) - chess.square_rank(to)) <= 2
        ).mask
    mask = 0
    if kind in (chess.BISHOP, chess.QUEEN):
        mask |= chess.BB_DIAG_ATTACKS[to][0]
    if kind in (chess.ROOK, chess.QUEEN):
        mask |= chess.BB_RANK_ATTACKS[to][0] | chess.BB_FILE_ATTACKS[to][0]
    return mask


def explained(board):
    them = not board.turn
    us = board.turn
    placement = board.board_fen()
    given_ep = board.ep_square
    last_rank = 7 if them == chess.WHITE else 0
    for to in chess.SquareSet(board.occupied_co[them]):
        piece = board.piece_at(to)
        kinds = [piece.piece_type]
        if piece.piece_type in PIECES and chess.square_rank(to) == last_rank:
            kinds.append(chess.PAWN)
        for kind in kinds:
            for frm in chess.SquareSet(origins(kind, to)):
                if board.piece_at(frm) is not None:
                    continue
                for captured in (None, chess.KNIGHT, "ep"):
                    if tried(board, us, them, piece, kind, frm, to, captured, placement, given_ep):
                        return True
    if board.chess960 and given_ep is None:
        return castled_960(board, us, them, placement)
    return False


def castled_960(board, us, them, placement):
    """Whether a Chess960 castling of `them` (king and rook from any squares
    of its first rank, python-chess deciding its legality) leads to `board`
    from a position where `us` was not in check."""
    rank = 0 if them == chess.WHITE else 7
    for king_to, rook_to in ((6, 5), (2, 3)):
        king_now = chess.square(king_to, rank)
        rook_now = chess.square(rook_to, rank)
        if board.piece_at(king_now) != chess.Piece(chess.KING, them):
            continue
        if board.piece_at(rook_now) != chess.Piece(chess.ROOK, them):
            continue
        for king_file in range(8):
            for rook_file in range(8):
                if rook_file == king_file or (rook_file > king_file) != (king_to == 6):
                    continue
                king_from = chess.square(king_file, rank)
                rook_from = chess.square(rook_file, rank)
                if any(board.piece_at(sq) is not None and sq not in (king_now, rook_now) for sq in (king_from, rook_from)):
                    continue
                before = board.copy(stack=False)
                before.remove_piece_at(king_now)
                before.remove_piece_at(rook_now)
                before.set_piece_at(king_from, chess.Piece(chess.KING, them))
                before.set_piece_at(rook_from, chess.Piece(chess.ROOK, them))
                before.turn = them
                before.ep_square = None
                before.castling_rights = chess.BB_SQUARES[rook_from]
                move = chess.Move(king_from, rook_from)
                if not before.is_legal(move) or before.was_into_check():
                    continue
                before.push(move)
                if before.board_fen() == placement:
                    return True
    return False


def tried(board, us, them, piece, kind, frm, to, captured, placement, given_ep):
    """Whether this last move leads to `board` from a position where `us` was not in check."""
    if kind == chess.PAWN and chess.BB_SQUARES[frm] & chess.BB_BACKRANKS:
        return False
    before = board.copy(stack=False)
    before.remove_piece_at(to)
    before.set_piece_at(frm, chess.Piece(kind, them))
    before.turn = them
    before.ep_square = None
    before.castling_rights = chess.BB_EMPTY
    if captured == "ep":
        if kind != chess.PAWN or piece.piece_type != chess.PAWN:
            return False
        behind = to - 8 if them == chess.WHITE else to + 8
        if board.piece_at(behind) is not None:
            return False
        before.set_piece_at(behind, chess.Piece(chess.PAWN, us))
        before.ep_square = to
        if before.status() & chess.STATUS_INVALID_EP_SQUARE:
            return False
    elif captured is not None:
        before.set_piece_at(to, chess.Piece(captured, us))
    promotion = piece.piece_type if kind == chess.PAWN and piece.piece_type != chess.PAWN else None
    move = chess.Move(frm, to, promotion=promotion)
    if kind == chess.KING and chess.square_distance(frm, to) == 2 and not board.chess960:
        if captured is not None:
            return False
        rook_from = chess.H1 if chess.square_file(to) == 6 else chess.A1
        if them == chess.BLACK:
            rook_from ^= 0x38
        rook_to = (frm + to) // 2
        if board.piece_at(rook_to) != chess.Piece(chess.ROOK, them) or board.piece_at(rook_from):
            return False
        before.remove_piece_at(rook_to)
        before.set_piece_at(rook_from, chess.Piece(chess.ROOK, them))
        before.castling_rights = chess.BB_SQUARES[rook_from]
    if not before.is_pseudo_legal(move) or before.was_into_check():
        return False
    before.push(move)
    if before.board_fen() != placement:
        return False
    return given_ep is None or before.ep_square == given_ep


def main():
    out = []
    for line in sys.stdin:
        mark, fen = line.rstrip("\n").split(" ", 1)
        chess960 = mark.endswith("960")
        mark = mark[0]
        board = chess.Board(fen, chess960=chess960)
        status = int(board.status())
        # python-chess's parser drops a castling letter that has no rook on
        # the back rank, where we reject the FEN: such a right counts as a
        # bad one here.
        if board.castling_xfen() != fen.split(" ")[2]:
            status |= int(chess.STATUS_BAD_CASTLING_RIGHTS)
        answer = "-"
        if mark == "?" and status == 0:
            answer = "yes" if explained(board) else "no"
        out.append(f"{status} {answer}\n")
    sys.stdout.write("".join(out))


main()
