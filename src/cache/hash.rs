//! A stable 128-bit hash for cache keys and entry checksums: FNV-1a over 128 bits (offset
//! basis 0x6c62272e07bb014262b821756295c58d, prime 2^88 + 2^8 + 0x3b).
//!
//! Why our own: the key must be the same in every process and every build (std's
//! `DefaultHasher` is randomly seeded and documented as unstable across releases), it must
//! not pull in a dependency for forty lines, and FNV-1a is a published, fixed algorithm.
//! It is not cryptographic: the cache trusts its directory, and checksums catch torn or
//! corrupted files, not forgery. Fields are fed length-prefixed ([`StableHasher::field`])
//! so ("ab","c") and ("a","bc") hash differently.

/// FNV-1a 128 state.
#[derive(Clone, Debug)]
pub struct StableHasher(u128);

const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
const PRIME: u128 = (1u128 << 88) + (1 << 8) + 0x3b;

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(OFFSET)
    }
}

impl StableHasher {
    /// A fresh hasher.
    pub fn new() -> StableHasher {
        StableHasher::default()
    }

    /// Feeds raw bytes.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        for &x in b {
            self.0 ^= x as u128;
            self.0 = self.0.wrapping_mul(PRIME);
        }
        self
    }

    /// Feeds one length-prefixed field.
    pub fn field(&mut self, b: &[u8]) -> &mut Self {
        self.bytes(&(b.len() as u64).to_le_bytes());
        self.bytes(b)
    }

    /// The hash.
    pub fn finish(&self) -> u128 {
        self.0
    }
}

/// FNV-1a 128 of `b`.
pub fn hash128(b: &[u8]) -> u128 {
    StableHasher::new().bytes(b).finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_vectors() {
        // Published FNV-1a 128 test vectors.
        assert_eq!(hash128(b""), 0x6c62272e07bb014262b821756295c58d);
        assert_eq!(hash128(b"a"), 0xd228cb696f1a8caf78912b704e4a8964);
        let mut h1 = StableHasher::new();
        h1.field(b"ab").field(b"c");
        let mut h2 = StableHasher::new();
        h2.field(b"a").field(b"bc");
        assert_ne!(h1.finish(), h2.finish());
    }
}
