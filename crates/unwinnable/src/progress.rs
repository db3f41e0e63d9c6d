//! The progress display of long runs, on standard error (indicatif): a bar
//! of the input bytes read when their total is known (files), otherwise a
//! spinner; with the running [`Summary`]'s counts.
//!
//! Shown only when it cannot get in the way: standard error is a terminal,
//! standard output is not (the records would be drawn over), the input is
//! not typed at the terminal, and `--quiet` is not given
//! ([`Progress::wanted`]).

use std::io::{self, IsTerminal};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use pipeline::Summary;

/// How often the counts are redrawn at most.
const REDRAW: Duration = Duration::from_millis(100);

/// A progress display (hidden when not wanted).
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    /// Input bytes read so far (counted by the reader).
    read: Arc<AtomicU64>,
    start: Instant,
    last: Option<Instant>,
}

impl Progress {
    /// Whether to show progress: not `quiet`, standard error a terminal,
    /// standard output not, and standard input not a terminal if it is read.
    pub fn wanted(quiet: bool, reads_stdin: bool) -> bool {
        let typed = reads_stdin && io::stdin().is_terminal();
        !quiet && !typed && io::stderr().is_terminal() && !io::stdout().is_terminal()
    }

    /// A display if `enabled`, of `total` input bytes if known; `read`
    /// counts the bytes read.
    pub fn new(enabled: bool, total: Option<u64>, read: Arc<AtomicU64>) -> Progress {
        let bar = if !enabled {
            ProgressBar::hidden()
        } else {
            let bar = match total {
                Some(total) => ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr()).with_style(
                    ProgressStyle::with_template("{elapsed_precise} [{bar:20}] {bytes}/{total_bytes} {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                ),
                None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(
                    ProgressStyle::with_template("{spinner} {elapsed_precise} {bytes} read, {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                ),
            };
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        };
        Progress { bar, read, start: Instant::now(), last: None }
    }

    /// Shows the counts of `summary` (at most every 100 ms).
    pub fn update(&mut self, summary: &Summary) {
        if self.bar.is_hidden() || self.last.is_some_and(|last| last.elapsed() < REDRAW) {
            return;
        }
        self.last = Some(Instant::now());
        self.bar.set_position(self.read.load(Ordering::Relaxed));
        self.bar.set_message(summary.progress(self.start.elapsed().as_secs_f64()));
    }

    /// Removes the display.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
