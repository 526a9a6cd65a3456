//! Prints what the engine sees in one document, for error analysis:
//!
//! ```text
//! inspect [--boxes] [--lines] [--cands] [--parties [--vectors]] [--items] [--result] FILE
//! ```
//!
//! `--lines`: every cleaned line (page, box, text; `--tokens`: with each token's x-range); `--cands`: every candidate with its label and
//! box; `--parties`: the party candidates with the party model's seller and buyer probabilities;
//! `--vectors` adds each party candidate's non-zero seller features; `--result`: the Result JSON. Without a flag, lines and result. `--boxes` reads a SROIE
//! `*.boxes.txt` instead of running text extraction / OCR.

use clap::Parser;
use folio::{CancelToken, Engine, EngineConfig, RecognizeOptions, candidates, clean};
use folio_bench::boxes::{PAGE_MARK, parse_boxes_pages};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(name = "inspect")]
struct Args {
    /// The input is a SROIE `*.boxes.txt`.
    #[arg(long)]
    boxes: bool,
    /// Print the cleaned lines.
    #[arg(long)]
    lines: bool,
    /// Print the candidates.
    #[arg(long)]
    cands: bool,
    /// With `--lines`, every token's box under its line.
    #[arg(long)]
    tokens: bool,
    /// With `--lines`, the label hits of each line (key and the words matched).
    #[arg(long)]
    labels: bool,
    /// Print the Result JSON.
    #[arg(long)]
    result: bool,
    /// Print the party candidates, each with the party model's seller and buyer probabilities.
    #[arg(long)]
    parties: bool,
    /// With `--parties`, each candidate's seller vector: the party model's non-zero features.
    #[arg(long)]
    vectors: bool,
    /// Print the layout blocks.
    #[arg(long)]
    blocks: bool,
    /// Print the line-item tables (by header and by arithmetic) with their cells.
    #[arg(long)]
    items: bool,
    /// Print the extracted words as SROIE `*.boxes.txt` lines (`x1,y1,...,x4,y4,text`) and
    /// nothing else: each page after a `#page W H` line, coordinates in points scaled by 4 (a PDF
    /// point becomes a pixel of a 288 dpi scan). Robustness sets of text-layer documents start from
    /// these.
    #[arg(long, conflicts_with = "boxes")]
    dump_boxes: bool,
    /// The document.
    file: PathBuf,
}

fn main() -> ExitCode {
    if let Some(code) = folio::runtime::reexec_with_omp_limit() {
        return code;
    }
    let mut args = Args::parse();
    if !(args.lines || args.cands || args.result || args.parties || args.blocks || args.items) {
        args.lines = true;
        args.result = true;
    }
    let engine = match Engine::new(EngineConfig::default()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("inspect: {e}");
            return ExitCode::from(3);
        }
    };
    let opts = RecognizeOptions::default();
    let pages = if args.boxes {
        std::fs::read_to_string(&args.file)
            .map_err(|e| e.to_string())
            .map(|t| parse_boxes_pages(&t))
            .and_then(|p| {
                if p.is_empty() {
                    Err("no boxes".to_string())
                } else {
                    Ok(p)
                }
            })
    } else {
        std::fs::read(&args.file)
            .map_err(|e| e.to_string())
            .and_then(|b| {
                engine
                    .extract_text_pages(&b, &opts, &|_| {}, &CancelToken::new())
                    .map_err(|e| e.to_string())
            })
    };
    let pages = match pages {
        Ok(p) => p,
        Err(e) => {
            eprintln!("inspect: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.dump_boxes {
        print!("{}", boxes_lines(&pages));
        return ExitCode::SUCCESS;
    }
    let doc = clean::clean(&pages);
    if args.lines {
        for l in &doc.lines {
            let b = l.bbox;
            println!(
                "{:>3} p{} [{:7.1} {:7.1} {:7.1} {:7.1}] {}",
                l.index, l.page, b.x0, b.y0, b.x1, b.y1, l.text
            );
            if args.tokens {
                let toks: Vec<String> = l
                    .tokens
                    .iter()
                    .map(|t| format!("{}[{:.1}-{:.1}]", t.text, t.bbox.x0, t.bbox.x1))
                    .collect();
                println!("      {}", toks.join(" "));
            }
            if args.labels {
                let hits: Vec<String> = candidates::labels::find_labels(&l.text)
                    .iter()
                    .map(|h| format!("{:?}={:?}", h.key, &l.text[h.start..h.end]))
                    .collect();
                if !hits.is_empty() {
                    println!("      labels: {}", hits.join(" "));
                }
            }
        }
    }
    if args.cands {
        let c = candidates::extract(&doc);
        let lines = c.table_lines(doc.lines.len());
        let table: Vec<usize> = (0..lines.len()).filter(|&l| lines[l]).collect();
        println!("table lines: {table:?}");
        println!("style: {:?}", c.style);
        for r in &c.tax_rows {
            println!(
                "tax row: rate {} base {} amount {} (line {})",
                r.rate.1,
                r.base.1,
                r.amount.1,
                c.amount_at(r.amount.0).map_or(0, |a| a.span.line)
            );
        }
        for c in c.items.iter().chain(&c.ocr_amounts) {
            println!(
                "{:?} {:?} scheme={:?} label={:?} line={} [{:.0},{:.0}] {:?}",
                c.kind,
                c.value,
                c.scheme,
                c.label,
                c.span.line,
                c.span.bbox.x0,
                c.span.bbox.y0,
                c.span.text
            );
        }
    }
    if args.blocks {
        let segs = folio::layout::segments(&doc);
        for b in folio::layout::blocks(&segs, &Default::default()) {
            let t: Vec<&str> = b.segments.iter().map(|&i| segs[i].text.as_str()).collect();
            println!(
                "p{} [{:.0} {:.0} {:.0} {:.0}] {:?}",
                b.page, b.bbox.x0, b.bbox.y0, b.bbox.x1, b.bbox.y1, t
            );
        }
    }
    if args.items {
        let cands = candidates::extract(&doc);
        let by_arithmetic = cands.item_table.iter().map(|t| ("arithmetic", t));
        for (how, t) in cands
            .tables
            .iter()
            .map(|t| ("header", t))
            .chain(by_arithmetic)
        {
            println!(
                "table ({how}) header line {} end {}",
                t.header_line, t.end_line
            );
            let cols: Vec<String> = t
                .columns
                .iter()
                .map(|c| format!("{:?}[{:.0}-{:.0}]", c.key, c.x0, c.x1))
                .collect();
            println!("  columns: {}", cols.join(" "));
            for r in &t.rows {
                let cells: Vec<String> = r
                    .cells
                    .iter()
                    .map(|c| format!("{:?}={:?}", c.key, c.text))
                    .collect();
                println!("  lines {:?}: {}", r.lines, cells.join(" "));
            }
        }
    }
    if args.parties {
        // The candidates as the field stage sees them, each with the party model's seller and
        // buyer probabilities.
        let cands = candidates::extract(&doc);
        let model = folio::fields::party_model::PartyModel::embedded();
        let ctx = folio::fields::party_model::PartyContext::new(&doc, &cands);
        for (i, p) in cands.parties.iter().enumerate() {
            let [s, b] = folio::fields::party_model::party_vectors(&ctx, &cands, i);
            let probs = model.map(|m| (m.score(&s), m.score(&b)));
            let r = ctx.repeats(i);
            println!(
                "{i:>2} p(seller,buyer)={probs:.2?} footer={} register={} {:?} {:?} name={:?} address={:?} label_line={:?} region={:?}",
                r.footer,
                r.register_line,
                p.role,
                p.source,
                p.name.as_ref().map(|n| &n.0),
                p.address.iter().map(|a| &a.0).collect::<Vec<_>>(),
                p.label_line,
                p.region.iter().map(|s| &s.text).collect::<Vec<_>>()
            );
            if args.vectors {
                let names = folio::fields::party_model::feature_names();
                let show: Vec<String> = names
                    .iter()
                    .zip(&s)
                    .filter(|(_, v)| **v != 0.0)
                    .map(|(n, v)| format!("{n}={v}"))
                    .collect();
                println!("    seller row: {}", show.join(" "));
            }
        }
    }
    if args.result {
        match engine.recognize_text_pages(&pages, &opts, &|_| {}, &CancelToken::new()) {
            Ok(r) => println!("{}", r.to_json_pretty()),
            Err(e) => {
                eprintln!("inspect: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// The words of `pages` as boxes lines, each page after its `#page W H` mark, coordinates in
/// points times 4 (pixels as they are), rounded.
fn boxes_lines(pages: &[folio::types::TextPage]) -> String {
    let mut out = String::new();
    for p in pages {
        let scale = if p.unit == folio::types::Unit::Pt {
            4.0
        } else {
            1.0
        };
        let px = |v: f32| (v * scale).round() as i64;
        out.push_str(&format!("{PAGE_MARK} {} {}\n", px(p.width), px(p.height)));
        for w in &p.words {
            let text = w.text.trim();
            if text.is_empty() {
                continue;
            }
            let [x0, y0, x1, y1] = [w.bbox.x0, w.bbox.y0, w.bbox.x1, w.bbox.y1].map(px);
            out.push_str(&format!("{x0},{y0},{x1},{y0},{x1},{y1},{x0},{y1},{text}\n"));
        }
    }
    out
}
