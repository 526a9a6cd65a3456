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

fn as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
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

impl Cluster {
    fn start() -> Cluster {
        let bin = bin_dir();
        let dir = std::env::temp_dir().join(format!("folio-pg-{}", std::process::id()));
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
                 -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
                dir.display()
            ))
            .arg("-l")
            .arg(dir.join("log"))
            .args(["-w", "start"])
            .stdout(Stdio::null());
        run(start, "pg_ctl start");
        // The watcher: when this test process is gone, stop the cluster and remove it.
        let stop = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; {runas}{pg_ctl} -D {data} stop -m immediate >/dev/null 2>&1; rm -rf {dir}",
            pid = std::process::id(),
            runas = if as_root() {
                "runuser -u postgres -- "
            } else {
                ""
            },
            pg_ctl = bin.join("pg_ctl").display(),
            data = data.display(),
            dir = dir.display(),
        );
        // Not waited for: it outlives this process by design (it is what cleans up after it).
        #[allow(clippy::zombie_processes)]
        Command::new("setsid")
            .args(["sh", "-c", &stop])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("cluster watcher");
        Cluster {
            port,
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
        let mut c = ::postgres::Client::connect(&self.url("postgres"), ::postgres::NoTls)
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
    CLUSTER.get_or_init(Cluster::start)
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
