//! Fuzz target: PNG, JPEG and TIFF (multi-page too) files: detection, the loader and text extraction (see fuzz/src/lib.rs).
#![no_main]

use folio::preprocess::FileType;
use libfuzzer_sys::fuzz_target;

fuzz_target!(init: folio_fuzz::init(), |data: &[u8]| {
    folio_fuzz::extract_as(data, &[FileType::Png, FileType::Jpeg, FileType::Tiff]);
});
