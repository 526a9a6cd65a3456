//! The C surface from C: `tests/c/status.c` (every status value and name pinned) and
//! `tests/c/smoke.c` compiled with gcc against `include/folio.h` and
//! linked to `libfolio.so` and to `libfolio.a`, run, and run again under valgrind (no definite
//! leak, no invalid access); `tests/c/header.cpp` compiled and run with g++; the pkg-config file
//! used to build a program.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Native libraries the static library needs (`--print native-static-libs`).
const STATIC_DEPS: &[&str] = &[
    "-ltesseract",
    "-larchive",
    "-lcurl",
    "-lstdc++",
    "-lpthread",
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lm",
    "-ldl",
    "-lc",
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `target/<profile>`, where cargo put libfolio.so and libfolio.a for this test run.
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>")
        .to_path_buf();
    assert!(
        dir.join("libfolio.so").is_file() && dir.join("libfolio.a").is_file(),
        "libfolio.so / libfolio.a not in {} (cargo builds them with the workspace)",
        dir.display()
    );
    dir
}

/// gcc arguments linking `libfolio.so` from `lib` (found at run time through the rpath).
fn shared_link_args(lib: &Path) -> Vec<String> {
    vec![
        format!("-L{}", lib.display()),
        "-lfolio".into(),
        "-lpthread".into(),
        format!("-Wl,-rpath,{}", lib.display()),
    ]
}

fn run(cmd: &mut Command) -> (bool, String) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn compile_smoke(out: &Path, link: &[String]) {
    let (ok, text) = run(Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-g", "-I"])
        .arg(repo().join("include"))
        .arg(repo().join("tests/c/smoke.c"))
        .arg("-o")
        .arg(out)
        .args(link));
    assert!(ok, "gcc failed:\n{text}");
}

fn run_smoke(exe: &Path, wrapper: &[&str]) -> String {
    run_smoke_with(exe, wrapper, &[])
}

/// Runs the smoke program, `extra` after its fixtures directory (an engine configuration).
fn run_smoke_with(exe: &Path, wrapper: &[&str], extra: &[&str]) -> String {
    let mut cmd = if wrapper.is_empty() {
        Command::new(exe)
    } else {
        let mut c = Command::new(wrapper[0]);
        c.args(&wrapper[1..]).arg(exe);
        c
    };
    cmd.arg(repo().join("fixtures/docs"))
        .args(extra)
        .env("OMP_THREAD_LIMIT", "1")
        .current_dir(repo());
    let (ok, text) = run(&mut cmd);
    assert!(ok, "{} failed:\n{text}", exe.display());
    assert!(text.contains("all C tests passed"), "{text}");
    text
}

#[test]
fn c_program_with_the_shared_library() {
    let lib = lib_dir();
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("smoke_shared");
    compile_smoke(&exe, &shared_link_args(&lib));
    run_smoke(&exe, &[]);
}

#[test]
fn c_program_with_the_static_library() {
    let lib = lib_dir();
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("smoke_static");
    let mut link = vec![lib.join("libfolio.a").display().to_string()];
    link.extend(STATIC_DEPS.iter().map(|s| s.to_string()));
    compile_smoke(&exe, &link);
    run_smoke(&exe, &[]);
}

#[test]
fn c_program_pins_every_status_value_and_name() {
    let lib = lib_dir();
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("status");
    let (ok, text) = run(Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(repo().join("include"))
        .arg(repo().join("tests/c/status.c"))
        .arg("-o")
        .arg(&exe)
        .args(shared_link_args(&lib)));
    assert!(ok, "gcc failed:\n{text}");
    let (ok, text) = run(&mut Command::new(&exe));
    assert!(ok && text.contains("all status pins hold"), "{text}");
}

#[test]
fn header_compiles_as_cpp() {
    let lib = lib_dir();
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("header_cpp");
    let (ok, text) = run(Command::new("g++")
        .args(["-std=c++17", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(repo().join("include"))
        .arg(repo().join("tests/c/header.cpp"))
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", lib.display()))
        .arg("-lfolio")
        .arg(format!("-Wl,-rpath,{}", lib.display())));
    assert!(ok, "g++ failed:\n{text}");
    let (ok, text) = run(Command::new(&exe).current_dir(repo()));
    assert!(ok, "{text}");
}

#[test]
fn no_leaks_or_invalid_accesses_under_valgrind() {
    let lib = lib_dir();
    if Command::new("valgrind").arg("--version").output().is_err() {
        panic!("valgrind is missing: bash scripts/setup.sh installs it");
    }
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("smoke_vg");
    compile_smoke(&exe, &shared_link_args(&lib));
    // Scanned pages read by tesseract here: onnxruntime's vectorised kernels (PP-OCR) under
    // valgrind's emulation take many minutes a page. PP-OCR runs in the C tests without
    // valgrind; what valgrind checks is the library's own memory across the C boundary.
    let text = run_smoke_with(
        &exe,
        &[
            "valgrind",
            &format!(
                "--suppressions={}",
                repo().join("tests/c/valgrind.supp").display()
            ),
            "--error-exitcode=97",
            "--num-callers=40",
            "--leak-check=full",
            "--show-leak-kinds=definite",
            "--errors-for-leak-kinds=definite",
        ],
        &[r#"{"languages": ["en", "de", "fr", "pl"], "ocr": {"engine": "tesseract"}}"#],
    );
    assert!(
        text.contains("ERROR SUMMARY: 0 errors"),
        "valgrind found errors:\n{text}"
    );
    assert!(
        text.contains("definitely lost: 0 bytes") || text.contains("All heap blocks were freed"),
        "{text}"
    );
}

#[test]
fn pkg_config_file_builds_a_program() {
    let lib = lib_dir();
    let tmp = tempfile::tempdir().unwrap();
    // The .pc as an install would write it, pointing at the build's library and header.
    let template = std::fs::read_to_string(repo().join("ffi/folio.pc.in")).unwrap();
    let pc = template
        .replace("@PREFIX@", &tmp.path().display().to_string())
        .replace("@LIBDIR@", &lib.display().to_string())
        .replace(
            "@INCLUDEDIR@",
            &repo().join("include").display().to_string(),
        )
        .replace("@VERSION@", env!("CARGO_PKG_VERSION"));
    std::fs::write(tmp.path().join("folio.pc"), pc).unwrap();
    let (ok, flags) = run(Command::new("pkg-config")
        .args(["--cflags", "--libs", "folio"])
        .env("PKG_CONFIG_PATH", tmp.path()));
    assert!(ok, "pkg-config: {flags}");
    let exe = tmp.path().join("pc_smoke");
    let mut args: Vec<String> = flags.split_whitespace().map(str::to_string).collect();
    args.push(format!("-Wl,-rpath,{}", lib.display()));
    compile_smoke(&exe, &args);
    run_smoke(&exe, &[]);
}
