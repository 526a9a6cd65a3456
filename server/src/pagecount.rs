//! `folio page-count FILE` (hidden): counts a PDF's pages with pdfium in a short-lived process
//! of its own, for `folio serve` checking `selected_pages` at upload, so that a PDF that crashes
//! or hangs pdfium costs that process, never the server.
//!
//! The child prints one JSON line, `{"pages":N}` or `{"error":{"code":..,"message":..}}`, and
//! exits 0 either way. It lowers its address space (`RLIMIT_AS`, the workers' limit) once pdfium
//! is bound and its CPU time (`RLIMIT_CPU`) to [`TIMEOUT`], so that it ends by itself even if
//! the server that waits for it is gone; the server kills it past [`TIMEOUT`] in any case.

use clap::Args as ClapArgs;
use folio::ErrorCode;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::Duration;

/// How long counting may take.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// `folio page-count` options (set by the server).
#[derive(ClapArgs, Debug, Clone)]
pub struct PageCountArgs {
    /// The PDF.
    pub file: PathBuf,
    /// The pdfium library (the engine configuration's `pdfium_library`).
    #[arg(long)]
    pub pdfium_library: Option<PathBuf>,
    /// Address-space limit of this process, MB, set once pdfium is bound (0: none).
    #[arg(long, default_value_t = 0)]
    pub memory_mb: u64,
}

/// What the child answers (`folio page-count`: the page count; `folio render-pages`: the pages
/// rendered).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// The pages counted (or rendered).
    Pages(u32),
    /// Why the pages cannot be counted (the engine's coded error).
    Error {
        /// Reason code.
        code: ErrorCode,
        /// Message.
        message: String,
    },
}

/// Counts the pages of `args.file` and prints the [`Answer`].
pub fn run(args: PageCountArgs) -> ExitCode {
    print_answer(count(&args), "page-count")
}

/// Prints a child's [`Answer`] (`pages` from `done`, or its coded error) as one JSON line;
/// `what` names the command in the message of the one failure left (an answer that cannot be
/// encoded).
pub fn print_answer(done: folio::Result<u32>, what: &str) -> ExitCode {
    let answer = match done {
        Ok(n) => Answer::Pages(n),
        Err(e) => Answer::Error {
            code: e.code(),
            message: e.to_string(),
        },
    };
    match serde_json::to_string(&answer) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("folio {what}: cannot encode the answer: {e}");
            ExitCode::FAILURE
        }
    }
}

fn count(args: &PageCountArgs) -> folio::Result<u32> {
    use nix::sys::resource::{Resource, setrlimit};
    let cpu = TIMEOUT.as_secs();
    setrlimit(Resource::RLIMIT_CPU, cpu, cpu + 1)
        .map_err(|e| folio::Error::Internal(format!("cannot set the CPU time limit: {e}")))?;
    let bytes = std::fs::read(&args.file).map_err(|source| folio::Error::Io {
        context: format!("cannot read {}", args.file.display()),
        source,
    })?;
    let lib = folio::pdf::PdfLib::get(args.pdfium_library.as_deref())?;
    if args.memory_mb > 0 {
        let limit = args.memory_mb.saturating_mul(1024 * 1024);
        setrlimit(Resource::RLIMIT_AS, limit, limit)
            .map_err(|e| folio::Error::Internal(format!("cannot set the memory limit: {e}")))?;
    }
    lib.page_count(&bytes)
}

/// How the server starts a page count.
#[derive(Debug, Clone)]
pub struct PageCounter {
    /// The `folio` binary.
    pub exe: PathBuf,
    /// The engine configuration's pdfium library.
    pub pdfium_library: Option<PathBuf>,
    /// Address-space limit of the child, MB (0: none).
    pub memory_mb: u64,
}

/// Why a child process gave no answer.
#[derive(Debug)]
pub enum ChildFailure {
    /// The child cannot be started (the server's trouble, not the file's).
    Spawn(std::io::Error),
    /// The file was refused, or the child crashed, took too long or answered nonsense: the
    /// message says which.
    Failed(String),
}

/// Runs a child command of this binary (`cmd`, its arguments set) that prints one JSON answer,
/// within `timeout`; `what` names the work in messages.
pub async fn run_child<T: serde::de::DeserializeOwned>(
    mut cmd: tokio::process::Command,
    timeout: Duration,
    what: &str,
) -> Result<T, ChildFailure> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true);
    let child = cmd.spawn().map_err(ChildFailure::Spawn)?;
    let out = match tokio::time::timeout(timeout, child.wait_with_output()).await {
        Ok(Ok(out)) => out,
        Ok(Err(e)) => {
            return Err(ChildFailure::Failed(format!(
                "the {what} process could not be followed: {e}"
            )));
        }
        // Dropping the child killed it.
        Err(_) => {
            return Err(ChildFailure::Failed(format!(
                "{what} took longer than {} s",
                timeout.as_secs()
            )));
        }
    };
    if !out.status.success() {
        return Err(ChildFailure::Failed(format!(
            "{what} failed ({})",
            crate::serve::pool::describe_exit(out.status)
        )));
    }
    serde_json::from_slice::<T>(&out.stdout)
        .map_err(|e| ChildFailure::Failed(format!("{what} answered nonsense: {e}")))
}

impl PageCounter {
    /// Counts the pages of the PDF at `path` in a child process.
    pub async fn count(&self, path: &Path) -> Result<u32, ChildFailure> {
        let mut cmd = tokio::process::Command::new(&self.exe);
        cmd.arg("page-count")
            .arg(path)
            .arg("--memory-mb")
            .arg(self.memory_mb.to_string());
        if let Some(lib) = &self.pdfium_library {
            cmd.arg("--pdfium-library").arg(lib);
        }
        match run_child::<Answer>(cmd, TIMEOUT, "counting").await {
            Ok(Answer::Pages(n)) => Ok(n),
            Ok(Answer::Error { message, .. }) => Err(ChildFailure::Failed(message)),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_one_json_object() {
        assert_eq!(
            serde_json::to_string(&Answer::Pages(3)).unwrap(),
            r#"{"pages":3}"#
        );
        let e = Answer::Error {
            code: ErrorCode::CorruptFile,
            message: "bad".into(),
        };
        let line = serde_json::to_string(&e).unwrap();
        assert_eq!(line, r#"{"error":{"code":"CORRUPT_FILE","message":"bad"}}"#);
        assert_eq!(serde_json::from_str::<Answer>(&line).unwrap(), e);
    }
}
