//! Fuzz target: type detection by content (every upload goes through it, also on the server before
//! anything is queued), the words/hOCR sniffers, and page selection strings.
#![no_main]

use folio::ErrorCode;
use folio::preprocess::{self, words};
use libfuzzer_sys::fuzz_target;

fuzz_target!(init: folio_fuzz::init(), |data: &[u8]| {
    match preprocess::detect_type(data) {
        Ok(t) => {
            // Detection is a pure function of the bytes.
            assert_eq!(preprocess::detect_type(data).ok(), Some(t));
        }
        Err(e) => folio_fuzz::check_error(&e),
    }
    let _ = words::looks_like_words_json(data);
    let _ = words::looks_like_hocr(data);
    // Page selection: the first two bytes are the page count, the rest the selection string.
    if let ([a, b, rest @ ..], true) = (data, data.len() > 2) {
        let count = u32::from(u16::from_le_bytes([*a, *b]));
        if let Ok(spec) = std::str::from_utf8(rest) {
            match preprocess::parse_page_selection(spec, count) {
                Ok(pages) => {
                    assert!(pages.windows(2).all(|w| w[0] < w[1]), "{spec:?}: {pages:?}");
                    assert!(pages.iter().all(|&p| (1..=count).contains(&p)), "{spec:?}");
                }
                Err(e) => assert_eq!(e.code(), ErrorCode::InvalidArgument, "{spec:?}: {e}"),
            }
        }
    }
});
