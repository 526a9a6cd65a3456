//! `include/folio.h` must be exactly what cbindgen generates from `ffi/src/lib.rs` with
//! `ffi/cbindgen.toml`. `FOLIO_UPDATE_HEADER=1 cargo test --workspace --test header` rewrites it.

use std::path::Path;

#[test]
fn committed_header_is_current() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("config");
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let fresh = String::from_utf8(fresh).expect("UTF-8 header");
    let path = crate_dir.join("../include/folio.h");
    if std::env::var("FOLIO_UPDATE_HEADER").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &fresh).expect("write header");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "include/folio.h differs from a fresh cbindgen generation; run \
         FOLIO_UPDATE_HEADER=1 cargo test --workspace --test header and commit it"
    );
}
