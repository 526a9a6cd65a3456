//! The hostile-file corpus, generated at test time (never committed as binaries): the cases of
//! issue 12 (a DOC piece table repeating one text, a DOCX of hundreds of MB of paragraphs, PDF
//! flate bombs, a 1 x 100,000,000 PNG, huge and deep XLSX and RTF, a words JSON word of 2 M
//! spaces, a PDF with 100k text operations, hOCR with 1 M words) and variations: the same
//! structures bent differently, truncated, and with garbage after a valid header.

use flate2::Compression;
use flate2::write::ZlibEncoder;
use std::io::{Cursor, Write};

/// The outcome a case must end with.
#[derive(Debug, Clone, Copy)]
pub struct Expect {
    /// `"OK"` (a result on stdout) or the error codes allowed.
    pub codes: &'static [&'static str],
    /// Text the error message must contain: for a budget, the `limits.` setting that fired.
    pub names: Option<&'static str>,
}

/// A valid (if odd) file: recognised.
pub const OK: Expect = Expect {
    codes: &["OK"],
    names: None,
};

/// A damaged file.
pub const CORRUPT: Expect = Expect {
    codes: &["CORRUPT_FILE"],
    names: None,
};

/// A damaged file, refused for the reason named.
pub const fn corrupt(because: &'static str) -> Expect {
    Expect {
        codes: &["CORRUPT_FILE"],
        names: Some(because),
    }
}

/// A file stopped by the per-document budget `limit` (e.g. `limits.max_unpacked_mb`).
pub const fn over(limit: &'static str) -> Expect {
    Expect {
        codes: &["FILE_TOO_LARGE"],
        names: Some(limit),
    }
}

impl Expect {
    /// Whether the case is meant to stop early (an error, not a recognition).
    pub fn stops_early(&self) -> bool {
        !self.codes.contains(&"OK")
    }
}

/// One generated file.
pub struct Case {
    /// File name (its extension is only a hint: types are decided by content).
    pub name: String,
    /// The content.
    pub bytes: Vec<u8>,
    /// Run with a 100 MB file size limit (a file bigger than the default 20 MB that must still
    /// reach its decoder).
    pub big_file_limit: bool,
    /// The outcome it must end with.
    pub expect: Expect,
    /// Outcomes of its truncated (first half) and garbage (64 bytes of header, then noise)
    /// versions, when it has them.
    variants: Option<(Expect, Expect)>,
}

fn case(name: &str, expect: Expect, bytes: Vec<u8>) -> Case {
    Case {
        name: name.to_string(),
        bytes,
        big_file_limit: false,
        expect,
        variants: None,
    }
}

fn big_case(name: &str, expect: Expect, bytes: Vec<u8>) -> Case {
    Case {
        big_file_limit: true,
        ..case(name, expect, bytes)
    }
}

impl Case {
    /// Adds the truncated and garbage versions, with their outcomes.
    fn variants(self, truncated: Expect, garbage: Expect) -> Case {
        Case {
            variants: Some((truncated, garbage)),
            ..self
        }
    }
}

/// Zlib-compresses `n` repetitions of `unit` without holding them in memory.
fn zlib_repeat(unit: &[u8], n: usize) -> Vec<u8> {
    let mut enc = ZlibEncoder::new(Vec::new(), Compression::best());
    let chunk: Vec<u8> = unit.repeat((1 << 20) / unit.len().max(1) + 1);
    let total = unit.len() * n;
    let mut written = 0;
    while written < total {
        let k = chunk.len().min(total - written);
        enc.write_all(&chunk[..k]).unwrap();
        written += k;
    }
    enc.finish().unwrap()
}

/// A PDF with one page per content stream (raw stream bytes with the value of their `/Filter`,
/// and whatever else the dictionary should say after it), offsets and xref table correct.
pub fn pdf(contents: &[(Vec<u8>, Option<&str>)]) -> Vec<u8> {
    let n = contents.len();
    // Objects: 1 catalog, 2 pages, 3 font, then per page: page, contents.
    let mut objs: Vec<Vec<u8>> = Vec::new();
    objs.push(b"<< /Type /Catalog /Pages 2 0 R >>".to_vec());
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 4 + 2 * i)).collect();
    objs.push(format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")).into_bytes());
    objs.push(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec());
    for (i, (data, filter)) in contents.iter().enumerate() {
        objs.push(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << \
                 /F1 3 0 R >> >> /Contents {} 0 R >>",
                5 + 2 * i
            )
            .into_bytes(),
        );
        let mut s = match filter {
            Some(f) => format!("<< /Length {} /Filter {f} >>\nstream\n", data.len()),
            None => format!("<< /Length {} >>\nstream\n", data.len()),
        }
        .into_bytes();
        s.extend_from_slice(data);
        s.extend_from_slice(b"\nendstream");
        objs.push(s);
    }
    let mut out = b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objs.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(o);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objs.len() + 1).as_bytes());
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objs.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// A content stream of `n` text-showing operations, one word each, spread over the page.
pub fn pdf_text_ops(n: usize) -> Vec<u8> {
    let mut s = String::with_capacity(n * 40);
    for i in 0..n {
        let (x, y) = (20 + (i % 9) * 60, 20 + (i / 9) % 80 * 10);
        s.push_str(&format!("BT /F1 8 Tf {x} {y} Td (w{}) Tj ET\n", i % 1000));
    }
    s.into_bytes()
}

/// A PNG of `w` x `h` 8-bit gray pixels, all white, with a correct CRC per chunk.
pub fn png(w: u32, h: u32) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8], data: &[u8]) {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut crc = flate2::Crc::new();
        crc.update(kind);
        crc.update(data);
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        out.extend_from_slice(&crc.sum().to_be_bytes());
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    let mut row = vec![255u8; w as usize + 1];
    row[0] = 0;
    let idat = zlib_repeat(&row, h as usize);
    chunk(&mut out, b"IDAT", &idat);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A little-endian TIFF whose frames declare the given sizes (8-bit gray, one strip of a few
/// bytes each: the data is short for anything but tiny frames).
pub fn tiff(frames: &[(u32, u32)]) -> Vec<u8> {
    let mut out = b"II*\0".to_vec();
    out.extend_from_slice(&8u32.to_le_bytes());
    for (i, &(w, h)) in frames.iter().enumerate() {
        let entries: [(u16, u16, u32); 8] = [
            (256, 4, w),
            (257, 4, h),
            (258, 3, 8),
            (259, 3, 1),
            (262, 3, 1),
            (273, 4, 0), // strip offset, patched below
            (278, 4, h),
            (279, 4, 16),
        ];
        let ifd_start = out.len();
        let data_at = ifd_start + 2 + entries.len() * 12 + 4;
        let next = if i + 1 < frames.len() {
            (data_at + 16) as u32
        } else {
            0
        };
        out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
        for (tag, typ, v) in entries {
            out.extend_from_slice(&tag.to_le_bytes());
            out.extend_from_slice(&typ.to_le_bytes());
            out.extend_from_slice(&1u32.to_le_bytes());
            let v = if tag == 273 { data_at as u32 } else { v };
            if typ == 3 {
                out.extend_from_slice(&(v as u16).to_le_bytes());
                out.extend_from_slice(&[0, 0]);
            } else {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out.extend_from_slice(&next.to_le_bytes());
        out.extend_from_slice(&[255u8; 16]);
    }
    out
}

/// A ZIP entry made of a unit repeated between a head and a tail.
pub struct Repeated<'a> {
    /// Entry name.
    pub name: &'a str,
    /// Bytes before the repeats.
    pub head: &'a [u8],
    /// The repeated bytes.
    pub unit: &'a [u8],
    /// How many times.
    pub times: usize,
    /// Bytes after the repeats.
    pub tail: &'a [u8],
}

/// A ZIP of `(name, content)` entries, deflated; `big` adds one repeated entry (streamed, never
/// held whole).
pub fn zip(entries: &[(&str, &[u8])], big: Option<Repeated<'_>>) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    for (name, data) in entries {
        w.start_file(*name, opts).unwrap();
        w.write_all(data).unwrap();
    }
    if let Some(Repeated {
        name,
        head,
        unit,
        times: n,
        tail,
    }) = big
    {
        w.start_file(name, opts).unwrap();
        w.write_all(head).unwrap();
        let chunk = unit.repeat((1 << 20) / unit.len().max(1) + 1);
        let per = chunk.len() / unit.len();
        let mut left = n;
        while left > 0 {
            let k = left.min(per);
            w.write_all(&chunk[..k * unit.len()]).unwrap();
            left -= k;
        }
        w.write_all(tail).unwrap();
    }
    w.finish().unwrap().into_inner()
}

const W_NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

/// A DOCX whose body repeats `unit` `n` times.
pub fn docx(unit: &str, n: usize) -> Vec<u8> {
    let head = format!(r#"<?xml version="1.0"?><w:document {W_NS}><w:body>"#);
    zip(
        &[],
        Some(Repeated {
            name: "word/document.xml",
            head: head.as_bytes(),
            unit: unit.as_bytes(),
            times: n,
            tail: b"</w:body></w:document>",
        }),
    )
}

/// An XLSX with one sheet of `rows` rows by `cols` columns of numeric cells (row `r`, column `c`
/// holds `r * 7 + c`); `dimension` is written as given.
pub fn xlsx(rows: usize, cols: usize, dimension: &str) -> Vec<u8> {
    let mut sheet = format!(
        r#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="{dimension}"/><sheetData>"#
    );
    for r in 1..=rows {
        sheet.push_str(&format!(r#"<row r="{r}">"#));
        for c in 0..cols {
            let col = col_name(c);
            sheet.push_str(&format!(r#"<c r="{col}{r}"><v>{}</v></c>"#, r * 7 + c));
        }
        sheet.push_str("</row>");
    }
    sheet.push_str("</sheetData></worksheet>");
    xlsx_with_sheet(sheet.as_bytes())
}

fn col_name(mut c: usize) -> String {
    let mut s = Vec::new();
    loop {
        s.push(b'A' + (c % 26) as u8);
        if c < 26 {
            break;
        }
        c = c / 26 - 1;
    }
    s.reverse();
    String::from_utf8(s).unwrap()
}

/// An XLSX around one worksheet's XML.
pub fn xlsx_with_sheet(sheet: &[u8]) -> Vec<u8> {
    let ct = r#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#;
    let rels = r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;
    let wb = r#"<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>"#;
    let wb_rels = r#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#;
    zip(
        &[
            ("[Content_Types].xml", ct.as_bytes()),
            ("_rels/.rels", rels.as_bytes()),
            ("xl/workbook.xml", wb.as_bytes()),
            ("xl/_rels/workbook.xml.rels", wb_rels.as_bytes()),
            ("xl/worksheets/sheet1.xml", sheet),
        ],
        None,
    )
}

/// Rewrites the uncompressed size of every entry named `name` in a ZIP's local and central
/// headers (a header that lies about what the entry unpacks to).
pub fn lie_about_size(zip: &mut [u8], name: &str, size: u32) {
    let mut i = 0;
    while i + 46 <= zip.len() {
        let (name_at, len_at, size_at) = match &zip[i..i + 4] {
            b"PK\x03\x04" => (30, 26, 22),
            b"PK\x01\x02" => (46, 28, 24),
            _ => {
                i += 1;
                continue;
            }
        };
        let n = u16::from_le_bytes([zip[i + len_at], zip[i + len_at + 1]]) as usize;
        if zip.get(i + name_at..i + name_at + n) == Some(name.as_bytes()) {
            zip[i + size_at..i + size_at + 4].copy_from_slice(&size.to_le_bytes());
        }
        i += 4;
    }
}

/// An XLSX whose shared strings unpack to `n` strings while their headers declare 100 bytes.
pub fn xlsx_lying_shared_strings(n: usize) -> Vec<u8> {
    let sheet = br#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>"#;
    let mut z = xlsx_with_sheet(sheet);
    let head = br#"<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">"#;
    let strings = zip(
        &[],
        Some(Repeated {
            name: "xl/sharedStrings.xml",
            head,
            unit: b"<si><t>x</t></si>",
            times: n,
            tail: b"</sst>",
        }),
    );
    // Append the strings as one more entry: rebuild with both.
    let mut archive = zip::ZipArchive::new(Cursor::new(z.as_slice())).unwrap();
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for i in 0..archive.len() {
        w.raw_copy_file(archive.by_index(i).unwrap()).unwrap();
    }
    let mut s = zip::ZipArchive::new(Cursor::new(strings.as_slice())).unwrap();
    w.raw_copy_file(s.by_index(0).unwrap()).unwrap();
    z = w.finish().unwrap().into_inner();
    lie_about_size(&mut z, "xl/sharedStrings.xml", 100);
    z
}

/// An RTF table of `rows` x `cols` cells.
pub fn rtf_table(rows: usize, cols: usize) -> Vec<u8> {
    let mut s = String::from(r"{\rtf1\ansi ");
    for r in 0..rows {
        s.push_str(r"\trowd\pard\intbl ");
        for c in 0..cols {
            s.push_str(&format!(r"c{r}x{c}\cell "));
        }
        s.push_str(r"\row ");
    }
    s.push('}');
    s.into_bytes()
}

/// A Word 97 file whose piece table has `pieces` entries all pointing at the same `len`
/// characters of 8-bit text (the file stays small, the text it describes does not).
pub fn doc_repeated_pieces(pieces: u32, len: u32) -> Vec<u8> {
    let mut wd = vec![0u8; 1024];
    wd[0..2].copy_from_slice(&0xA5ECu16.to_le_bytes());
    wd[2..4].copy_from_slice(&193u16.to_le_bytes());
    wd[32..34].copy_from_slice(&14u16.to_le_bytes());
    wd[62..64].copy_from_slice(&22u16.to_le_bytes());
    wd[152..154].copy_from_slice(&93u16.to_le_bytes());
    let text_fc = wd.len() as u32;
    for i in 0..len {
        wd.push(if i % 50 == 49 {
            b'\r'
        } else {
            b'a' + (i % 26) as u8
        });
    }
    let ccp = pieces.saturating_mul(len);
    wd[76..80].copy_from_slice(&ccp.to_le_bytes());
    let mut table = Vec::new();
    let lcb = (pieces + 1) * 4 + pieces * 8;
    table.push(2);
    table.extend_from_slice(&lcb.to_le_bytes());
    for k in 0..=pieces {
        table.extend_from_slice(&k.saturating_mul(len).to_le_bytes());
    }
    for _ in 0..pieces {
        table.extend_from_slice(&[0, 0]);
        table.extend_from_slice(&((text_fc * 2) | 0x4000_0000).to_le_bytes());
        table.extend_from_slice(&[0, 0]);
    }
    let clx_len = table.len() as u32;
    wd[154 + 33 * 8..154 + 33 * 8 + 4].copy_from_slice(&0u32.to_le_bytes());
    wd[154 + 33 * 8 + 4..154 + 33 * 8 + 8].copy_from_slice(&clx_len.to_le_bytes());
    let mut c = cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
    c.create_stream("/WordDocument")
        .unwrap()
        .write_all(&wd)
        .unwrap();
    c.create_stream("/0Table")
        .unwrap()
        .write_all(&table)
        .unwrap();
    c.flush().unwrap();
    c.into_inner().into_inner()
}

/// Folio words JSON with one page holding `words` words of `text`.
pub fn words_json(text: &str, words: usize) -> Vec<u8> {
    let mut s = String::from(r#"{"pages": [{"width": 2000, "height": 2000, "words": ["#);
    let w = serde_json::to_string(text).unwrap();
    for i in 0..words {
        if i > 0 {
            s.push(',');
        }
        let (x, y) = ((i % 40) * 50, (i / 40) % 400 * 5);
        s.push_str(&format!(
            r#"{{"text": {w}, "bbox": [{x}, {y}, {}, {}]}}"#,
            x + 40,
            y + 4
        ));
    }
    s.push_str("]}]}");
    s.into_bytes()
}

/// hOCR with one page of `words` words.
pub fn hocr(words: usize) -> Vec<u8> {
    let mut s = String::from(
        "<html><body><div class='ocr_page' title='bbox 0 0 2000 2000'><span class='ocr_line' \
         title='bbox 0 0 2000 20'>",
    );
    for i in 0..words {
        let x = i % 1990;
        s.push_str(&format!(
            "<span class='ocrx_word' title='bbox {x} 0 {} 9'>w</span>",
            x + 9
        ));
    }
    s.push_str("</span></div></body></html>");
    s.into_bytes()
}

/// hOCR whose words nest inside each other `depth` deep.
pub fn hocr_nested(depth: usize) -> Vec<u8> {
    let mut s = String::from("<html><body><div class='ocr_page' title='bbox 0 0 2000 2000'>");
    for _ in 0..depth {
        s.push_str("<span class='ocrx_word' title='bbox 0 0 9 9'>w");
    }
    for _ in 0..depth {
        s.push_str("</span>");
    }
    s.push_str("</div></body></html>");
    s.into_bytes()
}

/// Every case: the issue's files, variations, truncated and garbage versions, each with the
/// outcome it must end with: a budget past its limit is `FILE_TOO_LARGE` naming that limit, a
/// damaged structure `CORRUPT_FILE`, a valid file within the budgets (however odd) a result.
pub fn all() -> Vec<Case> {
    const TEXT_CHARS: Expect = over("limits.max_text_chars");
    const UNPACKED: Expect = over("limits.max_unpacked_mb");
    const PIXELS: Expect = over("limits.max_image_pixels");
    const WORDS: Expect = over("limits.max_words");
    let cases = vec![
        // Issue 12 item 2: 6 MB DOC, piece table repeating one text (~4 G characters).
        case(
            "doc-repeated-pieces.doc",
            TEXT_CHARS,
            doc_repeated_pieces(500_000, 8_000),
        )
        .variants(CORRUPT, CORRUPT),
        case(
            "doc-repeated-pieces-short.doc",
            TEXT_CHARS,
            doc_repeated_pieces(1_000_000, 400),
        )
        .variants(CORRUPT, CORRUPT),
        // Item 3: a DOCX of 390 MB of paragraphs, and of empty paragraphs. The ZIP's declared
        // sizes are over the unpack budget: refused before any inflating.
        case(
            "docx-390mb-paragraphs.docx",
            UNPACKED,
            docx(
                "<w:p><w:r><w:t>Lorem ipsum dolor</w:t></w:r></w:p>",
                390_000_000 / 52,
            ),
        )
        .variants(CORRUPT, CORRUPT),
        case(
            "docx-empty-paragraphs.docx",
            UNPACKED,
            docx("<w:p/>", 60_000_000 / 6),
        )
        .variants(CORRUPT, CORRUPT),
        case(
            "docx-one-huge-run.docx",
            UNPACKED,
            docx(
                "<w:r><w:t>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</w:t></w:r>",
                1_500_000,
            ),
        )
        .variants(CORRUPT, CORRUPT),
        // 200,000 tables opened and never closed: ill-formed XML.
        case(
            "docx-deep-tables.docx",
            corrupt("ill-formed"),
            docx(
                "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>x</w:t></w:r></w:p>",
                200_000,
            ),
        )
        .variants(CORRUPT, CORRUPT),
        case(
            "docx-body-not-xml.docx",
            corrupt("not XML"),
            zip(&[("word/document.xml", b"\x00\x01garbage<<<not xml")], None),
        ),
        // Item 4: PDF flate bombs in a content stream; a 1 x 100,000,000 PNG. Half a bomb is
        // still a bomb (the pre-scan inflates what streams it finds before any structure check).
        case(
            "pdf-flate-bomb-spaces.pdf",
            UNPACKED,
            pdf(&[(zlib_repeat(b" ", 520_000_000), Some("/FlateDecode"))]),
        )
        .variants(UNPACKED, CORRUPT),
        case(
            "pdf-flate-bomb-ops.pdf",
            UNPACKED,
            pdf(&[(zlib_repeat(b"q Q ", 250_000_000), Some("/FlateDecode"))]),
        )
        .variants(UNPACKED, CORRUPT),
        case(
            "pdf-flate-bomb-many-pages.pdf",
            UNPACKED,
            pdf(&(0..50)
                .map(|_| (zlib_repeat(b"0 0 m ", 10_000_000), Some("/FlateDecode")))
                .collect::<Vec<_>>()),
        )
        .variants(UNPACKED, CORRUPT),
        // The same bomb behind a filter chain (ASCIIHex over Flate), and labelled as an image.
        case(
            "pdf-flate-bomb-behind-ascii-hex.pdf",
            UNPACKED,
            pdf(&[(
                {
                    let z = zlib_repeat(b" ", 200_000_000);
                    let mut hex: Vec<u8> = z
                        .iter()
                        .flat_map(|b| format!("{b:02X}").into_bytes())
                        .collect();
                    hex.push(b'>');
                    hex
                },
                Some("[/AHx /Fl]"),
            )]),
        )
        .variants(UNPACKED, CORRUPT),
        case(
            "pdf-flate-bomb-labelled-image.pdf",
            UNPACKED,
            pdf(&[(
                zlib_repeat(b" ", 520_000_000),
                Some("/FlateDecode /Subtype /Image /Width 1 /Height 1"),
            )]),
        )
        .variants(UNPACKED, CORRUPT),
        // Image sizes are checked from the header, which the truncated and garbage versions keep.
        case("png-1x100m.png", PIXELS, png(1, 100_000_000)).variants(PIXELS, PIXELS),
        case("png-100mx1.png", PIXELS, png(100_000_000, 1)).variants(PIXELS, PIXELS),
        case("png-12000x12000.png", PIXELS, png(12_000, 12_000)).variants(PIXELS, PIXELS),
        case(
            "tiff-header-100k-square.tiff",
            PIXELS,
            tiff(&[(100_000, 100_000)]),
        ),
        case(
            "tiff-second-frame-huge.tiff",
            PIXELS,
            tiff(&[(4, 4), (1, 200_000_000)]),
        ),
        case(
            "tiff-many-frames.tiff",
            Expect {
                codes: &["TOO_MANY_PAGES"],
                names: Some("5000 pages"),
            },
            tiff(&vec![(2, 2); 5_000]),
        ),
        // Item 5: time grows faster than size. Within every budget: recognised.
        case("xlsx-50k-rows.xlsx", OK, xlsx(50_000, 4, "A1:D50000")).variants(CORRUPT, CORRUPT),
        // One very wide row (the cleaning stage cuts lines longer than any printed one, so the
        // work per line stays bounded).
        case("xlsx-wide-row.xlsx", OK, xlsx(1, 16_000, "A1:WQJ1")).variants(CORRUPT, CORRUPT),
        // A dimension claiming the whole sheet over 4 cells: nothing is allocated for it.
        case("xlsx-huge-dimension.xlsx", OK, xlsx(2, 2, "A1:XFD1048576"))
            .variants(CORRUPT, CORRUPT),
        case(
            "xlsx-lying-shared-strings.xlsx",
            UNPACKED,
            xlsx_lying_shared_strings(12_000_000),
        )
        .variants(CORRUPT, CORRUPT),
        // RTF is read leniently (as word processors do): a cut-off file, or noise after the
        // header, is text.
        case("rtf-100k-cells.rtf", OK, rtf_table(10_000, 10)).variants(OK, OK),
        case("rtf-one-row-100k-cells.rtf", OK, rtf_table(1, 100_000)).variants(OK, OK),
        case("rtf-deep-groups.rtf", corrupt("nested too deeply"), {
            let mut s = b"{\\rtf1 ".to_vec();
            s.extend(std::iter::repeat_n(b'{', 1_000_000));
            s.push(b'x');
            s.extend(std::iter::repeat_n(b'}', 1_000_000));
            s
        })
        // The garbage version keeps only 57 of the million groups.
        .variants(corrupt("nested too deeply"), OK),
        // Runs of spaces inside a word collapse to one: the word is "a b".
        case(
            "words-2m-space-word.json",
            OK,
            words_json(&format!("a{}b", " ".repeat(2_000_000)), 1),
        )
        .variants(CORRUPT, CORRUPT),
        // 100,000 boxes of 10 words each: 1 M words.
        case(
            "words-many-spaced-words.json",
            WORDS,
            words_json("a b c d e f g h i j", 100_000),
        )
        .variants(CORRUPT, CORRUPT),
        // Exactly limits.max_words.
        case("words-300k-words.json", OK, words_json("w", 300_000)).variants(CORRUPT, CORRUPT),
        // 1 M text operations, flate-compressed (35 MB of content, under the unpack budget):
        // pdfium's biggest legitimate load, about 1.3 GB.
        case(
            "pdf-1m-text-ops-flate.pdf",
            OK,
            pdf(&[(
                {
                    let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
                    e.write_all(&pdf_text_ops(1_000_000)).unwrap();
                    e.finish().unwrap()
                },
                Some("/FlateDecode"),
            )]),
        )
        .variants(CORRUPT, CORRUPT),
        case(
            "pdf-100k-text-ops.pdf",
            OK,
            pdf(&[(pdf_text_ops(100_000), None)]),
        )
        .variants(CORRUPT, CORRUPT),
        // Exactly limits.max_words.
        case("hocr-300k-words.hocr", OK, hocr(300_000)).variants(CORRUPT, CORRUPT),
        big_case("hocr-1m-words.hocr", WORDS, hocr(1_000_000)).variants(WORDS, CORRUPT),
        case(
            "hocr-nested-words.hocr",
            corrupt("nested over"),
            hocr_nested(100_000),
        )
        .variants(corrupt("nested over"), CORRUPT),
    ];
    // Truncated and garbage versions (with the same file size limit, so they reach a decoder).
    let mut extra = Vec::new();
    for c in &cases {
        let Some((truncated, garbage)) = c.variants else {
            continue;
        };
        let half = c.bytes[..c.bytes.len() / 2].to_vec();
        let mut garbage_bytes = c.bytes[..c.bytes.len().min(64)].to_vec();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        garbage_bytes.extend((0..64_000).map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        }));
        for (kind, bytes, expect) in [
            ("truncated", half, truncated),
            ("garbage", garbage_bytes, garbage),
        ] {
            extra.push(Case {
                big_file_limit: c.big_file_limit,
                ..case(&format!("{kind}-{}", c.name), expect, bytes)
            });
        }
    }
    let mut cases = cases;
    cases.extend(extra);
    cases
}
