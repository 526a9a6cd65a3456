//! The `folio` binary.
//!
//! * `folio recognize FILE... [--pages 1,3-5] [--heavy] [--lang LIST] [--out DIR] [--config FILE]`
//! * `folio serve [--data-dir DIR] [--listen ADDR] [--workers N] ...`: the HTTP server.
//! * `folio admin company|key|webhook ...`: companies, API keys and webhooks of the server.
//! * `folio migrate --data-dir DIR --database URL --files URL`: an embedded installation into
//!   PostgreSQL and a shared file store (see [`migrate`]).
//! * `folio worker ...` (hidden): a recognition worker process of `folio serve` (see [`worker`]).
//! * `folio page-count FILE` (hidden): a PDF's page count for `folio serve` (see [`pagecount`]).
//!
//! Exit status: 0 every file succeeded, 1 some file failed, 2 usage error, 3 the engine could not
//! start (missing runtime, bad configuration).

mod admin;
mod migrate;
mod pagecount;
mod pagerender;
mod recognize;
mod serve;
mod worker;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "folio",
    version,
    about = "Recognise business documents into structured JSON"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Recognise documents (PDF, JPG, PNG, TIFF, DOC, DOCX, XLS, XLSX, RTF, XML e-invoices).
    Recognize(recognize::Args),
    /// Run the HTTP server.
    Serve(serve::ServeArgs),
    /// Manage companies, API keys and webhooks (JSON on stdout).
    Admin(admin::AdminArgs),
    /// Move an embedded installation (SQLite + files) into PostgreSQL and a shared file store.
    Migrate(migrate::MigrateArgs),
    /// A recognition worker of `folio serve` (started by it, talks over stdin/stdout).
    #[command(hide = true)]
    Worker(worker::WorkerArgs),
    /// Counts a PDF's pages for `folio serve` (started by it, answers one JSON line).
    #[command(hide = true)]
    PageCount(pagecount::PageCountArgs),
    /// Renders a recognised document's pages for the web cabinet (started by `folio serve`).
    #[command(hide = true)]
    RenderPages(pagerender::RenderPagesArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // libtesseract's OpenMP must see OMP_THREAD_LIMIT=1 from process start (see the function):
    // the commands that recognise replace themselves in place (same process, no child). The
    // server does not recognise: its workers are started with the variable set.
    if matches!(cli.command, Command::Recognize(_) | Command::Worker(_))
        && let Some(code) = folio::runtime::reexec_with_omp_limit()
    {
        return code;
    }
    match cli.command {
        Command::Recognize(args) => recognize::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Admin(args) => admin::run(args),
        Command::Migrate(args) => migrate::run(args),
        Command::Worker(args) => worker::run(args),
        Command::PageCount(args) => pagecount::run(args),
        Command::RenderPages(args) => pagerender::run(args),
    }
}
