#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into fuzz/corpus/<target>/ (not committed).

Seeds are the fixtures (fixtures/docs) sorted by target, plus small documents made here for the
formats the fixtures lack (DOC, XLS, words JSON, hOCR) or have only as large scans (images: small
crops in several encodings, so an execution takes milliseconds, not a full page's decoding).
Idempotent: files are named by content, a second run adds nothing. Needs Pillow (the project's
.venv has it): `.venv/bin/python fuzz/seed.py`.
"""

from __future__ import annotations

import hashlib
import io
import json
import struct
import sys
import zipfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "fixtures" / "docs"
CORPUS = ROOT / "fuzz" / "corpus"

TARGETS_BY_SUFFIX = {
    ".pdf": "pdf",
    ".png": "image",
    ".jpg": "image",
    ".tiff": "image",
    ".docx": "docx",
    ".xlsx": "sheet",
    ".rtf": "rtf",
    ".xml": "einvoice",
}


def put(target: str, data: bytes) -> None:
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


# ---------------------------------------------------------------- OLE compound files (DOC, XLS)

FREE, END, FATSECT, NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF


def _dir_entry(name: str, kind: int, start: int, size: int, left=NOSTREAM, right=NOSTREAM,
               child=NOSTREAM) -> bytes:
    raw = name.encode("utf-16-le") + b"\0\0"
    e = raw.ljust(64, b"\0") + struct.pack("<HBB3I", len(raw), kind, 1, left, right, child)
    e += b"\0" * 16 + b"\0" * 4 + b"\0" * 16 + struct.pack("<IQ", start, size)
    assert len(e) == 128
    return e


def compound_file(streams: dict[str, bytes]) -> bytes:
    """A version-3 compound file (512-byte sectors) with the given root-level streams. Streams
    under 4096 bytes live in the mini stream, as real writers put them."""
    names = sorted(streams, key=lambda n: (len(n), n.upper()))
    sectors: list[bytes] = []
    fat: list[int] = []

    def chain(data: bytes, size: int) -> int:
        if not data:
            return END
        first = len(sectors)
        n = (len(data) + size - 1) // size
        for i in range(n):
            sectors.append(data[i * size:(i + 1) * size].ljust(size, b"\0"))
            fat.append(first + i + 1 if i < n - 1 else END)
        return first

    mini = bytearray()
    minifat: list[int] = []
    starts = {}
    for n in names:
        data = streams[n]
        if len(data) < 4096:
            first = len(mini) // 64
            k = max(1, (len(data) + 63) // 64)
            mini += data.ljust(k * 64, b"\0")
            minifat += [first + i + 1 if i < k - 1 else END for i in range(k)]
            starts[n] = first
        else:
            starts[n] = chain(data, 512)
    mini_start = chain(bytes(mini), 512)
    minifat_bytes = b"".join(struct.pack("<I", v) for v in minifat)
    minifat_start = chain(minifat_bytes, 512) if minifat else END
    # Directory: the root, then the streams as a balanced tree (middle as the root's child).
    entries = [None] * (len(names) + 1)

    def tree(lo: int, hi: int) -> int:
        if lo >= hi:
            return NOSTREAM
        mid = (lo + hi) // 2
        left, right = tree(lo, mid), tree(mid + 1, hi)
        n = names[mid]
        entries[mid + 1] = _dir_entry(n, 2, starts[n], len(streams[n]), left, right)
        return mid + 1

    child = tree(0, len(names))
    entries[0] = _dir_entry("Root Entry", 5, mini_start, len(mini), child=child)
    directory = b"".join(entries)
    dir_start = chain(directory.ljust((len(directory) + 511) // 512 * 512, b"\0"), 512)
    # FAT sectors: enough to describe every sector, themselves included.
    n_fat = 1
    while (len(sectors) + n_fat) > n_fat * 128:
        n_fat += 1
    fat_first = len(sectors)
    fat += [FATSECT] * n_fat
    fat += [FREE] * (n_fat * 128 - len(fat))
    fat_bytes = b"".join(struct.pack("<I", v) for v in fat)
    for i in range(n_fat):
        sectors.append(fat_bytes[i * 512:(i + 1) * 512])
    difat = [fat_first + i for i in range(n_fat)] + [FREE] * (109 - n_fat)
    header = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1" + b"\0" * 16
    header += struct.pack("<HHHHH", 0x3E, 3, 0xFFFE, 9, 6) + b"\0" * 6
    header += struct.pack("<IIIIIIIII", 0, n_fat, dir_start, 0, 4096, minifat_start,
                          len(minifat_bytes) // 512 + (1 if len(minifat_bytes) % 512 else 0),
                          END, 0)
    header += b"".join(struct.pack("<I", v) for v in difat)
    assert len(header) == 512
    return header + b"".join(sectors)


def word97(pieces: list[tuple[str, bool]], table_1: bool, paras: list[str] | None = None) -> bytes:
    """A minimal Word 97 file: FIB, text pieces (compressed = cp1252 bytes, else UTF-16), and a
    CLX with one Prc and the piece table, in 0Table or 1Table. With `paras` (one of "body",
    "cell", "row" per paragraph, a paragraph ending at each CR or cell mark), a PAPX FKP marks
    table cells and row ends."""
    wd = bytearray(1024)
    struct.pack_into("<HH", wd, 0, 0xA5EC, 193)
    struct.pack_into("<H", wd, 0x0A, 0x0200 if table_1 else 0)
    struct.pack_into("<H", wd, 32, 14)
    struct.pack_into("<H", wd, 62, 22)
    struct.pack_into("<H", wd, 152, 93)
    cps, pcds, char_fcs = [0], [], []
    for text, compressed in pieces:
        fc = len(wd)
        for ch in text:
            char_fcs.append((ch, len(wd)))
            wd += ch.encode("cp1252") if compressed else ch.encode("utf-16-le")
        cps.append(cps[-1] + len(text))
        pcds.append((fc * 2) | 0x40000000 if compressed else fc)
    struct.pack_into("<I", wd, 76, cps[-1])
    table = bytearray(16)
    if paras is not None:
        wd += b"\0" * (-len(wd) % 512)
        pn = len(wd) // 512
        page = bytearray(512)
        bounds = [char_fcs[0][1]]
        for i, (ch, fc) in enumerate(char_fcs):
            if ch in "\r\x07":
                bounds.append(char_fcs[i + 1][1] if i + 1 < len(char_fcs) else fc + 2)
        crun = len(bounds) - 1
        assert crun == len(paras)
        for i, fc in enumerate(bounds):
            struct.pack_into("<I", page, i * 4, fc)
        page[400:406] = bytes([3, 0, 0, 0x16, 0x24, 1])
        page[420:430] = bytes([0, 4, 0, 0, 0x16, 0x24, 1, 0x17, 0x24, 1])
        for r, kind in enumerate(paras):
            page[4 * (crun + 1) + 13 * r] = {"body": 0, "cell": 200, "row": 210}[kind]
        page[511] = crun
        wd += page
        plc_fc = len(table)
        table += struct.pack("<III", bounds[0], bounds[crun], pn)
        struct.pack_into("<II", wd, 154 + 13 * 8, plc_fc, 12)
    clx_fc = len(table)
    table += bytes([1, 2, 0, 0xAA, 0xBB])
    table += bytes([2]) + struct.pack("<I", len(cps) * 4 + len(pcds) * 8)
    table += b"".join(struct.pack("<I", c) for c in cps)
    table += b"".join(b"\0\0" + struct.pack("<I", p) + b"\0\0" for p in pcds)
    struct.pack_into("<II", wd, 154 + 33 * 8, clx_fc, len(table) - clx_fc)
    return compound_file({"WordDocument": bytes(wd), "1Table" if table_1 else "0Table": bytes(table)})


def _rec(kind: int, body: bytes) -> bytes:
    return struct.pack("<HH", kind, len(body)) + body


def biff8(rows: list[list[str | float]], sheet: str = "Invoice") -> bytes:
    """A minimal Excel 97 workbook: globals (BOF, CODEPAGE, BOUNDSHEET, EOF) and one worksheet
    of LABEL and NUMBER cells."""
    bof = lambda dt: _rec(0x0809, struct.pack("<HHHHII", 0x0600, dt, 0x0DBB, 0x07CC, 0, 6))
    name = sheet.encode("latin-1")
    globals_ = bof(0x0005) + _rec(0x0042, struct.pack("<H", 1200))
    boundsheet_len = 4 + 4 + 2 + 2 + len(name)
    eof = _rec(0x000A, b"")
    sheet_pos = len(globals_) + boundsheet_len + len(eof)
    globals_ += _rec(0x0085, struct.pack("<IBBBB", sheet_pos, 0, 0, len(name), 0) + name) + eof
    cols = max(len(r) for r in rows)
    body = bof(0x0010) + _rec(0x0200, struct.pack("<IIHHH", 0, len(rows), 0, cols, 0))
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if isinstance(v, str):
                s = v.encode("utf-16-le")
                body += _rec(0x0204, struct.pack("<HHHHB", r, c, 0, len(v), 1) + s)
            else:
                body += _rec(0x0203, struct.pack("<HHHd", r, c, 0, v))
    body += eof
    return compound_file({"Workbook": globals_ + body})


# ---------------------------------------------------------------- other generated seeds

INVOICE_LINES = [
    "ACME Trading GmbH, Hauptstr. 1, 10115 Berlin",
    "Invoice INV-1001",
    "Date: 12.03.2024",
    "Blue pen 2 x 50.00 100.00",
    "Net 100.00 EUR",
    "VAT 19% 19.00 EUR",
    "Total 119.00 EUR",
    "IBAN DE89 3704 0044 0532 0130 00",
]


def words_json() -> list[bytes]:
    words = [{"text": t, "bbox": [120, 100 + 45 * i, 120 + 14 * len(t), 128 + 45 * i],
              "confidence": 0.95} for i, t in enumerate(INVOICE_LINES)]
    one = {"pages": [{"width": 1240, "height": 1754, "words": words}]}
    two = {"pages": [{"width": 1240, "height": 1754, "words": words[:4]},
                     {"width": 800, "height": 600, "words": [
                         {"text": "Seite 2", "bbox": [10, 10, 90, 30], "confidence": 88}]}]}
    return [json.dumps(one).encode(), json.dumps(two).encode(), b'{"pages": []}']


def hocr() -> list[bytes]:
    spans = "\n".join(
        f"<span class='ocr_line' title='bbox 100 {80 + 45 * i} 900 {110 + 45 * i}'>"
        + "".join(f"<span class='ocrx_word' title='bbox {100 + 90 * j} {80 + 45 * i} "
                  f"{180 + 90 * j} {110 + 45 * i}; x_wconf 93'>{w.replace('&', '&amp;')}</span> "
                  for j, w in enumerate(t.split()))
        + "</span>" for i, t in enumerate(INVOICE_LINES))
    doc = f"""<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><meta name='ocr-system' content='tesseract'/></head>
<body><div class='ocr_page' id='page_1' title='image "a.png"; bbox 0 0 1240 1754; ppageno 0'>
{spans}
</div><div class='ocr_page' title='bbox 0 0 600 400'><span class='ocr_line' title='bbox 1 1 50 20'>Line only</span></div>
</body></html>"""
    return [doc.encode()]


def images() -> list[bytes]:
    """Small crops of the fixture scans in the encodings the loaders handle."""
    out = []
    for src in sorted(DOCS.glob("*")):
        if src.suffix not in (".png", ".jpg", ".tiff"):
            continue
        with Image.open(src) as im:
            im.load()
            w, h = im.size
            crop = im.crop((w // 10, h // 10, w // 10 + min(160, w), h // 10 + min(120, h)))
            crop.info = {}  # no compression inherited from the source TIFF
        for mode, fmt, kw in (("L", "PNG", {}), ("RGB", "PNG", {}), ("P", "PNG", {}),
                              ("RGBA", "PNG", {}), ("1", "PNG", {}), ("L", "JPEG", {"quality": 60}),
                              ("RGB", "JPEG", {"quality": 60}), ("L", "TIFF", {"compression": "raw"}),
                              ("1", "TIFF", {"compression": "packbits"}),
                              ("RGB", "TIFF", {"compression": "tiff_lzw"})):
            buf = io.BytesIO()
            crop.convert(mode).save(buf, fmt, **kw)
            out.append(buf.getvalue())
        # A two-page TIFF.
        buf = io.BytesIO()
        pages = [crop.convert("L"), crop.convert("L").rotate(90, expand=True)]
        pages[0].save(buf, "TIFF", save_all=True, append_images=pages[1:])
        out.append(buf.getvalue())
    return out


def docx() -> bytes:
    body = "".join(f"<w:p><w:r><w:t>{t}</w:t></w:r></w:p>" for t in INVOICE_LINES)
    table = ("<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Item</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r>"
             "<w:t>Price</w:t></w:r></w:p></w:tc></w:tr></w:tbl>")
    document = ('<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.'
                'openxmlformats.org/wordprocessingml/2006/main"><w:body>'
                f'{body}{table}<w:p><w:r><w:br w:type="page"/><w:tab/><w:t>2</w:t></w:r></w:p>'
                '</w:body></w:document>')
    buf = io.BytesIO()
    types = ('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
             'content-types"/>')
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, content in (("[Content_Types].xml", types), ("word/document.xml", document)):
            # A fixed date: the same bytes on every run.
            z.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), content,
                       compress_type=zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def rtf() -> bytes:
    lines = "\\par\n".join(INVOICE_LINES)
    return ("{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Arial;}{\\f1\\fcharset204 Times;}}\n"
            f"{lines}\\par\n\\trowd\\cellx2000\\cellx4000 Item\\cell 12.50\\cell\\row\n"
            "{\\f1 \\'d1\\'f7\\'e5\\'f2}\\page \\u8364? 5\\tab x}").encode("latin-1")


def multipart_body(boundary: bytes, parts: list[tuple[bytes, bytes | None, bytes]]) -> bytes:
    """A multipart/form-data body of (name, file name or None, bytes) parts, CRLF line ends."""
    out = b""
    for name, filename, data in parts:
        disposition = b'form-data; name="' + name + b'"'
        headers = b""
        if filename is not None:
            disposition += b'; filename="' + filename + b'"'
            headers = b"Content-Type: application/octet-stream\r\n"
        out += b"--" + boundary + b"\r\nContent-Disposition: " + disposition + b"\r\n" + headers
        out += b"\r\n" + data + b"\r\n"
    return out + b"--" + boundary + b"--\r\n"


def multipart() -> list[bytes]:
    """multipart target: a chunking seed byte, a limits byte, the boundary and a newline, then the
    body (see fuzz/fuzz_targets/multipart.rs)."""
    pdf = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
    forms = [
        [(b"files[]", b"invoice.pdf", pdf), (b"metadata", None, b'{"ref":"A-1"}'),
         (b"use_heavy_ai", None, b"false")],
        [(b"files[]", b"../../etc/passwd", b"x" * 70), (b"files", b"C:\\scan\\a.png", b"\x89PNG"),
         (b"files[]", "Рахунок №5.pdf".encode(), pdf), (b"selected_pages", None, b"1,3-5")],
        [(b"webhook_url", None, b"https://example.com/hook"), (b"client_operation_id", None, b"c-7"),
         (b"unknown", None, b"ignored"), (b"files[]", None, b"")],
        [(b"metadata", None, b"\xff\xfe not utf-8"), (b"files[]", b"..", b"a\r\n--not-it\r\n")],
        [(b"selected_pages", None, b"2" * 300)],
    ]
    out = []
    for i, parts in enumerate(forms):
        for boundary, seed, knobs in ((b"XyZ", 0, 0x3F), (b"----folio0123456789", 7 + i, 0x25),
                                      (b'"quoted boundary"', 200, 0x40 | i)):
            bare = boundary.strip(b'"')
            out.append(bytes([seed, knobs]) + boundary + b"\n" + multipart_body(bare, parts))
    return out


def main() -> int:
    for src in sorted(DOCS.glob("*")):
        target = TARGETS_BY_SUFFIX.get(src.suffix)
        data = src.read_bytes()
        if target and target != "image":
            put(target, data)
        if not src.name.endswith(".json") and data:
            put("filetype", data[:4096])
    for data in images():
        put("image", data)
    docs = [
        word97([("\r".join(INVOICE_LINES) + "\r", True)], table_1=True),
        word97([("Rechnung Nr. R-7\r", False), ("Summe 12,50 EUR\r", True)], table_1=False),
        word97([("Invoice INV-9\rItem\x07Price\x07\x07Pen\x070.30\x07\x07Total 0.30\r", False)],
               table_1=True,
               paras=["body", "cell", "cell", "row", "cell", "cell", "row", "body"]),
    ]
    sheets = [biff8([["Invoice INV-7", ""], ["Item", "Price"], ["Blue pen", 0.3], ["Total", 0.6]])]
    generated = {
        "doc": docs,
        "sheet": sheets,
        "docx": [docx()],
        "rtf": [rtf()],
        "words_json": words_json(),
        "hocr": hocr(),
    }
    for target, items in generated.items():
        for data in items:
            put(target, data)
            put("filetype", data[:4096])
    for sel in (b"1,3-5", b"2-2, 7", b"1-", b"0", b"99999999999"):
        put("filetype", b"\x3c\x00" + sel)
    # signed_url: key, document id, artifact name, query and time, one per line.
    for query in (
        b"expires=1700000900&signature=" + b"0" * 64,
        b"expires=1&expires=2&signature=ab",
        b"signature=%FF&expires=%2B5",
        b"",
    ):
        put("signed_url", b"key\ndoc_0123456789abcdef01234567\nfinal_json\n" + query
            + b"\n1700000000")
    for data in multipart():
        put("multipart", data)
    # einvoice: the invoice XMLs attached to the e-invoice fixtures (the standalone ones come in
    # by their suffix above), capped like the attachments the engine reads.
    for src in sorted(DOCS.glob("einvoice_*.pdf")):
        pdf = pdfium.PdfDocument(src)
        for i in range(min(pdf.count_attachments(), 4)):
            data = bytes(pdf.get_attachment(i).get_data())
            if len(data) <= 1 << 20:
                put("einvoice", data)
        pdf.close()
    for d in sorted(CORPUS.iterdir()):
        print(f"{d.name}: {len(list(d.iterdir()))} seeds", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
