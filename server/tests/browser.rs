//! The web cabinet in a real browser: headless Chromium driven through chromedriver (WebDriver,
//! Debian's `chromium` and `chromium-driver`, installed by `scripts/setup.sh`), against the real
//! binary. A user sets a password from the one-time link, signs out and in, creates and revokes
//! an API key (the API then answers 401), creates and edits a webhook and sends it a test event
//! (a local receiver gets it, signed), finds an operation uploaded through the API and opens
//! its review page (the page images load, a box is drawn for the fields). A screenshot of every
//! page is written to `target/tmp/cabinet-screenshots/` for a person to look at, at laptop and
//! at phone width.

mod common;

use common::*;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// chromedriver on a free loopback port, stopped on drop.
struct Driver {
    child: Child,
    url: String,
    _profile: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A program on the PATH or in /usr/bin.
fn program(name: &str) -> PathBuf {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .chain([PathBuf::from("/usr/bin")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{name} is not installed: run scripts/setup.sh"))
}

fn start_driver() -> Driver {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(program("chromedriver"))
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let url = format!("http://127.0.0.1:{port}");
    let started = Instant::now();
    while reqwest::blocking::get(format!("{url}/status")).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "chromedriver answers"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    Driver {
        child,
        url,
        _profile: tempfile::tempdir().expect("profile dir"),
    }
}

async fn browser(driver: &Driver) -> Client {
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": program("chromium"),
            "args": [
                "--headless=new",
                "--no-sandbox",
                "--disable-dev-shm-usage",
                "--disable-gpu",
                "--window-size=1280,1000",
                format!("--user-data-dir={}", driver._profile.path().display()),
            ],
        },
    });
    let caps = match caps {
        Value::Object(m) => m,
        _ => unreachable!(),
    };
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a Chromium session")
}

fn shots_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cabinet-screenshots");
    std::fs::create_dir_all(&d).expect("screenshot dir");
    d
}

async fn shot(c: &Client, name: &str) {
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(shots_dir().join(format!("{name}.png")), png).expect("write screenshot");
}

async fn fill(c: &Client, css: &str, text: &str) {
    let e = c
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"));
    e.clear().await.expect("clear");
    e.send_keys(text).await.expect("type");
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("click {css}: {e}"));
}

async fn text_of(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .text()
        .await
        .expect("text")
}

/// Clicks what `l` finds, looking again while the page is being replaced (an element of the
/// page that is going away goes stale).
async fn click_when_there(c: &Client, l: Locator<'_>) {
    let started = Instant::now();
    loop {
        let clicked = match c.find(l).await {
            Ok(e) => e.click().await.is_ok(),
            Err(_) => false,
        };
        if clicked {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "never clicked {l:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the text of `css` contains `needle` (the page may be loading: elements that
/// went stale are looked up again).
async fn wait_text(c: &Client, css: &str, needle: &str) -> String {
    let started = Instant::now();
    loop {
        if let Ok(e) = c.find(Locator::Css(css)).await
            && let Ok(t) = e.text().await
            && t.contains(needle)
        {
            return t;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{css} never showed {needle:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn value_of(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .prop("value")
        .await
        .expect("value")
        .unwrap_or_default()
}

/// The value of `css` once the page shows one other than `old` (a form was sent and the
/// answer is loading).
async fn new_value(c: &Client, css: &str, old: &str) -> String {
    let started = Instant::now();
    loop {
        if let Ok(e) = c.find(Locator::Css(css)).await
            && let Ok(Some(v)) = e.prop("value").await
            && !v.is_empty()
            && v != old
        {
            return v;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{css} never got a new value"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn path_of(c: &Client) -> String {
    c.current_url().await.expect("url").path().to_string()
}

/// Waits until the page's path is `path`.
async fn wait_path(c: &Client, path: &str) {
    let started = Instant::now();
    while path_of(c).await != path {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "still on {} waiting for {path}",
            path_of(c).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn limits_status(s: &Server, key: &str) -> u16 {
    client()
        .get(s.url("/api/v1/auth/limits"))
        .bearer_auth(key)
        .send()
        .expect("limits")
        .status()
        .as_u16()
}

#[test]
fn every_cabinet_action_works_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let receiver = Receiver::start(|_| 200, Duration::ZERO);
    let (company, _) = company_and_key(dir.path(), 40);
    let link = admin(
        dir.path(),
        &[
            "user",
            "create",
            "--company",
            &company,
            "--email",
            "dana@example.com",
        ],
    )["set_password_link"]
        .as_str()
        .expect("link")
        .to_string();
    let s = Server::start(dir.path(), &[]);
    let link = link.replace("http://127.0.0.1:8080", &s.base);
    let driver = start_driver();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let c = rt.block_on(browser(&driver));

    // The one-time link: set a password, land signed in on the overview.
    rt.block_on(async {
        c.goto(&link).await.expect("open link");
        fill(&c, "#password", "dana's long password").await;
        fill(&c, "#password2", "dana's long password").await;
        shot(&c, "01-set-password").await;
        click(&c, "form.stack button[type=submit]").await;
        wait_path(&c, "/cabinet/overview").await;
        wait_text(&c, "main", "Your password is set").await;
        // Sign out, then in.
        click(&c, "form.who button").await;
        wait_path(&c, "/cabinet/sign-in").await;
        fill(&c, "#email", "dana@example.com").await;
        fill(&c, "#password", "dana's long password").await;
        shot(&c, "02-sign-in").await;
        click(&c, "form.stack button[type=submit]").await;
        wait_path(&c, "/cabinet/overview").await;
        wait_text(&c, "#available", "40").await;
        let bars = c
            .find_all(Locator::Css("figure.chart rect.bar"))
            .await
            .unwrap();
        assert_eq!(bars.len(), 30, "a bar per day");
        shot(&c, "03-overview").await;
    });

    // Keys: create (the secret shown once), use, revoke (the API then refuses it).
    let (revoked, upload_key) = rt.block_on(async {
        c.goto(&s.url("/cabinet/keys")).await.unwrap();
        fill(&c, "#key-name", "browser key").await;
        fill(&c, "#key-limit", "100").await;
        click(&c, "#new-key-form button[type=submit]").await;
        let first = new_value(&c, "#new-key", "").await;
        shot(&c, "04-key-created").await;
        fill(&c, "#key-name", "upload key").await;
        click(&c, "#new-key-form button[type=submit]").await;
        let second = new_value(&c, "#new-key", &first).await;
        (first, second)
    });
    assert!(revoked.starts_with("fk_") && upload_key.starts_with("fk_"));
    assert_eq!(limits_status(&s, &revoked), 200);
    let revoked_id = format!("key_{}", &revoked[3..27]);
    rt.block_on(async {
        click(&c, &format!("#revoke-{revoked_id}")).await;
        // The script asks first (the dialog may take a moment to open).
        let started = Instant::now();
        while let Err(e) = c.accept_alert().await {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no confirmation: {e}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        wait_text(&c, "main", "The key was revoked").await;
        assert!(
            text_of(&c, &format!("#{revoked_id}"))
                .await
                .contains("REVOKED")
        );
        shot(&c, "05-key-revoked").await;
    });
    assert_eq!(limits_status(&s, &revoked), 401);
    assert_eq!(limits_status(&s, &upload_key), 200);

    // Webhooks: create (secret generated, shown once), edit, send a test event.
    let secret = rt.block_on(async {
        c.goto(&s.url("/cabinet/webhooks")).await.unwrap();
        fill(&c, "#wh-name", "receiver").await;
        fill(&c, "#wh-url", &receiver.url).await;
        click(&c, "#new-webhook-form button[type=submit]").await;
        let secret = new_value(&c, "#new-secret", "").await;
        click_when_there(&c, Locator::LinkText("Open it")).await;
        fill(&c, "#wh-name", "ERP receiver").await;
        fill(&c, "#wh-delays", "5, 30").await;
        fill(&c, "#wh-attempts", "3").await;
        click(&c, "#wh-default").await;
        click(&c, "#webhook-form button[type=submit]").await;
        wait_text(&c, "main", "Saved.").await;
        assert_eq!(value_of(&c, "#wh-delays").await, "5, 30");
        assert_eq!(value_of(&c, "#wh-name").await, "ERP receiver");
        click(&c, "#send-test").await;
        wait_text(&c, "#test-result", "Test event delivered: HTTP 200").await;
        shot(&c, "06-webhook").await;
        secret
    });
    assert_eq!(secret.len(), 64, "a generated secret");
    let got = receiver.wait_for(Duration::from_secs(10), |r| !r.is_empty());
    let test = &got[0];
    assert_eq!(test.header("x-folio-event"), Some("webhook.test"));
    let ts = test.header("x-folio-timestamp").expect("timestamp");
    let mut signed = ts.as_bytes().to_vec();
    signed.push(b'.');
    signed.extend_from_slice(&test.body);
    let sig = test.header("x-folio-signature").expect("signed");
    assert!(
        sig.contains(&hmac_sha256_hex(secret.as_bytes(), &signed)),
        "{sig}"
    );

    // A document uploaded through the API, found in the list, reviewed.
    let (status, op) = upload(&s, &upload_key, "browser-1", form(&[REVIEWED]));
    assert_eq!(status, 202, "{op}");
    let op_id = op["operation_id"].as_str().unwrap().to_string();
    wait_final(&s, &upload_key, &op_id, Duration::from_secs(300));
    rt.block_on(async {
        c.goto(&s.url("/cabinet/operations")).await.unwrap();
        fill(&c, "#q", REVIEWED).await;
        click(&c, "form.filters button").await;
        let started = Instant::now();
        while !c.current_url().await.unwrap().as_str().contains("q=") {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the search runs"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        click_when_there(&c, Locator::LinkText(&op_id)).await;
        wait_path(&c, &format!("/cabinet/operations/{op_id}")).await;
        shot(&c, "07-operation").await;
        click_when_there(&c, Locator::LinkText("Review")).await;
        let started = Instant::now();
        let loaded = "return Array.from(document.images).length > 0 && \
                      Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)";
        while c.execute(loaded, vec![]).await.unwrap() != Value::Bool(true) {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "page images load"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let pages = c.find_all(Locator::Css("figure.page img")).await.unwrap();
        assert_eq!(pages.len(), REVIEWED_PAGES, "one image per page");
        let boxes = c.find_all(Locator::Css("rect.box")).await.unwrap();
        assert!(boxes.len() >= 5, "a box per field: {}", boxes.len());
        let rows = c.find_all(Locator::Css("tr.field")).await.unwrap();
        assert!(rows.len() >= boxes.len() / 2, "fields listed");
        let href = c
            .find(Locator::Css("#download-json"))
            .await
            .unwrap()
            .attr("href")
            .await
            .unwrap()
            .unwrap_or_default();
        assert!(href.ends_with("/result.json"), "{href}");
        // Hovering a field lights its box (the script's enhancement).
        // The invoice has a total: its row must be there, and hovering it lights its box.
        let row = c
            .find(Locator::Css("tr.field[data-field='/totals/total']"))
            .await
            .expect("the total's row");
        c.execute(
            "arguments[0].dispatchEvent(new Event('mouseenter'))",
            vec![serde_json::to_value(&row).unwrap()],
        )
        .await
        .unwrap();
        let hot = c
            .find_all(Locator::Css("rect.box.hot[data-field='/totals/total']"))
            .await
            .unwrap()
            .len();
        assert!(hot >= 1, "the total's box lights up");
        shot(&c, "08-review").await;
        // The same pages at phone width.
        c.set_window_size(390, 844).await.unwrap();
        shot(&c, "09-review-phone").await;
        c.goto(&s.url("/cabinet/overview")).await.unwrap();
        shot(&c, "10-overview-phone").await;
        c.clone().close().await.expect("close the browser");
    });
}

/// The document reviewed in the browser, and its pages.
const REVIEWED: &str = "invoice_en_long_text.pdf";
const REVIEWED_PAGES: usize = 3;
