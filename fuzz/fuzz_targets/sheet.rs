//! Fuzz target: XLS and XLSX files: detection, the loader and text extraction (see fuzz/src/lib.rs).
#![no_main]

use folio::preprocess::FileType;
use libfuzzer_sys::fuzz_target;

fuzz_target!(init: folio_fuzz::init(), |data: &[u8]| {
    folio_fuzz::extract_as(data, &[FileType::Xls, FileType::Xlsx]);
});
