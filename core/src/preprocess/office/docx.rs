//! DOCX: `word/document.xml` streamed with quick-xml (paragraphs, runs, tabs, breaks, tables).

use super::{Builder, OfficeDoc, read_zip_entry};
use crate::error::{Error, Result};
use crate::preprocess::budget::Budget;
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

fn attr(e: &BytesStart<'_>, local: &[u8]) -> Option<String> {
    e.attributes().flatten().find_map(|a| {
        (a.key.local_name().as_ref() == local)
            .then(|| a.unescape_value().map(|v| v.into_owned()).ok())
            .flatten()
    })
}

/// Parses a DOCX, charging `budget` for the unpacked main part and its text.
pub(super) fn parse(bytes: &[u8], mut budget: Budget) -> Result<(OfficeDoc, Budget)> {
    let xml = read_zip_entry(bytes, "word/document.xml", &mut budget)?
        .ok_or_else(|| Error::CorruptFile("DOCX without word/document.xml".into()))?;
    parse_document_xml(&xml, Builder::new(budget, "DOCX"))
}

struct State {
    b: Builder,
    table_depth: u32,
    in_t: bool,
    run_depth: u32,
    in_ppr: bool,
    in_sect: bool,
    section_break: bool,
    skip_depth: u32,
}

impl State {
    fn in_table(&self) -> bool {
        self.table_depth > 0
    }
    fn line_break(&mut self) {
        if self.in_table() {
            self.b.cell_space();
        } else {
            self.b.line_end();
        }
    }
    fn start(&mut self, e: &BytesStart<'_>, empty: bool) {
        let name = e.local_name();
        match name.as_ref() {
            b"tbl" if !empty => self.table_depth += 1,
            b"r" if !empty => self.run_depth += 1,
            b"t" if !empty => self.in_t = true,
            b"pPr" if !empty => self.in_ppr = true,
            b"sectPr" if self.in_ppr => {
                self.section_break = true;
                self.in_sect = !empty;
            }
            b"type" if self.in_sect && attr(e, b"val").as_deref() == Some("continuous") => {
                self.section_break = false;
            }
            b"pageBreakBefore"
                if self.in_ppr
                    && !self.in_table()
                    && !matches!(attr(e, b"val").as_deref(), Some("0" | "false" | "off")) =>
            {
                self.b.page_break();
            }
            b"tab" if self.run_depth > 0 => {
                if self.in_table() {
                    self.b.cell_space();
                } else {
                    self.b.tab();
                }
            }
            b"br" if self.run_depth > 0 => match attr(e, b"type").as_deref() {
                Some("page") if !self.in_table() => self.b.page_break(),
                _ => self.line_break(),
            },
            b"cr" if self.run_depth > 0 => self.line_break(),
            b"noBreakHyphen" if self.run_depth > 0 => self.text("-"),
            b"p" if empty => self.line_break(),
            _ => {}
        }
    }
    fn end(&mut self, local: &[u8]) {
        match local {
            b"t" => self.in_t = false,
            b"r" => self.run_depth = self.run_depth.saturating_sub(1),
            b"pPr" => self.in_ppr = false,
            b"sectPr" => self.in_sect = false,
            b"p" => {
                self.line_break();
                if self.section_break && !self.in_table() {
                    self.b.page_break();
                }
                self.section_break = false;
            }
            b"tc" => {
                if self.table_depth == 1 {
                    self.b.cell_end();
                } else {
                    self.b.cell_space();
                }
            }
            b"tr" => {
                if self.table_depth == 1 {
                    self.b.row_end();
                } else {
                    self.b.cell_space();
                }
            }
            b"tbl" => {
                if self.table_depth == 1 {
                    self.b.flush_table();
                }
                self.table_depth = self.table_depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    fn text(&mut self, s: &str) {
        if self.in_table() {
            self.b.cell_text(s);
        } else {
            self.b.text(s);
        }
    }
}

/// Parses the XML of the main document part: a `document` element (a part that is not XML, or
/// not a WordprocessingML document, or cut short, is `CORRUPT_FILE`, never an empty result).
pub(super) fn parse_document_xml(xml: &[u8], b: Builder) -> Result<(OfficeDoc, Budget)> {
    let mut r = Reader::from_reader(xml);
    r.config_mut().trim_text(false);
    let mut st = State {
        b,
        table_depth: 0,
        in_t: false,
        run_depth: 0,
        in_ppr: false,
        in_sect: false,
        section_break: false,
        skip_depth: 0,
    };
    let corrupt = |e: quick_xml::Error| Error::CorruptFile(format!("damaged DOCX XML: {e}"));
    let not_docx = |m: &str| Error::CorruptFile(format!("word/document.xml {m}"));
    // Elements open (the root included); the root must be `document`.
    let mut depth = 0usize;
    let mut seen_root = false;
    loop {
        st.b.check()?;
        let ev = r.read_event().map_err(corrupt)?;
        match &ev {
            Event::Start(e) | Event::Empty(e) if depth == 0 => {
                if seen_root || e.local_name().as_ref() != b"document" {
                    return Err(not_docx("is not a WordprocessingML document"));
                }
                seen_root = true;
                if matches!(ev, Event::Start(_)) {
                    depth += 1;
                }
            }
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Text(t) if depth == 0 && !t.iter().all(u8::is_ascii_whitespace) => {
                return Err(not_docx("is not XML (text outside the document element)"));
            }
            Event::Eof if !seen_root => return Err(not_docx("has no document element")),
            Event::Eof if depth > 0 => return Err(not_docx("is cut short")),
            _ => {}
        }
        if st.skip_depth > 0 {
            match ev {
                Event::Start(_) => st.skip_depth += 1,
                Event::End(_) => st.skip_depth -= 1,
                Event::Eof => break,
                _ => {}
            }
            continue;
        }
        match ev {
            Event::Start(e) => {
                // Alternate renderings (VML fallbacks) would repeat text-box content.
                if e.local_name().as_ref() == b"Fallback" {
                    st.skip_depth = 1;
                    continue;
                }
                st.start(&e, false);
            }
            Event::Empty(e) => st.start(&e, true),
            Event::End(e) => st.end(e.local_name().as_ref()),
            Event::Text(t) if st.in_t => {
                let s = t.unescape().map_err(corrupt)?;
                st.text(&s);
            }
            Event::CData(t) if st.in_t => {
                let s = String::from_utf8_lossy(&t).into_owned();
                st.text(&s);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    st.b.finish()
}

#[cfg(test)]
mod tests {
    use super::super::Block;
    use super::*;
    use crate::config::{Limits, RecognizeOptions};
    use crate::preprocess::{PreparedContent, preprocess, test_support::zip};

    fn parse(bytes: &[u8]) -> Result<OfficeDoc> {
        super::parse(bytes, Budget::new(&Limits::default())).map(|(d, _)| d)
    }

    const NS: &str = r#"xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main""#;

    fn docx(body: &str) -> Vec<u8> {
        let xml = format!(
            r#"<?xml version="1.0"?><w:document {NS}><w:body>{body}</w:body></w:document>"#
        );
        zip(&[
            ("[Content_Types].xml", b"<Types/>"),
            ("word/document.xml", xml.as_bytes()),
        ])
    }

    fn p(text: &str) -> String {
        format!(r#"<w:p><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>"#)
    }

    fn tc(text: &str) -> String {
        format!("<w:tc><w:tcPr/>{}</w:tc>", p(text))
    }

    #[test]
    fn paragraphs_tabs_tables_and_page_breaks() {
        let body = format!(
            r#"<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>
               <w:r><w:t>Rechnung</w:t></w:r><w:r><w:t xml:space="preserve"> Nr. 5</w:t><w:tab/><w:t>&amp; Co</w:t></w:r></w:p>
               <w:tbl><w:tr>{}{}</w:tr><w:tr>{}{}</w:tr></w:tbl>
               {}
               <w:p><w:r><w:t>Before</w:t><w:br w:type="page"/><w:t>After</w:t></w:r></w:p>
               <w:p><w:r><w:instrText> PAGE </w:instrText><w:t>x</w:t><w:br/><w:t>y</w:t></w:r></w:p>
               <w:sectPr><w:pgSz w:w="11906"/></w:sectPr>"#,
            tc("Artikel"),
            tc("Menge"),
            tc("Stift blau"),
            tc("3"),
            p("Summe 3")
        );
        let d = parse(&docx(&body)).unwrap();
        assert_eq!(d.page_count(), 2);
        assert_eq!(
            d.pages[0],
            vec![
                Block::Line(vec!["Rechnung Nr. 5".into(), "& Co".into()]),
                Block::Table(vec![
                    vec!["Artikel".into(), "Menge".into()],
                    vec!["Stift blau".into(), "3".into()]
                ]),
                Block::Line(vec!["Summe 3".into()]),
                Block::Line(vec!["Before".into()]),
            ]
        );
        assert_eq!(
            d.pages[1],
            vec![
                Block::Line(vec!["After".into()]),
                Block::Line(vec!["x".into()]),
                Block::Line(vec!["y".into()]),
            ]
        );
    }

    #[test]
    fn section_breaks_and_fallbacks() {
        let body = format!(
            r#"<w:p><w:pPr><w:sectPr><w:type w:val="continuous"/></w:sectPr></w:pPr><w:r><w:t>A</w:t></w:r></w:p>
               <w:p><w:pPr><w:sectPr/></w:pPr><w:r><w:t>B</w:t></w:r></w:p>
               <w:p><w:r><mc:AlternateContent xmlns:mc="m"><mc:Choice><w:t>C</w:t></mc:Choice><mc:Fallback><w:t>C</w:t></mc:Fallback></mc:AlternateContent></w:r></w:p>
               {}"#,
            p("D")
        );
        let d = parse(&docx(&body)).unwrap();
        assert_eq!(d.page_count(), 2);
        assert_eq!(d.pages[0].len(), 2);
        assert_eq!(
            d.pages[1],
            vec![Block::Line(vec!["C".into()]), Block::Line(vec!["D".into()])]
        );
    }

    #[test]
    fn damaged_xml_is_corrupt() {
        let z = zip(&[("word/document.xml", b"<w:document><w:body><w:p></w:body>")]);
        let e = parse(&z).unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::CorruptFile, "{e}");
    }

    #[test]
    fn a_body_that_is_not_a_document_is_corrupt_not_empty() {
        let bodies: [&[u8]; 6] = [
            b"\x00\x01\x02 binary garbage without markup",
            b"plain text",
            b"",
            b"<html><body>hello</body></html>",
            b"<w:document><w:body><w:p><w:r><w:t>cut",
            b"garbage <w:document/>",
        ];
        for body in bodies {
            let e = parse(&zip(&[("word/document.xml", body)])).unwrap_err();
            assert_eq!(
                e.code(),
                crate::error::ErrorCode::CorruptFile,
                "{:?}: {e}",
                String::from_utf8_lossy(body)
            );
        }
        // An empty but well-formed document is fine (one empty page).
        let d = parse(&docx("")).unwrap();
        assert_eq!(d.page_count(), 1);
    }

    #[test]
    fn text_and_unpacked_budgets_stop_huge_bodies() {
        // 200,000 paragraphs: under a 1 MB unpack budget it fails while unpacking; with room to
        // unpack, the text budget stops it.
        let body = p("Lorem ipsum dolor sit amet").repeat(200_000);
        let z = docx(&body);
        let limits = |unpacked, chars| Limits {
            max_unpacked_mb: unpacked,
            max_text_chars: chars,
            ..Limits::default()
        };
        let e = super::parse(&z, Budget::new(&limits(1, 10_000_000))).unwrap_err();
        assert!(e.to_string().contains("limits.max_unpacked_mb (1)"), "{e}");
        let e = super::parse(&z, Budget::new(&limits(100, 100_000))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "limits.max_text_chars (100000) exceeded while reading DOCX text"
        );
        // Empty paragraphs count too (one mark each).
        let z = docx(&"<w:p/>".repeat(200_000));
        assert!(super::parse(&z, Budget::new(&limits(100, 100_000))).is_err());
    }

    #[test]
    fn time_grows_linearly() {
        let small = docx(&format!(
            "{}{}",
            p("Item 12.50").repeat(2_000),
            tc("x").repeat(2_000)
        ));
        let big = docx(&format!(
            "{}{}",
            p("Item 12.50").repeat(16_000),
            tc("x").repeat(16_000)
        ));
        crate::preprocess::test_support::assert_near_linear("DOCX", &|k| {
            parse(if k == 1 { &small } else { &big }).unwrap();
        });
    }

    #[test]
    fn preprocess_docx_lays_out_selected_pages() {
        let body = format!(
            r#"{}<w:p><w:r><w:br w:type="page"/></w:r></w:p>{}<w:tbl><w:tr>{}{}</w:tr><w:tr>{}{}</w:tr></w:tbl>"#,
            p("Page one"),
            p("Page two"),
            tc("Name"),
            tc("Amount"),
            tc("Consulting services"),
            tc("1 500.00")
        );
        let opts = RecognizeOptions {
            pages: Some("2".into()),
            ..Default::default()
        };
        let out = preprocess(&docx(&body), &opts, &Limits::default(), &|_| Ok(0)).unwrap();
        assert_eq!((out.page_count, out.pages.clone()), (2, vec![2]));
        let PreparedContent::Office(pages) = out.content else {
            panic!("not office")
        };
        assert_eq!(pages.len(), 1);
        let pg = &pages[0];
        assert_eq!(pg.page, 2);
        let texts: Vec<&str> = pg.words.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Page",
                "two",
                "Name",
                "Amount",
                "Consulting",
                "services",
                "1",
                "500.00"
            ]
        );
        let x = |t: &str| pg.words.iter().find(|w| w.text == t).unwrap().bbox.x0;
        assert_eq!(x("Amount"), x("1"));
        let limits = Limits {
            max_pages: 1,
            ..Default::default()
        };
        let e = preprocess(&docx(&body), &RecognizeOptions::default(), &limits, &|_| {
            Ok(0)
        })
        .unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::TooManyPages);
    }
}
