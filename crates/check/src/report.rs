//! Reading JSONL records and printing one outcome per record: the loop
//! the `check` binary and `unwinnable check` share.

use std::io::{self, BufRead, Read, Write};

use crate::{Limits, Outcome, check_labelled};

/// The longest record read (64 MiB); a longer line is rejected unread.
pub const MAX_RECORD: u64 = 64 << 20;

/// How many records were accepted, rejected and skipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Records whose certificate proves their verdict.
    pub accepted: u64,
    /// Records whose certificate does not (or that have none).
    pub rejected: u64,
    /// Records with nothing to check.
    pub skipped: u64,
    /// Lines that are not records.
    pub other_lines: u64,
}

/// Checks every record of `input` (one per line) and writes `line N
/// winner: accepted`, `...: rejected: <step>` or `...: skipped: <why>` for
/// each to `output`. Lines that do not start with `{` are not records
/// (blank lines, the text around the records of `unwinnable dead
/// --certificate`): they are passed over and counted in
/// [`Tally::other_lines`].
pub fn run(mut input: impl BufRead, mut output: impl Write, limits: &Limits) -> io::Result<Tally> {
    let mut tally = Tally::default();
    let mut buffer = Vec::new();
    for number in 1.. {
        buffer.clear();
        let read = input.by_ref().take(MAX_RECORD + 1).read_until(b'\n', &mut buffer)?;
        if read == 0 {
            break;
        }
        let (label, outcome) = if buffer.len() as u64 > MAX_RECORD {
            // Skip the rest of the line.
            while !matches!(buffer.last(), Some(b'\n')) {
                buffer.clear();
                if input.by_ref().take(MAX_RECORD).read_until(b'\n', &mut buffer)? == 0 {
                    break;
                }
            }
            (None, Outcome::Rejected(format!("the record is longer than {MAX_RECORD} bytes")))
        } else {
            match std::str::from_utf8(&buffer) {
                Ok(text) if !text.trim_start().starts_with('{') => {
                    tally.other_lines += 1;
                    continue;
                }
                Ok(text) => check_labelled(text, limits),
                Err(_) => (None, Outcome::Rejected("the line is not UTF-8".into())),
            }
        };
        let label = label.unwrap_or_else(|| format!("line {number}"));
        match outcome {
            Outcome::Accepted => tally.accepted += 1,
            Outcome::Rejected(_) => tally.rejected += 1,
            Outcome::Skipped(_) => tally.skipped += 1,
        }
        writeln!(output, "{label}: {outcome}")?;
    }
    output.flush()?;
    Ok(tally)
}
