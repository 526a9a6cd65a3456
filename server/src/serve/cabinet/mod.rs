//! The web cabinet at `/cabinet/`: where a company's users sign in, manage their API keys and
//! webhooks, see their balance and usage, find their operations and review what Folio read.
//!
//! Server-side pages ([`minijinja`] templates embedded in the binary, escaped by default) and
//! plain forms; a small script only enhances (highlighting a field's box on the page). No CDN,
//! no inline script or style: the pages are served with a strict Content-Security-Policy.
//!
//! Security:
//! * users sign in with an e-mail and a password (argon2id hashes, [`password`]); sessions live
//!   in the database (the cookie holds a random token, the database its SHA-256), expire after
//!   [`SESSION_MS`] or [`IDLE_MS`] idle, and are ended by signing out or a password change;
//! * the session cookie is `__Host-` prefixed, `Secure`, `HttpOnly`, `SameSite=Strict`: the
//!   cabinet is for HTTPS (browsers also accept it on `http://127.0.0.1` and `localhost`);
//! * every form carries a CSRF token: the session's, or before sign-in a random value also set
//!   as a cookie (double submit); a form without it is refused (403);
//! * after [`MAX_FAILURES`] wrong passwords for an e-mail within [`FAILURE_WINDOW_MS`] further
//!   sign-ins of that e-mail are refused (429) until the window passes, counted in the database
//!   so every node of a deployment counts together;
//! * every query is scoped by the signed-in user's company: another company's key, webhook,
//!   delivery, operation or document answers 404 exactly like one that does not exist.

mod pages;
pub mod password;
mod review;

use super::AppState;
use super::db::DbError;
use super::store::{self, SessionUser};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use minijinja::Environment;
use serde::Serialize;
use std::sync::OnceLock;
use subtle::ConstantTimeEq;

/// The session cookie.
pub const SESSION_COOKIE: &str = "__Host-folio_session";
/// The CSRF cookie of the forms shown before sign-in.
pub const PRE_COOKIE: &str = "__Host-folio_csrf";
/// Longest life of a session.
pub const SESSION_MS: i64 = 12 * 3600 * 1000;
/// A session unused this long ends.
pub const IDLE_MS: i64 = 2 * 3600 * 1000;
/// How often a session's last use is written.
const TOUCH_EVERY_MS: i64 = 60_000;
/// Wrong passwords of an e-mail, within [`FAILURE_WINDOW_MS`], after which its sign-ins are
/// refused.
pub const MAX_FAILURES: i64 = 5;
/// The window of [`MAX_FAILURES`].
pub const FAILURE_WINDOW_MS: i64 = 15 * 60 * 1000;
/// Largest form body.
const MAX_FORM_BYTES: usize = 64 * 1024;

/// The cabinet's routes (merged into the server's router).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/cabinet", get(pages::home))
        .route("/cabinet/", get(pages::home))
        .route(
            "/cabinet/sign-in",
            get(pages::sign_in_form).post(pages::sign_in),
        )
        .route(
            "/cabinet/set-password",
            get(pages::set_password_form).post(pages::set_password),
        )
        .route("/cabinet/sign-out", post(pages::sign_out))
        .route("/cabinet/overview", get(pages::overview))
        .route("/cabinet/settings", post(pages::settings))
        .route("/cabinet/keys", get(pages::keys).post(pages::create_key))
        .route("/cabinet/keys/{id}/revoke", post(pages::revoke_key))
        .route("/cabinet/keys/{id}/limit", post(pages::key_limit))
        .route(
            "/cabinet/webhooks",
            get(pages::webhooks).post(pages::create_webhook),
        )
        .route(
            "/cabinet/webhooks/{id}",
            get(pages::webhook).post(pages::update_webhook),
        )
        .route("/cabinet/webhooks/{id}/test", post(pages::test_webhook))
        .route("/cabinet/operations", get(pages::operations))
        .route("/cabinet/operations/{id}", get(pages::operation))
        .route("/cabinet/deliveries/{id}/redeliver", post(pages::redeliver))
        .route("/cabinet/documents/{id}", get(review::review))
        .route(
            "/cabinet/documents/{id}/result.json",
            get(review::result_json),
        )
        .route(
            "/cabinet/documents/{id}/pages/{file}",
            get(review::page_image),
        )
        .route("/cabinet/static/{file}", get(asset))
        .route("/cabinet/{*rest}", get(not_found).post(not_found))
        .layer(middleware::map_response(security_headers))
}

/// Headers of every cabinet response: no framing, no sniffing, nothing loaded from elsewhere,
/// no referrer outside the site, pages never cached (they show a company's data).
async fn security_headers(mut resp: Response) -> Response {
    let h = resp.headers_mut();
    let set = |h: &mut HeaderMap, name: header::HeaderName, value: &'static str| {
        h.entry(name).or_insert(HeaderValue::from_static(value));
    };
    set(
        h,
        header::CONTENT_SECURITY_POLICY,
        "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; \
         form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    set(h, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(h, header::X_FRAME_OPTIONS, "DENY");
    set(h, header::REFERRER_POLICY, "same-origin");
    set(h, header::CACHE_CONTROL, "no-store");
    resp
}

/// The templates, compiled once.
fn templates() -> &'static Environment<'static> {
    static ENV: OnceLock<Environment<'static>> = OnceLock::new();
    ENV.get_or_init(|| {
        let mut env = Environment::new();
        for (name, text) in TEMPLATES {
            // The templates are part of the binary and tested: a broken one is a build defect.
            env.add_template(name, text)
                .unwrap_or_else(|e| panic!("cabinet template {name}: {e}"));
        }
        env
    })
}

/// Every template, by name.
const TEMPLATES: [(&str, &str); 12] = [
    ("base.html", include_str!("templates/base.html")),
    ("sign_in.html", include_str!("templates/sign_in.html")),
    (
        "set_password.html",
        include_str!("templates/set_password.html"),
    ),
    ("overview.html", include_str!("templates/overview.html")),
    ("keys.html", include_str!("templates/keys.html")),
    ("webhooks.html", include_str!("templates/webhooks.html")),
    ("webhook.html", include_str!("templates/webhook.html")),
    ("operations.html", include_str!("templates/operations.html")),
    ("operation.html", include_str!("templates/operation.html")),
    ("review.html", include_str!("templates/review.html")),
    ("error.html", include_str!("templates/error.html")),
    ("macros.html", include_str!("templates/macros.html")),
];

/// Static files.
const ASSETS: [(&str, &str, &str); 2] = [
    (
        "cabinet.css",
        "text/css; charset=utf-8",
        include_str!("static/cabinet.css"),
    ),
    (
        "cabinet.js",
        "text/javascript; charset=utf-8",
        include_str!("static/cabinet.js"),
    ),
];

async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, mime, body)) => (
            [
                (header::CONTENT_TYPE, *mime),
                (header::CACHE_CONTROL, "public, max-age=3600"),
            ],
            *body,
        )
            .into_response(),
        None => Page::error(StatusCode::NOT_FOUND, "No such file.").into_response(),
    }
}

async fn not_found() -> Response {
    Page::error(StatusCode::NOT_FOUND, "There is no such page.").into_response()
}

/// A rendered page, or an error shown as one.
pub struct Page {
    status: StatusCode,
    html: String,
    cookies: Vec<String>,
}

impl Page {
    /// Renders `template` with `ctx`.
    pub fn render(template: &str, ctx: impl Serialize) -> Page {
        Self::render_status(StatusCode::OK, template, ctx)
    }

    /// Renders `template` with `ctx`, answered with `status`.
    pub fn render_status(status: StatusCode, template: &str, ctx: impl Serialize) -> Page {
        let html = templates()
            .get_template(template)
            .and_then(|t| t.render(ctx));
        match html {
            Ok(html) => Page {
                status,
                html,
                cookies: Vec::new(),
            },
            Err(e) => {
                eprintln!("folio serve: cabinet template {template}: {e:#}");
                Page::error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "The page cannot be shown.",
                )
            }
        }
    }

    /// An error page.
    pub fn error(status: StatusCode, message: &str) -> Page {
        let ctx = minijinja::context! { status => status.as_u16(), message => message };
        match templates()
            .get_template("error.html")
            .and_then(|t| t.render(ctx))
        {
            Ok(html) => Page {
                status,
                html,
                cookies: Vec::new(),
            },
            Err(_) => Page {
                status,
                html: String::from("<!doctype html><title>Error</title><p>Error</p>"),
                cookies: Vec::new(),
            },
        }
    }

    /// Adds a `Set-Cookie`.
    pub fn with_cookie(mut self, cookie: String) -> Page {
        self.cookies.push(cookie);
        self
    }
}

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        let mut resp = (
            self.status,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            self.html,
        )
            .into_response();
        for c in self.cookies {
            if let Ok(v) = HeaderValue::from_str(&c) {
                resp.headers_mut().append(header::SET_COOKIE, v);
            }
        }
        resp
    }
}

impl From<DbError> for Page {
    fn from(e: DbError) -> Page {
        eprintln!("folio serve: cabinet: {e}");
        Page::error(
            StatusCode::SERVICE_UNAVAILABLE,
            "The database cannot be reached just now; please try again.",
        )
    }
}

/// A 303 redirect to `to` (a path of the cabinet).
pub fn redirect(to: &str) -> Response {
    (StatusCode::SEE_OTHER, [(header::LOCATION, to.to_string())]).into_response()
}

/// A 303 redirect to `to` that also sets a cookie (`Set-Cookie` value).
pub fn redirect_setting(to: &str, set_cookie: &str) -> Response {
    let mut r = redirect(to);
    if let Ok(v) = HeaderValue::from_str(set_cookie) {
        r.headers_mut().append(header::SET_COOKIE, v);
    }
    r
}

/// A `Set-Cookie` value with the flags every cabinet cookie has.
pub fn cookie(name: &str, value: &str, max_age_secs: i64) -> String {
    format!("{name}={value}; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age={max_age_secs}")
}

/// The value of cookie `name` in the request.
pub fn read_cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// Whether two secrets are equal, in constant time.
pub fn same_secret(a: &str, b: &str) -> bool {
    !a.is_empty() && a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// A submitted form (`application/x-www-form-urlencoded`), fields in order (a name may repeat:
/// checkboxes).
#[derive(Debug, Default)]
pub struct Fields(Vec<(String, String)>);

impl Fields {
    /// Parses a form body; `None` unless it is a URL-encoded form of at most
    /// [`MAX_FORM_BYTES`].
    pub fn parse(headers: &HeaderMap, body: &Bytes) -> Option<Fields> {
        let form = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
        (form && body.len() <= MAX_FORM_BYTES).then(|| {
            Fields(
                url::form_urlencoded::parse(body)
                    .map(|(k, v)| (k.into_owned(), v.into_owned()))
                    .collect(),
            )
        })
    }

    /// The first value of `name`, trimmed.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
    }

    /// The first value of `name`, trimmed, `""` when absent.
    pub fn text(&self, name: &str) -> &str {
        self.get(name).unwrap_or("")
    }

    /// Every value of `name`.
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// Whether a checkbox `name` was ticked.
    pub fn ticked(&self, name: &str) -> bool {
        self.get(name).is_some_and(|v| !v.is_empty())
    }
}

/// The signed-in user of a request (its session checked in the database).
pub struct Session {
    /// The user.
    pub user: SessionUser,
    /// SHA-256 of the cookie's token (the session's key).
    pub id_hash: String,
}

impl Session {
    /// Checks a submitted form's CSRF token against this session's.
    pub fn check_form(&self, headers: &HeaderMap, body: &Bytes) -> Result<Fields, Page> {
        let fields = Fields::parse(headers, body)
            .ok_or_else(|| Page::error(StatusCode::BAD_REQUEST, "The form could not be read."))?;
        if same_secret(fields.text("csrf"), &self.user.csrf) {
            Ok(fields)
        } else {
            Err(csrf_refused())
        }
    }

    /// Renders a page of the cabinet's `section`: the layout's context, the page's own `ctx`,
    /// then `extra` (what an action adds: a notice, an error, a secret shown once).
    pub fn page(
        &self,
        status: StatusCode,
        template: &str,
        section: &str,
        ctx: minijinja::Value,
        extra: &serde_json::Value,
    ) -> Page {
        Page::render_status(
            status,
            template,
            minijinja::context! {
                ..self.layout(section),
                ..ctx,
                ..minijinja::Value::from_serialize(extra)
            },
        )
    }

    /// What every page's layout needs.
    pub fn layout(&self, section: &str) -> minijinja::Value {
        minijinja::context! {
            user => minijinja::context! {
                email => self.user.email,
                company_name => self.user.company_name,
                company_id => self.user.company_id,
            },
            csrf => self.user.csrf,
            section => section,
        }
    }
}

/// The page of a form whose CSRF token is missing or wrong.
pub fn csrf_refused() -> Page {
    Page::error(
        StatusCode::FORBIDDEN,
        "This form was not sent from a page of the cabinet, or it has expired. Go back, reload \
         the page and send it again.",
    )
}

impl FromRequestParts<AppState> for Session {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let to_sign_in = || {
            let back = parts
                .uri
                .path_and_query()
                .map(|p| p.as_str())
                .filter(|p| parts.method == axum::http::Method::GET && is_cabinet_path(p))
                .map(|p| format!("?next={}", url_encode(p)))
                .unwrap_or_default();
            redirect(&format!("/cabinet/sign-in{back}"))
        };
        let Some(token) = read_cookie(&parts.headers, SESSION_COOKIE) else {
            return Err(to_sign_in());
        };
        let id_hash = store::hash_secret(&token);
        let now = super::model::now_ms();
        let lookup = id_hash.clone();
        let user = state
            .db
            .call(move |c| store::session_user(c, &lookup, now, IDLE_MS))
            .await
            .map_err(|e| Page::from(e).into_response())?;
        let Some(user) = user else {
            return Err(to_sign_in());
        };
        if now - user.seen_ms > TOUCH_EVERY_MS {
            let h = id_hash.clone();
            state
                .db
                .call(move |c| store::touch_session(c, &h, now))
                .await
                .map_err(|e| Page::from(e).into_response())?;
        }
        Ok(Session { user, id_hash })
    }
}

/// Whether `p` is a path of the cabinet (a sign-in goes back only there: no open redirect).
pub fn is_cabinet_path(p: &str) -> bool {
    p.starts_with("/cabinet/") && !p.starts_with("//") && !p.contains('\\')
}

/// Percent-encodes a query value.
pub fn url_encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_compiles_and_the_error_page_renders() {
        let env = templates();
        for (name, _) in TEMPLATES {
            assert!(env.get_template(name).is_ok(), "{name}");
        }
        let p = Page::error(StatusCode::NOT_FOUND, "<b>gone</b>");
        assert_eq!(p.status, StatusCode::NOT_FOUND);
        assert!(p.html.contains("&lt;b&gt;gone&lt;"), "escaped: {}", p.html);
    }

    #[test]
    fn cookies_are_read_and_written_with_their_flags() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; __Host-folio_session=abc; b=2"),
        );
        assert_eq!(read_cookie(&h, SESSION_COOKIE).as_deref(), Some("abc"));
        assert_eq!(read_cookie(&h, "c"), None);
        let c = cookie(SESSION_COOKIE, "v", 60);
        for flag in [
            "Secure",
            "HttpOnly",
            "SameSite=Strict",
            "Path=/",
            "Max-Age=60",
        ] {
            assert!(c.contains(flag), "{c}");
        }
    }

    #[test]
    fn forms_and_secrets() {
        let mut h = HeaderMap::new();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
        let f = Fields::parse(&h, &Bytes::from_static(b"p=a&p=b&n=+x+&c=on&e=")).unwrap();
        assert_eq!(f.all("p"), ["a", "b"]);
        assert_eq!(f.get("n"), Some("x"));
        assert!(f.ticked("c") && !f.ticked("e") && !f.ticked("z"));
        assert!(Fields::parse(&HeaderMap::new(), &Bytes::from_static(b"a=1")).is_none());
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd") && !same_secret("", "") && !same_secret("a", "ab"));
        assert!(is_cabinet_path("/cabinet/keys?x=1"));
        assert!(!is_cabinet_path("//evil.example/cabinet/"));
        assert!(!is_cabinet_path("https://evil.example/cabinet/"));
    }
}
