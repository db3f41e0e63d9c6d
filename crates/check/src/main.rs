//! `check [FILE...]`: checks the certificates of `unwinnable analyze
//! --format jsonl --certificate` records, from the files or standard
//! input, and prints one outcome per record. Exit status: 0 when every
//! record with a verdict is accepted, 1 when one is rejected, 2 on an I/O
//! error.

#![forbid(unsafe_code)]

use std::io::{self, BufReader};
use std::process::ExitCode;

fn main() -> ExitCode {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let limits = check::Limits::default();
    let stdout = io::stdout().lock();
    let result = if files.is_empty() {
        check::run(io::stdin().lock(), stdout, &limits)
    } else {
        let mut tally = check::Tally::default();
        let mut stdout = stdout;
        files
            .iter()
            .try_for_each(|file| {
                let one = check::run(BufReader::new(std::fs::File::open(file)?), &mut stdout, &limits)?;
                tally.accepted += one.accepted;
                tally.rejected += one.rejected;
                tally.skipped += one.skipped;
                tally.other_lines += one.other_lines;
                Ok::<_, io::Error>(())
            })
            .map(|()| tally)
    };
    match result {
        Ok(tally) => {
            eprintln!("{} accepted, {} rejected, {} skipped", tally.accepted, tally.rejected, tally.skipped);
            if tally.rejected == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
        Err(error) => {
            eprintln!("check: {error}");
            ExitCode::from(2)
        }
    }
}
