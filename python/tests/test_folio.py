"""Tests of the Python module (`import folio`), run by scripts/test.sh with pytest."""

from __future__ import annotations

import ast
import hashlib
import hmac
import json
import os
import pathlib
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import folio

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "fixtures" / "docs"


@pytest.fixture(scope="module")
def engine() -> folio.Engine:
    return folio.Engine()


def test_path_pathlike_and_bytes_give_the_same_result(engine: folio.Engine) -> None:
    path = DOCS / "invoice_de_text.pdf"
    by_str = engine.recognize(str(path))
    by_path = engine.recognize(path)
    by_bytes = engine.recognize(path.read_bytes(), filename="x.pdf")
    assert by_str["document"]["number"] == "RE-2024-10457"
    assert by_str == by_path == by_bytes
    assert by_str["schema_version"] == "1.0"
    assert by_str["totals"]["total"] == "1012.56"
    assert isinstance(by_str["line_items"], list)
    text = engine.recognize_json(path)
    assert json.loads(text) == by_str


def test_xml_e_invoices_are_read_and_other_xml_is_refused(engine: folio.Engine) -> None:
    r = engine.recognize(DOCS / "einvoice_ubl_invoice.xml")
    truth = json.loads((DOCS / "einvoice_ubl_invoice.truth.json").read_text(encoding="utf-8"))
    assert r["document"]["number"] == truth["number"]
    assert r["totals"]["total"] == truth["total"]
    assert r["evidence"] == {}
    assert r["confidence"]["fields"]["/document/number"] == 1.0
    # The same bytes without a file name: the type is decided by content.
    assert engine.recognize((DOCS / "einvoice_ubl_invoice.xml").read_bytes()) == r
    with pytest.raises(folio.UnsupportedFileError) as e:
        engine.recognize(b'<?xml version="1.0"?><catalog/>')
    assert e.value.code == "UNSUPPORTED_FILE_TYPE"
    assert "not an e-invoice" in str(e.value)


def test_options_pages_heavy_languages(engine: folio.Engine) -> None:
    r = engine.recognize(DOCS / "bad_too_many_pages.pdf", pages="1,3-4")
    assert r["super_ai_used"] is False
    r = engine.recognize(DOCS / "invoice_en_text.pdf", heavy=True)
    assert r["super_ai_used"] is True
    with pytest.raises(folio.InvalidArgumentError):
        engine.recognize(DOCS / "invoice_en_text.pdf", languages=["xx"])


def test_module_level_recognize_uses_a_default_engine() -> None:
    r = folio.recognize(DOCS / "invoice_fr_text.pdf")
    assert r["document"]["number"] == "FA-2024-0088"
    assert folio.default_engine() is folio.default_engine()


def test_error_hierarchy_and_codes(engine: folio.Engine, tmp_path: pathlib.Path) -> None:
    big = tmp_path / "big.pdf"
    big.write_bytes(b"%PDF-1.7\n" + b"0" * (1024 * 1024 + 10))
    cases = [
        (lambda: engine.recognize(b""), folio.EmptyFileError, "EMPTY_FILE"),
        (lambda: engine.recognize(b"plain text, not a document"), folio.UnsupportedFileError, "UNSUPPORTED_FILE_TYPE"),
        (lambda: engine.recognize(DOCS / "bad_encrypted.pdf"), folio.EncryptedFileError, "ENCRYPTED_FILE"),
        (lambda: engine.recognize(DOCS / "bad_truncated.pdf"), folio.CorruptFileError, "CORRUPT_FILE"),
        (lambda: engine.recognize(DOCS / "bad_too_many_pages.pdf"), folio.TooManyPagesError, "TOO_MANY_PAGES"),
        (lambda: engine.recognize(DOCS / "invoice_de_text.pdf", pages="0"), folio.InvalidArgumentError, "INVALID_ARGUMENT"),
        (lambda: engine.recognize(tmp_path), folio.InvalidArgumentError, "INVALID_ARGUMENT"),
        (lambda: folio.Engine(max_file_size_mb=1).recognize(big), folio.FileTooLargeError, "FILE_TOO_LARGE"),
        (lambda: folio.Engine(config={"nope": 1}), folio.InvalidArgumentError, "INVALID_ARGUMENT"),
        (lambda: folio.Engine(languages=[]), folio.InvalidArgumentError, "INVALID_ARGUMENT"),
    ]
    for call, cls, code in cases:
        with pytest.raises(cls) as info:
            call()
        assert isinstance(info.value, folio.FolioError)
        assert info.value.code == code == cls.code
        assert str(info.value)
    with pytest.raises(FileNotFoundError):
        engine.recognize(tmp_path / "missing.pdf")
    assert issubclass(folio.SignatureError, folio.FolioError)
    assert folio.RuntimeMissingError.code == "RUNTIME_MISSING"


# Every error class and its code, in the codes' stable numeric order (1, 2, ...: the C API's
# status values 1 to 15). Written out here on purpose: these are the API and never change.
PINNED_ERRORS = [
    ("UnsupportedFileError", "UNSUPPORTED_FILE_TYPE"),
    ("FileTooLargeError", "FILE_TOO_LARGE"),
    ("TooManyPagesError", "TOO_MANY_PAGES"),
    ("CorruptFileError", "CORRUPT_FILE"),
    ("EncryptedFileError", "ENCRYPTED_FILE"),
    ("EmptyFileError", "EMPTY_FILE"),
    ("InvalidArgumentError", "INVALID_ARGUMENT"),
    ("IoError", "IO_ERROR"),
    ("RuntimeMissingError", "RUNTIME_MISSING"),
    ("OcrError", "OCR_FAILED"),
    ("ModelError", "MODEL_ERROR"),
    ("CancelledError", "CANCELLED"),
    ("InternalError", "INTERNAL_ERROR"),
    ("SignatureError", "SIGNATURE_INVALID"),
    ("ResourceLimitError", "RESOURCE_LIMIT"),
]


def test_every_error_class_and_code_is_pinned() -> None:
    assert list(folio.ERROR_CODES) == [code for _, code in PINNED_ERRORS]
    for name, code in PINNED_ERRORS:
        cls = getattr(folio, name)
        assert issubclass(cls, folio.FolioError) and cls is not folio.FolioError
        assert cls.code == code
        assert folio.ERROR_CODES[code] is cls
        assert cls.__module__ == "folio" and cls.__name__ == name
        assert cls.__doc__
        assert cls("x").code == code
    assert folio.FolioError.code == "FOLIO_ERROR"
    assert {c.__name__ for c in folio.FolioError.__subclasses__()} == {n for n, _ in PINNED_ERRORS}


def _stub_classes_and_all() -> tuple[set[str], set[str]]:
    tree = ast.parse((pathlib.Path(folio.__file__).parent / "_native.pyi").read_text())
    classes = {
        node.name
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        and any(isinstance(b, ast.Name) and b.id == "FolioError" for b in node.bases)
    }
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            names = set(ast.literal_eval(node.value))
    return classes, names


def test_stub_and_package_list_exactly_the_generated_error_classes() -> None:
    generated = {cls.__name__ for cls in folio.ERROR_CODES.values()}
    stub_classes, stub_all = _stub_classes_and_all()
    assert stub_classes == generated
    error_names = lambda names: {n for n in names if n.endswith("Error") and n != "FolioError"}  # noqa: E731
    assert error_names(stub_all) == generated
    assert error_names(folio.__all__) == generated
    assert error_names(dir(folio._native)) == generated
    assert {"ERROR_CODES", "FolioError"} <= set(folio.__all__) & stub_all


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads anything")
def test_permission_error(engine: folio.Engine, tmp_path: pathlib.Path) -> None:
    p = tmp_path / "locked.pdf"
    p.write_bytes((DOCS / "invoice_de_text.pdf").read_bytes())
    p.chmod(0)
    with pytest.raises(PermissionError):
        engine.recognize(p)


def test_an_engine_without_pdfium_still_reads_images(tmp_path: pathlib.Path) -> None:
    e = folio.Engine(pdfium_library=tmp_path / "nothing.so")
    r = e.recognize(DOCS / "invoice_de_scan.png", languages=["de"])
    assert r["document"]["number"]


def test_the_gil_is_released_during_recognition(engine: folio.Engine) -> None:
    done = threading.Event()
    result: dict = {}

    def work() -> None:
        result.update(engine.recognize(DOCS / "invoice_de_scan.png"))
        done.set()

    t = threading.Thread(target=work)
    spins = 0
    t.start()
    started = time.perf_counter()
    while not done.is_set():
        spins += 1
    elapsed = time.perf_counter() - started
    t.join()
    assert result["document"]["number"]
    # With the GIL held by the engine this loop would barely run while the page is read.
    assert spins > 50_000 * max(elapsed, 0.05), (spins, elapsed)


def test_threads_share_one_engine(engine: folio.Engine) -> None:
    files = ["invoice_de_text.pdf", "invoice_en_text.pdf", "invoice_fr_text.pdf", "invoice_pl_text.pdf"] * 3
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda f: engine.recognize(DOCS / f), files))
    numbers = [r["document"]["number"] for r in results]
    assert numbers == ["RE-2024-10457", "INV-2024-0312", "FA-2024-0088", "FV/2024/03/117"] * 3


def test_recognize_many_yields_every_result(engine: folio.Engine) -> None:
    files = [DOCS / f for f in ["invoice_de_text.pdf", "invoice_en_text.pdf", "receipt_de_text.pdf", "act_ru_text.pdf"]]
    it = engine.recognize_many(files, workers=2)
    assert len(it) == 4
    got = dict(it)
    assert set(got) == set(files)
    assert got[files[0]]["document"]["number"] == "RE-2024-10457"
    assert len(it) == 0
    # Bytes too, and errors raise when reached ...
    with pytest.raises(folio.EmptyFileError):
        list(engine.recognize_many([b"", (DOCS / "invoice_de_text.pdf").read_bytes()], workers=1))
    # ... or come back as values.
    out = list(engine.recognize_many([str(DOCS / "invoice_de_text.pdf"), b""], return_exceptions=True))
    kinds = sorted(type(v).__name__ for _, v in out)
    assert kinds == ["EmptyFileError", "dict"]
    assert list(engine.recognize_many([])) == []


def test_render_page_draws_the_evidence_boxes(engine: folio.Engine) -> None:
    path = DOCS / "invoice_de_text.pdf"
    result = engine.recognize(path)
    assert [(p["page"], p["unit"], p["rotation"]) for p in result["pages"]] == [(1, "pt", 0)]
    page = engine.render_page(path, result, max_side=800)
    assert set(page) == {"png", "width", "height", "boxes"}
    assert page["png"].startswith(b"\x89PNG\r\n\x1a\n")
    assert max(page["width"], page["height"]) <= 800
    total = next(b for b in page["boxes"] if b["field"] == "/totals/total")
    assert set(total) == {"field", "page", "rect", "text", "confidence"}
    assert total["page"] == 1 and total["text"] == result["evidence"]["/totals/total"]["text"]
    x0, y0, x1, y1 = total["rect"]
    assert 0 <= x0 < x1 <= page["width"] and 0 <= y0 < y1 <= page["height"]
    assert total["confidence"] == result["confidence"]["fields"]["/totals/total"]
    # The same page from bytes and the Result as JSON text; without boxes drawn, another image
    # with the same boxes.
    bare = engine.render_page(path.read_bytes(), json.dumps(result), 1, max_side=800, draw_boxes=False)
    assert bare["boxes"] == page["boxes"] and (bare["width"], bare["height"]) == (page["width"], page["height"])
    assert bare["png"] != page["png"]


def test_render_page_errors(engine: folio.Engine) -> None:
    path = DOCS / "invoice_de_text.pdf"
    result = engine.recognize(path)
    with pytest.raises(folio.InvalidArgumentError):
        engine.render_page(path, result, 2)
    with pytest.raises(folio.InvalidArgumentError):
        engine.render_page(path, {"not": "a result"})
    with pytest.raises(folio.InvalidArgumentError):
        engine.render_page(path, result, max_side=0)
    docx = DOCS / "invoice_en_docx.docx"
    with pytest.raises(folio.UnsupportedFileError) as e:
        engine.render_page(docx, engine.recognize(docx))
    assert e.value.code == "UNSUPPORTED_FILE_TYPE"
    with pytest.raises(FileNotFoundError):
        engine.render_page(DOCS / "missing.pdf", result)


def test_verify_webhook() -> None:
    body = b'{"event":"document.processed","event_id":"evt_1"}'
    ts = str(int(time.time()))
    sig = "sha256=" + hmac.new(b"whsec", ts.encode() + b"." + body, hashlib.sha256).hexdigest()
    headers = {"X-Folio-Timestamp": ts, "X-Folio-Signature": sig, "X-Folio-Event": "document.processed"}
    assert folio.verify_webhook("whsec", headers, body) is None
    folio.verify_webhook(b"whsec", [(k.lower(), v) for k, v in headers.items()], body)
    with pytest.raises(folio.SignatureError) as info:
        folio.verify_webhook("other", headers, body)
    assert info.value.code == "SIGNATURE_INVALID"
    with pytest.raises(folio.SignatureError):
        folio.verify_webhook("whsec", headers, body + b" ")
    with pytest.raises(folio.SignatureError):
        folio.verify_webhook("whsec", headers, body, now=int(ts) + 301)
    with pytest.raises(folio.SignatureError):
        folio.verify_webhook("whsec", {"X-Folio-Timestamp": ts}, body)


def test_stubs_match_the_module() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "folio"],
        capture_output=True,
        text=True,
        cwd="/",
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert (pathlib.Path(folio.__file__).parent / "py.typed").is_file()


def test_futures_example_processes_a_folder(tmp_path: pathlib.Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for f in ["invoice_de_text.pdf", "invoice_en_text.pdf", "bad_empty.pdf"]:
        (folder / f).write_bytes((DOCS / f).read_bytes())
    out = tmp_path / "out"
    r = subprocess.run(
        [sys.executable, str(ROOT / "python" / "examples" / "batch_futures.py"), str(folder), str(out), "--workers", "2"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1, r.stdout + r.stderr  # one file fails: bad_empty.pdf
    assert "2 recognised, 1 failed" in r.stdout
    assert json.loads((out / "invoice_de_text.json").read_text())["document"]["number"] == "RE-2024-10457"
    assert json.loads((out / "bad_empty.error.json").read_text())["code"] == "EMPTY_FILE"


def test_pre_recognised_words_json(engine: folio.Engine, tmp_path: pathlib.Path) -> None:
    lines = ["INVOICE", "Invoice No.: INV-1001", "Invoice date: 12.03.2024", "Total 119.00 EUR"]
    words = [
        {"text": t, "bbox": [120, 100 + 45 * i, 120 + 14 * len(t), 128 + 45 * i]}
        for i, t in enumerate(lines)
    ]
    doc = json.dumps({"pages": [{"width": 1240, "height": 1754, "words": words}]})
    r = engine.recognize(doc.encode(), filename="words.json")
    assert r["document"]["number"] == "INV-1001"
    assert r["totals"]["total"] == "119.00"
    path = tmp_path / "words.json"
    path.write_text(doc)
    assert engine.recognize(path)["document"]["number"] == "INV-1001"
    with pytest.raises(folio.CorruptFileError):
        engine.recognize(b'{"pages": [{"width": 0, "height": 1}]}')


def test_pre_recognised_hocr(engine: folio.Engine) -> None:
    words = [("Invoice", 120, 220), ("No.:", 230, 290), ("INV-2002", 300, 420)]
    spans = " ".join(
        f"<span class='ocrx_word' title='bbox {x0} 145 {x1} 173; x_wconf 95'>{t}</span>" for t, x0, x1 in words
    )
    hocr = f"<html><body><div class='ocr_page' title='bbox 0 0 1240 1754'>{spans}</div></body></html>"
    r = engine.recognize(hocr.encode(), filename="page.hocr")
    assert r["document"]["number"] == "INV-2002"
    assert r["evidence"]["/document/number"]["source"] == "OCR"
