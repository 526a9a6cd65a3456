//! A PostgreSQL cluster of the test process's own: `initdb` in a temporary directory, started
//! with `pg_ctl` on 127.0.0.1 and a free port (as the `postgres` user when the tests run as
//! root, since PostgreSQL refuses to run as root), one database per data directory. A watcher
//! process stops the cluster and removes its directory when the test process exits, however it
//! exits (kill -9 included).
//!
//! Used when `FOLIO_TEST_BACKEND=postgres`, or directly by the tests that need several nodes.

use std::collections::HashMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// Whether the suite runs against PostgreSQL (`FOLIO_TEST_BACKEND=postgres`).
pub fn enabled() -> bool {
    std::env::var("FOLIO_TEST_BACKEND").is_ok_and(|v| v == "postgres")
}

/// For the tests that set up PostgreSQL themselves (several nodes, a migration): true in the
/// pass that runs the whole suite on PostgreSQL, where they would only run a second time (the
/// migration test needs the embedded database as its start, which that pass replaces).
pub fn already_on_postgres() -> bool {
    if enabled() {
        eprintln!("(runs in the suite's default pass; it sets up its own PostgreSQL)");
    }
    enabled()
}

/// A running cluster.
pub struct Cluster {
    pub port: u16,
    /// With TLS: the CA file that signed the server's certificate (for 127.0.0.1).
    pub ca: Option<PathBuf>,
    dir: PathBuf,
    databases: Mutex<HashMap<PathBuf, String>>,
}

/// The directory of PostgreSQL's server programs (`/usr/lib/postgresql/<newest>/bin`).
fn bin_dir() -> PathBuf {
    let root = Path::new("/usr/lib/postgresql");
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(root)
        .expect("PostgreSQL is installed (scripts/setup.sh installs it)")
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .collect();
    versions.sort();
    versions.pop().expect("a PostgreSQL version").1
}

/// Whether the tests run as root (asked once).
fn as_root() -> bool {
    static ROOT: OnceLock<bool> = OnceLock::new();
    *ROOT.get_or_init(|| {
        Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
    })
}

/// `program args...`, as the `postgres` user when we are root.
fn pg_command(program: &Path) -> Command {
    if as_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

fn run(mut c: Command, what: &str) {
    let out = c.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A CA and a server certificate for 127.0.0.1 it signed, made with the `openssl` command in
/// `dir`: (CA file, server certificate, server key).
fn certificates(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let sh = |script: &str| {
        let mut c = Command::new("sh");
        c.arg("-c").arg(script).current_dir(dir);
        run(c, "openssl");
    };
    sh(
        "openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 \
        -subj '/CN=folio test CA' -addext basicConstraints=critical,CA:TRUE \
        -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null",
    );
    sh(
        "openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr \
        -subj '/CN=127.0.0.1' 2>/dev/null",
    );
    sh(
        "printf 'subjectAltName=IP:127.0.0.1\\nbasicConstraints=CA:FALSE\\n' > ext.cnf && \
        openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial \
        -out server.crt -days 2 -extfile ext.cnf 2>/dev/null && chmod 600 server.key",
    );
    (
        dir.join("ca.pem"),
        dir.join("server.crt"),
        dir.join("server.key"),
    )
}

impl Cluster {
    fn start(tls: bool) -> Cluster {
        let bin = bin_dir();
        let dir = std::env::temp_dir().join(format!(
            "folio-pg{}-{}",
            if tls { "-tls" } else { "" },
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("cluster directory");
        if as_root() {
            run(
                {
                    let mut c = Command::new("chown");
                    c.arg("postgres:postgres").arg(&dir);
                    c
                },
                "chown of the cluster directory",
            );
        }
        let data = dir.join("data");
        let (ca, tls_opts) = if tls {
            let certs = dir.join("certs");
            std::fs::create_dir_all(&certs).expect("certificate directory");
            let (ca, crt, key) = certificates(&certs);
            if as_root() {
                let mut c = Command::new("chown");
                c.arg("-R").arg("postgres:postgres").arg(&certs);
                run(c, "chown of the certificates");
            }
            let opts = format!(
                " -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}",
                crt.display(),
                key.display()
            );
            (Some(ca), opts)
        } else {
            (None, String::new())
        };
        let mut init = pg_command(&bin.join("initdb"));
        init.arg("-D").arg(&data).args([
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-locale",
            "-E",
            "UTF8",
            "--no-sync",
        ]);
        run(init, "initdb");
        if tls {
            // TLS only: every TCP connection must be encrypted.
            let hba = data.join("pg_hba.conf");
            let text = std::fs::read_to_string(&hba).expect("pg_hba.conf");
            let text: String = text
                .lines()
                .map(|l| match l.strip_prefix("host ") {
                    Some(rest) => format!("hostssl {rest}\n"),
                    None => format!("{l}\n"),
                })
                .collect();
            std::fs::write(&hba, text).expect("pg_hba.conf");
        }
        // A free port: bound by the OS, released for the postmaster.
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut start = pg_command(&bin.join("pg_ctl"));
        start
            .arg("-D")
            .arg(&data)
            .arg("-o")
            .arg(format!(
                "-p {port} -k {} -c listen_addresses=127.0.0.1 -c max_connections=400 \
                 -c fsync=off -c synchronous_commit=off -c full_page_writes=off{tls_opts}",
                dir.display()
            ))
            .arg("-l")
            .arg(dir.join("log"))
            .args(["-w", "start"])
            .stdout(Stdio::null());
        run(start, "pg_ctl start");
        // When this test process is gone, the cluster is stopped and removed.
        let stop = format!(
            "{runas}{pg_ctl} -D {data} stop -m immediate >/dev/null 2>&1; rm -rf {dir}",
            runas = if as_root() {
                "runuser -u postgres -- "
            } else {
                ""
            },
            pg_ctl = bin.join("pg_ctl").display(),
            data = data.display(),
            dir = dir.display(),
        );
        super::after_this_process(&stop);
        Cluster {
            port,
            ca,
            dir,
            databases: Mutex::new(HashMap::new()),
        }
    }

    /// The URL of database `name` (created by [`Cluster::create_database`]).
    pub fn url(&self, name: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }

    /// Creates a new empty database; its URL.
    pub fn create_database(&self, name: &str) -> String {
        // Over the cluster's Unix socket (TCP may require TLS).
        let socket = format!(
            "host={} port={} user=postgres dbname=postgres",
            self.dir.display(),
            self.port
        );
        let mut c = ::postgres::Client::connect(&socket, ::postgres::NoTls)
            .expect("connect to the test cluster");
        c.batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create database");
        self.url(name)
    }

    /// The database of a data directory, created at its first use.
    pub fn database_of(&self, data_dir: &Path) -> String {
        let mut dbs = self.databases.lock().unwrap();
        if let Some(url) = dbs.get(data_dir) {
            return url.clone();
        }
        let name = format!("folio_{}", dbs.len() + 1);
        let url = self.create_database(&name);
        dbs.insert(data_dir.to_path_buf(), url.clone());
        url
    }

    /// Makes the servers and admin commands of `data_dir` use the database at `url` (nodes of
    /// one deployment: one database, a data directory each).
    pub fn assign(&self, data_dir: &Path, url: &str) {
        self.databases
            .lock()
            .unwrap()
            .insert(data_dir.to_path_buf(), url.to_string());
    }

    /// The cluster's directory (its log is `log` there).
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

static CLUSTER: OnceLock<Cluster> = OnceLock::new();

/// The test process's cluster, started at first use.
pub fn cluster() -> &'static Cluster {
    CLUSTER.get_or_init(|| Cluster::start(false))
}

/// A second cluster of the test process that speaks TLS only with a certificate of its own CA
/// ([`Cluster::ca`]), started at first use.
pub fn tls_cluster() -> &'static Cluster {
    static TLS_CLUSTER: OnceLock<Cluster> = OnceLock::new();
    TLS_CLUSTER.get_or_init(|| Cluster::start(true))
}

/// `--database <url>` of a data directory when the suite runs against PostgreSQL or the data
/// directory was given a database ([`Cluster::assign`]), else nothing.
pub fn database_args(data_dir: &Path) -> Vec<String> {
    if enabled() {
        return vec!["--database".into(), cluster().database_of(data_dir)];
    }
    match CLUSTER
        .get()
        .and_then(|c| c.databases.lock().unwrap().get(data_dir).cloned())
    {
        Some(url) => vec!["--database".into(), url],
        None => Vec::new(),
    }
}
