//! Training data for the learned field scorer: every candidate of every labelled document, for
//! every field the model scores and that admits the candidate (`Field::admits`: dates for the
//! date, amounts for the totals ...; the model never scores the others), as the exact vector
//! inference uses
//! (`folio::fields::vector::feature_vector`), with its label (the candidate's value is the
//! truth's, by the shared scoring rules; the net total, not labelled, is total less VAT; on a
//! document with several VAT rates each printed per-rate VAT amount counts, see `vat_lines`) and the
//! document's group (its seller, so that
//! cross-validation never splits one shop or company across training and test).
//!
//! ```text
//! export_features [--boxes] [--jobs N] DIR > rows.jsonl
//! ```
//! First line: `{"names": [...]}`; then one line per row:
//! `{"doc", "group", "field", "cand", "value", "label", "x": [...]}`. Documents the engine
//! cannot read are reported on stderr and skipped.
//!
//! `--parties` writes the party model's rows instead (`models/train_parties.py`): one per role
//! (seller, buyer) and party candidate with a name, as `folio::fields::party_model::party_vector`
//! builds it, labelled by whether the name the candidate gives the Result matches the truth's
//! `seller_name` / `buyer_name` by the shared scoring rule (roles without a truth are skipped):
//! `{"doc", "group", "role", "cand", "source", "name", "label", "x": [...]}`.
//!
//! `--choices` writes the choice model's rows (`models/train_choices.py`): one per currency option,
//! one per document type and one per role of each account IBAN the truth names (`iban`, the
//! seller's; `buyer_iban`), as `folio::fields::choice_model::currency_vectors` and
//! `folio::classify::type_vectors` build them over the fields the engine's default scorer reads
//! (as inference does), labelled by the truth's `currency` / `document_type` (kinds the truth
//! does not label are skipped), with the rules' own choice:
//! `{"doc", "group", "kind", "item", "option", "label", "rule", "x": [...]}` (`item`: which IBAN;
//! for the type, 0 the document as read and 1 the same without its keyword evidence,
//! `TypeEvidence::without_keywords`, so that the model learns what the structure alone says).

use clap::Parser;
use folio::candidates;
use folio::classify;
use folio::clean;
use folio::fields::bank;
use folio::fields::choice_model::{
    self, ChoiceKind, IBAN_ROLES, currency_options_of, currency_vectors, iban_vectors,
    rule_currency,
};
use folio::fields::features::{FeatureContext, candidate_features};
use folio::fields::model::ModelScorer;
use folio::fields::party_model::{self, PARTY_ROLES, PartyContext, party_vector};
use folio::fields::vector::{MODEL_FIELDS, feature_names, feature_vector};
use folio::fields::{Field, FieldScorer};
use folio::result::{DocumentType, PartyRole};
use folio::types::{CleanDocument, TextPage};
use folio::{CancelToken, Engine, EngineConfig, RecognizeOptions, ScorerKind};
use folio_bench::boxes::parse_boxes_pages;
use folio_bench::dataset::{LabelledDoc, discover};
use folio_bench::score::{
    COMPLETE_WHEN_GENERATED, amounts_match, ibans_match, ids_match, normalize_text, parse_decimal,
    texts_match, to_cents,
};
use rayon::prelude::*;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Parser)]
struct Args {
    /// Read `<id>.boxes.txt` (SROIE's own OCR lines) instead of the documents.
    #[arg(long)]
    boxes: bool,
    /// Parallel documents.
    #[arg(long)]
    jobs: Option<usize>,
    /// Rows of the party model instead of the field model.
    #[arg(long)]
    parties: bool,
    /// Rows of the choice model (currency, document type, IBAN owner) instead of the field model.
    #[arg(long, conflicts_with = "parties")]
    choices: bool,
    /// Labelled folder.
    dir: PathBuf,
}

fn truth_key(f: Field) -> &'static str {
    match f {
        Field::Number => "number",
        Field::Date => "date",
        Field::DueDate => "due_date",
        Field::Total => "total",
        Field::Payable => "payable",
        Field::Prepaid => "prepaid",
        Field::Vat => "vat",
        Field::Net => "net",
        _ => "",
    }
}

/// Whether a candidate value is the truth of a field (`None`: the field is not labelled).
fn label(field: Field, truth: &Value, value: &str) -> Option<bool> {
    if field == Field::Net {
        // Not labelled in the data: the net total is the labelled total less the labelled VAT.
        let total = parse_decimal(truth.get("total")?.as_str()?)?;
        let vat = parse_decimal(truth.get("vat")?.as_str()?)?;
        return Some(amounts_match(&(total - vat).to_string(), value));
    }
    // A generated document's truth is complete for the fields the generator writes where
    // printed (folio_bench::score::COMPLETE_WHEN_GENERATED): without one, none is printed and
    // every candidate is a negative, so the model learns when to leave the field empty.
    let complete =
        truth.get("synthetic").is_some() && COMPLETE_WHEN_GENERATED.contains(&truth_key(field));
    let Some(t) = truth.get(truth_key(field)).and_then(Value::as_str) else {
        return complete.then_some(false);
    };
    if field == Field::Prepaid && parse_decimal(t).is_none_or(|d| d.is_zero()) {
        // Nothing prepaid (the generator writes a zero beside a printed payable line): no
        // amount on the page is the prepaid one.
        return complete.then_some(false);
    }
    if field == Field::Vat {
        // A document with several VAT rates prints one VAT amount per rate and the truth is
        // their sum (the engine adds the lines up): each printed per-rate amount is a VAT line.
        return match vat_lines(truth, t) {
            VatLines::One => Some(amounts_match(t, value)),
            VatLines::PerRate(lines) => Some(
                amounts_match(t, value)
                    || lines.iter().any(|l| amounts_match(&l.to_string(), value)),
            ),
            VatLines::Unknown => None,
        };
    }
    Some(match field {
        Field::Number => ids_match(t, value),
        Field::Date | Field::DueDate => t == value,
        // Printed as a deduction ("-50.00") as often as not; the Result holds its size.
        Field::Prepaid => amounts_match(t, value.trim_start_matches('-')),
        _ => amounts_match(t, value),
    })
}

/// The VAT amounts a document prints, as far as its truth tells.
#[derive(Debug, PartialEq)]
enum VatLines {
    /// One rate: the VAT total is the only VAT amount.
    One,
    /// Several rates, with the amount of each (they add up to the VAT total).
    PerRate(Vec<Decimal>),
    /// Several rates whose amounts the truth does not give (document-level charges or
    /// allowances make them differ from the line items): no VAT row is labelled.
    Unknown,
}

/// Per-rate VAT amounts: the synthetic generator writes them (`synthetic.vat_lines`); otherwise
/// they come from the labelled line items (net line totals per rate, times the rate, rounded
/// to the cent) when those add up to the labelled VAT within 2 cents.
fn vat_lines(truth: &Value, vat: &str) -> VatLines {
    if let Some(lines) = truth
        .pointer("/synthetic/vat_lines")
        .and_then(Value::as_array)
    {
        let lines: Vec<Decimal> = lines
            .iter()
            .filter_map(Value::as_str)
            .filter_map(parse_decimal)
            .collect();
        return if lines.len() > 1 {
            VatLines::PerRate(lines)
        } else {
            VatLines::One
        };
    }
    let mut base: Vec<(Decimal, Decimal)> = Vec::new();
    for item in truth
        .get("line_items")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let field = |k: &str| item.get(k).and_then(Value::as_str).and_then(parse_decimal);
        let (Some(rate), Some(amount)) = (field("vat_rate"), field("line_total")) else {
            continue;
        };
        if rate <= Decimal::ZERO {
            continue;
        }
        match base.iter_mut().find(|(r, _)| *r == rate) {
            Some((_, b)) => *b += amount,
            None => base.push((rate, amount)),
        }
    }
    if base.len() < 2 {
        return VatLines::One;
    }
    let lines: Vec<Decimal> = base
        .iter()
        .map(|(rate, b)| to_cents(b * rate / Decimal::ONE_HUNDRED))
        .collect();
    let sum: Decimal = lines.iter().sum();
    match parse_decimal(vat) {
        Some(v) if (sum - v).abs() <= Decimal::new(2, 2) => VatLines::PerRate(lines),
        _ => VatLines::Unknown,
    }
}

fn pages_of(engine: &Engine, doc: &LabelledDoc, boxes: bool) -> Result<Vec<TextPage>, String> {
    if boxes {
        let text = std::fs::read_to_string(&doc.input).map_err(|e| e.to_string())?;
        // Page by page, as `accuracy --boxes` reads them (text-layer documents dumped by
        // `inspect --dump-boxes` have a `#page` mark per page).
        let pages = parse_boxes_pages(&text);
        if pages.is_empty() {
            return Err("no usable boxes".to_string());
        }
        Ok(pages)
    } else {
        let bytes = std::fs::read(&doc.input).map_err(|e| e.to_string())?;
        engine
            .extract_text_pages(
                &bytes,
                &RecognizeOptions::default(),
                &|_| {},
                &CancelToken::new(),
            )
            .map_err(|e| e.to_string())
    }
}

/// The truth key of a party role.
fn role_key(role: folio::candidates::labels::LabelKey) -> &'static str {
    if role == folio::candidates::labels::LabelKey::Buyer {
        "buyer_name"
    } else {
        "seller_name"
    }
}

/// A document's truth, its group (the normalised seller name, else its id), its cleaned pages
/// and their candidates: what both kinds of rows start from.
fn prepare(
    engine: &Engine,
    doc: &LabelledDoc,
    boxes: bool,
) -> Result<(Value, String, CleanDocument, candidates::Candidates), String> {
    let truth: Value =
        serde_json::from_str(&std::fs::read_to_string(&doc.truth).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let group = truth
        .get("seller_name")
        .and_then(Value::as_str)
        .map(normalize_text)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| doc.id.clone());
    let pages = pages_of(engine, doc, boxes)?;
    let clean = clean::clean(&pages);
    let cands = candidates::extract(&clean);
    Ok((truth, group, clean, cands))
}

/// The party model's rows of a document.
fn party_rows(engine: &Engine, doc: &LabelledDoc, boxes: bool) -> Result<Vec<String>, String> {
    let (truth, group, clean, cands) = prepare(engine, doc, boxes)?;
    let ctx = PartyContext::new(&clean, &cands);
    let mut out = Vec::new();
    for role in PARTY_ROLES {
        let Some(t) = truth
            .get(role_key(role))
            .and_then(Value::as_str)
            .filter(|t| !t.trim().is_empty())
        else {
            continue;
        };
        for (i, c) in cands.parties.iter().enumerate() {
            let Some(name) = party_model::output_name(c, &cands) else {
                continue;
            };
            let x = party_vector(&ctx, &cands, i, role);
            out.push(
                json!({"doc": doc.id, "group": group, "role": role_key(role), "cand": i,
                       "source": format!("{:?}", c.source), "name": name,
                       "label": texts_match(t, &name), "x": x})
                .to_string(),
            );
        }
    }
    Ok(out)
}

/// The choice model's rows of a document.
fn choice_rows(
    engine: &Engine,
    scorer: &dyn FieldScorer,
    doc: &LabelledDoc,
    boxes: bool,
) -> Result<Vec<String>, String> {
    let (truth, group, clean, cands) = prepare(engine, doc, boxes)?;
    let result = folio::fields::extract(&clean, &cands, scorer);
    let text = |k: &str| {
        truth
            .get(k)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string)
    };
    let mut out = Vec::new();
    // `item` tells apart the choices of one kind in a document (its IBANs).
    let mut push = |kind: ChoiceKind, item: usize, option: &str, label: bool, rule: bool, x| {
        out.push(
            json!({"doc": doc.id, "group": group, "kind": kind.name(), "item": item,
                   "option": option, "label": label, "rule": rule, "x": x})
            .to_string(),
        );
    };
    if let Some(t) = text("currency") {
        let opts = currency_options_of(&cands, &result);
        let rule = rule_currency(&opts).map(|(i, _)| i);
        for (i, (o, x)) in opts.iter().zip(currency_vectors(&clean, &opts)).enumerate() {
            push(
                ChoiceKind::Currency,
                0,
                o.iso,
                o.iso.eq_ignore_ascii_case(&t),
                rule == Some(i),
                x,
            );
        }
    }
    // Each account IBAN the truth names (`iban`: the seller's, `buyer_iban`: the buyer's).
    let seller_iban = text("iban");
    let buyer_iban = text("buyer_iban");
    if seller_iban.is_some() || buyer_iban.is_some() {
        let ibans = bank::account_ibans(&cands);
        let same = |t: &Option<String>, v: &str| t.as_deref().is_some_and(|t| ibans_match(t, v));
        for (i, c) in ibans.iter().enumerate() {
            let owner = if same(&buyer_iban, &c.value) {
                PartyRole::Buyer
            } else if same(&seller_iban, &c.value) {
                PartyRole::Seller
            } else {
                continue;
            };
            let rule = bank::rule_owner(&cands, c);
            for (role, x) in IBAN_ROLES
                .iter()
                .zip(iban_vectors(&clean, &cands, &result, &ibans, i, rule))
            {
                let name = if *role == PartyRole::Buyer {
                    "buyer"
                } else {
                    "seller"
                };
                push(
                    ChoiceKind::IbanOwner,
                    i,
                    name,
                    *role == owner,
                    *role == rule,
                    x,
                );
            }
        }
    }
    if let Some(t) = text("document_type") {
        // The document as read, and as a reader who knows none of its words would read it
        // (item 1: the structure alone; `TypeEvidence::without_keywords`).
        let ev = classify::evidence(&clean, &result, &cands.listed_lines);
        for (item, ev) in [ev.without_keywords(), ev].iter().rev().enumerate() {
            let rule = classify::rule_type(&ev.scores).code;
            for (ty, x) in DocumentType::NAMED
                .iter()
                .zip(classify::type_vectors(&result, ev))
            {
                push(
                    ChoiceKind::DocumentType,
                    item,
                    ty.code(),
                    ty.code().eq_ignore_ascii_case(&t),
                    rule == *ty,
                    x,
                );
            }
        }
    }
    Ok(out)
}

fn rows(engine: &Engine, doc: &LabelledDoc, boxes: bool) -> Result<Vec<String>, String> {
    let (truth, group, clean, cands) = prepare(engine, doc, boxes)?;
    let ctx = FeatureContext::new(&clean, &cands);
    let mut out = Vec::new();
    for i in 0..cands.items.len() {
        let Some(f) = candidate_features(&ctx, &cands, i) else {
            continue;
        };
        let value = &cands.items[i].value;
        for field in MODEL_FIELDS {
            let Some(l) = label(field, &truth, value) else {
                continue;
            };
            let Some(x) = feature_vector(field, &f) else {
                continue;
            };
            out.push(
                json!({"doc": doc.id, "group": group, "field": truth_key(field), "cand": i,
                       "value": value, "label": l, "x": x})
                .to_string(),
            );
        }
    }
    Ok(out)
}

fn main() -> ExitCode {
    if let Some(code) = folio::runtime::reexec_with_omp_limit() {
        return code;
    }
    let args = Args::parse();
    if let Some(n) = args.jobs {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global();
    }
    // Extraction only (the vectors do not depend on the scorer): no model needed.
    let config = EngineConfig {
        scorer: ScorerKind::Rules,
        ..EngineConfig::default()
    };
    let engine = match Engine::new(config) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("export_features: {e}");
            return ExitCode::from(3);
        }
    };
    // The choice model's vectors read the fields as inference reads them: by the default scorer.
    let choice_scorer = if args.choices {
        match ModelScorer::embedded(None) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("export_features: {e}");
                return ExitCode::from(3);
            }
        }
    } else {
        None
    };
    let found = match discover(&args.dir, args.boxes) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("export_features: {}: {e}", args.dir.display());
            return ExitCode::from(2);
        }
    };
    let results: Vec<(String, Result<Vec<String>, String>)> = found
        .docs
        .par_iter()
        .map(|d| {
            let r = if args.parties {
                party_rows(&engine, d, args.boxes)
            } else if let Some(scorer) = &choice_scorer {
                choice_rows(&engine, scorer, d, args.boxes)
            } else {
                rows(&engine, d, args.boxes)
            };
            (d.id.clone(), r)
        })
        .collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let names = if args.parties {
        party_model::feature_names()
    } else if args.choices {
        choice_model::feature_names()
    } else {
        feature_names()
    };
    let _ = writeln!(out, "{}", json!({"names": names}));
    let (mut docs, mut n) = (0, 0);
    for (id, r) in results {
        match r {
            Ok(rows) => {
                docs += 1;
                n += rows.len();
                for row in rows {
                    let _ = writeln!(out, "{row}");
                }
            }
            Err(e) => eprintln!("export_features: {id}: {e}"),
        }
    }
    let _ = out.flush();
    eprintln!("export_features: {n} rows from {docs} documents");
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_truth() {
        let t = json!({"number": "RE-17", "date": "2024-03-05", "total": "119.00", "vat": "19.00"});
        assert_eq!(label(Field::Number, &t, "RE-17"), Some(true));
        assert_eq!(label(Field::Date, &t, "2024-03-05"), Some(true));
        assert_eq!(label(Field::Total, &t, "119"), Some(true));
        assert_eq!(label(Field::Total, &t, "100.00"), Some(false));
        assert_eq!(label(Field::Net, &t, "100.00"), Some(true));
        assert_eq!(label(Field::Vat, &t, "19.00"), Some(true));
        assert_eq!(label(Field::Vat, &t, "7.00"), Some(false));
        assert_eq!(label(Field::Vat, &json!({"total": "1"}), "7.00"), None);
        // Fields the shared sets do not label.
        assert_eq!(label(Field::DueDate, &t, "2024-03-05"), None);
        assert_eq!(label(Field::Payable, &t, "119.00"), None);
        let t = json!({"due_date": "2024-04-04", "payable": "69.00", "prepaid": "50.00"});
        assert_eq!(label(Field::DueDate, &t, "2024-04-04"), Some(true));
        assert_eq!(label(Field::DueDate, &t, "2024-03-05"), Some(false));
        assert_eq!(label(Field::Payable, &t, "69"), Some(true));
        assert_eq!(label(Field::Prepaid, &t, "50.00"), Some(true));
        assert_eq!(label(Field::Prepaid, &t, "-50.00"), Some(true));
        assert_eq!(label(Field::Prepaid, &t, "69.00"), Some(false));
        // Nothing prepaid labels nothing.
        assert_eq!(
            label(Field::Prepaid, &json!({"prepaid": "0.00"}), "0.00"),
            None
        );
        // A generated document prints a due date or prepaid amount exactly when its truth
        // has one: without it every candidate is a negative.
        let generated = json!({"synthetic": {}, "prepaid": "0.00", "total": "1.00"});
        assert_eq!(label(Field::DueDate, &generated, "2024-03-05"), Some(false));
        assert_eq!(label(Field::Prepaid, &generated, "1.00"), Some(false));
        assert_eq!(label(Field::Payable, &generated, "1.00"), None);
    }

    #[test]
    fn every_printed_vat_line_of_a_multi_rate_document_is_a_vat_line() {
        let t = json!({"total": "126.00", "vat": "26.00",
                       "synthetic": {"vat_lines": ["19.00", "7.00"]}});
        assert_eq!(label(Field::Vat, &t, "19.00"), Some(true));
        assert_eq!(label(Field::Vat, &t, "7.00"), Some(true));
        assert_eq!(label(Field::Vat, &t, "26.00"), Some(true));
        assert_eq!(label(Field::Vat, &t, "100.00"), Some(false));
        // One rate: only the truth itself.
        let one = json!({"total": "119.00", "vat": "19.00", "synthetic": {"vat_lines": ["19.00"]}});
        assert_eq!(label(Field::Vat, &one, "7.00"), Some(false));
    }

    #[test]
    fn per_rate_vat_comes_from_the_line_items_when_they_add_up() {
        let items = json!([
            {"vat_rate": "19.00", "line_total": "100.00"},
            {"vat_rate": "7.00", "line_total": "50.00"},
            {"vat_rate": "19.00", "line_total": "10.00"},
        ]);
        // 110 x 19% = 20.90, 50 x 7% = 3.50; they add up to the labelled 24.40.
        let t = json!({"total": "184.40", "vat": "24.40", "line_items": items});
        assert_eq!(
            vat_lines(&t, "24.40"),
            VatLines::PerRate(vec![Decimal::new(2090, 2), Decimal::new(350, 2)])
        );
        assert_eq!(label(Field::Vat, &t, "3.50"), Some(true));
        assert_eq!(label(Field::Vat, &t, "160.00"), Some(false));
        // A document-level charge makes them differ: VAT rows are not labelled at all.
        let charged = json!({"total": "190.00", "vat": "25.40", "line_items": items});
        assert_eq!(vat_lines(&charged, "25.40"), VatLines::Unknown);
        assert_eq!(label(Field::Vat, &charged, "3.50"), None);
        assert_eq!(label(Field::Vat, &charged, "25.40"), None);
        // One rate.
        let single =
            json!({"vat": "19.00", "line_items": [{"vat_rate": "19", "line_total": "100"}]});
        assert_eq!(vat_lines(&single, "19.00"), VatLines::One);
    }
}
