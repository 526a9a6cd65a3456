//! Fuzz target: a standalone XML e-invoice (CII or UBL) through the whole pipeline: detection,
//! the bounded XML reader, the CII/UBL mapping, the EN 16931 rules and the checks. The parser is
//! also run on its own over every input, so inputs whose root the sniffer refuses still reach it.
#![no_main]

use folio::einvoice;
use folio::preprocess::FileType;
use libfuzzer_sys::fuzz_target;

fuzz_target!(init: folio_fuzz::init(), |data: &[u8]| {
    match einvoice::parse(data) {
        Ok(e) => {
            // A parsed invoice's Result serialises, and its rules run on any values.
            serde_json::from_str::<serde_json::Value>(&e.result.to_json())
                .expect("a parsed e-invoice serialises to valid JSON");
            let _ = einvoice::rules(&e);
        }
        Err(err) => folio_fuzz::check_error(&err),
    }
    folio_fuzz::recognize_as(data, &[FileType::EInvoice]);
});
