"""Chess unwinnability and the correct result of whole games, in Rust.

Given a position and a player, decide whether that player can still
deliver checkmate by *any* sequence of legal moves (a helpmate), or prove
that no such sequence exists (FIDE Laws, Art. 6.9 and 5.2.2); and give the
correct result of every game of a PGN database under the Laws. The
functions run the pipeline of the ``unwinnable`` command (its options,
inputs, steps and records).

* ``analyze(position, winner=None, *, mode="full", nodes=None,
  deadline_ms=None, memory_mb=None, strict=False, certificate=False)``
  -> ``Analysis`` (a tuple of two with ``winner="both"``)
* ``is_dead(position)`` -> ``True`` / ``False`` / ``None`` (undetermined)
* ``analyze_many(positions, winner=None, *, threads=None, ...)`` -> list of
  ``Analysis``
* ``adjudicate(source, *, timeout=None, every_ply=False, ...)`` -> iterator
  of dicts, one per game
* ``check(record)``: what the independent checker says of a record's
  certificate (``certificate=True``): ``"accepted"``, or ``"rejected: "``
  and the step that failed
* ``termination(rule)``: the ``chess.Termination`` of a record's rule,
  where python-chess has one
* ``InvalidFen`` and ``PgnError``: both ``ValueError`` subclasses.
* ``unwinnable.dask``: whole databases on a Dask cluster
  (``python -m unwinnable.dask adjudicate INPUT... --out OUT.parquet``).

Positions are FEN strings or ``chess.Board`` objects (anything with
``.fen()``); colours are ``"white"``, ``"black"`` or python-chess colours::

    >>> import chess, unwinnable
    >>> board = chess.Board("8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1")
    >>> unwinnable.analyze(board, chess.WHITE).verdict
    'winnable'

Every ``winnable`` answer carries a helpmate (UCI moves) that ends in
checkmate by the winner; ``unwinnable`` comes only with a proof; a search
that hits a limit answers ``undetermined``, never a guess.
"""

from importlib.metadata import PackageNotFoundError, version
from typing import Any, Optional

from ._native import (
    Adjudications,
    Analysis,
    InvalidFen,
    PgnError,
    adjudicate,
    analyze,
    analyze_many,
    check,
    is_dead,
)

try:
    __version__ = version("unwinnable")
except PackageNotFoundError:  # pragma: no cover - not installed (source tree)
    __version__ = "0.0.0"

#: The rules of the records (``record["rule"]``) that python-chess names in
#: ``chess.Termination``, by that name. A dead position is wider than
#: python-chess's insufficient material, so it has none; nor have a timeout
#: and a recorded result.
TERMINATIONS = {
    "checkmate": "CHECKMATE",
    "stalemate": "STALEMATE",
    "fivefold-repetition": "FIVEFOLD_REPETITION",
    "seventy-five-moves": "SEVENTYFIVE_MOVES",
}


def termination(rule: str) -> Optional[Any]:
    """The ``chess.Termination`` of a record's ``rule`` (``"checkmate"``
    is ``chess.Termination.CHECKMATE``), or ``None`` where python-chess has
    none (``"dead-position"``, ``"timeout"``, ``"recorded"``).

    >>> import chess
    >>> termination("seventy-five-moves") is chess.Termination.SEVENTYFIVE_MOVES
    True
    """
    name = TERMINATIONS.get(rule)
    if name is None:
        return None
    import chess

    return chess.Termination[name]


__all__ = [
    "Adjudications",
    "Analysis",
    "InvalidFen",
    "PgnError",
    "TERMINATIONS",
    "adjudicate",
    "analyze",
    "analyze_many",
    "check",
    "is_dead",
    "termination",
]
