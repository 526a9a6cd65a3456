//! pdfium and onnxruntime are bound once per process, by the first engine built that needs them
//! (or the first caller): a later request for another library file is refused with a clear
//! error, never silently served by the first one. Each scenario needs a process of its own (nothing was bound
//! before it), so the test runs this test binary again, once per scenario.

use folio::pdf::PdfLib;
use folio::{Engine, EngineConfig, ErrorCode, ScorerKind};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Names the scenario a child process runs.
const SCENARIO_ENV: &str = "FOLIO_NATIVE_LIBRARY_SCENARIO";

/// The installed libraries (pdfium, onnxruntime); they come with the project setup, like for
/// the other tests that need them.
fn installed() -> (PathBuf, PathBuf) {
    let first = |c: Vec<PathBuf>| c.into_iter().find(|p| p.is_file());
    let pdfium = first(folio::pdf::library_candidates(None));
    let ort = first(folio::fields::model::library_candidates(None));
    (
        pdfium.expect("pdfium is installed (bash scripts/setup.sh)"),
        ort.expect("onnxruntime loads (bash scripts/setup.sh)"),
    )
}

/// A copy of `lib` in `dir` (another file, the same library).
fn copy_into(lib: &Path, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let to = dir.join(lib.file_name().unwrap());
    std::fs::copy(lib, &to).unwrap();
    to
}

fn config(pdfium: Option<&Path>, ort: Option<&Path>, scorer: ScorerKind) -> EngineConfig {
    EngineConfig {
        pdfium_library: pdfium.map(Path::to_path_buf),
        onnxruntime_library: ort.map(Path::to_path_buf),
        scorer,
        ..EngineConfig::default()
    }
}

/// Asserts a refusal that names both library files.
fn assert_refused(r: folio::Result<Engine>, bound: &Path, asked: &Path) {
    let e = r.expect_err("a second, different library must be refused");
    assert_eq!(e.code(), ErrorCode::InvalidArgument, "{e}");
    let msg = e.to_string();
    assert!(msg.contains(&bound.display().to_string()), "{msg}");
    assert!(msg.contains(&asked.display().to_string()), "{msg}");
}

/// The first engine binds its configured pdfium; another engine asking for another file is
/// refused, the same file (also as its directory or through a link) and no setting are served.
/// onnxruntime likewise, loaded by the first that needs it (a model run through it).
fn engine_binds_at_new(pdfium: &Path, ort: &Path, tmp: &Path) {
    let (pdf_a, ort_a) = (
        copy_into(pdfium, &tmp.join("a")),
        copy_into(ort, &tmp.join("a")),
    );
    let (pdf_b, ort_b) = (
        copy_into(pdfium, &tmp.join("b")),
        copy_into(ort, &tmp.join("b")),
    );

    Engine::new(config(Some(&pdf_a), None, ScorerKind::Rules)).expect("first engine");
    // Bound by the engine before any PDF was read: page counting now uses the configured file.
    assert_eq!(PdfLib::get(None).unwrap().library_path(), pdf_a);
    assert_refused(
        Engine::new(config(Some(&pdf_b), None, ScorerKind::Rules)),
        &pdf_a,
        &pdf_b,
    );
    let e = PdfLib::get(Some(&pdf_b)).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidArgument);

    // The same file, named again, as its directory, or through a link: served.
    Engine::new(config(Some(&pdf_a), None, ScorerKind::Rules)).expect("same file");
    let dir = tmp.join("a");
    Engine::new(config(Some(&dir), None, ScorerKind::Rules)).expect("its directory");
    let link = tmp.join("link");
    std::os::unix::fs::symlink(&dir, &link).unwrap();
    Engine::new(config(Some(&link), None, ScorerKind::Rules)).expect("a link to it");
    // No setting, or a setting naming no file: the bound library serves.
    Engine::new(config(None, None, ScorerKind::Rules)).expect("no setting");
    let absent = tmp.join("absent/libpdfium.so");
    Engine::new(config(Some(&absent), None, ScorerKind::Rules)).expect("an absent file");

    // onnxruntime: the first load binds its file, another is refused, the same one served.
    let load = folio::fields::model::load_onnxruntime;
    assert_eq!(load(Some(&ort_a)).unwrap(), ort_a);
    let e = load(Some(&ort_b)).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidArgument, "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains(&ort_a.display().to_string()) && msg.contains(&ort_b.display().to_string()),
        "{msg}"
    );
    assert_eq!(load(Some(&dir)).unwrap(), ort_a);
    assert_eq!(load(Some(&link)).unwrap(), ort_a);
    assert_eq!(load(None).unwrap(), ort_a);
    // The default engine evaluates its model natively: it loads no onnxruntime, so a setting
    // it does not use is no conflict.
    Engine::new(config(None, Some(&ort_b), ScorerKind::Model)).expect("native model");
}

/// Page counting (the server's upload) binds the default pdfium before any engine: an engine
/// configured with another file is then refused, not silently served by the default one.
fn counting_pages_first(pdfium: &Path, tmp: &Path) {
    let default = PdfLib::get(None).unwrap().library_path().to_path_buf();
    let other = copy_into(pdfium, &tmp.join("other"));
    assert_refused(
        Engine::new(config(Some(&other), None, ScorerKind::Rules)),
        &default,
        &other,
    );
    Engine::new(config(Some(&default), None, ScorerKind::Rules)).expect("the bound file");
}

/// Runs the scenario named by [`SCENARIO_ENV`] (in a child process; nothing otherwise).
#[test]
fn scenario() {
    let Ok(name) = std::env::var(SCENARIO_ENV) else {
        return;
    };
    let (pdfium, ort) = installed();
    let tmp = tempfile::tempdir().unwrap();
    match name.as_str() {
        "engine_binds_at_new" => engine_binds_at_new(&pdfium, &ort, tmp.path()),
        "counting_pages_first" => counting_pages_first(&pdfium, tmp.path()),
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn a_process_binds_one_library_and_refuses_another() {
    // In a child process this test has nothing to do (`scenario` runs there).
    if std::env::var_os(SCENARIO_ENV).is_some() {
        return;
    }
    installed();
    for name in ["engine_binds_at_new", "counting_pages_first"] {
        let out = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "scenario", "--nocapture", "--test-threads", "1"])
            .env(SCENARIO_ENV, name)
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "scenario {name} failed:\n{text}");
        assert!(
            text.contains("1 passed"),
            "scenario {name} did not run:\n{text}"
        );
    }
}
