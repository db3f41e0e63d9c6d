"""Chess unwinnability and the correct result of whole games, in Rust.

Given a position and a player, decide whether that player can still
deliver checkmate by *any* sequence of legal moves (a helpmate), or prove
that no such sequence exists (FIDE Laws, Art. 6.9 and 5.2.2); and give the
correct result of every game of a PGN database under the Laws.

* ``analyze(position, winner=None, *, mode="full", nodes=None,
  deadline_ms=None, tt_mb=None)`` -> ``Analysis``
* ``is_dead(position)`` -> ``True`` / ``False`` / ``None`` (undetermined)
* ``analyze_many(positions, *, threads=None, ...)`` -> list of ``Analysis``
* ``adjudicate(source, *, timeout=None, every_ply=False, ...)`` -> iterator
  of dicts, one per game
* ``InvalidFen`` and ``PgnError``: both ``ValueError`` subclasses.
* ``unwinnable.dask``: whole databases on a Dask cluster
  (``python -m unwinnable.dask adjudicate INPUT... --out OUT.parquet``).

Positions are FEN strings or ``chess.Board`` objects (anything with
``.fen()``)::

    >>> import chess, unwinnable
    >>> board = chess.Board("8/8/1p6/1B2k3/5pK1/8/8/8 b - - 0 1")
    >>> unwinnable.analyze(board, chess.WHITE).verdict
    'winnable'

Every ``winnable`` answer carries a helpmate (UCI moves) that ends in
checkmate by the winner; ``unwinnable`` comes only with a proof; a search
that hits a limit answers ``undetermined``, never a guess.
"""

from importlib.metadata import PackageNotFoundError, version

from ._native import (
    Adjudications,
    Analysis,
    InvalidFen,
    PgnError,
    adjudicate,
    analyze,
    analyze_many,
    is_dead,
)

try:
    __version__ = version("unwinnable")
except PackageNotFoundError:  # pragma: no cover - not installed (source tree)
    __version__ = "0.0.0"

__all__ = [
    "Adjudications",
    "Analysis",
    "InvalidFen",
    "PgnError",
    "adjudicate",
    "analyze",
    "analyze_many",
    "is_dead",
]
