//! Process-level set-up shared by the programs built on the engine (the `folio` CLI, the
//! benchmark tools).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A native library loaded at run time (pdfium, onnxruntime) and where to look for it.
#[derive(Debug, Clone)]
pub struct NativeLibrary {
    /// The file name (`libpdfium.so`, `libonnxruntime.so.1.31.1`).
    pub file_name: PathBuf,
    /// Environment variable naming the file (or its directory).
    pub env: &'static str,
    /// The Python package holding it inside a project virtualenv's `site-packages`.
    pub venv_package: &'static str,
    /// An explicit setting (the file or its directory), searched first.
    pub explicit: Option<PathBuf>,
}

impl NativeLibrary {
    /// `path` itself, or the library inside it when it is a directory.
    fn at(&self, path: &Path) -> PathBuf {
        if path.is_dir() {
            path.join(&self.file_name)
        } else {
            path.to_path_buf()
        }
    }

    /// `.venv/lib/python3*/site-packages/<package>/<file>` under `dir`, if present.
    fn in_venv(&self, dir: &Path) -> Option<PathBuf> {
        let lib_dir = dir.join(".venv").join("lib");
        let mut found: Vec<PathBuf> = std::fs::read_dir(&lib_dir)
            .ok()?
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with("python3"))
            .map(|e| {
                e.path()
                    .join("site-packages")
                    .join(self.venv_package)
                    .join(&self.file_name)
            })
            .filter(|p| p.is_file())
            .collect();
        found.sort();
        found.pop()
    }
}

/// Candidate locations of a native library in the documented search order (existing or not):
/// the explicit setting, the environment variable, `lib/` next to the executable (and next to
/// its parent directory, for test binaries in `target/*/deps`), then a project `.venv` in an
/// ancestor of the executable or of the working directory.
pub fn library_candidates(lib: &NativeLibrary) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(p) = &lib.explicit {
        out.push(lib.at(p));
    }
    if let Some(p) = std::env::var_os(lib.env).filter(|v| !v.is_empty()) {
        out.push(lib.at(Path::new(&p)));
    }
    let exe_dir = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf));
    if let Some(dir) = &exe_dir {
        out.push(dir.join("lib").join(&lib.file_name));
        if let Some(parent) = dir.parent() {
            out.push(parent.join("lib").join(&lib.file_name));
        }
    }
    let mut roots: Vec<PathBuf> = Vec::new();
    if let Some(dir) = &exe_dir {
        roots.extend(dir.ancestors().map(Path::to_path_buf));
    }
    if let Ok(cwd) = std::env::current_dir() {
        roots.extend(cwd.ancestors().map(Path::to_path_buf));
    }
    let mut seen = std::collections::HashSet::new();
    for r in roots {
        if seen.insert(r.clone())
            && let Some(p) = lib.in_venv(&r)
        {
            out.push(p);
        }
    }
    out
}

/// Checks a request for a native library against the file this process already loaded (a
/// process loads one pdfium and one onnxruntime, bound by the first engine or caller): without an
/// explicit setting, or with one that names no existing file, the loaded library serves; an
/// explicit setting naming another file is refused with `INVALID_ARGUMENT`, naming both paths.
pub fn check_loaded(lib: &NativeLibrary, what: &str, loaded: &Path) -> crate::Result<()> {
    let Some(explicit) = &lib.explicit else {
        return Ok(());
    };
    let wanted = lib.at(explicit);
    if !wanted.is_file() || same_file(&wanted, loaded) {
        return Ok(());
    }
    Err(crate::Error::InvalidArgument(format!(
        "{what} is already loaded in this process from {}, and a process loads one {what}: this \
         configuration asks for {}. Give every engine of a process the same library (or no \
         setting, which uses the loaded one)",
        loaded.display(),
        wanted.display()
    )))
}

/// Whether two paths name the same file (symbolic links and `..` resolved).
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// Tesseract parallelises inside a page with OpenMP, which reads `OMP_THREAD_LIMIT` once, when
/// the library is loaded, so it must be in the environment before the process starts (setting it
/// from Rust needs `unsafe`, which the workspace forbids). One OpenMP thread per page is faster
/// on small machines, and pages and documents already run in parallel.
///
/// When the variable is missing this replaces the current process image with the same binary,
/// the same arguments and `OMP_THREAD_LIMIT=1` (`execve`: the same process id, no child, so the
/// signals a supervisor sends reach the process doing the work, and its exit status is the
/// real one). It returns only when nothing was done: `None` when the variable is already set or
/// the binary cannot be found (go on with tesseract's default), `Some(3)` when the exec failed.
pub fn reexec_with_omp_limit() -> Option<ExitCode> {
    use std::os::unix::process::CommandExt;
    if std::env::var_os("OMP_THREAD_LIMIT").is_some() {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    let err = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env("OMP_THREAD_LIMIT", "1")
        .exec();
    eprintln!("cannot re-execute with OMP_THREAD_LIMIT=1: {err}");
    Some(ExitCode::from(3))
}
