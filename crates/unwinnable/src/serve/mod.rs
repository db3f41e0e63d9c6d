//! `unwinnable serve`: the analysis as an HTTP service (axum on tokio),
//! with a web page at `/`.
//!
//! * [`api`]: the routes; [`params`]: their query parameters, read
//!   strictly; [`error`]: the error answers (`{"error", "detail"}`);
//! * [`worker`]: the analyses run on the command's [`Pool`](pipeline::Pool)
//!   of worker threads, each keeping its analyzer; a request that finds
//!   the queue full is answered 503 at once, never queued without bound;
//! * [`metrics`]: `GET /metrics`, the Prometheus text format;
//! * [`board`]: `GET /board.svg`, the board drawn here; [`proof`]: an
//!   unwinnable answer's proof as squares to draw;
//! * [`page`]: the page, embedded (the tests' HTTP client is the
//!   testkit crate's).
//!
//! # Bounds
//!
//! Memory is one budget ([`pipeline::Workload::Serve`]): each worker's
//! analyzer (or adjudicator) and decompressor, and a window for request
//! bodies that a body must reserve before it is read (else 503). Time: a
//! client has `--client-timeout-secs` to send its headers (hyper closes the
//! connection) and its body (408); an analysis is bounded by the server's
//! `--deadline-ms` and `--max-nodes`, which a request may lower, never
//! raise; a client that stops reading an adjudication for as long gives
//! its worker back. A panic in a request is a 500 and the server goes on;
//! in a batch of analyses, a panic answers its own entry with an error
//! record (and a fresh analyzer), and the other entries keep theirs.
//!
//! # Shutdown
//!
//! SIGTERM (or Ctrl-C) stops accepting connections and lets the requests in
//! flight finish; shortly before `--grace-secs` are over, their analyses are
//! stopped: every request still gets its answer, the entries finished as
//! they are and the rest `undetermined`, cause `stopped`. Then the process
//! exits with status 0.
//!
//! # Clients that leave
//!
//! A request whose client closes its connection stops its work
//! ([`worker::Cancel`]): hyper drops the request's future, which raises the
//! job's stop flag; the analysis running ends within a few milliseconds,
//! the entries of a batch and the games of an adjudication still to come
//! are not started, those finished are not redone. `/metrics` counts it
//! (`unwinnable_cancelled_total`). At most `--max-connections` connections
//! are open at once (512 by default); a connection beyond is answered 503
//! and closed.

pub mod api;
pub mod board;
mod bodies;
pub mod error;
pub mod metrics;
pub mod page;
pub mod params;
pub mod proof;
pub mod worker;

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use axum::middleware::{self, Next};
use axum::response::Response;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::cli::ServeArgs;
pub use api::AppState;
use bodies::ErrorBodies;
use metrics::Metrics;
use params::Limits;
use pipeline::{Machine, MemoryError, Plan, Workload};
use worker::Jobs;

/// The largest `POST /api/analyze` body: 1 MiB (about 10,000 query lines).
pub const MAX_BATCH_BYTES: usize = 1 << 20;
/// The largest `POST /api/adjudicate` body: 8 MiB (compressed, if it is).
pub const MAX_PGN_BYTES: usize = 8 << 20;
/// The most PGN text of one request once decompressed: 64 MiB.
pub const MAX_PGN_TEXT: u64 = 64 << 20;
/// The largest request line and headers: 64 KiB (beyond, 431 or 414 with
/// the JSON error body, `ErrorBodies`).
pub const MAX_HEAD_BYTES: usize = 64 << 10;

/// Answers a connection over the limit with a 503 and closes it.
async fn too_many_connections(mut stream: tokio::net::TcpStream, limit: usize) {
    use tokio::io::AsyncWriteExt;
    let body = error::json_body(
        "busy",
        &format!("the server has {limit} connections open, the most it keeps; try again later"),
    );
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nretry-after: \
         {}\r\nconnection: close\r\n\r\n{body}",
        body.len(),
        error::RETRY_AFTER_SECS
    );
    let _ = stream.write_all(response.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// How the service runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// The memory plan: workers, each analyzer's share, the window for
    /// request bodies.
    pub plan: Plan,
    /// Jobs waiting for a worker at most.
    pub queue: usize,
    /// The limits of every request.
    pub limits: Limits,
    /// How long a client may take to send its request.
    pub client_timeout: Duration,
    /// How long the requests in flight get after SIGTERM.
    pub grace: Duration,
    /// Connections open at once at most; beyond, a 503 and the connection
    /// closed.
    pub max_connections: usize,
    /// No log lines.
    pub quiet: bool,
}

impl Options {
    /// The options of the command line, or why the memory budget cannot
    /// be used.
    pub fn from_args(args: &ServeArgs) -> Result<Options, MemoryError> {
        let plan = pipeline::plan(args.memory_mb, args.workers.map(usize::from), Workload::Serve, &Machine::read())?;
        let queue = args.queue.map_or(4 * plan.threads, usize::from);
        Ok(Options {
            limits: Limits {
                max_nodes: args.max_nodes,
                deadline_ms: args.max_deadline_ms,
                memory_mb: plan.analyzer_mb,
                max_batch: usize::try_from(args.max_batch).unwrap_or(usize::MAX),
                max_games: args.max_games,
                max_batch_bytes: MAX_BATCH_BYTES.min(plan.window_bytes),
                max_pgn_bytes: MAX_PGN_BYTES.min(plan.window_bytes),
                max_pgn_text: MAX_PGN_TEXT,
            },
            plan,
            queue,
            client_timeout: Duration::from_secs(args.client_timeout_secs),
            grace: Duration::from_secs(args.grace_secs),
            max_connections: usize::from(args.max_connections),
            quiet: args.quiet,
        })
    }
}

/// The service: its state (with the pool) and its routes.
#[derive(Debug)]
pub struct Service {
    state: Arc<AppState>,
    options: Options,
}

impl Service {
    /// Starts the worker threads.
    pub fn new(options: Options) -> io::Result<Service> {
        let metrics = Arc::new(Metrics::default());
        let jobs = Jobs::new(options.plan.threads, options.queue, Arc::clone(&metrics))?;
        let mut rules = adjudicate::Options::batch();
        rules.timeout.limits.memory_mb = options.limits.memory_mb;
        rules.timeout.limits.nodes = options.limits.max_nodes;
        rules.timeout.limits.deadline = Some(Duration::from_millis(options.limits.deadline_ms));
        let body_kib = u32::try_from(options.plan.window_bytes / 1024).unwrap_or(u32::MAX).max(1);
        let state = Arc::new(AppState {
            jobs,
            metrics,
            limits: options.limits,
            bodies: Arc::new(Semaphore::new(body_kib as usize)),
            client_timeout: options.client_timeout,
            rules,
        });
        Ok(Service { state, options })
    }

    /// The routes, with `extra` routes of the caller's (tests add a route
    /// that panics) under the same layers: metrics and panic recovery.
    pub fn router(&self, extra: Router<Arc<AppState>>) -> Router {
        api::router(Arc::clone(&self.state), extra).layer(middleware::from_fn(recover))
    }

    /// Serves `listener` until `shutdown` completes, then drains: the
    /// requests in flight get the grace period; a little before its end
    /// their analyses are stopped, so that each still gets its answer
    /// (`undetermined`, cause `stopped`, for what was not finished) before
    /// the grace period is over.
    pub async fn serve(&self, listener: TcpListener, router: Router, shutdown: impl Future<Output = ()>) {
        let graceful = GracefulShutdown::new();
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(self.options.client_timeout)
            .keep_alive(true)
            .max_header_size(MAX_HEAD_BYTES);
        let connections = Arc::new(Semaphore::new(self.options.max_connections));
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let (stream, _) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // Out of file descriptors, say: wait a little.
                        self.log(&format!("accept: {e}"));
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let _ = stream.set_nodelay(true);
            let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
                // Over the limit: a 503 at once, and the connection closed.
                self.state.metrics.rejection("connections");
                let limit = self.options.max_connections;
                tokio::spawn(async move {
                    let _ = tokio::time::timeout(Duration::from_secs(1), too_many_connections(stream, limit)).await;
                });
                continue;
            };
            let service = TowerToHyperService::new(router.clone());
            let connection = builder.serve_connection(TokioIo::new(ErrorBodies::new(stream)), service);
            let watched = graceful.watch(connection);
            let metrics = Arc::clone(&self.state.metrics);
            metrics.connections.fetch_add(1, Ordering::Relaxed);
            tokio::spawn(async move {
                let _ = watched.await;
                metrics.connections.fetch_sub(1, Ordering::Relaxed);
                drop(permit);
            });
        }
        drop(listener);
        let in_flight =
            self.state.metrics.running.load(Ordering::Relaxed) + self.state.metrics.queued.load(Ordering::Relaxed);
        self.log(&format!("shutting down: {in_flight} analyses in flight"));
        let grace = self.options.grace;
        // The analyses are stopped this long before the end of the grace
        // period, for their answers to be written.
        let answer_time = (grace / 4).min(Duration::from_secs(1)).max(Duration::from_millis(100));
        let drained = graceful.shutdown();
        let mut drained = std::pin::pin!(drained);
        tokio::select! {
            () = &mut drained => {}
            () = tokio::time::sleep(grace.saturating_sub(answer_time)) => {
                self.log(&format!("grace period of {} s nearly over: stopping the analyses", grace.as_secs()));
                self.state.jobs.stop();
                if tokio::time::timeout(answer_time, &mut drained).await.is_err() {
                    self.log("grace period over: closing the connections left");
                }
            }
        }
        self.state.jobs.stop();
    }

    fn log(&self, message: &str) {
        if !self.options.quiet {
            eprintln!("unwinnable serve: {message}");
        }
    }
}

/// A future whose panic is caught (the request's response is then a 500).
struct CatchUnwind<F>(Pin<Box<F>>);

impl<F: Future> Future for CatchUnwind<F> {
    type Output = std::thread::Result<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = self.0.as_mut();
        match std::panic::catch_unwind(AssertUnwindSafe(move || inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(panic) => Poll::Ready(Err(panic)),
        }
    }
}

/// A handler that panics answers 500; the connection and the server go on.
async fn recover(request: Request, next: Next) -> Response {
    CatchUnwind(Box::pin(next.run(request))).await.unwrap_or_else(|_| api::panic_response())
}

/// Resolves at SIGTERM or Ctrl-C.
pub async fn termination() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// `unwinnable serve`: binds `addr`, prints the address, serves until
/// SIGTERM, drains, returns.
pub fn run(addr: SocketAddr, options: Options) -> io::Result<()> {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).thread_name("serve-io").enable_all().build()?;
    let service = Service::new(options)?;
    runtime.block_on(async {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|e| io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))?;
        let local = listener.local_addr()?;
        let plan = &service.options.plan;
        eprintln!(
            "unwinnable serve: listening on http://{local}/ ({} workers, queue {}, memory budget {} MiB)",
            plan.threads, service.options.queue, plan.budget_mb
        );
        let router = service.router(Router::new());
        service.serve(listener, router, termination()).await;
        service.log("stopped");
        Ok::<(), io::Error>(())
    })?;
    runtime.shutdown_timeout(Duration::from_secs(1));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use testkit::client::{Client, encode};

    async fn panics() -> &'static str {
        panic!("a bug in a handler")
    }

    /// A panic in a handler or in a job is a 500, and the server goes on: the
    /// real service in this process, with two routes that panic under the
    /// same layers.
    #[test]
    fn a_panic_is_a_500_and_the_server_lives_on() {
        use axum::routing::get;
        use std::sync::Arc;

        let args = <crate::cli::Cli as clap::Parser>::parse_from(["unwinnable", "serve", "--workers", "1"]);
        let Some(crate::cli::Command::Serve(args)) = args.command else { panic!() };
        let service = Service::new(Options::from_args(&args).unwrap()).unwrap();
        let extra = axum::Router::<Arc<AppState>>::new().route("/panic", get(panics)).route(
            "/panic-in-job",
            get(|axum::extract::State(state): axum::extract::State<Arc<AppState>>| async move {
                state.jobs.run(|_, _| -> () { panic!("a bug in an analysis") }).await.map(|()| "unreachable")
            }),
        );
        let router = service.router(extra);
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let service = Arc::new(service);
        let serving = Arc::clone(&service);
        let handle = runtime.spawn(async move {
            serving
                .serve(listener, router, async move {
                    let _ = stopped.await;
                })
                .await;
        });
        let mut client = Client::new(addr, Duration::from_secs(60));
        for path in ["/panic", "/panic-in-job", "/panic"] {
            let response = client.get(path).unwrap();
            assert_eq!(response.status, 500, "{}", response.text());
            let body: serde_json::Value = serde_json::from_str(&response.text()).unwrap();
            assert_eq!(body["error"], "internal", "{body}");
            assert!(body["detail"].as_str().unwrap().contains("panicked"), "{body}");
        }
        let path = format!("/api/analyze?fen={}&winner=white", encode("8/8/1p6/1B2k3/5pK1/8/8/8 b - -"));
        let response = client.get(&path).unwrap();
        let first: serde_json::Value = serde_json::from_str(response.text().lines().next().unwrap()).unwrap();
        assert_eq!(first["verdict"], "winnable");
        let metrics = client.get("/metrics").unwrap().text();
        assert!(metrics.contains("unwinnable_panics_total 1"), "{metrics}");
        stop.send(()).unwrap();
        runtime.block_on(handle).unwrap();
    }
}
