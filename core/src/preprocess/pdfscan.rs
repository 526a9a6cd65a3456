//! A pre-scan of a PDF's streams before pdfium sees the file: pdfium decodes a content stream
//! whole when it reads a page, so a half-megabyte flate bomb becomes gigabytes inside it. Every
//! stream that is not an image is decoded here through its whole filter chain (Flate, LZW,
//! ASCIIHex, ASCII85, RunLength, in any order), each stage capped at what the budget has left,
//! and its output is charged to `limits.max_unpacked_mb`: a PDF that unpacks to more is refused
//! (`FILE_TOO_LARGE`) before pdfium allocates anything for it.
//!
//! Images are left to pdfium: it decodes an image only when rendering, and then only as many
//! bytes as the image's declared size needs (the render itself is bounded in pixels). A stream
//! counts as an image by its image codec (DCT, JPX, JBIG2, CCITT) or by `/Image` in its
//! dictionary, unless a page names it as its `/Contents` (in the file or inside an object
//! stream): a content stream labelled as an image is still a content stream to pdfium.
//!
//! Embedded files (`/Type /EmbeddedFile`, the attachments of a PDF, where ZUGFeRD and Factur-X
//! keep their invoice XML) are not charged to the document's budget either: pdfium decodes one
//! only when an attachment's content is asked for ([`crate::einvoice::find`] does). Each is
//! measured instead with a decode that stops one byte past [`ATTACHMENT_CAP`] (the e-invoice
//! limit), and the scan reports whether any is over it ([`EmbeddedFiles::oversized`]): pdfium's
//! attachments cannot be told apart by stream, so then none of the PDF's attachments is read,
//! and the document is read from its pages. The measuring work is bounded too: once the
//! measured embedded files add up to more than [`MAX_MEASURED`], the rest count as oversized.
//! A stream labelled as an embedded file that a page names as its `/Contents` is charged like
//! any content stream.

use super::budget::{Budget, Resource};
use crate::error::Result;
use std::collections::HashSet;
use std::io::Read;

/// What the budget's errors say.
const DURING: &str = "decompressing PDF streams";
/// The most an embedded file may unpack to for its content to be read: the e-invoice limit.
pub(crate) const ATTACHMENT_CAP: u64 = crate::einvoice::find::MAX_ATTACHMENT_BYTES as u64;
/// The most the measuring of embedded files decodes in all: as much as the attachments that
/// [`crate::einvoice::find`] reads at most can hold.
const MAX_MEASURED: u64 = ATTACHMENT_CAP * crate::einvoice::find::MAX_ATTACHMENTS as u64;

/// What the scan found of a PDF's embedded files (attachments).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EmbeddedFiles {
    /// Whether one of them unpacks to more than the e-invoice limit (16 MB), or all of them
    /// together to more than 32 times it: then no attachment of the PDF may be read.
    pub oversized: bool,
}
/// How far before a `stream` keyword its dictionary is looked for.
const DICT_WINDOW: usize = 4096;

/// Finds `needle` in `hay` from `from`.
fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| from + i)
}

/// Where the dictionary of the stream whose keyword starts at `at` begins: after its `obj`
/// keyword, or a window before the keyword, never before `floor` (the end of the previous
/// keyword: every byte is looked at for one dictionary at most, whatever the file repeats).
fn dict_start(bytes: &[u8], at: usize, floor: usize) -> usize {
    let from = at.saturating_sub(DICT_WINDOW).max(floor).min(at);
    match bytes[from..at].windows(3).rposition(|w| w == b"obj") {
        Some(i) => from + i + 3,
        None => from,
    }
}

/// The object number of `N G obj` ending where the dictionary starting at `dict` begins (none
/// when no `obj` keyword ends there).
fn object_number(bytes: &[u8], dict: usize) -> Option<u32> {
    if bytes.get(dict.checked_sub(3)?..dict) != Some(&b"obj"[..]) {
        return None;
    }
    let head = bytes.get(..dict - 3)?;
    let head = trim_end(head);
    let gen_start = head.iter().rposition(|b| !b.is_ascii_digit())? + 1;
    let head = trim_end(&head[..gen_start]);
    let num_start = head
        .iter()
        .rposition(|b| !b.is_ascii_digit())
        .map_or(0, |i| i + 1);
    std::str::from_utf8(&head[num_start..]).ok()?.parse().ok()
}

fn trim_end(b: &[u8]) -> &[u8] {
    let n = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(0, |i| i + 1);
    &b[..n]
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    &b[n..]
}

/// Whether a name (`/Image`, `/ObjStm`) appears in `dict` as a whole name.
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

/// A stream filter (ISO 32000-1, 7.4), by its name or its abbreviation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Filter {
    Flate,
    Lzw,
    AsciiHex,
    Ascii85,
    RunLength,
    /// DCT, JPX, JBIG2, CCITT: decoded by pdfium when it renders, within the render's size.
    ImageCodec,
    /// Anything else (Crypt, unknown names): pdfium cannot expand it either.
    Other,
}

impl Filter {
    fn named(name: &[u8]) -> Filter {
        match name {
            b"FlateDecode" | b"Fl" => Filter::Flate,
            b"LZWDecode" | b"LZW" => Filter::Lzw,
            b"ASCIIHexDecode" | b"AHx" => Filter::AsciiHex,
            b"ASCII85Decode" | b"A85" => Filter::Ascii85,
            b"RunLengthDecode" | b"RL" => Filter::RunLength,
            b"DCTDecode" | b"DCT" | b"JPXDecode" | b"JBIG2Decode" | b"CCITTFaxDecode" | b"CCF" => {
                Filter::ImageCodec
            }
            _ => Filter::Other,
        }
    }
}

/// Whether a byte ends a PDF name.
fn ends_name(b: u8) -> bool {
    b.is_ascii_whitespace() || b"/[]<>()%{}".contains(&b)
}

/// The filters of a stream dictionary in the order they apply (`/Filter /X` or `/Filter [...]`).
fn filters(dict: &[u8]) -> Vec<Filter> {
    let Some(i) = find(dict, 0, b"/Filter") else {
        return Vec::new();
    };
    let rest = trim_start(&dict[i + b"/Filter".len()..]);
    let (list, many) = match rest.strip_prefix(b"[") {
        Some(inner) => (
            &inner[..inner.iter().position(|&b| b == b']').unwrap_or(inner.len())],
            true,
        ),
        None => (rest, false),
    };
    let mut out = Vec::new();
    let mut rest = trim_start(list);
    while let Some(name) = rest.strip_prefix(b"/") {
        let end = name
            .iter()
            .position(|&b| ends_name(b))
            .unwrap_or(name.len());
        out.push(Filter::named(&name[..end]));
        if !many {
            break;
        }
        rest = trim_start(&name[end..]);
    }
    out
}

/// One decoding stage: the output (at most `cap + 1` bytes, enough to tell that it is over) and
/// how much of `input` it consumed. Damaged data ends the output where it becomes unreadable:
/// pdfium judges it later.
fn decode(filter: Filter, input: &[u8], early_change: bool, cap: u64) -> (Vec<u8>, usize) {
    let cap = usize::try_from(cap).unwrap_or(usize::MAX).saturating_add(1);
    let mut out = Vec::new();
    let consumed = match filter {
        Filter::Flate => {
            let mut z = flate2::bufread::ZlibDecoder::new(input);
            let _ = (&mut z).take(cap as u64).read_to_end(&mut out);
            usize::try_from(z.total_in()).unwrap_or(input.len())
        }
        Filter::Lzw => lzw(input, early_change, cap, &mut out),
        Filter::AsciiHex => ascii_hex(input, cap, &mut out),
        Filter::Ascii85 => ascii85(input, cap, &mut out),
        Filter::RunLength => run_length(input, cap, &mut out),
        Filter::ImageCodec | Filter::Other => 0,
    };
    out.truncate(cap);
    (out, consumed.min(input.len()))
}

fn lzw(input: &[u8], early_change: bool, cap: usize, out: &mut Vec<u8>) -> usize {
    let mut d = if early_change {
        weezl::decode::Decoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8)
    } else {
        weezl::decode::Decoder::new(weezl::BitOrder::Msb, 8)
    };
    let mut buf = vec![0u8; 64 * 1024];
    let mut at = 0;
    while out.len() < cap {
        let r = d.decode_bytes(&input[at..], &mut buf);
        at += r.consumed_in;
        out.extend_from_slice(&buf[..r.consumed_out]);
        match r.status {
            Ok(weezl::LzwStatus::Ok) if r.consumed_in + r.consumed_out > 0 => {}
            _ => break,
        }
    }
    at
}

fn ascii_hex(input: &[u8], cap: usize, out: &mut Vec<u8>) -> usize {
    let mut high: Option<u8> = None;
    for (i, &b) in input.iter().enumerate() {
        if out.len() >= cap {
            return i;
        }
        let v = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            b'A'..=b'F' => b - b'A' + 10,
            b'>' => {
                out.extend(high.map(|h| h << 4));
                return i + 1;
            }
            _ if b.is_ascii_whitespace() => continue,
            _ => return i,
        };
        match high.take() {
            Some(h) => out.push(h << 4 | v),
            None => high = Some(v),
        }
    }
    input.len()
}

fn ascii85(input: &[u8], cap: usize, out: &mut Vec<u8>) -> usize {
    let mut group = [0u8; 5];
    let mut n = 0;
    // `n` digits (2 to 5) of a group give `n - 1` bytes; a short group is padded with `u`.
    let flush = |group: &[u8; 5], n: usize, out: &mut Vec<u8>| {
        let mut padded = [b'u' - b'!'; 5];
        padded[..n].copy_from_slice(&group[..n]);
        let v = padded.iter().fold(0u64, |acc, &d| acc * 85 + u64::from(d));
        let bytes = (v as u32).to_be_bytes();
        out.extend_from_slice(&bytes[..n.saturating_sub(1)]);
    };
    for (i, &b) in input.iter().enumerate() {
        if out.len() >= cap {
            return i;
        }
        match b {
            b'!'..=b'u' => {
                group[n] = b - b'!';
                n += 1;
                if n == 5 {
                    flush(&group, 5, out);
                    n = 0;
                }
            }
            b'z' if n == 0 => out.extend_from_slice(&[0; 4]),
            b'~' => {
                if n > 1 {
                    flush(&group, n, out);
                }
                // The end marker is `~>`.
                return i + 1 + usize::from(input.get(i + 1) == Some(&b'>'));
            }
            _ if b.is_ascii_whitespace() => {}
            _ => return i,
        }
    }
    input.len()
}

fn run_length(input: &[u8], cap: usize, out: &mut Vec<u8>) -> usize {
    let mut i = 0;
    while i < input.len() && out.len() < cap {
        let l = input[i];
        match l {
            0..=127 => {
                let run =
                    &input[(i + 1).min(input.len())..(i + 2 + usize::from(l)).min(input.len())];
                out.extend_from_slice(run);
                i += 1 + run.len();
            }
            128 => return i + 1,
            _ => {
                let Some(&b) = input.get(i + 1) else {
                    return input.len();
                };
                out.extend(std::iter::repeat_n(b, 257 - usize::from(l)));
                i += 2;
            }
        }
    }
    i
}

/// Adds the object numbers a `/Contents` entry of `text` refers to (`N G R` or an array of them).
fn content_refs(text: &[u8], out: &mut HashSet<u32>) {
    let mut from = 0;
    while let Some(i) = find(text, from, b"/Contents") {
        from = i + b"/Contents".len();
        let rest = trim_start(&text[from..]);
        let (body, many) = match rest.strip_prefix(b"[") {
            Some(inner) => (
                &inner[..inner.iter().position(|&b| b == b']').unwrap_or(inner.len())],
                true,
            ),
            None => (rest, false),
        };
        let mut words = body
            .split(|b| b.is_ascii_whitespace())
            .filter(|w| !w.is_empty());
        while let (Some(num), Some(_gen), Some(r)) = (words.next(), words.next(), words.next()) {
            let Some(num) = std::str::from_utf8(num).ok().and_then(|n| n.parse().ok()) else {
                break;
            };
            if !r.starts_with(b"R") {
                break;
            }
            out.insert(num);
            if !many {
                break;
            }
        }
    }
}

/// A stream found by the scan.
struct Stream {
    /// Object number, when the stream is a numbered object.
    number: Option<u32>,
    /// Where its data starts.
    data: usize,
    filters: Vec<Filter>,
    early_change: bool,
    /// Labelled an image (`/Image` in its dictionary) or decoded by an image codec.
    image: bool,
    /// An object stream (compressed objects, page dictionaries among them).
    objects: bool,
    /// Labelled an embedded file (`/Type /EmbeddedFile`).
    embedded: bool,
}

/// Decodes one stream through its filters, charging the output to `budget`; `Ok(output)` when it
/// fits (the output is kept only when `keep`). Stops after the first stage that consumes nothing.
fn unpack(bytes: &[u8], s: &Stream, budget: &mut Budget, keep: bool) -> Result<(Vec<u8>, usize)> {
    let mut data: Option<Vec<u8>> = None;
    let mut consumed = 0;
    for (k, &f) in s.filters.iter().enumerate() {
        let input = data.as_deref().unwrap_or(&bytes[s.data..]);
        let (out, used) = decode(
            f,
            input,
            s.early_change,
            budget.remaining(Resource::UnpackedBytes),
        );
        if k == 0 {
            consumed = used;
        }
        if out.len() as u64 > budget.remaining(Resource::UnpackedBytes) {
            // An intermediate stage alone is more than the document may unpack.
            budget.charge(Resource::UnpackedBytes, out.len() as u64, DURING)?;
        }
        data = Some(out);
    }
    let out = data.unwrap_or_default();
    budget.charge(Resource::UnpackedBytes, out.len() as u64, DURING)?;
    Ok((if keep { out } else { Vec::new() }, consumed))
}

/// How many bytes the stream unpacks to, decoding at most `cap + 1` bytes at each stage: the
/// size, or `None` when it is over `cap`. Decoding stops after the first stage that consumes
/// nothing, as in [`unpack`].
fn measure(bytes: &[u8], s: &Stream, cap: u64) -> Option<u64> {
    let mut data: Option<Vec<u8>> = None;
    for &f in &s.filters {
        let input = data.as_deref().unwrap_or(&bytes[s.data..]);
        let (out, _) = decode(f, input, s.early_change, cap);
        if out.len() as u64 > cap {
            return None;
        }
        data = Some(out);
    }
    Some(data.map_or(0, |d| d.len() as u64))
}

/// Decodes every stream of `bytes` that is not an image nor an embedded file, charging its
/// output to `budget`; `Err` (the unpacked-bytes limit) the moment the total passes it. Damaged
/// streams are counted as far as they decode and left to pdfium to judge. Embedded files are
/// measured against [`ATTACHMENT_CAP`] instead (see the module's documentation).
pub(crate) fn check_streams(bytes: &[u8], budget: &mut Budget) -> Result<EmbeddedFiles> {
    scan(bytes, budget, ATTACHMENT_CAP, MAX_MEASURED)
}

/// [`check_streams`] with the embedded files' cap and total measuring bound given.
fn scan(bytes: &[u8], budget: &mut Budget, cap: u64, max_measured: u64) -> Result<EmbeddedFiles> {
    let mut contents = HashSet::new();
    content_refs(bytes, &mut contents);
    let mut images = Vec::new();
    let mut embedded = Vec::new();
    let mut pos = 0;
    let mut floor = 0;
    while let Some(at) = find(bytes, pos, b"stream") {
        pos = at + 6;
        let prev_floor = std::mem::replace(&mut floor, pos);
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
        let start = dict_start(bytes, at, prev_floor);
        let dict = &bytes[start..at];
        let filters = filters(dict);
        let expands = filters
            .iter()
            .any(|f| !matches!(f, Filter::ImageCodec | Filter::Other));
        if !expands {
            continue;
        }
        let stream = Stream {
            number: object_number(bytes, start),
            data,
            early_change: find(dict, 0, b"/EarlyChange 0").is_none(),
            image: has_name(dict, b"/Image") || filters.contains(&Filter::ImageCodec),
            objects: has_name(dict, b"/ObjStm"),
            embedded: has_name(dict, b"/EmbeddedFile"),
            filters,
        };
        if stream.embedded && !stream.objects {
            embedded.push(stream);
            continue;
        }
        if stream.image {
            images.push(stream);
            continue;
        }
        let (out, consumed) = unpack(bytes, &stream, budget, stream.objects)?;
        if stream.objects {
            content_refs(&out, &mut contents);
        }
        // Go on after the encoded data (never back into it).
        pos = pos.max(data.saturating_add(consumed));
    }
    for s in images {
        if s.number.is_some_and(|n| contents.contains(&n))
            && !s.filters.contains(&Filter::ImageCodec)
        {
            unpack(bytes, &s, budget, false)?;
        }
    }
    let mut found = EmbeddedFiles::default();
    let mut measured = 0u64;
    for s in embedded {
        if s.number.is_some_and(|n| contents.contains(&n)) {
            // A page's content stream, whatever its label says.
            unpack(bytes, &s, budget, false)?;
            continue;
        }
        if found.oversized {
            // No attachment will be read: measuring the rest is no use.
            continue;
        }
        match measure(bytes, &s, cap) {
            Some(n) if measured.saturating_add(n) <= max_measured => measured += n,
            _ => found.oversized = true,
        }
    }
    Ok(found)
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

    fn ascii85(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        for chunk in data.chunks(4) {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            let mut v = u32::from_be_bytes(word);
            if chunk.len() == 4 && v == 0 {
                out.push(b'z');
                continue;
            }
            let mut digits = [0u8; 5];
            for d in digits.iter_mut().rev() {
                *d = (v % 85) as u8 + b'!';
                v /= 85;
            }
            out.extend_from_slice(&digits[..chunk.len() + 1]);
        }
        out.extend_from_slice(b"~>");
        out
    }

    fn hex(data: &[u8]) -> Vec<u8> {
        let mut out: Vec<u8> = data
            .iter()
            .flat_map(|b| format!("{b:02X}").into_bytes())
            .collect();
        out.push(b'>');
        out
    }

    fn lzw(data: &[u8]) -> Vec<u8> {
        weezl::encode::Encoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8)
            .encode(data)
            .unwrap()
    }

    #[test]
    fn every_expanding_filter_decodes_as_pdfium_reads_it() {
        let cap = 1 << 20;
        let text = b"BT /F1 12 Tf (Invoice 42) Tj ET\n".repeat(50);
        let (out, used) = decode(Filter::Ascii85, &ascii85(&text), true, cap);
        assert_eq!((out, used), (text.clone(), ascii85(&text).len()));
        let (out, _) = decode(Filter::Ascii85, b"9jqo^9jqo~>", true, cap);
        assert_eq!(out, b"Man Man");
        assert_eq!(decode(Filter::AsciiHex, &hex(&text), true, cap).0, text);
        assert_eq!(
            decode(Filter::AsciiHex, b"48 65\n6C6C6F>", true, cap).0,
            b"Hello"
        );
        assert_eq!(decode(Filter::AsciiHex, b"486>", true, cap).0, [0x48, 0x60]);
        assert_eq!(decode(Filter::Lzw, &lzw(&text), true, cap).0, text);
        let rl = [2, b'a', b'b', b'c', 254, b'x', 128, b'!'];
        assert_eq!(
            decode(Filter::RunLength, &rl, true, cap),
            (b"abcxxx".to_vec(), 7)
        );
        assert_eq!(decode(Filter::Flate, &zlib(&text), true, cap).0, text);
        // Output stops one byte past the cap: enough to know it is over.
        assert_eq!(decode(Filter::AsciiHex, &hex(&text), true, 10).0.len(), 11);
        // The filters of a dictionary, names and abbreviations, in order.
        assert_eq!(
            filters(b"<< /Length 5 /Filter [ /A85 /FlateDecode ] /DecodeParms [null null] >>"),
            [Filter::Ascii85, Filter::Flate]
        );
        assert_eq!(filters(b"<</Filter/LZW/Length 3>>"), [Filter::Lzw]);
        assert_eq!(filters(b"<< /Filter /DCTDecode >>"), [Filter::ImageCodec]);
        assert!(filters(b"<< /Length 3 >>").is_empty());
    }

    #[test]
    fn bombs_behind_any_filter_chain_are_refused() {
        let spaces = vec![b' '; 3 * 1024 * 1024];
        let bomb = zlib(&spaces);
        let run: Vec<u8> = std::iter::repeat_n([129u8, b' '], 30_000)
            .flatten()
            .chain([128])
            .collect();
        for (dict, data) in [
            (
                "<< /Filter [/ASCII85Decode /FlateDecode] >>",
                ascii85(&bomb),
            ),
            ("<< /Filter [/AHx /Fl] >>", hex(&bomb)),
            ("<< /Filter /LZWDecode >>", lzw(&spaces)),
            ("<< /Filter /RunLengthDecode >>", run),
        ] {
            let file = pdf(&[(dict, data)]);
            let e = check_streams(&file, &mut budget(2)).unwrap_err();
            assert_eq!(e.code(), ErrorCode::FileTooLarge, "{dict}");
            assert!(check_streams(&file, &mut budget(5)).is_ok(), "{dict}");
        }
    }

    #[test]
    fn a_content_stream_labelled_as_an_image_is_still_counted() {
        let bomb = zlib(&vec![b' '; 3 * 1024 * 1024]);
        let disguised = "<< /Subtype /Image /Width 1 /Height 1 /Filter /FlateDecode >>";
        // Object 1 is the stream; object 2 a page naming it as its contents.
        let mut file = pdf(&[(disguised, bomb.clone())]);
        file.extend_from_slice(b"2 0 obj << /Type /Page /Contents [ 1 0 R ] >> endobj\n");
        assert!(check_streams(&file, &mut budget(2)).is_err());
        // The page inside a compressed object stream (object 2) names it as well.
        let page = zlib(b"3 0 << /Type /Page /Contents 1 0 R >>");
        let hidden = pdf(&[
            (disguised, bomb.clone()),
            (
                "<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>",
                page,
            ),
        ]);
        assert!(check_streams(&hidden, &mut budget(2)).is_err());
        // An image no page names as contents is left to pdfium.
        let picture = pdf(&[(disguised, bomb)]);
        assert!(check_streams(&picture, &mut budget(2)).is_ok());
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
    fn embedded_files_are_measured_not_charged() {
        const MB: u64 = 1024 * 1024;
        let attached = zlib(&vec![b' '; 3 * 1024 * 1024]);
        let dict = "<< /Type /EmbeddedFile /Subtype /text#2Fxml /Filter /FlateDecode >>";
        let file = pdf(&[(dict, attached.clone())]);
        // Not charged to the document: a 2 MB budget passes a 3 MB attachment.
        let found = check_streams(&file, &mut budget(2)).unwrap();
        assert!(!found.oversized);
        // Over the cap it is reported, still without failing the document.
        let found = scan(&file, &mut budget(2), 2 * MB, 64 * MB).unwrap();
        assert!(found.oversized);
        // The same bytes without the label are a document stream, charged as before.
        let plain = pdf(&[("<< /Filter /FlateDecode >>", attached.clone())]);
        assert!(check_streams(&plain, &mut budget(2)).is_err());
        // `/EmbeddedFiles` (the name tree's key) is not the label.
        let tree = pdf(&[(
            "<< /EmbeddedFiles /Filter /FlateDecode >>",
            attached.clone(),
        )]);
        assert!(check_streams(&tree, &mut budget(2)).is_err());
        // Behind a filter chain, and measured after the last stage.
        let chained = pdf(&[(
            "<< /Type /EmbeddedFile /Filter [/AHx /Fl] >>",
            hex(&attached),
        )]);
        assert!(
            !scan(&chained, &mut budget(1), 4 * MB, 64 * MB)
                .unwrap()
                .oversized
        );
        assert!(
            scan(&chained, &mut budget(1), 2 * MB, 64 * MB)
                .unwrap()
                .oversized
        );
        // Under the cap each, over the measuring bound together: oversized.
        let three = pdf(&[
            (dict, attached.clone()),
            (dict, attached.clone()),
            (dict, attached),
        ]);
        assert!(
            !scan(&three, &mut budget(1), 4 * MB, 9 * MB)
                .unwrap()
                .oversized
        );
        assert!(
            scan(&three, &mut budget(1), 4 * MB, 8 * MB)
                .unwrap()
                .oversized
        );
    }

    #[test]
    fn a_200_mb_attachment_is_reported_not_refused() {
        // 200 MB of zeros deflate to about 200 KB; the scan decodes 16 MB of it at most.
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
        let chunk = vec![0u8; 1024 * 1024];
        for _ in 0..200 {
            e.write_all(&chunk).unwrap();
        }
        let bomb = e.finish().unwrap();
        let file = pdf(&[(
            "<< /Type /EmbeddedFile /Length 1 /Filter /FlateDecode >>",
            bomb,
        )]);
        let found = check_streams(&file, &mut budget(40)).unwrap();
        assert!(found.oversized);
        // A 16 MB XML is at the cap, not over it.
        let at_cap = zlib(&vec![b'x'; ATTACHMENT_CAP as usize]);
        let file = pdf(&[("<< /Type /EmbeddedFile /Filter /FlateDecode >>", at_cap)]);
        assert!(!check_streams(&file, &mut budget(1)).unwrap().oversized);
    }

    #[test]
    fn a_content_stream_labelled_as_an_embedded_file_is_still_counted() {
        let bomb = zlib(&vec![b' '; 3 * 1024 * 1024]);
        let disguised = "<< /Type /EmbeddedFile /Filter /FlateDecode >>";
        let mut file = pdf(&[(disguised, bomb)]);
        file.extend_from_slice(b"2 0 obj << /Type /Page /Contents 1 0 R >> endobj\n");
        assert!(check_streams(&file, &mut budget(2)).is_err());
        let found = check_streams(&file, &mut budget(4)).unwrap();
        assert!(!found.oversized);
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
        // Bare keywords, each of which could make the scan look back for a dictionary.
        let (small, big) = (b"stream\n".repeat(20_000), b"stream\n".repeat(160_000));
        crate::preprocess::test_support::assert_near_linear("PDF stream keywords", &|k| {
            check_streams(if k == 1 { &small } else { &big }, &mut budget(200)).unwrap();
        });
    }
}
