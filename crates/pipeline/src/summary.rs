//! The [`Summary`] of a run, printed on standard error at the end (and
//! shown by the progress display while it runs): what was done, what was
//! rejected, what went wrong, how fast.

use core::fmt;
use std::collections::BTreeMap;
use std::time::Duration;

/// What a run shows the summary to after each batch (a progress display).
pub type ShowProgress = Box<dyn FnMut(&Summary)>;

/// What a run's records are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Unit {
    /// `analyze`: one record per analysis (a position for one winner).
    #[default]
    Analyses,
    /// `adjudicate`: one record per game.
    Games,
}

/// The counts of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// What the records are.
    pub unit: Unit,
    /// Records written: analyses made, or games adjudicated.
    pub records: u64,
    /// By outcome: the verdict (`winnable`...) of each analysis, or the
    /// deciding rule (`checkmate`...) of each game.
    pub outcomes: BTreeMap<&'static str, u64>,
    /// Analyses answered `undetermined`, or timeouts whose analysis hit a
    /// limit (their result is left `*`).
    pub undetermined: u64,
    /// Games whose recorded result is wrong, by deciding rule.
    pub wrong: BTreeMap<&'static str, u64>,
    /// Rejected input: query lines, or malformed games and unreadable
    /// inputs (one error record each).
    pub errors: u64,
    /// Inputs that could not be opened or read to their end: the run failed.
    pub unreadable: u64,
    /// Games left out by `timeout-only` (not lost on time).
    pub skipped: u64,
    /// Time spent in the analyses of the records, in microseconds.
    pub total_micros: u64,
    /// The longest, in microseconds.
    pub max_micros: u64,
    /// Bytes of input text read (decompressed).
    pub bytes: u64,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

impl Summary {
    /// An empty summary of records of `unit`.
    pub fn new(unit: Unit) -> Summary {
        Summary { unit, ..Summary::default() }
    }

    /// Counts a record: its outcome, whether it is undetermined, and the
    /// time its analysis took.
    pub fn add(&mut self, outcome: &'static str, undetermined: bool, micros: u64) {
        self.records += 1;
        *self.outcomes.entry(outcome).or_default() += 1;
        self.undetermined += u64::from(undetermined);
        self.total_micros = self.total_micros.saturating_add(micros);
        self.max_micros = self.max_micros.max(micros);
    }

    /// Counts a wrong recorded result, decided by `rule`.
    pub fn add_wrong(&mut self, rule: &'static str) {
        *self.wrong.entry(rule).or_default() += 1;
    }

    /// The records with `outcome`.
    pub fn count(&self, outcome: &str) -> u64 {
        self.outcomes.get(outcome).copied().unwrap_or(0)
    }

    /// Recorded results that are wrong.
    pub fn wrong_total(&self) -> u64 {
        self.wrong.values().sum()
    }

    /// The average analysis time per record, in microseconds.
    pub fn average_micros(&self) -> u64 {
        self.total_micros.checked_div(self.records).unwrap_or(0)
    }

    /// A short line for a progress display, `seconds` into the run.
    pub fn progress(&self, seconds: f64) -> String {
        let rate = self.records as f64 / seconds.max(1e-3);
        match self.unit {
            Unit::Analyses => format!("{} analyses ({rate:.1}/s), {} rejected lines", self.records, self.errors),
            Unit::Games => {
                format!("{} games ({rate:.0}/s), {} errors, {} wrong", self.records, self.errors, self.wrong_total())
            }
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.unit {
            Unit::Analyses => write!(
                f,
                "{} analyses ({} winnable, {} unwinnable, {} undetermined), {} rejected lines; per analysis: \
                 average {}, maximum {}",
                self.records,
                self.count("winnable"),
                self.count("unwinnable"),
                self.count("undetermined"),
                self.errors,
                format_micros(self.average_micros()),
                format_micros(self.max_micros),
            )?,
            Unit::Games => {
                write!(f, "{} games, {} errors, {} results changed by rule", self.records, self.errors, {
                    self.wrong_total()
                })?;
                if !self.wrong.is_empty() {
                    f.write_str(" (")?;
                    for (index, (rule, count)) in self.wrong.iter().enumerate() {
                        write!(f, "{}{rule} {count}", if index > 0 { ", " } else { "" })?;
                    }
                    f.write_str(")")?;
                }
                if self.undetermined > 0 {
                    write!(f, ", {} timeouts undecided (search limit)", self.undetermined)?;
                }
                if self.skipped > 0 {
                    write!(f, ", {} not lost on time (skipped)", self.skipped)?;
                }
            }
        }
        if self.unreadable > 0 {
            write!(f, ", {} inputs could not be read to their end", self.unreadable)?;
        }
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 && self.unit == Unit::Games {
            write!(
                f,
                "; {seconds:.1} s, {:.0} games/s, {:.1} MB/s",
                self.records as f64 / seconds,
                self.bytes as f64 / 1e6 / seconds
            )?;
        } else if seconds > 0.0 {
            write!(f, "; {seconds:.1} s in all")?;
        }
        Ok(())
    }
}

/// `1234` as `1.2 ms`, and so on.
pub fn format_micros(micros: u64) -> String {
    match micros {
        0..1_000 => format!("{micros} us"),
        1_000..1_000_000 => format!("{:.1} ms", micros as f64 / 1e3),
        _ => format!("{:.2} s", micros as f64 / 1e6),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn micros() {
        assert_eq!(format_micros(999), "999 us");
        assert_eq!(format_micros(2_500_000), "2.50 s");
    }

    #[test]
    fn analyses() {
        let mut summary = Summary::new(Unit::Analyses);
        assert_eq!(summary.average_micros(), 0);
        summary.add("undetermined", true, 10);
        summary.add("winnable", false, 30);
        summary.errors = 1;
        assert_eq!((summary.records, summary.average_micros(), summary.max_micros), (2, 20, 30));
        assert_eq!(
            summary.to_string(),
            "2 analyses (1 winnable, 0 unwinnable, 1 undetermined), 1 rejected lines; per analysis: average 20 us, \
             maximum 30 us"
        );
    }

    #[test]
    fn games() {
        let mut summary = Summary::new(Unit::Games);
        summary.add("checkmate", false, 0);
        summary.add("timeout", true, 0);
        summary.add_wrong("checkmate");
        summary.errors = 2;
        summary.unreadable = 1;
        summary.bytes = 2_000_000;
        summary.elapsed = Duration::from_secs(2);
        assert_eq!(
            summary.to_string(),
            "2 games, 2 errors, 1 results changed by rule (checkmate 1), 1 timeouts undecided (search limit), 1 \
             inputs could not be read to their end; 2.0 s, 1 games/s, 1.0 MB/s"
        );
        assert_eq!(summary.progress(1.0), "2 games (2/s), 2 errors, 1 wrong");
    }
}
