//! The review page of a document: its pages as the engine read them ([`folio::render`], in a
//! child process: [`crate::pagerender`]) with a box for every field of the Result's evidence,
//! the fields beside them with their confidence, the validation findings, and the final JSON
//! to download.
//!
//! Rendered pages are kept on this node's disk (`cache/review/<document id>`): a document's
//! Result never changes once final, so the first view renders and later views only read. Pages
//! rendered more than [`CACHE_DAYS`] days ago are removed whenever new ones are made (a later
//! view renders them again), so the cache follows what is being reviewed.

use super::{Page, Session};
use crate::pagecount::ChildFailure;
use crate::pagerender::{PAGES_FILE, page_file};
use crate::serve::store::{self, DocumentRecord};
use crate::serve::{AppState, model};
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use minijinja::context;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// Days a document's rendered pages are kept.
pub const CACHE_DAYS: u64 = 7;

/// Removes the rendered pages of documents rendered more than `max_age` ago.
fn sweep(cache: &std::path::Path, max_age: std::time::Duration) -> usize {
    let Ok(entries) = std::fs::read_dir(cache) else {
        return 0;
    };
    let now = std::time::SystemTime::now();
    let mut removed = 0;
    for e in entries.flatten() {
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age > max_age);
        if old && std::fs::remove_dir_all(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// What the page shows of a document's page images.
enum Rendered {
    /// `pages.json`: each page's image size and field boxes.
    Pages(Value),
    /// The document has no page images (the engine's reason).
    None(String),
}

/// One lock per document being rendered: a second request waits for the first's pages.
fn render_lock(doc_id: &str) -> Arc<tokio::sync::Mutex<()>> {
    static LOCKS: OnceLock<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>> = OnceLock::new();
    let mut map = LOCKS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    // Locks nobody holds or waits for are dropped as the map grows.
    if map.len() > 256 {
        map.retain(|_, l| Arc::strong_count(l) > 1);
    }
    map.entry(doc_id.to_string()).or_default().clone()
}

/// The document's cache directory.
fn cache_of(state: &AppState, doc_id: &str) -> PathBuf {
    state.cache_dir.join(doc_id)
}

/// The rendered pages of a document with a Result, rendering them first when this node has
/// not yet.
async fn rendered(
    state: &AppState,
    doc: &DocumentRecord,
    result: &str,
) -> Result<Rendered, String> {
    let dir = cache_of(state, &doc.id);
    let read = |dir: &std::path::Path| -> Option<Value> {
        std::fs::read(dir.join(PAGES_FILE))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
    };
    let from_cache = |v: Value| match v.get("none").and_then(Value::as_str) {
        Some(why) => Rendered::None(why.to_string()),
        None => Rendered::Pages(v),
    };
    if let Some(v) = read(&dir) {
        return Ok(from_cache(v));
    }
    let lock = render_lock(&doc.id);
    let _held = lock.lock().await;
    if let Some(v) = read(&dir) {
        return Ok(from_cache(v));
    }
    if !doc.stored {
        return Ok(Rendered::None("the uploaded file is not kept".into()));
    }
    let scratch = state.tmp_dir.join(model::new_id("render_"));
    std::fs::create_dir_all(&scratch)
        .map_err(|e| format!("cannot create a scratch directory: {e}"))?;
    let outcome = async {
        let source = state
            .files
            .local_copy(&doc.id, &scratch)
            .await
            .map_err(|e| format!("cannot read the uploaded file: {e}"))?;
        let result_path = scratch.join("result.json");
        std::fs::write(&result_path, result).map_err(|e| format!("cannot write: {e}"))?;
        let out = scratch.join("pages");
        let answer = state
            .renderer
            .render(&source.path, &result_path, &out)
            .await
            .map_err(|e| match e {
                ChildFailure::Spawn(e) => format!("cannot start the renderer: {e}"),
                ChildFailure::Failed(why) => why,
            })?;
        if let Err((_, why)) = answer {
            std::fs::create_dir_all(&out).map_err(|e| format!("cannot write: {e}"))?;
            std::fs::write(
                out.join(PAGES_FILE),
                json!({ "pages": [], "none": why }).to_string(),
            )
            .map_err(|e| format!("cannot write: {e}"))?;
        }
        if let Some(parent) = dir.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create the cache: {e}"))?;
        }
        std::fs::rename(&out, &dir).map_err(|e| format!("cannot fill the cache: {e}"))?;
        Ok::<_, String>(())
    }
    .await;
    let _ = std::fs::remove_dir_all(&scratch);
    outcome?;
    let cache = state.cache_dir.clone();
    tokio::task::spawn_blocking(move || {
        sweep(&cache, std::time::Duration::from_secs(CACHE_DAYS * 86_400))
    });
    read(&dir)
        .map(from_cache)
        .ok_or_else(|| "the rendered pages cannot be read".to_string())
}

/// The group of a field (the colour of its box): the engine's own grouping
/// ([`folio::render::FieldGroup`]), by its JSON name.
fn group(pointer: &str) -> String {
    serde_json::to_value(folio::render::FieldGroup::of(pointer))
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Order of the sections in the field list.
fn section_rank(pointer: &str) -> usize {
    const ORDER: [&str; 9] = [
        "document",
        "document_type",
        "parties",
        "totals",
        "taxes",
        "bank_accounts",
        "line_items",
        "signatories",
        "extra_fields",
    ];
    let first = pointer.split('/').nth(1).unwrap_or("");
    ORDER
        .iter()
        .position(|s| *s == first)
        .unwrap_or(ORDER.len())
}

/// A value as the field list shows it.
fn shown(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// The fields of a Result: every pointer with evidence or a confidence, in section order.
fn fields(result: &Value) -> Vec<Value> {
    let evidence = result["evidence"].as_object().cloned().unwrap_or_default();
    let confidence = result["confidence"]["fields"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let mut pointers: Vec<&String> = evidence.keys().chain(confidence.keys()).collect();
    pointers.sort_by(|a, b| section_rank(a).cmp(&section_rank(b)).then(a.cmp(b)));
    pointers.dedup();
    pointers
        .into_iter()
        .map(|p| {
            let ev = evidence.get(p);
            json!({
                "pointer": p,
                "label": p.trim_start_matches('/').replace('/', " › "),
                "value": shown(result.pointer(p)),
                "confidence": confidence.get(p).and_then(Value::as_f64),
                "page": ev.and_then(|e| e["page"].as_u64()),
                "text": ev.and_then(|e| e["text"].as_str()),
                "source": ev.and_then(|e| e["source"].as_str()),
                "engine": ev.and_then(|e| e["engine"].as_str()),
                "group": group(p),
            })
        })
        .collect()
}

/// The pages with their boxes as the template draws them.
fn pages(doc_id: &str, rendered: &Value) -> Vec<Value> {
    rendered["pages"]
        .as_array()
        .map(|pages| {
            pages
                .iter()
                .map(|p| {
                    let n = p["page"].as_u64().unwrap_or(0) as u32;
                    let boxes: Vec<Value> = p["boxes"]
                        .as_array()
                        .map(|b| {
                            b.iter()
                                .filter_map(|b| {
                                    let r = b["rect"].as_array()?;
                                    let c: Vec<f64> = r.iter().filter_map(Value::as_f64).collect();
                                    let field = b["field"].as_str()?;
                                    (c.len() == 4).then(|| {
                                        json!({
                                            "field": field,
                                            "group": group(field),
                                            "x": c[0], "y": c[1],
                                            "w": (c[2] - c[0]).max(1.0),
                                            "h": (c[3] - c[1]).max(1.0),
                                        })
                                    })
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    json!({
                        "page": n,
                        "url": format!("/cabinet/documents/{doc_id}/pages/{}", page_file(n)),
                        "width": p["width"],
                        "height": p["height"],
                        "boxes": boxes,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Loads a document of the session's company.
async fn load(state: &AppState, session: &Session, id: String) -> Result<DocumentRecord, Page> {
    let company = session.user.company_id.clone();
    match state
        .db
        .call(move |c| store::document(c, &company, &id))
        .await
    {
        Ok(Some(d)) => Ok(d),
        Ok(None) => Err(Page::error(StatusCode::NOT_FOUND, "No such document.")),
        Err(e) => Err(e.into()),
    }
}

pub async fn review(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Page {
    let doc = match load(&state, &session, id).await {
        Ok(d) => d,
        Err(p) => return p,
    };
    let result: Option<Value> = doc
        .result_json
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok());
    let (page_list, no_images) = match (&result, &doc.result_json) {
        (Some(_), Some(text)) => match rendered(&state, &doc, text).await {
            Ok(Rendered::Pages(v)) => {
                let list = pages(&doc.id, &v);
                let why = list.is_empty().then(|| {
                    "the result describes no page (an XML e-invoice, or a result of an earlier \
                     version of Folio)"
                        .to_string()
                });
                (list, why)
            }
            Ok(Rendered::None(why)) => (Vec::new(), Some(why)),
            Err(why) => {
                eprintln!("folio serve: rendering {}: {why}", doc.id);
                (
                    Vec::new(),
                    Some(format!("the pages cannot be shown just now ({why})")),
                )
            }
        },
        _ => (Vec::new(), None),
    };
    let field_list = result.as_ref().map(fields).unwrap_or_default();
    Page::render(
        "review.html",
        context! {
            ..session.layout("operations"),
            ..context! {
                document => json!({
                    "document_id": doc.id,
                    "operation_id": doc.operation_id,
                    "filename": doc.filename,
                    "status": doc.status,
                    "created_at": doc.created_at,
                    "completed_at": doc.completed_at,
                }),
                has_result => result.is_some(),
                pages => page_list,
                no_images => no_images,
                fields => field_list,
                validation => result.as_ref().map(|r| r["validation"].clone()),
                document_type => result.as_ref().map(|r| r["document_type"].clone()),
                confidence => result.as_ref().and_then(|r| r["confidence"]["overall"].as_f64()),
                super_ai_used => result.as_ref().and_then(|r| r["super_ai_used"].as_bool()),
            }
        },
    )
}

pub async fn result_json(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Response {
    let doc = match load(&state, &session, id).await {
        Ok(d) => d,
        Err(p) => return p.into_response(),
    };
    match doc.result_json {
        Some(json) => (
            [
                (header::CONTENT_TYPE, "application/json".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{}.json\"", doc.id),
                ),
            ],
            json,
        )
            .into_response(),
        None => Page::error(StatusCode::NOT_FOUND, "This document has no result.").into_response(),
    }
}

pub async fn page_image(
    State(state): State<AppState>,
    session: Session,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    let doc = match load(&state, &session, id).await {
        Ok(d) => d,
        Err(p) => return p.into_response(),
    };
    let Some(result) = doc.result_json.clone() else {
        return Page::error(StatusCode::NOT_FOUND, "This document has no result.").into_response();
    };
    // Only names the renderer writes: nothing else of the directory is served.
    let wanted = file
        .strip_prefix("page-")
        .and_then(|f| f.strip_suffix(".png"))
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|&n| page_file(n) == file);
    let Some(n) = wanted else {
        return Page::error(StatusCode::NOT_FOUND, "No such page.").into_response();
    };
    // Cached: served as it is; else the document's pages are rendered first (a node that has
    // not shown the review page yet).
    let path = cache_of(&state, &doc.id).join(page_file(n));
    let png = match tokio::fs::read(&path).await {
        Ok(png) => Ok(png),
        Err(_) => match rendered(&state, &doc, &result).await {
            Err(why) => {
                return Page::error(StatusCode::SERVICE_UNAVAILABLE, &why).into_response();
            }
            Ok(_) => tokio::fs::read(&path).await,
        },
    };
    match png {
        Ok(png) => (
            [
                (header::CONTENT_TYPE, "image/png"),
                (header::CACHE_CONTROL, "private, max-age=3600"),
            ],
            png,
        )
            .into_response(),
        Err(_) => Page::error(StatusCode::NOT_FOUND, "No such page.").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_listed_in_section_order_with_their_evidence() {
        let r = json!({
            "document": {"number": "INV-1", "date": "2026-01-02"},
            "totals": {"total": "10.00"},
            "parties": {"seller": {"name": "ACME"}},
            "evidence": {
                "/totals/total": {"page": 1, "text": "10.00", "source": "OCR", "engine": "PP_OCR"},
                "/document/number": {"page": 1, "text": "INV-1", "source": "TEXT_LAYER"},
            },
            "confidence": {"overall": 0.9, "fields": {"/parties/seller/name": 0.7, "/document/number": 0.95}},
        });
        let f = fields(&r);
        let ptrs: Vec<&str> = f.iter().map(|v| v["pointer"].as_str().unwrap()).collect();
        assert_eq!(
            ptrs,
            ["/document/number", "/parties/seller/name", "/totals/total"]
        );
        assert_eq!(f[0]["value"], "INV-1");
        assert_eq!(f[0]["confidence"], 0.95);
        assert_eq!(f[2]["engine"], "PP_OCR");
        assert_eq!(f[1]["group"], "party");
        assert_eq!(f[1]["page"], Value::Null);
    }

    #[test]
    fn the_sweep_removes_only_old_renderings() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("doc_new")).unwrap();
        std::fs::create_dir_all(dir.path().join("doc_old")).unwrap();
        std::fs::write(dir.path().join("doc_old").join("page-1.png"), b"x").unwrap();
        assert_eq!(sweep(dir.path(), std::time::Duration::from_secs(3600)), 0);
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(sweep(dir.path(), std::time::Duration::from_millis(1)), 2);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert_eq!(
            sweep(&dir.path().join("missing"), std::time::Duration::ZERO),
            0
        );
    }

    #[test]
    fn boxes_become_rectangles_with_a_link_to_their_image() {
        let v = json!({"pages": [{"page": 2, "width": 800, "height": 1000, "boxes": [
            {"field": "/totals/total", "page": 2, "rect": [10.0, 20.0, 110.0, 40.0], "text": "x"},
            {"field": "/bad", "rect": [1.0]}
        ]}]});
        let p = pages("doc_1", &v);
        assert_eq!(p[0]["url"], "/cabinet/documents/doc_1/pages/page-2.png");
        let b = p[0]["boxes"].as_array().unwrap();
        assert_eq!(b.len(), 1);
        assert_eq!(
            (b[0]["w"].as_f64(), b[0]["h"].as_f64()),
            (Some(100.0), Some(20.0))
        );
        assert_eq!(b[0]["group"], "amount");
    }
}
