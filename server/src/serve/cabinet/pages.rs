//! The cabinet's pages and forms: sign-in, password, overview (balance, usage, settings), keys,
//! webhooks, operations.

use super::{
    FAILURE_WINDOW_MS, Fields, MAX_FAILURES, PRE_COOKIE, Page, SESSION_COOKIE, SESSION_MS, Session,
    cookie, csrf_refused, is_cabinet_path, password, read_cookie, redirect, redirect_setting,
    same_secret,
};
use crate::serve::store::{self, OperationFilter, WebhookEdit};
use crate::serve::{AppState, model, webhooks};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use minijinja::context;
use serde::Deserialize;
use serde_json::{Value, json};

/// Days of the usage chart.
const CHART_DAYS: i64 = 30;
/// Operations per page of the list.
const OPERATIONS_PER_PAGE: i64 = 50;
/// The most webhook delivery attempts a webhook may ask for.
const MAX_ATTEMPTS: u32 = 20;
/// The longest pause between attempts, seconds.
const MAX_DELAY_SECS: u64 = 86_400;

/// Messages shown after an action (by code: nothing the URL carries is echoed).
fn notice(code: Option<&str>) -> Option<&'static str> {
    Some(match code? {
        "revoked" => "The key was revoked: requests with it are refused from now on.",
        "limit" => "The monthly limit was changed.",
        "saved" => "Saved.",
        "settings" => "The default for enhanced recognition was changed.",
        "redelivered" => "The delivery was queued: one more attempt is made now.",
        "password" => "Your password is set.",
        _ => return None,
    })
}

/// `?msg=` of a page.
#[derive(Debug, Deserialize, Default)]
pub struct Notice {
    msg: Option<String>,
}

pub async fn home() -> Response {
    redirect("/cabinet/overview")
}

/// `?next=` of the sign-in page.
#[derive(Debug, Deserialize, Default)]
pub struct Next {
    next: Option<String>,
}

/// The pre-session CSRF token of a browser: the one its cookie holds, else a new one (set).
fn pre_token(headers: &HeaderMap) -> (String, Option<String>) {
    match read_cookie(headers, PRE_COOKIE).filter(|t| t.len() == 64) {
        Some(t) => (t, None),
        None => {
            let t = model::random_hex(32);
            let c = cookie(PRE_COOKIE, &t, 3600);
            (t, Some(c))
        }
    }
}

/// A form shown before sign-in (`template` with `ctx`), carrying the browser's pre-session CSRF
/// token, whose cookie is set when the browser has none yet.
fn pre_form(
    headers: &HeaderMap,
    status: StatusCode,
    template: &str,
    ctx: minijinja::Value,
) -> Page {
    let (token, set) = pre_token(headers);
    let page = Page::render_status(status, template, context! { csrf => token, ..ctx });
    match set {
        Some(c) => page.with_cookie(c),
        None => page,
    }
}

fn sign_in_page(
    status: StatusCode,
    headers: &HeaderMap,
    next: &str,
    email: &str,
    error: Option<&str>,
) -> Page {
    pre_form(
        headers,
        status,
        "sign_in.html",
        context! { next => next, email => email, error => error },
    )
}

pub async fn sign_in_form(headers: HeaderMap, Query(q): Query<Next>) -> Page {
    let next = q.next.filter(|n| is_cabinet_path(n)).unwrap_or_default();
    sign_in_page(StatusCode::OK, &headers, &next, "", None)
}

/// Checks the double-submitted CSRF token of a form shown before sign-in.
fn check_pre_form(headers: &HeaderMap, body: &Bytes) -> Result<Fields, Page> {
    let fields = Fields::parse(headers, body)
        .ok_or_else(|| Page::error(StatusCode::BAD_REQUEST, "The form could not be read."))?;
    match read_cookie(headers, PRE_COOKIE) {
        Some(c) if same_secret(fields.text("csrf"), &c) => Ok(fields),
        _ => Err(csrf_refused()),
    }
}

/// Starts a session for `user_id` and sends the browser to `to` with its cookie.
async fn signed_in(state: &AppState, user_id: String, to: &str) -> Response {
    let token = model::random_hex(32);
    let id_hash = store::hash_secret(&token);
    let csrf = model::random_hex(32);
    let now = model::now_ms();
    match state
        .db
        .call_tx(move |tx| {
            store::create_session(tx, &user_id, &id_hash, &csrf, now, now + SESSION_MS)
        })
        .await
    {
        Ok(()) => redirect_setting(to, &cookie(SESSION_COOKIE, &token, SESSION_MS / 1000)),
        Err(e) => Page::from(e).into_response(),
    }
}

pub async fn sign_in(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let fields = match check_pre_form(&headers, &body) {
        Ok(f) => f,
        Err(p) => return p.into_response(),
    };
    let email = fields.text("email").to_string();
    let pass = fields.get("password").unwrap_or("").to_string();
    let next = Some(fields.text("next"))
        .filter(|n| is_cabinet_path(n))
        .unwrap_or("/cabinet/overview")
        .to_string();
    let now = model::now_ms();
    let e = email.clone();
    let looked_up = state
        .db
        .call(move |c| {
            let failures = store::failures_since(c, &e, now - FAILURE_WINDOW_MS)?;
            Ok((failures, store::user_login(c, &e)?))
        })
        .await;
    let (failures, user) = match looked_up {
        Ok(v) => v,
        Err(e) => return Page::from(e).into_response(),
    };
    if failures >= MAX_FAILURES {
        return sign_in_page(
            StatusCode::TOO_MANY_REQUESTS,
            &headers,
            &next,
            &email,
            Some(&format!(
                "Too many wrong passwords for this e-mail. Sign-in is paused for up to {} \
                 minutes.",
                FAILURE_WINDOW_MS / 60_000
            )),
        )
        .into_response();
    }
    let stored = user
        .as_ref()
        .filter(|u| u.status == "ACTIVE")
        .and_then(|u| u.password_hash.clone());
    let ok = password::limited(move || match stored {
        Some(h) => password::verify(&pass, &h),
        None => {
            // As long as a real check, so the answer's timing does not tell who exists.
            password::verify(&pass, password::decoy());
            false
        }
    })
    .await
    .unwrap_or(false);
    let e = email.clone();
    if !ok {
        if let Err(err) = state
            .db
            .call(move |c| store::record_failure(c, &e, now, FAILURE_WINDOW_MS * 4))
            .await
        {
            return Page::from(err).into_response();
        }
        return sign_in_page(
            StatusCode::UNAUTHORIZED,
            &headers,
            &next,
            &email,
            Some("Wrong e-mail or password."),
        )
        .into_response();
    }
    let Some(user) = user else {
        return Page::error(StatusCode::UNAUTHORIZED, "Wrong e-mail or password.").into_response();
    };
    if let Err(err) = state.db.call(move |c| store::clear_failures(c, &e)).await {
        return Page::from(err).into_response();
    }
    signed_in(&state, user.id, &next).await
}

/// `?token=` of the set-password link.
#[derive(Debug, Deserialize, Default)]
pub struct Token {
    token: Option<String>,
}

pub async fn set_password_form(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<Token>,
) -> Page {
    let token = q.token.unwrap_or_default();
    let t = token.clone();
    match state.db.call(move |c| store::setup_token_user(c, &t)).await {
        Ok(Some((_, email))) => pre_form(
            &headers,
            StatusCode::OK,
            "set_password.html",
            context! { token => token, email => email },
        ),
        Ok(None) => Page::error(
            StatusCode::NOT_FOUND,
            "This link is not valid (it was used, has expired, or is mistyped). Ask your \
             administrator for a new one.",
        ),
        Err(e) => e.into(),
    }
}

pub async fn set_password(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let fields = match check_pre_form(&headers, &body) {
        Ok(f) => f,
        Err(p) => return p.into_response(),
    };
    let token = fields.text("token").to_string();
    let t = token.clone();
    let user = match state.db.call(move |c| store::setup_token_user(c, &t)).await {
        Ok(Some(u)) => u,
        Ok(None) => {
            return Page::error(StatusCode::NOT_FOUND, "This link is not valid any more.")
                .into_response();
        }
        Err(e) => return Page::from(e).into_response(),
    };
    let pass = fields.get("password").unwrap_or("").to_string();
    let problem = if pass != fields.get("password2").unwrap_or("") {
        Some("The two passwords differ.".to_string())
    } else {
        password::weakness(&pass)
    };
    if let Some(problem) = problem {
        return pre_form(
            &headers,
            StatusCode::BAD_REQUEST,
            "set_password.html",
            context! { token => token, email => user.1, error => problem },
        )
        .into_response();
    }
    let hashed = match password::limited(move || password::hash(&pass)).await {
        Some(Ok(h)) => h,
        _ => {
            return Page::error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "The password cannot be set.",
            )
            .into_response();
        }
    };
    let id = user.0.clone();
    if let Err(e) = state
        .db
        .call_tx(move |tx| store::set_password(tx, &id, &hashed))
        .await
    {
        return Page::from(e).into_response();
    }
    signed_in(&state, user.0, "/cabinet/overview?msg=password").await
}

pub async fn sign_out(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(p) = session.check_form(&headers, &body) {
        return p.into_response();
    }
    let h = session.id_hash.clone();
    if let Err(e) = state.db.call(move |c| store::delete_session(c, &h)).await {
        return Page::from(e).into_response();
    }
    redirect_setting("/cabinet/sign-in", &cookie(SESSION_COOKIE, "", 0))
}

/// Bars of the usage chart: SVG geometry computed here (the page has no script for it).
fn chart(days: &[(String, i64)]) -> Value {
    const W: f64 = 600.0;
    const H: f64 = 160.0;
    let tallest = days.iter().map(|d| d.1).max().unwrap_or(0);
    let max = tallest.max(1) as f64;
    let step = W / days.len().max(1) as f64;
    let bars: Vec<Value> = days
        .iter()
        .enumerate()
        .map(|(i, (day, n))| {
            let h = (*n as f64 / max * (H - 20.0)).round();
            json!({
                "day": day,
                "n": n,
                "x": (i as f64 * step + 1.0).round(),
                "y": H - h,
                "w": (step - 2.0).max(1.0).round(),
                "h": h,
            })
        })
        .collect();
    json!({
        "width": W, "height": H, "max": tallest, "bars": bars,
        "total": days.iter().map(|d| d.1).sum::<i64>(),
        "first": days.first().map(|d| d.0.clone()),
        "last": days.last().map(|d| d.0.clone()),
    })
}

pub async fn overview(
    State(state): State<AppState>,
    session: Session,
    Query(q): Query<Notice>,
) -> Page {
    let company = session.user.company_id.clone();
    let data = state
        .db
        .call(move |c| {
            Ok((
                store::company_json(c, &company)?,
                store::company_keys(c, &company)?,
                store::documents_per_day(c, &company, CHART_DAYS)?,
            ))
        })
        .await;
    let (company, keys, days) = match data {
        Ok((Some(c), k, d)) => (c, k, d),
        Ok((None, _, _)) => return Page::error(StatusCode::NOT_FOUND, "No such company."),
        Err(e) => return e.into(),
    };
    Page::render(
        "overview.html",
        context! {
            ..session.layout("overview"),
            ..context! {
                company => company,
                keys => keys,
                chart => chart(&days),
                notice => notice(q.msg.as_deref()),
                month => model::current_month(),
            }
        },
    )
}

pub async fn settings(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let fields = match session.check_form(&headers, &body) {
        Ok(f) => f,
        Err(p) => return p.into_response(),
    };
    let heavy = fields.ticked("heavy_default");
    let company = session.user.company_id.clone();
    match state
        .db
        .call(move |c| store::set_heavy_default(c, &company, heavy))
        .await
    {
        Ok(_) => redirect("/cabinet/overview?msg=settings"),
        Err(e) => Page::from(e).into_response(),
    }
}

/// The keys page, with what was just created or the form's problem.
async fn keys_page(state: &AppState, session: &Session, status: StatusCode, extra: Value) -> Page {
    let company = session.user.company_id.clone();
    match state
        .db
        .call(move |c| store::company_keys(c, &company))
        .await
    {
        Ok(keys) => session.page(
            status,
            "keys.html",
            "keys",
            context! { keys => keys, permissions => store::PERMISSIONS },
            &extra,
        ),
        Err(e) => e.into(),
    }
}

pub async fn keys(
    State(state): State<AppState>,
    session: Session,
    Query(q): Query<Notice>,
) -> Page {
    keys_page(
        &state,
        &session,
        StatusCode::OK,
        json!({ "notice": notice(q.msg.as_deref()) }),
    )
    .await
}

/// A monthly limit field: empty is none; else a whole number >= 0.
fn parse_limit(s: &str) -> Result<Option<i64>, String> {
    if s.is_empty() {
        return Ok(None);
    }
    match s.parse::<i64>() {
        Ok(n) if (0..=1_000_000_000).contains(&n) => Ok(Some(n)),
        _ => Err(
            "The monthly limit must be a whole number of documents (or empty: no limit).".into(),
        ),
    }
}

pub async fn create_key(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let fields = match session.check_form(&headers, &body) {
        Ok(f) => f,
        Err(p) => return p.into_response(),
    };
    let name = fields.text("name").chars().take(100).collect::<String>();
    let perms: Vec<String> = fields
        .all("permission")
        .into_iter()
        .filter(|p| store::PERMISSIONS.contains(p))
        .map(str::to_string)
        .collect();
    let limit = parse_limit(fields.text("monthly_limit"));
    let problem = match (&limit, perms.is_empty()) {
        (Err(e), _) => Some(e.clone()),
        (_, true) => Some("Choose at least one permission.".to_string()),
        _ => None,
    };
    if let Some(problem) = problem {
        return keys_page(
            &state,
            &session,
            StatusCode::BAD_REQUEST,
            json!({ "error": problem, "form": { "name": name } }),
        )
        .await
        .into_response();
    }
    let limit = limit.ok().flatten();
    let company = session.user.company_id.clone();
    let (n, p) = (name.clone(), perms.clone());
    let created = state
        .db
        .call_tx(move |tx| {
            store::create_key(
                tx,
                &company,
                &p,
                limit,
                Some(&n).filter(|n| !n.is_empty()).map(|s| s.as_str()),
            )
        })
        .await;
    match created {
        Ok(Some((id, secret))) => keys_page(
            &state,
            &session,
            StatusCode::OK,
            json!({ "created": { "api_key_id": id, "api_key": secret, "name": name } }),
        )
        .await
        .into_response(),
        Ok(None) => Page::error(StatusCode::NOT_FOUND, "No such company.").into_response(),
        Err(e) => Page::from(e).into_response(),
    }
}

pub async fn revoke_key(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(p) = session.check_form(&headers, &body) {
        return p.into_response();
    }
    let company = session.user.company_id.clone();
    match state
        .db
        .call(move |c| store::revoke_company_key(c, &company, &id))
        .await
    {
        Ok(true) => redirect("/cabinet/keys?msg=revoked"),
        Ok(false) => Page::error(StatusCode::NOT_FOUND, "No such active key.").into_response(),
        Err(e) => Page::from(e).into_response(),
    }
}

pub async fn key_limit(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let fields = match session.check_form(&headers, &body) {
        Ok(f) => f,
        Err(p) => return p.into_response(),
    };
    let limit = match parse_limit(fields.text("monthly_limit")) {
        Ok(l) => l,
        Err(e) => {
            return keys_page(
                &state,
                &session,
                StatusCode::BAD_REQUEST,
                json!({ "error": e }),
            )
            .await
            .into_response();
        }
    };
    let company = session.user.company_id.clone();
    match state
        .db
        .call(move |c| store::set_key_limit(c, &company, &id, limit))
        .await
    {
        Ok(true) => redirect("/cabinet/keys?msg=limit"),
        Ok(false) => Page::error(StatusCode::NOT_FOUND, "No such key.").into_response(),
        Err(e) => Page::from(e).into_response(),
    }
}

/// A webhook form, checked: the URL by the same rules as an upload's `webhook_url`.
struct WebhookForm {
    edit: WebhookEdit,
}

async fn read_webhook_form(state: &AppState, f: &Fields) -> Result<WebhookForm, String> {
    let max_attempts = match f.text("max_delivery_attempts").parse::<u32>() {
        Ok(n) if (1..=MAX_ATTEMPTS).contains(&n) => n,
        _ => {
            return Err(format!(
                "Delivery attempts must be a number from 1 to {MAX_ATTEMPTS}."
            ));
        }
    };
    let delays: Result<Vec<u64>, _> = f
        .text("retry_delays_sec")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u64>())
        .collect();
    let retry_delays = match delays {
        Ok(d)
            if !d.is_empty()
                && d.len() < MAX_ATTEMPTS as usize
                && d.iter().all(|&s| (1..=MAX_DELAY_SECS).contains(&s)) =>
        {
            d
        }
        _ => {
            return Err(format!(
                "Retry delays are seconds between attempts, separated by commas (1 to \
                 {MAX_DELAY_SECS} each), for example 10, 60, 300."
            ));
        }
    };
    let status = match f.text("status") {
        "" | "ACTIVE" => "ACTIVE",
        "DISABLED" => "DISABLED",
        _ => return Err("The status is ACTIVE or DISABLED.".into()),
    };
    let secret = f.text("secret");
    if !secret.is_empty() && secret.len() < 16 {
        return Err("A signing secret must have at least 16 characters.".into());
    }
    // Last: it may look the name up.
    let url = webhooks::check_url(f.text("url"), state.url_policy).await?;
    Ok(WebhookForm {
        edit: WebhookEdit {
            name: Some(f.text("name").chars().take(100).collect::<String>())
                .filter(|n| !n.is_empty()),
            url: url.to_string(),
            new_secret: Some(secret.to_string()).filter(|s| !s.is_empty()),
            signature_required: f.ticked("signature_required"),
            is_default: f.ticked("is_default"),
            max_attempts,
            retry_delays,
            status: status.to_string(),
        },
    })
}

async fn webhooks_page(
    state: &AppState,
    session: &Session,
    status: StatusCode,
    extra: Value,
) -> Page {
    let company = session.user.company_id.clone();
    match state
        .db
        .call(move |c| store::company_webhooks(c, &company))
        .await
    {
        Ok(list) => session.page(
            status,
            "webhooks.html",
            "webhooks",
            context! {
                webhooks => list,
                defaults => json!({
                    "max_delivery_attempts": store::DEFAULT_MAX_ATTEMPTS,
                    "retry_delays_sec": store::delays_text(&store::DEFAULT_RETRY_DELAYS),
                }),
            },
            &extra,
        ),
        Err(e) => e.into(),
    }
}

pub async fn webhooks(
    State(state): State<AppState>,
    session: Session,
    Query(q): Query<Notice>,
) -> Page {
    webhooks_page(
        &state,
        &session,
        StatusCode::OK,
        json!({ "notice": notice(q.msg.as_deref()) }),
    )
    .await
}

pub async fn create_webhook(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let fields = match session.check_form(&headers, &body) {
        Ok(f) => f,
        Err(p) => return p.into_response(),
    };
    let form = match read_webhook_form(&state, &fields).await {
        Ok(f) => f,
        Err(e) => {
            return webhooks_page(
                &state,
                &session,
                StatusCode::BAD_REQUEST,
                json!({ "error": e, "form": { "name": fields.text("name"), "url": fields.text("url") } }),
            )
            .await
            .into_response();
        }
    };
    let w = store::NewWebhook {
        company_id: session.user.company_id.clone(),
        url: form.edit.url.clone(),
        name: form.edit.name.clone(),
        secret: form.edit.new_secret.clone(),
        signature_required: form.edit.signature_required,
        is_default: form.edit.is_default,
        max_attempts: form.edit.max_attempts,
        retry_delays: form.edit.retry_delays.clone(),
    };
    let given_secret = form.edit.new_secret.is_some();
    match state
        .db
        .call_tx(move |tx| store::create_webhook(tx, &w))
        .await
    {
        Ok(Some(created)) => {
            // A generated secret is shown this once; one the user typed, never again.
            let secret = created["secret"].as_str().filter(|_| !given_secret);
            webhooks_page(
                &state,
                &session,
                StatusCode::OK,
                json!({ "created": { "webhook_id": created["webhook_id"], "secret": secret } }),
            )
            .await
            .into_response()
        }
        Ok(None) => Page::error(StatusCode::NOT_FOUND, "No such company.").into_response(),
        Err(e) => Page::from(e).into_response(),
    }
}

async fn webhook_page(
    state: &AppState,
    session: &Session,
    id: String,
    status: StatusCode,
    extra: Value,
) -> Page {
    let company = session.user.company_id.clone();
    match state
        .db
        .call(move |c| store::company_webhook(c, &company, &id))
        .await
    {
        Ok(Some(w)) => session.page(
            status,
            "webhook.html",
            "webhooks",
            context! { webhook => w },
            &extra,
        ),
        Ok(None) => Page::error(StatusCode::NOT_FOUND, "No such webhook."),
        Err(e) => e.into(),
    }
}

pub async fn webhook(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Query(q): Query<Notice>,
) -> Page {
    webhook_page(
        &state,
        &session,
        id,
        StatusCode::OK,
        json!({ "notice": notice(q.msg.as_deref()) }),
    )
    .await
}

pub async fn update_webhook(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let fields = match session.check_form(&headers, &body) {
        Ok(f) => f,
        Err(p) => return p.into_response(),
    };
    let form = match read_webhook_form(&state, &fields).await {
        Ok(f) => f,
        Err(e) => {
            return webhook_page(
                &state,
                &session,
                id,
                StatusCode::BAD_REQUEST,
                json!({ "error": e }),
            )
            .await
            .into_response();
        }
    };
    let company = session.user.company_id.clone();
    let i = id.clone();
    match state
        .db
        .call_tx(move |tx| store::update_webhook(tx, &company, &i, &form.edit))
        .await
    {
        Ok(Some(None)) => redirect(&format!("/cabinet/webhooks/{id}?msg=saved")),
        Ok(Some(Some(secret))) => webhook_page(
            &state,
            &session,
            id,
            StatusCode::OK,
            json!({ "notice": "Saved.", "generated_secret": secret }),
        )
        .await
        .into_response(),
        Ok(None) => Page::error(StatusCode::NOT_FOUND, "No such webhook.").into_response(),
        Err(e) => Page::from(e).into_response(),
    }
}

/// The event kind of the cabinet's test event.
pub const TEST_EVENT: &str = "webhook.test";

pub async fn test_webhook(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if let Err(p) = session.check_form(&headers, &body) {
        return p.into_response();
    }
    let company = session.user.company_id.clone();
    let (c2, i2) = (company.clone(), id.clone());
    let target = match state
        .db
        .call(move |c| store::webhook_signing(c, &c2, &i2))
        .await
    {
        Ok(Some(t)) => t,
        Ok(None) => return Page::error(StatusCode::NOT_FOUND, "No such webhook.").into_response(),
        Err(e) => return Page::from(e).into_response(),
    };
    let (url, secret) = target;
    // The stored URL is checked again: the rules may have changed since it was saved.
    let outcome = match webhooks::check_url(&url, state.url_policy).await {
        Err(e) => json!({ "ok": false, "error": e }),
        Ok(_) => {
            let event_id = model::new_id("evt_");
            let delivery_id = model::new_id("dlv_");
            let payload = json!({
                "event": TEST_EVENT,
                "event_id": event_id,
                "webhook_id": id,
                "company_id": company,
                "created_at": model::now_iso(),
                "test": true,
            })
            .to_string();
            let started = std::time::Instant::now();
            let (status, error) = webhooks::send(
                &state,
                &webhooks::Outgoing {
                    url: &url,
                    event: TEST_EVENT,
                    event_id: &event_id,
                    delivery_id: &delivery_id,
                    operation_id: None,
                    document_id: None,
                    secret: secret.as_deref(),
                    payload: &payload,
                },
            )
            .await;
            json!({
                "ok": error.is_none(),
                "http_status": status,
                "error": error,
                "ms": started.elapsed().as_millis() as u64,
                "signed": secret.is_some(),
            })
        }
    };
    webhook_page(
        &state,
        &session,
        id,
        StatusCode::OK,
        json!({ "test": outcome }),
    )
    .await
    .into_response()
}

/// The filters of the operations list.
#[derive(Debug, Deserialize, Default)]
pub struct OperationQuery {
    q: Option<String>,
    status: Option<String>,
    from: Option<String>,
    to: Option<String>,
    page: Option<i64>,
}

/// A `YYYY-MM-DD` day, or nothing.
fn day(s: Option<&str>) -> Option<String> {
    s.map(str::trim)
        .filter(|s| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").is_ok())
        .map(str::to_string)
}

pub async fn operations(
    State(state): State<AppState>,
    session: Session,
    Query(q): Query<OperationQuery>,
) -> Page {
    let page = q.page.unwrap_or(1).clamp(1, 100_000);
    let filter = OperationFilter {
        text: q.q.clone().map(|t| t.chars().take(200).collect()),
        status: q
            .status
            .clone()
            .filter(|s| model::OPERATION_STATUSES.contains(&s.as_str())),
        from: day(q.from.as_deref()),
        to: day(q.to.as_deref()),
        offset: (page - 1) * OPERATIONS_PER_PAGE,
        // One more than shown: whether there is a next page.
        limit: OPERATIONS_PER_PAGE + 1,
    };
    let company = session.user.company_id.clone();
    let f = filter.clone();
    match state
        .db
        .call(move |c| store::search_operations(c, &company, &f))
        .await
    {
        Ok(mut rows) => {
            let more = rows.len() as i64 > OPERATIONS_PER_PAGE;
            rows.truncate(OPERATIONS_PER_PAGE as usize);
            Page::render(
                "operations.html",
                context! {
                    ..session.layout("operations"),
                    ..context! {
                        operations => rows,
                        statuses => model::OPERATION_STATUSES,
                        filter => json!({
                            "q": filter.text, "status": filter.status,
                            "from": filter.from, "to": filter.to,
                        }),
                        page => page,
                        more => more,
                    }
                },
            )
        }
        Err(e) => e.into(),
    }
}

pub async fn operation(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Query(q): Query<Notice>,
) -> Page {
    let company = session.user.company_id.clone();
    let data = state
        .db
        .call(move |c| {
            Ok((
                store::operation_json(c, &company, &id)?,
                store::operation_documents(c, &company, &id)?,
                store::webhook_state(c, &company, &id)?,
            ))
        })
        .await;
    match data {
        Ok((Some(op), Some(docs), hooks)) => Page::render(
            "operation.html",
            context! {
                ..session.layout("operations"),
                ..context! {
                    operation => op,
                    documents => docs,
                    webhook => hooks,
                    notice => notice(q.msg.as_deref()),
                }
            },
        ),
        Ok(_) => Page::error(StatusCode::NOT_FOUND, "No such operation."),
        Err(e) => e.into(),
    }
}

pub async fn redeliver(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let fields = match session.check_form(&headers, &body) {
        Ok(f) => f,
        Err(p) => return p.into_response(),
    };
    let back = fields.text("operation_id").to_string();
    let company = session.user.company_id.clone();
    match state
        .db
        .call_tx(move |tx| store::redeliver(tx, &company, &id))
        .await
    {
        Ok(Some(true)) => {
            state.deliveries_wake.notify_one();
            redirect(&format!(
                "/cabinet/operations/{}?msg=redelivered",
                super::url_encode(&back)
            ))
        }
        Ok(Some(false)) => Page::error(
            StatusCode::CONFLICT,
            "This delivery is still being tried; it can be sent again once it is delivered or \
             has failed.",
        )
        .into_response(),
        Ok(None) => Page::error(StatusCode::NOT_FOUND, "No such delivery.").into_response(),
        Err(e) => Page::from(e).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_bars_fit_the_box() {
        let days: Vec<(String, i64)> = (0..30).map(|i| (format!("d{i}"), i % 7)).collect();
        let c = chart(&days);
        assert_eq!(c["bars"].as_array().unwrap().len(), 30);
        for b in c["bars"].as_array().unwrap() {
            let (y, h) = (b["y"].as_f64().unwrap(), b["h"].as_f64().unwrap());
            assert!(y >= 0.0 && y + h <= 160.0 + 1e-9, "{b}");
        }
        assert_eq!(c["total"], days.iter().map(|d| d.1).sum::<i64>());
        assert_eq!(chart(&[])["bars"].as_array().unwrap().len(), 0);
    }

    #[test]
    fn limits_and_days_are_checked() {
        assert_eq!(parse_limit(""), Ok(None));
        assert_eq!(parse_limit("12"), Ok(Some(12)));
        assert!(parse_limit("-1").is_err() && parse_limit("x").is_err());
        assert_eq!(day(Some("2026-11-29")).as_deref(), Some("2026-11-29"));
        assert_eq!(day(Some("2026-13-01")), None);
        assert!(notice(Some("revoked")).is_some());
        assert_eq!(notice(Some("<script>")), None);
    }
}
