//! Office documents (DOCX, DOC, RTF, XLSX, XLS): text and tables parsed into a small block model,
//! then laid out synthetically on A4-sized pages so the geometry-based stages downstream see lines
//! and aligned table columns.

mod doc;
mod docx;
mod rtf;
mod sheet;

use super::FileType;
use super::budget::{Budget, Resource};
use crate::error::{Error, Result};
use crate::types::{BBox, Source, TextPage, Unit, Word};
use std::io::Cursor;

/// One block of a page.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Block {
    /// A paragraph (or a line of one): segments separated by tabs. Empty = blank line.
    Line(Vec<String>),
    /// Table rows of cell texts.
    Table(Vec<Vec<String>>),
}

/// A parsed office document: pages of blocks (explicit page breaks / one sheet per page).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct OfficeDoc {
    pub pages: Vec<Vec<Block>>,
}

impl OfficeDoc {
    /// Pages, at least 1 (an empty document is one empty page).
    pub fn page_count(&self) -> u32 {
        u32::try_from(self.pages.len()).unwrap_or(u32::MAX).max(1)
    }
}

/// Collects the text stream of a word-processing document into blocks, charging every character
/// (and every tab, line, cell and page mark) to the document's text budget: past it, nothing more
/// is kept and [`Builder::check`] reports the limit.
#[derive(Debug)]
pub(crate) struct Builder {
    budget: Budget,
    /// What is being read, for the error message ("reading DOC text").
    during: String,
    /// The budget was exceeded (nothing more is kept).
    exceeded: bool,
    pages: Vec<Vec<Block>>,
    cur: Vec<Block>,
    segs: Vec<String>,
    seg: String,
    rows: Vec<Vec<String>>,
    row: Vec<String>,
    cell: String,
}

impl Builder {
    /// A builder charging `budget` for a document of kind `what` ("DOC", "RTF").
    pub fn new(budget: Budget, what: &str) -> Self {
        Builder {
            budget,
            during: format!("reading {what} text"),
            exceeded: false,
            pages: Vec::new(),
            cur: Vec::new(),
            segs: Vec::new(),
            seg: String::new(),
            rows: Vec::new(),
            row: Vec::new(),
            cell: String::new(),
        }
    }

    /// Charges `n` characters; false (and nothing more is kept) once over the budget.
    fn charge(&mut self, n: usize) -> bool {
        if !self.exceeded {
            self.exceeded = self
                .budget
                .charge(Resource::TextChars, n as u64, &self.during)
                .is_err();
        }
        !self.exceeded
    }

    /// `Err` once the text budget is exceeded: parsers call it in their loops to stop reading.
    pub fn check(&self) -> Result<()> {
        if self.exceeded {
            return Err(self.budget.exceeded(Resource::TextChars, &self.during));
        }
        Ok(())
    }

    /// Body text (outside tables).
    pub fn text(&mut self, s: &str) {
        if !s.is_empty() && self.charge(s.chars().count()) {
            self.flush_table();
            self.seg.push_str(s);
        }
    }
    /// A tab in body text.
    pub fn tab(&mut self) {
        if !self.charge(1) {
            return;
        }
        self.flush_table();
        self.segs.push(std::mem::take(&mut self.seg));
    }
    /// End of a paragraph or a line break in body text.
    pub fn line_end(&mut self) {
        if !self.charge(1) {
            return;
        }
        self.flush_table();
        self.flush_line();
    }
    fn flush_line(&mut self) {
        if !self.seg.is_empty() || !self.segs.is_empty() {
            self.segs.push(std::mem::take(&mut self.seg));
        }
        let segs: Vec<String> = std::mem::take(&mut self.segs);
        let blank = segs.iter().all(|s| s.trim().is_empty());
        self.cur
            .push(Block::Line(if blank { Vec::new() } else { segs }));
    }
    /// Text inside the current table cell.
    pub fn cell_text(&mut self, s: &str) {
        if self.charge(s.chars().count()) {
            self.cell.push_str(s);
        }
    }
    /// A paragraph end, line break or tab inside a cell.
    pub fn cell_space(&mut self) {
        if self.charge(1) && !self.cell.is_empty() && !self.cell.ends_with(' ') {
            self.cell.push(' ');
        }
    }
    /// End of a cell.
    pub fn cell_end(&mut self) {
        if !self.charge(1) {
            return;
        }
        let c = std::mem::take(&mut self.cell);
        self.row.push(super::collapse_spaces(&c));
    }
    /// End of a table row.
    pub fn row_end(&mut self) {
        if !self.charge(1) {
            return;
        }
        if !self.cell.trim().is_empty() {
            self.cell_end();
        }
        self.cell.clear();
        let row = std::mem::take(&mut self.row);
        if row.iter().any(|c| !c.is_empty()) {
            self.rows.push(row);
        }
    }
    /// End of a table (also implied by body text after it).
    pub fn flush_table(&mut self) {
        if !self.row.is_empty() || !self.cell.trim().is_empty() {
            self.row_end();
        }
        if !self.rows.is_empty() {
            self.cur.push(Block::Table(std::mem::take(&mut self.rows)));
        }
    }
    /// An explicit page break.
    pub fn page_break(&mut self) {
        if self.charge(1) {
            self.push_page();
        }
    }
    fn push_page(&mut self) {
        self.flush_table();
        if !self.seg.is_empty() || !self.segs.is_empty() {
            self.flush_line();
        }
        self.pages.push(std::mem::take(&mut self.cur));
    }
    /// The document and what is left of the budget; pages without any text are dropped.
    pub fn finish(mut self) -> Result<(OfficeDoc, Budget)> {
        self.check()?;
        self.push_page();
        let has_text = |p: &Vec<Block>| {
            p.iter().any(|b| match b {
                Block::Line(s) => !s.is_empty(),
                Block::Table(r) => !r.is_empty(),
            })
        };
        let mut pages: Vec<Vec<Block>> = self.pages.into_iter().filter(has_text).collect();
        for p in &mut pages {
            while matches!(p.last(), Some(Block::Line(s)) if s.is_empty()) {
                p.pop();
            }
            let lead = p
                .iter()
                .take_while(|b| matches!(b, Block::Line(s) if s.is_empty()))
                .count();
            p.drain(..lead);
        }
        Ok((OfficeDoc { pages }, self.budget))
    }
}

/// Parses an office file into pages of blocks, charging `budget`.
pub(crate) fn parse(bytes: &[u8], ft: FileType, budget: &mut Budget) -> Result<OfficeDoc> {
    let (doc, used) = match ft {
        FileType::Docx => {
            check_zip_bomb(bytes, budget)?;
            docx::parse(bytes, budget.clone())?
        }
        FileType::Xlsx => {
            check_zip_bomb(bytes, budget)?;
            count_unpacked(bytes, budget)?;
            sheet::parse(bytes, ft, budget.clone())?
        }
        FileType::Xls => sheet::parse(bytes, ft, budget.clone())?,
        FileType::Doc => doc::parse(bytes, budget.clone())?,
        FileType::Rtf => rtf::parse(bytes, budget.clone())?,
        other => return Err(Error::Internal(format!("{other:?} is not an office type"))),
    };
    *budget = used;
    Ok(doc)
}

/// Refuses ZIP containers whose declared unpacked size is over the budget (the parts actually
/// read are counted again as they are unpacked, whatever their headers say).
fn check_zip_bomb(bytes: &[u8], budget: &Budget) -> Result<()> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Error::CorruptFile(format!("damaged ZIP container: {e}")))?;
    let mut declared = 0u64;
    for i in 0..zip.len() {
        let f = zip
            .by_index_raw(i)
            .map_err(|e| Error::CorruptFile(format!("damaged ZIP entry: {e}")))?;
        declared = declared.saturating_add(f.size());
    }
    if declared > budget.remaining(Resource::UnpackedBytes) {
        return Err(budget.exceeded(
            Resource::UnpackedBytes,
            &format!("opening a ZIP container that declares {declared} unpacked bytes"),
        ));
    }
    Ok(())
}

/// Unpacks every entry of a ZIP container without keeping it, charging the bytes to the budget:
/// the spreadsheet reader unpacks the parts it reads whole, and a header may declare a tenth of
/// a gigabyte of shared strings as a few bytes. Entries that do not unpack are left to the reader
/// to judge.
fn count_unpacked(bytes: &[u8], budget: &mut Budget) -> Result<()> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Error::CorruptFile(format!("damaged ZIP container: {e}")))?;
    let mut buf = vec![0u8; 64 * 1024];
    for i in 0..zip.len() {
        let Ok(mut f) = zip.by_index(i) else { continue };
        let during = format!("unpacking {}", f.name());
        while let Ok(n) = std::io::Read::read(&mut f, &mut buf) {
            if n == 0 {
                break;
            }
            budget.charge(Resource::UnpackedBytes, n as u64, &during)?;
        }
    }
    Ok(())
}

/// Reads one ZIP entry, charging every unpacked byte to the budget whatever the header says.
pub(crate) fn read_zip_entry(
    bytes: &[u8],
    name: &str,
    budget: &mut Budget,
) -> Result<Option<Vec<u8>>> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| Error::CorruptFile(format!("damaged ZIP container: {e}")))?;
    let f = match zip.by_name(name) {
        Ok(f) => f,
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(zip::result::ZipError::UnsupportedArchive(m)) if m.contains("ncrypt") => {
            return Err(Error::EncryptedFile(format!("{name} is encrypted")));
        }
        Err(e) => return Err(Error::CorruptFile(format!("cannot read {name}: {e}"))),
    };
    budget.read_all(f, &format!("unpacking {name}")).map(Some)
}

// Synthetic layout, in PDF points.
const PAGE_W: f32 = 595.0;
const PAGE_H: f32 = 842.0;
const MARGIN: f32 = 56.0;
const FONT: f32 = 10.0;
const CHAR_W: f32 = 0.5 * FONT;
const LINE_H: f32 = 14.0;
const TAB_STOP: f32 = 36.0;
const CELL_GAP: f32 = 3.0 * CHAR_W;

fn text_width(s: &str) -> f32 {
    s.chars().count() as f32 * CHAR_W
}

/// Places the words of `text` from `x` on the line at `y`; returns the x after the last word.
fn place_words(words: &mut Vec<Word>, text: &str, mut x: f32, y: f32) -> f32 {
    for w in text.split_whitespace() {
        let x1 = x + text_width(w);
        words.push(Word {
            text: w.to_string(),
            bbox: BBox::new(x, y, x1, y + FONT),
            confidence: 1.0,
        });
        x = x1 + CHAR_W;
    }
    x
}

/// Lays out the selected pages (1-based numbers) of a parsed document.
pub(crate) fn layout(doc: &OfficeDoc, pages: &[u32]) -> Vec<TextPage> {
    let empty = Vec::new();
    pages
        .iter()
        .map(|&n| {
            let blocks = doc
                .pages
                .get((n as usize).saturating_sub(1))
                .unwrap_or(&empty);
            layout_page(n, blocks)
        })
        .collect()
}

/// Start x of every column: a cell's text must end before the next non-empty cell of its row
/// (text may spill over empty cells, as in a spreadsheet), columns never go backwards.
fn column_positions(rows: &[Vec<String>]) -> Vec<f32> {
    let ncols = rows.iter().map(Vec::len).max().unwrap_or(0);
    // needs[j]: (column i, width) pairs of cells whose next non-empty neighbour is column j.
    let mut needs: Vec<Vec<(usize, f32)>> = vec![Vec::new(); ncols];
    for r in rows {
        let mut last: Option<(usize, f32)> = None;
        for (j, c) in r.iter().enumerate() {
            if c.is_empty() {
                continue;
            }
            if let (Some(prev), Some(n)) = (last, needs.get_mut(j)) {
                n.push(prev);
            }
            last = Some((j, text_width(c)));
        }
    }
    let mut xs: Vec<f32> = Vec::with_capacity(ncols);
    for need in &needs {
        let mut x = xs.last().copied().unwrap_or(MARGIN);
        for &(i, w) in need {
            if let Some(xi) = xs.get(i) {
                x = x.max(xi + w + CELL_GAP);
            }
        }
        xs.push(x);
    }
    xs
}

fn layout_page(page: u32, blocks: &[Block]) -> TextPage {
    let mut words = Vec::new();
    let mut y = MARGIN;
    let mut max_x = 0f32;
    for b in blocks {
        match b {
            Block::Line(segs) => {
                let mut x = MARGIN;
                for (i, seg) in segs.iter().enumerate() {
                    if i > 0 {
                        let min = x + 2.0 * CHAR_W;
                        x = MARGIN + ((min - MARGIN) / TAB_STOP).ceil() * TAB_STOP;
                    }
                    x = place_words(&mut words, seg, x, y);
                }
                max_x = max_x.max(x);
                y += LINE_H;
            }
            Block::Table(rows) => {
                let col_x = column_positions(rows);
                max_x = max_x.max(col_x.last().copied().unwrap_or(MARGIN));
                for r in rows {
                    for (c, x0) in r.iter().zip(&col_x) {
                        let end = place_words(&mut words, c, *x0, y);
                        max_x = max_x.max(end);
                    }
                    y += LINE_H;
                }
            }
        }
    }
    TextPage {
        page,
        width: PAGE_W.max(max_x + MARGIN),
        height: PAGE_H.max(y + MARGIN),
        unit: Unit::Pt,
        source: Source::Office,
        engine: None,
        rotation: 0,
        words,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Limits;

    #[test]
    fn builder_pages_tables_and_blank_lines() {
        let mut b = Builder::new(Budget::new(&Limits::default()), "TEST");
        b.text("Invoice");
        b.text(" No 7");
        b.tab();
        b.text("2024-01-02");
        b.line_end();
        b.line_end();
        b.cell_text("Item");
        b.cell_end();
        b.cell_text("Qty");
        b.cell_end();
        b.row_end();
        b.cell_text("Widget");
        b.cell_space();
        b.cell_text("large");
        b.cell_end();
        b.cell_text("2");
        b.cell_end();
        b.row_end();
        b.text("Total 2");
        b.line_end();
        b.page_break();
        b.page_break();
        b.text("Second");
        b.page_break();
        let (d, _) = b.finish().unwrap();
        assert_eq!(d.page_count(), 2);
        assert_eq!(
            d.pages[0],
            vec![
                Block::Line(vec!["Invoice No 7".into(), "2024-01-02".into()]),
                Block::Line(vec![]),
                Block::Table(vec![
                    vec!["Item".into(), "Qty".into()],
                    vec!["Widget large".into(), "2".into()]
                ]),
                Block::Line(vec!["Total 2".into()]),
            ]
        );
        assert_eq!(d.pages[1], vec![Block::Line(vec!["Second".into()])]);
        assert_eq!(
            Builder::new(Budget::new(&Limits::default()), "TEST")
                .finish()
                .unwrap()
                .0
                .page_count(),
            1
        );
    }

    #[test]
    fn layout_aligns_table_columns() {
        let doc = OfficeDoc {
            pages: vec![vec![
                Block::Line(vec!["Hello world".into(), "tabbed".into()]),
                Block::Table(vec![
                    vec!["Description".into(), "Qty".into(), "Price".into()],
                    vec!["Pen".into(), "12".into(), "1 200.50".into()],
                ]),
            ]],
        };
        let pages = layout(&doc, &[1]);
        assert_eq!(pages.len(), 1);
        let p = &pages[0];
        assert_eq!(
            (p.width, p.height, p.unit, p.source),
            (595.0, 842.0, Unit::Pt, Source::Office)
        );
        let find = |t: &str| p.words.iter().find(|w| w.text == t).unwrap().bbox;
        assert_eq!(find("Hello").x0, MARGIN);
        assert!((find("world").x0 - (MARGIN + 6.0 * CHAR_W)).abs() < 1e-3);
        assert!(find("tabbed").x0 >= find("world").x1 + 2.0 * CHAR_W);
        assert_eq!(find("Qty").x0, find("12").x0);
        assert_eq!(find("Price").x0, find("1").x0);
        assert!(find("Qty").x0 > find("Description").x1);
        assert_eq!(find("Pen").y0, find("1").y0);
        assert!((find("Pen").y0 - find("Description").y0 - LINE_H).abs() < 1e-3);
        assert!(p.words.iter().all(|w| w.confidence == 1.0));
    }

    #[test]
    fn long_documents_grow_the_page() {
        let lines: Vec<Block> = (0..100)
            .map(|i| Block::Line(vec![format!("line {i}")]))
            .collect();
        let p = &layout(&OfficeDoc { pages: vec![lines] }, &[1])[0];
        assert!(p.height > PAGE_H);
        assert!(p.words.iter().all(|w| w.bbox.y1 <= p.height));
    }

    #[test]
    fn zip_bomb_is_refused() {
        // 30 MB of zeros compress to ~30 KB; with a 1 MB limit the unpack cap is 20 MB.
        let zeros = vec![0u8; 30 * 1024 * 1024];
        let z = super::super::test_support::zip(&[
            ("word/document.xml", b"<w:document/>"),
            ("word/media/big.bin", &zeros),
        ]);
        assert!(z.len() < 200_000);
        let limits = Limits {
            max_unpacked_mb: 20,
            ..Limits::default()
        };
        let e = parse(&z, FileType::Docx, &mut Budget::new(&limits)).unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::FileTooLarge, "{e}");
        assert!(e.to_string().contains("limits.max_unpacked_mb (20)"), "{e}");
        // A header that lies about the size does not help: the bytes unpacked are counted.
        let mut small = Budget::new(&Limits {
            max_unpacked_mb: 1,
            ..Limits::default()
        });
        let e = read_zip_entry(&z, "word/media/big.bin", &mut small).unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::FileTooLarge, "{e}");
        assert!(
            e.to_string().contains("unpacking word/media/big.bin"),
            "{e}"
        );
    }

    /// Rewrites the uncompressed size of every entry named `name` (local and central headers).
    fn lie_about_size(zip: &mut [u8], name: &str, size: u32) {
        let mut i = 0;
        while i + 46 <= zip.len() {
            let (sig, name_at, size_at) = match &zip[i..i + 4] {
                b"PK\x03\x04" => ("local", 30, 22),
                b"PK\x01\x02" => ("central", 46, 24),
                _ => {
                    i += 1;
                    continue;
                }
            };
            let len_at = if sig == "local" { 26 } else { 28 };
            let n = u16::from_le_bytes([zip[i + len_at], zip[i + len_at + 1]]) as usize;
            if zip.get(i + name_at..i + name_at + n) == Some(name.as_bytes()) {
                zip[i + size_at..i + size_at + 4].copy_from_slice(&size.to_le_bytes());
            }
            i += 4;
        }
    }

    #[test]
    fn unpacked_bytes_are_counted_whatever_the_headers_declare() {
        let zeros = vec![b'x'; 30 * 1024 * 1024];
        let mut z = super::super::test_support::zip(&[
            ("xl/workbook.xml", b"<workbook/>"),
            ("xl/sharedStrings.xml", &zeros),
        ]);
        lie_about_size(&mut z, "xl/sharedStrings.xml", 10);
        let limits = Limits {
            max_unpacked_mb: 20,
            ..Limits::default()
        };
        // The headers pass the declared-size check...
        check_zip_bomb(&z, &Budget::new(&limits)).unwrap();
        // ...the bytes do not.
        let e = count_unpacked(&z, &mut Budget::new(&limits)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "limits.max_unpacked_mb (20) exceeded while unpacking xl/sharedStrings.xml"
        );
        let e = parse(&z, FileType::Xlsx, &mut Budget::new(&limits)).unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::FileTooLarge, "{e}");
        // Within the budget nothing is refused.
        count_unpacked(&z, &mut Budget::new(&Limits::default())).unwrap();
    }

    #[test]
    fn builder_stops_at_the_text_budget() {
        let limits = Limits {
            max_text_chars: 20,
            ..Limits::default()
        };
        let mut b = Builder::new(Budget::new(&limits), "TEST");
        b.text("0123456789");
        b.line_end();
        b.check().unwrap();
        b.text("0123456789");
        let e = b.check().unwrap_err();
        assert_eq!(
            e.to_string(),
            "limits.max_text_chars (20) exceeded while reading TEST text"
        );
        // Nothing more is kept after the limit.
        b.text("more");
        assert!(b.seg.is_empty(), "{:?}", b.seg);
        assert!(b.finish().is_err());
        // Exactly at the budget is accepted.
        let mut b = Builder::new(Budget::new(&limits), "TEST");
        b.text("01234567890123456789");
        let (doc, _) = b.finish().unwrap();
        assert_eq!(doc.pages.len(), 1);
    }
}
