//! `folio migrate`: moves an embedded installation (the SQLite database and the files of a data
//! directory) into a shared PostgreSQL database and file store, for running on more than one
//! machine. Run it with the server stopped; the data directory is left as it was.
//!
//! What the server would do at a restart is done first (documents that were in progress go
//! back to the queue, deliveries being sent are sent again, half-accepted uploads are
//! forgotten), then every table is copied row by row, keeping every id, and every stored file
//! is copied into the new store. Rows and files already there are left alone, so a migration
//! that was interrupted is completed by running it again. At the end the rows and files of
//! both sides are counted; the command fails (exit 1) unless every one arrived.

use crate::serve::db::{Db, DbResult};
use crate::serve::files::FileStore;
use crate::serve::sql::{Conn, Row, SqlValue, params};
use crate::serve::store;
use clap::Args as ClapArgs;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::ExitCode;

/// `folio migrate` options.
#[derive(ClapArgs, Debug)]
pub struct MigrateArgs {
    /// The embedded installation's data directory.
    #[arg(long, env = "FOLIO_DATA_DIR", default_value = "./folio-data")]
    data_dir: PathBuf,
    /// The PostgreSQL database to move into (`postgres://...`).
    #[arg(long, env = "FOLIO_DATABASE_URL")]
    database: String,
    /// The file store to move the files into (`s3://bucket/prefix` or a directory).
    #[arg(long, env = "FOLIO_FILES_URL")]
    files: String,
}

/// The tables, parents before children (foreign keys hold at every step).
const TABLES: [&str; 13] = [
    "companies",
    "api_keys",
    "key_usage",
    "webhooks",
    "operations",
    "documents",
    "idempotency",
    "deliveries",
    "delivery_attempts",
    "rate_buckets",
    "users",
    "sessions",
    "sign_in_failures",
];

/// The columns of a table of the embedded database.
fn columns(conn: &dyn Conn, table: &str) -> DbResult<Vec<String>> {
    conn.query_map(
        "SELECT name FROM pragma_table_info(?1) ORDER BY cid",
        params![table],
        |r| r.get(0),
    )
}

fn count(conn: &dyn Conn, table: &str) -> DbResult<i64> {
    conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), params![], |r| {
        r.get(0)
    })
}

/// Copies every row of `table` that the target lacks; returns (rows in the source, rows in the
/// target afterwards). Read a thousand rows at a time in rowid order (a large installation's
/// results never sit in memory at once), each thousand written in one transaction.
fn copy_table(from: &Db, to: &Db, table: &str) -> DbResult<(i64, i64)> {
    let cols = from.with(|c| columns(c, table))?;
    let select = format!(
        "SELECT rowid, {} FROM {table} WHERE rowid > ?1 ORDER BY rowid LIMIT 1000",
        cols.join(", ")
    );
    let placeholders: Vec<String> = (1..=cols.len()).map(|i| format!("?{i}")).collect();
    let insert = format!(
        "INSERT INTO {table} ({}) VALUES ({}) ON CONFLICT DO NOTHING",
        cols.join(", "),
        placeholders.join(", ")
    );
    let (mut after, mut copied) = (0i64, 0i64);
    loop {
        let rows: Vec<Row> = from.with(|c| c.query(&select, params![after]))?;
        let Some(last) = rows.last() else { break };
        after = last.get(0)?;
        to.tx(|tx| {
            for row in &rows {
                let values: Vec<SqlValue> = (1..=cols.len())
                    .map(|i| row.get::<SqlValue>(i))
                    .collect::<DbResult<_>>()?;
                let refs: Vec<&dyn crate::serve::sql::ToSqlValue> =
                    values.iter().map(|v| v as _).collect();
                tx.execute(&insert, &refs)?;
            }
            Ok(())
        })?;
        copied += rows.len() as i64;
    }
    Ok((copied, to.with(|c| count(c, table))?))
}

fn run_migration(args: &MigrateArgs) -> Result<Value, String> {
    if !args.data_dir.join(crate::serve::db::DB_FILE).exists() {
        return Err(format!(
            "no embedded database in {} (nothing to migrate)",
            args.data_dir.display()
        ));
    }
    let from = Db::open(&args.data_dir, 1).map_err(|e| e.to_string())?;
    let to = Db::open_postgres(&args.database, 2).map_err(|e| e.to_string())?;
    let source_files = FileStore::open(None, &args.data_dir)?;
    let target_files = FileStore::open(Some(&args.files), &args.data_dir)?;
    let FileStore::Local(source_dir) = &source_files else {
        return Err("the embedded installation's files are a directory".into());
    };
    // What a restart of the embedded server would do, so that nothing stays "in progress"
    // without a node holding it.
    let requeued = from.tx(store::recover).map_err(|e| e.to_string())?;
    let mut tables = serde_json::Map::new();
    let mut complete = true;
    for table in TABLES {
        let (source, target) =
            copy_table(&from, &to, table).map_err(|e| format!("{table}: {e}"))?;
        complete &= target >= source;
        tables.insert(table.into(), json!({"source": source, "target": target}));
    }
    // The files of the documents that have one.
    let stored: Vec<String> = from
        .with(|c| {
            c.query_map(
                "SELECT id FROM documents WHERE stored = 1 ORDER BY id",
                params![],
                |r| r.get(0),
            )
        })
        .map_err(|e| e.to_string())?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let (copied, missing) = rt.block_on(async {
        target_files.prepare().await?;
        let (mut copied, mut missing) = (0usize, Vec::new());
        for id in &stored {
            let src = source_dir.join(id);
            if !src.exists() {
                missing.push(id.clone());
                continue;
            }
            target_files
                .copy_in(id, &src)
                .await
                .map_err(|e| format!("copying the file of {id}: {e}"))?;
            copied += 1;
        }
        Ok::<_, String>((copied, missing))
    })?;
    // Every file is found in the new store (asked of the store, not of what was sent).
    let readable = rt.block_on(async {
        let mut n = 0usize;
        for id in &stored {
            if let Ok(true) = target_files.exists(id).await {
                n += 1;
            }
        }
        n
    });
    complete &= readable == copied;
    Ok(json!({
        "complete": complete,
        "requeued_documents": requeued,
        "tables": tables,
        "files": {
            "stored_documents": stored.len(),
            "copied": copied,
            "readable_in_target": readable,
            "missing_in_source": missing,
        },
    }))
}

/// Runs `folio migrate`.
pub fn run(args: MigrateArgs) -> ExitCode {
    match run_migration(&args) {
        Ok(report) => {
            println!("{report}");
            if report["complete"] == true {
                ExitCode::SUCCESS
            } else {
                eprintln!("folio migrate: not every row or file arrived; run it again");
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            let e = match e.strip_prefix("database: ") {
                Some(rest) => rest.to_string(),
                None => e,
            };
            println!("{}", json!({"error": e}));
            eprintln!("folio migrate: {e}");
            ExitCode::from(3)
        }
    }
}
