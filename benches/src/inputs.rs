//! Inputs of the speed benchmarks, and the single-OpenMP-thread re-exec shared by the binaries.

use std::path::{Path, PathBuf};

/// Environment variable naming the PDF the benchmarks use (overrides the search below).
pub const BENCH_PDF_ENV: &str = "FOLIO_BENCH_PDF";

/// The preferred real document: a one-page German ZUGFeRD invoice with a text layer.
pub const PREFERRED_ZUGFERD: &str = "XML-Rechnung__FX__EN16931_Einfach.pdf";

/// The workspace root (parent of this crate's directory).
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent()
        .map_or_else(|| here.to_path_buf(), Path::to_path_buf)
}

/// The shared labelled data (`../shared/data` from the workspace root), if present.
pub fn shared_data() -> Option<PathBuf> {
    let p = workspace_root().join("..").join("shared").join("data");
    p.is_dir().then_some(p)
}

fn pdfs_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf")))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// A text-layer PDF for the benchmarks: `$FOLIO_BENCH_PDF`, else [`PREFERRED_ZUGFERD`] (or the
/// first ZUGFeRD PDF) from the shared data, else a `*_text.pdf` fixture from `fixtures/docs`.
pub fn text_layer_pdf() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(BENCH_PDF_ENV).filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(p));
    }
    if let Some(data) = shared_data() {
        let dir = data.join("zugferd");
        let preferred = dir.join(PREFERRED_ZUGFERD);
        if preferred.is_file() {
            return Some(preferred);
        }
        if let Some(p) = pdfs_in(&dir).into_iter().next() {
            return Some(p);
        }
    }
    let fixtures = workspace_root().join("fixtures").join("docs");
    let all = pdfs_in(&fixtures);
    let is_text = |p: &PathBuf| {
        p.file_stem()
            .and_then(|s| s.to_str())
            .is_some_and(|s| s.ends_with("_text") && !s.starts_with("bad_"))
    };
    let preferred = fixtures.join("invoice_de_text.pdf");
    if preferred.is_file() {
        return Some(preferred);
    }
    all.into_iter().find(is_text)
}

/// A SROIE receipt's `*.boxes.txt` from the shared data (the first by name), if present.
pub fn sroie_boxes() -> Option<PathBuf> {
    let dir = shared_data()?.join("sroie");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".boxes.txt"))
        .collect();
    v.sort();
    v.into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_text_pdf_when_inputs_exist() {
        let root = workspace_root();
        assert!(root.join("Cargo.toml").is_file(), "{}", root.display());
        let have_inputs = shared_data().is_some()
            || pdfs_in(&root.join("fixtures").join("docs"))
                .iter()
                .any(|p| p.to_string_lossy().ends_with("_text.pdf"));
        if std::env::var_os(BENCH_PDF_ENV).is_none() {
            let found = text_layer_pdf();
            assert_eq!(found.is_some(), have_inputs);
            if let Some(p) = found {
                assert!(p.is_file(), "{}", p.display());
            }
        }
    }
}
