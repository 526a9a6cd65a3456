//! # Folio core
//!
//! Business documents in, one structured Result JSON out. The pipeline stages are public functions
//! over plain data, usable alone; [`Engine`] chains them:
//!
//! 1. [`preprocess`]: type by magic bytes, limits, page selection, decoding, deskew, binarisation.
//! 2. [`pdf`]: text layer with word boxes; unusable pages go to OCR; [`einvoice`]: the invoice
//!    XML inside a PDF (or a standalone CII/UBL file) and its cross-check against the page.
//! 3. [`ocr`]: tesseract with script detection, pages in parallel.
//! 4. [`clean`]: normalisation, lines, reading order, hyphenation.
//! 5. [`candidates`]: dates, amounts, currencies, IBANs, tax ids, numbers, parties, tables.
//! 6. [`fields`]: chooses among candidates through the [`fields::FieldScorer`] seam.
//! 7. [`classify`] and [`validate`]: document type, structure, checks.
//!
//! [`render`] draws a Result's evidence boxes on the page images they refer to.

pub mod candidates;
pub mod checks;
pub mod classify;
pub mod clean;
pub mod config;
pub mod einvoice;
pub mod engine;
pub mod error;
pub mod fields;
pub mod layout;
pub mod ocr;
pub mod pdf;
pub mod preprocess;
pub mod render;
pub mod result;
pub mod runtime;
pub mod types;
pub mod validate;
pub mod webhook;

pub use config::{EngineConfig, RecognizeOptions, ScorerKind};
pub use engine::{CancelToken, Engine, Progress, ProgressFn, Stage};
pub use error::{Error, ErrorCode, Result};
pub use result::DocumentResult;
