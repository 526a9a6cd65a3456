//! An S3-compatible object store of the test process's own: `s3s-fs` (the `s3s` project's
//! S3 server over a directory, installed by scripts/setup.sh with `cargo install`) on 127.0.0.1
//! and a free port, with an access key and signature checks, one bucket. It is killed when the
//! test process exits (a watcher, as for the PostgreSQL cluster).

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A running store.
pub struct ObjectStore {
    pub endpoint: String,
    pub root: PathBuf,
}

pub const ACCESS_KEY: &str = "folio-test-access";
pub const SECRET_KEY: &str = "folio-test-secret-key-0123456789";

fn s3s_fs() -> PathBuf {
    // `cargo install` puts it in cargo's bin directory, which may not be on PATH.
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    match home.map(|h| h.join("bin/s3s-fs")) {
        Some(p) if p.exists() => p,
        _ => PathBuf::from("s3s-fs"),
    }
}

impl ObjectStore {
    fn start() -> ObjectStore {
        let root = std::env::temp_dir().join(format!("folio-s3-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("object store root");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(s3s_fs())
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--access-key", ACCESS_KEY, "--secret-key", SECRET_KEY])
            .arg(&root)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("s3s-fs starts (scripts/setup.sh installs it)");
        let stop = format!(
            "kill {child} 2>/dev/null; rm -rf {root}",
            child = child.id(),
            root = root.display(),
        );
        super::after_this_process(&stop);
        std::mem::forget(child);
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "s3s-fs did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        ObjectStore {
            endpoint: format!("http://127.0.0.1:{port}"),
            root,
        }
    }

    /// A new empty bucket (a directory of the store's root).
    pub fn create_bucket(&self, name: &str) {
        std::fs::create_dir_all(self.root.join(name)).expect("bucket");
    }

    /// The environment a `folio serve` needs to use this store (as an operator sets it).
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ACCESS_KEY_ID", ACCESS_KEY.into()),
            ("AWS_SECRET_ACCESS_KEY", SECRET_KEY.into()),
            ("AWS_ENDPOINT", self.endpoint.clone()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_REGION", "us-east-1".into()),
        ]
    }

    /// The objects of a bucket (relative paths).
    pub fn objects(&self, bucket: &str) -> Vec<String> {
        fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, base, out);
                } else if let Ok(rel) = p.strip_prefix(base) {
                    out.push(rel.display().to_string());
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.root.join(bucket), &self.root.join(bucket), &mut out);
        out.sort();
        out
    }
}

/// The test process's object store, started at first use.
pub fn store() -> &'static ObjectStore {
    static STORE: OnceLock<ObjectStore> = OnceLock::new();
    STORE.get_or_init(ObjectStore::start)
}
