//! DOCX: `word/document.xml` streamed with quick-xml (paragraphs, runs, tabs, breaks, tables).

use super::{Builder, OfficeDoc, read_zip_entry};
use crate::error::{Error, Result};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

fn attr(e: &BytesStart<'_>, local: &[u8]) -> Option<String> {
    e.attributes().flatten().find_map(|a| {
        (a.key.local_name().as_ref() == local)
            .then(|| a.unescape_value().map(|v| v.into_owned()).ok())
            .flatten()
    })
}

/// Parses a DOCX; `limit` caps the unpacked size of the main part.
pub(super) fn parse(bytes: &[u8], limit: u64) -> Result<OfficeDoc> {
    let xml = read_zip_entry(bytes, "word/document.xml", limit)?
        .ok_or_else(|| Error::CorruptFile("DOCX without word/document.xml".into()))?;
    parse_document_xml(&xml)
}

#[derive(Default)]
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

/// Parses the XML of the main document part.
pub(super) fn parse_document_xml(xml: &[u8]) -> Result<OfficeDoc> {
    let mut r = Reader::from_reader(xml);
    r.config_mut().trim_text(false);
    let mut st = State::default();
    let corrupt = |e: quick_xml::Error| Error::CorruptFile(format!("damaged DOCX XML: {e}"));
    loop {
        let ev = r.read_event().map_err(corrupt)?;
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
    Ok(st.b.finish())
}

#[cfg(test)]
mod tests {
    use super::super::Block;
    use super::*;
    use crate::config::{Limits, RecognizeOptions};
    use crate::preprocess::{PreparedContent, preprocess, test_support::zip};

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
        let d = parse(&docx(&body), 1 << 20).unwrap();
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
        let d = parse(&docx(&body), 1 << 20).unwrap();
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
        let e = parse(&z, 1 << 20).unwrap_err();
        assert_eq!(e.code(), crate::error::ErrorCode::CorruptFile, "{e}");
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
