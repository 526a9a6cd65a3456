//! The service's records in the database, written once against [`super::sql::Conn`] (SQLite
//! or PostgreSQL): [`records`] (companies, keys, webhooks), [`billing`] (operations and their
//! reservations and charges), [`queue`] (documents, leases, statuses), [`deliveries`] (webhook
//! events), [`idempotency`], [`cabinet`] (the web cabinet's users, sessions and company-scoped
//! views); [`views`] builds the JSON bodies of the API from them.
//!
//! Billing invariants, kept by doing every change in the same transaction as the status change
//! that causes it:
//! * `companies.reserved` = the sum of `documents.reserved_units` of the company's documents;
//! * a document's units are reserved once (at upload) and then either charged (final status with
//!   a result) or released (rejected, failed, cancelled), exactly once, guarded by the status
//!   change `WHERE status NOT IN (final)`;
//! * `balance` never goes negative (CHECK constraint; uploads check availability first).

use super::db::{DbError, DbResult};
use super::model::{self, doc_status};
use super::sql::{Conn, Dialect, OptionalExtension, SqlValue, params};
use serde_json::{Value, json};

mod billing;
mod cabinet;
mod deliveries;
mod idempotency;
mod queue;
mod records;
mod views;

pub use billing::*;
pub use cabinet::*;
pub use deliveries::*;
pub use idempotency::*;
pub use queue::*;
pub use records::*;
pub use views::*;

/// A row lock on PostgreSQL: a row read to decide a write is locked until the transaction
/// ends (transactions run at READ COMMITTED there). SQLite's write transactions already run
/// one at a time.
///
/// `FOR NO KEY UPDATE`, not `FOR UPDATE`: the rows locked (companies, keys, operations) are
/// referenced by foreign keys, and PostgreSQL checks a reference, with a `FOR KEY SHARE` lock on
/// the referenced row, when a transaction updates a referencing row twice (a document's status,
/// then its reservation). `FOR UPDATE` conflicts with that lock, and two nodes finishing two
/// documents of one operation deadlocked (measured: 24 deadlocks in 600 documents with two
/// worker nodes); `FOR NO KEY UPDATE` does not, and still makes writers take turns.
fn for_update(tx: &dyn super::sql::Conn) -> &'static str {
    match tx.dialect() {
        super::sql::Dialect::Sqlite => "",
        super::sql::Dialect::Postgres => " FOR NO KEY UPDATE",
    }
}
