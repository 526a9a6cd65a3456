//! XLSX / XLS through calamine: each non-empty (visible) sheet is a page, each row a line, cells
//! at column positions.

use super::{Block, OfficeDoc};
use crate::error::{Error, Result};
use crate::preprocess::budget::{Budget, Resource};
use crate::preprocess::{FileType, collapse_spaces};
use calamine::{Data, Reader, SheetType, SheetVisible, Xls, XlsError, Xlsx, XlsxError};
use std::io::Cursor;

/// A cell as text: numbers without float noise, dates as `YYYY-MM-DD`.
pub(super) fn cell_text(d: &Data) -> String {
    match d {
        Data::Empty => String::new(),
        Data::String(s) => collapse_spaces(s),
        Data::Int(i) => i.to_string(),
        Data::Float(f) => format_number(*f),
        Data::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Data::DateTime(dt) if dt.is_datetime() => {
            let (y, mo, d, h, mi, s, _) = dt.to_ymd_hms_milli();
            if dt.as_f64() < 1.0 {
                format!("{h:02}:{mi:02}:{s:02}")
            } else if (h, mi, s) == (0, 0, 0) {
                format!("{y:04}-{mo:02}-{d:02}")
            } else {
                format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}")
            }
        }
        Data::DateTime(dt) => format_number(dt.as_f64()),
        Data::DateTimeIso(s) => s.strip_suffix("T00:00:00").unwrap_or(s).to_string(),
        Data::DurationIso(s) => s.clone(),
        Data::Error(e) => e.to_string(),
    }
}

/// Shortest decimal form with at most 10 fraction digits (`0.1 + 0.2` -> `0.3`).
pub(super) fn format_number(f: f64) -> String {
    if !f.is_finite() {
        return f.to_string();
    }
    if f.fract() == 0.0 && f.abs() < 1e15 {
        return format!("{}", f as i64);
    }
    let s = format!("{f:.10}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

fn sheet_err(what: &str, password: bool, msg: String) -> Error {
    if password {
        Error::EncryptedFile(format!("{what} workbook is password protected"))
    } else {
        Error::CorruptFile(format!("damaged {what} workbook: {msg}"))
    }
}

/// Longest run of empty rows kept (the rest carries no layout information).
const MAX_BLANK_ROWS: usize = 2;

/// What the budget's errors say.
const READING: &str = "reading spreadsheet cells";

/// Turns sparse `(row, col, text)` cells into dense rows: empty columns dropped, long runs of
/// empty rows shortened. Never allocates by the sheet's claimed extent: every row and every
/// dense cell (the empty ones that pad a row to its columns included) is charged to the budget.
fn rows_from_cells(
    mut cells: Vec<(u32, u32, String)>,
    budget: &mut Budget,
) -> Result<Vec<Vec<String>>> {
    cells.retain(|c| !c.2.is_empty());
    if cells.is_empty() {
        return Ok(Vec::new());
    }
    cells.sort_by_key(|c| (c.0, c.1));
    let mut cols: Vec<u32> = cells.iter().map(|c| c.1).collect();
    cols.sort_unstable();
    cols.dedup();
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut last_row: Option<u32> = None;
    for (r, c, text) in cells {
        if last_row != Some(r) {
            let mut new_rows = 1;
            if let Some(lr) = last_row {
                let gap = (r - lr - 1) as usize;
                new_rows += gap.min(MAX_BLANK_ROWS);
                rows.extend(std::iter::repeat_with(Vec::new).take(gap.min(MAX_BLANK_ROWS)));
            }
            budget.charge(Resource::SheetRows, new_rows as u64, READING)?;
            rows.push(Vec::new());
            last_row = Some(r);
        }
        let ci = cols.partition_point(|&x| x < c);
        if let Some(row) = rows.last_mut() {
            if row.len() <= ci {
                budget.charge(Resource::SheetCells, (ci + 1 - row.len()) as u64, READING)?;
                row.resize(ci + 1, String::new());
            }
            row[ci] = text;
        }
    }
    Ok(rows)
}

/// Sheet names with (visible, worksheet) flags.
fn sheet_list<R: Reader<Cursor<Vec<u8>>>>(wb: &R) -> Vec<(String, bool, bool)> {
    wb.sheets_metadata()
        .iter()
        .map(|s| {
            (
                s.name.clone(),
                s.visible == SheetVisible::Visible,
                s.typ == SheetType::WorkSheet,
            )
        })
        .collect()
}

/// Pages from per-sheet rows; hidden sheets (lookup tables) only count when nothing visible has
/// content.
fn pages(sheets: Vec<(bool, Vec<Vec<String>>)>) -> OfficeDoc {
    let mut visible = Vec::new();
    let mut hidden = Vec::new();
    for (is_visible, rows) in sheets {
        if rows.is_empty() {
            continue;
        }
        let page = vec![Block::Table(rows)];
        if is_visible {
            &mut visible
        } else {
            &mut hidden
        }
        .push(page);
    }
    OfficeDoc {
        pages: if visible.is_empty() { hidden } else { visible },
    }
}

/// The non-empty cells of a workbook as they stream in, bounded before any row is built (the
/// dense rows are charged to the budget's cells when built).
struct Streamed {
    cells: u64,
    max: u64,
}

impl Streamed {
    fn new(budget: &Budget) -> Self {
        Streamed {
            cells: 0,
            max: budget.remaining(Resource::SheetCells),
        }
    }

    /// Reads one sheet's `(row, col, text)` cells into dense rows, counting each non-empty cell
    /// and charging its text as it streams in.
    fn sheet(
        &mut self,
        cells: impl Iterator<Item = Result<(u32, u32, String)>>,
        budget: &mut Budget,
    ) -> Result<Vec<Vec<String>>> {
        let mut kept = Vec::new();
        for cell in cells {
            let (r, c, text) = cell?;
            if text.is_empty() {
                continue;
            }
            self.cells += 1;
            if self.cells > self.max {
                return Err(budget.exceeded(Resource::SheetCells, READING));
            }
            budget.charge(Resource::TextChars, text.chars().count() as u64, READING)?;
            kept.push((r, c, text));
        }
        rows_from_cells(kept, budget)
    }
}

fn read_xlsx(
    wb: &mut Xlsx<Cursor<Vec<u8>>>,
    map: impl Fn(XlsxError) -> Error,
    budget: &mut Budget,
) -> Result<OfficeDoc> {
    let mut out = Vec::new();
    let mut streamed = Streamed::new(budget);
    for (name, is_visible, is_worksheet) in sheet_list(wb) {
        let mut reader = match wb.worksheet_cells_reader(&name) {
            Ok(r) => r,
            Err(_) if !is_worksheet => continue,
            Err(e) => return Err(map(e)),
        };
        let cells = std::iter::from_fn(|| match reader.next_cell() {
            Ok(Some(cell)) => {
                let (r, c) = cell.get_position();
                Some(Ok((r, c, cell_text(&Data::from(cell.get_value().clone())))))
            }
            Ok(None) => None,
            Err(e) => Some(Err(map(e))),
        });
        out.push((is_visible, streamed.sheet(cells, budget)?));
    }
    Ok(pages(out))
}

fn read_xls(
    wb: &mut Xls<Cursor<Vec<u8>>>,
    map: impl Fn(XlsError) -> Error,
    budget: &mut Budget,
) -> Result<OfficeDoc> {
    let mut out = Vec::new();
    let mut streamed = Streamed::new(budget);
    for (name, is_visible, is_worksheet) in sheet_list(wb) {
        let range = match wb.worksheet_range(&name) {
            Ok(r) => r,
            Err(_) if !is_worksheet => continue,
            Err(e) => return Err(map(e)),
        };
        let cells = range
            .used_cells()
            .map(|(r, c, v)| Ok((r as u32, c as u32, cell_text(v))));
        out.push((is_visible, streamed.sheet(cells, budget)?));
    }
    Ok(pages(out))
}

/// BIFF records that calamine reads as one cell, its row and column in their first four bytes
/// (FORMULA, RSTRING, LABELSST, NUMBER, LABEL, BOOLERR, RK; blank cells it does not read).
const BIFF_CELLS: &[u16] = &[0x0006, 0x00D6, 0x00FD, 0x0203, 0x0204, 0x0205, 0x027E];
/// MULRK: a row, a first column, the cells, the last column in its last two bytes.
const BIFF_MULRK: u16 = 0x00BD;
/// BOF: a substream starts (a sheet, or a chart nested in one).
const BIFF_BOF: u16 = 0x0809;
/// EOF: a substream ends.
const BIFF_EOF: u16 = 0x000A;
/// CONTINUE: more data of the record before it.
const BIFF_CONTINUE: u16 = 0x003C;
/// BOUNDSHEET: a sheet, its BOF's position in the workbook stream in its first four bytes.
const BIFF_BOUNDSHEET: u16 = 0x0085;
/// DIMENSIONS: the used range a sheet declares.
const BIFF_DIMENSIONS: u16 = 0x0200;

/// The little-endian `u16` at `i` of `d`, if `d` holds it.
fn le_u16(d: &[u8], i: usize) -> Option<u16> {
    d.get(i..i.checked_add(2)?)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
}

/// The little-endian `u32` at `i` of `d`, if `d` holds it.
fn le_u32(d: &[u8], i: usize) -> Option<u32> {
    d.get(i..i.checked_add(4)?)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The records of a BIFF stream from `pos` as calamine reads them (type and data; CONTINUE
/// records belong to the record before them), up to the first one that runs past the stream
/// (calamine stops there with an error).
fn biff_records(stream: &[u8], mut pos: usize) -> impl Iterator<Item = (u16, &[u8])> {
    std::iter::from_fn(move || {
        loop {
            let typ = le_u16(stream, pos)?;
            let len = usize::from(le_u16(stream, pos + 2)?);
            let data = stream.get(pos + 4..pos + 4 + len)?;
            pos += 4 + len;
            if typ != BIFF_CONTINUE {
                return Some((typ, data));
            }
        }
    })
}

/// The rows and columns of a DIMENSIONS record's range as calamine reads it (first row, row
/// past the last, first column, column past the last; a first column past 255 or past the end
/// taken as 0), or `None` for a record of a length calamine does not read, or, as `Some(None)`,
/// a range that ends before it starts: calamine's `u32` arithmetic then wraps (in a release
/// build) to some 2^32 rows or columns.
fn declared_range(data: &[u8]) -> Option<Option<(u64, u64)>> {
    let short = |i: usize| le_u16(data, i).map(u32::from);
    let (first_row, rows_end, mut first_col, cols_end) = match data.len() {
        10 => (short(0)?, short(2)?, short(4)?, short(6)?),
        14 | 16 => (le_u32(data, 0)?, le_u32(data, 4)?, short(8)?, short(10)?),
        _ => return None,
    };
    if first_col > 0xFF || cols_end < first_col {
        first_col = 0;
    }
    if rows_end == 0 || cols_end == 0 {
        return Some(Some((1, 1)));
    }
    let span = |first: u32, end: u32| (end > first).then(|| u64::from(end - first));
    Some(span(first_row, rows_end).zip(span(first_col, cols_end)))
}

/// Refuses an XLS workbook one of whose sheets calamine would lay out over more cells than the
/// cell budget, before calamine reads it: calamine lays a sheet's cells out over their whole
/// extent (rows times columns), so two cells at opposite corners of the 65,536 x 65,536 grid
/// made it allocate about 136 GB and abort the process, and it reserves room for the range a
/// sheet's DIMENSIONS record declares, so a declared 436 million rows asked for 35 GB and aborted
/// too (all found by the `sheet` fuzz target). The sheets are read where
/// calamine reads them: from the positions the workbook's BOUNDSHEET records give, each up to its
/// EOF, charts nested in it skipped, so cells that calamine puts in one sheet are counted
/// together. A declared range past the budget is FILE_TOO_LARGE, one that ends before it starts
/// CORRUPT_FILE, and so is a compound file whose workbook stream cannot be read whole (calamine's
/// own, more lenient reader would read it unchecked). One without a workbook stream is left to
/// calamine's own errors.
fn xls_extent_check(bytes: &[u8], budget: &Budget) -> Result<()> {
    use std::io::Read;
    // calamine reads compound files with a reader of its own, more lenient than `cfb`: a file
    // whose workbook stream cannot be read here whole is refused, not handed to it unchecked.
    let damaged = |why: &str| Error::CorruptFile(format!("damaged XLS workbook: {why}"));
    let mut cf = cfb::CompoundFile::open(Cursor::new(bytes))
        .map_err(|e| damaged(&format!("its compound file cannot be read ({e})")))?;
    let Some(name) = ["Workbook", "Book"].into_iter().find(|n| cf.is_stream(n)) else {
        return Ok(());
    };
    let mut stream = Vec::new();
    cf.open_stream(name)
        .and_then(|s| s.take(bytes.len() as u64 * 2).read_to_end(&mut stream))
        .map_err(|e| damaged(&format!("its workbook stream cannot be read ({e})")))?;
    let max = budget.remaining(Resource::SheetCells);
    let sheets: Vec<usize> = biff_records(&stream, 0)
        .take_while(|(typ, _)| *typ != BIFF_EOF)
        .filter(|(typ, _)| *typ == BIFF_BOUNDSHEET)
        .filter_map(|(_, d)| le_u32(d, 0))
        .map(|p| p as usize)
        .collect();
    for pos in sheets {
        // (min row, max row, min col, max col) of the sheet's cells.
        let mut extent: Option<(u16, u16, u16, u16)> = None;
        let mut cell = |row: u16, first: u16, last: u16| {
            let (r0, r1, c0, c1) = extent.unwrap_or((row, row, first, last));
            extent = Some((
                r0.min(row),
                r1.max(row),
                c0.min(first),
                c1.max(last.max(first)),
            ));
        };
        let (mut seen_bof, mut nested) = (false, 0usize);
        for (typ, data) in biff_records(&stream, pos) {
            if nested > 0 {
                match typ {
                    BIFF_BOF => nested += 1,
                    BIFF_EOF => nested -= 1,
                    _ => {}
                }
                continue;
            }
            match typ {
                BIFF_BOF if seen_bof => nested += 1,
                BIFF_BOF => seen_bof = true,
                BIFF_EOF => break,
                BIFF_DIMENSIONS => match declared_range(data) {
                    Some(None) => {
                        return Err(Error::CorruptFile(
                            "damaged XLS workbook: a sheet's used range ends before it starts"
                                .into(),
                        ));
                    }
                    Some(Some((rows, cols))) if rows * cols > max => {
                        return Err(budget.exceeded(Resource::SheetCells, READING));
                    }
                    _ => {}
                },
                BIFF_MULRK => {
                    if let (Some(row), Some(first), Some(last)) = (
                        le_u16(data, 0),
                        le_u16(data, 2),
                        data.len().checked_sub(2).and_then(|i| le_u16(data, i)),
                    ) {
                        cell(row, first, last);
                    }
                }
                t if BIFF_CELLS.contains(&t) => {
                    if let (Some(row), Some(col)) = (le_u16(data, 0), le_u16(data, 2)) {
                        cell(row, col, col);
                    }
                }
                _ => {}
            }
        }
        let too_big = extent.is_some_and(|(r0, r1, c0, c1)| {
            (u64::from(r1 - r0) + 1) * (u64::from(c1 - c0) + 1) > max
        });
        if too_big {
            return Err(budget.exceeded(Resource::SheetCells, READING));
        }
    }
    Ok(())
}

/// Runs one calamine read. calamine's readers panic on some damaged files (slice bounds in XLS
/// records, an overflowing cell reference in XLSX) instead of answering an error; such a file is
/// damaged, not an engine bug: CORRUPT_FILE.
fn unless_it_panics(what: &str, read: impl FnOnce() -> Result<OfficeDoc>) -> Result<OfficeDoc> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)).unwrap_or_else(|_| {
        Err(Error::CorruptFile(format!(
            "damaged {what} workbook: its records or cell references are out of range"
        )))
    })
}

/// Parses an XLSX or XLS workbook, charging `budget` (returned with what is left of it).
pub(super) fn parse(bytes: &[u8], ft: FileType, mut budget: Budget) -> Result<(OfficeDoc, Budget)> {
    let cur = Cursor::new(bytes.to_vec());
    let doc = match ft {
        FileType::Xlsx => unless_it_panics("XLSX", || {
            let map = |e: XlsxError| {
                let pw = matches!(e, XlsxError::Password);
                sheet_err("XLSX", pw, e.to_string())
            };
            let mut wb: Xlsx<_> = Xlsx::new(cur).map_err(map)?;
            read_xlsx(&mut wb, map, &mut budget)
        })?,
        FileType::Xls => {
            xls_extent_check(bytes, &budget)?;
            unless_it_panics("XLS", || {
                let map = |e: XlsError| {
                    let pw = matches!(e, XlsError::Password);
                    sheet_err("XLS", pw, e.to_string())
                };
                let mut wb: Xls<_> = Xls::new(cur).map_err(map)?;
                read_xls(&mut wb, map, &mut budget)
            })?
        }
        other => return Err(Error::Internal(format!("{other:?} is not a spreadsheet"))),
    };
    Ok((doc, budget))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Limits;
    use crate::preprocess::test_support::zip;

    fn parse(bytes: &[u8], ft: FileType) -> Result<OfficeDoc> {
        super::parse(bytes, ft, Budget::new(&Limits::default())).map(|(d, _)| d)
    }

    fn rows_from_cells(cells: Vec<(u32, u32, String)>) -> Vec<Vec<String>> {
        super::rows_from_cells(cells, &mut Budget::new(&Limits::default())).unwrap()
    }

    #[test]
    fn numbers_without_noise() {
        assert_eq!(format_number(0.1 + 0.2), "0.3");
        assert_eq!(format_number(1500.0), "1500");
        assert_eq!(format_number(-12.5), "-12.5");
        assert_eq!(format_number(1234.56), "1234.56");
        assert_eq!(format_number(-0.00000000001), "0");
        assert_eq!(cell_text(&Data::String(" a \n b ".into())), "a b");
        assert_eq!(cell_text(&Data::Bool(true)), "TRUE");
        let d = calamine::ExcelDateTime::new(45306.0, calamine::ExcelDateTimeType::DateTime, false);
        assert_eq!(cell_text(&Data::DateTime(d)), "2024-01-15");
        let d = calamine::ExcelDateTime::new(45306.5, calamine::ExcelDateTimeType::DateTime, false);
        assert_eq!(cell_text(&Data::DateTime(d)), "2024-01-15 12:00");
        assert_eq!(
            cell_text(&Data::DateTimeIso("2024-03-01T00:00:00".into())),
            "2024-03-01"
        );
    }

    /// A minimal XLSX: two sheets with data, one empty.
    pub(crate) fn xlsx() -> Vec<u8> {
        let ct = br#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet3.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>"#;
        let rels = br#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;
        let wb = br#"<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Invoice" sheetId="1" r:id="rId1"/><sheet name="Empty" sheetId="2" r:id="rId2"/><sheet name="Notes" sheetId="3" r:id="rId3"/></sheets></workbook>"#;
        let wb_rels = br#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet3.xml"/><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#;
        let styles = br#"<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>"#;
        let s1 = br#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>
<row r="1"><c r="A1" t="inlineStr"><is><t>Invoice INV-7 from ACME Trading GmbH</t></is></c></row>
<row r="3"><c r="A3" t="inlineStr"><is><t>Item</t></is></c><c r="B3" t="inlineStr"><is><t>Qty</t></is></c><c r="C3" t="inlineStr"><is><t>Price</t></is></c></row>
<row r="4"><c r="A4" t="inlineStr"><is><t>Blue pen</t></is></c><c r="B4"><v>2</v></c><c r="C4"><v>0.30000000000000004</v></c></row>
<row r="5"><c r="A5" t="inlineStr"><is><t>Date</t></is></c><c r="B5" s="1"><v>45306</v></c></row>
</sheetData></worksheet>"#;
        let s2 = br#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>"#;
        let s3 = br#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="2"><c r="B2" t="inlineStr"><is><t>Thanks</t></is></c></row></sheetData></worksheet>"#;
        zip(&[
            ("[Content_Types].xml", ct),
            ("_rels/.rels", rels),
            ("xl/workbook.xml", wb),
            ("xl/_rels/workbook.xml.rels", wb_rels),
            ("xl/styles.xml", styles),
            ("xl/worksheets/sheet1.xml", s1),
            ("xl/worksheets/sheet2.xml", s2),
            ("xl/worksheets/sheet3.xml", s3),
        ])
    }

    #[test]
    fn xlsx_sheets_become_pages() {
        let d = parse(&xlsx(), FileType::Xlsx).unwrap();
        assert_eq!(d.page_count(), 2);
        assert_eq!(
            d.pages[0],
            vec![Block::Table(vec![
                vec!["Invoice INV-7 from ACME Trading GmbH".into()],
                vec![],
                vec!["Item".into(), "Qty".into(), "Price".into()],
                vec!["Blue pen".into(), "2".into(), "0.3".into()],
                vec!["Date".into(), "2024-01-15".into()],
            ])]
        );
        assert_eq!(d.pages[1], vec![Block::Table(vec![vec!["Thanks".into()]])]);
    }

    #[test]
    fn xlsx_layout_keeps_columns_despite_long_title() {
        let d = parse(&xlsx(), FileType::Xlsx).unwrap();
        let p = &super::super::layout(&d, &[1])[0];
        let x = |t: &str| p.words.iter().find(|w| w.text == t).unwrap().bbox;
        assert_eq!(x("Qty").x0, x("2").x0);
        assert_eq!(x("Price").x0, x("0.3").x0);
        // The title spills over empty cells and does not widen column A.
        assert!(x("Qty").x0 < x("GmbH").x0);
        assert!(x("Qty").x0 > x("pen").x1);
        assert!(x("Date").y0 > x("Blue").y0);
    }

    #[test]
    fn sparse_far_cells_do_not_allocate_the_extent() {
        let rows = rows_from_cells(vec![
            (0, 0, "A1".into()),
            (1_048_575, 16_383, "far".into()),
            (5, 16_383, "x".into()),
            (5, 2, String::new()),
        ]);
        assert_eq!(
            rows,
            vec![
                vec!["A1".to_string()],
                vec![],
                vec![],
                vec!["".to_string(), "x".to_string()],
                vec![],
                vec![],
                vec!["".to_string(), "far".to_string()],
            ]
        );
    }

    /// An XLSX of one sheet with `rows` rows of 4 numbers (or, `diagonal`, one cell per row,
    /// each in a column of its own).
    fn xlsx_rows(rows: usize, diagonal: bool) -> Vec<u8> {
        let mut sheet = String::from(
            r#"<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#,
        );
        let col = |mut c: usize| {
            let mut name = Vec::new();
            loop {
                name.push(b'A' + (c % 26) as u8);
                if c < 26 {
                    break;
                }
                c = c / 26 - 1;
            }
            name.reverse();
            String::from_utf8(name).unwrap()
        };
        for r in 1..=rows {
            sheet.push_str(&format!(r#"<row r="{r}">"#));
            if diagonal {
                sheet.push_str(&format!(r#"<c r="{}{r}"><v>{r}</v></c>"#, col(r - 1)));
            } else {
                for c in 0..4 {
                    sheet.push_str(&format!(r#"<c r="{}{r}"><v>{}.5</v></c>"#, col(c), r * 3));
                }
            }
            sheet.push_str("</row>");
        }
        sheet.push_str("</sheetData></worksheet>");
        let ct = br#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#;
        let rels = br#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;
        let wb = br#"<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>"#;
        let wb_rels = br#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#;
        zip(&[
            ("[Content_Types].xml", ct),
            ("_rels/.rels", rels),
            ("xl/workbook.xml", wb),
            ("xl/_rels/workbook.xml.rels", wb_rels),
            ("xl/worksheets/sheet1.xml", sheet.as_bytes()),
        ])
    }

    /// BIFF records as a stream.
    fn biff(records: &[(u16, Vec<u8>)]) -> Vec<u8> {
        let mut stream = Vec::new();
        for (typ, data) in records {
            stream.extend_from_slice(&typ.to_le_bytes());
            stream.extend_from_slice(&(data.len() as u16).to_le_bytes());
            stream.extend_from_slice(data);
        }
        stream
    }

    /// A compound file whose `Workbook` stream holds a workbook of one sheet made of these BIFF
    /// records (between the sheet's BOF and its EOF), the globals naming where the sheet starts.
    fn xls_with(records: &[(u16, Vec<u8>)]) -> Vec<u8> {
        let bof = (BIFF_BOF, vec![0, 6, 0x10, 0, 0, 0, 0, 0]);
        let eof = (BIFF_EOF, Vec::new());
        let sheet = |pos: u32| {
            let mut d = pos.to_le_bytes().to_vec();
            d.extend_from_slice(&[0, 0, 1, 0, b'S']);
            (BIFF_BOUNDSHEET, d)
        };
        let globals = biff(&[bof.clone(), sheet(0), eof.clone()]);
        let mut stream = biff(&[bof.clone(), sheet(globals.len() as u32), eof.clone()]);
        let mut body = vec![bof];
        body.extend_from_slice(records);
        body.push(eof);
        stream.extend(biff(&body));
        compound(&stream)
    }

    /// A compound file whose `Workbook` stream is `stream`.
    fn compound(stream: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut cf = cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
        cf.create_stream("Workbook")
            .unwrap()
            .write_all(stream)
            .unwrap();
        cf.into_inner().into_inner()
    }

    fn number(row: u16, col: u16) -> (u16, Vec<u8>) {
        let mut d = Vec::new();
        d.extend_from_slice(&row.to_le_bytes());
        d.extend_from_slice(&col.to_le_bytes());
        d.extend_from_slice(&[0, 0]);
        d.extend_from_slice(&1.5f64.to_le_bytes());
        (0x0203, d)
    }

    #[test]
    fn xls_cells_at_far_corners_are_refused_before_calamine() {
        // Two cells at opposite corners: calamine would lay out 65,001 x 65,001 cells.
        let far = xls_with(&[number(0, 0), number(65_000, 65_000)]);
        let e = parse(&far, FileType::Xls).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::FileTooLarge);
        assert!(e.to_string().starts_with("limits.max_sheet_cells"), "{e}");
        // A MULRK spanning the columns counts its last column too.
        let mut mulrk = vec![0, 0, 0, 0];
        mulrk.extend_from_slice(&[0; 6]);
        mulrk.extend_from_slice(&60_000u16.to_le_bytes());
        let wide = xls_with(&[(BIFF_MULRK, mulrk), number(60_000, 0)]);
        let budget = Budget::new(&Limits::default());
        assert!(xls_extent_check(&wide, &budget).is_err());
        // A chart nested in the sheet does not split it: calamine reads the cells before and
        // after it into one range.
        let chart = [
            (BIFF_BOF, vec![0, 6, 0x20, 0, 0, 0, 0, 0]),
            number(3, 3),
            (BIFF_EOF, Vec::new()),
        ];
        let mut split = vec![number(0, 0)];
        split.extend_from_slice(&chart);
        split.push(number(65_000, 65_000));
        assert!(xls_extent_check(&xls_with(&split), &budget).is_err());
        // The chart's own cells are not the sheet's (calamine skips them).
        let mut charted = vec![number(0, 0)];
        charted.extend_from_slice(&chart);
        charted[2] = number(65_000, 65_000);
        assert!(xls_extent_check(&xls_with(&charted), &budget).is_ok());
        // Cells close together pass the check, and calamine reads them.
        let near = xls_with(&[number(0, 0), number(10, 5)]);
        assert!(xls_extent_check(&near, &budget).is_ok());
        let doc = parse(&near, FileType::Xls).unwrap();
        assert_eq!(doc.pages.len(), 1, "{doc:?}");
        // Cells no sheet holds (no BOUNDSHEET points at them) are not read by calamine.
        let loose = biff(&[number(0, 0), number(65_000, 65_000)]);
        assert!(xls_extent_check(&compound(&loose), &budget).is_ok());
        // Not a compound file: damaged.
        let e = xls_extent_check(b"not an xls", &budget).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::CorruptFile, "{e}");
    }

    #[test]
    fn xls_found_by_the_fuzzer_that_made_calamine_abort_are_refused() {
        let far = include_bytes!("testdata/far_corners.xls");
        // Its workbook stream is longer in the directory than in the file: calamine reads what
        // there is, cells at opposite corners of the grid.
        let e = parse(far, FileType::Xls).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::CorruptFile, "{e}");
        assert!(
            e.to_string().contains("workbook stream cannot be read"),
            "{e}"
        );
        // Its DIMENSIONS record declares 436,207,620 rows of 2 columns (calamine reserved 35 GB).
        let e = parse(include_bytes!("testdata/declared_range.xls"), FileType::Xls).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::FileTooLarge, "{e}");
    }

    #[test]
    fn an_xls_declaring_a_range_past_the_cell_budget_is_refused_before_calamine() {
        let dims = |first_row: u32, rows_end: u32, first_col: u16, cols_end: u16| {
            let mut d = Vec::new();
            d.extend_from_slice(&first_row.to_le_bytes());
            d.extend_from_slice(&rows_end.to_le_bytes());
            d.extend_from_slice(&first_col.to_le_bytes());
            d.extend_from_slice(&cols_end.to_le_bytes());
            d.extend_from_slice(&[0, 0]);
            (BIFF_DIMENSIONS, d)
        };
        let budget = Budget::new(&Limits::default());
        // A damaged range, its last row before its first: calamine's row count would wrap to
        // ~2^32 (and it reserves room for them all).
        for (first_row, rows_end) in [(9, 3), (5, 5)] {
            let wrapped = xls_with(&[dims(first_row, rows_end, 0, 2), number(0, 0)]);
            let e = parse(&wrapped, FileType::Xls).unwrap_err();
            assert_eq!(e.code(), crate::ErrorCode::CorruptFile, "{e}");
        }
        // A whole BIFF8 grid declared: 65,536 x 256 cells.
        let full = xls_with(&[dims(0, 65_536, 0, 256), number(0, 0)]);
        let e = parse(&full, FileType::Xls).unwrap_err();
        assert_eq!(e.code(), crate::ErrorCode::FileTooLarge);
        assert!(e.to_string().starts_with("limits.max_sheet_cells"), "{e}");
        // The range a small sheet declares passes, and so does a record of another length.
        let small = xls_with(&[dims(0, 11, 0, 6), number(10, 5)]);
        assert!(xls_extent_check(&small, &budget).is_ok());
        let odd = xls_with(&[(BIFF_DIMENSIONS, vec![0xFF; 7]), number(0, 0)]);
        assert!(xls_extent_check(&odd, &budget).is_ok());
        assert_eq!(
            declared_range(&[0, 0, 3, 0, 0, 0, 4, 0, 0, 0]),
            Some(Some((3, 4)))
        );
        // An empty sheet's range (all zero) is one cell to calamine.
        assert_eq!(declared_range(&[0; 14]), Some(Some((1, 1))));
    }

    #[test]
    fn row_and_cell_budgets() {
        let budget = |rows, cells| {
            Budget::new(&Limits {
                max_sheet_rows: rows,
                max_sheet_cells: cells,
                ..Limits::default()
            })
        };
        let big = xlsx_rows(1_000, false);
        assert!(super::parse(&big, FileType::Xlsx, budget(1_000, 4_000)).is_ok());
        let e = super::parse(&big, FileType::Xlsx, budget(999, 4_000)).unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::FileTooLarge);
        assert_eq!(
            e.to_string(),
            "limits.max_sheet_rows (999) exceeded while reading spreadsheet cells"
        );
        let e = super::parse(&big, FileType::Xlsx, budget(1_000, 3_999)).unwrap_err();
        assert!(
            e.to_string().starts_with("limits.max_sheet_cells (3999)"),
            "{e}"
        );
        // One cell per row, each in its own column: the dense rows would be quadratic; the
        // padding cells are charged.
        let diag = xlsx_rows(3_000, true);
        let e = parse(&diag, FileType::Xlsx).unwrap_err();
        assert!(e.to_string().starts_with("limits.max_sheet_cells"), "{e}");
    }

    #[test]
    fn time_grows_linearly() {
        let (small, big) = (xlsx_rows(1_500, false), xlsx_rows(12_000, false));
        crate::preprocess::test_support::assert_near_linear("XLSX", &|k| {
            let bytes = if k == 1 { &small } else { &big };
            crate::preprocess::preprocess(
                bytes,
                &crate::config::RecognizeOptions::default(),
                &Limits::default(),
                &|_| Ok(0),
            )
            .unwrap();
        });
    }

    #[test]
    fn damaged_workbook_is_corrupt() {
        let z = zip(&[("xl/workbook.xml", b"<workbook><sheets>")]);
        let e = parse(&z, FileType::Xlsx).unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::CorruptFile, "{e}");
    }

    /// Damaged XLS files found by the `sheet` fuzz target (cargo fuzz): calamine's reader panics
    /// on each (a sheet offset past the stream, a sector slice out of order, an underflowing
    /// length). They are damaged files, not engine bugs.
    #[test]
    fn xls_that_makes_calamine_panic_is_corrupt() {
        let files: [&[u8]; 4] = [
            include_bytes!("testdata/damaged_1.xls"),
            include_bytes!("testdata/damaged_2.xls"),
            include_bytes!("testdata/damaged_3.xls"),
            include_bytes!("testdata/damaged_4.xls"),
        ];
        for (i, bytes) in files.iter().enumerate() {
            let e = parse(bytes, FileType::Xls).unwrap_err();
            assert_eq!(
                e.code(),
                crate::error::ErrorCode::CorruptFile,
                "file {}: {e}",
                i + 1
            );
        }
    }
}
