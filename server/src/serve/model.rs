//! Statuses, identifiers and times of the service, and the pure rules over them (operation
//! status and progress derived from the documents, contract.md).

use rand::RngCore;
use serde_json::{Value, json};

/// Document statuses, in processing order, then the final ones.
pub mod doc_status {
    use folio::Stage;
    use std::sync::LazyLock;

    /// Waiting in the queue.
    pub const QUEUED: &str = "QUEUED";
    /// Processed without warnings.
    pub const PROCESSED: &str = "PROCESSED";
    /// Processed, result must be checked.
    pub const PROCESSED_WITH_WARNINGS: &str = "PROCESSED_WITH_WARNINGS";
    /// Bad input.
    pub const REJECTED: &str = "REJECTED";
    /// Could not be processed.
    pub const FAILED: &str = "FAILED";
    /// Cancelled by a cancel request.
    pub const CANCELLED: &str = "CANCELLED";
    /// The engine's stages (a document in one of these is being worked on), in pipeline
    /// order: the names of [`folio::Stage::ALL`].
    pub const STAGES: [&str; Stage::ALL.len()] = {
        let mut out = [""; Stage::ALL.len()];
        let mut i = 0;
        while i < out.len() {
            out[i] = Stage::ALL[i].as_str();
            i += 1;
        }
        out
    };
    /// Final statuses.
    pub const FINAL: [&str; 5] = [
        PROCESSED,
        PROCESSED_WITH_WARNINGS,
        REJECTED,
        FAILED,
        CANCELLED,
    ];
    /// SQL list of the final statuses, for `status IN (...)`:
    /// `('PROCESSED','PROCESSED_WITH_WARNINGS',...)`.
    pub static FINAL_SQL: LazyLock<String> = LazyLock::new(|| sql_list(&FINAL));
    /// SQL list of the stage statuses, for `status IN (...)`, built from [`STAGES`].
    pub static STAGES_SQL: LazyLock<String> = LazyLock::new(|| sql_list(&STAGES));

    /// `('A','B',...)` for `names` (status names are `A-Z` and `_`: nothing to escape).
    fn sql_list(names: &[&str]) -> String {
        let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
        format!("({})", quoted.join(","))
    }

    /// Whether a status is final.
    pub fn is_final(s: &str) -> bool {
        FINAL.contains(&s)
    }

    /// Whether a final status carries a result.
    pub fn has_result(s: &str) -> bool {
        s == PROCESSED || s == PROCESSED_WITH_WARNINGS
    }
}

/// Operation status from its documents' statuses (contract.md): QUEUED until a document is
/// worked on, PROCESSING, PARTIALLY_PROCESSED once one is final, then the final status by
/// precedence.
pub fn operation_status(docs: &[&str]) -> &'static str {
    use doc_status::*;
    if docs.is_empty() {
        return "QUEUED";
    }
    let finals = docs.iter().filter(|s| is_final(s)).count();
    if finals < docs.len() {
        return if finals > 0 {
            "PARTIALLY_PROCESSED"
        } else if docs.iter().any(|s| STAGES.contains(s)) {
            "PROCESSING"
        } else {
            "QUEUED"
        };
    }
    let any = |s: &str| docs.contains(&s);
    if any(CANCELLED) {
        "CANCELLED"
    } else if docs.iter().all(|s| *s == FAILED) {
        "FAILED"
    } else if any(FAILED) {
        "COMPLETED_WITH_ERRORS"
    } else if any(REJECTED) {
        "COMPLETED_WITH_REJECTIONS"
    } else if any(PROCESSED_WITH_WARNINGS) {
        "PROCESSED_WITH_WARNINGS"
    } else {
        "PROCESSED"
    }
}

/// Every operation status (the specification's table, in its order).
pub const OPERATION_STATUSES: [&str; 10] = [
    "ACCEPTED",
    "QUEUED",
    "PROCESSING",
    "PARTIALLY_PROCESSED",
    "PROCESSED",
    "PROCESSED_WITH_WARNINGS",
    "COMPLETED_WITH_REJECTIONS",
    "COMPLETED_WITH_ERRORS",
    "FAILED",
    "CANCELLED",
];

/// Whether an operation status is final.
pub fn operation_is_final(s: &str) -> bool {
    matches!(
        s,
        "PROCESSED"
            | "PROCESSED_WITH_WARNINGS"
            | "COMPLETED_WITH_REJECTIONS"
            | "COMPLETED_WITH_ERRORS"
            | "FAILED"
            | "CANCELLED"
    )
}

/// The `progress` object of an operation.
pub fn progress(docs: &[&str]) -> Value {
    use doc_status::*;
    let count = |s: &str| docs.iter().filter(|d| **d == s).count();
    json!({
        "total": docs.len(),
        "processed": count(PROCESSED),
        "processed_with_warnings": count(PROCESSED_WITH_WARNINGS),
        "rejected": count(REJECTED),
        "failed": count(FAILED),
        "cancelled": count(CANCELLED),
        "in_progress": docs.iter().filter(|d| !is_final(d)).count(),
    })
}

/// A new identifier: `prefix` + 24 random hex digits (96 bits).
pub fn new_id(prefix: &str) -> String {
    let mut b = [0u8; 12];
    rand::rng().fill_bytes(&mut b);
    format!("{prefix}{}", hex::encode(b))
}

/// Random bytes as hex (secrets).
pub fn random_hex(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut b);
    hex::encode(b)
}

/// Now as ISO 8601 with the UTC offset, millisecond precision (`2026-11-25T10:00:00.123+00:00`).
pub fn now_iso() -> String {
    iso(chrono::Utc::now())
}

/// A time as ISO 8601 with the UTC offset.
pub fn iso(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, false)
}

/// Now in Unix milliseconds.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Unix milliseconds as ISO 8601.
pub fn ms_iso(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms).map_or_else(String::new, iso)
}

/// The billing month of now (`2026-11`), in UTC.
pub fn current_month() -> String {
    chrono::Utc::now().format("%Y-%m").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_status_precedence() {
        assert_eq!(operation_status(&["QUEUED", "QUEUED"]), "QUEUED");
        assert_eq!(
            operation_status(&["QUEUED", "OCR_PROCESSING"]),
            "PROCESSING"
        );
        assert_eq!(
            operation_status(&["PROCESSED", "CLEANING"]),
            "PARTIALLY_PROCESSED"
        );
        assert_eq!(operation_status(&["PROCESSED", "PROCESSED"]), "PROCESSED");
        assert_eq!(
            operation_status(&["PROCESSED", "PROCESSED_WITH_WARNINGS"]),
            "PROCESSED_WITH_WARNINGS"
        );
        assert_eq!(
            operation_status(&["REJECTED", "PROCESSED_WITH_WARNINGS"]),
            "COMPLETED_WITH_REJECTIONS"
        );
        assert_eq!(
            operation_status(&["REJECTED", "FAILED", "PROCESSED"]),
            "COMPLETED_WITH_ERRORS"
        );
        assert_eq!(operation_status(&["FAILED", "FAILED"]), "FAILED");
        assert_eq!(operation_status(&["FAILED", "CANCELLED"]), "CANCELLED");
        assert!(operation_is_final("COMPLETED_WITH_ERRORS"));
        assert!(!operation_is_final("PARTIALLY_PROCESSED"));
    }

    #[test]
    fn stage_and_final_lists_come_from_their_one_table() {
        use doc_status::*;
        let names: Vec<&str> = folio::Stage::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(STAGES.to_vec(), names);
        assert_eq!(
            *STAGES_SQL,
            "('PREPROCESSING','TEXT_EXTRACTING','OCR_PROCESSING','CLEANING',\
             'CANDIDATES_EXTRACTING','AI_EXTRACTING','VALIDATING')"
        );
        let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
        assert_eq!(*STAGES_SQL, format!("({})", quoted.join(",")));
        assert_eq!(
            *FINAL_SQL,
            "('PROCESSED','PROCESSED_WITH_WARNINGS','REJECTED','FAILED','CANCELLED')"
        );
        for s in STAGES.iter().chain(&FINAL) {
            assert!(
                s.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'),
                "{s}"
            );
        }
        for s in STAGES {
            assert!(!is_final(s) && folio::Stage::from_name(s).is_some());
        }
    }

    #[test]
    fn progress_counts() {
        let p = progress(&["PROCESSED", "REJECTED", "QUEUED", "OCR_PROCESSING"]);
        assert_eq!(p["total"], 4);
        assert_eq!(p["processed"], 1);
        assert_eq!(p["rejected"], 1);
        assert_eq!(p["in_progress"], 2);
    }

    #[test]
    fn ids_and_times() {
        let a = new_id("op_");
        assert!(a.starts_with("op_") && a.len() == 27);
        assert_ne!(a, new_id("op_"));
        assert!(now_iso().ends_with("+00:00"));
        assert_eq!(ms_iso(0), "1970-01-01T00:00:00.000+00:00");
    }
}
