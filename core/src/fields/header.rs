//! Document header: number, date, due date, title, language, currency.

use super::{Ctx, Field, FieldScorer, ranked};
use crate::candidates::labels::LabelKey;
use crate::candidates::{CandidateKind, Candidates};
use crate::fields::choice_model::{
    ChoiceKind, ChoiceModel, CurrencyOption, currency_options_of, currency_vectors, rule_currency,
};
use crate::fields::features::CandidateFeatures;
use crate::types::Span;

/// Confidence of a document number read from a `Key:` the vocabulary does not know.
const UNKNOWN_KEY_CONFIDENCE: f32 = 0.3;

/// Number, date and due date: the scorer's best candidate of each (a due date is never the
/// document date's candidate).
pub(super) fn number_and_dates(
    ctx: &mut Ctx<'_>,
    feats: &[(usize, CandidateFeatures)],
    cands: &Candidates,
    scorer: &dyn FieldScorer,
) {
    let item = |i: usize| cands.items.get(i);
    let best = |field: Field| ranked(feats, scorer, field).into_iter().next();
    if let Some((s, i)) = best(Field::Number)
        && let Some(c) = item(i)
    {
        ctx.result.document.number = Some(c.value.clone());
        ctx.put("/document/number", s, &c.span);
    } else if let Some(c) = cands
        .of(CandidateKind::Reference)
        .find(|c| c.label.is_none())
    {
        // No labelled number: the first number of a `Key:` the vocabulary does not know.
        ctx.result.document.number = Some(c.value.clone());
        ctx.put("/document/number", UNKNOWN_KEY_CONFIDENCE, &c.span);
    }
    // A date of a list of dated amounts (instalments, open items) is no date of the document.
    let listed_date = |i: usize| item(i).is_some_and(|c| cands.on_dated_line(c));
    let date = ranked(feats, scorer, Field::Date)
        .into_iter()
        .find(|(_, i)| !listed_date(*i));
    if let Some((s, i)) = date
        && let Some(c) = item(i)
    {
        ctx.result.document.date = Some(c.value.clone());
        ctx.put("/document/date", s, &c.span);
    }
    // The due date: the best candidate that is not the document date's, and, when it repeats
    // the document date's value, one a due-date label introduces (the date printed twice is
    // the issue date again; a due date on the day of issue is told apart by its label only).
    let date_value = date.and_then(|(_, i)| item(i)).map(|c| c.value.as_str());
    let due_labelled = |i: usize| {
        feats.iter().any(|(j, f)| {
            *j == i
                && ([f.label, f.intro_label].contains(&Some(LabelKey::DueDate))
                    || f.line_labels.contains(&LabelKey::DueDate))
        })
    };
    let due = ranked(feats, scorer, Field::DueDate)
        .into_iter()
        .filter(|(_, i)| Some(*i) != date.map(|d| d.1) && !listed_date(*i))
        .find(|(_, i)| {
            item(*i).is_some_and(|c| Some(c.value.as_str()) != date_value || due_labelled(*i))
        });
    if let Some((s, i)) = due
        && let Some(c) = item(i)
    {
        ctx.result.document.due_date = Some(c.value.clone());
        ctx.put("/document/due_date", s, &c.span);
    } else if let Some((_, d)) = date
        && !cands.style.receipt
        && let Some(i) = unlabelled_due(ctx.doc, feats, cands, d)
        && let Some(c) = item(i)
    {
        ctx.result.document.due_date = Some(c.value.clone());
        ctx.put("/document/due_date", STRUCTURAL_DUE_CONFIDENCE, &c.span);
    }
}

/// Confidence of a due date found by its place alone.
const STRUCTURAL_DUE_CONFIDENCE: f32 = 0.3;

/// Longest payment term, in days, of a due date found by its place alone.
const MAX_TERM_DAYS: i64 = 120;

/// Furthest a due date found by its place alone is printed from the issue date (share of the
/// page height).
const HEADER_REACH: f32 = 0.15;

/// The due date of a header whose labels the vocabulary does not know (`Fogo:  09/08/2023`
/// under `Motoko:  25/06/2023`; a grid `Kati  Motoko  Fogo` over its values): the one date
/// printed near the issue date `date` (an index into the candidates), after it by 1 to
/// [`MAX_TERM_DAYS`] days, outside any table, with no label the vocabulary knows beside or
/// above it, and not the end of a period (`01.01.2024 - 31.01.2024`). Two such dates of
/// different values: none (a delivery date may follow the issue too).
fn unlabelled_due(
    doc: &crate::types::CleanDocument,
    feats: &[(usize, CandidateFeatures)],
    cands: &Candidates,
    date: usize,
) -> Option<usize> {
    use chrono::NaiveDate;
    let day = |v: &str| NaiveDate::parse_from_str(v, "%Y-%m-%d").ok();
    let issue = cands.items.get(date)?;
    let issued = day(&issue.value)?;
    let issue_y = feats.iter().find(|(j, _)| *j == date)?.1.rel_y;
    let mut found: Option<(usize, &str)> = None;
    for (i, f) in feats {
        let Some(c) = cands
            .items
            .get(*i)
            .filter(|c| c.kind == CandidateKind::Date)
        else {
            continue;
        };
        let term = day(&c.value).map(|d| (d - issued).num_days());
        let labelled = f.label.is_some()
            || f.intro_label.is_some()
            || f.line_labels.iter().any(|k| {
                use LabelKey as K;
                matches!(
                    k,
                    K::Date
                        | K::DateWeak
                        | K::DueDate
                        | K::DeliveryDate
                        | K::Period
                        | K::Contract
                        | K::Order
                        | K::Corrects
                        | K::CustomerNumber
                        | K::Version
                )
            });
        if *i == date
            || labelled
            || f.in_table
            || cands.on_dated_line(c)
            || c.span.page != issue.span.page
            || (f.rel_y - issue_y).abs() > HEADER_REACH
            || !term.is_some_and(|t| (1..=MAX_TERM_DAYS).contains(&t))
            || period_end(doc, cands, c)
        {
            continue;
        }
        match found {
            Some((_, v)) if v != c.value => return None,
            Some(_) => {}
            None => found = Some((*i, &c.value)),
        }
    }
    found.map(|(i, _)| i)
}

/// Whether a date is one end of a period printed on its line (`01.01.2024 - 31.01.2024`,
/// `01.01.2024 bis 31.01.2024`): another date beside it with only a short connector between,
/// no column gap.
fn period_end(
    doc: &crate::types::CleanDocument,
    cands: &Candidates,
    c: &crate::candidates::Candidate,
) -> bool {
    let Some(line) = doc.lines.get(c.span.line) else {
        return false;
    };
    cands
        .of(CandidateKind::Date)
        .filter(|o| o.span.line == c.span.line && o.span.start != c.span.start)
        .any(|o| {
            let (a, b) = if o.span.end <= c.span.start {
                (o.span.end, c.span.start)
            } else {
                (c.span.end, o.span.start)
            };
            line.text.get(a..b).is_some_and(|between| {
                !between.contains("  ") && between.trim().chars().count() <= 5
            })
        })
}

pub(super) fn title_and_language(ctx: &mut Ctx<'_>, cands: &Candidates) {
    let doc = ctx.doc;
    // Title: the first title word in the top 40% of the first page.
    if let Some(first) = doc.pages.first() {
        'found: for l in doc
            .lines
            .iter()
            .filter(|l| l.page == first.page && l.bbox.y0 < first.height * 0.4)
        {
            for h in cands
                .line_titles
                .get(l.index)
                .map_or(&[][..], Vec::as_slice)
            {
                if h.key == LabelKey::Title && (h.word == 0 || l.text[..h.start].ends_with("  ")) {
                    let span = Span::from_line(l, h.start, h.end);
                    ctx.result.document.title = Some(span.text.clone());
                    ctx.put("/document/title", 0.7, &span);
                    break 'found;
                }
            }
        }
    }
    let lang = cands.style.language;
    ctx.result.document.language = lang.map(str::to_string);
}

/// The currency: the choice model's best option (every currency the printed tokens may stand
/// for, and those the IBANs, tax ids and language suggest), or the rules' without the model.
pub(super) fn currency(ctx: &mut Ctx<'_>, cands: &Candidates, model: Option<&ChoiceModel>) {
    let opts = currency_options_of(cands, &ctx.result);
    let chosen = match model {
        // Where the model declines, the one currency that the printed token shared by several
        // (`kr.`) and the document's countries or language agree on, or that the IBAN's and a
        // tax id's country both name with none printed (`zł` lost to OCR).
        // The model's pick of a shared token's currency that nothing confirms gives way to the
        // one the document's countries or language confirm (`kr.` on a Danish credit note).
        Some(m) => {
            let agreed = agreed_currency(&opts, cands.style.language);
            match m.choose(ChoiceKind::Currency, &currency_vectors(ctx.doc, &opts)) {
                Some((i, _))
                    if agreed.is_some_and(|(a, _)| a != i)
                        && opts.get(i).is_some_and(|o| !o.confirmed()) =>
                {
                    agreed
                }
                Some(pick) => Some(pick),
                None => agreed,
            }
        }
        None => rule_currency(&opts),
    };
    let Some((i, conf)) = chosen else {
        return;
    };
    let Some(o) = opts.get(i) else {
        return;
    };
    ctx.result.document.currency = Some(o.iso.to_string());
    match &o.span {
        Some(s) => ctx.put("/document/currency", conf, s),
        None => ctx.confidence("/document/currency", conf),
    }
}

/// Confidence of a currency the model declined that the document's signals agree on.
const AGREED_CURRENCY: f32 = 0.5;

/// Confidence of a shared sign's default currency ([`SHARED_SIGN_DEFAULT`]).
const DEFAULT_OF_SIGN: f32 = 0.4;

/// The currency a sign that several currencies share stands for where the document names no
/// country of any of them (no IBAN, tax id or language of theirs), is written in a language
/// none of whose countries prints the sign for a currency of its own
/// ([`SIGN_OWN_LANGUAGES`]) and prints it beside its total: `$` on a Lithuanian or a Dutch
/// invoice is the US dollar (OCR's `$` for `№` before a number is none). `kr` has none: the
/// Nordic crowns are alike in weight.
const SHARED_SIGN_DEFAULT: &[&str] = &["USD"];

/// Languages whose countries print `$` for currencies of their own: English (the US, Canada,
/// Australia, Singapore, Malaysia's neighbours...), Spanish (the pesos), French (Canada),
/// Chinese (Hong Kong, Taiwan). A `$` in them stays undecided without a country.
const SIGN_OWN_LANGUAGES: &[&str] = &["en", "es", "fr", "zh"];

/// See [`currency`]: the one option a shared token prints and the countries or the language
/// confirm, or with nothing printed the one both the IBAN's and a tax id's country name; a
/// shared sign that nothing confirms, its default ([`SHARED_SIGN_DEFAULT`]).
fn agreed_currency(opts: &[CurrencyOption], language: Option<&str>) -> Option<(usize, f32)> {
    if opts.iter().any(|o| o.codes + o.symbols > 0) {
        return None;
    }
    let shared = opts.iter().any(|o| o.shared > 0);
    if shared && !opts.iter().any(|o| o.shared > 0 && o.confirmed()) {
        if language.is_none_or(|l| SIGN_OWN_LANGUAGES.contains(&l)) {
            return None;
        }
        return opts
            .iter()
            .position(|o| o.shared > 0 && o.on_total && SHARED_SIGN_DEFAULT.contains(&o.iso))
            .map(|i| (i, DEFAULT_OF_SIGN));
    }
    // A shared token (`kr.`) stands for one of its currencies: the one confirmed alone, whatever
    // other countries' ids the document prints (a Danish seller's credit note to a Slovak
    // buyer); with nothing printed, the IBAN's country's where a tax id or the language names
    // it too and no other country is named.
    let mut agreed = opts.iter().enumerate().filter(|(_, o)| {
        if shared {
            o.shared > 0 && o.confirmed()
        } else {
            !o.other_country && o.iban_country && (o.id_country || o.language)
        }
    });
    let (i, _) = agreed.next()?;
    agreed.next().is_none().then_some((i, AGREED_CURRENCY))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_currency_the_model_declines_that_the_signals_agree_on() {
        use super::{CurrencyOption, agreed_currency};
        let o = |iso: &'static str, shared: u32, language: bool| CurrencyOption {
            iso,
            shared,
            language,
            ..CurrencyOption::default()
        };
        // `kr.` on a Danish document: the one option the language confirms.
        let kr = [o("SEK", 2, false), o("DKK", 2, true), o("NOK", 2, false)];
        assert_eq!(agreed_currency(&kr, Some("da")).map(|x| x.0), Some(1));
        // Nothing confirms one of them: none.
        let kr = [o("SEK", 2, false), o("DKK", 2, false)];
        assert_eq!(agreed_currency(&kr, Some("da")), None);
        // The buyer's id of a euro country names no crown: the language's stands.
        let mut dkk = o("DKK", 2, true);
        dkk.other_country = true;
        let kr = [o("SEK", 2, false), dkk, o("NOK", 2, false)];
        assert_eq!(agreed_currency(&kr, Some("da")).map(|x| x.0), Some(1));
        // Two crowns confirmed (a Danish text, a Swedish IBAN): none.
        let mut sek = o("SEK", 2, false);
        sek.iban_country = true;
        let kr = [sek, o("DKK", 2, true)];
        assert_eq!(agreed_currency(&kr, Some("da")), None);
        // `$` where no country or language of a dollar is the document's: the US dollar; a
        // Canadian tax id makes it the Canadian dollar.
        let mut dollar = [o("USD", 1, false), o("CAD", 1, false), o("EUR", 0, true)];
        dollar[2].iban_country = true;
        assert_eq!(agreed_currency(&dollar, Some("lt")), None);
        dollar[0].on_total = true;
        dollar[1].on_total = true;
        assert_eq!(agreed_currency(&dollar, Some("lt")).map(|x| x.0), Some(0));
        // In a language of dollar countries (or none known) the sign stays undecided.
        assert_eq!(agreed_currency(&dollar, Some("en")), None);
        assert_eq!(agreed_currency(&dollar, None), None);
        dollar[1].id_country = true;
        assert_eq!(agreed_currency(&dollar, Some("lt")).map(|x| x.0), Some(1));
        // Nothing printed: the IBAN's country must name it, and a tax id's country or the
        // language too.
        let mut pln = o("PLN", 0, false);
        pln.iban_country = true;
        assert_eq!(
            agreed_currency(std::slice::from_ref(&pln), Some("pl")),
            None
        );
        pln.language = true;
        assert_eq!(
            agreed_currency(std::slice::from_ref(&pln), Some("pl")).map(|x| x.0),
            Some(0)
        );
        pln.language = false;
        pln.id_country = true;
        assert_eq!(
            agreed_currency(&[pln.clone()], Some("pl")).map(|x| x.0),
            Some(0)
        );
        // A code printed for another currency: the model's call stands.
        let mut eur = o("EUR", 0, false);
        eur.codes = 1;
        assert_eq!(agreed_currency(&[pln, eur], Some("pl")), None);
    }

    use crate::candidates::extract;
    use crate::candidates::tests::doc_from;
    use crate::fields::features::{CandidateFeatures, Field, FieldScorer, RuleScorer};

    /// The rules, except that every date is as good a due date as the rules' document date.
    struct EveryDateIsDue;

    impl FieldScorer for EveryDateIsDue {
        fn name(&self) -> &str {
            "every date is due"
        }

        fn score(&self, field: Field, f: &CandidateFeatures) -> f32 {
            match field {
                Field::DueDate if Field::DueDate.admits(f) => 0.9,
                _ => RuleScorer.score(field, f),
            }
        }
    }

    fn due_date(lines: &[(&str, f32, f32)]) -> Option<String> {
        let doc = doc_from(lines);
        crate::fields::extract(&doc, &extract(&doc), &EveryDateIsDue)
            .document
            .due_date
    }

    fn rules_due_date(lines: &[(&str, f32, f32)]) -> (Option<String>, Option<String>) {
        let doc = doc_from(lines);
        let r = crate::fields::extract(&doc, &extract(&doc), &RuleScorer);
        (r.document.date, r.document.due_date)
    }

    #[test]
    fn a_due_date_under_a_label_nobody_knows_is_found_by_its_place() {
        let head = |third: &'static str| {
            vec![
                ("Pemberton Electrical LLP", 10.0, 20.0),
                ("Tax Invoice", 300.0, 60.0),
                ("Kati:  K088765", 300.0, 80.0),
                ("Motoko:  25/06/2023", 300.0, 95.0),
                (third, 300.0, 110.0),
                ("Description  Qty  Unit price  Amount", 10.0, 150.0),
                ("Consulting  5  100.00  500.00", 10.0, 165.0),
                ("Total  500.00", 300.0, 190.0),
            ]
        };
        // The one later date beside the issue date, within a payment term.
        let (date, due) = rules_due_date(&head("Fogo:  09/08/2023"));
        assert_eq!(date.as_deref(), Some("2023-06-25"));
        assert_eq!(due.as_deref(), Some("2023-08-09"));
        // Not the end of a period, not a date far beyond any payment term, not an earlier date.
        for third in [
            "Zeit:  01/07/2023 - 31/07/2023",
            "Fogo:  09/08/2024",
            "Fogo:  09/05/2023",
        ] {
            assert_eq!(rules_due_date(&head(third)).1, None, "{third}");
        }
        // Two later dates of different values: which one is due is not known.
        let mut two = head("Fogo:  09/08/2023");
        two.insert(5, ("Situ:  30/06/2023", 300.0, 125.0));
        assert_eq!(rules_due_date(&two).1, None);
    }

    #[test]
    fn a_payment_schedules_dates_are_no_date_of_the_document() {
        let lines = |schedule: &[(&'static str, f32, f32)]| {
            let mut v = vec![
                ("Rechnung Nr. 2024-17", 300.0, 60.0),
                ("Rechnungsdatum: 01.02.2024", 300.0, 75.0),
                ("Beratung  5  100,00  500,00", 10.0, 150.0),
                ("Gesamtbetrag:  500,00 EUR", 300.0, 180.0),
            ];
            v.extend_from_slice(schedule);
            v
        };
        let table = [
            ("Zahlungsplan:", 10.0, 220.0),
            ("#  Fällig am  Betrag", 10.0, 235.0),
            ("1.  15.02.2024  250,00 EUR", 10.0, 250.0),
            ("2.  15.03.2024  250,00 EUR", 10.0, 265.0),
        ];
        let lines_each = [
            ("1. Rate fällig am 15.02.2024: 250,00 EUR", 10.0, 250.0),
            ("2. Rate fällig am 15.03.2024: 250,00 EUR", 10.0, 265.0),
        ];
        for schedule in [&table[..], &lines_each[..]] {
            let (date, due) = rules_due_date(&lines(schedule));
            assert_eq!(date.as_deref(), Some("2024-02-01"));
            assert_eq!(due, None);
            assert_eq!(due_date(&lines(schedule)), None);
        }
        // A due date printed in the header stays.
        let mut headed = lines(&table);
        headed.insert(2, ("Fällig am: 15.02.2024", 300.0, 90.0));
        assert_eq!(due_date(&headed).as_deref(), Some("2024-02-15"));
    }

    #[test]
    fn the_issue_date_printed_again_is_no_due_date() {
        // The sale date repeats the issue date: not a due date, whatever its score.
        let repeated = due_date(&[
            ("Faktura VAT nr 17", 10.0, 50.0),
            ("Data wystawienia: 2024-03-28", 10.0, 70.0),
            ("Data sprzedaży: 2024-03-28", 10.0, 90.0),
        ]);
        assert_eq!(repeated, None);
        // Another date may be one.
        let other = due_date(&[
            ("Faktura VAT nr 17", 10.0, 50.0),
            ("Data wystawienia: 2024-03-28", 10.0, 70.0),
            ("Data sprzedaży: 2024-03-28", 10.0, 90.0),
            ("2024-04-11", 10.0, 110.0),
        ]);
        assert_eq!(other.as_deref(), Some("2024-04-11"));
        // Due on the day of issue, as its label says.
        let labelled = due_date(&[
            ("Invoice 17", 10.0, 50.0),
            ("Invoice date: 2024-03-28", 10.0, 70.0),
            ("Due date: 2024-03-28", 10.0, 90.0),
        ]);
        assert_eq!(labelled.as_deref(), Some("2024-03-28"));
    }
}
