//! Shader parts: the small pieces of code that depend on pipeline state a shader was
//! compiled without (issue 7), emitted by hand-written encoders on the ISA layer — no IR,
//! no register allocation.
//!
//! Design:
//! - A [`PartKey`] is everything a part depends on; [`PartKey::canonical`] is its stable
//!   text and [`PartKey::hash`] the stable 128-bit hash of that text, the part's identity
//!   in the on-disk shader cache (`crate::cache`) and in its symbol. The in-process
//!   [`PartCache`] is keyed by the typed key itself (hashed without formatting, compared
//!   whole on a hit).
//! - [`PartKey::build`] runs the part's generator and returns a [`Part`]: code, the
//!   `R_AMDGPU_REL16` relocation of its final `s_branch` to the next part's symbol (a part
//!   that continues never ends in `s_endpgm`), its SGPR/VGPR needs, and its register
//!   interface (inputs, outputs, clobbers, exit state) which the link stage records in the
//!   part's metadata and docs/link.md specifies.
//! - The parts: the compute prolog ([`cs_prolog`]); for graphics (docs/link.md "Graphics
//!   parts") the vertex-fetch prolog ([`vs_prolog`], keyed by the vertex-input state and
//!   the VGPRs the main part expects its inputs in), the position/parameter-export
//!   epilog ([`vs_epilog`], keyed by the vertex stage's output registers and the fragment
//!   stage's packing) and the colour-export epilog ([`ps_epilog`], keyed by the colour
//!   registers and export formats) and the pixel-shader prolog ([`ps_prolog`], keyed by
//!   the fragment main part's input VGPRs and forced per-sample interpolation). An
//!   epilog ends the program (`s_endpgm`, no `next`).
//!
//! Invariants: `build` is a pure function of the key (same key, same bytes), so caching by
//! key is sound; every generated part leaves no outstanding memory counter and no pending
//! hazard at its final branch (it waits first), which is the boundary contract.

pub mod code;
pub mod cs_prolog;
pub mod ps_epilog;
pub mod ps_prolog;
pub mod user_data_prolog;
pub mod vs_epilog;
pub mod vs_prolog;

use crate::binary::{msgpack::Key, CodeObject, ElfFile, FuncSymbol, Relocation, Value};
use crate::cache::hash::StableHasher;
use crate::isa::Target;
pub use cs_prolog::CsPrologKey;
pub use ps_epilog::PsEpilogKey;
pub use ps_prolog::PsPrologKey;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
pub use user_data_prolog::UserDataPrologKey;
pub use vs_epilog::VsEpilogKey;
pub use vs_prolog::VsPrologKey;

/// What a part depends on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PartKey {
    /// Compute prolog: user-data loads and moves.
    CsProlog(CsPrologKey),
    /// Vertex-fetch prolog.
    VsProlog(VsPrologKey),
    /// Position and parameter-export epilog.
    VsEpilog(VsEpilogKey),
    /// Colour-export epilog.
    PsEpilog(PsEpilogKey),
    /// Pixel-shader prolog (forced per-sample interpolation).
    PsProlog(PsPrologKey),
    UserDataProlog(UserDataPrologKey),
}

/// Why a part cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PartError {
    /// The state cannot provide what the main part assumed.
    Unsatisfiable(String),
    /// The generator produced an instruction the encoder refused (a generator bug).
    Encode(String),
    /// A cached part's bytes do not decode as a part.
    Corrupt(String),
}

impl fmt::Display for PartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartError::Unsatisfiable(s) => write!(f, "{s}"),
            PartError::Encode(s) => write!(f, "part encoder: {s}"),
            PartError::Corrupt(s) => write!(f, "cached part: {s}"),
        }
    }
}

/// A built part.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    /// Generator name (`cs_prolog`).
    pub kind: &'static str,
    /// Symbol of the part's first instruction.
    pub symbol: String,
    /// Symbol its final `s_branch` targets.
    pub next: Option<String>,
    /// Code (no padding).
    pub code: Vec<u8>,
    /// Relocations (offsets into `code`).
    pub relocations: Vec<Relocation>,
    /// SGPRs used (highest + 1).
    pub sgprs: u32,
    /// VGPRs used.
    pub vgprs: u32,
    /// Register interface, for the metadata (name → list of entries).
    pub interface: Vec<(&'static str, Vec<String>)>,
    /// Target GPU and wave size.
    pub target: Target,
    /// Scalar loads it issues (statistics).
    pub loads: u32,
}

/// Metadata key of a part's interface.
pub const KEY_PART: &str = "gcnc.part";

impl PartKey {
    /// Stable text of the key.
    pub fn canonical(&self) -> String {
        match self {
            PartKey::CsProlog(k) => k.canonical(),
            PartKey::VsProlog(k) => k.canonical(),
            PartKey::VsEpilog(k) => k.canonical(),
            PartKey::PsEpilog(k) => k.canonical(),
            PartKey::PsProlog(k) => k.canonical(),
            PartKey::UserDataProlog(k) => k.canonical(),
        }
    }

    /// Stable 128-bit hash of the key.
    pub fn hash(&self) -> u128 {
        StableHasher::new()
            .field(b"gcnc-part-v1")
            .field(self.canonical().as_bytes())
            .finish()
    }

    /// The part's symbol: generator name plus the key hash, so different parts never
    /// share a name within a pipeline.
    pub fn symbol(&self) -> String {
        let kind = match self {
            PartKey::CsProlog(_) => "cs_prolog",
            PartKey::VsProlog(_) => "vs_prolog",
            PartKey::VsEpilog(_) => "vs_epilog",
            PartKey::PsEpilog(_) => "ps_epilog",
            PartKey::PsProlog(_) => "ps_prolog",
            PartKey::UserDataProlog(_) => "user_data_prolog",
        };
        format!("gcnc.part.{kind}.{:016x}", (self.hash() >> 64) as u64)
    }

    /// Runs the generator.
    pub fn build(&self) -> Result<Part, PartError> {
        match self {
            PartKey::CsProlog(k) => k.build(&self.symbol()),
            PartKey::VsProlog(k) => k.build(&self.symbol()),
            PartKey::VsEpilog(k) => k.build(&self.symbol()),
            PartKey::PsEpilog(k) => k.build(&self.symbol()),
            PartKey::PsProlog(k) => k.build(&self.symbol()),
            PartKey::UserDataProlog(k) => k.build(&self.symbol()),
        }
    }
}

impl Part {
    /// The part's interface as a metadata tree (`gcnc.part`).
    pub fn interface_value(&self) -> Value {
        let mut m = BTreeMap::new();
        m.insert(Key::str(".kind"), Value::str(self.kind));
        m.insert(Key::str(".symbol"), Value::str(&self.symbol));
        if let Some(n) = &self.next {
            m.insert(Key::str(".next"), Value::str(n));
        }
        m.insert(Key::str(".sgpr_count"), Value::from(self.sgprs));
        m.insert(Key::str(".vgpr_count"), Value::from(self.vgprs));
        for (k, v) in &self.interface {
            m.insert(
                Key::str(&format!(".{k}")),
                Value::Array(v.iter().map(|s| Value::str(s)).collect()),
            );
        }
        Value::Map(m)
    }

    /// A code object holding just this part (for the on-disk cache and for inspection):
    /// one FUNC symbol, its relocations, and `{gcnc.part: interface}` as metadata.
    pub fn to_code_object(&self) -> CodeObject {
        let mut md = BTreeMap::new();
        md.insert(Key::str(KEY_PART), self.interface_value());
        CodeObject {
            gen: self.target.gen,
            text: self.code.clone(),
            functions: vec![FuncSymbol {
                name: self.symbol.clone(),
                offset: 0,
                size: self.code.len() as u64,
            }],
            relocations: self.relocations.clone(),
            metadata: Value::Map(md),
        }
    }

    /// Reads a part back from [`Part::to_code_object`]'s ELF bytes, checking that it is the
    /// part `key` builds (same symbol, target and interface).
    pub fn from_elf(key: &PartKey, bytes: &[u8]) -> Result<Part, PartError> {
        let bad = |s: String| PartError::Corrupt(s);
        let elf = ElfFile::parse(bytes).map_err(|e| bad(e.to_string()))?;
        let obj = elf.to_code_object().map_err(|e| bad(e.to_string()))?;
        // Rebuild the interface from the key (cheap) and compare the stored one, so a stale
        // or foreign entry is never used.
        let want = key.build()?;
        let iface = obj.metadata.get(KEY_PART).cloned();
        if obj.gen != want.target.gen
            || iface.as_ref() != Some(&want.interface_value())
            || obj.functions.len() != 1
            || obj.functions[0].name != want.symbol
        {
            return Err(bad("entry does not match its key".into()));
        }
        Ok(Part {
            code: obj.text,
            relocations: obj.relocations,
            ..want
        })
    }
}

/// Parts built in this process, by key: each distinct part is built once.
///
/// The map hashes the typed key itself (derived `Hash`, [`KeyHasher`]) — no canonical text
/// is formatted on a lookup — and a hit compares the whole key, so two keys that hash alike
/// can never share a part. (`PartKey::hash`, the stable hash of the canonical text, still
/// names the part's symbol and its on-disk cache entry.)
#[derive(Default)]
pub struct PartCache {
    parts: Mutex<HashMap<PartKey, Arc<Part>, BuildHasherDefault<KeyHasher>>>,
    built: AtomicU64,
    hits: AtomicU64,
}

/// The in-process map's hasher: FNV-1a over 64 bits of what the derived `Hash` feeds it
/// (fast for the few dozen bytes of a key; the map compares keys on every hit, so its
/// quality only affects speed).
#[derive(Default)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 = h;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl PartCache {
    /// An empty cache.
    pub fn new() -> PartCache {
        PartCache::default()
    }

    /// The process-wide cache.
    pub fn global() -> &'static PartCache {
        static G: std::sync::OnceLock<PartCache> = std::sync::OnceLock::new();
        G.get_or_init(PartCache::new)
    }

    /// The map. A panic elsewhere while it was held (a bug, caught by an embedder such as
    /// the C API) leaves it consistent — entries are inserted only after a successful
    /// build — so the lock's poison is ignored rather than failing every later link.
    fn locked(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<PartKey, Arc<Part>, BuildHasherDefault<KeyHasher>>> {
        self.parts
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The part for `key`, built on first use. The lock is held while building (a part
    /// takes microseconds), so each key is built exactly once even under concurrent links.
    pub fn get(&self, key: &PartKey) -> Result<Arc<Part>, PartError> {
        let mut m = self.locked();
        if let Some(p) = m.get(key) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return Ok(p.clone());
        }
        let p = Arc::new(key.build()?);
        self.built.fetch_add(1, Ordering::Relaxed);
        m.insert(key.clone(), p.clone());
        Ok(p)
    }

    /// Inserts a part obtained elsewhere (e.g. the disk cache).
    pub fn insert(&self, key: &PartKey, part: Part) -> Arc<Part> {
        let mut m = self.locked();
        m.entry(key.clone())
            .or_insert_with(|| Arc::new(part))
            .clone()
    }

    /// Whether the part for `key` is cached.
    pub fn contains(&self, key: &PartKey) -> bool {
        self.locked().contains_key(key)
    }

    /// (parts built, cache hits).
    pub fn stats(&self) -> (u64, u64) {
        (
            self.built.load(Ordering::Relaxed),
            self.hits.load(Ordering::Relaxed),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::prelink::Item;
    use crate::isa::{Gen, Target};

    #[test]
    fn a_panic_while_the_lock_was_held_leaves_the_part_cache_usable() {
        let key = PartKey::CsProlog(CsPrologKey {
            target: Target::new(Gen::Gfx10),
            inputs: vec![Item::PushConstant(1), Item::PushConstant(0)],
            table: vec![],
            outputs: vec![Item::PushConstant(0), Item::PushConstant(1)],
            system_sgprs: 1,
            next: "next".into(),
        });
        let cache = PartCache::new();
        let first = cache.get(&key).unwrap();
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _held = cache.parts.lock().unwrap();
            panic!("a bug while the part cache lock is held");
        }));
        assert!(cache.parts.is_poisoned());
        assert!(cache.contains(&key));
        assert!(Arc::ptr_eq(&cache.get(&key).unwrap(), &first));
        assert_eq!(cache.stats(), (1, 1));
    }
}
