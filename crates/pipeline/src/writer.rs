//! The sink of a run that writes its records: one [`Writer`] for the
//! analyses and the games (each kind's outputs are written by its own
//! [`Sink`](crate::ordered::Sink) impl, next to its step), keeping the
//! run's [`Summary`] and showing it after each batch.

use std::io::{self, Write};

use crate::analyze::ANALYSIS_COLUMNS;
use crate::games::GAME_COLUMNS;
use crate::output::{Format, RecordWriter, Render};
use crate::summary::{ShowProgress, Summary, Unit};

/// Writes the records in a format and keeps the [`Summary`]; `progress`
/// (if any) is shown the summary after each batch.
pub struct Writer<W: Write> {
    records: RecordWriter<W>,
    /// Only the wrong results and the errors are written (games).
    pub(crate) only_wrong: bool,
    /// The counts so far.
    pub summary: Summary,
    progress: Option<ShowProgress>,
}

impl<W: Write> core::fmt::Debug for Writer<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Writer").field("summary", &self.summary).finish_non_exhaustive()
    }
}

impl<W: Write> Writer<W> {
    /// A writer of analysis records to `output` in `format`.
    pub fn analyses(output: W, format: Format) -> io::Result<Writer<W>> {
        Writer::new(output, format, ANALYSIS_COLUMNS, Unit::Analyses, false)
    }

    /// A writer of game records to `output` in `format` (only the wrong
    /// results and the errors if `only_wrong`).
    pub fn games(output: W, format: Format, only_wrong: bool) -> io::Result<Writer<W>> {
        Writer::new(output, format, GAME_COLUMNS, Unit::Games, only_wrong)
    }

    fn new(output: W, format: Format, columns: &[&str], unit: Unit, only_wrong: bool) -> io::Result<Writer<W>> {
        let records = RecordWriter::new(output, format, columns)?;
        Ok(Writer { records, only_wrong, summary: Summary::new(unit), progress: None })
    }

    /// Shows the summary to `progress` after each batch written.
    pub fn with_progress(mut self, progress: impl FnMut(&Summary) + 'static) -> Writer<W> {
        self.progress = Some(Box::new(progress));
        self
    }

    /// Writes one record.
    pub(crate) fn write(&mut self, record: &impl Render) -> io::Result<()> {
        self.records.write(record)
    }

    /// A batch was written: the progress is shown the summary.
    pub(crate) fn batch_written(&mut self) {
        if let Some(progress) = &mut self.progress {
            progress(&self.summary);
        }
    }

    /// Flushes what was written (the sink's `idle`).
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.records.flush()
    }
}
