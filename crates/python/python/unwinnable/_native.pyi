"""Type stubs of the extension module (re-exported by ``unwinnable``)."""

import os
from typing import IO, final, Any, Dict, Iterable, Iterator, List, Literal, Mapping, Optional, Protocol, Sequence, Tuple, Union, overload

class _HasFen(Protocol):
    def fen(self) -> str: ...

_Position = Union[str, _HasFen]
"""A FEN (4 or 6 fields) or an object with ``.fen()`` (a ``chess.Board``)."""

_Color = Union[Literal["white", "black", "w", "b"], bool]
"""``"white"``, ``"black"``, ``chess.WHITE`` (True), ``chess.BLACK`` (False)."""

_Winner = Union[_Color, Literal["both"], None]

_Mode = Literal["full", "quick", "shortest"]

_Record = Dict[str, Any]
"""One game: the keys of ``unwinnable adjudicate --format jsonl``."""

_Source = Union[str, bytes, bytearray, "os.PathLike[str]", IO[bytes], IO[str], Any]

__all__ = [
    "InvalidFen",
    "PgnError",
    "Analysis",
    "Adjudications",
    "Chunks",
    "ArrowBatch",
    "analyze",
    "is_dead",
    "check",
    "analyze_many",
    "adjudicate",
    "_adjudicate_range",
    "_adjudicate_chunk",
    "_adjudicate_texts",
    "_count_games",
    "_pgn_boundaries",
    "_chunks",
    "_options",
    "INLINE_NODES",
    "GAME_KEYS",
]

INLINE_NODES: int
GAME_KEYS: List[str]

class InvalidFen(ValueError):
    """A position that cannot be read."""

class PgnError(ValueError):
    """A malformed PGN game."""

    input: str
    game: int
    offset: int

@final
class Analysis:
    """The answer of one analysis."""

    @property
    def fen(self) -> str: ...
    @property
    def winner(self) -> Literal["white", "black"]: ...
    @property
    def color(self) -> bool: ...
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
    @property
    def certificate(self) -> Optional[Dict[str, Any]]: ...
    def moves(self) -> Optional[List[Any]]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, Tuple[str]]: ...
    @staticmethod
    def _from_json(json: str) -> "Analysis": ...

@final
class Adjudications(Iterator[_Record]):
    """The records of ``adjudicate()``, in input order."""

    def __iter__(self) -> "Adjudications": ...
    def __next__(self) -> _Record: ...
    @property
    def skipped(self) -> int: ...
    @property
    def summary(self) -> Dict[str, Any]: ...
    @property
    def input(self) -> str: ...
    def close(self) -> None: ...
    def _next_batch(self, rows: int, first_row: Optional[int] = None) -> Optional[ArrowBatch]: ...

@final
class ArrowBatch:
    """Records as an Arrow record batch (the Arrow PyCapsule interface)."""

    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...
    def __len__(self) -> int: ...

@final
class Chunks(Iterator[Tuple[int, bytes]]):
    """The chunks of a decompressed input, cut at game boundaries."""

    def __iter__(self) -> "Chunks": ...
    def __next__(self) -> Tuple[int, bytes]: ...

@overload
def analyze(
    position: _Position,
    winner: Literal["both"],
    *,
    mode: _Mode = "full",
    nodes: Optional[int] = None,
    deadline_ms: Optional[int] = None,
    memory_mb: Optional[int] = None,
    strict: bool = False,
    certificate: bool = False,
) -> Tuple[Analysis, Analysis]: ...
@overload
def analyze(
    position: _Position,
    winner: Optional[_Color] = None,
    *,
    mode: _Mode = "full",
    nodes: Optional[int] = None,
    deadline_ms: Optional[int] = None,
    memory_mb: Optional[int] = None,
    strict: bool = False,
    certificate: bool = False,
) -> Analysis: ...
def is_dead(
    position: _Position,
    *,
    mode: _Mode = "full",
    nodes: Optional[int] = None,
    deadline_ms: Optional[int] = None,
    memory_mb: Optional[int] = None,
    strict: bool = False,
) -> Optional[bool]: ...
def check(record: Union[Analysis, Dict[str, Any], str]) -> str: ...
def analyze_many(
    positions: Iterable[Union[_Position, Tuple[_Position, _Winner]]],
    winner: _Winner = None,
    *,
    threads: Optional[int] = None,
    mode: _Mode = "full",
    nodes: Optional[int] = None,
    deadline_ms: Optional[int] = None,
    memory_mb: Optional[int] = None,
    strict: bool = False,
    certificate: bool = False,
) -> List[Analysis]: ...
def adjudicate(
    source: Union[_Source, Sequence[_Source]],
    *,
    timeout: Optional[_Color] = None,
    timeout_only: bool = False,
    every_ply: bool = False,
    only_wrong: bool = False,
    mode: _Mode = "full",
    nodes: Optional[int] = None,
    deadline_ms: Optional[int] = None,
    memory_mb: Optional[int] = None,
    threads: Optional[int] = None,
    errors: Literal["record", "raise"] = "record",
) -> Adjudications: ...
def _adjudicate_range(
    path: Union[str, "os.PathLike[str]"],
    start: int,
    end: int,
    first_game: int = 1,
    options: Optional[Mapping[str, Any]] = None,
) -> Adjudications: ...
def _adjudicate_chunk(
    name: str, text: bytes, start: int, first_game: int = 1, options: Optional[Mapping[str, Any]] = None
) -> Adjudications: ...
def _adjudicate_texts(
    texts: Iterable[Union[str, bytes]], input: str, options: Optional[Mapping[str, Any]] = None
) -> Adjudications: ...
def _pgn_boundaries(path: Union[str, "os.PathLike[str]"], chunk_bytes: int) -> List[int]: ...
def _count_games(text: bytes) -> int: ...
def _chunks(source: _Source, chunk_bytes: int) -> Chunks: ...
def _options() -> List[Dict[str, Any]]: ...
