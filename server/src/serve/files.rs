//! Where stored uploads live, one file per document named by its id: a local directory (the
//! data directory's `files` by default, or a directory every node mounts), or an S3-compatible
//! object store (`s3://bucket/prefix`, through the Apache Arrow project's `object_store`),
//! which nodes on different machines share.
//!
//! S3 settings come from the usual environment variables: `AWS_ACCESS_KEY_ID`,
//! `AWS_SECRET_ACCESS_KEY`, `AWS_REGION` (default `us-east-1`), `AWS_ENDPOINT` (a self-hosted
//! store; path-style requests unless `AWS_VIRTUAL_HOSTED_STYLE_REQUEST=true`) and
//! `AWS_ALLOW_HTTP=true` for an endpoint without TLS.

use futures_util::StreamExt;
use object_store::ObjectStore;
use object_store::aws::AmazonS3Builder;
use object_store::path::Path as ObjectPath;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::io::AsyncWriteExt;

/// The file store of a server.
#[derive(Clone)]
pub enum FileStore {
    /// A directory.
    Local(PathBuf),
    /// An object store: objects `<prefix>/<document id>`.
    Object {
        store: Arc<dyn ObjectStore>,
        prefix: ObjectPath,
        /// `s3://bucket/prefix`, for messages.
        shown: String,
    },
}

impl std::fmt::Debug for FileStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileStore::Local(p) => write!(f, "FileStore({})", p.display()),
            FileStore::Object { shown, .. } => write!(f, "FileStore({shown})"),
        }
    }
}

/// A document's file on this machine for a worker to read: the stored file itself, or a copy
/// downloaded from the object store (removed when dropped).
pub struct LocalFile {
    pub path: PathBuf,
    temporary: bool,
}

impl Drop for LocalFile {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

fn io_error(e: object_store::Error) -> std::io::Error {
    match e {
        object_store::Error::NotFound { .. } => {
            std::io::Error::new(std::io::ErrorKind::NotFound, e.to_string())
        }
        e => std::io::Error::other(e.to_string()),
    }
}

impl FileStore {
    /// The store a `--files` setting names (`s3://bucket[/prefix]`, a directory or a `file://`
    /// URL), or the data directory's `files` when there is none.
    pub fn open(setting: Option<&str>, data_dir: &Path) -> Result<FileStore, String> {
        let Some(url) = setting else {
            return Ok(FileStore::Local(data_dir.join("files")));
        };
        if let Some(rest) = url.strip_prefix("s3://") {
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            if bucket.is_empty() {
                return Err(format!("no bucket in {url:?}"));
            }
            let mut b = AmazonS3Builder::from_env().with_bucket_name(bucket);
            if std::env::var_os("AWS_REGION").is_none()
                && std::env::var_os("AWS_DEFAULT_REGION").is_none()
            {
                b = b.with_region("us-east-1");
            }
            let store = b
                .build()
                .map_err(|e| format!("cannot use the object store {url:?}: {e}"))?;
            return Ok(FileStore::Object {
                store: Arc::new(store),
                prefix: ObjectPath::from(prefix.trim_matches('/')),
                shown: url.to_string(),
            });
        }
        let path = url.strip_prefix("file://").unwrap_or(url);
        if path.is_empty() || (url.contains("://") && !url.starts_with("file://")) {
            return Err(format!(
                "unknown file store {url:?}: s3://bucket/prefix, or a directory (file:// URL) \
                 every node sees"
            ));
        }
        Ok(FileStore::Local(PathBuf::from(path)))
    }

    /// Creates what the store needs locally (the directory); an object store is checked by
    /// listing its prefix, so a wrong endpoint or key fails at start, not at the first upload.
    pub async fn prepare(&self) -> Result<(), String> {
        match self {
            FileStore::Local(dir) => std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display())),
            FileStore::Object {
                store,
                prefix,
                shown,
            } => {
                let mut list = store.list(Some(prefix));
                match list.next().await {
                    Some(Err(e)) => Err(format!("cannot use the object store {shown}: {e}")),
                    _ => Ok(()),
                }
            }
        }
    }

    fn object(&self, doc_id: &str) -> ObjectPath {
        match self {
            FileStore::Object { prefix, .. } => prefix.child(doc_id),
            FileStore::Local(_) => ObjectPath::from(doc_id),
        }
    }

    /// Stores a received file (moved from `tmp`) as document `doc_id`'s; it is durable when this
    /// returns.
    pub async fn put(&self, doc_id: &str, tmp: &Path) -> std::io::Result<()> {
        match self {
            FileStore::Local(dir) => move_into_dir(tmp, &dir.join(doc_id)).await,
            FileStore::Object { .. } => {
                self.upload(doc_id, tmp).await?;
                let _ = tokio::fs::remove_file(tmp).await;
                Ok(())
            }
        }
    }

    /// Stores a copy of `src` (left where it is) as document `doc_id`'s: what `folio migrate`
    /// does with an embedded installation's files. A file already stored is left alone.
    pub async fn copy_in(&self, doc_id: &str, src: &Path) -> std::io::Result<()> {
        match self {
            _ if self.exists(doc_id).await? => Ok(()),
            FileStore::Local(dir) => copy_durably(src, &dir.join(doc_id)).await,
            FileStore::Object { .. } => self.upload(doc_id, src).await,
        }
    }

    /// Whether document `doc_id`'s file is stored (without reading it).
    pub async fn exists(&self, doc_id: &str) -> std::io::Result<bool> {
        let r = match self {
            FileStore::Local(dir) => tokio::fs::metadata(dir.join(doc_id)).await.map(|_| ()),
            FileStore::Object { store, .. } => store
                .head(&self.object(doc_id))
                .await
                .map(|_| ())
                .map_err(io_error),
        };
        match r {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Uploads a local file as document `doc_id`'s object (in parts when it is large).
    async fn upload(&self, doc_id: &str, src: &Path) -> std::io::Result<()> {
        let FileStore::Object { store, .. } = self else {
            return Err(std::io::Error::other("not an object store"));
        };
        let mut w = object_store::buffered::BufWriter::new(store.clone(), self.object(doc_id));
        let mut f = tokio::fs::File::open(src).await?;
        tokio::io::copy(&mut f, &mut w).await?;
        w.shutdown().await
    }

    /// Removes document `doc_id`'s file (an upload that was not accepted after all).
    pub async fn delete(&self, doc_id: &str) {
        match self {
            FileStore::Local(dir) => {
                let _ = tokio::fs::remove_file(dir.join(doc_id)).await;
            }
            FileStore::Object { store, .. } => {
                let _ = store.delete(&self.object(doc_id)).await;
            }
        }
    }

    /// Document `doc_id`'s file; `None` when it is not there.
    pub async fn read(&self, doc_id: &str) -> std::io::Result<Option<Vec<u8>>> {
        let r = match self {
            FileStore::Local(dir) => tokio::fs::read(dir.join(doc_id)).await,
            FileStore::Object { store, .. } => match store.get(&self.object(doc_id)).await {
                Ok(g) => g.bytes().await.map(|b| b.to_vec()).map_err(io_error),
                Err(e) => Err(io_error(e)),
            },
        };
        match r {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Document `doc_id`'s file as a local path for a worker (downloaded into `scratch` from an
    /// object store).
    pub async fn local_copy(&self, doc_id: &str, scratch: &Path) -> std::io::Result<LocalFile> {
        match self {
            FileStore::Local(dir) => Ok(LocalFile {
                path: dir.join(doc_id),
                temporary: false,
            }),
            FileStore::Object { store, .. } => {
                let path = scratch.join(format!("{doc_id}.source"));
                let file = LocalFile {
                    path: path.clone(),
                    temporary: true,
                };
                let mut out = tokio::fs::File::create(&path).await?;
                let mut stream = store
                    .get(&self.object(doc_id))
                    .await
                    .map_err(io_error)?
                    .into_stream();
                while let Some(chunk) = stream.next().await {
                    out.write_all(&chunk.map_err(io_error)?).await?;
                }
                out.flush().await?;
                Ok(file)
            }
        }
    }
}

/// Moves a received file into a directory store: a rename, or, when the store is on another
/// file system (a shared mount), a copy written to disk before the upload is acknowledged.
async fn move_into_dir(tmp: &Path, dest: &Path) -> std::io::Result<()> {
    match tokio::fs::rename(tmp, dest).await {
        Err(e) if e.kind() == std::io::ErrorKind::CrossesDevices => {
            copy_durably(tmp, dest).await?;
            tokio::fs::remove_file(tmp).await
        }
        r => r,
    }
}

/// Copies `src` to `dest` so that `dest` appears whole or not at all, on disk before this
/// returns: through `dest.part`, synced, then renamed.
async fn copy_durably(src: &Path, dest: &Path) -> std::io::Result<()> {
    let part = dest.with_extension("part");
    tokio::fs::copy(src, &part).await?;
    tokio::fs::File::open(&part).await?.sync_all().await?;
    tokio::fs::rename(&part, dest).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_name_a_directory_or_a_bucket() {
        let d = Path::new("/data");
        assert!(
            matches!(FileStore::open(None, d).unwrap(), FileStore::Local(p) if p == Path::new("/data/files"))
        );
        assert!(
            matches!(FileStore::open(Some("/srv/f"), d).unwrap(), FileStore::Local(p) if p == Path::new("/srv/f"))
        );
        assert!(
            matches!(FileStore::open(Some("file:///srv/f"), d).unwrap(), FileStore::Local(p) if p == Path::new("/srv/f"))
        );
        assert!(FileStore::open(Some("ftp://x/y"), d).is_err());
        assert!(FileStore::open(Some("s3:///prefix"), d).is_err());
        match FileStore::open(Some("s3://bucket/some/prefix/"), d).unwrap() {
            FileStore::Object { prefix, .. } => assert_eq!(prefix.as_ref(), "some/prefix"),
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn a_directory_store_keeps_reads_and_forgets_files() {
        let dir = tempfile::tempdir().unwrap();
        let store =
            FileStore::open(Some(dir.path().join("f").to_str().unwrap()), dir.path()).unwrap();
        store.prepare().await.unwrap();
        let tmp = dir.path().join("upload");
        std::fs::write(&tmp, b"%PDF-1.4").unwrap();
        store.put("doc_1", &tmp).await.unwrap();
        assert!(!tmp.exists());
        assert_eq!(
            store.read("doc_1").await.unwrap().as_deref(),
            Some(&b"%PDF-1.4"[..])
        );
        let local = store.local_copy("doc_1", dir.path()).await.unwrap();
        assert_eq!(std::fs::read(&local.path).unwrap(), b"%PDF-1.4");
        drop(local);
        assert!(
            dir.path().join("f/doc_1").exists(),
            "the stored file is not a temporary copy"
        );
        assert!(store.exists("doc_1").await.unwrap());
        store.delete("doc_1").await;
        assert_eq!(store.read("doc_1").await.unwrap(), None);
        assert!(!store.exists("doc_1").await.unwrap());
    }
}
