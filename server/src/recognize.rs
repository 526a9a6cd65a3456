//! `folio recognize`.

use clap::Args as ClapArgs;
use folio::{CancelToken, Engine, EngineConfig, Error, RecognizeOptions};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashMap;
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

/// Output names `<stem>.json`, made unique with `-2`, `-3` when stems collide.
fn output_stems(files: &[PathBuf]) -> Vec<String> {
    let mut seen: HashMap<String, u32> = HashMap::new();
    files
        .iter()
        .map(|f| {
            let stem = f
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "document".to_string());
            let n = seen.entry(stem.clone()).or_insert(0);
            *n += 1;
            if *n == 1 { stem } else { format!("{stem}-{n}") }
        })
        .collect()
}

fn write_json(path: &Path, value: &impl serde::Serialize) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::other)?;
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text + "\n")?;
    std::fs::rename(&tmp, path)
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
            let stems = output_stems(&args.files);
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
            let failures: usize = args
                .files
                .par_iter()
                .zip(stems.par_iter())
                .map(|(f, stem)| {
                    let outcome = recognize(f);
                    let written = match &outcome {
                        Ok(r) => write_json(&dir.join(format!("{stem}.json")), r),
                        Err(e) => write_json(&dir.join(format!("{stem}.error.json")), &e.to_json()),
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

    #[test]
    fn stems_are_unique() {
        let files: Vec<PathBuf> = ["a/x.pdf", "b/x.png", "y.pdf", "c/x.tif", ".hidden"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(output_stems(&files), ["x", "x-2", "y", "x-3", ".hidden"]);
    }
}
