//! The one error type of the engine and its stable codes.
//!
//! Every binding (C, Python, HTTP) maps from [`ErrorCode`]; the string codes are the reason codes of
//! the contract (`UNSUPPORTED_FILE_TYPE`, `FILE_TOO_LARGE`, ...) and never change.

use serde::{Deserialize, Serialize};

/// Result alias used across the engine.
pub type Result<T> = std::result::Result<T, Error>;

/// Stable error codes. The numeric values are part of the C ABI: never reorder or reuse them. A
/// new code takes the next number and goes into [`ErrorCode::ALL`] and [`ErrorCode::as_str`]
/// (serialised as that string: serde uses it too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// Every code, in numeric order: the one list bindings build their tables from (C status
    /// names, Python exception classes, documentation).
    pub const ALL: [ErrorCode; 15] = [
        ErrorCode::UnsupportedFileType,
        ErrorCode::FileTooLarge,
        ErrorCode::TooManyPages,
        ErrorCode::CorruptFile,
        ErrorCode::EncryptedFile,
        ErrorCode::EmptyFile,
        ErrorCode::InvalidArgument,
        ErrorCode::Io,
        ErrorCode::RuntimeMissing,
        ErrorCode::OcrFailed,
        ErrorCode::ModelError,
        ErrorCode::Cancelled,
        ErrorCode::Internal,
        ErrorCode::SignatureInvalid,
        ErrorCode::ResourceLimit,
    ];

    /// The code of a stable number (`4` is `CORRUPT_FILE`), `None` for a number that is no code.
    pub fn from_u32(n: u32) -> Option<ErrorCode> {
        Self::ALL.into_iter().find(|c| *c as u32 == n)
    }

    /// The stable number (`CORRUPT_FILE` is `4`), as in the C API's status values.
    pub fn as_u32(self) -> u32 {
        self as u32
    }

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

impl std::str::FromStr for ErrorCode {
    type Err = Error;

    /// The code of a stable string form (`"CORRUPT_FILE"`); anything else is `INVALID_ARGUMENT`.
    fn from_str(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| Error::InvalidArgument(format!("{s:?} is not an error code")))
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
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
    fn every_code_round_trips_between_name_and_number() {
        let mut names = std::collections::HashSet::new();
        for (i, code) in ErrorCode::ALL.into_iter().enumerate() {
            // Numbered 1, 2, ... in order, with no gap: a new code takes the next number.
            assert_eq!(code.as_u32(), i as u32 + 1, "{code:?}");
            assert_eq!(ErrorCode::from_u32(code.as_u32()), Some(code));
            assert_eq!(code.as_str().parse::<ErrorCode>().unwrap(), code);
            assert!(names.insert(code.as_str()), "{} twice", code.as_str());
            // The serde name (JSON bodies) is the same string.
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                serde_json::Value::from(code.as_str())
            );
            let back: ErrorCode = serde_json::from_value(code.as_str().into()).unwrap();
            assert_eq!(back, code);
        }
        for n in [0, 16, 100, u32::MAX] {
            assert_eq!(ErrorCode::from_u32(n), None);
        }
        let e = "corrupt_file".parse::<ErrorCode>().unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidArgument);
    }

    #[test]
    fn error_json_has_code_and_message() {
        let e = Error::TooManyPages { pages: 9, limit: 5 };
        let j = e.to_json();
        assert_eq!(j["code"], "TOO_MANY_PAGES");
        assert!(j["message"].as_str().unwrap().contains("9"));
    }
}
