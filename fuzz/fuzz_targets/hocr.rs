//! Fuzz target: hOCR input through the whole pipeline, cleaning to checks (see fuzz/src/lib.rs).
#![no_main]

use folio::preprocess::FileType;
use libfuzzer_sys::fuzz_target;

fuzz_target!(init: folio_fuzz::init(), |data: &[u8]| {
    folio_fuzz::recognize_as(data, &[FileType::Hocr]);
});
