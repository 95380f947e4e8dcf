//! Typed handles into dense arenas, and dense side tables keyed by those handles.
//!
//! A [`Handle<T>`] is a 4-byte index into an [`Arena<T>`]; it carries its element type so a
//! block handle cannot be used where an instruction handle is expected. Handles are never
//! invalidated: arenas only grow, and "removal" is expressed by the owner (an instruction
//! leaves its block's list, for instance). [`SecondaryMap`] is a side table indexed by the
//! handles of one arena, growing on demand and returning a default for unset entries, so
//! analyses can live beside the IR instead of inside it.

use std::fmt;
use std::marker::PhantomData;

/// A typed index into an [`Arena`].
pub struct Handle<T> {
    index: u32,
    _marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// The handle of the `index`-th element.
    #[inline]
    pub fn new(index: usize) -> Self {
        debug_assert!(index < u32::MAX as usize);
        Handle {
            index: index as u32,
            _marker: PhantomData,
        }
    }
    /// The raw index of this handle.
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, o: &Self) -> bool {
        self.index == o.index
    }
}
impl<T> Eq for Handle<T> {}
impl<T> PartialOrd for Handle<T> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for Handle<T> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.index.cmp(&o.index)
    }
}
impl<T> std::hash::Hash for Handle<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.index.hash(h)
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = std::any::type_name::<T>();
        let short = name.rsplit("::").next().unwrap_or(name);
        write!(f, "{}#{}", short, self.index)
    }
}

/// A growable vector of `T`, addressed by [`Handle<T>`].
#[derive(Clone, Debug)]
pub struct Arena<T> {
    data: Vec<T>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { data: Vec::new() }
    }
}

impl<T> Arena<T> {
    pub fn new() -> Self {
        Self::default()
    }
    /// Appends `value` and returns its handle.
    #[inline]
    pub fn alloc(&mut self, value: T) -> Handle<T> {
        let h = Handle::new(self.data.len());
        self.data.push(value);
        h
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.data.len()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// Whether `h` indexes an element of this arena (for untrusted handles).
    #[inline]
    pub fn contains(&self, h: Handle<T>) -> bool {
        h.index() < self.data.len()
    }
    pub fn iter(&self) -> impl Iterator<Item = (Handle<T>, &T)> + '_ {
        self.data
            .iter()
            .enumerate()
            .map(|(i, v)| (Handle::new(i), v))
    }
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Handle<T>, &mut T)> + '_ {
        self.data
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (Handle::new(i), v))
    }
    pub fn handles(&self) -> impl Iterator<Item = Handle<T>> {
        (0..self.data.len()).map(Handle::new)
    }
}

impl<T> std::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    #[inline]
    fn index(&self, h: Handle<T>) -> &T {
        &self.data[h.index()]
    }
}
impl<T> std::ops::IndexMut<Handle<T>> for Arena<T> {
    #[inline]
    fn index_mut(&mut self, h: Handle<T>) -> &mut T {
        &mut self.data[h.index()]
    }
}

/// A dense side table: one `V` per handle of some arena, `default` for handles never set.
#[derive(Clone, Debug)]
pub struct SecondaryMap<K, V: Clone> {
    data: Vec<V>,
    default: V,
    _marker: PhantomData<fn() -> K>,
}

impl<K, V: Clone> SecondaryMap<K, V> {
    pub fn new(default: V) -> Self {
        SecondaryMap {
            data: Vec::new(),
            default,
            _marker: PhantomData,
        }
    }
    /// A table pre-sized for `len` handles.
    pub fn with_len(len: usize, default: V) -> Self {
        SecondaryMap {
            data: vec![default.clone(); len],
            default,
            _marker: PhantomData,
        }
    }
    /// [`SecondaryMap::with_len`] filled by `make` (equal to `default`): for values
    /// whose `clone` is slower than building one (an empty `SmallVec` clones through its
    /// generic `extend`).
    pub fn with_len_by(len: usize, default: V, make: impl FnMut() -> V) -> Self {
        SecondaryMap {
            data: std::iter::repeat_with(make).take(len).collect(),
            default,
            _marker: PhantomData,
        }
    }
    /// Number of handles the table holds a slot for.
    pub fn len(&self) -> usize {
        self.data.len()
    }
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

impl<K, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        SecondaryMap::new(V::default())
    }
}

impl<K, V: Clone> std::ops::Index<Handle<K>> for SecondaryMap<K, V> {
    type Output = V;
    #[inline]
    fn index(&self, h: Handle<K>) -> &V {
        self.data.get(h.index()).unwrap_or(&self.default)
    }
}
impl<K, V: Clone> std::ops::IndexMut<Handle<K>> for SecondaryMap<K, V> {
    #[inline]
    fn index_mut(&mut self, h: Handle<K>) -> &mut V {
        if h.index() >= self.data.len() {
            self.data.resize(h.index() + 1, self.default.clone());
        }
        &mut self.data[h.index()]
    }
}

/// A fast non-cryptographic hasher (the FxHash multiply-rotate scheme) for hash tables
/// keyed by compiler-internal data, where SipHash's DoS resistance buys nothing.
#[derive(Clone, Copy, Default)]
pub struct FxHasher {
    hash: u64,
}

impl FxHasher {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    #[inline]
    fn add(&mut self, x: u64) {
        self.hash = (self.hash.rotate_left(5) ^ x).wrapping_mul(Self::SEED);
    }
}

impl std::hash::Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap()));
        }
        for &b in chunks.remainder() {
            self.add(b as u64);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64)
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(i as u64)
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i)
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64)
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// `BuildHasher` for [`FxHasher`].
pub type FxBuild = std::hash::BuildHasherDefault<FxHasher>;
