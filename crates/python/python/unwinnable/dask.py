"""Whole databases on Dask: the correct result of every game, in parallel.

``python -m unwinnable.dask adjudicate INPUT... --out OUT.parquet`` (or
:func:`adjudicate` from Python) cuts the inputs into tasks, runs them on a
``dask.distributed`` cluster (a ``LocalCluster`` on this machine unless
``--scheduler ADDRESS`` names a running scheduler) and writes one Parquet
row per game, plus a summary. Each task runs the pipeline of ``unwinnable
adjudicate`` (the same options, steps and records: ``_native``).

Inputs, local paths or fsspec URLs (``s3://``, ``http://``, ... with
fsspec and its filesystem's package installed), or directories:

* a plain ``.pgn`` file on this machine: byte ranges that start on game
  boundaries (one task each);
* any other PGN input (``.pgn.zst``, ``.pgn.gz``, ``.pgn.bz2``, a URL):
  decompressed once, as it is read, by the client, and cut at game
  boundaries into chunks that the workers adjudicate in parallel;
* ``.parquet``: a table with a ``movetext`` column and the usual tag
  columns (``Site``, ``Result``, ``Termination``...; the layout of the
  public Parquet editions of the Lichess database), one task per row group.

Tasks are sized to the cluster: at least four per worker, at most
``--chunk-mb`` MiB each. Games keep the numbers and offsets of their input
(each task counts its games first; the tasks after it number theirs from
there).

Output: ``OUT.parquet`` (a directory, or an fsspec URL) of Parquet parts,
one per task (``part-NNNNNN.parquet``), which pandas, pyarrow, DuckDB or
Spark read as one table, with the columns of :data:`SCHEMA` (see the
README's "Output schema"); integers stay integers in pandas (nullable
``Int64``). ``_summary.json`` holds the counts. Each task writes its part
under a temporary name and renames it when complete, so a task that Dask
runs again after its worker died replaces nothing and adds nothing.
``--resume`` keeps the parts of an interrupted run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError('unwinnable.dask needs pyarrow and dask: pip install "dask[distributed]" pyarrow') from error

from . import _native

#: One row per game: the fields of ``unwinnable adjudicate --format jsonl``
#: (``error`` for a malformed game; absent fields are null).
SCHEMA = pa.schema(
    [
        ("input", pa.string()),
        ("game", pa.int64()),
        ("offset", pa.int64()),
        ("id", pa.string()),
        ("recorded", pa.string()),
        ("correct", pa.string()),
        ("wrong", pa.bool_()),
        ("rule", pa.string()),
        ("article", pa.string()),
        ("ply", pa.int32()),
        ("void_moves", pa.int32()),
        ("fen", pa.string()),
        ("explanation", pa.string()),
        ("helpmate", pa.string()),
        ("nodes", pa.int64()),
        ("threefold_claimable", pa.int32()),
        ("fifty_moves_claimable", pa.int32()),
        ("unreachable", pa.string()),
        ("white", pa.string()),
        ("black", pa.string()),
        ("date", pa.string()),
        ("site", pa.string()),
        ("error", pa.string()),
    ]
)

#: Integer columns, which pandas reads as nullable ``Int64``/``Int32``.
_INTEGERS = {name: str(SCHEMA.field(name).type) for name in SCHEMA.names if pa.types.is_integer(SCHEMA.field(name).type)}


def _with_pandas_metadata(schema: pa.Schema) -> pa.Schema:
    """The schema with pandas metadata that makes pandas read the integer
    columns as nullable integers (not floats)."""
    columns = []
    for name in schema.names:
        kind = str(schema.field(name).type)
        pandas_type = {"int64": "Int64", "int32": "Int32", "bool": "boolean", "string": "string"}.get(kind, "object")
        columns.append(
            {"name": name, "field_name": name, "pandas_type": pandas_type.lower(), "numpy_type": pandas_type, "metadata": None}
        )
    pandas = {"index_columns": [], "column_indexes": [], "columns": columns, "creator": {"library": "unwinnable"}}
    return schema.with_metadata({b"pandas": json.dumps(pandas).encode()})


SCHEMA = _with_pandas_metadata(SCHEMA)

#: The tag columns of a Parquet input that the adjudication reads.
TAG_COLUMNS = ("Event", "Site", "GameId", "Result", "Termination", "SetUp", "FEN", "Variant", "White", "Black", "Date")

#: The largest task, in MiB (``--chunk-mb``).
DEFAULT_CHUNK_MB = 64

#: Tasks per worker at least.
TASKS_PER_WORKER = 4

#: Rows per row group of the output.
ROWS_PER_GROUP = 50_000

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

#: The pipeline's options that a run takes, from their one definition
#: (but ``certificate``: a certificate is a nested JSON document, which the
#: Parquet schema below has no column for; ``adjudicate --certificate``
#: writes them as JSON Lines).
OPTIONS = [
    option
    for option in _native._options()
    if option["group"] in ("search", "threads", "games") and option["keyword"] != "certificate"
]


@dataclass(frozen=True)
class Settings:
    """How the games are adjudicated: the pipeline's options (the
    command's, by the same names) and the Parquet input's movetext column.
    ``threads`` are the Rust threads of each task (1: a Dask worker
    thread each); ``memory_mb`` the budget of each task."""

    options: Tuple[Tuple[str, Any], ...] = ()
    movetext: str = "movetext"

    @staticmethod
    def of(movetext: str = "movetext", **options: Any) -> "Settings":
        known = {option["keyword"] for option in OPTIONS}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"unknown option(s) {', '.join(unknown)}; the options are {', '.join(sorted(known))}")
        options.setdefault("threads", 1)
        return Settings(tuple(sorted((k, v) for k, v in options.items() if v is not None)), movetext)

    def native(self) -> Dict[str, Any]:
        return {**dict(self.options), "errors": "record"}


@dataclass(frozen=True)
class Task:
    """One piece of work: a byte range of a plain file, a chunk of a
    decompressed input, or a row group of a Parquet file."""

    index: int
    kind: str  # "range", "chunk" or "parquet"
    path: str
    start: int = 0
    end: int = 0
    row_group: int = 0
    first_row: int = 0

    @property
    def part(self) -> str:
        return f"part-{self.index:06d}.parquet"


@dataclass
class Summary:
    """The counts of a run (or of one task)."""

    games: int = 0
    errors: int = 0
    skipped: int = 0
    wrong: Dict[str, int] = field(default_factory=dict)
    rules: Dict[str, int] = field(default_factory=dict)
    #: Seconds spent in the tasks (summed over workers).
    task_seconds: float = 0.0
    #: Wall-clock seconds of the run.
    seconds: float = 0.0
    tasks: int = 0
    #: Bytes of input text (or of Parquet row groups) done.
    bytes: int = 0

    def add(self, other: "Summary") -> None:
        self.games += other.games
        self.errors += other.errors
        self.skipped += other.skipped
        for mine, theirs in ((self.wrong, other.wrong), (self.rules, other.rules)):
            for key, count in theirs.items():
                mine[key] = mine.get(key, 0) + count
        self.task_seconds += other.task_seconds
        self.tasks += other.tasks
        self.bytes += other.bytes

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def __str__(self) -> str:
        wrong = sum(self.wrong.values())
        text = f"{self.games} games, {self.errors} errors, {wrong} results changed by rule"
        if self.wrong:
            text += " (" + ", ".join(f"{rule} {n}" for rule, n in sorted(self.wrong.items())) + ")"
        if self.skipped:
            text += f", {self.skipped} not lost on time (skipped)"
        text += f"; {self.tasks} tasks in {self.seconds:.1f} s, {self.games_per_second:.0f} games/s"
        return text


class UsageError(Exception):
    """A problem with the command line or the inputs (exit status 2)."""


# --- file systems ---------------------------------------------------------------


def _fs(path: str) -> Tuple[Any, str]:
    """The fsspec file system of ``path`` and the path in it (local paths
    without fsspec)."""
    if "://" not in path:
        return None, os.path.abspath(path)
    try:
        import fsspec
    except ImportError as error:
        raise UsageError(f"{path}: URLs need fsspec (pip install fsspec, and s3fs for s3://)") from error
    return fsspec.core.url_to_fs(path)


def _url(fs: Any, path: str) -> str:
    return path if fs is None else fs.unstrip_protocol(path)


def _files(inputs: Sequence[str]) -> List[Tuple[Any, str]]:
    files: List[Tuple[Any, str]] = []
    for name in inputs:
        fs, path = _fs(name)
        isdir = os.path.isdir(path) if fs is None else fs.isdir(path)
        exists = os.path.exists(path) if fs is None else fs.exists(path)
        if isdir:
            if fs is None:
                found = sorted(
                    os.path.join(root, file)
                    for root, _, names in os.walk(path)
                    for file in names
                    if file.endswith((".pgn", ".parquet", ".zst", ".gz", ".bz2"))
                )
            else:
                found = sorted(p for p in fs.find(path) if p.endswith((".pgn", ".parquet", ".zst", ".gz", ".bz2")))
            if not found:
                raise UsageError(f"{name}: no .pgn, .pgn.zst, .pgn.gz, .pgn.bz2 or .parquet file in this directory")
            files.extend((fs, p) for p in found)
        elif exists:
            files.append((fs, path))
        else:
            raise UsageError(f"{name}: no such file or directory")
    return files


def _is_plain(path: str) -> bool:
    with open(path, "rb") as file:
        start = file.read(4)
    return not (start.startswith(b"\x28\xb5\x2f\xfd") or start.startswith(b"\x1f\x8b") or start.startswith(b"BZh"))


# --- planning -------------------------------------------------------------------


def plan(inputs: Sequence[str], chunk_bytes: int = DEFAULT_CHUNK_MB << 20, workers: int = 1) -> List[Tuple[Task, int]]:
    """The tasks of the local plain files and Parquet inputs, with their
    sizes in bytes, and one task of kind ``"stream"`` per other input (cut
    into chunks while it is read). Tasks are at most ``chunk_bytes``, and
    each input is cut into at least ``TASKS_PER_WORKER * workers`` tasks
    when it is big enough."""
    tasks: List[Tuple[Task, int]] = []
    files = _files(inputs)
    for fs, path in files:
        url = _url(fs, path)
        if path.endswith(".parquet"):
            opened = path if fs is None else fs.open(path, "rb")
            try:
                metadata = pq.ParquetFile(opened).metadata
            except (OSError, pa.ArrowException) as error:
                raise UsageError(f"{url}: not a readable Parquet file ({error})") from error
            first = 0
            for group in range(metadata.num_row_groups):
                size = metadata.row_group(group).total_byte_size
                tasks.append((Task(len(tasks), "parquet", url, row_group=group, first_row=first), size))
                first += metadata.row_group(group).num_rows
        elif fs is None and _is_plain(path):
            size = os.path.getsize(path)
            target = max(1 << 16, min(chunk_bytes, size // max(1, TASKS_PER_WORKER * workers)))
            offsets = _native._pgn_boundaries(path, target)
            for start, end in zip(offsets, offsets[1:]):
                tasks.append((Task(len(tasks), "range", path, start=start, end=end), end - start))
        else:
            size = os.path.getsize(path) if fs is None else fs.size(path)
            tasks.append((Task(len(tasks), "stream", url), size))
    return tasks


# --- one task (runs on a worker) ------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def pgn_text(tags: Dict[str, Any], movetext: Optional[str]) -> str:
    """One game's PGN from a table row: the tag pairs, then the movetext
    (with the ``Result`` as termination marker if it has none)."""
    lines = [f'[{name} "{_escape(str(value))}"]' for name, value in tags.items() if value is not None]
    moves = (movetext or "").strip()
    last = moves.rsplit(None, 1)[-1] if moves else ""
    if last not in RESULTS:
        result = tags.get("Result")
        moves = f"{moves} {result if result in RESULTS else '*'}".strip()
    return "\n".join(lines) + "\n\n" + moves + "\n"


def _pgn_date(value: Any) -> Optional[str]:
    """A date (or its ISO text) as a PGN ``Date`` tag's value."""
    if value is None:
        return None
    if isinstance(value, str):
        return value[:10].replace("-", ".")
    return f"{value.year:04d}.{value.month:02d}.{value.day:02d}"


def _table_texts(table: "pa.Table", movetext: str) -> List[str]:
    names = set(table.column_names)
    if movetext not in names:
        raise ValueError(f"no {movetext!r} column (columns: {sorted(names)})")
    columns = [name for name in TAG_COLUMNS if name in names]
    values = {name: table.column(name).to_pylist() for name in columns}
    if "Date" not in names and "UTCDate" in names:
        # The Lichess edition's date: a date column, the PGN tag's format.
        columns.append("Date")
        values["Date"] = [_pgn_date(d) for d in table.column("UTCDate").to_pylist()]
    moves = table.column(movetext).to_pylist()
    return [pgn_text({name: values[name][i] for name in columns}, text) for i, text in enumerate(moves)]


def _records(task: Task, settings: Settings, text: Optional[bytes], first_game: int) -> "_native.Adjudications":
    """The native iterator over the records of ``task``."""
    options = settings.native()
    if task.kind == "range":
        return _native._adjudicate_range(task.path, task.start, task.end, first_game, options)
    if task.kind == "chunk":
        return _native._adjudicate_chunk(task.path, text, task.start, first_game, options)
    fs, path = _fs(task.path)
    parquet = pq.ParquetFile(path if fs is None else fs.open(path, "rb"))
    table = parquet.read_row_group(task.row_group)
    return _native._adjudicate_texts(_table_texts(table, settings.movetext), task.path, options)


def _summary_of(records: "_native.Adjudications") -> Summary:
    counts = records.summary
    return Summary(
        games=counts["games"],
        errors=counts["errors"],
        skipped=counts["skipped"],
        wrong=dict(counts["wrong"]),
        rules=dict(counts["rules"]),
    )


def _arrow_table(records: "_native.Adjudications") -> "pa.Table":
    """All the records of ``records`` as one table of :data:`SCHEMA` (the
    Arrow columns built in Rust)."""
    batches = []
    while True:
        batch = records._next_batch(ROWS_PER_GROUP)
        if batch is None:
            break
        batches.append(pa.record_batch(batch))
    return pa.Table.from_batches(batches, SCHEMA)


def run_task(task: Task, out: str, settings: Settings, text: Optional[bytes] = None, first_game: int = 1) -> Dict[str, Any]:
    """Adjudicates the games of ``task`` and writes them to
    ``out/<task.part>`` atomically (a temporary name, then a rename).
    Returns the task's summary as a dict."""
    started = time.perf_counter()
    fs, directory = _fs(out)
    final = f"{directory}/{task.part}"
    temporary = f"{directory}/.{task.part}.{uuid.uuid4().hex}.tmp"
    sink = temporary if fs is None else fs.open(temporary, "wb")
    writer = pq.ParquetWriter(sink, SCHEMA)
    try:
        records = _records(task, settings, text, first_game)
        # The records become Arrow columns in Rust (no dict per record);
        # in a Parquet input's row group the games count from its first
        # row and have no offset.
        first_row = task.first_row if task.kind == "parquet" else None
        while True:
            batch = records._next_batch(ROWS_PER_GROUP, first_row)
            if batch is None:
                break
            writer.write_batch(pa.record_batch(batch))
        summary = _summary_of(records)
        summary.tasks = 1
        summary.bytes = len(text) if text is not None else max(0, task.end - task.start)
        summary.task_seconds = time.perf_counter() - started
        writer.add_key_value_metadata({"unwinnable.summary": json.dumps(asdict(summary))})
        writer.close()
        if fs is None:
            os.replace(temporary, final)
        else:
            sink.close()
            fs.mv(temporary, final)
    except BaseException:
        writer.close()
        if fs is None:
            if os.path.exists(temporary):
                os.remove(temporary)
        else:
            sink.close()
            if fs.exists(temporary):
                fs.rm(temporary)
        raise
    return asdict(summary)


def count_games(task: Task, text: Optional[bytes] = None) -> int:
    """The number of games of a range or chunk task (runs on a worker)."""
    if text is None:
        with open(task.path, "rb") as file:
            file.seek(task.start)
            text = file.read(task.end - task.start)
    return _native._count_games(text)


def _after(first: int, count: int) -> int:
    return first + count


# --- a run (the client) -----------------------------------------------------------


def _fingerprint(inputs: Sequence[str], settings: Settings, chunk_bytes: int) -> str:
    text = json.dumps([list(inputs), asdict(settings), chunk_bytes], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _part_summary(fs: Any, path: str) -> Summary:
    opened = path if fs is None else fs.open(path, "rb")
    metadata = pq.ParquetFile(opened).metadata.metadata or {}
    stored = json.loads(metadata.get(b"unwinnable.summary", b"{}"))
    return Summary(**stored)


def _listdir(fs: Any, directory: str) -> List[str]:
    if fs is None:
        return os.listdir(directory)
    return [name.rsplit("/", 1)[-1] for name in fs.ls(directory, detail=False)]


def _prepare(fs: Any, directory: str, fingerprint: str, resume: bool, overwrite: bool) -> List[str]:
    """Creates the output directory; the parts already there (with
    ``resume``)."""
    if fs is None:
        os.makedirs(directory, exist_ok=True)
    else:
        fs.makedirs(directory, exist_ok=True)
    names = _listdir(fs, directory) if (fs is None or fs.exists(directory)) else []
    ours = [
        name
        for name in names
        if (name.startswith("part-") and name.endswith(".parquet"))
        or (name.startswith(".part-") and name.endswith(".tmp"))
        or name in ("_summary.json", "_plan.json")
    ]
    plan_file = f"{directory}/_plan.json"
    if ours and resume:
        try:
            opener = open if fs is None else fs.open
            with opener(plan_file, "r") as file:
                previous = json.load(file).get("fingerprint")
        except (OSError, ValueError):
            previous = None
        if previous != fingerprint:
            raise UsageError(f"{directory}: written by a run with other inputs or options: cannot --resume it")
    elif ours and not overwrite:
        raise UsageError(f"{directory} already holds results: --overwrite them or --resume the run")
    elif ours:
        for name in ours:
            target = f"{directory}/{name}"
            os.remove(target) if fs is None else fs.rm(target)
    opener = open if fs is None else fs.open
    with opener(plan_file, "w") as file:
        json.dump({"fingerprint": fingerprint}, file)
    return [name for name in ours if name.startswith("part-") and resume]


def _progress_printer(stream: Any = sys.stderr) -> Callable[[int, int, Summary, Optional[float]], None]:
    """A progress line: tasks, games, games/s and the ETA."""
    last = [0.0]

    def show(done: int, total: int, summary: Summary, eta: Optional[float]) -> None:
        now = time.monotonic()
        if done < total and now - last[0] < 1.0:
            return
        last[0] = now
        left = "" if eta is None else f", ETA {int(eta // 60)}:{int(eta % 60):02d}"
        print(
            f"{done}/{total} tasks, {summary.games} games, {summary.games_per_second:.0f} games/s{left}",
            file=stream,
            flush=True,
        )

    return show


def adjudicate(
    inputs: Sequence[str],
    out: str,
    *,
    client: Any = None,
    settings: Settings = Settings.of(),
    chunk_bytes: int = DEFAULT_CHUNK_MB << 20,
    resume: bool = False,
    overwrite: bool = False,
    progress: Optional[Callable[[int, int, Summary, Optional[float]], None]] = None,
) -> Summary:
    """Adjudicates every game of ``inputs`` (paths or fsspec URLs) on the
    Dask cluster of ``client`` (default: the current client, else a
    ``LocalCluster`` with one single-threaded worker process per CPU, whose
    dashboard's address is printed), writing ``out`` (a directory of
    Parquet parts, local or an fsspec URL) and ``out/_summary.json``.
    ``progress`` is called as tasks finish with (tasks done, tasks so far,
    summary so far, seconds left or ``None``)."""
    from distributed import Client, LocalCluster, as_completed, get_client

    started = time.perf_counter()
    own_cluster = None
    if client is None:
        try:
            client = get_client()
        except ValueError:
            own_cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True, dashboard_address=":0")
            client = Client(own_cluster)
            print(f"unwinnable.dask: the cluster's dashboard: {client.dashboard_link}", file=sys.stderr)
    try:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        planned = plan(inputs, chunk_bytes, workers)
        fs, directory = _fs(out)
        fingerprint = _fingerprint([*inputs, f"workers={workers}"], settings, chunk_bytes)
        done_parts = set(_prepare(fs, directory, fingerprint, resume, overwrite))
        total_bytes = sum(size for _, size in planned)
        summary = Summary()
        futures = []
        index = 0
        # Count first, then number: each range's first game is the games
        # before it in the same file, counted on the cluster.
        first_by_path: Dict[str, Any] = {}
        run = uuid.uuid4().hex[:8]

        def submit(task: Task, text: Any = None) -> None:
            first = first_by_path.get(task.path, 1)
            if task.kind in ("range", "chunk"):
                count = client.submit(count_games, task, text, pure=False)
                first_by_path[task.path] = client.submit(_after, first, count, pure=False)
            if task.part in done_parts:
                summary.add(_part_summary(fs, f"{directory}/{task.part}"))
                return
            futures.append(
                client.submit(run_task, task, out, settings, text, first, key=f"unwinnable-{run}-{task.index:06d}", pure=False)
            )

        for task, size in planned:
            if task.kind != "stream":
                submit(Task(index, task.kind, task.path, task.start, task.end, task.row_group, task.first_row))
                index += 1
                continue
            # The text of a compressed input is about four times its size.
            text_size = 4 * size if _compressed(task.path) else size
            target = max(1 << 16, min(chunk_bytes, text_size // max(1, TASKS_PER_WORKER * workers)))
            for start, text in _native._chunks(task.path, target):
                chunk = Task(index, "chunk", task.path, start=start, end=start + len(text))
                submit(chunk, client.scatter(text, hash=False))
                index += 1
        results = as_completed(futures)
        done = len(done_parts)
        for future in results:
            summary.add(Summary(**future.result()))
            done += 1
            summary.seconds = time.perf_counter() - started
            if progress is not None:
                rate = summary.bytes / summary.seconds if summary.seconds > 0 else 0
                eta = (total_bytes - summary.bytes) / rate if rate > 0 and total_bytes > summary.bytes else None
                progress(done, len(futures) + len(done_parts), summary, eta)
    finally:
        if own_cluster is not None:
            client.close()
            own_cluster.close()
    for name in _listdir(fs, directory):
        if name.startswith(".part-") and name.endswith(".tmp"):
            target = f"{directory}/{name}"
            os.remove(target) if fs is None else fs.rm(target)
    summary.seconds = time.perf_counter() - started
    opener = open if fs is None else fs.open
    with opener(f"{directory}/_summary.json", "w") as file:
        json.dump({**asdict(summary), "games_per_second": summary.games_per_second}, file, indent=1)
    return summary


def _compressed(url: str) -> bool:
    """Whether an input's name says it is compressed (its text is then
    about four times its size)."""
    return url.endswith((".zst", ".gz", ".bz2"))


# --- data frames -------------------------------------------------------------------


def _adjudicate_partition(frame: Any, movetext: str, options: Dict[str, Any]) -> Any:
    import pandas as pd

    table = pa.Table.from_pandas(frame, preserve_index=False)
    records = _native._adjudicate_texts(_table_texts(table, movetext), "<frame>", {**options, "errors": "record"})
    result = _arrow_table(records).drop(["input", "offset"]).to_pandas(types_mapper=_nullable)
    result.index = frame.index
    result.columns = [f"unwinnable_{name}" if name in frame.columns else name for name in result.columns]
    return pd.concat([frame, result], axis=1)


def _nullable(kind: "pa.DataType") -> Any:
    import pandas as pd

    return {pa.int64(): pd.Int64Dtype(), pa.int32(): pd.Int32Dtype(), pa.bool_(): pd.BooleanDtype()}.get(kind)


def adjudicate_frame(frame: Any, *, movetext: str = "movetext", **options: Any) -> Any:
    """The adjudication of the games of a Dask (or pandas) data frame with
    a ``movetext`` column and tag columns (``Result``, ``Termination``,
    ``FEN``...): the frame with the record's columns added (``game``,
    ``recorded``, ``correct``, ``wrong``, ``rule``, ...; nullable integer
    types), its own columns kept, one row per game. ``options`` are the
    pipeline's (``timeout``, ``every_ply``, ``nodes``...), as for
    :func:`unwinnable.adjudicate`. On a Dask frame, ``map_partitions``:
    lazy, one task per partition."""
    settings = Settings.of(movetext=movetext, **options)
    native = settings.native()
    if hasattr(frame, "map_partitions"):
        import pandas as pd

        empty = frame._meta if hasattr(frame, "_meta") else frame.head(0)
        meta = _adjudicate_partition(empty.assign(**{movetext: pd.Series([], dtype="object")}), movetext, native).iloc[0:0]
        return frame.map_partitions(_adjudicate_partition, movetext, native, meta=meta)
    return _adjudicate_partition(frame, movetext, native)


# --- the command ----------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m unwinnable.dask",
        description="Whole chess databases on a Dask cluster: the correct result of every game under the FIDE Laws.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser(
        "adjudicate",
        help="adjudicate every game of PGN (plain, zstd, gzip, bzip2) or Parquet inputs",
        description="Adjudicate every game of the inputs and write one Parquet row per game.",
    )
    command.add_argument("inputs", nargs="+", metavar="INPUT", help="files, directories or fsspec URLs")
    command.add_argument("--out", required=True, metavar="OUT.parquet", help="output directory or fsspec URL")
    command.add_argument(
        "--scheduler", metavar="ADDRESS", help="a running Dask scheduler (default: a local cluster on this machine)"
    )
    command.add_argument("--workers", type=int, metavar="N", help="worker processes of the local cluster [every CPU]")
    # The pipeline's options, from their one definition (the command's).
    for option in OPTIONS:
        help_text = option["help"]
        if option["name"] == "threads":
            help_text = "Rust threads per task [1]"
        if option["flag"]:
            command.add_argument(f"--{option['name']}", action="store_true", help=help_text)
        elif option["choices"]:
            command.add_argument(f"--{option['name']}", choices=option["choices"], help=help_text)
        else:
            command.add_argument(f"--{option['name']}", type=int, metavar=option["value_name"] or "N", help=help_text)
    command.add_argument(
        "--chunk-mb", type=float, default=DEFAULT_CHUNK_MB, metavar="MB", help=f"the largest task [{DEFAULT_CHUNK_MB}]"
    )
    command.add_argument("--movetext", default="movetext", help="the movetext column of Parquet inputs")
    again = command.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true", help="keep the parts of an interrupted run with the same inputs")
    again.add_argument("--overwrite", action="store_true", help="replace the results in OUT")
    command.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command; returns the exit status (0 done, 1 failed, 2 usage)."""
    args = _parser().parse_args(argv)
    if args.workers is not None and args.workers < 1:
        print("error: --workers must be at least 1", file=sys.stderr)
        return 2
    if args.chunk_mb <= 0:
        print("error: --chunk-mb must be positive", file=sys.stderr)
        return 2
    options = {option["keyword"]: getattr(args, option["keyword"]) for option in OPTIONS}
    try:
        settings = Settings.of(movetext=args.movetext, **options)
        # The options' values are checked here, as the command checks them.
        _native._adjudicate_texts([], "<check>", settings.native())
    except (ValueError, TypeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    from distributed import Client, LocalCluster

    cluster = None
    try:
        if args.scheduler:
            client = Client(args.scheduler)
        else:
            workers = args.workers or os.cpu_count() or 1
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0")
            client = Client(cluster)
            print(f"unwinnable.dask: the cluster's dashboard: {client.dashboard_link}", file=sys.stderr)
        with client:
            summary = adjudicate(
                args.inputs,
                args.out,
                client=client,
                settings=settings,
                chunk_bytes=max(1, int(args.chunk_mb * (1 << 20))),
                resume=args.resume,
                overwrite=args.overwrite,
                progress=None if args.quiet else _progress_printer(),
            )
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: run again with --resume to finish", file=sys.stderr)
        return 130
    finally:
        if cluster is not None:
            cluster.close()
    print(f"unwinnable.dask: {summary}", file=sys.stderr)
    print(json.dumps({**asdict(summary), "games_per_second": round(summary.games_per_second, 1)}))
    return 0


if __name__ == "__main__":
    # Run through the package's module (not `__main__`), so that the
    # functions sent to the workers are importable there.
    from unwinnable.dask import main as _main

    sys.exit(_main())
