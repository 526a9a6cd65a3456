//! A bounded XML reader for e-invoices: one pass over quick-xml events into a compact tree of
//! local names, which the CII and UBL mappings walk by path.
//!
//! - Namespace-agnostic: elements and attributes are matched by their local names (`ram:ID`,
//!   `cbc:ID` and a default-namespace `ID` are all `ID`); only the root's namespace URI is kept,
//!   for [`super::sniff`] and [`super::parse`] to check.
//! - Safe: a DOCTYPE is refused (no DTD, no entity expansion, nothing fetched, ever); only the
//!   predefined and numeric character references are decoded; CDATA is text.
//! - Bounded: at most [`MAX_BYTES`] of input, [`MAX_DEPTH`] levels, [`MAX_ELEMENTS`] elements.
//!   The tree costs a fixed 28 bytes per element plus the text it holds, and is built in one pass.
//!
//! Malformed XML (unclosed or mismatched tags, bad references, truncated input, a second root,
//! text outside the root, bytes that are not UTF-8) is `CORRUPT_FILE` with a message saying what.

use crate::error::{Error, Result};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use std::collections::HashMap;

/// The largest XML accepted, in bytes (16 MiB).
pub const MAX_BYTES: usize = 16 * 1024 * 1024;
/// The deepest element nesting accepted.
pub const MAX_DEPTH: usize = 64;
/// The most elements accepted.
pub const MAX_ELEMENTS: usize = 1_000_000;

const NONE: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct Node {
    name: u32,
    first_child: u32,
    next_sibling: u32,
    text: (u32, u32),
    attrs: (u32, u32),
}

#[derive(Debug, Clone, Copy)]
struct Attr {
    name: u32,
    value: (u32, u32),
}

/// A parsed XML document: the element tree by local names.
#[derive(Debug)]
pub struct Doc {
    names: Vec<Box<str>>,
    nodes: Vec<Node>,
    attrs: Vec<Attr>,
    text: String,
    root_ns: Option<String>,
}

/// One element of a [`Doc`].
#[derive(Debug, Clone, Copy)]
pub struct El<'a> {
    doc: &'a Doc,
    id: u32,
}

impl Doc {
    /// The root element.
    pub fn root(&self) -> El<'_> {
        El { doc: self, id: 0 }
    }

    /// The namespace URI of the root element (`None` when it has none).
    pub fn root_ns(&self) -> Option<&str> {
        self.root_ns.as_deref()
    }

    fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    fn slice(&self, (start, len): (u32, u32)) -> &str {
        &self.text[start as usize..(start + len) as usize]
    }
}

impl<'a> El<'a> {
    /// The local name (`ID` for `ram:ID`).
    pub fn name(&self) -> &'a str {
        &self.doc.names[self.doc.node(self.id).name as usize]
    }

    /// The element's own text, trimmed; `None` when empty.
    pub fn text(&self) -> Option<&'a str> {
        let t = self.doc.slice(self.doc.node(self.id).text).trim();
        (!t.is_empty()).then_some(t)
    }

    /// An attribute by local name (`unitCode`, `currencyID`, `schemeID`, `format`), trimmed.
    pub fn attr(&self, local: &str) -> Option<&'a str> {
        let (start, len) = self.doc.node(self.id).attrs;
        self.doc.attrs[start as usize..(start + len) as usize]
            .iter()
            .find(|a| &*self.doc.names[a.name as usize] == local)
            .map(|a| self.doc.slice(a.value).trim())
    }

    /// The child elements, in document order.
    pub fn children(&self) -> Children<'a> {
        Children {
            doc: self.doc,
            next: self.doc.node(self.id).first_child,
        }
    }

    /// The child elements with a local name.
    pub fn all<'n>(&self, name: &'n str) -> impl Iterator<Item = El<'a>> + use<'a, 'n> {
        self.children().filter(move |c| c.name() == name)
    }

    /// The first child with a local name.
    pub fn child(&self, name: &str) -> Option<El<'a>> {
        self.children().find(|c| c.name() == name)
    }

    /// The first element at a path of local names below this one (`["A", "B"]`: the first `B`
    /// child of the first `A` child that has one).
    pub fn at(&self, path: &[&str]) -> Option<El<'a>> {
        match path {
            [] => Some(*self),
            [last] => self.child(last),
            [first, rest @ ..] => self.all(first).find_map(|c| c.at(rest)),
        }
    }

    /// Every element at a path of local names below this one, in document order.
    pub fn all_at(&self, path: &[&str]) -> Vec<El<'a>> {
        let mut out = Vec::new();
        self.collect_at(path, &mut out);
        out
    }

    fn collect_at(&self, path: &[&str], out: &mut Vec<El<'a>>) {
        match path {
            [] => out.push(*self),
            [first, rest @ ..] => {
                for c in self.all(first) {
                    c.collect_at(rest, out);
                }
            }
        }
    }

    /// The text of the first element at a path that has text.
    pub fn text_at(&self, path: &[&str]) -> Option<&'a str> {
        match path {
            [] => self.text(),
            [first, rest @ ..] => self.all(first).find_map(|c| c.text_at(rest)),
        }
    }
}

/// Iterator over an element's children.
#[derive(Debug, Clone)]
pub struct Children<'a> {
    doc: &'a Doc,
    next: u32,
}

impl<'a> Iterator for Children<'a> {
    type Item = El<'a>;

    fn next(&mut self) -> Option<El<'a>> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        self.next = self.doc.node(id).next_sibling;
        Some(El { doc: self.doc, id })
    }
}

fn corrupt(what: impl std::fmt::Display) -> Error {
    Error::CorruptFile(format!("e-invoice XML: {what}"))
}

/// Skips a UTF-8 byte order mark; refuses UTF-16 (e-invoices are UTF-8 by EN 16931 practice and
/// both syntaxes' schemas).
fn strip_bom(bytes: &[u8]) -> Result<&[u8]> {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return Ok(rest);
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Err(corrupt("UTF-16 is not supported, only UTF-8"));
    }
    Ok(bytes)
}

/// The local part of a qualified name.
fn local(qname: &[u8]) -> &[u8] {
    match qname.iter().rposition(|&b| b == b':') {
        Some(i) => &qname[i + 1..],
        None => qname,
    }
}

/// The namespace URI an element's own `xmlns` / `xmlns:prefix` attributes give its prefix.
fn own_ns(e: &BytesStart<'_>) -> Result<Option<String>> {
    let qname = e.name();
    let qname = qname.as_ref();
    let prefix = qname.iter().position(|&b| b == b':').map(|i| &qname[..i]);
    for a in e.attributes().with_checks(false) {
        let a = a.map_err(corrupt)?;
        let key = a.key.as_ref();
        let matches = match prefix {
            Some(p) => key.strip_prefix(b"xmlns:") == Some(p),
            None => key == b"xmlns",
        };
        if matches {
            return Ok(Some(a.unescape_value().map_err(corrupt)?.into_owned()));
        }
    }
    Ok(None)
}

fn utf8(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|_| corrupt("a name is not valid UTF-8"))
}

/// The root element's local name and namespace URI, reading at most `limit` bytes; `None` when
/// the prefix holds no well-formed start of an XML document.
pub fn root_of(bytes: &[u8], limit: usize) -> Option<(String, Option<String>)> {
    let bytes = strip_bom(bytes).ok()?;
    let bytes = &bytes[..bytes.len().min(limit)];
    let mut reader = Reader::from_reader(bytes);
    loop {
        match reader.read_event().ok()? {
            Event::Start(e) | Event::Empty(e) => {
                let name = utf8(local(e.name().as_ref())).ok()?.to_string();
                return Some((name, own_ns(&e).ok()?));
            }
            Event::Text(t) if t.iter().all(u8::is_ascii_whitespace) => {}
            Event::Decl(_) | Event::Comment(_) | Event::PI(_) | Event::DocType(_) => {}
            _ => return None,
        }
    }
}

struct Builder {
    doc: Doc,
    name_ids: HashMap<Box<str>, u32>,
    /// Open elements: (node id, last child id, own text).
    stack: Vec<(u32, u32, String)>,
    /// The interned qualified attribute names of the element being opened.
    keys: Vec<u32>,
}

impl Builder {
    fn intern(&mut self, name: &[u8]) -> Result<u32> {
        let name = utf8(name)?;
        if let Some(&id) = self.name_ids.get(name) {
            return Ok(id);
        }
        let id = self.doc.names.len() as u32;
        self.doc.names.push(name.into());
        self.name_ids.insert(name.into(), id);
        Ok(id)
    }

    fn push_text(&mut self, s: &str) -> (u32, u32) {
        let start = self.doc.text.len() as u32;
        self.doc.text.push_str(s);
        (start, s.len() as u32)
    }

    fn open(&mut self, e: &BytesStart<'_>) -> Result<u32> {
        if self.stack.is_empty() && !self.doc.nodes.is_empty() {
            return Err(corrupt("a second element after the root element"));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(corrupt(format!(
                "elements nested deeper than {MAX_DEPTH} levels"
            )));
        }
        if self.doc.nodes.len() >= MAX_ELEMENTS {
            return Err(corrupt(format!("more than {MAX_ELEMENTS} elements")));
        }
        if self.doc.nodes.is_empty() {
            self.doc.root_ns = own_ns(e)?;
        }
        let name = self.intern(local(e.name().as_ref()))?;
        let attr_start = self.doc.attrs.len() as u32;
        // Duplicate attributes are found by sorting the interned qualified names (quick-xml's
        // own check is quadratic in the number of attributes).
        self.keys.clear();
        for a in e.attributes().with_checks(false) {
            let a = a.map_err(corrupt)?;
            let key = a.key.as_ref();
            let qualified = self.intern(key)?;
            self.keys.push(qualified);
            if key == b"xmlns" || key.starts_with(b"xmlns:") {
                continue;
            }
            let value = a.unescape_value().map_err(corrupt)?;
            let name = self.intern(local(key))?;
            let value = self.push_text(&value);
            self.doc.attrs.push(Attr { name, value });
        }
        self.keys.sort_unstable();
        if self.keys.windows(2).any(|w| w[0] == w[1]) {
            return Err(corrupt("an element has the same attribute twice"));
        }
        let id = self.doc.nodes.len() as u32;
        self.doc.nodes.push(Node {
            name,
            first_child: NONE,
            next_sibling: NONE,
            text: (0, 0),
            attrs: (attr_start, self.doc.attrs.len() as u32 - attr_start),
        });
        if let Some(parent) = self.stack.last_mut() {
            if parent.1 == NONE {
                self.doc.nodes[parent.0 as usize].first_child = id;
            } else {
                self.doc.nodes[parent.1 as usize].next_sibling = id;
            }
            parent.1 = id;
        }
        Ok(id)
    }

    fn close(&mut self) {
        if let Some((id, _, text)) = self.stack.pop() {
            let range = self.push_text(&text);
            self.doc.nodes[id as usize].text = range;
        }
    }

    fn text(&mut self, s: &str) -> Result<()> {
        match self.stack.last_mut() {
            Some(top) => {
                top.2.push_str(s);
                Ok(())
            }
            None if s.trim().is_empty() => Ok(()),
            None => Err(corrupt("text outside the root element")),
        }
    }
}

/// XML end-of-line handling: `\r\n` and a lone `\r` are `\n` (before references are decoded,
/// so a `&#13;` stays a carriage return).
fn line_ends(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains('\r') {
        s.replace("\r\n", "\n").replace('\r', "\n").into()
    } else {
        s.into()
    }
}

/// Parses an XML document into a [`Doc`], within the limits above.
pub fn read(bytes: &[u8]) -> Result<Doc> {
    if bytes.len() > MAX_BYTES {
        return Err(Error::FileTooLarge {
            size: bytes.len() as u64,
            limit: MAX_BYTES as u64,
        });
    }
    let bytes = strip_bom(bytes)?;
    let mut reader = Reader::from_reader(bytes);
    reader.config_mut().check_end_names = true;
    let mut b = Builder {
        doc: Doc {
            names: Vec::new(),
            nodes: Vec::new(),
            attrs: Vec::new(),
            text: String::new(),
            root_ns: None,
        },
        name_ids: HashMap::new(),
        stack: Vec::new(),
        keys: Vec::new(),
    };
    loop {
        let at = reader.buffer_position();
        let ev = reader
            .read_event()
            .map_err(|e| corrupt(format!("malformed at byte {at}: {e}")))?;
        match ev {
            Event::DocType(_) => {
                return Err(corrupt(
                    "a DOCTYPE (DTD) is not allowed: entities and external references are refused",
                ));
            }
            Event::Start(e) => {
                let id = b.open(&e)?;
                b.stack.push((id, NONE, String::new()));
            }
            Event::Empty(e) => {
                b.open(&e)?;
            }
            Event::End(_) => b.close(),
            Event::Text(t) => {
                let raw = std::str::from_utf8(&t)
                    .map_err(|_| corrupt(format!("text at byte {at} is not UTF-8")))?;
                let raw = line_ends(raw);
                let s = quick_xml::escape::unescape(&raw)
                    .map_err(|e| corrupt(format!("bad text at byte {at}: {e}")))?;
                b.text(&s)?;
            }
            Event::CData(c) => {
                let s = std::str::from_utf8(&c)
                    .map_err(|_| corrupt(format!("CDATA at byte {at} is not UTF-8")))?;
                b.text(&line_ends(s))?;
            }
            Event::Decl(d) => {
                // Read as UTF-8 whatever is declared: refuse a declared other encoding only
                // where the bytes are not UTF-8 (plain ASCII content is the same either way).
                if let Some(Ok(enc)) = d.encoding()
                    && !matches!(
                        enc.to_ascii_lowercase().as_slice(),
                        b"utf-8" | b"utf8" | b"us-ascii" | b"ascii"
                    )
                    && std::str::from_utf8(bytes).is_err()
                {
                    return Err(corrupt(format!(
                        "the encoding {} is not supported (e-invoices are UTF-8)",
                        String::from_utf8_lossy(&enc)
                    )));
                }
            }
            Event::Comment(_) | Event::PI(_) => {}
            Event::Eof => break,
        }
    }
    if let Some(&(id, _, _)) = b.stack.last() {
        let name = b.doc.names[b.doc.nodes[id as usize].name as usize].to_string();
        return Err(corrupt(format!(
            "the document ends inside <{name}> (truncated?)"
        )));
    }
    if b.doc.nodes.is_empty() {
        return Err(corrupt("no root element"));
    }
    Ok(b.doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(r: Result<Doc>) -> (crate::ErrorCode, String) {
        let e = r.expect_err("refused");
        (e.code(), e.to_string())
    }

    #[test]
    fn local_names_text_attributes_and_paths() {
        let x = br#"<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment --><?pi x?>
<r:Root xmlns:r="urn:r" xmlns:q="urn:q"><q:A><q:B unitCode="H87" q:currencyID=" EUR ">1 &amp; &#x32; &lt;3&#62;</q:B></q:A>
<A><B>second</B><C><![CDATA[<raw> & ]]></C></A><A/></r:Root>"#;
        let doc = read(x).unwrap();
        let root = doc.root();
        assert_eq!(root.name(), "Root");
        assert_eq!(doc.root_ns(), Some("urn:r"));
        let b = root.at(&["A", "B"]).unwrap();
        assert_eq!(b.text(), Some("1 & 2 <3>"));
        assert_eq!(b.attr("unitCode"), Some("H87"));
        assert_eq!(b.attr("currencyID"), Some("EUR"));
        assert_eq!(b.attr("schemeID"), None);
        assert_eq!(root.all("A").count(), 3);
        let bs: Vec<_> = root
            .all_at(&["A", "B"])
            .iter()
            .map(|e| e.text().unwrap())
            .collect();
        assert_eq!(bs, ["1 & 2 <3>", "second"]);
        assert_eq!(root.text_at(&["A", "C"]), Some("<raw> &"));
        assert_eq!(root.text_at(&["A", "D"]), None);
        assert_eq!(root.text(), None);
    }

    #[test]
    fn declared_encodings() {
        let ascii = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>x</a>";
        assert_eq!(read(ascii).unwrap().root().text(), Some("x"));
        let (_, m) = code(read(
            b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>\xE4</a>",
        ));
        assert!(m.contains("ISO-8859-1 is not supported"), "{m}");
    }

    #[test]
    fn line_ends_are_normalised() {
        let doc =
            read(b"<a><b>one\r\ntwo\rthree&#13;four</b><c><![CDATA[x\r\ny]]></c></a>").unwrap();
        assert_eq!(doc.root().text_at(&["b"]), Some("one\ntwo\nthree\rfour"));
        assert_eq!(doc.root().text_at(&["c"]), Some("x\ny"));
    }

    #[test]
    fn default_namespace_and_bom() {
        let doc = read(b"\xEF\xBB\xBF<Invoice xmlns=\"urn:x\"><ID>1</ID></Invoice>").unwrap();
        assert_eq!(doc.root_ns(), Some("urn:x"));
        assert_eq!(doc.root().text_at(&["ID"]), Some("1"));
    }

    #[test]
    fn doctype_and_entity_bombs_are_refused() {
        let bomb = br#"<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<lolz>&lol2;</lolz>"#;
        let (c, m) = code(read(bomb));
        assert_eq!(c, crate::ErrorCode::CorruptFile);
        assert!(m.contains("DOCTYPE"), "{m}");
        // An undeclared entity without a DOCTYPE is an error too, never expanded.
        let (c, m) = code(read(b"<a>&lol;</a>"));
        assert_eq!(c, crate::ErrorCode::CorruptFile);
        assert!(m.contains("lol"), "{m}");
        let (c, _) = code(read(
            b"<!DOCTYPE a SYSTEM \"http://example.com/x.dtd\"><a/>",
        ));
        assert_eq!(c, crate::ErrorCode::CorruptFile);
    }

    #[test]
    fn depth_limit() {
        let nest = |n: usize| {
            let mut s = String::new();
            for _ in 0..n {
                s.push_str("<a>");
            }
            for _ in 0..n {
                s.push_str("</a>");
            }
            s
        };
        assert!(read(nest(MAX_DEPTH).as_bytes()).is_ok());
        let (c, m) = code(read(nest(MAX_DEPTH + 1).as_bytes()));
        assert_eq!(c, crate::ErrorCode::CorruptFile);
        assert!(m.contains("deeper than 64"), "{m}");
    }

    #[test]
    fn element_and_size_limits() {
        let mut s = String::from("<r>");
        for _ in 0..MAX_ELEMENTS {
            s.push_str("<a/>");
        }
        s.push_str("</r>");
        let (c, m) = code(read(s.as_bytes()));
        assert_eq!(c, crate::ErrorCode::CorruptFile);
        assert!(m.contains("more than 1000000 elements"), "{m}");
        let big = vec![b' '; MAX_BYTES + 1];
        let (c, _) = code(read(&big));
        assert_eq!(c, crate::ErrorCode::FileTooLarge);
    }

    #[test]
    fn many_attributes_on_one_element() {
        // 200,000 distinct attributes: read in one pass (a quadratic duplicate check would take
        // minutes), and a duplicate among them is found.
        let mut s = String::from("<r");
        for i in 0..200_000 {
            s.push_str(&format!(" a{i}=\"\""));
        }
        let ok = format!("{s}/>");
        let doc = read(ok.as_bytes()).unwrap();
        assert_eq!(doc.root().attr("a199999"), Some(""));
        let dup = format!("{s} a7=\"x\"/>");
        let (c, m) = code(read(dup.as_bytes()));
        assert_eq!(c, crate::ErrorCode::CorruptFile);
        assert!(m.contains("same attribute twice"), "{m}");
        // The root's namespace is looked up without the quadratic check too.
        assert_eq!(
            root_of(ok.as_bytes(), MAX_BYTES).map(|r| r.0),
            Some("r".into())
        );
    }

    #[test]
    fn malformed_is_corrupt() {
        for bad in [
            &b"<a><b></a>"[..],
            b"<a>",
            b"<a><b>text</b>",
            b"<a x=\"1\" x=\"2\"/>",
            b"<a/><b/>",
            b"<a/>tail",
            b"",
            b"   ",
            b"not xml",
            b"<a>\xFF\xFE</a>",
            b"\xFF\xFE<\0a\0/\0>\0",
            b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>\xE4</a>",
            b"<a attr=noquotes/>",
        ] {
            let (c, m) = code(read(bad));
            assert_eq!(c, crate::ErrorCode::CorruptFile, "{m}");
            assert!(m.starts_with("corrupt file: e-invoice XML: "), "{m}");
        }
    }

    #[test]
    fn root_of_reads_a_bounded_prefix() {
        let x = b"\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- c --><?p?><!DOCTYPE x>\n<p:Inv xmlns:p=\"urn:i\">";
        assert_eq!(
            root_of(x, 1 << 16),
            Some(("Inv".to_string(), Some("urn:i".to_string())))
        );
        assert_eq!(root_of(x, 20), None);
        assert_eq!(root_of(b"garbage<a/>", 100), None);
        assert_eq!(root_of(b"<a/>", 100), Some(("a".to_string(), None)));
    }
}
