//! The records of an adjudication as Arrow columns, for `unwinnable.dask`:
//! built here from the pipeline's records (no Python dict per record) and
//! handed to pyarrow without a copy through the Arrow C data interface
//! (`__arrow_c_array__`, the Arrow PyCapsule interface that
//! `pyarrow.record_batch` reads).
//!
//! The columns are those of `unwinnable.dask.SCHEMA`, in its order and with
//! its types; a value the JSONL record omits is null, as `from_pylist`
//! made it from the dicts (the Dask tests compare the Parquet output with
//! the command's records).

use std::sync::Arc;

use arrow_array::builder::{BooleanBuilder, Int32Builder, Int64Builder, StringBuilder};
use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{Array, ArrayRef, StructArray};
use arrow_schema::{Field, Fields};
use pipeline::games::{GameError, GameRecord};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};

/// One record batch, exported once to pyarrow (`pyarrow.record_batch(batch)`).
#[pyclass(module = "unwinnable", name = "ArrowBatch")]
pub struct ArrowBatch {
    /// The batch as a struct array; taken by the export.
    array: Option<StructArray>,
}

impl std::fmt::Debug for ArrowBatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ArrowBatch").field("rows", &self.array.as_ref().map(Array::len)).finish()
    }
}

#[pymethods]
impl ArrowBatch {
    /// The Arrow PyCapsule interface: the schema and the array, each in a
    /// capsule that releases it unless the consumer moved it out.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &mut self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // The schema is ours; a consumer asking for another casts itself.
        let _ = requested_schema;
        let array = self.array.take().ok_or_else(|| PyValueError::new_err("this Arrow batch was exported already"))?;
        let schema = FFI_ArrowSchema::try_from(array.data_type())
            .map_err(|e| PyValueError::new_err(format!("cannot export the Arrow schema: {e}")))?;
        let data = FFI_ArrowArray::new(&array.to_data());
        let schema = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
        let data = PyCapsule::new_with_value(py, data, c"arrow_array")?;
        PyTuple::new(py, [schema.into_any(), data.into_any()])
    }

    /// The number of rows (0 once exported).
    fn __len__(&self) -> usize {
        self.array.as_ref().map_or(0, Array::len)
    }
}

/// The columns being built.
pub struct RecordColumns {
    /// A Parquet input's first row: game numbers count from it, offsets are null.
    first_row: Option<u64>,
    rows: usize,
    input: StringBuilder,
    game: Int64Builder,
    offset: Int64Builder,
    id: StringBuilder,
    recorded: StringBuilder,
    correct: StringBuilder,
    wrong: BooleanBuilder,
    rule: StringBuilder,
    article: StringBuilder,
    ply: Int32Builder,
    void_moves: Int32Builder,
    fen: StringBuilder,
    explanation: StringBuilder,
    helpmate: StringBuilder,
    nodes: Int64Builder,
    threefold_claimable: Int32Builder,
    fifty_moves_claimable: Int32Builder,
    unreachable: StringBuilder,
    white: StringBuilder,
    black: StringBuilder,
    date: StringBuilder,
    site: StringBuilder,
    error: StringBuilder,
}

/// A count as an Arrow int32 (plies and moves of one game: at most the
/// reader's game limit, far below `i32::MAX`; saturated, never wrapped).
fn int32(value: usize) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

/// A count as an Arrow int64 (saturated, never wrapped).
fn int64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

impl RecordColumns {
    /// Empty columns.
    pub fn new(first_row: Option<u64>) -> RecordColumns {
        RecordColumns {
            first_row,
            rows: 0,
            input: StringBuilder::new(),
            game: Int64Builder::new(),
            offset: Int64Builder::new(),
            id: StringBuilder::new(),
            recorded: StringBuilder::new(),
            correct: StringBuilder::new(),
            wrong: BooleanBuilder::new(),
            rule: StringBuilder::new(),
            article: StringBuilder::new(),
            ply: Int32Builder::new(),
            void_moves: Int32Builder::new(),
            fen: StringBuilder::new(),
            explanation: StringBuilder::new(),
            helpmate: StringBuilder::new(),
            nodes: Int64Builder::new(),
            threefold_claimable: Int32Builder::new(),
            fifty_moves_claimable: Int32Builder::new(),
            unreachable: StringBuilder::new(),
            white: StringBuilder::new(),
            black: StringBuilder::new(),
            date: StringBuilder::new(),
            site: StringBuilder::new(),
            error: StringBuilder::new(),
        }
    }

    /// The rows so far.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// The number and offset columns of a record (numbered from the
    /// Parquet input's first row, without an offset, if there is one).
    fn push_position(&mut self, game: u64, offset: u64) {
        match self.first_row {
            Some(first) => {
                self.game.append_value(int64(game.saturating_add(first)));
                self.offset.append_null();
            }
            None => {
                self.game.append_value(int64(game));
                self.offset.append_value(int64(offset));
            }
        }
    }

    /// A game's record.
    pub fn push_game(&mut self, game: &GameRecord) {
        let record = &game.record;
        self.rows += 1;
        self.input.append_value(&game.input);
        self.push_position(record.game, record.offset);
        self.id.append_value(&record.id);
        self.recorded.append_value(&record.recorded);
        self.correct.append_value(&record.correct);
        self.wrong.append_value(record.wrong);
        self.rule.append_value(record.rule);
        self.article.append_value(record.article);
        self.ply.append_value(int32(record.ply));
        self.void_moves.append_value(int32(record.void_moves));
        self.fen.append_value(&record.fen);
        self.explanation.append_value(&record.explanation);
        self.helpmate.append_option(record.helpmate.as_deref());
        self.nodes.append_option(record.nodes.map(int64));
        self.threefold_claimable.append_option(record.threefold_claimable.map(int32));
        self.fifty_moves_claimable.append_option(record.fifty_moves_claimable.map(int32));
        self.unreachable.append_option(record.unreachable.as_deref());
        self.white.append_option(record.white.as_deref());
        self.black.append_option(record.black.as_deref());
        self.date.append_option(record.date.as_deref());
        self.site.append_option(record.site.as_deref());
        self.error.append_null();
    }

    /// An error record: its input, number, offset and error; the rest null.
    pub fn push_error(&mut self, error: &GameError) {
        self.rows += 1;
        self.input.append_value(&error.input);
        self.push_position(error.game, error.offset);
        for column in [
            &mut self.id,
            &mut self.recorded,
            &mut self.correct,
            &mut self.rule,
            &mut self.article,
            &mut self.fen,
            &mut self.explanation,
            &mut self.helpmate,
            &mut self.unreachable,
            &mut self.white,
            &mut self.black,
            &mut self.date,
            &mut self.site,
        ] {
            column.append_null();
        }
        self.wrong.append_null();
        for column in
            [&mut self.ply, &mut self.void_moves, &mut self.threefold_claimable, &mut self.fifty_moves_claimable]
        {
            column.append_null();
        }
        self.nodes.append_null();
        self.error.append_value(&error.error);
    }

    /// The batch of the rows pushed.
    pub fn finish(mut self) -> PyResult<ArrowBatch> {
        let columns: Vec<(&str, ArrayRef)> = vec![
            ("input", Arc::new(self.input.finish())),
            ("game", Arc::new(self.game.finish())),
            ("offset", Arc::new(self.offset.finish())),
            ("id", Arc::new(self.id.finish())),
            ("recorded", Arc::new(self.recorded.finish())),
            ("correct", Arc::new(self.correct.finish())),
            ("wrong", Arc::new(self.wrong.finish())),
            ("rule", Arc::new(self.rule.finish())),
            ("article", Arc::new(self.article.finish())),
            ("ply", Arc::new(self.ply.finish())),
            ("void_moves", Arc::new(self.void_moves.finish())),
            ("fen", Arc::new(self.fen.finish())),
            ("explanation", Arc::new(self.explanation.finish())),
            ("helpmate", Arc::new(self.helpmate.finish())),
            ("nodes", Arc::new(self.nodes.finish())),
            ("threefold_claimable", Arc::new(self.threefold_claimable.finish())),
            ("fifty_moves_claimable", Arc::new(self.fifty_moves_claimable.finish())),
            ("unreachable", Arc::new(self.unreachable.finish())),
            ("white", Arc::new(self.white.finish())),
            ("black", Arc::new(self.black.finish())),
            ("date", Arc::new(self.date.finish())),
            ("site", Arc::new(self.site.finish())),
            ("error", Arc::new(self.error.finish())),
        ];
        let fields: Fields =
            columns.iter().map(|(name, array)| Field::new(*name, array.data_type().clone(), true)).collect();
        let arrays = columns.into_iter().map(|(_, array)| array).collect();
        let array = StructArray::try_new(fields, arrays, None)
            .map_err(|e| PyValueError::new_err(format!("cannot build the Arrow batch: {e}")))?;
        Ok(ArrowBatch { array: Some(array) })
    }
}
