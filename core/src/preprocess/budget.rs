//! Per-document budgets: every decoder charges what it produces (decompressed bytes, characters
//! of text, words, pixels, sheet rows and cells) against the [`Limits`] of the call, and stops
//! with [`Error::LimitExceeded`] (code `FILE_TOO_LARGE`, the message naming the limit) the moment
//! one is exceeded. Nothing is produced first and measured afterwards, so a small file that
//! describes a huge document (a piece table repeating one text, a flate bomb, a 1 x 10^8 image)
//! costs only up to its budget.

use crate::config::Limits;
use crate::error::{Error, Result};
use std::io::Read;

/// What a decoder produces, each with its own limit. The discriminant is the index of its
/// counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Resource {
    /// Bytes unpacked from a container (ZIP entries, PDF streams other than images).
    UnpackedBytes = 0,
    /// Characters of text (paragraph, cell and line marks count as one each).
    TextChars = 1,
    /// Words (pre-recognised words, text-layer words).
    Words = 2,
    /// Spreadsheet rows.
    SheetRows = 3,
    /// Non-empty spreadsheet cells.
    SheetCells = 4,
}

impl Resource {
    /// Every resource, in the order of their counters.
    const ALL: [Resource; 5] = [
        Resource::UnpackedBytes,
        Resource::TextChars,
        Resource::Words,
        Resource::SheetRows,
        Resource::SheetCells,
    ];

    /// The setting that limits it, as written in a configuration.
    fn setting(self) -> &'static str {
        match self {
            Resource::UnpackedBytes => "limits.max_unpacked_mb",
            Resource::TextChars => "limits.max_text_chars",
            Resource::Words => "limits.max_words",
            Resource::SheetRows => "limits.max_sheet_rows",
            Resource::SheetCells => "limits.max_sheet_cells",
        }
    }

    /// (the limit as configured, the limit in counted units).
    fn limit(self, l: &Limits) -> (u64, u64) {
        match self {
            Resource::UnpackedBytes => (l.max_unpacked_mb, l.max_unpacked_bytes()),
            Resource::TextChars => (l.max_text_chars, l.max_text_chars),
            Resource::Words => (l.max_words, l.max_words),
            Resource::SheetRows => (l.max_sheet_rows, l.max_sheet_rows),
            Resource::SheetCells => (l.max_sheet_cells, l.max_sheet_cells),
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Refuses an image of `w` x `h` pixels over `limits.max_image_pixels` (checked from the header,
/// before anything is decoded; a limit per image, not a running count).
pub(crate) fn check_pixels(limits: &Limits, w: u64, h: u64, during: &str) -> Result<()> {
    if w.saturating_mul(h) > limits.max_image_pixels {
        return Err(Error::LimitExceeded {
            limit: "limits.max_image_pixels",
            max: limits.max_image_pixels,
            during: format!("{during} ({w} x {h} pixels)"),
        });
    }
    Ok(())
}

/// The counters of one document.
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    limits: Limits,
    used: [u64; Resource::ALL.len()],
}

impl Budget {
    /// A fresh budget under `limits`.
    pub fn new(limits: &Limits) -> Self {
        Budget {
            limits: limits.clone(),
            used: [0; Resource::ALL.len()],
        }
    }

    /// The error for `r` exceeded while `during` (e.g. "reading DOC text").
    pub fn exceeded(&self, r: Resource, during: &str) -> Error {
        Error::LimitExceeded {
            limit: r.setting(),
            max: r.limit(&self.limits).0,
            during: during.to_string(),
        }
    }

    /// Counts `n` units of `r`; `Err` the moment the total passes the limit.
    pub fn charge(&mut self, r: Resource, n: u64, during: &str) -> Result<()> {
        let i = r.index();
        self.used[i] = self.used[i].saturating_add(n);
        if self.used[i] > r.limit(&self.limits).1 {
            return Err(self.exceeded(r, during));
        }
        Ok(())
    }

    /// How many more units of `r` fit.
    pub fn remaining(&self, r: Resource) -> u64 {
        r.limit(&self.limits).1.saturating_sub(self.used[r.index()])
    }

    /// Reads all of `r` into memory, charging every byte as unpacked bytes.
    pub fn read_all(&mut self, r: impl Read, during: &str) -> Result<Vec<u8>> {
        let cap = self.remaining(Resource::UnpackedBytes);
        let mut out = Vec::new();
        r.take(cap.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| Error::CorruptFile(format!("{during}: {e}")))?;
        self.charge(Resource::UnpackedBytes, out.len() as u64, during)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    fn small() -> Limits {
        Limits {
            max_text_chars: 10,
            max_unpacked_mb: 1,
            max_image_pixels: 100,
            ..Limits::default()
        }
    }

    #[test]
    fn every_resource_has_its_own_counter() {
        for (i, r) in Resource::ALL.into_iter().enumerate() {
            assert_eq!(r.index(), i, "{r:?}");
        }
    }

    #[test]
    fn charges_until_the_limit_then_fails_naming_it() {
        let mut b = Budget::new(&small());
        b.charge(Resource::TextChars, 6, "reading X").unwrap();
        assert_eq!(b.remaining(Resource::TextChars), 4);
        b.charge(Resource::TextChars, 4, "reading X").unwrap();
        let e = b
            .charge(Resource::TextChars, 1, "reading DOC text")
            .unwrap_err();
        assert_eq!(e.code(), ErrorCode::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "limits.max_text_chars (10) exceeded while reading DOC text"
        );
        // Other counters are independent.
        b.charge(Resource::Words, 1000, "w").unwrap();
    }

    #[test]
    fn pixels_are_checked_from_dimensions() {
        let l = small();
        check_pixels(&l, 10, 10, "decoding PNG").unwrap();
        let e = check_pixels(&l, 1, 101, "decoding PNG").unwrap_err();
        assert_eq!(e.code(), ErrorCode::FileTooLarge);
        assert!(
            e.to_string().contains("limits.max_image_pixels (100)"),
            "{e}"
        );
        assert!(check_pixels(&l, u64::MAX, u64::MAX, "x").is_err());
    }

    #[test]
    fn readers_stop_at_the_unpacked_limit() {
        let mut b = Budget::new(&small());
        let part = vec![0u8; 600 * 1024];
        assert_eq!(b.read_all(&part[..], "a").unwrap().len(), part.len());
        assert_eq!(b.remaining(Resource::UnpackedBytes), 424 * 1024);
        // An endless reader is cut at the limit, not read to its end.
        let e = b
            .read_all(std::io::repeat(0), "unpacking a bomb")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "limits.max_unpacked_mb (1) exceeded while unpacking a bomb"
        );
    }
}
