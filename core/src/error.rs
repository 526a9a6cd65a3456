//! The one error type of the engine and its stable codes.
//!
//! Every binding (C, Python, HTTP) maps from [`ErrorCode`]; the string codes are the reason codes of
//! the contract (`UNSUPPORTED_FILE_TYPE`, `FILE_TOO_LARGE`, ...) and never change.

use serde::{Deserialize, Serialize};

/// Result alias used across the engine.
pub type Result<T> = std::result::Result<T, Error>;

/// Stable error codes. The numeric values are part of the C ABI: never reorder or reuse them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[repr(u32)]
pub enum ErrorCode {
    /// The file's content is not one of the supported types.
    UnsupportedFileType = 1,
    /// The file is larger than the configured limit.
    FileTooLarge = 2,
    /// The document has more pages than the configured limit.
    TooManyPages = 3,
    /// The file is damaged or not what its header claims.
    CorruptFile = 4,
    /// The file is password protected.
    EncryptedFile = 5,
    /// The file has no bytes.
    EmptyFile = 6,
    /// An argument (page selection, configuration, option) is invalid.
    InvalidArgument = 7,
    /// Reading or writing a file failed.
    Io = 8,
    /// A native runtime library (pdfium, tesseract data) is missing or failed to load.
    RuntimeMissing = 9,
    /// OCR failed for a reason other than the input.
    OcrFailed = 10,
    /// A model failed to load or run.
    ModelError = 11,
    /// The recognition was cancelled by the caller.
    Cancelled = 12,
    /// An internal error: a bug, never the caller's fault.
    Internal = 13,
    /// A webhook signature did not verify (wrong secret, altered body, stale or missing
    /// timestamp).
    SignatureInvalid = 14,
    /// Processing the document exceeded a resource limit of the process that ran it (memory,
    /// time): a worker that crashed or ran out of its budget on this document, repeatedly.
    ResourceLimit = 15,
}

impl ErrorCode {
    /// The stable string form (`"CORRUPT_FILE"`), as used in JSON error bodies.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnsupportedFileType => "UNSUPPORTED_FILE_TYPE",
            ErrorCode::FileTooLarge => "FILE_TOO_LARGE",
            ErrorCode::TooManyPages => "TOO_MANY_PAGES",
            ErrorCode::CorruptFile => "CORRUPT_FILE",
            ErrorCode::EncryptedFile => "ENCRYPTED_FILE",
            ErrorCode::EmptyFile => "EMPTY_FILE",
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::Io => "IO_ERROR",
            ErrorCode::RuntimeMissing => "RUNTIME_MISSING",
            ErrorCode::OcrFailed => "OCR_FAILED",
            ErrorCode::ModelError => "MODEL_ERROR",
            ErrorCode::Cancelled => "CANCELLED",
            ErrorCode::Internal => "INTERNAL_ERROR",
            ErrorCode::SignatureInvalid => "SIGNATURE_INVALID",
            ErrorCode::ResourceLimit => "RESOURCE_LIMIT",
        }
    }

    /// True for codes that mean "bad input": a server marks such documents REJECTED, not FAILED.
    pub fn is_rejection(self) -> bool {
        matches!(
            self,
            ErrorCode::UnsupportedFileType
                | ErrorCode::FileTooLarge
                | ErrorCode::TooManyPages
                | ErrorCode::CorruptFile
                | ErrorCode::EncryptedFile
                | ErrorCode::EmptyFile
        )
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The engine's error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Unsupported content type.
    #[error("unsupported file type: {0}")]
    UnsupportedFileType(String),
    /// File over the size limit.
    #[error("file is {size} bytes, over the limit of {limit} bytes")]
    FileTooLarge {
        /// Actual size in bytes.
        size: u64,
        /// Limit in bytes.
        limit: u64,
    },
    /// A per-document budget (`limits.*`) was exceeded while decoding: the document describes
    /// more content (text, pixels, unpacked bytes, rows) than the limit allows. Code
    /// `FILE_TOO_LARGE`.
    #[error("{limit} ({max}) exceeded while {during}")]
    LimitExceeded {
        /// The setting, e.g. `limits.max_text_chars`.
        limit: &'static str,
        /// Its value.
        max: u64,
        /// What was being read, e.g. `reading DOC text`.
        during: String,
    },
    /// Too many pages.
    #[error("document has {pages} pages to process, over the limit of {limit}")]
    TooManyPages {
        /// Pages that would be processed.
        pages: u32,
        /// The limit.
        limit: u32,
    },
    /// Damaged file.
    #[error("corrupt file: {0}")]
    CorruptFile(String),
    /// Password protected.
    #[error("file is encrypted: {0}")]
    EncryptedFile(String),
    /// Zero bytes.
    #[error("file is empty")]
    EmptyFile,
    /// Bad argument or configuration.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// OS-level I/O error (kept unchanged so bindings can map NotFound / PermissionDenied).
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// Native runtime missing.
    #[error("runtime missing: {0}")]
    RuntimeMissing(String),
    /// OCR failure.
    #[error("OCR failed: {0}")]
    OcrFailed(String),
    /// Model failure.
    #[error("model error: {0}")]
    Model(String),
    /// Cancelled by the caller.
    #[error("recognition cancelled")]
    Cancelled,
    /// Internal bug.
    #[error("internal error: {0}")]
    Internal(String),
    /// A webhook signature did not verify.
    #[error("webhook signature invalid: {0}")]
    SignatureInvalid(String),
    /// A resource limit of the process was exceeded (memory, time).
    #[error("resource limit exceeded: {0}")]
    ResourceLimit(String),
}

impl Error {
    /// The stable code of this error.
    pub fn code(&self) -> ErrorCode {
        match self {
            Error::UnsupportedFileType(_) => ErrorCode::UnsupportedFileType,
            Error::FileTooLarge { .. } | Error::LimitExceeded { .. } => ErrorCode::FileTooLarge,
            Error::TooManyPages { .. } => ErrorCode::TooManyPages,
            Error::CorruptFile(_) => ErrorCode::CorruptFile,
            Error::EncryptedFile(_) => ErrorCode::EncryptedFile,
            Error::EmptyFile => ErrorCode::EmptyFile,
            Error::InvalidArgument(_) => ErrorCode::InvalidArgument,
            Error::Io { .. } => ErrorCode::Io,
            Error::RuntimeMissing(_) => ErrorCode::RuntimeMissing,
            Error::OcrFailed(_) => ErrorCode::OcrFailed,
            Error::Model(_) => ErrorCode::ModelError,
            Error::Cancelled => ErrorCode::Cancelled,
            Error::Internal(_) => ErrorCode::Internal,
            Error::SignatureInvalid(_) => ErrorCode::SignatureInvalid,
            Error::ResourceLimit(_) => ErrorCode::ResourceLimit,
        }
    }

    /// Wraps an I/O error with what was being done.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        Error::Io {
            context: context.into(),
            source,
        }
    }

    /// `{ "code": ..., "message": ... }` as in the contract's error bodies.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "code": self.code().as_str(), "message": self.to_string() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_stable_strings_and_numbers() {
        assert_eq!(Error::EmptyFile.code().as_str(), "EMPTY_FILE");
        assert_eq!(ErrorCode::Internal as u32, 13);
        assert_eq!(
            serde_json::to_string(&ErrorCode::TooManyPages).unwrap(),
            "\"TOO_MANY_PAGES\""
        );
        assert!(ErrorCode::CorruptFile.is_rejection());
        assert!(!ErrorCode::Internal.is_rejection());
    }

    #[test]
    fn error_json_has_code_and_message() {
        let e = Error::TooManyPages { pages: 9, limit: 5 };
        let j = e.to_json();
        assert_eq!(j["code"], "TOO_MANY_PAGES");
        assert!(j["message"].as_str().unwrap().contains("9"));
    }
}
