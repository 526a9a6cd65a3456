//! The Result JSON Schema (`core/schema/result.schema.json`) against the Rust model and fixtures.
//!
//! * `DocumentResult::empty()` and a fully populated result validate;
//! * targeted mutations (missing key, extra key, float money, bad date, bad enum ...) are rejected;
//! * every expected Result found under `fixtures/` validates: files named `expected.json` or
//!   `*.expected.json`, and JSON files in a folder named `expected`.

use folio::DocumentResult;
use folio::result::{
    BankAccount, ContractRef, DocumentType, Evidence, ExtraFields, Issue, LineItem, OcrEngineName,
    OtherParty, PageGeometry, Party, PartyRole, Period, Signatory, Source, StructureType, TaxLine,
    Unit, ValidationStatus,
};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn validator() -> jsonschema::Validator {
    let path = repo_root().join("core/schema/result.schema.json");
    let text = std::fs::read_to_string(&path).expect("schema file readable");
    let schema: Value = serde_json::from_str(&text).expect("schema is JSON");
    assert_eq!(
        schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
        "draft 2020-12"
    );
    jsonschema::draft202012::new(&schema).expect("schema compiles against the 2020-12 meta-schema")
}

fn errors(v: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    v.iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect()
}

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

/// A result with every optional value present and every list non-empty.
fn full() -> DocumentResult {
    let mut r = DocumentResult::empty();
    r.document.number = s("RE-2024-001");
    r.document.date = s("2024-05-02");
    r.document.due_date = s("2024-05-16");
    r.document.title = s("Rechnung");
    r.document.currency = s("EUR");
    r.document.language = s("de");
    r.document_type.code = DocumentType::Invoice;
    r.document_type.confidence = 0.93;
    r.structure_type.code = StructureType::Table;
    let party = |name: &str| Party {
        name: s(name),
        tax_id: s("181/815/08155"),
        vat_id: s("DE136695976"),
        registration_id: s("HRB 12345"),
        address: s("Musterstr. 1, 10115 Berlin"),
        phone: s("+49 30 123456"),
        email: s("info@example.com"),
    };
    r.parties.seller = party("Muster GmbH");
    r.parties.buyer = party("Kunde AG");
    r.parties.other.push(OtherParty {
        party: party("Lager KG"),
        role: "consignee".into(),
    });
    r.line_items.push(LineItem {
        position: Some(1),
        description: s("Widget"),
        sku: s("W-1"),
        quantity: s("2"),
        unit: s("Stk"),
        unit_code: s("H87"),
        unit_price: s("10.00"),
        discount_rate: s("0"),
        vat_rate: s("19"),
        vat_amount: s("3.80"),
        amount: s("20.00"),
        amount_with_vat: s("23.80"),
    });
    r.totals.net = s("20.00");
    r.totals.vat = s("3.80");
    r.totals.total = s("23.80");
    r.totals.payable = s("13.80");
    r.totals.discount = s("0.00");
    r.totals.charges = s("0.00");
    r.totals.prepaid = s("10.00");
    r.taxes.push(TaxLine {
        rate: s("19"),
        base: s("20.00"),
        amount: s("3.80"),
    });
    r.bank_accounts.push(BankAccount {
        iban: s("DE89370400440532013000"),
        account_number: s("0532013000"),
        bank_name: s("Commerzbank"),
        bank_code: s("37040044"),
        swift_bic: s("COBADEFFXXX"),
        party: Some(PartyRole::Seller),
    });
    r.signatories.push(Signatory {
        name: s("Max Muster"),
        position: s("Geschäftsführer"),
        party: Some(PartyRole::Seller),
    });
    r.extra_fields = ExtraFields {
        contract: ContractRef {
            number: s("V-12"),
            date: s("2024-01-01"),
        },
        period: Period {
            from: s("2024-04-01"),
            to: s("2024-04-30"),
        },
        order_number: s("PO-7"),
        payment_terms: s("14 Tage netto"),
        notes: vec!["Danke für Ihren Auftrag".into()],
    };
    r.confidence.overall = 0.88;
    r.confidence.fields.insert("/document/number".into(), 0.97);
    r.confidence
        .fields
        .insert("/line_items/0/amount".into(), 0.4);
    r.evidence.insert(
        "/document/number".into(),
        Evidence {
            page: 1,
            bbox: [400.0, 80.5, 470.25, 92.0],
            unit: Unit::Pt,
            text: "RE-2024-001".into(),
            source: Source::TextLayer,
            engine: None,
        },
    );
    r.evidence.insert(
        "/totals/total".into(),
        Evidence {
            page: 2,
            bbox: [10.0, 20.0, 30.0, 40.0],
            unit: Unit::Px,
            text: "23,80".into(),
            source: Source::Ocr,
            engine: Some(OcrEngineName::PpOcr),
        },
    );
    r.pages = vec![
        PageGeometry {
            page: 1,
            width: 595.28,
            height: 841.89,
            unit: Unit::Pt,
            source: Source::TextLayer,
            rotation: 0,
        },
        PageGeometry {
            page: 2,
            width: 2480.0,
            height: 3508.0,
            unit: Unit::Px,
            source: Source::Ocr,
            rotation: 90,
        },
    ];
    r.validation.status = ValidationStatus::Errors;
    r.validation.warnings.push(Issue {
        code: "LOW_CONFIDENCE".into(),
        message: "/line_items/0/amount was read with low confidence (0.40)".into(),
        field: s("/line_items/0/amount"),
    });
    r.validation.errors.push(Issue {
        code: "TOTALS_MISMATCH".into(),
        message: "example".into(),
        field: None,
    });
    r.super_ai_used = true;
    r
}

#[test]
fn empty_and_full_results_validate() {
    let v = validator();
    let empty = serde_json::to_value(DocumentResult::empty()).unwrap();
    assert_eq!(errors(&v, &empty), Vec::<String>::new());
    let full_v = serde_json::to_value(full()).unwrap();
    assert_eq!(errors(&v, &full_v), Vec::<String>::new());
    // The model reads back what the schema accepts.
    let back: DocumentResult = serde_json::from_value(full_v).unwrap();
    assert_eq!(back, full());
}

/// Sets the value at a JSON pointer, adding the key when the parent object lacks it.
fn set(doc: &mut Value, pointer: &str, value: Value) {
    if let Some(slot) = doc.pointer_mut(pointer) {
        *slot = value;
        return;
    }
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let key = key.replace("~1", "/").replace("~0", "~");
    doc.pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("no object at {parent}"))
        .insert(key, value);
}

/// Removes the key at a JSON pointer.
fn remove(doc: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let obj = doc
        .pointer_mut(parent)
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("no object at {parent}"));
    assert!(obj.remove(key).is_some(), "no key {pointer}");
}

type Mutation = (&'static str, Box<dyn Fn(&mut Value)>);

fn mutations() -> Vec<Mutation> {
    let set_to = |p: &'static str, v: Value| -> Box<dyn Fn(&mut Value)> {
        Box::new(move |d: &mut Value| set(d, p, v.clone()))
    };
    let rm = |p: &'static str| -> Box<dyn Fn(&mut Value)> { Box::new(move |d| remove(d, p)) };
    vec![
        ("missing top-level key", rm("/totals")),
        ("missing nested key", rm("/document/due_date")),
        ("missing party key", rm("/parties/seller/email")),
        ("missing other party role", rm("/parties/other/0/role")),
        (
            "missing evidence key",
            rm("/evidence/~1document~1number/source"),
        ),
        ("extra top-level key", set_to("/extra", json!(1))),
        ("extra document key", set_to("/document/extra", json!(null))),
        ("extra party key", set_to("/parties/buyer/iban", json!("x"))),
        (
            "extra line item key",
            set_to("/line_items/0/discount", json!("1")),
        ),
        ("float money", set_to("/totals/total", json!(23.8))),
        ("money with comma", set_to("/totals/net", json!("20,00"))),
        (
            "money with grouping",
            set_to("/line_items/0/amount", json!("1 000.00")),
        ),
        (
            "float quantity",
            set_to("/line_items/0/quantity", json!(2.0)),
        ),
        (
            "tax rate with percent",
            set_to("/taxes/0/rate", json!("19%")),
        ),
        (
            "bad date format",
            set_to("/document/date", json!("02.05.2024")),
        ),
        (
            "bad period date",
            set_to("/extra_fields/period/to", json!("2024-4-30")),
        ),
        (
            "bad document type",
            set_to("/document_type/code", json!("BILL")),
        ),
        (
            "lower-case type",
            set_to("/document_type/code", json!("invoice")),
        ),
        (
            "bad structure type",
            set_to("/structure_type/code", json!("LIST")),
        ),
        (
            "confidence above 1",
            set_to("/document_type/confidence", json!(1.5)),
        ),
        (
            "field confidence negative",
            set_to("/confidence/fields/~1document~1number", json!(-0.1)),
        ),
        (
            "field confidence as string",
            set_to("/confidence/fields/~1document~1number", json!("0.5")),
        ),
        (
            "confidence key not a pointer",
            set_to("/confidence/fields/number", json!(0.5)),
        ),
        (
            "bbox with 3 numbers",
            set_to("/evidence/~1totals~1total/bbox", json!([1, 2, 3])),
        ),
        (
            "bbox with a string",
            set_to("/evidence/~1totals~1total/bbox", json!([1, 2, 3, "4"])),
        ),
        ("page 0", set_to("/evidence/~1totals~1total/page", json!(0))),
        (
            "bad evidence unit",
            set_to("/evidence/~1totals~1total/unit", json!("cm")),
        ),
        (
            "bad evidence source",
            set_to("/evidence/~1totals~1total/source", json!("PDF")),
        ),
        (
            "lower-case currency",
            set_to("/document/currency", json!("eur")),
        ),
        (
            "three-letter language",
            set_to("/document/language", json!("deu")),
        ),
        (
            "bad party role",
            set_to("/bank_accounts/0/party", json!("vendor")),
        ),
        (
            "bad signatory role",
            set_to("/signatories/0/party", json!("SELLER")),
        ),
        (
            "IBAN with spaces",
            set_to(
                "/bank_accounts/0/iban",
                json!("DE89 3704 0044 0532 0130 00"),
            ),
        ),
        (
            "bad validation status",
            set_to("/validation/status", json!("FAILED")),
        ),
        (
            "status OK with errors",
            set_to("/validation/status", json!("OK")),
        ),
        (
            "unknown issue code",
            set_to("/validation/errors/0/code", json!("SOMETHING")),
        ),
        (
            "issue field not a pointer",
            set_to("/validation/errors/0/field", json!("totals.total")),
        ),
        (
            "wrong schema version",
            set_to("/schema_version", json!("2.0")),
        ),
        (
            "super_ai_used as string",
            set_to("/super_ai_used", json!("false")),
        ),
        (
            "notes not strings",
            set_to("/extra_fields/notes", json!([1])),
        ),
        (
            "negative position",
            set_to("/line_items/0/position", json!(-1)),
        ),
        ("line items not an array", set_to("/line_items", json!({}))),
        ("missing pages", rm("/pages")),
        ("missing page rotation", rm("/pages/1/rotation")),
        ("extra page key", set_to("/pages/0/dpi", json!(300))),
        (
            "page rotation not a quarter",
            set_to("/pages/1/rotation", json!(45)),
        ),
        ("page width 0", set_to("/pages/0/width", json!(0))),
        ("page 0 in pages", set_to("/pages/0/page", json!(0))),
        (
            "page source E_INVOICE",
            set_to("/pages/0/source", json!("E_INVOICE")),
        ),
        ("bad page unit", set_to("/pages/1/unit", json!("mm"))),
    ]
}

#[test]
fn targeted_mutations_are_rejected() {
    let v = validator();
    let base = serde_json::to_value(full()).unwrap();
    let muts = mutations();
    assert!(muts.len() >= 15);
    let mut accepted = Vec::new();
    for (name, m) in &muts {
        let mut doc = base.clone();
        m(&mut doc);
        assert_ne!(doc, base, "mutation {name} changed nothing");
        if v.is_valid(&doc) {
            accepted.push(*name);
        }
    }
    assert!(accepted.is_empty(), "schema accepted: {accepted:?}");
}

#[test]
fn nulls_and_status_rules() {
    let v = validator();
    let mut doc = serde_json::to_value(full()).unwrap();
    // Unknown values are null everywhere they are optional.
    for p in [
        "/document/date",
        "/document/currency",
        "/totals/total",
        "/line_items/0/position",
        "/bank_accounts/0/party",
        "/validation/errors/0/field",
    ] {
        set(&mut doc, p, Value::Null);
    }
    assert_eq!(errors(&v, &doc), Vec::<String>::new());
    // Warnings only: status must be WARNINGS.
    set(&mut doc, "/validation/errors", json!([]));
    assert!(!v.is_valid(&doc));
    set(&mut doc, "/validation/status", json!("WARNINGS"));
    assert!(v.is_valid(&doc));
    set(&mut doc, "/validation/warnings", json!([]));
    assert!(!v.is_valid(&doc));
    set(&mut doc, "/validation/status", json!("OK"));
    assert!(v.is_valid(&doc));
    // Negative money (credit notes) is a valid decimal.
    set(&mut doc, "/totals/total", json!("-23.80"));
    assert!(v.is_valid(&doc));
}

/// Expected Result files under `fixtures/`: `expected.json`, `*.expected.json`, or any `.json`
/// in a folder named `expected`.
fn expected_files(dir: &Path, in_expected: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().to_string();
        if p.is_dir() {
            expected_files(&p, in_expected || name == "expected", out);
        } else if name == "expected.json"
            || name.ends_with(".expected.json")
            || (in_expected && name.ends_with(".json"))
        {
            out.push(p);
        }
    }
}

#[test]
fn fixture_results_validate() {
    let v = validator();
    let mut files = Vec::new();
    expected_files(&repo_root().join("fixtures"), false, &mut files);
    files.sort();
    eprintln!("{} expected Result file(s) under fixtures/", files.len());
    let mut bad = Vec::new();
    for f in &files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                bad.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        let doc: Value = match serde_json::from_str(&text) {
            Ok(d) => d,
            Err(e) => {
                bad.push(format!("{}: not JSON: {e}", f.display()));
                continue;
            }
        };
        let errs = errors(&v, &doc);
        if !errs.is_empty() {
            bad.push(format!("{}: {}", f.display(), errs.join("; ")));
            continue;
        }
        if let Err(e) = serde_json::from_value::<DocumentResult>(doc) {
            bad.push(format!("{}: model cannot read it: {e}", f.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "invalid expected results:\n{}",
        bad.join("\n")
    );
}

#[test]
fn engine_validation_output_is_schema_valid() {
    // validate() on odd content must still produce a schema-valid result.
    let v = validator();
    let mut r = full();
    r.totals.total = s("999.99");
    r.bank_accounts[0].iban = s("DE89370400440532013001");
    r.document.date = s("1980-01-01");
    folio::validate::validate(&mut r);
    assert_eq!(r.validation.status, ValidationStatus::Errors);
    let doc = serde_json::to_value(&r).unwrap();
    assert_eq!(errors(&v, &doc), Vec::<String>::new());
}
