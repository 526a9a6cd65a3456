//! `folio render-pages` (hidden): renders the pages of a recognised document as the engine read
//! them ([`folio::render`]), for the web cabinet's review page, in a short-lived process of its
//! own, so that a file that crashes or hangs the renderer costs that process, never the server.
//!
//! The child writes `page-N.png` for every page of the Result and `pages.json` (each page's
//! image size and the boxes of its fields, in image pixels) into the output directory, then
//! prints one JSON line: `{"pages":N}` or `{"error":{"code":..,"message":..}}`, and exits 0
//! either way. Its address space and CPU time are limited like the page counter's
//! ([`crate::pagecount`]).

use crate::pagecount::{Answer, ChildFailure, print_answer, run_child};
use clap::Args as ClapArgs;
use folio::{DocumentResult, EngineConfig, ErrorCode};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// How long rendering one document may take.
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// Longest side of a rendered page, pixels: sharp on a laptop screen, small to send.
pub const MAX_SIDE: u32 = 1600;

/// The file the child writes the pages' sizes and boxes into.
pub const PAGES_FILE: &str = "pages.json";

/// The image of page `n`.
pub fn page_file(n: u32) -> String {
    format!("page-{n}.png")
}

/// `folio render-pages` options (set by the server).
#[derive(ClapArgs, Debug, Clone)]
pub struct RenderPagesArgs {
    /// The document as uploaded.
    pub file: PathBuf,
    /// Its Result JSON.
    #[arg(long)]
    pub result: PathBuf,
    /// Where the images and `pages.json` go (created).
    #[arg(long)]
    pub out: PathBuf,
    /// Longest side of a page image, pixels.
    #[arg(long, default_value_t = MAX_SIDE)]
    pub max_side: u32,
    /// Engine configuration JSON (pdfium library, limits), as the workers get it.
    #[arg(long)]
    pub engine_config: Option<PathBuf>,
    /// Address-space limit of this process, MB (0: none).
    #[arg(long, default_value_t = 0)]
    pub memory_mb: u64,
}

/// Renders the pages and prints the [`Answer`].
pub fn run(args: RenderPagesArgs) -> ExitCode {
    print_answer(render(&args), "render-pages")
}

fn io_error(context: String) -> impl FnOnce(std::io::Error) -> folio::Error {
    move |source| folio::Error::Io { context, source }
}

fn render(args: &RenderPagesArgs) -> folio::Result<u32> {
    use nix::sys::resource::{Resource, setrlimit};
    let cpu = TIMEOUT.as_secs();
    setrlimit(Resource::RLIMIT_CPU, cpu, cpu + 1)
        .map_err(|e| folio::Error::Internal(format!("cannot set the CPU time limit: {e}")))?;
    if args.memory_mb > 0 {
        let limit = args.memory_mb.saturating_mul(1024 * 1024);
        setrlimit(Resource::RLIMIT_AS, limit, limit)
            .map_err(|e| folio::Error::Internal(format!("cannot set the memory limit: {e}")))?;
    }
    let config = match &args.engine_config {
        Some(p) => EngineConfig::from_json(
            &std::fs::read_to_string(p)
                .map_err(io_error(format!("cannot read {}", p.display())))?,
        )?,
        None => EngineConfig::default(),
    };
    let bytes = std::fs::read(&args.file)
        .map_err(io_error(format!("cannot read {}", args.file.display())))?;
    let text = std::fs::read_to_string(&args.result)
        .map_err(io_error(format!("cannot read {}", args.result.display())))?;
    let result: DocumentResult = serde_json::from_str(&text)
        .map_err(|e| folio::Error::InvalidArgument(format!("not a Result JSON: {e}")))?;
    std::fs::create_dir_all(&args.out)
        .map_err(io_error(format!("cannot create {}", args.out.display())))?;
    let mut pages = Vec::new();
    for geometry in &result.pages {
        let rendered =
            folio::render::render_page(&config, &bytes, &result, geometry.page, args.max_side)?;
        let boxes = folio::render::field_boxes(&result, &rendered);
        let png = folio::render::encode_png(&rendered.image)?;
        let path = args.out.join(page_file(geometry.page));
        std::fs::write(&path, png).map_err(io_error(format!("cannot write {}", path.display())))?;
        pages.push(json!({
            "page": geometry.page,
            "width": rendered.image.width(),
            "height": rendered.image.height(),
            "boxes": boxes,
        }));
    }
    let path = args.out.join(PAGES_FILE);
    std::fs::write(&path, json!({ "pages": pages }).to_string())
        .map_err(io_error(format!("cannot write {}", path.display())))?;
    Ok(pages.len() as u32)
}

/// How the server starts a rendering.
#[derive(Debug, Clone)]
pub struct PageRenderer {
    /// The `folio` binary.
    pub exe: PathBuf,
    /// The engine configuration file the workers get.
    pub engine_config: Option<PathBuf>,
    /// Address-space limit of the child, MB (0: none).
    pub memory_mb: u64,
}

impl PageRenderer {
    /// Renders the pages of `file` (Result at `result`) into `out` in a child process; the
    /// engine's refusal (`Err(Ok((code, message)))`: a document without page images, say)
    /// apart from the child's failure.
    pub async fn render(
        &self,
        file: &Path,
        result: &Path,
        out: &Path,
    ) -> Result<Result<u32, (ErrorCode, String)>, ChildFailure> {
        let mut cmd = tokio::process::Command::new(&self.exe);
        cmd.arg("render-pages")
            .arg(file)
            .arg("--result")
            .arg(result)
            .arg("--out")
            .arg(out)
            .arg("--memory-mb")
            .arg(self.memory_mb.to_string());
        if let Some(c) = &self.engine_config {
            cmd.arg("--engine-config").arg(c);
        }
        match run_child::<Answer>(cmd, TIMEOUT, "rendering").await? {
            Answer::Pages(n) => Ok(Ok(n)),
            Answer::Error { code, message } => Ok(Err((code, message))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_files_are_named_by_number() {
        assert_eq!(page_file(2), "page-2.png");
        assert_eq!(page_file(10), "page-10.png");
    }
}
