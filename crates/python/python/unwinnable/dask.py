"""Whole databases on Dask: the correct result of every game, in parallel.

``python -m unwinnable.dask adjudicate INPUT... --out OUT.parquet`` (or
:func:`adjudicate` from Python) cuts the inputs into tasks, runs them on a
``dask.distributed`` cluster (a ``LocalCluster`` on this machine unless
``--scheduler ADDRESS`` names a running scheduler) and writes one Parquet
row per game, plus a summary.

Inputs (by name, and by content for zstd):

* ``.pgn``: plain PGN, cut into byte ranges of about ``--chunk-mb`` MiB
  that start on game boundaries (one task each);
* ``.pgn.zst``: zstd-compressed PGN, one task per file;
* ``.parquet``: a table with a ``movetext`` column and the usual tag
  columns (``Site``, ``Result``, ``Termination``...; the layout of the
  public Parquet editions of the Lichess database), one task per row group;
* a directory: every such file under it, in name order.

Output: ``OUT.parquet`` is a directory of Parquet files, one per task
(``part-NNNNNN.parquet``), which pandas, pyarrow, DuckDB or Spark read as
one table, with the columns of :data:`SCHEMA`: ``input``, ``game`` (its
number in the input, from 1: the row number plus one for a Parquet input)
and ``offset`` (its byte offset in the decompressed PGN) say where the game
is, as in the command's output;
``id`` (``GameId`` or ``Site``), ``recorded``, ``correct``, ``wrong``,
``rule``, ``article``, ``ply``, ``explanation`` and the other fields of
``unwinnable adjudicate --format jsonl`` say what it is; a malformed game
has its message in ``error``. ``_summary.json`` holds the counts.

Each task writes its part to a temporary file in the output directory and
renames it into place when it is complete, so a task that Dask runs again
after its worker died replaces nothing and adds nothing: no game is lost
or counted twice. ``--resume`` keeps the parts of an interrupted run.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import sys
import time
import uuid
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable, Dict, List, Optional, Sequence

try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError("unwinnable.dask needs pyarrow: pip install 'unwinnable[dask]'") from error

from . import _native

#: One row per game.
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
        ("error", pa.string()),
    ]
)

#: The tag columns of a Parquet input that the adjudication reads.
TAG_COLUMNS = ("Event", "Site", "GameId", "Result", "Termination", "SetUp", "FEN", "Variant")

#: Default size of the byte ranges of plain PGN files.
DEFAULT_CHUNK_MB = 128

#: Rows per row group of the output.
ROWS_PER_GROUP = 50_000

ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


@dataclass(frozen=True)
class Settings:
    """How the games are adjudicated (the command's options)."""

    every_ply: bool = False
    timeout_only: bool = False
    timeout: Optional[str] = None
    nodes: Optional[int] = None
    tt_mb: Optional[int] = None
    #: Rust threads per task (a Dask worker thread each).
    threads: int = 1
    movetext: str = "movetext"

    def native(self) -> Dict[str, Any]:
        return {
            "every_ply": self.every_ply,
            "timeout_only": self.timeout_only,
            "timeout": self.timeout,
            "nodes": self.nodes,
            "tt_mb": self.tt_mb,
            "threads": self.threads,
            "errors": "record",
        }


@dataclass(frozen=True)
class Task:
    """One piece of work: a file, a byte range of one, or a row group."""

    index: int
    kind: str  # "pgn" (whole file, plain or zstd), "range" or "parquet"
    path: str
    start: int = 0
    end: int = 0
    row_group: int = 0
    first_row: int = 0
    #: The number of the first game of a byte range (counted on the cluster).
    first_game: int = 1

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

    def add(self, other: "Summary") -> None:
        self.games += other.games
        self.errors += other.errors
        self.skipped += other.skipped
        for mine, theirs in ((self.wrong, other.wrong), (self.rules, other.rules)):
            for key, count in theirs.items():
                mine[key] = mine.get(key, 0) + count
        self.task_seconds += other.task_seconds
        self.tasks += other.tasks

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


# --- planning -------------------------------------------------------------


def _files(inputs: Sequence[str]) -> List[str]:
    files: List[str] = []
    for name in inputs:
        if os.path.isdir(name):
            found = [
                path
                for pattern in ("*.pgn", "*.pgn.zst", "*.parquet")
                for path in glob.glob(os.path.join(name, "**", pattern), recursive=True)
            ]
            if not found:
                raise UsageError(f"{name}: no .pgn, .pgn.zst or .parquet file in this directory")
            files.extend(sorted(found))
        elif os.path.isfile(name):
            files.append(name)
        else:
            raise UsageError(f"{name}: no such file or directory")
    return files


def _is_zstd(path: str) -> bool:
    with open(path, "rb") as file:
        return file.read(4) == ZSTD_MAGIC


def plan(inputs: Sequence[str], chunk_bytes: int = DEFAULT_CHUNK_MB << 20) -> List[Task]:
    """The tasks for ``inputs`` (files or directories), in input order."""
    tasks: List[Task] = []
    for path in _files(inputs):
        path = os.path.abspath(path)
        if path.endswith(".parquet"):
            try:
                metadata = pq.ParquetFile(path).metadata
            except (OSError, pa.ArrowException) as error:
                raise UsageError(f"{path}: not a readable Parquet file ({error})") from error
            first = 0
            for group in range(metadata.num_row_groups):
                tasks.append(Task(len(tasks), "parquet", path, row_group=group, first_row=first))
                first += metadata.row_group(group).num_rows
        elif path.endswith(".zst") or _is_zstd(path):
            tasks.append(Task(len(tasks), "pgn", path))
        else:
            offsets = _native._pgn_boundaries(path, chunk_bytes)
            for start, end in zip(offsets, offsets[1:]):
                tasks.append(Task(len(tasks), "range", path, start=start, end=end))
    return tasks


# --- one task (runs on a worker) --------------------------------------------


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


def _source(task: Task, settings: Settings) -> "_native.Adjudications":
    """The native iterator over the records of ``task``."""
    options = settings.native()
    if task.kind == "pgn":
        return _native.adjudicate(os.fspath(task.path), **options)
    if task.kind == "range":
        return _native._adjudicate_range(task.path, task.start, task.end, task.first_game, **options)
    parquet = pq.ParquetFile(task.path)
    names = set(parquet.schema_arrow.names)
    if settings.movetext not in names:
        raise ValueError(f"{task.path}: no {settings.movetext!r} column (columns: {sorted(names)})")
    columns = [name for name in TAG_COLUMNS if name in names]
    table = parquet.read_row_group(task.row_group, columns=columns + [settings.movetext])
    values = {name: table.column(name).to_pylist() for name in columns}
    movetexts = table.column(settings.movetext).to_pylist()
    texts = [pgn_text({name: values[name][i] for name in columns}, moves) for i, moves in enumerate(movetexts)]
    return _native._adjudicate_texts(texts, task.path, **options)


def _stats(task_summary: Summary, record: Dict[str, Any]) -> None:
    if "error" in record:
        task_summary.errors += 1
        return
    task_summary.games += 1
    rule = record["rule"]
    task_summary.rules[rule] = task_summary.rules.get(rule, 0) + 1
    if record["wrong"]:
        task_summary.wrong[rule] = task_summary.wrong.get(rule, 0) + 1


def run_task(task: Task, out: str, settings: Settings) -> Dict[str, Any]:
    """Adjudicates the games of ``task`` and writes them to
    ``out/<task.part>`` atomically (a temporary file, then a rename).
    Returns the task's summary as a dict."""
    start = time.perf_counter()
    summary = Summary(tasks=1)
    final = os.path.join(out, task.part)
    temporary = os.path.join(out, f".{task.part}.{uuid.uuid4().hex}.tmp")
    writer = pq.ParquetWriter(temporary, SCHEMA)
    try:
        batch: List[Dict[str, Any]] = []
        records = _source(task, settings)
        for record in records:
            if task.kind == "parquet":
                # The game's number in the file; the text had no offset.
                record["game"] += task.first_row
                record["offset"] = None
            _stats(summary, record)
            batch.append(record)
            if len(batch) >= ROWS_PER_GROUP:
                writer.write_table(pa.Table.from_pylist(batch, SCHEMA))
                batch = []
        if batch:
            writer.write_table(pa.Table.from_pylist(batch, SCHEMA))
        summary.skipped = records.skipped
        summary.task_seconds = time.perf_counter() - start
        writer.add_key_value_metadata({"unwinnable.summary": json.dumps(asdict(summary))})
        writer.close()
        os.replace(temporary, final)
    except BaseException:
        writer.close()
        if os.path.exists(temporary):
            os.remove(temporary)
        raise
    return asdict(summary)


# --- a run (the client) -----------------------------------------------------


def count_games(task: Task) -> int:
    """The number of games in the byte range of ``task`` (runs on a worker)."""
    return _native._count_games(task.path, task.start, task.end)


def _number(client: Any, tasks: List[Task]) -> List[Task]:
    """The tasks with the number of the first game of each byte range: the
    games of the ranges before it in the same file, counted on the cluster
    (splitting only, much faster than adjudicating)."""
    ranges = [task for task in tasks if task.kind == "range" and task.start > 0]
    if not ranges:
        return tasks
    last_end: Dict[str, int] = {}
    for task in tasks:
        if task.kind == "range":
            last_end[task.path] = max(last_end.get(task.path, 0), task.end)
    before = [task for task in tasks if task.kind == "range" and task.end < last_end[task.path]]
    counts = dict(zip(before, client.gather(client.map(count_games, before, pure=False))))
    numbered = []
    for task in tasks:
        if task.kind == "range":
            first = 1 + sum(n for other, n in counts.items() if other.path == task.path and other.end <= task.start)
            task = replace(task, first_game=first)
        numbered.append(task)
    return numbered


def _fingerprint(tasks: Sequence[Task], settings: Settings) -> str:
    text = json.dumps([[asdict(task) for task in tasks], asdict(settings)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _part_summary(path: str) -> Summary:
    metadata = pq.ParquetFile(path).metadata.metadata or {}
    stored = json.loads(metadata.get(b"unwinnable.summary", b"{}"))
    return Summary(**stored)


def _prepare(out: str, tasks: Sequence[Task], settings: Settings, resume: bool, overwrite: bool) -> List[Task]:
    """Creates ``out``; the tasks still to run (with ``resume``, those
    without a part)."""
    os.makedirs(out, exist_ok=True)
    ours = [
        name
        for name in os.listdir(out)
        if (name.startswith("part-") and name.endswith(".parquet"))
        or (name.startswith(".part-") and name.endswith(".tmp"))
        or name in ("_summary.json", "_plan.json")
    ]
    plan_file = os.path.join(out, "_plan.json")
    fingerprint = _fingerprint(tasks, settings)
    if ours and resume:
        try:
            with open(plan_file) as file:
                previous = json.load(file).get("fingerprint")
        except (OSError, ValueError):
            previous = None
        if previous != fingerprint:
            raise UsageError(f"{out}: written by a run with other inputs or options: cannot --resume it")
    elif ours and not overwrite:
        raise UsageError(f"{out} already holds results: --overwrite them or --resume the run")
    elif ours:
        for name in ours:
            os.remove(os.path.join(out, name))
    with open(plan_file, "w") as file:
        json.dump({"fingerprint": fingerprint, "tasks": len(tasks), "settings": asdict(settings)}, file)
    return [task for task in tasks if not (resume and os.path.exists(os.path.join(out, task.part)))]


def adjudicate(
    inputs: Sequence[str],
    out: str,
    *,
    client: Any = None,
    settings: Settings = Settings(),
    chunk_bytes: int = DEFAULT_CHUNK_MB << 20,
    resume: bool = False,
    overwrite: bool = False,
    progress: Optional[Callable[[int, int, Summary], None]] = None,
) -> Summary:
    """Adjudicates every game of ``inputs`` on the Dask cluster of
    ``client`` (default: the current client, else a ``LocalCluster`` with
    one single-threaded worker process per CPU), writing ``out`` (a
    directory of Parquet parts) and ``out/_summary.json``. ``progress`` is
    called after each task with (tasks done, tasks in all, summary so far).
    """
    started = time.perf_counter()
    tasks = plan(inputs, chunk_bytes)
    out = os.path.abspath(out)
    todo = _prepare(out, tasks, settings, resume, overwrite)
    summary = Summary()
    for task in tasks:
        if task not in todo:
            summary.add(_part_summary(os.path.join(out, task.part)))
    own_cluster = None
    if client is None:
        from distributed import Client, LocalCluster, get_client

        try:
            client = get_client()
        except ValueError:
            own_cluster = LocalCluster(
                n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = Client(own_cluster)
    try:
        from distributed import as_completed

        todo = [task for task in _number(client, tasks) if task in todo or replace(task, first_game=1) in todo]
        run = uuid.uuid4().hex[:8]
        futures = [
            client.submit(run_task, task, out, settings, key=f"unwinnable-{run}-{task.index:06d}", pure=False)
            for task in todo
        ]
        done = len(tasks) - len(todo)
        for future in as_completed(futures):
            summary.add(Summary(**future.result()))
            done += 1
            if progress is not None:
                summary.seconds = time.perf_counter() - started
                progress(done, len(tasks), summary)
    finally:
        if own_cluster is not None:
            client.close()
            own_cluster.close()
    # Temporary files of attempts whose worker died.
    for name in os.listdir(out):
        if name.startswith(".part-") and name.endswith(".tmp"):
            os.remove(os.path.join(out, name))
    summary.seconds = time.perf_counter() - started
    with open(os.path.join(out, "_summary.json"), "w") as file:
        json.dump({**asdict(summary), "games_per_second": summary.games_per_second}, file, indent=1)
    return summary


# --- the command ----------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m unwinnable.dask",
        description="Whole chess databases on a Dask cluster: the correct result of every game under the FIDE Laws.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser(
        "adjudicate",
        help="adjudicate every game of PGN, PGN.zst or Parquet inputs",
        description="Adjudicate every game of the inputs and write one Parquet row per game.",
    )
    command.add_argument("inputs", nargs="+", metavar="INPUT", help=".pgn, .pgn.zst or .parquet files, or directories")
    command.add_argument("--out", required=True, metavar="OUT.parquet", help="output directory (a Parquet dataset)")
    command.add_argument(
        "--scheduler", metavar="ADDRESS", help="a running Dask scheduler (default: a local cluster on this machine)"
    )
    command.add_argument("--workers", type=int, metavar="N", help="worker processes of the local cluster [every CPU]")
    command.add_argument("--threads", type=int, default=1, metavar="N", help="Rust threads per task [1]")
    command.add_argument("--every-ply", action="store_true", help="check for a dead position after every ply")
    command.add_argument("--timeout-only", action="store_true", help="only the games lost on time")
    command.add_argument("--timeout", choices=("white", "black"), help="treat every game as lost on time by this player")
    command.add_argument("--nodes", type=int, metavar="N", help="positions searched per timeout analysis [50000000]")
    command.add_argument("--tt-mb", type=int, metavar="N", help="table size per thread for timeout analyses [64]")
    command.add_argument(
        "--chunk-mb", type=float, default=DEFAULT_CHUNK_MB, metavar="MB", help="size of the tasks of plain PGN files"
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
    for name in ("workers", "threads", "nodes", "tt_mb"):
        value = getattr(args, name)
        if value is not None and value < 1:
            print(f"error: --{name.replace('_', '-')} must be at least 1", file=sys.stderr)
            return 2
    if args.chunk_mb <= 0:
        print("error: --chunk-mb must be positive", file=sys.stderr)
        return 2
    settings = Settings(
        every_ply=args.every_ply,
        timeout_only=args.timeout_only,
        timeout=args.timeout,
        nodes=args.nodes,
        tt_mb=args.tt_mb,
        threads=args.threads,
        movetext=args.movetext,
    )

    def progress(done: int, total: int, summary: Summary) -> None:
        print(f"{done}/{total} tasks, {summary.games} games, {summary.games_per_second:.0f} games/s", file=sys.stderr)

    from distributed import Client, LocalCluster

    cluster = None
    try:
        if args.scheduler:
            client = Client(args.scheduler)
        else:
            workers = args.workers or os.cpu_count() or 1
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(cluster)
        with client:
            summary = adjudicate(
                args.inputs,
                args.out,
                client=client,
                settings=settings,
                chunk_bytes=max(1, int(args.chunk_mb * (1 << 20))),
                resume=args.resume,
                overwrite=args.overwrite,
                progress=None if args.quiet else progress,
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
