//! Process-level set-up shared by the programs built on the engine (the `folio` CLI, the
//! benchmark tools).

use std::process::ExitCode;

/// Tesseract parallelises inside a page with OpenMP, which reads `OMP_THREAD_LIMIT` once, when
/// the library is loaded, so it must be in the environment before the process starts (setting it
/// from Rust needs `unsafe`, which the workspace forbids). One OpenMP thread per page is faster
/// on small machines, and pages and documents already run in parallel. When the variable is
/// missing this re-executes the current binary with `OMP_THREAD_LIMIT=1` and returns the child's
/// exit code; `None` when the variable is already set (go on normally) or the binary cannot be
/// found (go on with tesseract's default).
pub fn reexec_with_omp_limit() -> Option<ExitCode> {
    if std::env::var_os("OMP_THREAD_LIMIT").is_some() {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    let status = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env("OMP_THREAD_LIMIT", "1")
        .status();
    Some(match status {
        Ok(s) => ExitCode::from(s.code().map_or(1, |c| u8::try_from(c).unwrap_or(1))),
        Err(e) => {
            eprintln!("cannot re-execute with OMP_THREAD_LIMIT=1: {e}");
            ExitCode::from(3)
        }
    })
}
