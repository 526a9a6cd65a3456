//! RTF: a small tokenizer + group-state interpreter. Text, paragraphs, tabs, tables (`\cell`,
//! `\row`), page breaks; `\'hh` bytes decoded with the font's charset or `\ansicpg`; `\uN` with the
//! `\uc` fallback skip; non-text destinations skipped.

use super::{Builder, OfficeDoc};
use crate::error::{Error, Result};
use crate::preprocess::budget::Budget;
use encoding_rs::Encoding;
use std::collections::HashMap;

/// Deepest group nesting accepted (real documents stay far below).
const MAX_DEPTH: usize = 2000;

/// Destinations whose content is never document text.
const SKIP_DESTINATIONS: &[&str] = &[
    "colortbl",
    "stylesheet",
    "info",
    "pict",
    "header",
    "headerl",
    "headerr",
    "headerf",
    "footer",
    "footerl",
    "footerr",
    "footerf",
    "footnote",
    "object",
    "objdata",
    "themedata",
    "colorschememapping",
    "datastore",
    "latentstyles",
    "listtable",
    "listoverridetable",
    "rsidtbl",
    "generator",
    "xmlnstbl",
    "mmathPr",
    "fldinst",
    "bkmkstart",
    "bkmkend",
    "filetbl",
    "revtbl",
    "pgdsctbl",
    "nonshppict",
    "sp",
    "sn",
    "sv",
    "template",
    "xe",
    "tc",
    "atnid",
    "annotation",
    "blipuid",
    "txe",
    "userprops",
    "docvar",
    "wgrffmtfilter",
    "passwordhash",
    "falt",
    "panose",
    "protusertbl",
    "shpinst",
    "shprslt",
    "listpicture",
    "pn",
];

/// Windows code page number to an encoding.
pub(super) fn codepage(cp: i32) -> &'static Encoding {
    use encoding_rs::*;
    match cp {
        874 => WINDOWS_874,
        932 => SHIFT_JIS,
        936 => GBK,
        949 => EUC_KR,
        950 => BIG5,
        866 => IBM866,
        1250 => WINDOWS_1250,
        1251 => WINDOWS_1251,
        1253 => WINDOWS_1253,
        1254 => WINDOWS_1254,
        1255 => WINDOWS_1255,
        1256 => WINDOWS_1256,
        1257 => WINDOWS_1257,
        1258 => WINDOWS_1258,
        10000 => MACINTOSH,
        10007 => X_MAC_CYRILLIC,
        20866 => KOI8_R,
        21866 => KOI8_U,
        28592 => ISO_8859_2,
        28595 => ISO_8859_5,
        28597 => ISO_8859_7,
        65001 => UTF_8,
        _ => WINDOWS_1252,
    }
}

/// Font charset (`\fcharsetN`) to a code page; `None` = the document's `\ansicpg`.
fn charset_codepage(cs: i32) -> Option<i32> {
    Some(match cs {
        77 => 10000,
        128 => 932,
        129 => 949,
        134 => 936,
        136 => 950,
        161 => 1253,
        162 => 1254,
        163 => 1258,
        177 => 1255,
        178 => 1256,
        186 => 1257,
        204 => 1251,
        222 => 874,
        238 => 1250,
        _ => return None,
    })
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Dest {
    Body,
    Skip,
    FontTable,
}

#[derive(Debug, Clone, Copy)]
struct GroupState {
    dest: Dest,
    uc: u32,
    cp: Option<i32>,
    in_table: bool,
}

struct Interp {
    b: Builder,
    stack: Vec<GroupState>,
    st: GroupState,
    ansi_cp: i32,
    fonts: HashMap<i32, i32>,
    font_being_defined: Option<i32>,
    pending: Vec<u8>,
    skip_chars: u32,
    high_surrogate: Option<u16>,
    /// Whether the next control word is the first in its group (where destinations appear).
    group_start: bool,
    ignorable: bool,
}

impl Interp {
    fn encoding(&self) -> &'static Encoding {
        codepage(self.st.cp.unwrap_or(self.ansi_cp))
    }

    fn flush(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let bytes = std::mem::take(&mut self.pending);
        if self.st.dest == Dest::Body {
            let (s, _, _) = self.encoding().decode(&bytes);
            self.emit(&s);
        }
    }

    fn emit(&mut self, s: &str) {
        if self.st.dest != Dest::Body || s.is_empty() {
            return;
        }
        if self.st.in_table {
            self.b.cell_text(s);
        } else {
            self.b.text(s);
        }
    }

    /// A text byte (literal or `\'hh`), honouring the `\uN` fallback skip.
    fn byte(&mut self, c: u8) {
        if self.skip_chars > 0 {
            self.skip_chars -= 1;
            return;
        }
        if self.st.dest == Dest::Body {
            self.pending.push(c);
        }
    }

    fn char_out(&mut self, ch: char) {
        self.flush();
        let mut buf = [0u8; 4];
        self.emit(ch.encode_utf8(&mut buf));
    }

    fn unicode(&mut self, n: i32) {
        self.flush();
        let u = (n.rem_euclid(65536)) as u16;
        match (self.high_surrogate.take(), u) {
            (_, 0xD800..=0xDBFF) => self.high_surrogate = Some(u),
            (Some(hi), 0xDC00..=0xDFFF) => {
                let c = 0x10000 + ((u32::from(hi) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                if let Some(ch) = char::from_u32(c) {
                    self.char_out(ch);
                }
            }
            (_, u) => {
                if let Some(ch) = char::from_u32(u32::from(u)) {
                    self.char_out(ch);
                }
            }
        }
        self.skip_chars = self.st.uc;
    }

    fn paragraph(&mut self) {
        self.flush();
        if self.st.dest != Dest::Body {
            return;
        }
        if self.st.in_table {
            self.b.cell_space();
        } else {
            self.b.line_end();
        }
    }

    fn control(&mut self, word: &str, param: Option<i32>) {
        let first = std::mem::replace(&mut self.group_start, false);
        let ignorable = std::mem::replace(&mut self.ignorable, false);
        if self.skip_chars > 0 && word != "u" {
            self.skip_chars -= 1;
            return;
        }
        self.flush();
        if self.st.dest == Dest::Skip {
            return;
        }
        if word == "fonttbl" {
            self.st.dest = Dest::FontTable;
            return;
        }
        if SKIP_DESTINATIONS.contains(&word) || (ignorable && first) {
            self.st.dest = Dest::Skip;
            return;
        }
        if self.st.dest == Dest::FontTable {
            match (word, param) {
                ("f", Some(n)) => self.font_being_defined = Some(n),
                ("fcharset", Some(cs)) => {
                    if let (Some(f), Some(cp)) = (self.font_being_defined, charset_codepage(cs)) {
                        self.fonts.insert(f, cp);
                    }
                }
                ("cpg", Some(cp)) => {
                    if let Some(f) = self.font_being_defined {
                        self.fonts.insert(f, cp);
                    }
                }
                _ => {}
            }
            return;
        }
        match (word, param) {
            ("ansicpg", Some(cp)) => self.ansi_cp = cp,
            ("ansi", _) => self.ansi_cp = 1252,
            ("mac", _) => self.ansi_cp = 10000,
            ("pc" | "pca", _) => self.ansi_cp = 437,
            ("f", Some(n)) => self.st.cp = self.fonts.get(&n).copied(),
            ("uc", Some(n)) => self.st.uc = n.clamp(0, 16) as u32,
            ("u", Some(n)) => self.unicode(n),
            ("par" | "line" | "sect", _) => self.paragraph(),
            ("tab", _) => {
                if self.st.in_table {
                    self.b.cell_space();
                } else {
                    self.b.tab();
                }
            }
            ("intbl", _) => self.st.in_table = true,
            ("pard", _) => self.st.in_table = false,
            ("cell", _) => {
                self.b.cell_end();
                self.st.in_table = true;
            }
            ("nestcell" | "nestrow", _) => self.b.cell_space(),
            ("row", _) => {
                self.b.row_end();
                self.st.in_table = false;
            }
            ("page", _) => {
                if self.st.in_table {
                    self.b.cell_space();
                } else {
                    self.b.page_break();
                }
            }
            ("emdash", _) => self.char_out('\u{2014}'),
            ("endash", _) => self.char_out('\u{2013}'),
            ("bullet", _) => self.char_out('\u{2022}'),
            ("lquote", _) => self.char_out('\u{2018}'),
            ("rquote", _) => self.char_out('\u{2019}'),
            ("ldblquote", _) => self.char_out('\u{201C}'),
            ("rdblquote", _) => self.char_out('\u{201D}'),
            ("emspace" | "enspace" | "qmspace", _) => self.char_out(' '),
            _ => {}
        }
    }
}

/// Parses an RTF document, charging `budget` for its text.
pub(super) fn parse(bytes: &[u8], budget: Budget) -> Result<(OfficeDoc, Budget)> {
    let mut it = Interp {
        b: Builder::new(budget, "RTF"),
        stack: Vec::new(),
        st: GroupState {
            dest: Dest::Body,
            uc: 1,
            cp: None,
            in_table: false,
        },
        ansi_cp: 1252,
        fonts: HashMap::new(),
        font_being_defined: None,
        pending: Vec::new(),
        skip_chars: 0,
        high_surrogate: None,
        group_start: false,
        ignorable: false,
    };
    let n = bytes.len();
    let mut i = 0;
    while i < n {
        it.b.check()?;
        let c = bytes[i];
        i += 1;
        match c {
            b'{' => {
                it.flush();
                if it.stack.len() >= MAX_DEPTH {
                    return Err(Error::CorruptFile("RTF groups nested too deeply".into()));
                }
                it.stack.push(it.st);
                it.group_start = true;
                it.skip_chars = 0;
            }
            b'}' => {
                it.flush();
                if let Some(s) = it.stack.pop() {
                    it.st = s;
                }
                it.skip_chars = 0;
                it.group_start = false;
                if it.stack.is_empty() {
                    break;
                }
            }
            b'\\' => {
                let Some(&next) = bytes.get(i) else { break };
                if next.is_ascii_alphabetic() {
                    let start = i;
                    while i < n && bytes[i].is_ascii_alphabetic() && i - start < 32 {
                        i += 1;
                    }
                    let word = std::str::from_utf8(&bytes[start..i]).unwrap_or("");
                    let pstart = i;
                    if i < n && bytes[i] == b'-' {
                        i += 1;
                    }
                    while i < n && bytes[i].is_ascii_digit() && i - pstart < 11 {
                        i += 1;
                    }
                    let param = std::str::from_utf8(&bytes[pstart..i])
                        .ok()
                        .and_then(|s| s.parse::<i64>().ok())
                        .map(|v| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32);
                    if i < n && bytes[i] == b' ' {
                        i += 1;
                    }
                    if word == "bin" {
                        it.flush();
                        i = i.saturating_add(param.unwrap_or(0).max(0) as usize).min(n);
                        continue;
                    }
                    let word = word.to_string();
                    it.control(&word, param);
                    continue;
                }
                i += 1;
                match next {
                    b'\'' => {
                        let hex = bytes
                            .get(i..i + 2)
                            .and_then(|h| std::str::from_utf8(h).ok());
                        match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                            Some(v) => {
                                i += 2;
                                it.group_start = false;
                                if it.st.dest == Dest::Body {
                                    it.byte(v);
                                }
                            }
                            None => {
                                return Err(Error::CorruptFile("bad \\' escape in RTF".into()));
                            }
                        }
                    }
                    b'*' => it.ignorable = true,
                    b'~' => it.char_out('\u{A0}'),
                    b'_' => it.char_out('-'),
                    b'-' => {}
                    b'\n' | b'\r' => it.paragraph(),
                    b'\\' | b'{' | b'}' => {
                        it.group_start = false;
                        it.byte(next);
                    }
                    _ => {}
                }
            }
            b'\r' | b'\n' => {}
            _ => {
                it.group_start = false;
                if it.st.dest == Dest::Body {
                    it.byte(c);
                }
            }
        }
    }
    it.flush();
    it.b.finish()
}

#[cfg(test)]
mod tests {
    use super::super::Block;
    use super::*;
    use crate::config::Limits;

    fn parse(bytes: &[u8]) -> Result<OfficeDoc> {
        super::parse(bytes, Budget::new(&Limits::default())).map(|(d, _)| d)
    }

    fn table(rows: usize, cols: usize) -> Vec<u8> {
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

    #[test]
    fn the_text_budget_stops_huge_tables() {
        let tight = Budget::new(&Limits {
            max_text_chars: 1_000,
            ..Limits::default()
        });
        let e = super::parse(&table(100, 10), tight).unwrap_err();
        assert_eq!(
            e.to_string(),
            "limits.max_text_chars (1000) exceeded while reading RTF text"
        );
        assert!(parse(&table(100, 10)).is_ok());
    }

    #[test]
    fn time_grows_linearly() {
        let (small, big) = (table(500, 10), table(4_000, 10));
        let (row, long_row) = (table(1, 5_000), table(1, 40_000));
        crate::preprocess::test_support::assert_near_linear("RTF table", &|k| {
            parse(if k == 1 { &small } else { &big }).unwrap();
        });
        crate::preprocess::test_support::assert_near_linear("RTF row", &|k| {
            parse(if k == 1 { &row } else { &long_row }).unwrap();
        });
    }

    fn lines(d: &OfficeDoc, page: usize) -> Vec<String> {
        d.pages[page]
            .iter()
            .map(|b| match b {
                Block::Line(s) => s.join("|"),
                Block::Table(rows) => rows
                    .iter()
                    .map(|r| r.join(";"))
                    .collect::<Vec<_>>()
                    .join("/"),
            })
            .collect()
    }

    #[test]
    fn cyrillic_cp1251_unicode_and_destinations() {
        let rtf = br"{\rtf1\ansi\ansicpg1251\deff0{\fonttbl{\f0\fnil\fcharset0 Arial;}}
{\colortbl;\red0\green0\blue0;}{\*\generator Riched20;}{\info{\title Secret}}
\pard\f0 \'d1\'f7\'e5\'f2 \'b9 15\tab\u1086?\u1090? 01.02.2024\par
{\pict\wmetafile8 0a0b0c}Total: 10\'a0000\par
\u-10179?\u-8704? \{ok\}\line\u8364\'80 euro\par}";
        let d = parse(rtf).unwrap();
        assert_eq!(
            lines(&d, 0),
            [
                "Счет № 15|от 01.02.2024",
                "Total: 10\u{a0}000",
                "\u{1F600} {ok}",
                "€ euro"
            ]
        );
    }

    #[test]
    fn font_charset_overrides_ansi_codepage_and_uc() {
        let rtf = br"{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Times;}{\f1\fcharset204 Arial Cyr;}}
\f1 \'cf\'f0\'e8\'e2\'e5\'f2 {\f0 caf\'e9} \uc2\u1071\'3f\'3fX\uc0\u1071 Y\par}";
        let d = parse(rtf).unwrap();
        assert_eq!(lines(&d, 0), ["Привет café ЯXЯY"]);
    }

    #[test]
    fn tables_and_pages() {
        let rtf = br"{\rtf1\ansi
Head\par
\trowd\cellx1000\cellx2000\pard\intbl Item\cell Qty\cell\row
\trowd\cellx1000\cellx2000\pard\intbl Pen\par blue\cell 2\cell\row
\pard After\page Second{\field{\*\fldinst HYPERLINK x}{\fldrslt link}}\par}";
        let d = parse(rtf).unwrap();
        assert_eq!(d.page_count(), 2);
        assert_eq!(lines(&d, 0), ["Head", "Item;Qty/Pen blue;2", "After"]);
        assert_eq!(lines(&d, 1), ["Secondlink"]);
    }

    #[test]
    fn bad_input_does_not_panic() {
        for s in [
            &b"{\\rtf1"[..],
            b"{\\rtf1 \\'",
            b"{\\rtf1 \\u",
            b"{\\rtf1 }}}}}}",
            b"{\\rtf1 \\bin99999999 x}",
            b"{\\rtf1 \\u99999999999999999999999 x}",
        ] {
            let _ = parse(s);
        }
        assert!(parse(b"{\\rtf1 \\'zz}").is_err());
        let deep = [b"{\\rtf1 ".to_vec(), vec![b'{'; 5000]].concat();
        assert_eq!(
            parse(&deep).unwrap_err().code(),
            crate::error::ErrorCode::CorruptFile
        );
    }
}
