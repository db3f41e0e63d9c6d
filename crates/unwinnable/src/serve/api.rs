//! The routes of the service. Every analysis runs on a worker of the pool
//! ([`Jobs`]), never on the async runtime; the
//! handlers only read the request, queue the work and write the answer.
//!
//! The answers are the records of the command, as `--format jsonl` writes
//! them (one JSON object per line, `application/x-ndjson`):
//! [`Record`] per analysis and
//! [`ErrorRecord`] per rejected query line for
//! `/api/analyze`, [`GameRecord`](pipeline::games::GameRecord)
//! and [`GameError`](pipeline::games::GameError) for
//! `/api/adjudicate`.

use std::io::{self, Read};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use http_body_util::{BodyExt, Limited};
use movegen::{Color, Setup, Square};
use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use super::board::{self, Marks};
use super::error::ApiError;
use super::metrics::Metrics;
use super::page;
use super::params::{Limits, Params};
use super::proof::{self, Overlay};
use super::worker::{Cancel, Jobs, Stop};
use crate::dead::Answer;
use pipeline::analyze::{ErrorRecord, Item, Output, Record, analyze_item_caught, analyze_query};
use pipeline::games::{Inputs, Step, adjudicate_each};
use pipeline::options::GameOptions;
use pipeline::{Line, LineReader, MAX_LINE, Query, Winners, is_skipped, parse_query, to_json};

/// The media type of JSON Lines.
const JSONL: &str = "application/x-ndjson";

/// Records of an adjudication buffered between its worker and the client.
const STREAM_RECORDS: usize = 64;

/// What the handlers share.
#[derive(Debug)]
pub struct AppState {
    /// The pool.
    pub jobs: Jobs,
    /// The counters.
    pub metrics: Arc<Metrics>,
    /// The limits of every request.
    pub limits: Limits,
    /// KiB of request bodies that may be held at once (the window of the
    /// memory plan).
    pub bodies: Arc<Semaphore>,
    /// How long a client may take to send its body.
    pub client_timeout: Duration,
    /// The analyses of `/api/adjudicate` (their limits, the server's).
    pub rules: adjudicate::Options,
}

/// The router of the service, with `extra` routes under the same layers.
pub fn router(state: Arc<AppState>, extra: Router<Arc<AppState>>) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/style.css", get(page::style))
        .route("/pieces.svg", get(page::pieces))
        .route("/api/analyze", get(analyze_one).post(analyze_batch))
        .route("/api/dead", get(dead))
        .route("/api/adjudicate", axum::routing::post(adjudicate))
        .route("/api/positions", get(positions))
        .route("/board.svg", get(board_svg))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .merge(extra)
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(Arc::clone(&state), count))
        .with_state(state)
}

/// Counts every request in the metrics (route, status, latency until the
/// response's head).
async fn count(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let start = Instant::now();
    let route = match request.extensions().get::<MatchedPath>().map(MatchedPath::as_str) {
        Some("/") => "/",
        Some("/app.js" | "/style.css" | "/pieces.svg") => "/static",
        Some("/api/analyze") => "/api/analyze",
        Some("/api/dead") => "/api/dead",
        Some("/api/adjudicate") => "/api/adjudicate",
        Some("/api/positions") => "/api/positions",
        Some("/board.svg") => "/board.svg",
        Some("/healthz") => "/healthz",
        Some("/metrics") => "/metrics",
        _ => "other",
    };
    let response = next.run(request).await;
    state.metrics.request(route, response.status().as_u16(), start.elapsed());
    response
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!("no such page: {}", pipeline::shorten(uri.path())))
}

async fn method_not_allowed(method: axum::http::Method, uri: Uri) -> ApiError {
    ApiError::MethodNotAllowed(format!("{method} is not allowed on {}", pipeline::shorten(uri.path())))
}

async fn healthz() -> &'static str {
    "ok\n"
}

async fn metrics(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    let text = state.metrics.render(state.jobs.workers(), state.jobs.queue());
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text)
}

/// A JSON Lines response.
fn jsonl(lines: Vec<String>) -> Response {
    let mut body = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for line in lines {
        body.push_str(&line);
        body.push('\n');
    }
    ([(header::CONTENT_TYPE, JSONL)], body).into_response()
}

/// A record with the drawable proof, if asked for.
#[derive(Serialize)]
struct Explained<'a> {
    #[serde(flatten)]
    record: &'a Record,
    #[serde(skip_serializing_if = "Option::is_none")]
    proof: Option<Overlay>,
    /// With `certificate=true`: what the independent checker (`crates/check`)
    /// said of the record's certificate: `accepted`, or `rejected: ` and
    /// the first step that failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    checked: Option<String>,
}

/// Adds `record`'s certificate and runs the independent checker on it (the
/// `certificate=true` of `GET /api/analyze`); `None` for an undetermined
/// verdict, which has no certificate.
fn certify(
    record: &mut Record,
    position: &movegen::Position,
    winner: Color,
    verdict: &search::Verdict,
) -> Option<String> {
    record.certificate = pipeline::certificate::certificate(position, winner, verdict);
    record.certificate.as_ref()?;
    let line = serde_json::to_string(record).ok()?;
    Some(match check::check_record(&line, &check::Limits::default()) {
        check::Outcome::Accepted => "accepted".to_string(),
        check::Outcome::Rejected(why) => format!("rejected: {why}"),
        check::Outcome::Skipped(why) => format!("skipped: {why}"),
    })
}

/// The query of the `fen` parameter (an error for an unreachable position
/// if `strict=true`; played as Chess960 if `chess960=true`, as the
/// command's `--chess960`), with the `winner` parameter.
fn query_param(params: &Params) -> Result<(Query, Option<Winners>), ApiError> {
    let mut query = parse_query(params.required("fen")?).map_err(|e| ApiError::query(e.to_string()))?;
    query = query.chess960(params.flag("chess960")?);
    if params.flag("strict")? {
        query = query.strict().map_err(|e| ApiError::query(e.to_string()))?;
    }
    let winners = params.winners()?;
    if let (Some(given), Some(named)) = (winners, query.winners) {
        if given != named {
            return Err(ApiError::query("the winner after the FEN and the winner parameter differ"));
        }
    }
    Ok((query, winners))
}

/// `GET /api/analyze?fen=...&winner=white|black|both&mode=...`: one record
/// per colour.
async fn analyze_one(State(state): State<Arc<AppState>>, uri: Uri) -> Result<Response, ApiError> {
    let params = Params::parse(
        uri.query(),
        &["fen", "winner", "mode", "nodes", "deadline_ms", "explain", "strict", "chess960", "certificate"],
    )?;
    let (query, winners) = query_param(&params)?;
    let config = params.config(&state.limits)?;
    let explain = params.flag("explain")?;
    let certificate = params.flag("certificate")?;
    let colors = query.colors(winners);
    let metrics = Arc::clone(&state.metrics);
    let lines = state
        .jobs
        .run(move |worker, stop| {
            let analyzer = worker.analyzer(config, stop);
            let mut lines = Vec::with_capacity(colors.len());
            for (index, &color) in colors.iter().enumerate() {
                if client_left(stop) {
                    metrics.cancelled("entries-skipped", (colors.len() - index) as u64);
                    break;
                }
                for (mut record, analysis) in
                    analyze_query(analyzer, 1, &query.fen, &query.position, &[color], &query.unreachable)
                {
                    count_verdict(&metrics, &record, stop);
                    let checked = if certificate {
                        certify(&mut record, &query.position, color, &analysis.verdict)
                    } else {
                        None
                    };
                    let proof = match &analysis.verdict {
                        search::Verdict::Unwinnable(proof) if explain => {
                            Some(proof::overlay(&query.position, colors_winner(&record), proof))
                        }
                        _ => None,
                    };
                    lines.push(to_json(&Explained { record: &record, proof, checked }));
                }
            }
            lines
        })
        .await?;
    Ok(jsonl(lines))
}

/// Whether the client of `stop`'s request left (its answers are wanted by
/// nobody), rather than the server stopping (they are still sent).
fn client_left(stop: &Stop) -> bool {
    stop.is_raised() && !stop.by_server()
}

/// Counts an analysis's verdict, or that it was stopped because its client
/// left.
fn count_verdict(metrics: &Metrics, record: &Record, stop: &Stop) {
    if record.cause == Some("stopped") && client_left(stop) {
        metrics.cancelled("analyses-stopped", 1);
    } else {
        metrics.verdict(record.verdict);
    }
}

/// The records of `item` when the server stops before its analysis: each
/// colour `undetermined`, cause `stopped`, without an analysis.
fn stopped_records(item: &Item) -> Output {
    match item {
        Item::Query { line, fen, position, colors, unreachable } => Output::Records(
            colors
                .iter()
                .map(|&winner| {
                    let analysis =
                        search::Analysis { verdict: search::Verdict::Undetermined(search::Cause::Stopped), nodes: 0 };
                    let mut record = Record::new(*line, fen, position, winner, &analysis, 0);
                    record.unreachable = pipeline::unreachable_text(unreachable);
                    record
                })
                .collect(),
        ),
        Item::Rejected(error) => Output::Error(error.clone()),
    }
}

/// The winner of a record.
fn colors_winner(record: &Record) -> Color {
    if record.winner == "white" { Color::White } else { Color::Black }
}

/// Holds the memory of a request body while it is read and used.
#[derive(Debug)]
struct BodyPermit(#[allow(dead_code)] OwnedSemaphorePermit);

/// Reads a request body of at most `limit` bytes within the client
/// timeout, after reserving its memory: 413 beyond the limit, 503 when the
/// memory for bodies is taken, 408 when the client is too slow.
async fn read_body(
    state: &AppState,
    headers: &HeaderMap,
    body: Body,
    limit: usize,
) -> Result<(Bytes, BodyPermit), ApiError> {
    let too_large = |state: &AppState| {
        state.metrics.rejection("too-large");
        ApiError::TooLarge(format!("the body is larger than {limit} bytes, the most this route accepts"))
    };
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(too_large(state));
    }
    let reserve = declared.map_or(limit, |len| len as usize);
    let kib = u32::try_from(reserve.div_ceil(1024).max(1)).unwrap_or(u32::MAX);
    let permit = Arc::clone(&state.bodies).try_acquire_many_owned(kib).map_err(|_| {
        state.metrics.rejection("body-memory");
        ApiError::Busy("the memory for request bodies is taken by other requests; try again later".to_string())
    })?;
    match tokio::time::timeout(state.client_timeout, Limited::new(body, limit).collect()).await {
        Err(_) => {
            Err(ApiError::Timeout(format!("the body was not received within {} s", state.client_timeout.as_secs())))
        }
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large(state)),
        Ok(Err(e)) => Err(ApiError::body(format!("the body could not be read: {e}"))),
        Ok(Ok(collected)) => Ok((collected.to_bytes(), BodyPermit(permit))),
    }
}

/// A gzip body (`Content-Encoding: gzip`) decoded, at most `limit` bytes:
/// 413 beyond, 400 if it is not gzip data.
fn gunzip(body: &[u8], limit: usize) -> Result<Bytes, ApiError> {
    let mut text = Vec::new();
    let decoder = flate2::read::MultiGzDecoder::new(body);
    match decoder.take(limit as u64 + 1).read_to_end(&mut text) {
        Ok(_) if text.len() > limit => Err(ApiError::TooLarge(format!(
            "the body is larger than {limit} bytes once decompressed, the most this route accepts"
        ))),
        Ok(_) => Ok(Bytes::from(text)),
        Err(e) => Err(ApiError::body(format!("the body is not valid gzip data (Content-Encoding: gzip): {e}"))),
    }
}

/// One entry of a batch: a query line, or a JSON string or object.
fn entry_item(line: usize, entry: &serde_json::Value, winners: Option<Winners>, strict: bool) -> Item {
    let rejected = |input: String, error: String| Item::Rejected(ErrorRecord { line, input, error });
    let (text, named) = match entry {
        serde_json::Value::String(text) => (text.as_str(), None),
        serde_json::Value::Object(object) => {
            let named = match object.get("winner") {
                None | Some(serde_json::Value::Null) => None,
                Some(serde_json::Value::String(name)) => match Winners::from_name(name) {
                    Some(winners) => Some(winners),
                    None => {
                        return rejected(
                            pipeline::shorten(&entry.to_string()),
                            format!("unknown winner {:?} (expected white, black or both)", pipeline::shorten(name)),
                        );
                    }
                },
                Some(_) => {
                    return rejected(pipeline::shorten(&entry.to_string()), "the winner is not a string".into());
                }
            };
            match (object.get("fen"), object.keys().find(|k| *k != "fen" && *k != "winner")) {
                (_, Some(key)) => {
                    return rejected(
                        pipeline::shorten(&entry.to_string()),
                        format!(
                            "unknown field {:?} (an entry is {{\"fen\": ..., \"winner\": ...}})",
                            pipeline::shorten(key)
                        ),
                    );
                }
                (Some(serde_json::Value::String(fen)), None) => (fen.as_str(), named),
                _ => {
                    return rejected(
                        pipeline::shorten(&entry.to_string()),
                        "an entry needs \"fen\", a string".to_string(),
                    );
                }
            }
        }
        other => {
            return rejected(
                pipeline::shorten(&other.to_string()),
                "an entry is a query string or an object {\"fen\": ..., \"winner\": ...}".to_string(),
            );
        }
    };
    match parse_query(text) {
        Ok(query) => match (named, query.winners) {
            (Some(a), Some(b)) if a != b => {
                rejected(pipeline::shorten(text), "the winner after the FEN and the winner field differ".into())
            }
            _ => {
                let query = Query { winners: query.winners.or(named), ..query };
                Item::from_query(line, text, query, winners, strict)
            }
        },
        Err(e) => rejected(pipeline::shorten(text), e.to_string()),
    }
}

/// The items of a batch body: a JSON array of entries, or lines (query
/// lines as `analyze` reads them, or JSON entries); at most `max` queries.
fn batch_items(body: &[u8], winners: Option<Winners>, max: usize, strict: bool) -> Result<Vec<Item>, ApiError> {
    let too_many = || ApiError::TooLarge(format!("the batch has more than {max} queries, the most this server takes"));
    let start = body.iter().position(|b| !b.is_ascii_whitespace());
    if start.is_some_and(|i| body[i] == b'[') {
        let entries: Vec<serde_json::Value> =
            serde_json::from_slice(body).map_err(|e| ApiError::body(format!("the JSON array cannot be read: {e}")))?;
        if entries.len() > max {
            return Err(too_many());
        }
        return Ok(entries
            .iter()
            .enumerate()
            .map(|(index, entry)| entry_item(index + 1, entry, winners, strict))
            .collect());
    }
    let mut lines = LineReader::new(body);
    let mut items = Vec::new();
    while let Some((number, line)) = lines.next_line().map_err(|e| ApiError::body(e.to_string()))? {
        let rejected = |error: String| Item::Rejected(ErrorRecord { line: number, input: line.quote(), error });
        let item = match &line {
            Line::Text(text) if is_skipped(text) => continue,
            Line::Text(text) if text.trim_start().starts_with(['{', '"']) => match serde_json::from_str(text) {
                Ok(entry) => entry_item(number, &entry, winners, strict),
                Err(e) => rejected(format!("the JSON entry cannot be read: {e}")),
            },
            Line::Text(text) => match parse_query(text) {
                Ok(query) => Item::from_query(number, text, query, winners, strict),
                Err(e) => rejected(e.to_string()),
            },
            Line::TooLong { len, .. } => rejected(format!("line too long ({len} bytes, at most {MAX_LINE})")),
            Line::NotUtf8 { .. } => rejected("line is not valid UTF-8 text".to_string()),
        };
        if items.len() == max {
            return Err(too_many());
        }
        items.push(item);
    }
    Ok(items)
}

/// `POST /api/analyze`: a batch (a JSON array, or lines), answered in
/// order, one record per analysis or rejected entry.
async fn analyze_batch(
    State(state): State<Arc<AppState>>,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let params = Params::parse(uri.query(), &["winner", "mode", "nodes", "deadline_ms", "strict"])?;
    let winners = params.winners()?;
    let strict = params.flag("strict")?;
    let config = params.config(&state.limits)?;
    let gzip = content_encoding(&headers, &["gzip", "x-gzip"])?.is_some();
    let (mut body, permit) = read_body(&state, &headers, body, state.limits.max_batch_bytes).await?;
    if gzip {
        body = gunzip(&body, state.limits.max_batch_bytes)?;
    }
    let items = batch_items(&body, winners, state.limits.max_batch, strict)?;
    drop(body);
    let metrics = Arc::clone(&state.metrics);
    let lines = state
        .jobs
        .run(move |worker, stop| {
            let _permit = permit;
            let analyzer = worker.analyzer(config, stop);
            let mut lines = Vec::with_capacity(items.len());
            for (index, item) in items.iter().enumerate() {
                let output = if client_left(stop) {
                    // Nobody waits for the rest; those done are not redone.
                    metrics.cancelled("entries-skipped", (items.len() - index) as u64);
                    break;
                } else if stop.is_raised() {
                    // The server stops: the rest is answered at once.
                    stopped_records(item)
                } else {
                    // A panic answers its entry with an error record; the
                    // others keep their answers.
                    analyze_item_caught(analyzer, item).unwrap_or_else(|panicked| {
                        metrics.panics.fetch_add(1, Ordering::Relaxed);
                        panicked
                    })
                };
                match output {
                    Output::Records(records) => {
                        for record in records {
                            count_verdict(&metrics, &record, stop);
                            lines.push(to_json(&record));
                        }
                    }
                    Output::Error(error) => lines.push(to_json(&error)),
                }
            }
            lines
        })
        .await?;
    Ok(jsonl(lines))
}

/// The answer of `/api/dead`.
#[derive(Serialize)]
struct DeadAnswer {
    fen: String,
    /// `yes`, `no` or `undetermined`.
    dead: &'static str,
    /// The analysis for each colour, White's first.
    analyses: Vec<Record>,
    /// Why no game can reach the position, if none can.
    #[serde(skip_serializing_if = "Option::is_none")]
    unreachable: Option<String>,
}

/// `GET /api/dead?fen=...`: is the position dead (neither side can mate)?
async fn dead(State(state): State<Arc<AppState>>, uri: Uri) -> Result<Response, ApiError> {
    let params = Params::parse(uri.query(), &["fen", "mode", "nodes", "deadline_ms", "strict", "chess960"])?;
    let (query, _) = query_param(&params)?;
    if query.winners.is_some() {
        return Err(ApiError::query("`dead` takes a position and no winner: it analyses both colours"));
    }
    let config = params.config(&state.limits)?;
    let metrics = Arc::clone(&state.metrics);
    let answer = state
        .jobs
        .run(move |worker, stop| {
            let analyses = analyze_query(
                worker.analyzer(config, stop),
                1,
                &query.fen,
                &query.position,
                &Color::ALL,
                &query.unreachable,
            );
            let answer = Answer::of(analyses.iter().map(|(_, analysis)| &analysis.verdict));
            let analyses: Vec<Record> = analyses.into_iter().map(|(record, _)| record).collect();
            for record in &analyses {
                count_verdict(&metrics, record, stop);
            }
            let unreachable = pipeline::unreachable_text(&query.unreachable);
            DeadAnswer { fen: query.fen, dead: answer.name(), analyses, unreachable }
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], to_json(&answer) + "\n").into_response())
}

/// A message from an adjudication's worker to its response.
enum Message {
    /// One record, as a JSON line.
    Line(String),
    /// The body cannot be read at all (a 400 if nothing was sent yet).
    Unreadable(String),
    /// Every game was adjudicated.
    Done,
}

/// `POST /api/adjudicate`: the games of a PGN body (plain or compressed:
/// gzip, bzip2, zstd; or `FEN moves...` lines), one record per game,
/// streamed as they are decided. A client that leaves stops the work: the
/// game being adjudicated ends its analysis, the games after it are not
/// read.
async fn adjudicate(
    State(state): State<Arc<AppState>>,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let params = Params::parse(uri.query(), &["timeout", "only_wrong", "every_ply"])?;
    let timeout = params.color("timeout")?;
    let only_wrong = params.flag("only_wrong")?;
    let rules = adjudicate::Options { every_ply: params.flag("every_ply")?, ..state.rules };
    // The body's own compression is recognised by its content; a
    // `Content-Encoding` must name one of those (or none).
    content_encoding(&headers, &["gzip", "x-gzip", "zstd", "bzip2"])?;
    let (body, permit) = read_body(&state, &headers, body, state.limits.max_pgn_bytes).await?;
    let compression = adjudicate::input::Compression::of(&body);
    let (sender, mut receiver) = mpsc::channel::<Message>(STREAM_RECORDS);
    let runtime = tokio::runtime::Handle::current();
    let limits = state.limits;
    let metrics = Arc::clone(&state.metrics);
    let send_timeout = state.client_timeout;
    let stop = state.jobs.submit(move |worker, stop| {
        let _permit = permit;
        // A client that stops reading for longer than the client timeout
        // gives its worker back.
        let send = |message| {
            // The timer is made inside the runtime's context.
            let sent = runtime.block_on(async { tokio::time::timeout(send_timeout, sender.send(message)).await });
            matches!(sent, Ok(Ok(())))
        };
        let input = match adjudicate::input::open(io::Cursor::new(body)) {
            Ok(input) => input,
            Err(e)
                if compression == adjudicate::input::Compression::None || e.to_string().contains("not supported") =>
            {
                let _ = send(Message::Unreadable(e.to_string()));
                return;
            }
            // Damaged compressed data: the same answer as damage further on.
            Err(e) => {
                let error = damaged(compression, 0, &e);
                let _ =
                    send(Message::Line(to_json(&serde_json::json!({ "input": "body", "game": 0, "error": error }))));
                let _ = send(Message::Done);
                return;
            }
        };
        // The decompressed text is bounded too (a small compressed body can
        // unpack to gigabytes), and a damaged stream is named as such.
        let reader = Damage { inner: input.reader.take(limits.max_pgn_text), compression, read: 0 };
        let input = adjudicate::input::Input { reader: Box::new(io::BufReader::new(reader)), ..input };
        let mut batches = Inputs::from_input("body", input).batch_bytes(256 << 10);
        let counted = batches.text_counter();
        let adjudicator = worker.adjudicator(rules, stop);
        let mut games = 0u64;
        while let Some(mut batch) = batches.next_batch() {
            let room = usize::try_from(limits.max_games - games).unwrap_or(usize::MAX);
            let cut = batch.items.len() > room;
            batch.items.truncate(room);
            games += batch.items.len() as u64;
            let each = |line, rule: Option<&'static str>| {
                if let Some(rule) = rule {
                    metrics.rule(rule);
                }
                send(Message::Line(line))
            };
            let step = Step::new(&GameOptions::new(timeout, false, false, only_wrong));
            let left = adjudicate_each(adjudicator, step, &batch, only_wrong, || client_left(stop), each);
            if left > 0 || client_left(stop) {
                // The client left: the games after are not even read.
                metrics.cancelled("games-skipped", left as u64);
                return;
            }
            if cut {
                let error = format!("the body has more than {} games, the most this server takes", limits.max_games);
                let _ = send(Message::Line(to_json(&serde_json::json!({ "input": "body", "error": error }))));
                break;
            }
        }
        if counted.load(Ordering::Relaxed) >= limits.max_pgn_text {
            let error = format!(
                "the text is longer than {} bytes once decompressed; the rest was not read",
                limits.max_pgn_text
            );
            let _ = send(Message::Line(to_json(&serde_json::json!({ "input": "body", "error": error }))));
        }
        let _ = send(Message::Done);
    })?;
    // From here, a client that leaves raises the job's stop flag: while
    // this future waits for the first record, then while the stream lives.
    let mut cancel = Cancel::new(&stop, &state.metrics);
    let first = match receiver.recv().await {
        Some(Message::Line(line)) => line,
        other => {
            // The job has ended: nothing to cancel.
            cancel.disarm();
            return match other {
                Some(Message::Unreadable(detail)) => Err(ApiError::body(detail)),
                Some(Message::Done) => Ok(([(header::CONTENT_TYPE, JSONL)], "").into_response()),
                _ => Err(ApiError::Internal("internal error: the adjudication panicked".to_string())),
            };
        }
    };
    // The rest is streamed; a worker that dies mid-way ends the stream with
    // an error record, so that a client can tell a cut answer from a whole.
    let stream = Lines { first: Some(first), receiver, done: false, cancel };
    let mut response = Response::new(Body::from_stream(stream));
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(JSONL));
    Ok(response)
}

/// The error of compressed data that cannot be decoded after `read` bytes
/// of text: the same words whatever the compression and wherever the
/// damage.
fn damaged(compression: adjudicate::input::Compression, read: u64, error: &io::Error) -> String {
    let name = match compression {
        adjudicate::input::Compression::Zstd => "zstd",
        adjudicate::input::Compression::Gzip => "gzip",
        adjudicate::input::Compression::Bzip2 => "bzip2",
        adjudicate::input::Compression::None => "text",
    };
    format!("the body's {name} data is damaged after {read} bytes of text ({error}); the games before were adjudicated")
}

/// The decompressed text of a body: an error of the decoder is reported as
/// damage ([`damaged`]).
struct Damage<R> {
    inner: R,
    compression: adjudicate::input::Compression,
    read: u64,
}

impl<R: Read> Read for Damage<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(n) => {
                self.read += n as u64;
                Ok(n)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            Err(e) => Err(io::Error::new(e.kind(), damaged(self.compression, self.read, &e))),
        }
    }
}

/// Checks a request's `Content-Encoding` against those the route reads:
/// 415 for another.
fn content_encoding(headers: &HeaderMap, accepted: &[&str]) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get(header::CONTENT_ENCODING) else { return Ok(None) };
    let name = value.to_str().unwrap_or("").trim().to_ascii_lowercase();
    if name.is_empty() || name == "identity" {
        return Ok(None);
    }
    if accepted.contains(&name.as_str()) {
        return Ok(Some(name));
    }
    Err(ApiError::UnsupportedEncoding(format!(
        "Content-Encoding {:?} is not read here (this route reads {}, or none)",
        pipeline::shorten_to(&name, 24),
        accepted.join(", ")
    )))
}

/// The lines of an adjudication as a stream of chunks: the first (already
/// received), then each message until [`Message::Done`]; a channel closed
/// before it (the job panicked) or an unreadable rest ends the stream with
/// an error record. Dropped before its end (the client left), it stops the
/// adjudication.
struct Lines {
    first: Option<String>,
    receiver: mpsc::Receiver<Message>,
    done: bool,
    cancel: Cancel,
}

impl futures_core::Stream for Lines {
    type Item = Result<Bytes, io::Error>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        use std::task::Poll;
        if let Some(first) = self.first.take() {
            return Poll::Ready(Some(Ok(Bytes::from(first + "\n"))));
        }
        if self.done {
            return Poll::Ready(None);
        }
        let line = match std::task::ready!(self.receiver.poll_recv(cx)) {
            Some(Message::Line(line)) => return Poll::Ready(Some(Ok(Bytes::from(line + "\n")))),
            Some(Message::Done) => {
                self.done = true;
                self.cancel.disarm();
                return Poll::Ready(None);
            }
            Some(Message::Unreadable(error)) => to_json(&serde_json::json!({ "input": "body", "error": error })),
            None => to_json(&serde_json::json!({
                "input": "body",
                "error": "internal error: the adjudication stopped before its end"
            })),
        };
        self.done = true;
        self.cancel.disarm();
        Poll::Ready(Some(Ok(Bytes::from(line + "\n"))))
    }
}

/// `GET /api/positions`: the paper's positions, for the page's list.
async fn positions() -> Response {
    #[derive(Serialize)]
    struct Entry {
        id: &'static str,
        label: &'static str,
        fen: &'static str,
        source: &'static str,
    }
    let entries: Vec<Entry> = crate::demo::paper_positions()
        .into_iter()
        .map(|p| Entry { id: p.id, label: p.label, fen: p.fen, source: p.source })
        .collect();
    ([(header::CONTENT_TYPE, "application/json")], to_json(&entries)).into_response()
}

/// `GET /board.svg?fen=...`: the board, with optional `orientation`
/// (`white`, `black`), `highlight`, `region`, `safe`, `locked` (lists of
/// squares) and `arrows` (`e2e4,g1f3`).
async fn board_svg(uri: Uri) -> Result<Response, ApiError> {
    let params =
        Params::parse(uri.query(), &["fen", "orientation", "highlight", "region", "safe", "locked", "arrows"])?;
    let fen = params.required("fen")?.trim();
    // The placement alone is enough to draw.
    let full = if fen.split_ascii_whitespace().count() == 1 { format!("{fen} w - - 0 1") } else { fen.to_string() };
    let setup = Setup::from_fen(&full).map_err(|e| ApiError::query(format!("invalid FEN: {e}")))?;
    let bottom = params.color("orientation")?.unwrap_or(Color::White);
    let arrows = match params.get("arrows") {
        None => Vec::new(),
        Some(text) => text
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|arrow| {
                let squares = (arrow.get(0..2), arrow.get(2..4), arrow.len());
                match squares {
                    (Some(from), Some(to), 4 | 5) => match (from.parse::<Square>(), to.parse::<Square>()) {
                        (Ok(from), Ok(to)) => Ok((from, to)),
                        _ => Err(()),
                    },
                    _ => Err(()),
                }
                .map_err(|()| {
                    ApiError::parameter(format!(
                        "arrows: {:?} is not an arrow (expected two squares, e.g. e2e4)",
                        pipeline::shorten_to(arrow, 24)
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    let marks = Marks {
        highlight: params.squares("highlight")?,
        region: params.squares("region")?,
        safe: params.squares("safe")?,
        locked: params.squares("locked")?,
        arrows,
    };
    let svg = board::svg(&setup.board, bottom, &marks);
    Ok(([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "public, max-age=86400")], svg)
        .into_response())
}

/// The answer of a panic in a handler (the server goes on).
pub fn panic_response() -> Response {
    ApiError::Internal("internal error: the request panicked".to_string()).into_response()
}
