//! `folio recognize`.

use clap::Args as ClapArgs;
use folio::{CancelToken, Engine, EngineConfig, Error, RecognizeOptions};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status when some file failed.
const EXIT_FAILED: u8 = 1;
/// Exit status when the engine cannot start.
const EXIT_ENGINE: u8 = 3;

#[derive(ClapArgs, Debug)]
pub struct Args {
    /// Files to recognise.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Pages to process, 1-based, e.g. `1,3-5` (applies to every file).
    #[arg(long)]
    pages: Option<String>,
    /// Enhanced recognition: slower, more thorough OCR.
    #[arg(long)]
    heavy: bool,
    /// Languages, comma separated ISO 639-1 codes (default: en,de,fr,pl,uk,ru).
    #[arg(long, value_delimiter = ',')]
    lang: Option<Vec<String>>,
    /// Write `DIR/<stem>.json` per file (`<stem>.error.json` on failure) instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Engine configuration JSON file (see `EngineConfig`).
    #[arg(long)]
    config: Option<PathBuf>,
}

fn build_engine(args: &Args) -> Result<Engine, Error> {
    let mut config = match &args.config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Error::io(format!("cannot read {}", path.display()), e))?;
            EngineConfig::from_json(&text)?
        }
        None => EngineConfig::default(),
    };
    if let Some(langs) = &args.lang {
        config.languages = langs.iter().map(|l| l.trim().to_lowercase()).collect();
    }
    Engine::new(config)
}

/// Where `--out DIR` writes one input's outcome: `<base>.json` on success, `<base>.error.json` on
/// failure. The two names of an input are reserved together, whatever its outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
struct OutputNames {
    /// The result's file name.
    ok: String,
    /// The error's file name.
    error: String,
}

/// Suffix of every error file name (and of no result file name).
const ERROR_SUFFIX: &str = ".error.json";

/// The base of an input's output names: its file stem (`document` when it has none), with a final
/// `.error` turned into `-error` so that no result name ends in `.error.json`: result names and
/// error names live in disjoint spaces.
fn base_name(file: &Path) -> String {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "document".to_string());
    let cut = stem.len().saturating_sub(".error".len());
    match stem.get(cut..) {
        Some(tail) if tail.eq_ignore_ascii_case(".error") => {
            format!("{}-{}", &stem[..cut], &tail[1..])
        }
        _ => stem,
    }
}

/// Output names for `files`, in order, none equal to another or to a name in `taken` (names
/// compared without case, so that the outputs stay distinct on case-insensitive file systems
/// too). An input takes `<base>.json` and `<base>.error.json` when both are free, otherwise
/// `<base>-2...`, `<base>-3...`: the first `-N` whose two names are both free.
fn output_names(files: &[PathBuf], taken: impl IntoIterator<Item = String>) -> Vec<OutputNames> {
    let mut taken: HashSet<String> = taken.into_iter().map(|n| n.to_lowercase()).collect();
    files
        .iter()
        .map(|f| {
            let base = base_name(f);
            (1u64..)
                .map(|n| {
                    let b = if n == 1 {
                        base.clone()
                    } else {
                        format!("{base}-{n}")
                    };
                    OutputNames {
                        ok: format!("{b}.json"),
                        error: format!("{b}{ERROR_SUFFIX}"),
                    }
                })
                .find(|names| {
                    let (ok, error) = (names.ok.to_lowercase(), names.error.to_lowercase());
                    if taken.contains(&ok) || taken.contains(&error) {
                        return false;
                    }
                    taken.insert(ok);
                    taken.insert(error);
                    true
                })
                .expect("an unbounded sequence of candidates has a free one")
        })
        .collect()
}

/// File names of the inputs that lie in `dir` itself: an output never replaces an input.
fn inputs_in(dir: &Path, files: &[PathBuf]) -> Vec<String> {
    let Ok(dir) = dir.canonicalize() else {
        return Vec::new();
    };
    files
        .iter()
        .filter_map(|f| f.canonicalize().ok())
        .filter(|f| f.parent() == Some(dir.as_path()))
        .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect()
}

/// Writes `value` to `dir/name` atomically (a hidden temporary file in `dir`, renamed over the
/// name), then removes `dir/stale`, the input's other outcome left by an earlier run.
fn write_outcome(
    dir: &Path,
    name: &str,
    stale: &str,
    value: &impl serde::Serialize,
) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".folio-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    tmp.write_all(b"\n")?;
    tmp.persist(dir.join(name)).map_err(|e| e.error)?;
    match std::fs::remove_file(dir.join(stale)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

pub fn run(args: Args) -> ExitCode {
    let engine = match build_engine(&args) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("folio: cannot start the engine: {e}");
            return ExitCode::from(EXIT_ENGINE);
        }
    };
    let opts = RecognizeOptions {
        pages: args.pages.clone(),
        heavy: args.heavy,
        ..RecognizeOptions::default()
    };
    let cancel = CancelToken::new();
    let quiet = |_p: folio::Progress| {};
    let recognize = |f: &PathBuf| engine.recognize_path(f, &opts, &quiet, &cancel);

    match &args.out {
        None if args.files.len() == 1 => match recognize(&args.files[0]) {
            Ok(r) => {
                println!("{}", r.to_json_pretty());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{}", e.to_json());
                ExitCode::from(EXIT_FAILED)
            }
        },
        None => {
            // JSON Lines in input order, files still processed in parallel.
            let results: Vec<_> = args.files.par_iter().map(recognize).collect();
            let mut failed = false;
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            for (f, r) in args.files.iter().zip(results) {
                let line = match r {
                    Ok(r) => serde_json::json!({ "file": f.display().to_string(), "result": r }),
                    Err(e) => {
                        failed = true;
                        serde_json::json!({ "file": f.display().to_string(), "error": e.to_json() })
                    }
                };
                if writeln!(out, "{line}").is_err() {
                    return ExitCode::from(EXIT_FAILED);
                }
            }
            if failed {
                ExitCode::from(EXIT_FAILED)
            } else {
                ExitCode::SUCCESS
            }
        }
        Some(dir) => {
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!("folio: cannot create {}: {e}", dir.display());
                return ExitCode::from(EXIT_FAILED);
            }
            let names = output_names(&args.files, inputs_in(dir, &args.files));
            let bar = if std::io::stderr().is_terminal() {
                let b = ProgressBar::new(args.files.len() as u64);
                b.set_style(
                    ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                b
            } else {
                ProgressBar::hidden()
            };
            for (f, n) in args.files.iter().zip(&names) {
                let plain = f
                    .file_stem()
                    .map(|s| format!("{}.json", s.to_string_lossy()));
                if plain.as_deref() != Some(n.ok.as_str()) {
                    bar.suspend(|| {
                        eprintln!(
                            "folio: {} is written as {} ({} if it fails)",
                            f.display(),
                            n.ok,
                            n.error
                        )
                    });
                }
            }
            let failures: usize = args
                .files
                .par_iter()
                .zip(names.par_iter())
                .map(|(f, names)| {
                    let outcome = recognize(f);
                    let written = match &outcome {
                        Ok(r) => write_outcome(dir, &names.ok, &names.error, r),
                        Err(e) => {
                            let mut body = e.to_json();
                            body["file"] = f.display().to_string().into();
                            write_outcome(dir, &names.error, &names.ok, &body)
                        }
                    };
                    bar.inc(1);
                    match (outcome, written) {
                        (Ok(_), Ok(())) => 0,
                        (Err(e), Ok(())) => {
                            bar.suspend(|| eprintln!("folio: {}: {e}", f.display()));
                            1
                        }
                        (_, Err(e)) => {
                            bar.suspend(|| {
                                eprintln!("folio: cannot write the result of {}: {e}", f.display())
                            });
                            1
                        }
                    }
                })
                .sum();
            bar.finish_and_clear();
            if failures == 0 {
                ExitCode::SUCCESS
            } else {
                eprintln!("folio: {failures} of {} files failed", args.files.len());
                ExitCode::from(EXIT_FAILED)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(files: &[&str], taken: &[&str]) -> Vec<(String, String)> {
        let files: Vec<PathBuf> = files.iter().map(PathBuf::from).collect();
        output_names(&files, taken.iter().map(|t| t.to_string()))
            .into_iter()
            .map(|n| (n.ok, n.error))
            .collect()
    }

    fn oks(files: &[&str], taken: &[&str]) -> Vec<String> {
        names(files, taken).into_iter().map(|n| n.0).collect()
    }

    #[test]
    fn colliding_stems_get_numbers_that_collide_with_nothing() {
        assert_eq!(
            oks(
                &["d1/x.pdf", "d2/x.pdf", "x-2.pdf", "y.pdf", ".hidden"],
                &[]
            ),
            ["x.json", "x-2.json", "x-2-2.json", "y.json", ".hidden.json"]
        );
        assert_eq!(
            oks(&["x-2.pdf", "d1/x.pdf", "d2/x.pdf"], &[]),
            ["x-2.json", "x.json", "x-3.json"]
        );
    }

    #[test]
    fn result_and_error_names_are_disjoint() {
        let all = names(&["a.pdf", "a.error.pdf", "b.ERROR.png", "a-error.tif"], &[]);
        assert_eq!(
            all,
            [
                ("a.json".into(), "a.error.json".into()),
                ("a-error.json".into(), "a-error.error.json".into()),
                ("b-ERROR.json".into(), "b-ERROR.error.json".into()),
                ("a-error-2.json".into(), "a-error-2.error.json".into()),
            ]
        );
        for (ok, _) in &all {
            assert!(!ok.to_lowercase().ends_with(ERROR_SUFFIX), "{ok}");
        }
    }

    #[test]
    fn no_two_names_are_equal_whatever_the_inputs() {
        let files = [
            "a.pdf",
            "a.error.pdf",
            "a.error.error.pdf",
            "A.pdf",
            "a-2.pdf",
            "d/a.pdf",
            "a.json",
            "a-error.pdf",
            "a-2-2.pdf",
            "",
            "document.pdf",
            "x/.pdf",
            "a.error",
            "a.Error.pdf",
        ];
        let all = names(&files, &["a.json", "inputs.json"]);
        let mut seen = HashSet::new();
        for (ok, error) in &all {
            assert!(seen.insert(ok.to_lowercase()), "{ok} twice in {all:?}");
            assert!(
                seen.insert(error.to_lowercase()),
                "{error} twice in {all:?}"
            );
        }
        assert!(!seen.contains("inputs.json"));
        assert_eq!(all[0].0, "a-2.json", "a.json is taken (an input)");
    }

    #[test]
    fn inputs_inside_the_output_directory_are_reserved() {
        let dir = tempfile::tempdir().unwrap();
        let inside = dir.path().join("words.json");
        std::fs::write(&inside, "{}").unwrap();
        let outside = tempfile::tempdir().unwrap();
        let other = outside.path().join("other.json");
        std::fs::write(&other, "{}").unwrap();
        let taken = inputs_in(
            dir.path(),
            &[inside.clone(), other, dir.path().join("gone.pdf")],
        );
        assert_eq!(taken, ["words.json"]);
        let n = output_names(&[inside], taken);
        assert_eq!(n[0].ok, "words-2.json");
    }

    #[test]
    fn writing_an_outcome_replaces_the_other_one() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.error.json"), "old").unwrap();
        write_outcome(
            dir.path(),
            "a.json",
            "a.error.json",
            &serde_json::json!({"k": 1}),
        )
        .unwrap();
        let text = std::fs::read_to_string(dir.path().join("a.json")).unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap()["k"],
            1
        );
        assert!(!dir.path().join("a.error.json").exists());
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left");
    }
}
