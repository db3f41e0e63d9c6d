//! Time statistics of a run: nearest-rank percentiles over per-query times,
//! and speed ratios worded as "project is X.XXx faster/slower".

use std::time::Duration;

/// The distribution of per-query times.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Number of queries.
    pub count: usize,
    /// Sum of the times.
    pub total: Duration,
    /// Median (nearest rank: the lower middle for an even count).
    pub median: Duration,
    /// 90th percentile.
    pub p90: Duration,
    /// 99th percentile.
    pub p99: Duration,
    /// The largest time.
    pub worst: Duration,
}

/// The `q`-quantile (0 < q <= 1) of ascending `sorted` by the nearest-rank
/// method: the smallest value with at least `q` of the values at or below
/// it. Zero when empty.
pub fn percentile(sorted: &[Duration], q: f64) -> Duration {
    let n = sorted.len();
    if n == 0 {
        return Duration::ZERO;
    }
    let rank = ((n as f64 * q).ceil() as usize).clamp(1, n);
    sorted[rank - 1]
}

impl Summary {
    /// Summarises `times` (any order).
    pub fn of(times: &[Duration]) -> Summary {
        let mut sorted = times.to_vec();
        sorted.sort_unstable();
        Summary {
            count: sorted.len(),
            total: sorted.iter().sum(),
            median: percentile(&sorted, 0.5),
            p90: percentile(&sorted, 0.9),
            p99: percentile(&sorted, 0.99),
            worst: sorted.last().copied().unwrap_or_default(),
        }
    }

    /// The mean time.
    pub fn mean(&self) -> Duration {
        if self.count == 0 { Duration::ZERO } else { self.total / self.count as u32 }
    }
}

/// A duration for a table: µs below 1 ms, ms below 10 s, else s.
pub fn human(d: Duration) -> String {
    let micros = d.as_secs_f64() * 1e6;
    if micros < 1_000.0 {
        format!("{micros:.1} µs")
    } else if micros < 10_000_000.0 {
        format!("{:.2} ms", micros / 1e3)
    } else {
        format!("{:.2} s", micros / 1e6)
    }
}

/// `theirs / ours` as a sentence: "project is 2.50x faster" when ours is
/// smaller, "project is 1.25x slower" when larger, "project is as fast"
/// when equal (and "n/a" when either is zero).
pub fn speed(ours: Duration, theirs: Duration) -> String {
    if ours.is_zero() || theirs.is_zero() {
        return "n/a (a zero time)".to_string();
    }
    let ratio = theirs.as_secs_f64() / ours.as_secs_f64();
    if ratio > 1.0 {
        format!("project is {ratio:.2}x faster")
    } else if ratio < 1.0 {
        format!("project is {:.2}x slower", 1.0 / ratio)
    } else {
        "project is as fast".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn micros(values: impl IntoIterator<Item = u64>) -> Vec<Duration> {
        values.into_iter().map(Duration::from_micros).collect()
    }

    #[test]
    fn percentiles_on_known_inputs() {
        // 1..=100 in reverse order: the k-th percentile is k.
        let s = Summary::of(&micros((1..=100).rev()));
        assert_eq!(s.count, 100);
        assert_eq!(s.total, Duration::from_micros(5050));
        assert_eq!(s.median, Duration::from_micros(50));
        assert_eq!(s.p90, Duration::from_micros(90));
        assert_eq!(s.p99, Duration::from_micros(99));
        assert_eq!(s.worst, Duration::from_micros(100));
        assert_eq!(s.mean(), Duration::from_nanos(50_500));
        // Ten values: p99 is the largest; the median is the lower middle.
        let s = Summary::of(&micros([7, 1, 9, 3, 5, 2, 8, 10, 4, 6]));
        assert_eq!((s.median, s.p90, s.p99), (Duration::from_micros(5), Duration::from_micros(9), s.worst));
        assert_eq!(s.worst, Duration::from_micros(10));
        // One value is every percentile; none gives zeros.
        let s = Summary::of(&micros([42]));
        assert_eq!((s.median, s.p90, s.p99, s.worst), (s.total, s.total, s.total, s.total));
        assert_eq!(Summary::of(&[]), Summary::default());
        assert_eq!(percentile(&micros([1, 2, 3]), 0.0), Duration::from_micros(1));
    }

    #[test]
    fn speed_sentences() {
        let ms = Duration::from_millis;
        assert_eq!(speed(ms(100), ms(250)), "project is 2.50x faster");
        assert_eq!(speed(ms(100), ms(80)), "project is 1.25x slower");
        assert_eq!(speed(ms(3), ms(3)), "project is as fast");
        assert!(speed(Duration::ZERO, ms(3)).starts_with("n/a"));
    }

    #[test]
    fn human_units() {
        assert_eq!(human(Duration::from_nanos(1_500)), "1.5 µs");
        assert_eq!(human(Duration::from_micros(6_906)), "6.91 ms");
        assert_eq!(human(Duration::from_millis(755)), "755.00 ms");
        assert_eq!(human(Duration::from_secs(12)), "12.00 s");
    }
}
