//! One memory budget for the whole command (`--memory-mb`), divided among
//! its worker threads.
//!
//! The budget covers everything the command allocates: a fixed part for
//! the program and its input buffers (for `adjudicate` also the largest
//! decompression window a zstd frame may ask for), the window of input in
//! flight between the reader and the writer ([`crate::ordered`]), a
//! little per thread, and the search tables, lazily grown, of each
//! worker's analyzer: what is left, divided by the threads, is the most
//! one worker's analyses may use ([`Plan::analyzer_mb`]).
//!
//! A budget larger than the machine's memory (the smaller of `MemTotal`
//! and the cgroup limit) is a usage error, as is one too small to give
//! every thread the least its analyzer needs. Without `--threads`, the
//! command uses one thread per CPU, but no more than fit in the budget.

use core::fmt;

/// The most worker threads (`--threads`).
pub const MAX_THREADS: u16 = 256;

/// The budget without `--memory-mb`, in MiB (or half of the machine's
/// memory if that is less).
pub const DEFAULT_MEMORY_MB: u64 = 1024;

/// The program, its buffers and threads other than the workers, in MiB.
const BASE_MB: u64 = 32;

/// The largest zstd window `adjudicate` accepts (2^27 bytes, the limit of
/// the `zstd` command itself), plus the decompressors' buffers, in MiB.
pub const DECOMPRESSION_MB: u64 = 128 + 8;

/// Per worker thread: the pages of its stack in use and its small
/// allocations, in MiB.
const THREAD_MB: u64 = 1;

/// Per `adjudicate` worker: the quick analyzer that checks dead positions
/// (it allocates its tables' first 40 KiB each and never grows them), in
/// MiB.
const QUICK_ANALYZER_MB: u64 = 1;

/// How much an analyzer may allocate, as a multiple of its
/// [`search::Limits::memory_mb`]: that limit is the analyzer's whole budget
/// (tables, queue and stored positions), so one.
pub const SEARCH_MEMORY_FACTOR: u64 = 1;

/// The least `memory_mb` given to an analyzer (below, the search's own floors
/// of 1 MiB per structure make its use larger than its share).
const MIN_ANALYZER_MB: u64 = 4;

/// The memory of the machine, as far as it can be read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Machine {
    /// The memory the process may use at most, in MiB: `MemTotal`, or the
    /// cgroup's limit if lower.
    pub total_mb: Option<u64>,
    /// `MemAvailable`, in MiB.
    pub available_mb: Option<u64>,
}

impl Machine {
    /// The machine's memory as read at the first call in this process (a
    /// plan needs its total, which does not change; the Python package
    /// plans at every call).
    pub fn cached() -> Machine {
        static MACHINE: std::sync::OnceLock<Machine> = std::sync::OnceLock::new();
        *MACHINE.get_or_init(Machine::read)
    }

    /// Reads `/proc/meminfo` and the cgroup limit (v2 `memory.max`, v1
    /// `memory.limit_in_bytes`); unknown on other systems.
    pub fn read() -> Machine {
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let field = |name: &str| -> Option<u64> {
            let line = meminfo.lines().find(|line| line.starts_with(name))?;
            let kib: u64 = line[name.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
            Some(kib / 1024)
        };
        let cgroup = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
            .iter()
            .filter_map(|path| std::fs::read_to_string(path).ok()?.trim().parse::<u64>().ok())
            .map(|bytes| bytes >> 20)
            .min();
        let total_mb = match (field("MemTotal:"), cgroup) {
            (Some(total), Some(limit)) => Some(total.min(limit)),
            (total, limit) => total.or(limit),
        };
        Machine { total_mb, available_mb: field("MemAvailable:") }
    }
}

/// What the workers do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// `analyze`: one analyzer per worker; queries are small.
    Analyze,
    /// `adjudicate`: per worker a quick analyzer and one for timeouts;
    /// compressed input, batches of games.
    Adjudicate,
    /// `serve`: per worker either an analyzer or an adjudicator (a quick
    /// analyzer and one for timeouts) and, for an `adjudicate` request, a
    /// zstd decompressor (every worker may decompress at once); the window
    /// holds the request bodies admitted.
    Serve,
}

/// How a budget is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The whole budget, in MiB.
    pub budget_mb: u64,
    /// Worker threads.
    pub threads: usize,
    /// [`search::Limits::memory_mb`] of each worker's analyzer (for
    /// `adjudicate`, its timeout analyzer).
    pub analyzer_mb: usize,
    /// Bytes of input in flight between the reader and the writer.
    pub window_bytes: usize,
    /// `adjudicate`: the most bytes of game text in one batch (a batch may
    /// exceed it by one game).
    pub batch_bytes: usize,
}

/// A budget that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryError {
    /// More than the machine has.
    ExceedsMachine {
        /// The budget, in MiB.
        budget_mb: u64,
        /// The machine's memory, in MiB.
        machine_mb: u64,
    },
    /// Too little for the threads asked for.
    TooSmall {
        /// The budget, in MiB.
        budget_mb: u64,
        /// The threads.
        threads: usize,
        /// The least budget for them, in MiB.
        needed_mb: u64,
        /// The option that sets them: `--threads`, or `--workers` for
        /// `serve`.
        option: &'static str,
    },
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryError::ExceedsMachine { budget_mb, machine_mb } => write!(
                f,
                "--memory-mb {budget_mb} is more than this machine's memory ({machine_mb} MiB); give at most \
                 {machine_mb}"
            ),
            MemoryError::TooSmall { budget_mb, threads, needed_mb, option } => {
                let what = if *option == "--workers" { "worker" } else { "thread" };
                let (plural, they) = if *threads == 1 { ("", "it needs") } else { ("s", "they need") };
                write!(
                    f,
                    "--memory-mb {budget_mb} is too small for {threads} {what}{plural} ({they} at least {needed_mb} \
                     MiB); raise --memory-mb or lower {option}"
                )
            }
        }
    }
}

impl std::error::Error for MemoryError {}

/// The fixed part and the window of `workload` under `budget_mb`, in MiB.
fn fixed_mb(workload: Workload, budget_mb: u64) -> (u64, u64) {
    match workload {
        Workload::Analyze => (BASE_MB, (budget_mb / 16).clamp(4, 64)),
        Workload::Adjudicate => (BASE_MB + DECOMPRESSION_MB, (budget_mb / 8).clamp(8, 256)),
        Workload::Serve => (BASE_MB, (budget_mb / 8).clamp(16, 256)),
    }
}

/// The memory of one worker besides its analyzer's share, in MiB.
fn per_thread_mb(workload: Workload) -> u64 {
    match workload {
        Workload::Analyze => THREAD_MB,
        Workload::Adjudicate => THREAD_MB + QUICK_ANALYZER_MB,
        Workload::Serve => THREAD_MB + QUICK_ANALYZER_MB + DECOMPRESSION_MB,
    }
}

/// The least budget for `threads` workers, in MiB.
pub fn needed_mb(workload: Workload, threads: usize) -> u64 {
    let (fixed, window) = fixed_mb(workload, 0);
    let per_thread = per_thread_mb(workload) + MIN_ANALYZER_MB * SEARCH_MEMORY_FACTOR;
    fixed + window + threads as u64 * per_thread
}

/// The budget of `--memory-mb` (or the default) spent on `threads`
/// workers (or, without `--threads`, one per CPU: as many as fit).
pub fn plan(
    memory_mb: Option<u64>,
    threads: Option<usize>,
    workload: Workload,
    machine: &Machine,
) -> Result<Plan, MemoryError> {
    let budget_mb = match (memory_mb, machine.total_mb) {
        (Some(budget_mb), Some(machine_mb)) if budget_mb > machine_mb => {
            return Err(MemoryError::ExceedsMachine { budget_mb, machine_mb });
        }
        (Some(budget_mb), _) => budget_mb,
        (None, Some(machine_mb)) => DEFAULT_MEMORY_MB.min(machine_mb / 2),
        (None, None) => DEFAULT_MEMORY_MB,
    };
    let threads = match threads {
        Some(threads) => threads.clamp(1, usize::from(MAX_THREADS)),
        None => {
            let cpus = std::thread::available_parallelism().map_or(1, usize::from).min(usize::from(MAX_THREADS));
            (1..=cpus).rev().find(|&t| needed_mb(workload, t) <= budget_mb).unwrap_or(1)
        }
    };
    let needed = needed_mb(workload, threads);
    if budget_mb < needed {
        let option = if workload == Workload::Serve { "--workers" } else { "--threads" };
        return Err(MemoryError::TooSmall { budget_mb, threads, needed_mb: needed, option });
    }
    let (fixed, window) = fixed_mb(workload, budget_mb);
    let (_, least_window) = fixed_mb(workload, 0);
    // The window grows beyond its least only with what the threads' least
    // needs leave, so the analyzers' shares below are never short.
    let window = window.min(least_window + (budget_mb - needed));
    let per_thread = per_thread_mb(workload);
    let shared = budget_mb.saturating_sub(fixed + window + threads as u64 * per_thread);
    let analyzer_mb = (shared / threads as u64 / SEARCH_MEMORY_FACTOR).max(MIN_ANALYZER_MB);
    let window_bytes = usize::try_from(window << 20).unwrap_or(usize::MAX);
    // About two batches per worker fit in the window (a batch costs three
    // times its text: the text, the parsed games, the records).
    let batch_bytes = (window_bytes / 3 / (2 * threads)).clamp(64 << 10, 1 << 20);
    Ok(Plan {
        budget_mb,
        threads,
        analyzer_mb: usize::try_from(analyzer_mb).unwrap_or(usize::MAX),
        window_bytes,
        batch_bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MACHINE: Machine = Machine { total_mb: Some(16 << 10), available_mb: Some(12 << 10) };

    /// The parts of a plan never add up to more than its budget.
    fn within_budget(plan: &Plan, workload: Workload) -> bool {
        let (fixed, _) = fixed_mb(workload, plan.budget_mb);
        let window = (plan.window_bytes >> 20) as u64;
        let analyzers = plan.analyzer_mb as u64 * SEARCH_MEMORY_FACTOR;
        fixed + window + plan.threads as u64 * (per_thread_mb(workload) + analyzers) <= plan.budget_mb
    }

    #[test]
    fn budgets_are_divided_and_bounded() {
        for workload in [Workload::Analyze, Workload::Adjudicate, Workload::Serve] {
            for threads in [1, 2, 3, 16, 64, 256] {
                for budget in [100, 256, 300, 1024, 1100, 4096, 16 << 10] {
                    match plan(Some(budget), Some(threads), workload, &MACHINE) {
                        Ok(plan) => {
                            assert_eq!((plan.budget_mb, plan.threads), (budget, threads));
                            assert!(within_budget(&plan, workload), "{plan:?}");
                        }
                        Err(MemoryError::TooSmall { needed_mb, .. }) => {
                            assert!(needed_mb > budget);
                            assert_eq!(needed_mb, super::needed_mb(workload, threads));
                        }
                        Err(e) => panic!("{e}"),
                    }
                }
            }
        }
        let plan = plan(Some(1024), Some(2), Workload::Analyze, &MACHINE).unwrap();
        assert_eq!(plan.analyzer_mb as u64, (1024 - 32 - 64 - 2) / 2 / SEARCH_MEMORY_FACTOR);
    }

    #[test]
    fn usage_errors() {
        let error = plan(Some(65536), Some(1), Workload::Analyze, &MACHINE).unwrap_err();
        assert_eq!(error, MemoryError::ExceedsMachine { budget_mb: 65536, machine_mb: 16 << 10 });
        assert!(error.to_string().contains("more than this machine's memory (16384 MiB)"), "{error}");
        let error = plan(Some(1024), Some(256), Workload::Analyze, &MACHINE).unwrap_err();
        assert!(matches!(error, MemoryError::TooSmall { threads: 256, .. }), "{error}");
        assert!(error.to_string().ends_with("lower --threads"), "{error}");
        // Issue 33: `serve` has workers, not threads.
        let error = plan(Some(1), Some(1), Workload::Serve, &MACHINE).unwrap_err();
        assert!(
            error.to_string().ends_with("1 worker (it needs at least 190 MiB); raise --memory-mb or lower --workers"),
            "{error}"
        );
        // Without --threads, as many as fit.
        let small = Machine { total_mb: Some(100), available_mb: None };
        let plan = plan(None, None, Workload::Analyze, &small).unwrap();
        assert_eq!(plan.budget_mb, 50);
        assert!(plan.threads >= 1 && within_budget(&plan, Workload::Analyze), "{plan:?}");
    }

    #[test]
    fn the_machine_is_read() {
        let machine = Machine::read();
        if std::path::Path::new("/proc/meminfo").exists() {
            assert!(machine.total_mb.is_some_and(|mb| mb > 0), "{machine:?}");
        }
    }
}
