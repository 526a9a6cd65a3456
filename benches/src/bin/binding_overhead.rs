//! The Rust side of the binding-overhead comparison (`benches/bindings.sh`): the engine on its
//! default configuration, each file recognised `--rounds` times after one warm-up round; prints
//! one JSON line `{"file": median seconds, ...}`.

use clap::Parser;
use folio::{CancelToken, Engine, EngineConfig, RecognizeOptions};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Debug, Parser)]
struct Args {
    /// Timed rounds over all files.
    #[arg(long, default_value_t = 20)]
    rounds: usize,
    /// Documents.
    files: Vec<PathBuf>,
}

fn main() -> ExitCode {
    if let Some(code) = folio::runtime::reexec_with_omp_limit() {
        return code;
    }
    let args = Args::parse();
    let engine = match Engine::new(EngineConfig::default()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("binding_overhead: {e}");
            return ExitCode::from(3);
        }
    };
    let opts = RecognizeOptions::default();
    let cancel = CancelToken::new();
    let mut times: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for round in 0..=args.rounds {
        for f in &args.files {
            let t = Instant::now();
            let r = engine.recognize_path(f, &opts, &|_| {}, &cancel);
            // The bindings hand the caller the JSON text: so does this side (timed with it).
            let json = r.map(|r| r.to_json()).unwrap_or_default();
            std::hint::black_box(json);
            let s = t.elapsed().as_secs_f64();
            if round > 0 {
                times.entry(f.display().to_string()).or_default().push(s);
            }
        }
    }
    let medians: BTreeMap<String, f64> = times
        .into_iter()
        .map(|(k, mut v)| {
            v.sort_by(f64::total_cmp);
            (k, v[v.len() / 2])
        })
        .collect();
    println!("{}", serde_json::to_string(&medians).unwrap_or_default());
    ExitCode::SUCCESS
}
