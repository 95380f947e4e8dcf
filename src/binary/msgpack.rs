//! A generic MessagePack value tree with the encoder PAL expects and a checked decoder.
//!
//! Design:
//! - [`Value`] is the tree the link stage merges and the readers inspect. Maps are
//!   `BTreeMap<Key, Value>`: keys are ordered (unsigned integers before strings, strings
//!   byte-wise), which is the order LLVM's msgpack document writer produces, so encoding is
//!   deterministic and equal trees give equal bytes.
//! - Encoding (through `rmp::encode`) always uses the smallest representation: positive
//!   fixint / uint8 / uint16 / uint32 / uint64, fixstr for short strings, fixarray/fixmap
//!   where they fit (pal-abi.md §1.5: register keys as uints, string keys as fixstr).
//! - Decoding accepts every MessagePack encoding of the same values (an llc- or LLPC-written
//!   blob need not be minimal) and is total: every length is checked against the bytes that
//!   remain before anything is allocated, nesting is bounded by [`MAX_DEPTH`], and failures
//!   are `Error::Msgpack { offset, reason }` with the offset inside the payload.
//! - Map keys must be unsigned integers or strings (all PAL metadata keys are); a duplicate
//!   key is an error, because merging would otherwise silently drop one of them.
//!
//! Invariant: `decode(&encode(v)) == v` for every tree without NaN floats.

use super::error::{Error, Result};
use rmp::Marker;
use std::collections::BTreeMap;
use std::fmt;

/// Deepest nesting the decoder accepts (PAL metadata nests about 6 levels).
pub const MAX_DEPTH: usize = 64;

/// A map key: PAL metadata uses register numbers and dotted strings.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// Unsigned integer key (register numbers).
    UInt(u64),
    /// String key.
    Str(String),
}

impl Key {
    /// A string key.
    pub fn str(s: &str) -> Key {
        Key::Str(s.to_string())
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Key {
        Key::Str(s.to_string())
    }
}

impl From<u32> for Key {
    fn from(v: u32) -> Key {
        Key::UInt(v as u64)
    }
}

/// `path` extended by `key` for error messages: dotted PAL keys (`.cs`) are appended as is,
/// other keys after a `.`.
pub fn join_path(path: &str, key: &Key) -> String {
    match key {
        Key::Str(s) if s.starts_with('.') => format!("{path}{s}"),
        _ if path.is_empty() => key.to_string(),
        _ => format!("{path}.{key}"),
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::UInt(v) => write!(f, "{v:#x}"),
            Key::Str(s) => f.write_str(s),
        }
    }
}

/// A MessagePack value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// nil
    Nil,
    /// true / false
    Bool(bool),
    /// Non-negative integer.
    UInt(u64),
    /// Negative integer (non-negative ones are always `UInt`).
    Int(i64),
    /// float32 or float64 (encoded as float64).
    Float(f64),
    /// UTF-8 string.
    Str(String),
    /// Binary blob.
    Bin(Vec<u8>),
    /// Array.
    Array(Vec<Value>),
    /// Map with ordered keys.
    Map(BTreeMap<Key, Value>),
}

impl Value {
    /// An empty map.
    pub fn map() -> Value {
        Value::Map(BTreeMap::new())
    }

    /// A string value.
    pub fn str(s: &str) -> Value {
        Value::Str(s.to_string())
    }

    /// The map inside, if this is a map.
    pub fn as_map(&self) -> Option<&BTreeMap<Key, Value>> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The map inside, mutably.
    pub fn as_map_mut(&mut self) -> Option<&mut BTreeMap<Key, Value>> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The array inside.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The unsigned integer inside.
    pub fn as_uint(&self) -> Option<u64> {
        match self {
            Value::UInt(v) => Some(*v),
            _ => None,
        }
    }

    /// The string inside.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The bool inside.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// Looks up a string key in a map.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_map()?.get(&Key::str(key))
    }

    /// Looks up a string key in a map, mutably.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.as_map_mut()?.get_mut(&Key::str(key))
    }

    /// Kind name used in error messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "bool",
            Value::UInt(_) => "uint",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Bin(_) => "bin",
            Value::Array(_) => "array",
            Value::Map(_) => "map",
        }
    }
}

impl From<u32> for Value {
    fn from(v: u32) -> Value {
        Value::UInt(v as u64)
    }
}

impl From<u64> for Value {
    fn from(v: u64) -> Value {
        Value::UInt(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Str(v.to_string())
    }
}

/// Encodes a tree with the smallest encodings.
///
/// Fails only for containers or strings longer than `u32::MAX`, which MessagePack cannot
/// express.
pub fn encode(value: &Value) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    encode_into(&mut out, value)?;
    Ok(out)
}

fn too_long(what: &str) -> Error {
    Error::invalid("msgpack value", format!("{what} longer than u32::MAX"))
}

fn len32(len: usize, what: &str) -> Result<u32> {
    u32::try_from(len).map_err(|_| too_long(what))
}

pub(crate) fn encode_key(out: &mut Vec<u8>, key: &Key) -> Result<()> {
    match key {
        Key::UInt(v) => {
            rmp::encode::write_uint(out, *v).map_err(|_| too_long("uint"))?;
        }
        Key::Str(s) => {
            len32(s.len(), "string")?;
            rmp::encode::write_str(out, s).map_err(|_| too_long("string"))?;
        }
    }
    Ok(())
}

pub(crate) fn encode_into(out: &mut Vec<u8>, value: &Value) -> Result<()> {
    // Writing into a Vec cannot fail; the only errors are lengths over u32::MAX.
    match value {
        Value::Nil => out.push(0xc0),
        Value::Bool(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
        Value::UInt(v) => {
            rmp::encode::write_uint(out, *v).map_err(|_| too_long("uint"))?;
        }
        Value::Int(v) => {
            rmp::encode::write_sint(out, *v).map_err(|_| too_long("int"))?;
        }
        Value::Float(v) => {
            rmp::encode::write_f64(out, *v).map_err(|_| too_long("float"))?;
        }
        Value::Str(s) => {
            len32(s.len(), "string")?;
            rmp::encode::write_str(out, s).map_err(|_| too_long("string"))?;
        }
        Value::Bin(b) => {
            len32(b.len(), "bin")?;
            rmp::encode::write_bin(out, b).map_err(|_| too_long("bin"))?;
        }
        Value::Array(items) => {
            rmp::encode::write_array_len(out, len32(items.len(), "array")?)
                .map_err(|_| too_long("array"))?;
            for item in items {
                encode_into(out, item)?;
            }
        }
        Value::Map(map) => {
            rmp::encode::write_map_len(out, len32(map.len(), "map")?)
                .map_err(|_| too_long("map"))?;
            for (k, v) in map {
                encode_key(out, k)?;
                encode_into(out, v)?;
            }
        }
    }
    Ok(())
}

/// Decodes exactly one value that must span all of `bytes`.
pub fn decode(bytes: &[u8]) -> Result<Value> {
    let mut d = Decoder { bytes, pos: 0 };
    let v = d.value(0)?;
    if d.pos != bytes.len() {
        return Err(Error::Msgpack {
            offset: d.pos as u64,
            reason: format!("{} trailing bytes after the value", bytes.len() - d.pos),
        });
    }
    Ok(v)
}

struct Decoder<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Decoder<'a> {
    fn err(&self, offset: usize, reason: impl Into<String>) -> Error {
        Error::Msgpack {
            offset: offset as u64,
            reason: reason.into(),
        }
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let remaining = self.bytes.len() - self.pos;
        if n > remaining {
            return Err(self.err(
                self.pos,
                format!("{what} needs {n} bytes, {remaining} remain"),
            ));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn be(&mut self, n: usize, what: &str) -> Result<u64> {
        Ok(self
            .take(n, what)?
            .iter()
            .fold(0u64, |acc, b| (acc << 8) | *b as u64))
    }

    /// Checks that `count` items of at least `min_each` bytes can still follow.
    fn check_count(&self, at: usize, count: u64, min_each: u64, what: &str) -> Result<usize> {
        let remaining = (self.bytes.len() - self.pos) as u64;
        if count.saturating_mul(min_each) > remaining {
            return Err(self.err(
                at,
                format!("{what} claims {count} items but only {remaining} bytes remain"),
            ));
        }
        Ok(count as usize)
    }

    fn string(&mut self, at: usize, len: u64) -> Result<String> {
        let len = self.check_count(at, len, 1, "string")?;
        let data = self.take(len, "string")?;
        String::from_utf8(data.to_vec()).map_err(|e| {
            self.err(
                at,
                format!(
                    "string is not UTF-8 (byte {})",
                    e.utf8_error().valid_up_to()
                ),
            )
        })
    }

    fn value(&mut self, depth: usize) -> Result<Value> {
        let at = self.pos;
        if depth > MAX_DEPTH {
            return Err(self.err(at, format!("nesting deeper than {MAX_DEPTH}")));
        }
        let byte = self.take(1, "marker")?[0];
        Ok(match Marker::from_u8(byte) {
            Marker::FixPos(v) => Value::UInt(v as u64),
            Marker::FixNeg(v) => Value::Int(v as i64),
            Marker::Null => Value::Nil,
            Marker::True => Value::Bool(true),
            Marker::False => Value::Bool(false),
            Marker::U8 => Value::UInt(self.be(1, "uint8")?),
            Marker::U16 => Value::UInt(self.be(2, "uint16")?),
            Marker::U32 => Value::UInt(self.be(4, "uint32")?),
            Marker::U64 => Value::UInt(self.be(8, "uint64")?),
            Marker::I8 => int(self.be(1, "int8")? as u8 as i8 as i64),
            Marker::I16 => int(self.be(2, "int16")? as u16 as i16 as i64),
            Marker::I32 => int(self.be(4, "int32")? as u32 as i32 as i64),
            Marker::I64 => int(self.be(8, "int64")? as i64),
            Marker::F32 => Value::Float(f32::from_bits(self.be(4, "float32")? as u32) as f64),
            Marker::F64 => Value::Float(f64::from_bits(self.be(8, "float64")?)),
            Marker::FixStr(n) => Value::Str(self.string(at, n as u64)?),
            Marker::Str8 => {
                let n = self.be(1, "str8 length")?;
                Value::Str(self.string(at, n)?)
            }
            Marker::Str16 => {
                let n = self.be(2, "str16 length")?;
                Value::Str(self.string(at, n)?)
            }
            Marker::Str32 => {
                let n = self.be(4, "str32 length")?;
                Value::Str(self.string(at, n)?)
            }
            Marker::Bin8 | Marker::Bin16 | Marker::Bin32 => {
                let width = match Marker::from_u8(byte) {
                    Marker::Bin8 => 1,
                    Marker::Bin16 => 2,
                    _ => 4,
                };
                let n = self.be(width, "bin length")?;
                let n = self.check_count(at, n, 1, "bin")?;
                Value::Bin(self.take(n, "bin")?.to_vec())
            }
            Marker::FixArray(n) => self.array(at, n as u64, depth)?,
            Marker::Array16 => {
                let n = self.be(2, "array16 length")?;
                self.array(at, n, depth)?
            }
            Marker::Array32 => {
                let n = self.be(4, "array32 length")?;
                self.array(at, n, depth)?
            }
            Marker::FixMap(n) => self.map(at, n as u64, depth)?,
            Marker::Map16 => {
                let n = self.be(2, "map16 length")?;
                self.map(at, n, depth)?
            }
            Marker::Map32 => {
                let n = self.be(4, "map32 length")?;
                self.map(at, n, depth)?
            }
            Marker::Reserved => return Err(self.err(at, "reserved marker 0xc1")),
            Marker::Ext8
            | Marker::Ext16
            | Marker::Ext32
            | Marker::FixExt1
            | Marker::FixExt2
            | Marker::FixExt4
            | Marker::FixExt8
            | Marker::FixExt16 => {
                return Err(self.err(
                    at,
                    format!("extension type (marker {byte:#04x}) is not used by PAL metadata"),
                ))
            }
        })
    }

    fn array(&mut self, at: usize, n: u64, depth: usize) -> Result<Value> {
        let n = self.check_count(at, n, 1, "array")?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(self.value(depth + 1)?);
        }
        Ok(Value::Array(items))
    }

    fn map(&mut self, at: usize, n: u64, depth: usize) -> Result<Value> {
        let n = self.check_count(at, n, 2, "map")?;
        let mut map = BTreeMap::new();
        for _ in 0..n {
            let key_at = self.pos;
            let key = match self.value(depth + 1)? {
                Value::UInt(v) => Key::UInt(v),
                Value::Str(s) => Key::Str(s),
                other => {
                    return Err(self.err(
                        key_at,
                        format!("map key is a {}, expected uint or string", other.kind()),
                    ))
                }
            };
            let value = self.value(depth + 1)?;
            if map.contains_key(&key) {
                return Err(self.err(key_at, format!("duplicate map key {key}")));
            }
            map.insert(key, value);
        }
        Ok(Value::Map(map))
    }
}

fn int(v: i64) -> Value {
    if v >= 0 {
        Value::UInt(v as u64)
    } else {
        Value::Int(v)
    }
}

// ------------------------------------------------------------ typed field readers
// (the metadata documents' helpers: a missing key is `None`, a wrong kind an error at `path`)

/// The map a value is (moved out of it, not copied), or an error at `path`.
pub(crate) fn into_map(v: Value, path: &str) -> Result<BTreeMap<Key, Value>> {
    match v {
        Value::Map(m) => Ok(m),
        other => Err(Error::metadata(
            path,
            format!("expected a map, found a {}", other.kind()),
        )),
    }
}

pub(crate) fn to_u32(v: u64, path: &str) -> Result<u32> {
    u32::try_from(v).map_err(|_| Error::metadata(path, format!("{v:#x} does not fit in 32 bits")))
}

pub(crate) fn opt_str(
    m: &mut BTreeMap<Key, Value>,
    key: &str,
    path: &str,
) -> Result<Option<String>> {
    match m.remove(&Key::str(key)) {
        Some(Value::Str(s)) => Ok(Some(s)),
        Some(other) => Err(Error::metadata(
            format!("{path}{key}"),
            format!("expected a string, found a {}", other.kind()),
        )),
        None => Ok(None),
    }
}

pub(crate) fn opt_u32(m: &mut BTreeMap<Key, Value>, key: &str, path: &str) -> Result<Option<u32>> {
    match m.remove(&Key::str(key)) {
        Some(Value::UInt(v)) => Ok(Some(to_u32(v, &format!("{path}{key}"))?)),
        Some(other) => Err(Error::metadata(
            format!("{path}{key}"),
            format!("expected a uint, found a {}", other.kind()),
        )),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smallest_encodings() {
        assert_eq!(encode(&Value::UInt(5)).unwrap(), [0x05]);
        assert_eq!(encode(&Value::UInt(0x80)).unwrap(), [0xcc, 0x80]);
        assert_eq!(encode(&Value::UInt(0x2e12)).unwrap(), [0xcd, 0x2e, 0x12]);
        assert_eq!(
            encode(&Value::UInt(0x002f_0041)).unwrap(),
            [0xce, 0x00, 0x2f, 0x00, 0x41]
        );
        assert_eq!(encode(&Value::str(".cs")).unwrap(), b"\xa3.cs");
    }

    #[test]
    fn non_minimal_input_decodes_to_the_same_value() {
        assert_eq!(decode(&[0xcd, 0x00, 0x05]).unwrap(), Value::UInt(5));
        assert_eq!(decode(&[0xd0, 0x05]).unwrap(), Value::UInt(5));
        assert_eq!(decode(&[0xd0, 0xfb]).unwrap(), Value::Int(-5));
    }

    /// Random trees (fixed seed) survive encode → decode, and re-encoding is stable.
    #[test]
    fn random_trees_round_trip() {
        fn gen(seed: &mut u64, depth: u32) -> Value {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            let r = *seed;
            let n = (r >> 8) as usize % 20;
            match if depth > 3 { r % 6 } else { r % 8 } {
                0 => Value::Nil,
                1 => Value::Bool(r & 256 != 0),
                2 => Value::UInt(r >> (r % 64)),
                3 => Value::Int(-((r >> (r % 63 + 1)) as i64) - 1),
                4 => Value::Str("é.x".repeat(n * (1 + (r as usize >> 20) % 4))),
                5 => Value::Bin(vec![r as u8; n * 20]),
                6 => Value::Array((0..n).map(|_| gen(seed, depth + 1)).collect()),
                _ => Value::Map(
                    (0..n)
                        .map(|i| {
                            let k = if i % 2 == 0 {
                                Key::UInt(i as u64 * 0x1234)
                            } else {
                                Key::Str(format!(".k{i}"))
                            };
                            (k, gen(seed, depth + 1))
                        })
                        .collect(),
                ),
            }
        }
        let mut seed = 0x1234_5678_9abc_def1u64;
        for _ in 0..300 {
            let v = gen(&mut seed, 0);
            let bytes = encode(&v).unwrap();
            assert_eq!(decode(&bytes).unwrap(), v);
            assert_eq!(encode(&decode(&bytes).unwrap()).unwrap(), bytes);
        }
    }

    #[test]
    fn hostile_lengths_are_errors() {
        // array32 claiming 4 billion items in a 5-byte payload.
        let e = decode(&[0xdd, 0xff, 0xff, 0xff, 0xff]).unwrap_err();
        assert!(matches!(e, Error::Msgpack { offset: 0, .. }), "{e}");
        // 100 nested arrays.
        let deep = vec![0x91; 100];
        assert!(matches!(decode(&deep), Err(Error::Msgpack { .. })));
        // duplicate key
        let dup = [0x82, 0x01, 0x02, 0x01, 0x03];
        assert!(matches!(
            decode(&dup),
            Err(Error::Msgpack { offset: 3, .. })
        ));
    }
}
