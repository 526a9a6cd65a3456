//! Word 97-2003 (.doc): the FIB and the piece table (CLX in the table stream) give the main text
//! (8-bit "compressed" or UTF-16 pieces); paragraph properties from the PAPX FKPs tell table
//! paragraphs and row ends apart. Word 6/95 files without a piece table are read from fcMin..fcMac.

use super::{Builder, OfficeDoc};
use crate::error::{Error, Result};
use crate::preprocess::budget::{Budget, Resource};
use std::io::{Cursor, Read};

fn corrupt(m: impl Into<String>) -> Error {
    Error::CorruptFile(format!("damaged DOC: {}", m.into()))
}

fn u16_at(b: &[u8], o: usize) -> Result<u16> {
    b.get(o..o + 2)
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or_else(|| corrupt(format!("read past the end at {o}")))
}

fn u32_at(b: &[u8], o: usize) -> Result<u32> {
    b.get(o..o + 4)
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| corrupt(format!("read past the end at {o}")))
}

fn read_stream(cfb: &mut cfb::CompoundFile<Cursor<&[u8]>>, name: &str) -> Result<Vec<u8>> {
    let mut s = cfb
        .open_stream(name)
        .map_err(|e| corrupt(format!("stream {name}: {e}")))?;
    let mut out = Vec::new();
    s.read_to_end(&mut out)
        .map_err(|e| corrupt(format!("stream {name}: {e}")))?;
    Ok(out)
}

/// What the FIB tells us.
#[derive(Debug)]
struct Fib {
    n_fib: u16,
    encrypted: bool,
    table_1: bool,
    ccp_text: u32,
    fc_min: u32,
    fc_mac: u32,
    /// (fc, lcb) of the CLX, if the FIB is long enough.
    clx: Option<(u32, u32)>,
    /// (fc, lcb) of the PlcBtePapx.
    papx: Option<(u32, u32)>,
}

fn parse_fib(wd: &[u8]) -> Result<Fib> {
    if u16_at(wd, 0)? != 0xA5EC {
        return Err(corrupt("bad FIB signature"));
    }
    let n_fib = u16_at(wd, 2)?;
    let flags = u16_at(wd, 0x0A)?;
    let encrypted = flags & 0x0100 != 0 || flags & 0x8000 != 0;
    let table_1 = flags & 0x0200 != 0;
    let fc_min = u32_at(wd, 0x18)?;
    let fc_mac = u32_at(wd, 0x1C)?;
    let mut fib = Fib {
        n_fib,
        encrypted,
        table_1,
        ccp_text: 0,
        fc_min,
        fc_mac,
        clx: None,
        papx: None,
    };
    if encrypted || n_fib < 101 {
        return Ok(fib);
    }
    let csw = usize::from(u16_at(wd, 32)?);
    let lw = 34 + csw * 2;
    let cslw = usize::from(u16_at(wd, lw)?);
    fib.ccp_text = u32_at(wd, lw + 2 + 3 * 4)?;
    let fl = lw + 2 + cslw * 4;
    let cb = usize::from(u16_at(wd, fl)?);
    let pair = |i: usize| -> Result<Option<(u32, u32)>> {
        if i >= cb {
            return Ok(None);
        }
        let o = fl + 2 + i * 8;
        Ok(Some((u32_at(wd, o)?, u32_at(wd, o + 4)?)))
    };
    fib.clx = pair(33)?;
    fib.papx = pair(13)?;
    Ok(fib)
}

/// One piece of the piece table.
#[derive(Debug)]
struct Piece {
    cp0: u32,
    cp1: u32,
    fc: u32,
    compressed: bool,
}

fn parse_clx(clx: &[u8]) -> Result<Vec<Piece>> {
    let mut i = 0;
    while i < clx.len() {
        match clx[i] {
            1 => {
                let cb = usize::from(u16_at(clx, i + 1)?);
                i += 3 + cb;
            }
            2 => {
                let lcb = u32_at(clx, i + 1)? as usize;
                let plc = clx
                    .get(i + 5..i + 5 + lcb)
                    .ok_or_else(|| corrupt("piece table past the end"))?;
                if lcb < 4 {
                    return Err(corrupt("empty piece table"));
                }
                let n = (lcb - 4) / 12;
                let mut pieces = Vec::with_capacity(n);
                for k in 0..n {
                    let cp0 = u32_at(plc, k * 4)?;
                    let cp1 = u32_at(plc, k * 4 + 4)?;
                    let raw = u32_at(plc, (n + 1) * 4 + k * 8 + 2)?;
                    if cp1 < cp0 || pieces.last().is_some_and(|p: &Piece| p.cp1 > cp0) {
                        return Err(corrupt("piece table is not in order"));
                    }
                    let compressed = raw & 0x4000_0000 != 0;
                    let fc = raw & 0x3FFF_FFFF;
                    pieces.push(Piece {
                        cp0,
                        cp1,
                        fc: if compressed { fc / 2 } else { fc },
                        compressed,
                    });
                }
                return Ok(pieces);
            }
            other => return Err(corrupt(format!("unexpected CLX entry {other}"))),
        }
    }
    Err(corrupt("no piece table"))
}

/// Paragraph properties of a run of text (file offsets `fc0..fc1`).
#[derive(Debug, Clone, Copy)]
struct ParaRun {
    fc0: u32,
    fc1: u32,
    in_table: bool,
    ttp: bool,
}

/// Table flags from a grpprl of paragraph sprms.
fn table_flags(sprms: &[u8]) -> (bool, bool) {
    let (mut in_table, mut ttp) = (false, false);
    let mut i = 0;
    while i + 2 <= sprms.len() {
        let sprm = u16::from_le_bytes([sprms[i], sprms[i + 1]]);
        i += 2;
        let op = sprms.get(i).copied().unwrap_or(0);
        let size = match sprm >> 13 {
            0 | 1 => 1,
            2 | 4 | 5 => 2,
            3 => 4,
            7 => 3,
            _ => match sprm {
                0xD608 => {
                    1 + usize::from(u16::from_le_bytes([
                        op,
                        sprms.get(i + 1).copied().unwrap_or(0),
                    ]))
                }
                0xC615 if op == 255 => return (in_table, ttp),
                _ => 1 + usize::from(op),
            },
        };
        match sprm {
            0x2416 => in_table |= op != 0,
            0x2417 | 0x244C => ttp |= op != 0,
            0x6649 => in_table |= u32_at(sprms, i).unwrap_or(0) > 0,
            _ => {}
        }
        i += size;
    }
    (in_table, ttp)
}

fn parse_papx(wd: &[u8], table: &[u8], (fc, lcb): (u32, u32)) -> Result<Vec<ParaRun>> {
    let plc = table
        .get(fc as usize..(fc as usize).saturating_add(lcb as usize))
        .ok_or_else(|| corrupt("PlcBtePapx past the end"))?;
    if plc.len() < 12 {
        return Ok(Vec::new());
    }
    let n = (plc.len() - 4) / 8;
    let mut runs = Vec::new();
    for k in 0..n {
        let pn = (u32_at(plc, (n + 1) * 4 + k * 4)? & 0x003F_FFFF) as usize;
        let page = wd
            .get(pn * 512..pn * 512 + 512)
            .ok_or_else(|| corrupt("paragraph FKP past the end"))?;
        let crun = usize::from(page[511]);
        for r in 0..crun {
            let fc0 = u32_at(page, r * 4)?;
            let fc1 = u32_at(page, r * 4 + 4)?;
            let boff = usize::from(*page.get(4 * (crun + 1) + 13 * r).unwrap_or(&0)) * 2;
            let (in_table, ttp) = if boff == 0 {
                (false, false)
            } else {
                let cb = usize::from(*page.get(boff).unwrap_or(&0));
                let (start, len) = if cb != 0 {
                    (boff + 1, 2 * cb - 1)
                } else {
                    (boff + 2, 2 * usize::from(*page.get(boff + 1).unwrap_or(&0)))
                };
                let grp = page.get(start..(start + len).min(511)).unwrap_or(&[]);
                table_flags(grp.get(2..).unwrap_or(&[]))
            };
            runs.push(ParaRun {
                fc0,
                fc1,
                in_table,
                ttp,
            });
        }
    }
    runs.sort_by_key(|r| r.fc0);
    Ok(runs)
}

/// What the text budget's errors say.
const READING: &str = "reading DOC text";

/// Parses a .doc file, charging `budget` (returned with what is left of it). The piece table
/// may point many times at the same text: the characters it describes are counted against the
/// text budget before any is collected.
pub(super) fn parse(bytes: &[u8], budget: Budget) -> Result<(OfficeDoc, Budget)> {
    let mut cfb = cfb::CompoundFile::open(Cursor::new(bytes))
        .map_err(|e| corrupt(format!("compound file: {e}")))?;
    let wd = read_stream(&mut cfb, "/WordDocument")?;
    let fib = parse_fib(&wd)?;
    if fib.encrypted {
        return Err(Error::EncryptedFile("password-protected DOC".into()));
    }
    // (code unit, file offset) of every character of the main text.
    let mut chars: Vec<(u16, u32)> = Vec::new();
    let room = budget.remaining(Resource::TextChars);
    let fits = |have: usize, more: u64| -> Result<()> {
        if (have as u64).saturating_add(more) > room {
            return Err(budget.exceeded(Resource::TextChars, READING));
        }
        Ok(())
    };
    let mut runs = Vec::new();
    match fib.clx {
        Some((fc, lcb)) if fib.n_fib >= 193 && lcb > 0 => {
            let name = if fib.table_1 { "/1Table" } else { "/0Table" };
            let table = read_stream(&mut cfb, name)?;
            let clx = table
                .get(fc as usize..(fc as usize).saturating_add(lcb as usize))
                .ok_or_else(|| corrupt("CLX past the end of the table stream"))?;
            for p in parse_clx(clx)? {
                let end = p.cp1.min(fib.ccp_text);
                fits(chars.len(), u64::from(end.saturating_sub(p.cp0)))?;
                for cp in p.cp0..end.max(p.cp0) {
                    let k = cp - p.cp0;
                    if p.compressed {
                        let o = p.fc.saturating_add(k);
                        let b = *wd
                            .get(o as usize)
                            .ok_or_else(|| corrupt("text past the end"))?;
                        chars.push((cp1252(b), o));
                    } else {
                        let o = p.fc.saturating_add(2 * k);
                        chars.push((u16_at(&wd, o as usize)?, o));
                    }
                }
            }
            if let Some(px) = fib.papx.filter(|p| p.1 > 0) {
                // Formatting is optional for reading text: a damaged PAPX falls back to marks.
                runs = parse_papx(&wd, &table, px).unwrap_or_default();
            }
        }
        _ => {
            // Word 6/95 (or a FIB without a piece table): 8-bit text from fcMin to fcMac.
            let text = wd
                .get(fib.fc_min as usize..fib.fc_mac as usize)
                .ok_or_else(|| corrupt("text range past the end"))?;
            fits(0, text.len() as u64)?;
            for (k, &b) in text.iter().enumerate() {
                chars.push((cp1252(b), fib.fc_min + k as u32));
            }
        }
    }
    build(&chars, &runs, Builder::new(budget, "DOC"))
}

fn cp1252(b: u8) -> u16 {
    let bytes = [b];
    let (s, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&bytes);
    s.chars().next().map_or(0xFFFD, |c| c as u16)
}

fn build(chars: &[(u16, u32)], runs: &[ParaRun], mut b: Builder) -> Result<(OfficeDoc, Budget)> {
    let lookup = |fc: u32| -> Option<ParaRun> {
        let i = runs.partition_point(|r| r.fc1 <= fc);
        runs.get(i).filter(|r| r.fc0 <= fc).copied()
    };
    // Without formatting: a paragraph is in a table when it ends with a cell mark.
    let mut ends_in_cell = vec![false; chars.len()];
    let mut next_is_cell = false;
    for (i, &(c, _)) in chars.iter().enumerate().rev() {
        match c {
            0x07 => next_is_cell = true,
            0x0D => next_is_cell = false,
            _ => {}
        }
        ends_in_cell[i] = next_is_cell;
    }
    let mut fields: Vec<bool> = Vec::new(); // true while in a field's code part
    let mut in_code = 0usize; // fields in their code part (text hidden while any is)
    let mut high: Option<u16> = None;
    let mut prev = 0u16;
    for (i, &(c, fc)) in chars.iter().enumerate() {
        b.check()?;
        let props = lookup(fc);
        let in_table = props.map_or(ends_in_cell[i], |p| p.in_table || p.ttp);
        let hidden = in_code > 0;
        match c {
            0x13 => {
                fields.push(true);
                in_code += 1;
            }
            0x14 => {
                if let Some(top) = fields.last_mut()
                    && std::mem::replace(top, false)
                {
                    in_code -= 1;
                }
            }
            0x15 => {
                if fields.pop() == Some(true) {
                    in_code -= 1;
                }
            }
            _ if hidden => {}
            0x07 => {
                let row_end = props.map_or(prev == 0x07, |p| p.ttp);
                if row_end {
                    b.row_end();
                } else {
                    b.cell_end();
                }
            }
            0x0D | 0x0B => {
                if in_table {
                    b.cell_space();
                } else {
                    b.line_end();
                }
            }
            0x0C => {
                if in_table {
                    b.cell_space();
                } else {
                    b.page_break();
                }
            }
            0x09 => {
                if in_table {
                    b.cell_space();
                } else {
                    b.tab();
                }
            }
            0x1E => push(&mut b, in_table, "-"),
            0xD800..=0xDBFF => high = Some(c),
            0xDC00..=0xDFFF => {
                if let Some(h) = high.take() {
                    let s: String = char::decode_utf16([h, c]).filter_map(|r| r.ok()).collect();
                    push(&mut b, in_table, &s);
                }
            }
            c if c < 0x20 => {}
            c => {
                if let Some(ch) = char::from_u32(u32::from(c)) {
                    let mut buf = [0u8; 4];
                    push(&mut b, in_table, ch.encode_utf8(&mut buf));
                }
            }
        }
        prev = c;
    }
    b.finish()
}

fn push(b: &mut Builder, in_table: bool, s: &str) {
    if in_table {
        b.cell_text(s);
    } else {
        b.text(s);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::Block;
    use super::*;
    use crate::config::Limits;
    use std::io::Write;

    fn parse(bytes: &[u8]) -> Result<OfficeDoc> {
        super::parse(bytes, Budget::new(&Limits::default())).map(|(d, _)| d)
    }

    /// A Word 97 file whose `pieces` pieces all point at the same `len` 8-bit characters.
    fn repeated_pieces(pieces: u32, len: u32) -> Vec<u8> {
        let one = make_doc(
            &[(&"ab\r".repeat(len as usize / 3 + 1)[..len as usize], true)],
            None,
            0,
        );
        let mut cfb = cfb::CompoundFile::open(Cursor::new(one.as_slice())).unwrap();
        let wd = read_stream(&mut cfb, "/WordDocument").unwrap();
        let table = read_stream(&mut cfb, "/0Table").unwrap();
        let fib = parse_fib(&wd).unwrap();
        let (clx_fc, _) = fib.clx.unwrap();
        let clx = &table[clx_fc as usize..];
        // The one piece's descriptor (after the Prc and the two CPs).
        let pcd: [u8; 8] = clx[5 + 5 + 8..5 + 5 + 16].try_into().unwrap();
        let mut plc = Vec::new();
        for k in 0..=pieces {
            plc.extend_from_slice(&(k * len).to_le_bytes());
        }
        for _ in 0..pieces {
            plc.extend_from_slice(&pcd);
        }
        let mut new_table = vec![2u8];
        new_table.extend_from_slice(&(plc.len() as u32).to_le_bytes());
        new_table.extend_from_slice(&plc);
        let mut wd = wd;
        wd[76..80].copy_from_slice(&(pieces * len).to_le_bytes());
        wd[154 + 33 * 8..154 + 33 * 8 + 4].copy_from_slice(&0u32.to_le_bytes());
        wd[154 + 33 * 8 + 4..154 + 33 * 8 + 8]
            .copy_from_slice(&(new_table.len() as u32).to_le_bytes());
        compound(&wd, &new_table)
    }

    #[test]
    fn a_piece_table_repeating_one_text_stops_at_the_text_budget() {
        // 100,000 pieces x 40,000 characters: 4 G characters described by a 1.2 MB table.
        let doc = repeated_pieces(100_000, 40_000);
        assert!(doc.len() < 2_000_000);
        let e = parse(&doc).unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::FileTooLarge, "{e}");
        assert_eq!(
            e.to_string(),
            "limits.max_text_chars (2000000) exceeded while reading DOC text"
        );
        // Repeats within the budget are read.
        let d = parse(&repeated_pieces(3, 30)).unwrap();
        let lines: usize = d.pages[0].len();
        assert!(lines >= 3 * 9, "{lines}");
        // A smaller budget stops a smaller document.
        let tight = Budget::new(&Limits {
            max_text_chars: 50,
            ..Limits::default()
        });
        assert!(super::parse(&repeated_pieces(3, 30), tight).is_err());
    }

    #[test]
    fn time_grows_linearly_with_text_and_nested_fields() {
        let docs = |n: usize| {
            // Paragraphs, and field starts nested n deep (each char looked at the whole stack).
            let text = format!("{}{}x\r", "Item 12.50\r".repeat(n), "\x13 PAGE ".repeat(n));
            make_doc(&[(&text, true)], None, 0)
        };
        let (small, big) = (docs(2_000), docs(16_000));
        crate::preprocess::test_support::assert_near_linear("DOC", &|k| {
            parse(if k == 1 { &small } else { &big }).unwrap();
        });
    }

    /// Paragraph kinds for the FKP of a test document.
    #[derive(Clone, Copy)]
    pub enum Para {
        Body,
        Cell,
        RowEnd,
    }

    /// Builds a minimal Word 97 file: `pieces` are (text, compressed); paragraphs (split after
    /// each `\r` / `\x07`) get the given kinds when `paras` is given.
    pub fn make_doc(pieces: &[(&str, bool)], paras: Option<&[Para]>, flags: u16) -> Vec<u8> {
        let mut wd = vec![0u8; 1024];
        wd[0..2].copy_from_slice(&0xA5ECu16.to_le_bytes());
        wd[2..4].copy_from_slice(&193u16.to_le_bytes());
        wd[0x0A..0x0C].copy_from_slice(&flags.to_le_bytes());
        wd[32..34].copy_from_slice(&14u16.to_le_bytes());
        wd[62..64].copy_from_slice(&22u16.to_le_bytes());
        wd[152..154].copy_from_slice(&93u16.to_le_bytes());
        // Text from offset 1024.
        let mut cps = vec![0u32];
        let mut pcds = Vec::new();
        let mut char_fcs = Vec::new();
        for (text, compressed) in pieces {
            let fc = wd.len() as u32;
            let mut n = 0;
            for ch in text.chars() {
                char_fcs.push((ch, wd.len() as u32));
                if *compressed {
                    wd.push(ch as u8);
                } else {
                    wd.extend_from_slice(&(ch as u16).to_le_bytes());
                }
                n += 1;
            }
            cps.push(cps.last().unwrap() + n);
            let raw = if *compressed {
                (fc * 2) | 0x4000_0000
            } else {
                fc
            };
            pcds.push(raw);
        }
        let ccp = *cps.last().unwrap();
        wd[76..80].copy_from_slice(&ccp.to_le_bytes());
        let mut table = vec![0u8; 16];
        // PAPX FKP in its own 512-byte page.
        if let Some(kinds) = paras {
            while !wd.len().is_multiple_of(512) {
                wd.push(0);
            }
            let pn = (wd.len() / 512) as u32;
            let mut page = vec![0u8; 512];
            let mut bounds = vec![char_fcs[0].1];
            for (i, &(ch, fc)) in char_fcs.iter().enumerate() {
                if ch == '\r' || ch == '\x07' {
                    let next = char_fcs.get(i + 1).map_or(fc + 2, |x| x.1);
                    bounds.push(next);
                }
            }
            let crun = bounds.len() - 1;
            assert_eq!(crun, kinds.len());
            for (i, fc) in bounds.iter().enumerate() {
                page[i * 4..i * 4 + 4].copy_from_slice(&fc.to_le_bytes());
            }
            // PAPX bodies from offset 400 upwards.
            let cell: &[u8] = &[3, 0, 0, 0x16, 0x24, 1];
            let row: &[u8] = &[0, 4, 0, 0, 0x16, 0x24, 1, 0x17, 0x24, 1];
            page[400..400 + cell.len()].copy_from_slice(cell);
            page[420..420 + row.len()].copy_from_slice(row);
            for (r, k) in kinds.iter().enumerate() {
                page[4 * (crun + 1) + 13 * r] = match k {
                    Para::Body => 0,
                    Para::Cell => 200,
                    Para::RowEnd => 210,
                };
            }
            page[511] = crun as u8;
            wd.extend_from_slice(&page);
            let plc_fc = table.len() as u32;
            table.extend_from_slice(&bounds[0].to_le_bytes());
            table.extend_from_slice(&bounds[crun].to_le_bytes());
            table.extend_from_slice(&pn.to_le_bytes());
            wd[154 + 13 * 8..154 + 13 * 8 + 4].copy_from_slice(&plc_fc.to_le_bytes());
            wd[154 + 13 * 8 + 4..154 + 13 * 8 + 8].copy_from_slice(&12u32.to_le_bytes());
        }
        let clx_fc = table.len() as u32;
        table.extend_from_slice(&[1, 2, 0, 0xAA, 0xBB]); // a Prc to skip
        let lcb = (cps.len() * 4 + pcds.len() * 8) as u32;
        table.push(2);
        table.extend_from_slice(&lcb.to_le_bytes());
        for cp in &cps {
            table.extend_from_slice(&cp.to_le_bytes());
        }
        for raw in &pcds {
            table.extend_from_slice(&[0, 0]);
            table.extend_from_slice(&raw.to_le_bytes());
            table.extend_from_slice(&[0, 0]);
        }
        let clx_len = table.len() as u32 - clx_fc;
        wd[154 + 33 * 8..154 + 33 * 8 + 4].copy_from_slice(&clx_fc.to_le_bytes());
        wd[154 + 33 * 8 + 4..154 + 33 * 8 + 8].copy_from_slice(&clx_len.to_le_bytes());
        compound(&wd, &table)
    }

    /// A Word 97 compound file of a WordDocument stream and its 0Table.
    fn compound(word_document: &[u8], table: &[u8]) -> Vec<u8> {
        let mut c = cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
        c.create_stream("/WordDocument")
            .unwrap()
            .write_all(word_document)
            .unwrap();
        c.create_stream("/0Table")
            .unwrap()
            .write_all(table)
            .unwrap();
        c.flush().unwrap();
        c.into_inner().into_inner()
    }

    #[test]
    fn pieces_fields_and_page_breaks() {
        let doc = make_doc(
            &[
                ("Invoice\tNo 5\r\x13 PAGE \x141\x15 caf\u{e9}\x0c", true),
                ("Счёт №7\x0bитого\r", false),
            ],
            None,
            0,
        );
        let d = parse(&doc).unwrap();
        assert_eq!(d.page_count(), 2);
        assert_eq!(
            d.pages[0],
            vec![
                Block::Line(vec!["Invoice".into(), "No 5".into()]),
                Block::Line(vec!["1 café".into()]),
            ]
        );
        assert_eq!(
            d.pages[1],
            vec![
                Block::Line(vec!["Счёт №7".into()]),
                Block::Line(vec!["итого".into()])
            ]
        );
    }

    #[test]
    fn tables_from_paragraph_properties() {
        let text = "Head\rA\x07\x07\x07B\x07\x07\x07Tail\r";
        let kinds = [
            Para::Body,
            Para::Cell,
            Para::Cell,
            Para::RowEnd,
            Para::Cell,
            Para::Cell,
            Para::RowEnd,
            Para::Body,
        ];
        let d = parse(&make_doc(&[(text, false)], Some(&kinds), 0)).unwrap();
        assert_eq!(
            d.pages[0],
            vec![
                Block::Line(vec!["Head".into()]),
                Block::Table(vec![
                    vec!["A".into(), "".into()],
                    vec!["B".into(), "".into()]
                ]),
                Block::Line(vec!["Tail".into()]),
            ]
        );
        // Without formatting the marks alone still give rows.
        let d = parse(&make_doc(&[("X\x07Y\x07\x07Z\r", true)], None, 0)).unwrap();
        assert_eq!(
            d.pages[0],
            vec![
                Block::Table(vec![vec!["X".into(), "Y".into()]]),
                Block::Line(vec!["Z".into()]),
            ]
        );
    }

    #[test]
    fn encrypted_and_damaged() {
        let enc = make_doc(&[("secret\r", true)], None, 0x0100);
        assert_eq!(
            parse(&enc).unwrap_err().code(),
            crate::error::ErrorCode::EncryptedFile
        );
        let mut c = cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
        c.create_stream("/WordDocument")
            .unwrap()
            .write_all(&[0xEC, 0xA5, 0xC1, 0])
            .unwrap();
        c.flush().unwrap();
        let bad = c.into_inner().into_inner();
        assert_eq!(
            parse(&bad).unwrap_err().code(),
            crate::error::ErrorCode::CorruptFile
        );
    }
}
