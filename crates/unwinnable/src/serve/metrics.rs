//! `GET /metrics`: counters of the service in the Prometheus text format
//! (version 0.0.4): requests by route and status, verdicts by kind,
//! rejections by reason, work cancelled because its client left, a latency
//! histogram by route, the queue's length and the analyses running.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

/// The upper bounds of the latency buckets, in seconds.
pub const BUCKETS: [f64; 14] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// A latency histogram: cumulative counts per bucket, sum and count.
#[derive(Debug, Default)]
struct Histogram {
    /// Non-cumulative counts per bucket, and the last for `+Inf`.
    counts: [u64; BUCKETS.len() + 1],
    sum: f64,
    count: u64,
}

/// The counters (shared by the handlers and the jobs).
#[derive(Debug, Default)]
pub struct Metrics {
    /// Requests answered, by route and status.
    requests: Mutex<BTreeMap<(&'static str, u16), u64>>,
    /// Latencies by route.
    latency: Mutex<BTreeMap<&'static str, Histogram>>,
    /// Analyses answered, by verdict.
    verdicts: Mutex<BTreeMap<&'static str, u64>>,
    /// Games adjudicated, by deciding rule.
    rules: Mutex<BTreeMap<&'static str, u64>>,
    /// Requests refused, by reason.
    rejections: Mutex<BTreeMap<&'static str, u64>>,
    /// Work not done because its client left, by kind.
    cancelled: Mutex<BTreeMap<&'static str, u64>>,
    /// Jobs waiting for a worker.
    pub queued: AtomicI64,
    /// Jobs running.
    pub running: AtomicI64,
    /// Connections open.
    pub connections: AtomicI64,
    /// Jobs that panicked.
    pub panics: AtomicU64,
}

fn add<K: Ord>(map: &Mutex<BTreeMap<K, u64>>, key: K) {
    let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
    *map.entry(key).or_default() += 1;
}

impl Metrics {
    /// Counts a request of `route` answered with `status` after `elapsed`.
    pub fn request(&self, route: &'static str, status: u16, elapsed: Duration) {
        add(&self.requests, (route, status));
        let seconds = elapsed.as_secs_f64();
        let mut latency = self.latency.lock().unwrap_or_else(|e| e.into_inner());
        let histogram = latency.entry(route).or_default();
        let bucket = BUCKETS.iter().position(|&bound| seconds <= bound).unwrap_or(BUCKETS.len());
        histogram.counts[bucket] += 1;
        histogram.sum += seconds;
        histogram.count += 1;
    }

    /// Counts an analysis answered `verdict`.
    pub fn verdict(&self, verdict: &'static str) {
        add(&self.verdicts, verdict);
    }

    /// Counts a game adjudicated by `rule`.
    pub fn rule(&self, rule: &'static str) {
        add(&self.rules, rule);
    }

    /// Counts a request refused for `reason` (`queue-full`, `body-memory`,
    /// `too-large`, `shutting-down`, `connections`: over the limit of open
    /// connections).
    pub fn rejection(&self, reason: &'static str) {
        add(&self.rejections, reason);
    }

    /// Counts `count` pieces of work not done because the client left:
    /// `requests` (whose client left before the answer), `jobs-not-started`
    /// (dropped when their turn came), `analyses-stopped` (ended early),
    /// `entries-skipped` (of a batch), `games-skipped` (of an adjudication).
    pub fn cancelled(&self, what: &'static str, count: u64) {
        if count > 0 {
            let mut map = self.cancelled.lock().unwrap_or_else(|e| e.into_inner());
            *map.entry(what).or_default() += count;
        }
    }

    /// The text exposition, with the `workers` and `queue` capacities.
    pub fn render(&self, workers: usize, queue: usize) -> String {
        let mut out = String::with_capacity(4096);
        let lock = |m: &Mutex<BTreeMap<&'static str, u64>>| m.lock().unwrap_or_else(|e| e.into_inner()).clone();
        out.push_str("# HELP unwinnable_requests_total HTTP requests answered, by route and status.\n");
        out.push_str("# TYPE unwinnable_requests_total counter\n");
        for ((route, status), count) in self.requests.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let _ = writeln!(out, "unwinnable_requests_total{{route=\"{route}\",status=\"{status}\"}} {count}");
        }
        out.push_str("# HELP unwinnable_verdicts_total Analyses answered, by verdict.\n");
        out.push_str("# TYPE unwinnable_verdicts_total counter\n");
        for verdict in ["winnable", "unwinnable", "undetermined"] {
            let count = lock(&self.verdicts).get(verdict).copied().unwrap_or(0);
            let _ = writeln!(out, "unwinnable_verdicts_total{{verdict=\"{verdict}\"}} {count}");
        }
        out.push_str("# HELP unwinnable_games_total Games adjudicated, by deciding rule.\n");
        out.push_str("# TYPE unwinnable_games_total counter\n");
        for (rule, count) in lock(&self.rules) {
            let _ = writeln!(out, "unwinnable_games_total{{rule=\"{rule}\"}} {count}");
        }
        out.push_str("# HELP unwinnable_rejections_total Requests refused without an analysis, by reason.\n");
        out.push_str("# TYPE unwinnable_rejections_total counter\n");
        for reason in ["queue-full", "body-memory", "too-large", "shutting-down", "connections"] {
            let count = lock(&self.rejections).get(reason).copied().unwrap_or(0);
            let _ = writeln!(out, "unwinnable_rejections_total{{reason=\"{reason}\"}} {count}");
        }
        out.push_str("# HELP unwinnable_cancelled_total Work not done because its client left, by kind.\n");
        out.push_str("# TYPE unwinnable_cancelled_total counter\n");
        for what in ["requests", "jobs-not-started", "analyses-stopped", "entries-skipped", "games-skipped"] {
            let count = lock(&self.cancelled).get(what).copied().unwrap_or(0);
            let _ = writeln!(out, "unwinnable_cancelled_total{{what=\"{what}\"}} {count}");
        }
        out.push_str("# HELP unwinnable_request_duration_seconds Time from the request to its response, by route.\n");
        out.push_str("# TYPE unwinnable_request_duration_seconds histogram\n");
        for (route, histogram) in self.latency.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            let mut cumulative = 0;
            for (index, bound) in BUCKETS.iter().enumerate() {
                cumulative += histogram.counts[index];
                let _ = writeln!(
                    out,
                    "unwinnable_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {cumulative}"
                );
            }
            let _ = writeln!(
                out,
                "unwinnable_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}",
                histogram.count
            );
            let _ = writeln!(out, "unwinnable_request_duration_seconds_sum{{route=\"{route}\"}} {}", histogram.sum);
            let _ = writeln!(out, "unwinnable_request_duration_seconds_count{{route=\"{route}\"}} {}", histogram.count);
        }
        for (name, help, value) in [
            ("unwinnable_queue_length", "Jobs waiting for a worker.", self.queued.load(Ordering::Relaxed)),
            ("unwinnable_jobs_running", "Jobs running on the workers.", self.running.load(Ordering::Relaxed)),
            ("unwinnable_connections", "Connections open.", self.connections.load(Ordering::Relaxed)),
            ("unwinnable_workers", "Worker threads.", workers as i64),
            ("unwinnable_queue_capacity", "The most jobs waiting for a worker.", queue as i64),
        ] {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}");
        }
        let panics = self.panics.load(Ordering::Relaxed);
        let _ = writeln!(
            out,
            "# HELP unwinnable_panics_total Jobs that panicked (answered 500).\n# TYPE unwinnable_panics_total \
             counter\nunwinnable_panics_total {panics}"
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative() {
        let metrics = Metrics::default();
        for millis in [0, 3, 3, 40, 20_000] {
            metrics.request("/api/analyze", 200, Duration::from_millis(millis));
        }
        metrics.verdict("winnable");
        let text = metrics.render(2, 8);
        for line in [
            "unwinnable_requests_total{route=\"/api/analyze\",status=\"200\"} 5",
            "unwinnable_request_duration_seconds_bucket{route=\"/api/analyze\",le=\"0.0005\"} 1",
            "unwinnable_request_duration_seconds_bucket{route=\"/api/analyze\",le=\"0.0025\"} 1",
            "unwinnable_request_duration_seconds_bucket{route=\"/api/analyze\",le=\"0.005\"} 3",
            "unwinnable_request_duration_seconds_bucket{route=\"/api/analyze\",le=\"0.05\"} 4",
            "unwinnable_request_duration_seconds_bucket{route=\"/api/analyze\",le=\"10\"} 4",
            "unwinnable_request_duration_seconds_bucket{route=\"/api/analyze\",le=\"+Inf\"} 5",
            "unwinnable_request_duration_seconds_count{route=\"/api/analyze\"} 5",
            "unwinnable_verdicts_total{verdict=\"winnable\"} 1",
            "unwinnable_verdicts_total{verdict=\"unwinnable\"} 0",
            "unwinnable_workers 2",
        ] {
            assert!(text.lines().any(|l| l == line), "{line}\n{text}");
        }
    }
}
