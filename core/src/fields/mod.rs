//! Field extraction: chooses among candidates and fills the Result.
//!
//! The stage reads only what the candidates stage computed ([`Candidates`]: values, label hits,
//! tables with cells, party blocks, the document style, a receipt's reading); it never calls
//! back into the candidate finders. Every candidate gets its features from one function
//! ([`features::candidate_features`]); the choice goes through the [`FieldScorer`] seam (the
//! learned [`model::ModelScorer`] by default, [`RuleScorer`] on request). One module per
//! section of the Result: `header` (number, dates, title, language, currency), `totals`
//! (amounts, chosen jointly so that the printed arithmetic holds, and VAT lines), `parties`,
//! `bank`, `items`, `extras` (signatories, contract, order, period, terms) and `receipt` (a
//! till receipt's own reading). Unknown values stay `None`.

pub mod bank;
mod calibrated;
pub mod choice_model;
mod extras;
pub mod features;
mod header;
mod items;
pub mod model;
mod parties;
pub mod party_model;
mod receipt;
mod totals;
pub mod trees;
pub mod vector;

use crate::candidates::{Candidate, Candidates};
use crate::result::DocumentResult;
use crate::types::{CleanDocument, Span};
pub use features::{CandidateFeatures, Field, FieldScorer, MIN_SCORE, RuleScorer};
use rust_decimal::Decimal;
use std::collections::BTreeMap;

struct Ctx<'a> {
    doc: &'a CleanDocument,
    result: DocumentResult,
}

impl Ctx<'_> {
    /// A field's confidence (clamped to 0..1, three decimals), without evidence.
    fn confidence(&mut self, pointer: &str, conf: f32) {
        self.result.confidence.fields.insert(
            pointer.to_string(),
            (conf.clamp(0.0, 1.0) as f64 * 1000.0).round() / 1000.0,
        );
    }

    /// A field's confidence and its evidence.
    fn put(&mut self, pointer: &str, conf: f32, span: &Span) {
        self.confidence(pointer, conf);
        if let Some(ev) = span.evidence(self.doc) {
            self.result.evidence.insert(pointer.to_string(), ev);
        }
    }
}

/// Scored candidates of one field, best first.
fn ranked(
    feats: &[(usize, CandidateFeatures)],
    scorer: &dyn FieldScorer,
    field: Field,
) -> Vec<(f32, usize)> {
    let refs: Vec<&CandidateFeatures> = feats.iter().map(|(_, f)| f).collect();
    let scores = scorer.score_batch(field, &refs);
    let min = scorer.fill_threshold(field);
    let mut v: Vec<(f32, usize)> = scores
        .into_iter()
        .zip(feats.iter().map(|(i, _)| *i))
        .filter(|(s, _)| *s >= min)
        .collect();
    // Stable: ties keep document order.
    v.sort_by(|a, b| b.0.total_cmp(&a.0));
    v
}

fn dec(c: &Candidate) -> Option<Decimal> {
    c.value.parse().ok()
}

/// A decimal the Result already holds (`totals.net`, a row's `vat_rate`), where it parses.
fn decimal(v: &Option<String>) -> Option<Decimal> {
    v.as_deref().and_then(|x| x.parse().ok())
}

/// Fills the fields of a Result (not document_type / validation) from the candidates.
pub fn extract(
    doc: &CleanDocument,
    cands: &Candidates,
    scorer: &dyn FieldScorer,
) -> DocumentResult {
    let mut ctx = Ctx {
        doc,
        result: DocumentResult::empty(),
    };
    if doc.lines.is_empty() {
        return ctx.result;
    }
    let fctx = features::FeatureContext::new(doc, cands);
    let feats: Vec<(usize, CandidateFeatures)> = (0..cands.items.len())
        .filter_map(|i| features::candidate_features(&fctx, cands, i).map(|f| (i, f)))
        .collect();

    header::number_and_dates(&mut ctx, &feats, cands, scorer);
    totals::totals(&mut ctx, &feats, cands, scorer);
    totals::taxes(&mut ctx, cands);
    header::title_and_language(&mut ctx, cands);
    let party_model = if scorer.learned_models() {
        party_model::PartyModel::embedded()
    } else {
        None
    };
    let choice_model = choice_model::ChoiceModel::for_scorer(scorer);
    parties::party_fields(&mut ctx, cands, party_model);
    bank::bank_accounts(&mut ctx, cands);
    items::line_items(&mut ctx, cands);
    totals::adjustments(&mut ctx, &feats, cands, scorer);
    totals::confirmed_by_rows(&mut ctx);
    extras::signatories_and_extras(&mut ctx, cands);
    receipt::refine(&mut ctx, cands);
    // Last: the currency's evidence includes the total's line, the accounts' owners read the
    // chosen parties.
    header::currency(&mut ctx, cands, choice_model);
    bank::owners(&mut ctx, cands, choice_model);

    ctx.result.confidence.overall = overall_confidence(&ctx.result.confidence.fields);
    ctx.result
}

/// The overall confidence of a result from its fields' confidences: the mean over the key
/// fields (number, date, total, seller name; a missing one counts 0), to three decimals.
pub(crate) fn overall_confidence(fields: &BTreeMap<String, f64>) -> f64 {
    let keys = [
        "/document/number",
        "/document/date",
        "/totals/total",
        "/parties/seller/name",
    ];
    let sum: f64 = keys
        .iter()
        .map(|k| fields.get(*k).copied().unwrap_or(0.0))
        .sum();
    (sum / keys.len() as f64 * 1000.0).round() / 1000.0
}

pub(super) fn clean_name(s: &str) -> String {
    s.trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-' | '·'))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates;
    use crate::clean;
    use crate::types::{BBox, Source, TextPage, Unit, Word};

    fn page(lines: &[(&str, f32, f32)]) -> TextPage {
        let mut words = Vec::new();
        for (text, x, y) in lines {
            let mut x = *x;
            for w in text.split(' ') {
                if w.is_empty() {
                    x += 30.0;
                    continue;
                }
                // `text@x` places a word at an explicit x.
                let (w, at) = match w.split_once('@') {
                    Some((t, x)) => (t, x.parse::<f32>().ok()),
                    None => (w, None),
                };
                if let Some(at) = at {
                    x = at;
                }
                let wdt = w.chars().count() as f32 * 5.0;
                words.push(Word {
                    text: w.into(),
                    bbox: BBox::new(x, *y, x + wdt, y + 10.0),
                    confidence: 1.0,
                });
                x += wdt + 4.0;
            }
        }
        TextPage {
            page: 1,
            width: 600.0,
            height: 800.0,
            unit: Unit::Pt,
            source: Source::TextLayer,
            engine: None,
            rotation: 0,
            words,
        }
    }

    fn run(lines: &[(&str, f32, f32)]) -> DocumentResult {
        let doc = clean::clean(&[page(lines)]);
        let c = candidates::extract(&doc);
        extract(&doc, &c, &RuleScorer)
    }

    /// Each line item's position, description, quantity and amount.
    type ItemView<'a> = (
        Option<u32>,
        Option<&'a str>,
        Option<&'a str>,
        Option<&'a str>,
    );
    fn items_of(r: &DocumentResult) -> Vec<ItemView<'_>> {
        r.line_items
            .iter()
            .map(|i| {
                (
                    i.position,
                    i.description.as_deref(),
                    i.quantity.as_deref(),
                    i.amount.as_deref(),
                )
            })
            .collect()
    }

    #[test]
    fn rows_that_sum_to_the_total_with_vat_are_gross_priced() {
        let r = run(&[
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            ("Kaffee  2  5,95  11,90", 40.0, 150.0),
            ("Netto  10,00", 300.0, 200.0),
            ("MwSt 19%  1,90", 300.0, 214.0),
            ("Summe  11,90", 300.0, 228.0),
        ]);
        let item = &r.line_items[0];
        assert_eq!(item.amount_with_vat.as_deref(), Some("11.90"), "{r:?}");
        // Its net amount, derived (the document's only rate; 10,00 is the printed net), is
        // printed nowhere: no evidence.
        assert_eq!(item.amount.as_deref(), Some("10.00"));
        assert!(r.evidence.contains_key("/line_items/0/amount_with_vat"));
        assert!(!r.evidence.contains_key("/line_items/0/amount"));
        // Rows summing to the net are net amounts.
        let r = run(&[
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            ("Kaffee  2  5,00  10,00", 40.0, 150.0),
            ("Netto  10,00", 300.0, 200.0),
            ("MwSt 19%  1,90", 300.0, 214.0),
            ("Summe  11,90", 300.0, 228.0),
        ]);
        assert_eq!(r.line_items[0].amount.as_deref(), Some("10.00"));
        assert_eq!(r.line_items[0].amount_with_vat, None);
    }

    #[test]
    fn rows_whose_amounts_less_their_rates_make_the_goods_total_are_gross_priced() {
        // `Lordo` (gross) names no column the vocabulary knows; the charges the net total
        // adds keep the rows' sum from the total. The amounts less each row's printed rate sum
        // to the goods total printed under them: the amounts are with VAT.
        let lines = [
            ("Fattura n. 167/PA del 02/10/2023", 40.0, 40.0),
            (
                "#@40 Descrizione@60 Q.tà@250 IVA@320 %@340 Lordo@430",
                40.0,
                300.0,
            ),
            (
                "1@40 Consulenza@60 professionale 1@260 22%@330 363,77@430",
                40.0,
                314.0,
            ),
            (
                "2@40 Carta@60 A4 risma 40@260 22%@330 10.557,88@430",
                40.0,
                328.0,
            ),
            ("Totale merce  8.952,17", 300.0, 400.0),
            ("Imballo  42,43", 300.0, 414.0),
            ("Totale netto:  8.994,60", 300.0, 428.0),
            ("Importo IVA 22%  1.978,81", 300.0, 442.0),
            ("Totale documento:  10.973,41", 300.0, 456.0),
        ];
        let r = run(&lines);
        let view: Vec<_> = r
            .line_items
            .iter()
            .map(|i| (i.amount_with_vat.as_deref(), i.amount.as_deref()))
            .collect();
        assert_eq!(
            view,
            [
                (Some("363.77"), Some("298.17")),
                (Some("10557.88"), Some("8654.00"))
            ],
            "{r:?}"
        );
        // The goods total printed as the rows' sum: the amounts are as printed.
        let mut net = lines;
        net[4] = ("Totale merce  10.921,65", 300.0, 400.0);
        net[6] = ("Totale netto:  10.964,08", 300.0, 428.0);
        net[7] = ("Importo IVA 22%  2.412,10", 300.0, 442.0);
        net[8] = ("Totale documento:  13.376,18", 300.0, 456.0);
        let r = run(&net);
        assert_eq!(r.line_items[1].amount.as_deref(), Some("10557.88"), "{r:?}");
        assert_eq!(r.line_items[1].amount_with_vat, None);
    }

    #[test]
    fn a_table_of_amounts_with_vat_under_an_unknown_name_gives_net_amounts_that_sum() {
        // The last column's name no vocabulary knows; `Brutto: 6,90` under a name is the row's
        // sub-line, not a totals line; `500` inside the name stays in it.
        let mut lines = vec![
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            (
                "Pos Beschreibung Menge@250 USt.@320 Verollinen@430",
                40.0,
                300.0,
            ),
            (
                "1 Kopierpapier A4, 500 Blatt 12@260 19%@330 595,90@430",
                40.0,
                314.0,
            ),
            ("Brutto: 6,90", 60.0, 324.0),
            ("2 Kabel 3@260 7%@330 165,25@430", 40.0, 340.0),
            ("Netto  655,20", 300.0, 400.0),
            ("MwSt 19%  95,14", 300.0, 414.0),
            ("MwSt 7%  10,81", 300.0, 428.0),
            ("Summe  761,15", 300.0, 442.0),
        ];
        let r = run(&lines);
        let view: Vec<_> = r
            .line_items
            .iter()
            .map(|i| {
                (
                    i.description.as_deref(),
                    i.quantity.as_deref(),
                    i.amount_with_vat.as_deref(),
                    i.amount.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            view,
            [
                (
                    Some("Kopierpapier A4, 500 Blatt"),
                    Some("12"),
                    Some("595.90"),
                    Some("500.76")
                ),
                (Some("Kabel"), Some("3"), Some("165.25"), Some("154.44")),
            ],
            "{r:?}"
        );
        // A net total the derived amounts miss (the rows still sum to the total): no net
        // amount is given.
        lines[5] = ("Netto  655,30", 300.0, 400.0);
        lines[6] = ("MwSt 19%  95,04", 300.0, 414.0);
        let r = run(&lines);
        assert_eq!(r.line_items.len(), 2);
        assert!(r.line_items.iter().all(|i| i.amount.is_none()), "{r:?}");
        assert!(r.line_items.iter().all(|i| i.amount_with_vat.is_some()));
    }

    #[test]
    fn net_amounts_derived_from_amounts_with_vat_may_sum_to_a_lines_total() {
        // The lines' total printed under the table (600,76) is what the derived nets sum to;
        // the net total adds shipping to it.
        let mut lines = vec![
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            (
                "Pos Beschreibung Menge@250 USt.@320 Brutto@430",
                40.0,
                300.0,
            ),
            ("1 Kopierpapier 12@260 19%@330 595,90@430", 40.0, 314.0),
            ("2 Kabel 1@260 19%@330 119,00@430", 40.0, 328.0),
            ("Summe Positionen  600,76", 300.0, 400.0),
            ("Versand  10,00", 300.0, 414.0),
            ("Netto  610,76", 300.0, 428.0),
            ("MwSt 19%  116,04", 300.0, 442.0),
            ("Gesamt  726,80", 300.0, 456.0),
        ];
        let r = run(&lines);
        let nets: Vec<_> = r.line_items.iter().map(|i| i.amount.as_deref()).collect();
        assert_eq!(nets, [Some("500.76"), Some("100.00")], "{r:?}");
        // Summing to nothing printed (a cent off): none is given.
        lines[4] = ("Summe Positionen  600,77", 300.0, 400.0);
        let r = run(&lines);
        assert!(r.line_items.iter().all(|i| i.amount.is_none()), "{r:?}");
    }

    #[test]
    fn a_shops_rows_priced_both_ways_have_the_net_of_their_quantity_and_price() {
        // Unit price, rate, unit price with VAT, amount with VAT: the net amount is the
        // quantity times the unit price (149 812,80), not the amount with VAT less its rate
        // (149 812,67), which misses the net total by the rounding of the price with VAT.
        let lines = vec![
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            (
                "Bezeichnung Menge@250 Einzelpreis@320 USt.@360 Brutto@430 Betrag@500",
                40.0,
                300.0,
            ),
            (
                "Beratung 40@260 3745,32@330 20%@370 4494,38@440 179775,20@520",
                40.0,
                314.0,
            ),
            (
                "Kabel 3@260 10,00@330 20%@370 12,00@440 36,00@520",
                40.0,
                328.0,
            ),
            ("Netto  149842,80", 300.0, 400.0),
            ("MwSt 20%  29968,56", 300.0, 414.0),
            ("Summe  179811,36", 300.0, 428.0),
        ];
        let r = run(&lines);
        let view: Vec<_> = r
            .line_items
            .iter()
            .map(|i| {
                (
                    i.unit_price.as_deref(),
                    i.amount.as_deref(),
                    i.amount_with_vat.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            view,
            [
                (Some("3745.32"), Some("149812.80"), Some("179775.20")),
                (Some("10.00"), Some("30.00"), Some("36.00")),
            ],
            "{r:?}"
        );
        // Prices with VAT (a receipt's: quantity x price is the amount with VAT): the net is
        // the amount less its rate, also where the rate is within the rounding (0,10 at 6 %).
        let r = run(&[
            ("Rechnung Nr. 4712 vom 02.05.2024", 40.0, 40.0),
            (
                "Bezeichnung Menge@250 Preis@320 USt.@360 Betrag@500",
                40.0,
                300.0,
            ),
            ("Tüte 1@260 0,10@330 6%@370 0,10@520", 40.0, 314.0),
            ("Brot 2@260 1,06@330 6%@370 2,12@520", 40.0, 328.0),
            ("Netto  2,09", 300.0, 400.0),
            ("MwSt 6%  0,13", 300.0, 414.0),
            ("Summe  2,22", 300.0, 428.0),
        ]);
        let nets: Vec<_> = r.line_items.iter().map(|i| i.amount.as_deref()).collect();
        assert_eq!(nets, [Some("0.09"), Some("2.00")], "{r:?}");
    }

    #[test]
    fn a_shops_rows_priced_both_ways_in_whole_units_end_at_their_goods_total() {
        // A currency printed without decimals: the unit price (11622) is the one that grows by
        // the rate to the price with VAT (13714). The goods total under the rows (a label no
        // vocabulary knows) is the sum of their net amounts, printed nowhere else, and ends
        // the rows; a charge the net total adds follows it.
        let lines = vec![
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            (
                "Bezeichnung Menge@250 Einzelpreis@320 USt.@360 Brutto@430 Betrag@500",
                40.0,
                300.0,
            ),
            (
                "Beratung 3@260 11622@330 18%@370 13714@440 41142@520",
                40.0,
                314.0,
            ),
            (
                "Kabel 40@260 22698@330 27%@370 28826@440 1153040@520",
                40.0,
                328.0,
            ),
            ("Áruérték@400 942786@525", 40.0, 350.0),
            ("Kezelési díj@400 537@540", 40.0, 364.0),
            ("Netto  943323", 300.0, 400.0),
            ("MwSt 18%  6276", 300.0, 414.0),
            ("MwSt 27%  245283", 300.0, 428.0),
            ("Summe  1194882", 300.0, 442.0),
        ];
        let r = run(&lines);
        let view: Vec<_> = r
            .line_items
            .iter()
            .map(|i| {
                (
                    i.unit_price.as_deref(),
                    i.amount.as_deref(),
                    i.amount_with_vat.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            view,
            [
                (Some("11622"), Some("34866"), Some("41142")),
                (Some("22698"), Some("907920"), Some("1153040")),
            ],
            "{r:?}"
        );
    }

    #[test]
    fn rows_priced_both_ways_with_numbers_at_decimals_limits_do_not_panic() {
        // Quantities, prices and amounts as large as a decimal holds, split digits among them:
        // the checksums are checked arithmetic, whatever the page prints.
        let big = "79228162514264337593543950335";
        let lines = [
            (
                format!(
                    "Posten 99999999999999@260 {big}@300 1 2,50@330 20%@370 {big}@440 {big}@520"
                ),
                40.0,
                314.0,
            ),
            (
                format!("Kabel 3@260 99999999999 99999,99@330 20%@370 {big},99@440 {big}@520"),
                40.0,
                328.0,
            ),
            (format!("Summe  {big}"), 300.0, 428.0),
        ];
        let lines: Vec<(&str, f32, f32)> =
            lines.iter().map(|(t, x, y)| (t.as_str(), *x, *y)).collect();
        let r = run(&lines);
        assert!(r.line_items.len() <= 2, "{r:?}");
    }

    /// An invoice whose rows sum to 253.00 and whose net is 250.00 after document-level
    /// charges and allowances; `adjust` prints them (or not).
    fn with_adjustments(adjust: &[(&'static str, f32, f32)]) -> DocumentResult {
        let mut lines = vec![
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            ("Pos  Bezeichnung  Menge  Preis  Betrag", 40.0, 100.0),
            ("1  Trennblätter A4  20  9,90  198,00", 40.0, 114.0),
            ("2  Joghurt Banane  50  1,10  55,00", 40.0, 128.0),
            ("Positionssumme  253,00", 300.0, 200.0),
        ];
        lines.extend_from_slice(adjust);
        lines.extend_from_slice(&[
            ("Rechnungssumme ohne USt.  250,00", 300.0, 300.0),
            ("USt. 19 %  47,50", 300.0, 314.0),
            ("Bruttosumme  297,50", 300.0, 328.0),
            ("Bei Zahlung innerhalb 10 Tagen 2 % Skonto", 40.0, 400.0),
        ]);
        let mut r = run(&lines);
        crate::validate::validate(&mut r);
        r
    }

    fn codes(r: &DocumentResult) -> Vec<&str> {
        r.validation
            .errors
            .iter()
            .map(|i| i.code.as_str())
            .collect()
    }

    #[test]
    fn document_level_charges_and_allowances_close_the_rows_to_the_net() {
        let r = with_adjustments(&[
            ("Gesamtbetrag der Zuschläge  5,80", 300.0, 214.0),
            ("Gesamtbetrag der Abschläge  -8,80", 300.0, 228.0),
        ]);
        assert_eq!(r.line_items.len(), 2, "{r:?}");
        assert_eq!(r.totals.net.as_deref(), Some("250.00"));
        assert_eq!(r.totals.charges.as_deref(), Some("5.80"), "{:?}", r.totals);
        assert_eq!(r.totals.discount.as_deref(), Some("8.80"));
        assert!(r.evidence.contains_key("/totals/charges"));
        assert!(
            !codes(&r).contains(&"LINE_ITEMS_SUM_MISMATCH"),
            "{:?}",
            r.validation
        );
        assert!(
            r.validation
                .checks_passed
                .iter()
                .any(|c| c == "LINE_ITEMS_SUM")
        );
        // English labels.
        let r = with_adjustments(&[
            ("Shipping and handling  7,00", 300.0, 214.0),
            ("Total discount  -10,00", 300.0, 228.0),
        ]);
        assert_eq!(r.totals.charges.as_deref(), Some("7.00"), "{:?}", r.totals);
        assert_eq!(r.totals.discount.as_deref(), Some("10.00"));
        // Nothing printed closes the gap: the document disagrees with itself (the `10` days of
        // the payment terms are no allowance).
        let r = with_adjustments(&[]);
        assert_eq!((&r.totals.charges, &r.totals.discount), (&None, &None));
        assert!(
            codes(&r).contains(&"LINE_ITEMS_SUM_MISMATCH"),
            "{:?}",
            r.validation
        );
    }

    #[test]
    fn adjustments_of_unknown_labels_between_the_rows_sum_and_the_net_close_the_gap() {
        // One per line, labels no vocabulary knows: 4,20 + 3,30 - 10,50 = 250,00 - 253,00.
        let stacked = [
            ("Posten A  4,20", 300.0, 214.0),
            ("Posten B  3,30", 300.0, 228.0),
            ("Posten C 5%  -10,50", 300.0, 242.0),
        ];
        let r = with_adjustments(&stacked);
        assert_eq!(r.totals.charges.as_deref(), Some("7.50"), "{:?}", r.totals);
        assert_eq!(r.totals.discount.as_deref(), Some("10.50"));
        assert!(r.evidence.contains_key("/totals/charges"));
        assert!(
            !codes(&r).contains(&"LINE_ITEMS_SUM_MISMATCH"),
            "{:?}",
            r.validation
        );
        // Run on as one line.
        let r = with_adjustments(&[(
            "Posten A  4,20  Posten B  3,30  Posten C 5%  -10,50",
            200.0,
            214.0,
        )]);
        assert_eq!(r.totals.charges.as_deref(), Some("7.50"), "{:?}", r.totals);
        assert_eq!(r.totals.discount.as_deref(), Some("10.50"));
        // Amounts that do not close the gap, or only some of those printed, are none.
        let r = with_adjustments(&[
            ("Posten A  4,20", 300.0, 214.0),
            ("Posten B  3,30", 300.0, 228.0),
            ("Posten C  -10,00", 300.0, 242.0),
        ]);
        assert_eq!((&r.totals.charges, &r.totals.discount), (&None, &None));
        assert!(codes(&r).contains(&"LINE_ITEMS_SUM_MISMATCH"));
    }

    #[test]
    fn a_charge_under_the_rows_sum_is_no_vat_where_the_net_is_printed_below_it() {
        // The rows' sum, a charge of a label no vocabulary knows (a plausible VAT of the sum)
        // and the net they make, then the VAT and the total: the net is the sum plus the charge.
        let r = run(&[
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            ("Pos  Bezeichnung  Menge  Preis  Betrag", 40.0, 100.0),
            ("1  Trennblätter A4  20  9,90  198,00", 40.0, 114.0),
            ("2  Joghurt Banane  50  1,10  55,00", 40.0, 128.0),
            ("Summe Posten  253,00", 300.0, 200.0),
            ("Posten A  47,00", 300.0, 214.0),
            ("Zwischensumme  300,00", 300.0, 228.0),
            ("USt. 19 %  57,00", 300.0, 242.0),
            ("Gesamtbetrag  357,00", 300.0, 256.0),
        ]);
        let t = &r.totals;
        assert_eq!(
            (t.net.as_deref(), t.vat.as_deref(), t.total.as_deref()),
            (Some("300.00"), Some("57.00"), Some("357.00")),
            "{t:?}"
        );
    }

    #[test]
    fn a_totals_rows_sum_line_prints_the_adjustments_between_the_sum_and_the_net() {
        let r = with_adjustments(&[
            (
                "Warenwert  Zu-/Abschlag  Fracht-Verp  Nettobetrag",
                200.0,
                214.0,
            ),
            ("253,00  -6,50  3,50  250,00", 200.0, 228.0),
        ]);
        assert_eq!(r.totals.discount.as_deref(), Some("6.50"), "{:?}", r.totals);
        assert_eq!(r.totals.charges.as_deref(), Some("3.50"));
        assert!(
            !codes(&r).contains(&"LINE_ITEMS_SUM_MISMATCH"),
            "{:?}",
            r.validation
        );
        // Column names no vocabulary knows: the sum row's arithmetic alone.
        let r = with_adjustments(&[
            ("Warenwert  Posten A  Posten B  Nettobetrag", 200.0, 214.0),
            ("253,00  -6,50  3,50  250,00", 200.0, 228.0),
        ]);
        assert_eq!(r.totals.discount.as_deref(), Some("6.50"), "{:?}", r.totals);
        assert_eq!(r.totals.charges.as_deref(), Some("3.50"));
        assert_eq!(r.confidence.fields.get("/totals/charges"), Some(&0.6));
        // Two amounts of one sign are no allowance and charge.
        let r = with_adjustments(&[
            ("Warenwert  Posten A  Posten B  Nettobetrag", 200.0, 214.0),
            ("253,00  -1,50  -1,50  250,00", 200.0, 228.0),
        ]);
        assert_eq!(r.totals.charges, None, "{:?}", r.totals);
    }

    #[test]
    fn an_amount_under_the_total_that_makes_the_payable_is_what_was_paid_before() {
        let lines = [
            ("Facture N° F-2017-11 du 13/11/2017", 40.0, 40.0),
            (
                "Conditions de paiement 30% d'acompte, solde à 30 j",
                40.0,
                60.0,
            ),
            ("Total HT  624,90 €", 400.0, 300.0),
            ("Total taxes  46,25 €", 400.0, 314.0),
            ("Total TTC  671,15 €", 400.0, 328.0),
            (
                "Règlement  Date  Montant  Solde à payer  470,15 €",
                80.0,
                342.0,
            ),
            ("Virement  05/11/2017  201,00 €", 40.0, 356.0),
        ];
        let r = run(&lines);
        assert_eq!(
            r.totals.payable.as_deref(),
            Some("470.15"),
            "{:?}",
            r.totals
        );
        assert_eq!(
            r.totals.prepaid.as_deref(),
            Some("201.00"),
            "{:?}",
            r.totals
        );
        assert!(r.evidence.contains_key("/totals/prepaid"));
        // An amount that makes no difference of the two is nothing paid.
        let mut other = lines;
        other[6] = ("Virement  05/11/2017  200,00 €", 40.0, 356.0);
        let r = run(&other);
        assert_ne!(
            r.totals.prepaid.as_deref(),
            Some("200.00"),
            "{:?}",
            r.totals
        );
    }

    #[test]
    fn a_receipts_total_after_its_discount_is_also_what_is_payable() {
        let r = run(&[
            ("KEDAI HARDWARE MAJU SDN BHD", 40.0, 20.0),
            ("TAX INVOICE", 40.0, 40.0),
            ("2 TOWEL ROD  6.00  12.00 SR", 40.0, 100.0),
            ("Total  277.90", 40.0, 130.0),
            ("Discount:  0.90", 40.0, 145.0),
            ("Tofal Inchusive GST:  277.00", 40.0, 160.0),
            ("CASH  277.00", 40.0, 175.0),
            ("THANK YOU", 40.0, 200.0),
        ]);
        assert_eq!(r.totals.total.as_deref(), Some("277.00"), "{:?}", r.totals);
        assert_eq!(r.totals.payable.as_deref(), Some("277.00"));
    }

    #[test]
    fn date_of_the_document_not_of_an_order_or_a_version() {
        let r = run(&[
            ("Stylesheet-Version: 2.0 vom 18.10.2018", 40.0, 20.0),
            ("Lieferant GmbH", 40.0, 60.0),
            ("Baurechnung Nr. 181301674 vom 25.04.2018", 40.0, 150.0),
            ("Rechnung gemäß Bestellung vom 01.03.2018.", 40.0, 170.0),
            ("Gesamtbetrag  529,87 EUR", 300.0, 442.0),
        ]);
        assert_eq!(r.document.date.as_deref(), Some("2018-04-25"));
        let r = run(&[
            ("Beitragsrechnung  24. Januar 2014", 40.0, 150.0),
            (
                "Beitrag für den Zeitraum vom 06.12.2013 bis zum 06.12.2014",
                40.0,
                200.0,
            ),
        ]);
        assert_eq!(r.document.date.as_deref(), Some("2014-01-24"));
    }

    #[test]
    fn rows_printed_without_a_rate_take_the_rate_whose_tax_their_amounts_make() {
        // Two rates and no rate column: only 198,00 + 50,00 = 248,00 makes 47,12 at 19 %.
        let table = [
            (
                "Pos Beschreibung Menge@250 Einzelpreis@320 Betrag@430",
                40.0,
                300.0,
            ),
            ("1 Trennblätter A4 20@260 9,90@355 198,00@430", 40.0, 314.0),
            ("2 Ordner blau 10@260 2,50@355 25,00@430", 40.0, 328.0),
            ("3 Stifte 5@260 10,00@355 50,00@430", 40.0, 342.0),
            ("Nettobetrag  273,00", 300.0, 400.0),
        ];
        let mut lines = vec![("Rechnung Nr. 471102", 40.0, 150.0)];
        lines.extend_from_slice(&table);
        lines.extend_from_slice(&[
            ("USt 19 %  47,12", 300.0, 414.0),
            ("USt 7 %  1,75", 300.0, 428.0),
            ("Gesamtbetrag  321,87 EUR", 300.0, 442.0),
        ]);
        let r = run(&lines);
        let rates: Vec<Option<&str>> = r.line_items.iter().map(|i| i.vat_rate.as_deref()).collect();
        assert_eq!(rates, [Some("19"), Some("7"), Some("19")], "{:?}", r.taxes);
        // Two rows of one amount at different rates: which is which the sums cannot say.
        let mut lines = vec![("Rechnung Nr. 471102", 40.0, 150.0)];
        lines.extend_from_slice(&table[..2]);
        lines.extend_from_slice(&[
            ("2 Ordner blau 10@260 2,50@355 25,00@430", 40.0, 328.0),
            ("3 Ordner rot 10@260 2,50@355 25,00@430", 40.0, 342.0),
            ("Nettobetrag  248,00", 300.0, 400.0),
            ("USt 19 %  42,37", 300.0, 414.0),
            ("USt 7 %  1,75", 300.0, 428.0),
            ("Gesamtbetrag  292,12 EUR", 300.0, 442.0),
        ]);
        let r = run(&lines);
        let rates: Vec<Option<&str>> = r.line_items.iter().map(|i| i.vat_rate.as_deref()).collect();
        assert_eq!(rates, [Some("19"), None, None], "{:?}", r.taxes);
    }

    #[test]
    fn one_rate_line_under_an_unknown_label_is_the_tax_summary() {
        let r = run(&[
            ("Rechnung Nr. 471102", 40.0, 150.0),
            (
                "Pos Beschreibung Menge@250 Einzelpreis@320 Betrag@430",
                40.0,
                300.0,
            ),
            ("1 Trennblätter A4 20@260 9,90@355 198,00@430", 40.0, 314.0),
            ("2 Ordner blau 10@260 2,50@355 25,00@430", 40.0, 328.0),
            ("Zomuze:  223,00", 300.0, 400.0),
            ("Torugu 19 %  42,37", 300.0, 414.0),
            ("Siva:  265,37 EUR", 300.0, 428.0),
        ]);
        assert_eq!(r.totals.vat.as_deref(), Some("42.37"), "{:?}", r.totals);
        assert_eq!(r.taxes.len(), 1, "{:?}", r.taxes);
        let t = &r.taxes[0];
        assert_eq!(
            (t.rate.as_deref(), t.base.as_deref(), t.amount.as_deref()),
            (Some("19"), Some("223.00"), Some("42.37"))
        );
        assert!(
            r.line_items
                .iter()
                .all(|i| i.vat_rate.as_deref() == Some("19"))
        );
    }

    #[test]
    fn german_invoice() {
        let r = run(&[
            ("Lieferant GmbH", 40.0, 30.0),
            ("Lieferantenstraße 20", 40.0, 44.0),
            ("80333 München", 40.0, 58.0),
            ("Rechnung Nr. 471102", 40.0, 150.0),
            ("Rechnungsdatum: 05.03.2018", 40.0, 164.0),
            ("Fällig am: 04.04.2018", 40.0, 178.0),
            ("Käufer", 40.0, 200.0),
            ("Kunden AG Mitte", 40.0, 214.0),
            ("Kundenstraße 15", 40.0, 228.0),
            ("69876 Frankfurt", 40.0, 242.0),
            (
                "Pos Beschreibung Menge@250 Einzelpreis@320 Betrag@430",
                40.0,
                300.0,
            ),
            ("1 Trennblätter A4 20@260 9,90@355 198,00@430", 40.0, 314.0),
            ("Nettobetrag  473,00", 300.0, 400.0),
            ("USt 19 %  37,62", 300.0, 414.0),
            ("USt 7 %  19,25", 300.0, 428.0),
            ("Gesamtbetrag  529,87 EUR", 300.0, 442.0),
            (
                "IBAN: DE89 3704 0044 0532 0130 00  BIC: COBADEFFXXX",
                40.0,
                700.0,
            ),
            ("USt-IdNr.: DE123456789", 40.0, 714.0),
            ("Geschäftsführer: Hans Muster", 40.0, 728.0),
        ]);
        assert_eq!(r.document.number.as_deref(), Some("471102"));
        assert_eq!(r.document.date.as_deref(), Some("2018-03-05"));
        assert_eq!(r.document.due_date.as_deref(), Some("2018-04-04"));
        assert_eq!(r.document.currency.as_deref(), Some("EUR"));
        assert_eq!(r.document.language.as_deref(), Some("de"));
        assert_eq!(r.document.title.as_deref(), Some("Rechnung"));
        assert_eq!(r.totals.total.as_deref(), Some("529.87"));
        assert_eq!(r.totals.net.as_deref(), Some("473.00"));
        assert_eq!(r.totals.vat.as_deref(), Some("56.87"));
        assert_eq!(r.parties.seller.name.as_deref(), Some("Lieferant GmbH"));
        assert_eq!(r.parties.seller.vat_id.as_deref(), Some("DE123456789"));
        assert_eq!(r.parties.buyer.name.as_deref(), Some("Kunden AG Mitte"));
        assert_eq!(
            r.parties.buyer.address.as_deref(),
            Some("Kundenstraße 15, 69876 Frankfurt")
        );
        assert_eq!(r.bank_accounts.len(), 1);
        assert_eq!(
            r.bank_accounts[0].iban.as_deref(),
            Some("DE89370400440532013000")
        );
        assert_eq!(r.bank_accounts[0].swift_bic.as_deref(), Some("COBADEFFXXX"));
        assert_eq!(r.line_items.len(), 1);
        assert_eq!(r.line_items[0].amount.as_deref(), Some("198.00"));
        assert_eq!(r.line_items[0].quantity.as_deref(), Some("20"));
        assert_eq!(r.taxes.len(), 2);
        assert_eq!(r.signatories[0].name.as_deref(), Some("Hans Muster"));
        assert!(r.confidence.overall > 0.5);
        let ev = &r.evidence["/totals/total"];
        assert_eq!(ev.page, 1);
        assert!(ev.text.contains("529,87"));
        assert!(r.confidence.fields["/document/number"] > 0.5);
    }

    /// Rows that print the quantity first (`QTY  DESCRIPTION  PRICE  AMOUNT`, `Menge  Einheit
    /// Bezeichnung ...`) keep their description, and the unit after the quantity.
    #[test]
    fn a_quantity_printed_first_keeps_the_description() {
        let de = run(&[
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            (
                "Menge@40 Einheit@80 Bezeichnung@130 Einzelpreis@380 Betrag@470",
                40.0,
                100.0,
            ),
            (
                "10@45 Stk@80 Kaffeebohnen@130 Arabica 1kg 5,00@400 50,00@475",
                40.0,
                112.0,
            ),
            (
                "2@50 Stk@80 Milchschaumkanne@130 12,50@395 25,00@475",
                40.0,
                124.0,
            ),
            ("Summe netto  75,00@475", 300.0, 170.0),
            ("MwSt 19%  14,25@475", 300.0, 182.0),
            ("Gesamtbetrag  89,25@475", 300.0, 194.0),
        ]);
        let en = run(&[
            ("Invoice No. 4711 Date 02.05.2024", 40.0, 40.0),
            (
                "QTY@40 DESCRIPTION@80 UNIT@380 PRICE@410 AMOUNT@470",
                40.0,
                100.0,
            ),
            (
                "10@45 Coffee@80 beans Arabica 1kg 5.00@400 50.00@475",
                40.0,
                112.0,
            ),
            ("2@45 Milk@80 frother 12.50@395 25.00@475", 40.0, 124.0),
            ("Subtotal  75.00@475", 300.0, 170.0),
            ("VAT 19%  14.25@475", 300.0, 182.0),
            ("Total  89.25@475", 300.0, 194.0),
        ]);
        for (r, first, second) in [
            (&de, "Kaffeebohnen Arabica 1kg", "Milchschaumkanne"),
            (&en, "Coffee beans Arabica 1kg", "Milk frother"),
        ] {
            let got: Vec<(Option<&str>, Option<&str>, Option<&str>)> = r
                .line_items
                .iter()
                .map(|i| {
                    (
                        i.description.as_deref(),
                        i.quantity.as_deref(),
                        i.amount.as_deref(),
                    )
                })
                .collect();
            assert_eq!(
                got,
                [
                    (Some(first), Some("10"), Some("50.00")),
                    (Some(second), Some("2"), Some("25.00"))
                ]
            );
        }
        assert_eq!(
            de.line_items[0].unit.as_deref(),
            Some("Stk"),
            "{:?}",
            de.line_items[0]
        );
        assert_eq!(en.line_items[0].unit, None, "{:?}", en.line_items[0]);
    }

    /// Position and description on one line, the numbers on the line under it; the first
    /// description names column words (`day rate`) but is no header.
    #[test]
    fn a_description_with_column_words_over_its_numbers_is_no_header() {
        let r = run(&[
            ("Invoice No. 4711 Date 02.05.2024", 40.0, 40.0),
            (
                "#@40 Description@60 Qty@300 Unit@320 price@345 VAT@400 %@420 Amount@470",
                40.0,
                100.0,
            ),
            ("1@40 Consulting@60 services (day rate)", 40.0, 114.0),
            ("40@300 h 575.57@345 20%@400 23,022.80@470", 300.0, 126.0),
            ("2@40 Office@60 chair, ergonomic", 40.0, 142.0),
            ("3@300 pcs 133.44@345 20%@400 400.32@470", 300.0, 154.0),
            ("Subtotal  23,423.12@470", 300.0, 180.0),
        ]);
        assert_eq!(
            items_of(&r),
            [
                (
                    Some(1),
                    Some("Consulting services (day rate)"),
                    Some("40"),
                    Some("23022.80")
                ),
                (
                    Some(2),
                    Some("Office chair, ergonomic"),
                    Some("3"),
                    Some("400.32")
                )
            ]
        );
    }

    /// A row whose quantity x price misses its amount (a price printed rounded), the amount on
    /// the line under it, between rows that balance: a row all the same, since with it the rows
    /// sum to the printed net.
    #[test]
    fn a_row_without_arithmetic_takes_its_amount_from_the_line_below() {
        let r = run(&[
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            (
                "1@40 KR3M@60 Kunstrasen@120 3,3333@300 3@370 19@400 %",
                40.0,
                114.0,
            ),
            ("4012345001235@60 10,00@470", 60.0, 126.0),
            (
                "2@40 PFA5@60 Pfand@120 2,7700@300 20@370 19@400 %",
                40.0,
                150.0,
            ),
            ("4000001234578@60 55,46@470", 60.0, 162.0),
            (
                "3@40 SFK5@60 Schweinesteak@120 5,5000@300 1@370 7@400 %",
                40.0,
                186.0,
            ),
            ("4000050986428@60 5,50@470", 60.0, 198.0),
            ("Positionssumme  70,96@470", 300.0, 230.0),
        ]);
        assert_eq!(
            items_of(&r),
            [
                (Some(1), Some("Kunstrasen"), Some("3"), Some("10.00")),
                // Quantity and price that miss the amount were misread, as far as anyone knows
                // (a PDF's text layer may be an OCR reading too): neither is kept.
                (Some(2), Some("Pfand"), None, Some("55.46")),
                (Some(3), Some("Schweinesteak"), Some("1"), Some("5.50"))
            ]
        );
    }

    /// Rows whose amount stands on the line under the name and quantity, an article number
    /// printed after the position, attribute lines under the name: one item per row, the
    /// position and the name alone.
    #[test]
    fn an_amount_under_the_row_and_an_article_number_after_the_position() {
        let r = run(&[
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            (
                "Pos@40 Beschreibung@150 Menge@300 Steuersatz@360 Nettobetrag@450",
                40.0,
                100.0,
            ),
            (
                "1@40 0815CO-123@60 Stahlcoil@150 10@300 Stk 0@370 %",
                40.0,
                114.0,
            ),
            ("Basismenge:@150 1 Stk 1.000,00@470", 150.0, 128.0),
            ("Herkunftsland:@150 DE", 150.0, 142.0),
            (
                "2@40 BR-4529@60 Stoßfänger@150 10@300 Stk 0@370 %",
                40.0,
                160.0,
            ),
            ("Basismenge:@150 1 Stk 1.000,00@470", 150.0, 174.0),
            ("Summe netto  2.000,00@470", 300.0, 200.0),
            ("Gesamtbetrag  2.000,00@470", 300.0, 214.0),
        ]);
        assert_eq!(
            items_of(&r),
            [
                (Some(1), Some("Stahlcoil"), Some("10"), Some("1000.00")),
                (Some(2), Some("Stoßfänger"), Some("10"), Some("1000.00"))
            ]
        );
    }

    /// A row whose description line, above its numbers' line, starts with its position: the
    /// position is no part of the description.
    #[test]
    fn a_position_before_the_description_line_is_the_position() {
        let r = run(&[
            ("Rechnung Nr. 4711 vom 02.05.2024", 40.0, 40.0),
            (
                "Pos@40 Bezeichnung@70 Menge@300 Einzelpreis@380 Gesamtpreis@470",
                40.0,
                100.0,
            ),
            ("1@40 Kaffeebohnen@70 Arabica 1kg", 40.0, 112.0),
            ("10@300 Stk 5,00@400 50,00@475", 300.0, 124.0),
            ("2@40 Milchschaumkanne@70", 40.0, 136.0),
            ("2@300 Stk 12,50@395 25,00@475", 300.0, 148.0),
            ("Summe netto  75,00@475", 300.0, 170.0),
            ("MwSt 19%  14,25@475", 300.0, 182.0),
            ("Gesamtbetrag  89,25@475", 300.0, 194.0),
        ]);
        let got: Vec<(Option<u32>, Option<&str>)> = r
            .line_items
            .iter()
            .map(|i| (i.position, i.description.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                (Some(1), Some("Kaffeebohnen Arabica 1kg")),
                (Some(2), Some("Milchschaumkanne"))
            ]
        );
    }

    #[test]
    fn receipt_without_labels_for_seller() {
        let r = run(&[
            ("TAN WOON YANN", 72.0, 25.0),
            ("BOOK TA .K(TAMAN DAYA) SDN BND", 50.0, 45.0),
            ("789417-W", 100.0, 59.0),
            ("NO.53 55,57 & 59, JALAN SAGU 18,", 50.0, 73.0),
            ("DOCUMENT NO : TD01167104", 50.0, 150.0),
            ("DATE: 25/12/2018 8:13:39 PM", 50.0, 164.0),
            ("TOTAL:  9.00", 200.0, 300.0),
            ("ROUNDING ADJUSTMENT:  0.00", 100.0, 314.0),
            ("CASH  10.00", 200.0, 328.0),
            ("CHANGE  1.00", 200.0, 342.0),
        ]);
        assert_eq!(r.totals.total.as_deref(), Some("9.00"));
        assert_eq!(r.document.date.as_deref(), Some("2018-12-25"));
        assert_eq!(
            r.parties.seller.name.as_deref(),
            Some("BOOK TA .K(TAMAN DAYA) SDN BND")
        );
        assert_eq!(
            r.parties.seller.registration_id.as_deref(),
            Some("789417-W")
        );
        assert_eq!(r.document.number.as_deref(), Some("TD01167104"));
    }

    #[test]
    fn document_ocr_confidence_is_a_feature() {
        let mut p = page(&[("Total 12.00", 10.0, 10.0), ("Date 01.02.2024", 10.0, 30.0)]);
        let feats = |p: &TextPage| {
            let doc = clean::clean(std::slice::from_ref(p));
            let c = candidates::extract(&doc);
            let ctx = features::FeatureContext::new(&doc, &c);
            let i = c
                .items
                .iter()
                .position(|x| x.value == "12.00")
                .expect("amount");
            features::candidate_features(&ctx, &c, i).expect("features")
        };
        assert_eq!(feats(&p).doc_ocr_confidence, 1.0);
        for (w, conf) in p.words.iter_mut().zip([0.9, 0.5, 0.3, 0.3]) {
            w.confidence = conf;
        }
        let f = feats(&p);
        assert!((f.doc_ocr_confidence - 0.5).abs() < 1e-6, "{f:?}");
        assert!((f.ocr_confidence - 0.5).abs() < 1e-6, "{f:?}");
    }

    /// Scores by field and line (candidates' relative y), for totals tests.
    struct ByLine(Vec<(Field, usize, f32)>);

    impl FieldScorer for ByLine {
        fn name(&self) -> &str {
            "by-line"
        }
        fn score(&self, field: Field, f: &CandidateFeatures) -> f32 {
            let line = (f.rel_y * 800.0 / 14.0) as usize;
            self.0
                .iter()
                .find(|(g, l, _)| *g == field && *l == line)
                .map_or(0.0, |x| x.2)
        }
    }

    #[test]
    fn a_weak_total_does_not_win_through_arithmetic() {
        // Change + total = cash adds up like net + VAT = total.
        let doc = clean::clean(&[page(&[
            ("Total 6.40", 10.0, 0.0),
            ("Cash 100.00", 10.0, 14.0),
            ("Change 93.60", 10.0, 28.0),
        ])]);
        let c = candidates::extract(&doc);
        let weak = ByLine(vec![
            (Field::Total, 0, 0.95),
            (Field::Total, 1, 0.35),
            (Field::Net, 2, 0.5),
            (Field::Vat, 0, 0.5),
        ]);
        let r = extract(&doc, &c, &weak);
        assert_eq!(r.totals.total.as_deref(), Some("6.40"));
        assert!(r.confidence.fields["/totals/total"] < 0.96);
        // Within the bonus of the best total, adding up still decides.
        let close = ByLine(vec![
            (Field::Total, 0, 0.5),
            (Field::Total, 1, 0.45),
            (Field::Net, 2, 0.5),
            (Field::Vat, 0, 0.5),
        ]);
        let r = extract(&doc, &c, &close);
        assert_eq!(r.totals.total.as_deref(), Some("100.00"));
        assert_eq!(r.totals.net.as_deref(), Some("93.60"));
    }

    /// A scorer with its own fill threshold for the total.
    struct Demanding(ByLine, f32);

    impl FieldScorer for Demanding {
        fn name(&self) -> &str {
            "demanding"
        }
        fn score(&self, field: Field, f: &CandidateFeatures) -> f32 {
            self.0.score(field, f)
        }
        fn fill_threshold(&self, field: Field) -> f32 {
            if field == Field::Total {
                self.1
            } else {
                MIN_SCORE
            }
        }
    }

    #[test]
    fn a_field_is_filled_only_above_its_scorers_threshold() {
        let doc = clean::clean(&[page(&[("Invoice", 10.0, 0.0), ("Amount 6.40", 10.0, 14.0)])]);
        let c = candidates::extract(&doc);
        let scorer = |t| Demanding(ByLine(vec![(Field::Total, 1, 0.4)]), t);
        let r = extract(&doc, &c, &scorer(MIN_SCORE));
        assert_eq!(r.totals.total.as_deref(), Some("6.40"));
        assert_eq!(r.confidence.fields["/totals/total"], 0.4);
        // A right-with-probability-0.4 value costs F1 where the field's F1 is above 0.8.
        let r = extract(&doc, &c, &scorer(0.45));
        assert_eq!(r.totals.total, None);
        assert!(!r.confidence.fields.contains_key("/totals/total"));
    }

    #[test]
    fn a_zero_net_is_no_arithmetic_support() {
        // `0 + 5 = 5` is no support: 5 is not also the VAT, and the total gets no bonus.
        let r = run(&[
            ("Subtotal 0.00", 10.0, 10.0),
            ("Tax 5.00", 10.0, 24.0),
            ("Total 5.00", 10.0, 38.0),
            ("Cash 50.00", 10.0, 52.0),
        ]);
        let f = &r.confidence.fields;
        assert_eq!(r.totals.vat, None, "{f:?}");
        assert!(f["/totals/total"] <= 0.95, "{f:?}");
        // With a real net the same amounts are consistent.
        let r = run(&[
            ("Subtotal 25.00", 10.0, 10.0),
            ("Tax 5.00", 10.0, 24.0),
            ("Total 30.00", 10.0, 38.0),
        ]);
        assert_eq!(r.totals.vat.as_deref(), Some("5.00"));
        assert!(r.confidence.fields["/totals/total"] > 0.95);
    }

    #[test]
    fn unknown_stays_none() {
        let r = run(&[("Hello world", 10.0, 10.0)]);
        assert!(r.document.number.is_none());
        assert!(r.totals.total.is_none());
        assert!(r.document.date.is_none());
        let empty = extract(
            &CleanDocument::default(),
            &Candidates::default(),
            &RuleScorer,
        );
        assert_eq!(empty, DocumentResult::empty());
    }
}
