"""Type stubs of the extension module (re-exported by ``unwinnable``)."""

import os
from typing import Any, Dict, Iterable, Iterator, List, Literal, Optional, Protocol, Tuple, Union

class _HasFen(Protocol):
    def fen(self) -> str: ...

Position = Union[str, _HasFen]
"""A FEN (4 or 6 fields) or an object with ``.fen()`` (a ``chess.Board``)."""

Winner = Union[Literal["white", "black", "w", "b"], bool, None]
"""``"white"``, ``"black"``, ``chess.WHITE`` (True), ``chess.BLACK`` (False), or None."""

Mode = Literal["full", "quick", "shortest"]

Record = Dict[str, Any]
"""One game: the keys of ``unwinnable adjudicate --format jsonl``."""

INLINE_NODES: int

class InvalidFen(ValueError):
    """A position that cannot be read."""

class PgnError(ValueError):
    """A malformed PGN game."""

    input: str
    game: int
    offset: int

class Analysis:
    """The answer of one analysis."""

    @property
    def fen(self) -> str: ...
    @property
    def winner(self) -> Literal["white", "black"]: ...
    @property
    def verdict(self) -> Literal["winnable", "unwinnable", "undetermined"]: ...
    @property
    def helpmate(self) -> Optional[List[str]]: ...
    @property
    def helpmate_san(self) -> Optional[str]: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def cause(
        self,
    ) -> Optional[Literal["node-budget", "deadline", "memory", "stopped", "not-proved", "helpmate-too-long"]]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def micros(self) -> int: ...
    @property
    def unreachable(self) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Adjudications(Iterator[Record]):
    """The records of ``adjudicate()``, in input order."""

    def __iter__(self) -> "Adjudications": ...
    def __next__(self) -> Record: ...
    @property
    def skipped(self) -> int: ...
    @property
    def input(self) -> str: ...

def analyze(
    position: Position,
    winner: Winner = None,
    *,
    mode: Mode = "full",
    nodes: Optional[int] = None,
    deadline_ms: Optional[float] = None,
    tt_mb: Optional[int] = None,
    strict: bool = False,
) -> Analysis: ...
def is_dead(
    position: Position,
    *,
    mode: Mode = "full",
    nodes: Optional[int] = None,
    deadline_ms: Optional[float] = None,
    tt_mb: Optional[int] = None,
) -> Optional[bool]: ...
def analyze_many(
    positions: Iterable[Union[Position, Tuple[Position, Winner]]],
    winner: Winner = None,
    *,
    threads: Optional[int] = None,
    mode: Mode = "full",
    nodes: Optional[int] = None,
    deadline_ms: Optional[float] = None,
    tt_mb: Optional[int] = None,
) -> List[Analysis]: ...
def adjudicate(
    source: Union[str, bytes, bytearray, "os.PathLike[str]"],
    *,
    timeout: Optional[Literal["white", "black"]] = None,
    every_ply: bool = False,
    timeout_only: bool = False,
    nodes: Optional[int] = None,
    tt_mb: Optional[int] = None,
    threads: Optional[int] = None,
    errors: Literal["raise", "record"] = "raise",
) -> Adjudications: ...
def _adjudicate_range(
    path: str,
    start: int,
    end: int,
    first_game: int = 1,
    *,
    timeout: Optional[Literal["white", "black"]] = None,
    every_ply: bool = False,
    timeout_only: bool = False,
    nodes: Optional[int] = None,
    tt_mb: Optional[int] = None,
    threads: Optional[int] = None,
    errors: Literal["raise", "record"] = "raise",
) -> Adjudications: ...
def _adjudicate_texts(
    texts: Iterable[Union[str, bytes]],
    input: str,
    *,
    timeout: Optional[Literal["white", "black"]] = None,
    every_ply: bool = False,
    timeout_only: bool = False,
    nodes: Optional[int] = None,
    tt_mb: Optional[int] = None,
    threads: Optional[int] = None,
    errors: Literal["raise", "record"] = "raise",
) -> Adjudications: ...
def _pgn_boundaries(path: str, chunk_bytes: int) -> List[int]: ...
def _count_games(path: str, start: int, end: int) -> int: ...
