//! One small invoice and one small receipt per further European language (nl, it, es, pt, cs,
//! sk, lt, lv, et, fi, sv, da, hu, ro), written with that language's own label words, through
//! the real engine ([`Engine::recognize_text_pages`] with the embedded field model): number,
//! date, net, VAT, total and document type must come out. Without the language's vocabulary
//! (labels, month names, document-type words) these fail: nothing else names the number, and
//! the type falls back to `OTHER`.

use folio::engine::Progress;
use folio::fields::model::ModelScorer;
use folio::ocr::{OcrEngine, OcrRequest};
use folio::result::{DocumentResult, DocumentType, Source, Unit};
use folio::types::{BBox, TextPage, Word};
use folio::{CancelToken, Engine, EngineConfig, RecognizeOptions};
use image::GrayImage;
use std::sync::{Arc, OnceLock};

/// OCR that must not be reached: the pages already have their words.
struct NoOcr;

impl OcrEngine for NoOcr {
    fn recognize(&self, _: &GrayImage, _: &OcrRequest<'_>) -> folio::Result<TextPage> {
        panic!("text pages must not be sent to OCR");
    }
}

fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let scorer = ModelScorer::embedded(None).expect("embedded model loads");
        Engine::with_components(EngineConfig::default(), Arc::new(NoOcr), Arc::new(scorer))
            .expect("engine builds")
    })
}

fn no_progress(_: Progress) {}

/// A text-layer page of `width` x `height` points with one row per line; a line's cells
/// (separated by ` | `) start at the given x positions (in tenths of the width).
fn page(lines: &[&str], width: f32, height: f32) -> TextPage {
    let char_w = 5.0;
    let line_h = 10.0;
    let mut words = Vec::new();
    for (row, line) in lines.iter().enumerate() {
        let y0 = 40.0 + 16.0 * row as f32;
        let cells: Vec<&str> = line.split(" | ").collect();
        for (ci, cell) in cells.iter().enumerate() {
            let mut x = if ci == 0 {
                30.0
            } else {
                // Later cells right-aligned in the right half of the page.
                let len = cell.chars().count() as f32 * char_w;
                let slot = (width - 40.0) * (0.5 + 0.5 * ci as f32 / (cells.len() - 1) as f32);
                (slot - len).max(30.0)
            };
            for w in cell.split(' ').filter(|w| !w.is_empty()) {
                let x1 = x + char_w * w.chars().count() as f32;
                words.push(Word {
                    text: w.to_string(),
                    bbox: BBox::new(x, y0, x1, y0 + line_h),
                    confidence: 1.0,
                });
                x = x1 + char_w;
            }
        }
    }
    TextPage {
        page: 1,
        width,
        height,
        unit: Unit::Pt,
        source: Source::TextLayer,
        engine: None,
        rotation: 0,
        words,
    }
}

fn recognize(lines: &[&str], width: f32, height: f32) -> DocumentResult {
    engine()
        .recognize_text_pages(
            &[page(lines, width, height)],
            &RecognizeOptions::default(),
            &no_progress,
            &CancelToken::new(),
        )
        .expect("recognised")
}

/// One language's invoice wording and values.
struct Invoice<'a> {
    lang: &'a str,
    seller: &'a str,
    address: &'a str,
    title: &'a str,
    /// `label: value` as printed.
    number_line: &'a str,
    number: &'a str,
    date_line: &'a str,
    date: &'a str,
    buyer_line: &'a str,
    item: &'a str,
    net_label: &'a str,
    vat_label: &'a str,
    total_label: &'a str,
    /// Net, VAT, total as printed.
    amounts: [&'a str; 3],
    /// Net, VAT, total as canonical decimals.
    values: [&'a str; 3],
}

fn check_invoice(inv: &Invoice<'_>) {
    let [net, vat, total] = inv.amounts;
    let item = format!("{} | 1 | {net} | {net}", inv.item);
    let net_line = format!("{} | {net}", inv.net_label);
    let vat_line = format!("{} | {vat}", inv.vat_label);
    let total_line = format!("{} | {total}", inv.total_label);
    let lines = [
        inv.seller,
        inv.address,
        inv.title,
        inv.number_line,
        inv.date_line,
        inv.buyer_line,
        item.as_str(),
        net_line.as_str(),
        vat_line.as_str(),
        total_line.as_str(),
    ];
    let r = recognize(&lines, 595.0, 842.0);
    let lang = inv.lang;
    assert_eq!(
        r.document.number.as_deref(),
        Some(inv.number),
        "{lang} number"
    );
    assert_eq!(r.document.date.as_deref(), Some(inv.date), "{lang} date");
    let [net_v, vat_v, total_v] = inv.values;
    assert_eq!(r.totals.total.as_deref(), Some(total_v), "{lang} total");
    assert_eq!(r.totals.vat.as_deref(), Some(vat_v), "{lang} VAT");
    assert_eq!(r.totals.net.as_deref(), Some(net_v), "{lang} net");
    assert_eq!(
        r.document_type.code,
        DocumentType::Invoice,
        "{lang} document type"
    );
}

/// One language's till receipt wording.
struct Receipt<'a> {
    lang: &'a str,
    shop: &'a str,
    title: &'a str,
    date_line: &'a str,
    date: &'a str,
    total_label: &'a str,
    cash_label: &'a str,
    change_label: &'a str,
    /// Total, cash, change as printed.
    amounts: [&'a str; 3],
    total: &'a str,
}

fn check_receipt(rc: &Receipt<'_>) {
    let [total, cash, change] = rc.amounts;
    let total_line = format!("{} | {total}", rc.total_label);
    let cash_line = format!("{} | {cash}", rc.cash_label);
    let change_line = format!("{} | {change}", rc.change_label);
    let lines = [
        rc.shop,
        rc.title,
        rc.date_line,
        "ART 1 | 2,10",
        "ART 2 | 1,28",
        total_line.as_str(),
        cash_line.as_str(),
        change_line.as_str(),
    ];
    let r = recognize(&lines, 220.0, 600.0);
    let lang = rc.lang;
    assert_eq!(r.document.date.as_deref(), Some(rc.date), "{lang} date");
    assert_eq!(r.totals.total.as_deref(), Some(rc.total), "{lang} total");
    assert_eq!(
        r.document_type.code,
        DocumentType::Receipt,
        "{lang} document type"
    );
}

/// A receipt of 2,10 + 1,28 = 3,38 paid with 5,00 (1,62 back).
fn receipt<'a>(
    lang: &'a str,
    shop: &'a str,
    title: &'a str,
    date_line: &'a str,
    labels: [&'a str; 3],
) -> Receipt<'a> {
    Receipt {
        lang,
        shop,
        title,
        date_line,
        date: "2022-02-05",
        total_label: labels[0],
        cash_label: labels[1],
        change_label: labels[2],
        amounts: ["3,38", "5,00", "1,62"],
        total: "3.38",
    }
}

#[test]
fn dutch() {
    check_invoice(&Invoice {
        lang: "nl",
        seller: "Bakkerij De Molen B.V.",
        address: "Dorpsstraat 12, 1234 AB Utrecht",
        title: "FACTUUR",
        number_line: "Factuurnummer: 2022-0042",
        number: "2022-0042",
        date_line: "Factuurdatum: 05-02-2022",
        date: "2022-02-05",
        buyer_line: "Klant: Jansen Techniek",
        item: "Broodjes assortiment",
        net_label: "Totaal excl. btw",
        vat_label: "BTW 21%",
        total_label: "Te betalen",
        amounts: ["250,00", "52,50", "302,50"],
        values: ["250.00", "52.50", "302.50"],
    });
    check_receipt(&receipt(
        "nl",
        "Albert Jansen Supermarkt",
        "KASSABON",
        "Datum 05-02-2022 14:31",
        ["Totaal", "Contant", "Wisselgeld"],
    ));
}

#[test]
fn italian() {
    check_invoice(&Invoice {
        lang: "it",
        seller: "Rossi Forniture S.r.l.",
        address: "Via Roma 10, 20121 Milano",
        title: "FATTURA",
        number_line: "Fattura n. 12/2022",
        number: "12/2022",
        date_line: "Data documento: 05/02/2022",
        date: "2022-02-05",
        buyer_line: "Cliente: Bianchi S.p.A.",
        item: "Consulenza tecnica",
        net_label: "Imponibile",
        vat_label: "IVA 22%",
        total_label: "Totale documento",
        amounts: ["250,00", "55,00", "305,00"],
        values: ["250.00", "55.00", "305.00"],
    });
    check_receipt(&receipt(
        "it",
        "Bar Centrale di Verdi",
        "SCONTRINO FISCALE",
        "Data 05/02/2022 ore 14:31",
        ["Totale", "Contanti", "Resto"],
    ));
}

#[test]
fn spanish() {
    check_invoice(&Invoice {
        lang: "es",
        seller: "Suministros García S.L.",
        address: "Calle Mayor 5, 28013 Madrid",
        title: "FACTURA",
        number_line: "Nº Factura: A-2022-15",
        number: "A-2022-15",
        date_line: "Fecha de emisión: 05/02/2022",
        date: "2022-02-05",
        buyer_line: "Cliente: López Hermanos S.A.",
        item: "Material de oficina",
        net_label: "Base imponible",
        vat_label: "IVA 21%",
        total_label: "Total factura",
        amounts: ["250,00", "52,50", "302,50"],
        values: ["250.00", "52.50", "302.50"],
    });
    check_receipt(&receipt(
        "es",
        "Panadería Sol",
        "FACTURA SIMPLIFICADA",
        "Fecha: 05/02/2022 14:31",
        ["Total", "Efectivo", "Cambio"],
    ));
}

#[test]
fn portuguese() {
    check_invoice(&Invoice {
        lang: "pt",
        seller: "Ferragens Silva Lda",
        address: "Rua Augusta 20, 1100-053 Lisboa",
        title: "FATURA",
        number_line: "Fatura nº FT 2022/15",
        number: "FT 2022/15",
        date_line: "Data de emissão: 05-02-2022",
        date: "2022-02-05",
        buyer_line: "Cliente: Costa & Filhos",
        item: "Parafusos inox",
        net_label: "Total sem IVA",
        vat_label: "IVA 23%",
        total_label: "Total com IVA",
        amounts: ["250,00", "57,50", "307,50"],
        values: ["250.00", "57.50", "307.50"],
    });
    check_receipt(&receipt(
        "pt",
        "Pastelaria Aurora",
        "FATURA SIMPLIFICADA",
        "Data: 05-02-2022 14:31",
        ["Total", "Dinheiro", "Troco"],
    ));
}

#[test]
fn czech() {
    check_invoice(&Invoice {
        lang: "cs",
        seller: "Novák stavebniny s.r.o.",
        address: "Vinohradská 10, 120 00 Praha 2",
        title: "FAKTURA - DAŇOVÝ DOKLAD",
        number_line: "Číslo faktury: 2022001",
        number: "2022001",
        date_line: "Datum vystavení: 5. 2. 2022",
        date: "2022-02-05",
        buyer_line: "Odběratel: Dvořák a syn",
        item: "Cement 25 kg",
        net_label: "Základ daně",
        vat_label: "DPH 21 %",
        total_label: "Celkem k úhradě",
        amounts: ["2 500,00", "525,00", "3 025,00"],
        values: ["2500.00", "525.00", "3025.00"],
    });
    check_receipt(&receipt(
        "cs",
        "Pekárna U Mostu",
        "ÚČTENKA",
        "Datum: 5. 2. 2022 14:31",
        ["Celkem", "Hotovost", "Vráceno"],
    ));
}

#[test]
fn slovak() {
    check_invoice(&Invoice {
        lang: "sk",
        seller: "Horváth obchod s.r.o.",
        address: "Obchodná 5, 811 06 Bratislava",
        title: "FAKTÚRA",
        number_line: "Faktúra č. 2022001",
        number: "2022001",
        date_line: "Dátum vyhotovenia: 05.02.2022",
        date: "2022-02-05",
        buyer_line: "Odberateľ: Kováč a spol.",
        item: "Kancelárske potreby",
        net_label: "Základ dane",
        vat_label: "DPH 20 %",
        total_label: "Spolu s DPH",
        amounts: ["250,00", "50,00", "300,00"],
        values: ["250.00", "50.00", "300.00"],
    });
    check_receipt(&receipt(
        "sk",
        "Potraviny Jednota",
        "POKLADNIČNÝ DOKLAD",
        "Dátum: 05.02.2022 14:31",
        ["Spolu", "Hotovosť", "Vydané"],
    ));
}

#[test]
fn lithuanian() {
    check_invoice(&Invoice {
        lang: "lt",
        seller: "UAB Medienos prekyba",
        address: "Gedimino pr. 1, LT-01103 Vilnius",
        title: "PVM SĄSKAITA FAKTŪRA",
        number_line: "Sąskaitos faktūros Nr. SF-2022-015",
        number: "SF-2022-015",
        date_line: "Išrašymo data: 2022-02-05",
        date: "2022-02-05",
        buyer_line: "Pirkėjas: UAB Statyba",
        item: "Lentos pušies",
        net_label: "Suma be PVM",
        vat_label: "PVM 21 %",
        total_label: "Iš viso su PVM",
        amounts: ["250,00", "52,50", "302,50"],
        values: ["250.00", "52.50", "302.50"],
    });
    check_receipt(&receipt(
        "lt",
        "Kavinė Saulė",
        "KASOS ČEKIS",
        "Data: 2022-02-05 14:31",
        ["Iš viso", "Grynieji", "Grąža"],
    ));
}

#[test]
fn latvian() {
    check_invoice(&Invoice {
        lang: "lv",
        seller: "SIA Koka Nami",
        address: "Brīvības iela 10, Rīga, LV-1010",
        title: "RĒĶINS",
        number_line: "Rēķina Nr.: R-2022-15",
        number: "R-2022-15",
        date_line: "Datums: 05.02.2022",
        date: "2022-02-05",
        buyer_line: "Pircējs: SIA Būvnieks",
        item: "Dēļi priede",
        net_label: "Summa bez PVN",
        vat_label: "PVN 21%",
        total_label: "Summa apmaksai",
        amounts: ["250,00", "52,50", "302,50"],
        values: ["250.00", "52.50", "302.50"],
    });
    check_receipt(&receipt(
        "lv",
        "Kafejnīca Rīts",
        "KASES ČEKS",
        "Datums: 05.02.2022 14:31",
        ["Kopā", "Skaidra nauda", "Atlikums"],
    ));
}

#[test]
fn estonian() {
    check_invoice(&Invoice {
        lang: "et",
        seller: "Puidutooted OÜ",
        address: "Narva mnt 5, 10117 Tallinn",
        title: "ARVE",
        number_line: "Arve nr 2022-15",
        number: "2022-15",
        date_line: "Kuupäev: 05.02.2022",
        date: "2022-02-05",
        buyer_line: "Ostja: Ehitus AS",
        item: "Laud mänd",
        net_label: "Summa käibemaksuta",
        vat_label: "Käibemaks 20%",
        total_label: "Kokku tasuda",
        amounts: ["250,00", "50,00", "300,00"],
        values: ["250.00", "50.00", "300.00"],
    });
    check_receipt(&receipt(
        "et",
        "Kohvik Päike",
        "KASSATŠEKK",
        "Kuupäev: 05.02.2022 14:31",
        ["Kokku", "Sularaha", "Tagastus"],
    ));
}

#[test]
fn finnish() {
    check_invoice(&Invoice {
        lang: "fi",
        seller: "Puutavara Virtanen Oy",
        address: "Mannerheimintie 10, 00100 Helsinki",
        title: "LASKU",
        number_line: "Laskun numero: 20220015",
        number: "20220015",
        date_line: "Laskun päivämäärä: 5.2.2022",
        date: "2022-02-05",
        buyer_line: "Asiakas: Rakennus Korhonen Oy",
        item: "Lauta mänty",
        net_label: "Veroton yhteensä",
        vat_label: "ALV 24 %",
        total_label: "Maksettava yhteensä",
        amounts: ["250,00", "60,00", "310,00"],
        values: ["250.00", "60.00", "310.00"],
    });
    check_receipt(&receipt(
        "fi",
        "Kahvila Aurinko",
        "KUITTI",
        "Päiväys 5.2.2022 14:31",
        ["Yhteensä", "Käteinen", "Vaihtoraha"],
    ));
}

#[test]
fn swedish() {
    check_invoice(&Invoice {
        lang: "sv",
        seller: "Trävaror Andersson AB",
        address: "Drottninggatan 10, 111 51 Stockholm",
        title: "FAKTURA",
        number_line: "Fakturanummer: 2022-15",
        number: "2022-15",
        date_line: "Fakturadatum: 2022-02-05",
        date: "2022-02-05",
        buyer_line: "Kund: Bygg Johansson AB",
        item: "Bräda furu",
        net_label: "Summa exkl. moms",
        vat_label: "Moms 25%",
        total_label: "Att betala",
        amounts: ["250,00", "62,50", "312,50"],
        values: ["250.00", "62.50", "312.50"],
    });
    check_receipt(&receipt(
        "sv",
        "Kafé Solen",
        "KVITTO",
        "Datum 2022-02-05 14:31",
        ["Totalt", "Kontant", "Växel"],
    ));
}

#[test]
fn danish() {
    check_invoice(&Invoice {
        lang: "da",
        seller: "Træ Hansen ApS",
        address: "Strøget 10, 1160 København K",
        title: "FAKTURA",
        number_line: "Fakturanr.: 2022-15",
        number: "2022-15",
        date_line: "Fakturadato: 05-02-2022",
        date: "2022-02-05",
        buyer_line: "Kunde: Byg Nielsen A/S",
        item: "Bræt fyr",
        net_label: "Beløb ekskl. moms",
        vat_label: "Moms 25%",
        total_label: "I alt at betale",
        amounts: ["250,00", "62,50", "312,50"],
        values: ["250.00", "62.50", "312.50"],
    });
    check_receipt(&receipt(
        "da",
        "Bageriet Solsikke",
        "KVITTERING",
        "Dato 05-02-2022 14:31",
        ["I alt", "Kontant", "Byttepenge"],
    ));
}

#[test]
fn hungarian() {
    check_invoice(&Invoice {
        lang: "hu",
        seller: "Fa-Ker Kft.",
        address: "Váci út 10, 1132 Budapest",
        title: "SZÁMLA",
        number_line: "Számla sorszáma: SZ-2022/15",
        number: "SZ-2022/15",
        date_line: "Kelt: 2022. 02. 05.",
        date: "2022-02-05",
        buyer_line: "Vevő: Építő Bt.",
        item: "Deszka fenyő",
        net_label: "Nettó összesen",
        vat_label: "ÁFA 27%",
        total_label: "Bruttó végösszeg",
        amounts: ["25 000,00", "6 750,00", "31 750,00"],
        values: ["25000.00", "6750.00", "31750.00"],
    });
    check_receipt(&receipt(
        "hu",
        "Napfény Cukrászda",
        "NYUGTA",
        "Dátum: 2022. 02. 05. 14:31",
        ["Összesen", "Készpénz", "Visszajáró"],
    ));
}

#[test]
fn romanian() {
    check_invoice(&Invoice {
        lang: "ro",
        seller: "Lemn Popescu SRL",
        address: "Str. Victoriei 10, București",
        title: "FACTURĂ",
        number_line: "Număr factură: FCT-0015",
        number: "FCT-0015",
        date_line: "Data emiterii: 05.02.2022",
        date: "2022-02-05",
        buyer_line: "Cumpărător: Construct Ionescu SRL",
        item: "Scândură brad",
        net_label: "Total fără TVA",
        vat_label: "TVA 19%",
        total_label: "Total de plată",
        amounts: ["250,00", "47,50", "297,50"],
        values: ["250.00", "47.50", "297.50"],
    });
    check_receipt(&receipt(
        "ro",
        "Cofetăria Soare",
        "BON FISCAL",
        "Data: 05.02.2022 14:31",
        ["Total", "Numerar", "Rest"],
    ));
}
