//! The shader cache (issue 7): unlinked shader ELFs and built parts, in memory and — when
//! given a directory — on disk, shared by processes.
//!
//! Keys: [`CacheKey`] is a stable 128-bit hash ([`hash`]) of a domain tag, the entry kind
//! and length-prefixed fields. For a compiled shader the fields are the SPIR-V words, the
//! entry point, and each piece of state the compile depended on, by name, sorted
//! ([`CacheKey::shader`]); a part's key is its `PartKey` hash ([`CacheKey::part`]).
//!
//! Disk format, one file per entry, `<dir>/<kind>-<key hex>.gcnc`:
//! ```text
//! magic "GCNCACHE" | version u32 | kind u32 | key u128 | payload length u64
//! | payload checksum u128 (FNV-1a 128) | header checksum u128 | payload
//! ```
//! A read checks magic, version, kind, key, length, both checksums; any mismatch (a torn,
//! truncated, corrupted or foreign file) is counted in [`CacheStats::corrupt`] and treated
//! as a miss — never an error, never a panic. Writes go to a unique temporary file in the
//! same directory which is then renamed over the entry: rename is atomic, so a reader sees
//! the old entry, the new one, or none, and concurrent writers of the same key (who write
//! equal bytes) never tear a file.
//!
//! Invariant: `get` returns only bytes that some `put` stored under the same kind and key.

pub mod hash;

use hash::StableHasher;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What an entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EntryKind {
    /// An unlinked shader ELF.
    Unlinked,
    /// A built part (its code object ELF).
    Part,
    /// A linked pipeline ELF.
    Pipeline,
}

impl EntryKind {
    fn code(self) -> u32 {
        match self {
            EntryKind::Unlinked => 1,
            EntryKind::Part => 2,
            EntryKind::Pipeline => 3,
        }
    }
    fn name(self) -> &'static str {
        match self {
            EntryKind::Unlinked => "unlinked",
            EntryKind::Part => "part",
            EntryKind::Pipeline => "pipeline",
        }
    }
}

/// A cache key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CacheKey(pub u128);

impl CacheKey {
    /// Key of a shader compile: SPIR-V words, entry point, and the state pieces the compile
    /// depended on (name, canonical bytes), in any order (they are sorted).
    pub fn shader(spirv: &[u32], entry: &str, depends_on: &[(&str, &[u8])]) -> CacheKey {
        let mut h = StableHasher::new();
        h.field(b"gcnc-shader-v1");
        h.field(env!("CARGO_PKG_VERSION").as_bytes());
        let words: Vec<u8> = spirv.iter().flat_map(|w| w.to_le_bytes()).collect();
        h.field(&words);
        h.field(entry.as_bytes());
        let mut deps: Vec<&(&str, &[u8])> = depends_on.iter().collect();
        deps.sort();
        h.field(&(deps.len() as u64).to_le_bytes());
        for (name, bytes) in deps {
            h.field(name.as_bytes());
            h.field(bytes);
        }
        CacheKey(h.finish())
    }

    /// Key of a part (its `PartKey` hash).
    pub fn part(key: &crate::parts::PartKey) -> CacheKey {
        CacheKey(key.hash())
    }
}

/// Counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups answered from memory.
    pub memory_hits: u64,
    /// Lookups answered from disk.
    pub disk_hits: u64,
    /// Lookups answered by neither.
    pub misses: u64,
    /// Disk entries found corrupt or truncated (and ignored).
    pub corrupt: u64,
    /// Entries written to disk.
    pub disk_writes: u64,
}

/// Entries held in memory.
type MemoryEntries = BTreeMap<(EntryKind, CacheKey), Arc<Vec<u8>>>;

/// The cache.
pub struct ShaderCache {
    mem: Mutex<MemoryEntries>,
    dir: Option<PathBuf>,
    memory_hits: AtomicU64,
    disk_hits: AtomicU64,
    misses: AtomicU64,
    corrupt: AtomicU64,
    disk_writes: AtomicU64,
}

const MAGIC: &[u8; 8] = b"GCNCACHE";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 4 + 16 + 8 + 16 + 16;

fn header_bytes(kind: EntryKind, key: CacheKey, payload: &[u8]) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&kind.code().to_le_bytes());
    h.extend_from_slice(&key.0.to_le_bytes());
    h.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    h.extend_from_slice(&hash::hash128(payload).to_le_bytes());
    let hc = hash::hash128(&h);
    h.extend_from_slice(&hc.to_le_bytes());
    h
}

/// Decodes an entry file; `None` when anything does not check out.
fn decode_entry(kind: EntryKind, key: CacheKey, file: &[u8]) -> Option<Vec<u8>> {
    if file.len() < HEADER {
        return None;
    }
    let (head, payload) = file.split_at(HEADER);
    let want = header_bytes(kind, key, payload);
    (head == want.as_slice()).then(|| payload.to_vec())
}

impl ShaderCache {
    /// A cache in memory only.
    pub fn in_memory() -> ShaderCache {
        ShaderCache {
            mem: Mutex::new(BTreeMap::new()),
            dir: None,
            memory_hits: AtomicU64::new(0),
            disk_hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            corrupt: AtomicU64::new(0),
            disk_writes: AtomicU64::new(0),
        }
    }

    /// A cache in memory backed by `dir` (created if missing).
    pub fn with_dir(dir: impl AsRef<Path>) -> std::io::Result<ShaderCache> {
        std::fs::create_dir_all(dir.as_ref())?;
        Ok(ShaderCache {
            dir: Some(dir.as_ref().to_path_buf()),
            ..ShaderCache::in_memory()
        })
    }

    /// The file of an entry.
    pub fn entry_path(&self, kind: EntryKind, key: CacheKey) -> Option<PathBuf> {
        self.dir
            .as_ref()
            .map(|d| d.join(format!("{}-{:032x}.gcnc", kind.name(), key.0)))
    }

    /// The memory entries. Each insert is one map operation, so a panic elsewhere while the
    /// lock was held leaves them consistent: its poison is ignored rather than failing
    /// every later lookup of an embedder that caught the panic (the C API).
    fn mem(&self) -> std::sync::MutexGuard<'_, MemoryEntries> {
        self.mem
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Looks an entry up: memory, then disk (a valid disk entry is kept in memory).
    pub fn get(&self, kind: EntryKind, key: CacheKey) -> Option<Arc<Vec<u8>>> {
        if let Some(v) = self.mem().get(&(kind, key)) {
            self.memory_hits.fetch_add(1, Ordering::Relaxed);
            return Some(v.clone());
        }
        if let Some(path) = self.entry_path(kind, key) {
            if let Ok(file) = std::fs::read(&path) {
                match decode_entry(kind, key, &file) {
                    Some(payload) => {
                        self.disk_hits.fetch_add(1, Ordering::Relaxed);
                        let v = Arc::new(payload);
                        self.mem().insert((kind, key), v.clone());
                        return Some(v);
                    }
                    None => {
                        self.corrupt.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }
        self.misses.fetch_add(1, Ordering::Relaxed);
        None
    }

    /// Stores an entry in memory and, with a directory, atomically on disk.
    pub fn put(&self, kind: EntryKind, key: CacheKey, bytes: Vec<u8>) -> std::io::Result<()> {
        let v = Arc::new(bytes);
        self.mem().insert((kind, key), v.clone());
        if let Some(path) = self.entry_path(kind, key) {
            static SEQ: AtomicU64 = AtomicU64::new(0);
            let tmp = path.with_extension(format!(
                "tmp.{}.{}",
                std::process::id(),
                SEQ.fetch_add(1, Ordering::Relaxed)
            ));
            let write = || -> std::io::Result<()> {
                let mut f = std::fs::File::create(&tmp)?;
                f.write_all(&header_bytes(kind, key, &v))?;
                f.write_all(&v)?;
                f.sync_all()?;
                std::fs::rename(&tmp, &path)
            };
            if let Err(e) = write() {
                let _ = std::fs::remove_file(&tmp);
                return Err(e);
            }
            self.disk_writes.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    }

    /// The entry, or `make()`'s result stored under the key.
    pub fn get_or_insert_with<E>(
        &self,
        kind: EntryKind,
        key: CacheKey,
        make: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Arc<Vec<u8>>, E> {
        if let Some(v) = self.get(kind, key) {
            return Ok(v);
        }
        let bytes = make()?;
        // A failed disk write leaves a memory-only entry; the cache is an optimisation.
        let _ = self.put(kind, key, bytes.clone());
        Ok(self
            .mem()
            .get(&(kind, key))
            .cloned()
            .unwrap_or_else(|| Arc::new(bytes)))
    }

    /// Counters so far.
    pub fn stats(&self) -> CacheStats {
        CacheStats {
            memory_hits: self.memory_hits.load(Ordering::Relaxed),
            disk_hits: self.disk_hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            corrupt: self.corrupt.load(Ordering::Relaxed),
            disk_writes: self.disk_writes.load(Ordering::Relaxed),
        }
    }

    /// A part through this cache: memory/disk entry if valid, else built and stored.
    pub fn part(
        &self,
        key: &crate::parts::PartKey,
    ) -> Result<crate::parts::Part, crate::parts::PartError> {
        let ck = CacheKey::part(key);
        if let Some(bytes) = self.get(EntryKind::Part, ck) {
            match crate::parts::Part::from_elf(key, &bytes) {
                Ok(p) => return Ok(p),
                Err(_) => {
                    self.corrupt.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        let p = key.build()?;
        let bytes = p
            .to_code_object()
            .write()
            .map_err(|e| crate::parts::PartError::Encode(e.to_string()))?;
        let _ = self.put(EntryKind::Part, ck, bytes);
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_while_the_lock_was_held_leaves_the_cache_usable() {
        let c = ShaderCache::in_memory();
        c.put(EntryKind::Unlinked, CacheKey(1), vec![1]).unwrap();
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _held = c.mem.lock().unwrap();
            panic!("a bug while the cache lock is held");
        }));
        assert!(c.mem.is_poisoned());
        assert_eq!(
            c.get(EntryKind::Unlinked, CacheKey(1)).as_deref(),
            Some(&vec![1])
        );
        c.put(EntryKind::Unlinked, CacheKey(2), vec![2]).unwrap();
        assert_eq!(
            c.get(EntryKind::Unlinked, CacheKey(2)).as_deref(),
            Some(&vec![2])
        );
    }
}
