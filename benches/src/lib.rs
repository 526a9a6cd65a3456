//! Accuracy harness and benchmarks of the Folio engine.
//!
//! * [`score`]: scoring of Result JSON against `truth.json` labels (the shared data README's
//!   rules), reused by the golden tests.
//! * [`difflib`]: a port of CPython's `difflib.SequenceMatcher.ratio()`.
//! * [`boxes`]: SROIE `*.boxes.txt` OCR lines as [`folio::types::TextPage`]s.
//! * [`dataset`]: discovery of labelled documents in a directory.
//! * [`inputs`]: benchmark inputs and the `OMP_THREAD_LIMIT=1` re-exec.
//! * [`split`]: the tuning / frozen splits of the labelled sets (`benches/splits`, issue 14).

pub mod boxes;
pub mod dataset;
pub mod difflib;
pub mod inputs;
pub mod score;
pub mod split;
