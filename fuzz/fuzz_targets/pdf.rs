//! Fuzz target: PDF files through the engine: page count, text layer with word boxes, blank-page
//! probe and rendering of pages without a usable text layer at 72 DPI (pdfium found by the
//! engine's usual search order: `FOLIO_PDFIUM_LIB`, then the project's `.venv`).
#![no_main]

use folio::preprocess::FileType;
use libfuzzer_sys::fuzz_target;

fuzz_target!(init: folio_fuzz::init(), |data: &[u8]| {
    folio_fuzz::extract_as(data, &[FileType::Pdf]);
});
