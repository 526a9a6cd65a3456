//! A pre-scan of a PDF's streams before pdfium sees the file: pdfium inflates a content stream
//! whole when it reads a page, so a half-megabyte flate bomb becomes gigabytes inside it. Every
//! Flate stream that is not an image is inflated here, streaming into nothing, and its output is
//! charged to `limits.max_unpacked_mb`: a PDF that unpacks to more is refused (`FILE_TOO_LARGE`)
//! before pdfium allocates anything for it.
//!
//! Images are left to pdfium: it decodes an image only when rendering, and then only as many
//! bytes as the image's declared size needs (the render itself is bounded in pixels).

use super::budget::{Budget, Resource};
use crate::error::Result;
use std::io::Read;

/// What the budget's errors say.
const DURING: &str = "decompressing PDF streams";
/// How far before a `stream` keyword its dictionary is looked for.
const DICT_WINDOW: usize = 4096;

/// Finds `needle` in `hay` from `from`.
fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| from + i)
}

/// The dictionary text of the stream whose keyword starts at `at` (from its `obj` keyword, or a
/// window before it).
fn dict_before(bytes: &[u8], at: usize) -> &[u8] {
    let window = &bytes[at.saturating_sub(DICT_WINDOW)..at];
    match window.windows(3).rposition(|w| w == b"obj") {
        Some(i) => &window[i + 3..],
        None => window,
    }
}

/// Whether a name (`/FlateDecode`, `/Fl`) appears in `dict` as a whole name.
fn has_name(dict: &[u8], name: &[u8]) -> bool {
    let mut from = 0;
    while let Some(i) = find(dict, from, name) {
        let next = dict.get(i + name.len()).copied().unwrap_or(b' ');
        if !next.is_ascii_alphanumeric() {
            return true;
        }
        from = i + 1;
    }
    false
}

/// Inflates every Flate stream of `bytes` that is not an image, charging its output to
/// `budget`; `Err` (the unpacked-bytes limit) the moment the total passes it. Damaged streams
/// are counted as far as they inflate and left to pdfium to judge.
pub(crate) fn check_streams(bytes: &[u8], budget: &mut Budget) -> Result<()> {
    let mut pos = 0;
    let mut buf = vec![0u8; 64 * 1024];
    while let Some(at) = find(bytes, pos, b"stream") {
        pos = at + 6;
        if at >= 3 && &bytes[at - 3..at] == b"end" {
            continue;
        }
        // The data starts after the end of line that must follow the keyword.
        let mut data = at + 6;
        if bytes.get(data) == Some(&b'\r') {
            data += 1;
        }
        if bytes.get(data) == Some(&b'\n') {
            data += 1;
        }
        if data == at + 6 {
            continue;
        }
        let dict = dict_before(bytes, at);
        let flate = has_name(dict, b"/FlateDecode") || has_name(dict, b"/Fl");
        if !flate || has_name(dict, b"/Image") {
            continue;
        }
        let mut z = flate2::bufread::ZlibDecoder::new(&bytes[data..]);
        loop {
            match z.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => budget.charge(Resource::UnpackedBytes, n as u64, DURING)?,
            }
        }
        // Go on after the compressed data (never back into it).
        pos = pos.max(data.saturating_add(usize::try_from(z.total_in()).unwrap_or(0)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Limits;
    use crate::error::ErrorCode;
    use std::io::Write;

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// Objects with the given stream dictionaries and (already encoded) data.
    fn pdf(streams: &[(&str, Vec<u8>)]) -> Vec<u8> {
        let mut out = b"%PDF-1.7\n".to_vec();
        for (i, (dict, data)) in streams.iter().enumerate() {
            out.extend_from_slice(format!("{} 0 obj\n{dict}\nstream\r\n", i + 1).as_bytes());
            out.extend_from_slice(data);
            out.extend_from_slice(b"\nendstream\nendobj\n");
        }
        out.extend_from_slice(b"trailer\n<< >>\n%%EOF\n");
        out
    }

    fn budget(mb: u64) -> Budget {
        Budget::new(&Limits {
            max_unpacked_mb: mb,
            ..Limits::default()
        })
    }

    #[test]
    fn a_flate_bomb_is_refused_naming_the_limit() {
        let bomb = zlib(&vec![b' '; 3 * 1024 * 1024]);
        let file = pdf(&[("<< /Length 9 /Filter /FlateDecode >>", bomb.clone())]);
        let e = check_streams(&file, &mut budget(2)).unwrap_err();
        assert_eq!(e.code(), ErrorCode::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "limits.max_unpacked_mb (2) exceeded while decompressing PDF streams"
        );
        assert!(check_streams(&file, &mut budget(4)).is_ok());
        // Streams add up; abbreviated and array filters count; images and other filters not.
        let two = pdf(&[
            ("<< /Filter [/FlateDecode] >>", bomb.clone()),
            ("<</Filter/Fl>>", bomb.clone()),
        ]);
        assert!(check_streams(&two, &mut budget(4)).is_err());
        assert!(check_streams(&two, &mut budget(7)).is_ok());
        let image = pdf(&[(
            "<< /Type /XObject /Subtype /Image /Width 1 /Height 3145728 /Filter /FlateDecode >>",
            bomb.clone(),
        )]);
        assert!(check_streams(&image, &mut budget(1)).is_ok());
        let raw = pdf(&[("<< /Filter /FlateDecodeX >>", bomb)]);
        assert!(check_streams(&raw, &mut budget(1)).is_ok());
    }

    #[test]
    fn damaged_and_truncated_streams_are_left_to_pdfium() {
        let data = zlib(&vec![b'q'; 100_000]);
        let mut file = pdf(&[("<< /Filter /FlateDecode >>", data.clone())]);
        file.truncate(file.len() - data.len() / 2 - 30);
        assert!(check_streams(&file, &mut budget(1)).is_ok());
        let garbage = pdf(&[("<< /Filter /FlateDecode >>", b"not zlib at all".to_vec())]);
        assert!(check_streams(&garbage, &mut budget(1)).is_ok());
        assert!(check_streams(b"stream", &mut budget(1)).is_ok());
        assert!(check_streams(b"obj stream\n", &mut budget(1)).is_ok());
    }

    #[test]
    fn time_grows_linearly() {
        let file = |n: usize| {
            let streams: Vec<(&str, Vec<u8>)> = (0..n)
                .map(|i| {
                    (
                        "<< /Filter /FlateDecode >>",
                        zlib(format!("BT ({i}) Tj ET ").repeat(200).as_bytes()),
                    )
                })
                .collect();
            pdf(&streams)
        };
        let (small, big) = (file(500), file(4_000));
        crate::preprocess::test_support::assert_near_linear("PDF streams", &|k| {
            check_streams(if k == 1 { &small } else { &big }, &mut budget(200)).unwrap();
        });
    }
}
