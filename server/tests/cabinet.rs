//! The web cabinet over real HTTP, as a browser speaks to it (cookies, forms, redirects), against
//! the real binary: sign-in and its throttling, the one-time password link, sessions and their
//! cookie flags, CSRF on every form, key creation and revocation (the API then refuses the
//! key), and that no page or action reaches another company's data. The same flows in a real
//! browser: `browser.rs`.

mod common;

use common::*;
use reqwest::blocking::Client;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A browser without a browser: keeps cookies, follows nothing, sends forms.
struct Visitor<'a> {
    server: &'a Server,
    http: Client,
    cookies: HashMap<String, String>,
}

/// An answer: status, headers (lower-case names), body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    fn set_cookies(&self) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(k, _)| k == "set-cookie")
            .map(|(_, v)| v.as_str())
            .collect()
    }
    /// The value of the first `name="csrf"` field of the page.
    fn csrf(&self) -> String {
        field_value(&self.body, "csrf").expect("the page has a CSRF field")
    }
}

/// The `value` of the first input named `name` in `html`.
fn field_value(html: &str, name: &str) -> Option<String> {
    let at = html.find(&format!("name=\"{name}\""))?;
    let rest = &html[at..];
    let v = rest.find("value=\"")? + "value=\"".len();
    let end = rest[v..].find('"')?;
    Some(rest[v..v + end].to_string())
}

impl<'a> Visitor<'a> {
    fn new(server: &'a Server) -> Self {
        Visitor {
            server,
            http: Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .timeout(Duration::from_secs(120))
                .build()
                .expect("client"),
            cookies: HashMap::new(),
        }
    }

    fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn keep(&mut self, resp: reqwest::blocking::Response) -> Answer {
        let status = resp.status().as_u16();
        let headers: Vec<(String, String)> = resp
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        for (k, v) in &headers {
            if k == "set-cookie"
                && let Some((name, rest)) = v.split_once('=')
            {
                let value = rest.split(';').next().unwrap_or("").to_string();
                if value.is_empty() || v.contains("Max-Age=0") {
                    self.cookies.remove(name);
                } else {
                    self.cookies.insert(name.to_string(), value);
                }
            }
        }
        let body = resp.text().unwrap_or_default();
        Answer {
            status,
            headers,
            body,
        }
    }

    fn get(&mut self, path: &str) -> Answer {
        let r = self
            .http
            .get(self.server.url(path))
            .header("cookie", self.cookie_header())
            .send()
            .expect("GET");
        self.keep(r)
    }

    fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Answer {
        let body: String = url::form_urlencoded::Serializer::new(String::new())
            .extend_pairs(fields)
            .finish();
        let r = self
            .http
            .post(self.server.url(path))
            .header("cookie", self.cookie_header())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .expect("POST");
        self.keep(r)
    }

    /// Signs in (the sign-in page first, for its CSRF cookie); returns the POST's answer.
    fn sign_in(&mut self, email: &str, password: &str) -> Answer {
        let page = self.get("/cabinet/sign-in");
        assert_eq!(page.status, 200);
        let csrf = page.csrf();
        self.post(
            "/cabinet/sign-in",
            &[("csrf", &csrf), ("email", email), ("password", password)],
        )
    }

    /// The CSRF token of a signed-in page.
    fn csrf(&mut self) -> String {
        let page = self.get("/cabinet/overview");
        assert_eq!(page.status, 200, "signed in");
        page.csrf()
    }
}

/// Every form control a person fills in (inputs but hidden ones, selects) has an id and a
/// `<label for>` naming it: screen readers announce it, a click on the text focuses it.
/// Returns how many there are.
fn assert_labelled(html: &str, page: &str) -> usize {
    let mut controls = 0;
    for tag in ["<input ", "<select "] {
        for (at, _) in html.match_indices(tag) {
            let end = html[at..].find('>').map_or(html.len(), |e| at + e);
            let element = &html[at..end];
            if element.contains("type=\"hidden\"") {
                continue;
            }
            controls += 1;
            let id = field_value(
                &element.replace(" id=\"", " name=\"__id\" value=\""),
                "__id",
            )
            .unwrap_or_else(|| panic!("{page}: a control without an id: {element}"));
            assert!(
                html.contains(&format!("<label for=\"{id}\"")),
                "{page}: no label for {element}"
            );
        }
    }
    controls
}

/// `folio admin user create` with the password on stdin.
fn user_with_password(dir: &Path, company: &str, email: &str, password: &str) {
    let mut child = Command::new(bin())
        .args([
            "admin",
            "user",
            "create",
            "--company",
            company,
            "--email",
            email,
        ])
        .arg("--password-stdin")
        .arg("--data-dir")
        .arg(dir)
        .args(postgres::database_args(dir))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("admin runs");
    writeln!(child.stdin.take().expect("stdin"), "{password}").expect("write");
    let out = child.wait_with_output().expect("admin ends");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn key_status(s: &Server, key: &str) -> u16 {
    client()
        .get(s.url("/api/v1/auth/limits"))
        .bearer_auth(key)
        .send()
        .expect("GET limits")
        .status()
        .as_u16()
}

#[test]
fn sign_in_sessions_csrf_throttling_and_keys() {
    let dir = tempfile::tempdir().unwrap();
    let (company, _) = company_and_key(dir.path(), 100);
    user_with_password(
        dir.path(),
        &company,
        "Ann@Example.com",
        "ann's long password",
    );
    user_with_password(
        dir.path(),
        &company,
        "bob@example.com",
        "bob's long password",
    );
    let s = Server::start(dir.path(), &[]);
    let mut v = Visitor::new(&s);

    // Signed out: every page sends to the sign-in page, remembering where it was going.
    let r = v.get("/cabinet/keys");
    assert_eq!(r.status, 303);
    assert_eq!(
        r.header("location"),
        Some("/cabinet/sign-in?next=%2Fcabinet%2Fkeys")
    );
    for h in [
        "content-security-policy",
        "x-frame-options",
        "x-content-type-options",
    ] {
        assert!(r.header(h).is_some(), "{h} is set");
    }

    // The sign-in form's CSRF token is double-submitted: without it (or with another) refused.
    let page = v.get("/cabinet/sign-in");
    let pre = page
        .set_cookies()
        .into_iter()
        .find(|c| c.starts_with("__Host-folio_csrf="))
        .expect("a CSRF cookie")
        .to_string();
    for flag in ["Secure", "HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(pre.contains(flag), "{pre}");
    }
    let r = v.post(
        "/cabinet/sign-in",
        &[
            ("email", "bob@example.com"),
            ("password", "bob's long password"),
        ],
    );
    assert_eq!(r.status, 403, "no CSRF token");
    let r = v.post(
        "/cabinet/sign-in",
        &[
            ("csrf", &"0".repeat(64)),
            ("email", "bob@example.com"),
            ("password", "bob's long password"),
        ],
    );
    assert_eq!(r.status, 403, "a wrong CSRF token");

    // Wrong passwords: 401 each, then sign-in of that e-mail is paused (429), even with the
    // right password; another e-mail is not affected.
    for _ in 0..5 {
        assert_eq!(v.sign_in("ann@example.com", "not the password").status, 401);
    }
    let r = v.sign_in("ANN@example.com", "ann's long password");
    assert_eq!(r.status, 429, "paused after 5 wrong passwords");
    assert!(r.body.contains("Too many wrong passwords"));
    assert!(!v.cookies.contains_key("__Host-folio_session"));
    assert_eq!(
        v.sign_in("nobody@example.com", "whatever it is").status,
        401
    );

    // Bob: two wrong, then right: signed in, the session cookie has every flag.
    assert_eq!(v.sign_in("bob@example.com", "nope nope nope").status, 401);
    let r = v.sign_in("bob@example.com", "bob's long password");
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location"), Some("/cabinet/overview"));
    let session = r
        .set_cookies()
        .into_iter()
        .find(|c| c.starts_with("__Host-folio_session="))
        .expect("a session cookie")
        .to_string();
    for flag in ["Secure", "HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(session.contains(flag), "{session}");
    }
    assert!(!session.contains("Domain="), "{session}");
    let overview = v.get("/cabinet/overview");
    assert_eq!(overview.status, 200);
    assert!(overview.body.contains("Test GmbH") && overview.body.contains("bob@example.com"));
    assert_eq!(overview.header("cache-control"), Some("no-store"));

    // A form without the session's CSRF token is refused and changes nothing.
    let r = v.post(
        "/cabinet/keys",
        &[("name", "sneaky"), ("permission", "usage:read")],
    );
    assert_eq!(r.status, 403);
    assert!(!v.get("/cabinet/keys").body.contains("sneaky"));
    let csrf = v.csrf();
    let r = v.post(
        "/cabinet/keys",
        &[
            ("csrf", &"f".repeat(64)),
            ("name", "sneaky"),
            ("permission", "usage:read"),
        ],
    );
    assert_eq!(r.status, 403);

    // A key made in the cabinet works on the API; revoked, it is refused (401).
    let r = v.post(
        "/cabinet/keys",
        &[
            ("csrf", &csrf),
            ("name", "erp import"),
            ("permission", "usage:read"),
            ("permission", "operations:read"),
            ("monthly_limit", "250"),
        ],
    );
    assert_eq!(r.status, 200);
    let key = field_value(&r.body, "api_key").expect("the new key is shown");
    assert!(key.starts_with("fk_"), "{key}");
    assert_eq!(key_status(&s, &key), 200);
    let keys = v.get("/cabinet/keys");
    assert!(keys.body.contains("erp import") && keys.body.contains("250"));
    assert!(!keys.body.contains(&key), "the secret is shown only once");
    // Its use is recorded (in the background, at most once a minute): "last used" is shown.
    let key_row = |body: &str, id: &str| -> String {
        let at = body
            .find(&format!("<tr id=\"{id}\">"))
            .expect("the key's row");
        body[at..].split("</tr>").next().unwrap().to_string()
    };
    let key_id = format!("key_{}", &key[3..27]);
    let mut shown = String::new();
    for _ in 0..100 {
        shown = key_row(&v.get("/cabinet/keys").body, &key_id);
        if !shown.contains("never") {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!shown.contains("never"), "last used is shown: {shown}");
    let key_id = format!("key_{}", &key[3..27]);
    let r = v.post(
        &format!("/cabinet/keys/{key_id}/limit"),
        &[("csrf", &csrf), ("monthly_limit", "x")],
    );
    assert_eq!(r.status, 400);
    let r = v.post(
        &format!("/cabinet/keys/{key_id}/limit"),
        &[("csrf", &csrf), ("monthly_limit", "7")],
    );
    assert_eq!(r.status, 303);
    let limits: Value = client()
        .get(s.url("/api/v1/auth/limits"))
        .bearer_auth(&key)
        .send()
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(limits["monthly_document_limit"], 7);
    let r = v.post(&format!("/cabinet/keys/{key_id}/revoke"), &[]);
    assert_eq!(r.status, 403, "revoking needs the CSRF token too");
    assert_eq!(key_status(&s, &key), 200);
    let r = v.post(
        &format!("/cabinet/keys/{key_id}/revoke"),
        &[("csrf", &csrf)],
    );
    assert_eq!(r.status, 303);
    assert_eq!(key_status(&s, &key), 401);

    // Every form control of every page has a label.
    for path in [
        "/cabinet/overview",
        "/cabinet/keys",
        "/cabinet/webhooks",
        "/cabinet/operations",
    ] {
        assert!(assert_labelled(&v.get(path).body, path) > 0, "{path}");
    }
    let sign_in = Visitor::new(&s).get("/cabinet/sign-in").body;
    assert_eq!(assert_labelled(&sign_in, "sign-in"), 2);

    // The enhanced-recognition default is a company setting.
    let r = v.post(
        "/cabinet/settings",
        &[("csrf", &csrf), ("heavy_default", "on")],
    );
    assert_eq!(r.status, 303);
    let shown = admin(dir.path(), &["company", "show", "--company", &company]);
    assert_eq!(shown["heavy_default"], true);

    // Signing out ends the session on the server: the old cookie no longer works.
    let old = v.cookies.get("__Host-folio_session").cloned().unwrap();
    let r = v.post("/cabinet/sign-out", &[("csrf", &csrf)]);
    assert_eq!(r.status, 303);
    v.cookies.insert("__Host-folio_session".into(), old);
    assert_eq!(v.get("/cabinet/overview").status, 303);
}

#[test]
fn a_one_time_link_sets_the_password() {
    let dir = tempfile::tempdir().unwrap();
    let (company, _) = company_and_key(dir.path(), 1);
    let created = admin(
        dir.path(),
        &[
            "user",
            "create",
            "--company",
            &company,
            "--email",
            "carol@example.com",
            "--public-url",
            "https://folio.example.com/",
        ],
    );
    let link = created["set_password_link"]
        .as_str()
        .expect("a link")
        .to_string();
    let path = link
        .strip_prefix("https://folio.example.com")
        .expect("on the public URL")
        .to_string();
    // The same e-mail twice, an unknown company: refused.
    let out = Command::new(bin())
        .args([
            "admin",
            "user",
            "create",
            "--company",
            &company,
            "--email",
            "CAROL@example.com",
        ])
        .arg("--data-dir")
        .arg(dir.path())
        .args(postgres::database_args(dir.path()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let s = Server::start(dir.path(), &[]);
    let mut v = Visitor::new(&s);
    let form = v.get(&path);
    assert_eq!(form.status, 200);
    assert!(form.body.contains("carol@example.com"));
    let csrf = form.csrf();
    let token = field_value(&form.body, "token").unwrap();
    let r = v.post(
        "/cabinet/set-password",
        &[
            ("csrf", &csrf),
            ("token", &token),
            ("password", "short"),
            ("password2", "short"),
        ],
    );
    assert_eq!(r.status, 400);
    let r = v.post(
        "/cabinet/set-password",
        &[
            ("csrf", &csrf),
            ("token", &token),
            ("password", "a good long password"),
            ("password2", "a good long password!"),
        ],
    );
    assert_eq!(r.status, 400, "the two differ");
    let r = v.post(
        "/cabinet/set-password",
        &[
            ("token", &token),
            ("password", "a good long password"),
            ("password2", "a good long password"),
        ],
    );
    assert_eq!(r.status, 403, "no CSRF token");
    let r = v.post(
        "/cabinet/set-password",
        &[
            ("csrf", &csrf),
            ("token", &token),
            ("password", "a good long password"),
            ("password2", "a good long password"),
        ],
    );
    assert_eq!(r.status, 303);
    assert_eq!(v.get("/cabinet/overview").status, 200, "signed in");
    // The link is spent; a new one can be made.
    assert_eq!(Visitor::new(&s).get(&path).status, 404);
    let again = admin(
        dir.path(),
        &["user", "link", "--email", "carol@example.com"],
    );
    assert!(
        again["set_password_link"]
            .as_str()
            .unwrap()
            .contains("token=")
    );
    let mut w = Visitor::new(&s);
    let signed_in = w.sign_in("carol@example.com", "a good long password");
    assert_eq!(signed_in.status, 303);
    // Disabled: its sessions end at once and signing in fails.
    let off = admin(
        dir.path(),
        &["user", "disable", "--email", "carol@example.com"],
    );
    assert_eq!(off["status"], "DISABLED");
    assert_eq!(w.get("/cabinet/overview").status, 303);
    assert_eq!(v.get("/cabinet/overview").status, 303);
    assert_eq!(
        w.sign_in("carol@example.com", "a good long password")
            .status,
        401
    );
}

#[test]
fn no_page_or_action_reaches_another_company() {
    let dir = tempfile::tempdir().unwrap();
    let receiver = Receiver::start(|_| 500, Duration::ZERO);
    let (alpha, alpha_key) = company_and_key(dir.path(), 50);
    let (beta, _) = company_and_key(dir.path(), 50);
    user_with_password(dir.path(), &alpha, "a@alpha.example", "alpha's password!");
    user_with_password(dir.path(), &beta, "b@beta.example", "beta's password!!");
    let s = Server::start(dir.path(), &[]);

    // Alpha: a named key, a webhook (one attempt, fails), a processed document.
    let mut a = Visitor::new(&s);
    assert_eq!(
        a.sign_in("a@alpha.example", "alpha's password!").status,
        303
    );
    let csrf_a = a.csrf();
    let r = a.post(
        "/cabinet/keys",
        &[
            ("csrf", &csrf_a),
            ("name", "alpha-secret-key-name"),
            ("permission", "usage:read"),
        ],
    );
    assert_eq!(r.status, 200);
    let r = a.post(
        "/cabinet/webhooks",
        &[
            ("csrf", &csrf_a),
            ("name", "alpha-hook-name"),
            ("url", &receiver.url),
            ("is_default", "on"),
            ("max_delivery_attempts", "1"),
            ("retry_delays_sec", "5"),
        ],
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let hooks = a.get("/cabinet/webhooks");
    let at = hooks
        .body
        .find("/cabinet/webhooks/wh_")
        .expect("the webhook is listed");
    let hook_id = hooks.body[at + "/cabinet/webhooks/".len()..]
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let (status, op) = upload(&s, &alpha_key, "alpha-1", form(&["invoice_en_text.pdf"]));
    assert_eq!(status, 202, "{op}");
    let op_id = op["operation_id"].as_str().unwrap().to_string();
    let doc_id = op["documents"][0]["document_id"]
        .as_str()
        .unwrap()
        .to_string();
    wait_final(&s, &alpha_key, &op_id, Duration::from_secs(120));
    // The delivery fails (500, one attempt) and can be sent again from the cabinet.
    let mut delivery_id = String::new();
    for _ in 0..200 {
        let page = a.get(&format!("/cabinet/operations/{op_id}"));
        if let Some(at) = page.body.find("/cabinet/deliveries/dlv_")
            && page.body.contains("s-failed")
        {
            delivery_id = page.body[at + "/cabinet/deliveries/".len()..]
                .split('/')
                .next()
                .unwrap()
                .to_string();
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(!delivery_id.is_empty(), "a failed delivery is listed");
    let before = receiver.received().len();
    let r = a.post(
        &format!("/cabinet/deliveries/{delivery_id}/redeliver"),
        &[("csrf", &csrf_a), ("operation_id", &op_id)],
    );
    assert_eq!(r.status, 303);
    receiver.wait_for(Duration::from_secs(30), |got| got.len() > before);

    let hook_page = a.get(&format!("/cabinet/webhooks/{hook_id}")).body;
    assert!(assert_labelled(&hook_page, "webhook") >= 7);
    assert_labelled(
        &a.get(&format!("/cabinet/operations/{op_id}")).body,
        "operation",
    );

    // Alpha's own review page shows its page with boxes and the JSON.
    let review = a.get(&format!("/cabinet/documents/{doc_id}"));
    assert_eq!(review.status, 200, "{}", review.body);
    assert!(review.body.contains("<rect class=\"box"), "boxes drawn");
    let img = a.get(&format!("/cabinet/documents/{doc_id}/pages/page-1.png"));
    assert_eq!(img.status, 200);
    assert_eq!(img.header("content-type"), Some("image/png"));
    assert_eq!(
        a.get(&format!("/cabinet/documents/{doc_id}/result.json"))
            .status,
        200
    );
    assert_eq!(
        a.get(&format!("/cabinet/documents/{doc_id}/pages/pages.json"))
            .status,
        404
    );

    // An office document has no page image: its review page says so and still lists the
    // fields.
    let (status, office) = upload(&s, &alpha_key, "alpha-2", form(&["invoice_en_docx.docx"]));
    assert_eq!(status, 202, "{office}");
    let office_op = office["operation_id"].as_str().unwrap();
    wait_final(&s, &alpha_key, office_op, Duration::from_secs(120));
    let office_doc = office["documents"][0]["document_id"].as_str().unwrap();
    let review = a.get(&format!("/cabinet/documents/{office_doc}"));
    assert_eq!(review.status, 200);
    assert!(review.body.contains("No page image"), "{}", review.body);
    assert!(
        review.body.contains("tr class=\"field"),
        "fields are listed"
    );

    // Beta sees none of it: every id of alpha's answers as if it did not exist, and no page of
    // beta's shows anything of alpha's.
    let mut b = Visitor::new(&s);
    assert_eq!(b.sign_in("b@beta.example", "beta's password!!").status, 303);
    let csrf_b = b.csrf();
    for path in [
        format!("/cabinet/documents/{doc_id}"),
        format!("/cabinet/documents/{doc_id}/pages/page-1.png"),
        format!("/cabinet/documents/{doc_id}/result.json"),
        format!("/cabinet/operations/{op_id}"),
        format!("/cabinet/webhooks/{hook_id}"),
    ] {
        assert_eq!(b.get(&path).status, 404, "GET {path}");
    }
    let alpha_key_id = format!("key_{}", &alpha_key[3..27]);
    for path in [
        format!("/cabinet/keys/{alpha_key_id}/revoke"),
        format!("/cabinet/keys/{alpha_key_id}/limit"),
        format!("/cabinet/webhooks/{hook_id}/test"),
        format!("/cabinet/deliveries/{delivery_id}/redeliver"),
    ] {
        assert_eq!(
            b.post(&path, &[("csrf", &csrf_b)]).status,
            404,
            "POST {path}"
        );
    }
    let r = b.post(
        &format!("/cabinet/webhooks/{hook_id}"),
        &[
            ("csrf", &csrf_b),
            ("url", &receiver.url),
            ("max_delivery_attempts", "1"),
            ("retry_delays_sec", "5"),
        ],
    );
    assert_eq!(r.status, 404);
    assert_eq!(key_status(&s, &alpha_key), 200, "alpha's key still works");
    let secrets = [
        alpha.as_str(),
        op_id.as_str(),
        doc_id.as_str(),
        hook_id.as_str(),
        alpha_key_id.as_str(),
        "alpha-secret-key-name",
        "alpha-hook-name",
        "invoice_en_text.pdf",
        "invoice_en_docx.docx",
        "a@alpha.example",
    ];
    for path in [
        "/cabinet/overview".to_string(),
        "/cabinet/keys".to_string(),
        "/cabinet/webhooks".to_string(),
        "/cabinet/operations".to_string(),
        format!("/cabinet/operations?q={op_id}"),
        "/cabinet/operations?q=invoice".to_string(),
    ] {
        let page = b.get(&path);
        assert_eq!(page.status, 200, "{path}");
        // A search box shows what was typed in it; nothing else of alpha's may appear.
        let typed = path.split_once("?q=").map(|(_, q)| q).unwrap_or("\u{0}");
        for secret in secrets.iter().filter(|s| !s.contains(typed)) {
            assert!(!page.body.contains(secret), "{path} shows {secret}");
        }
        if path.contains("?q=") {
            assert!(page.body.contains("No operations match."), "{path}");
        }
    }
    assert!(b.get("/cabinet/overview").body.contains(&beta));
}

#[test]
fn webhooks_follow_the_api_url_rules() {
    let dir = tempfile::tempdir().unwrap();
    let (company, _) = company_and_key(dir.path(), 1);
    user_with_password(dir.path(), &company, "w@example.com", "webhook password");
    // The default rules: https only, no private or loopback addresses.
    let s = Server::start_with(dir.path(), &[]);
    let mut v = Visitor::new(&s);
    assert_eq!(v.sign_in("w@example.com", "webhook password").status, 303);
    let csrf = v.csrf();
    let create = |v: &mut Visitor, url: &str, attempts: &str, delays: &str| {
        v.post(
            "/cabinet/webhooks",
            &[
                ("csrf", &csrf),
                ("name", "hook"),
                ("url", url),
                ("max_delivery_attempts", attempts),
                ("retry_delays_sec", delays),
            ],
        )
    };
    for (url, attempts, delays, why) in [
        ("http://example.com/hook", "3", "10", "https"),
        ("https://127.0.0.1/hook", "3", "10", ""),
        ("https://10.1.2.3/hook", "3", "10", ""),
        ("not a url", "3", "10", ""),
        ("https://example.com/hook", "0", "10", "Delivery attempts"),
        ("https://example.com/hook", "3", "ten", "Retry delays"),
        ("https://example.com/hook", "3", "", "Retry delays"),
    ] {
        let r = create(&mut v, url, attempts, delays);
        assert_eq!(r.status, 400, "{url} {attempts} {delays}");
        assert!(r.body.contains("class=\"error\""), "the problem is shown");
        assert!(r.body.contains(why), "{url} {attempts} {delays}: {why}");
    }
    assert!(v.get("/cabinet/webhooks").body.contains("No webhooks yet."));
}
