//! The byte protocol between the parent and a RADV worker process (`vkref radv-worker`),
//! over the child's stdin/stdout.
//!
//! Every message is a frame: a little-endian u32 byte length, then that many bytes. Inside a
//! frame, values are written in order with no tags except a leading message tag byte:
//! integers little-endian, byte strings and UTF-8 strings as u32 length + bytes, lists as
//! u32 count + items. [`Reader`] checks every length against what is left, so a truncated
//! or corrupt frame is an [`Error`] naming the byte offset, never a panic or a huge
//! allocation.

use std::fmt;
use std::io::{Read, Write};

/// A malformed frame: byte offset inside the frame and what was expected there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub offset: usize,
    pub why: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "worker protocol: at byte {}: {}", self.offset, self.why)
    }
}

impl std::error::Error for Error {}

/// Largest frame accepted (a huge SPIR-V module plus its disassembly fits easily).
pub const MAX_FRAME: usize = 256 << 20;

/// Builds a frame body.
#[derive(Default)]
pub struct Writer {
    pub buf: Vec<u8>,
}

impl Writer {
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.buf.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub fn bytes(&mut self, v: &[u8]) -> &mut Self {
        self.u32(v.len() as u32);
        self.buf.extend_from_slice(v);
        self
    }
    pub fn str(&mut self, v: &str) -> &mut Self {
        self.bytes(v.as_bytes())
    }
}

/// Reads a frame body.
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], Error> {
        if self.buf.len() - self.pos < n {
            return Err(Error {
                offset: self.pos,
                why: format!("{what}: need {n} bytes, {} left", self.buf.len() - self.pos),
            });
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    pub fn u8(&mut self) -> Result<u8, Error> {
        Ok(self.take(1, "u8")?[0])
    }
    pub fn u32(&mut self) -> Result<u32, Error> {
        let b = self.take(4, "u32")?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    pub fn u64(&mut self) -> Result<u64, Error> {
        let b = self.take(8, "u64")?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    pub fn bytes(&mut self) -> Result<&'a [u8], Error> {
        let n = self.u32()? as usize;
        self.take(n, "byte string")
    }
    pub fn str(&mut self) -> Result<String, Error> {
        let at = self.pos;
        let b = self.bytes()?;
        String::from_utf8(b.to_vec()).map_err(|_| Error {
            offset: at,
            why: "string is not UTF-8".into(),
        })
    }
    /// A list count, checked against a lower bound of bytes per item.
    pub fn count(&mut self, min_item: usize) -> Result<usize, Error> {
        let at = self.pos;
        let n = self.u32()? as usize;
        if n.saturating_mul(min_item.max(1)) > self.buf.len() - self.pos {
            return Err(Error {
                offset: at,
                why: format!("list of {n} items cannot fit in the frame"),
            });
        }
        Ok(n)
    }
    pub fn end(&self) -> Result<(), Error> {
        if self.pos != self.buf.len() {
            return Err(Error {
                offset: self.pos,
                why: format!("{} trailing bytes", self.buf.len() - self.pos),
            });
        }
        Ok(())
    }
}

/// Writes one frame and flushes.
pub fn send(w: &mut impl Write, body: &[u8]) -> std::io::Result<()> {
    w.write_all(&(body.len() as u32).to_le_bytes())?;
    w.write_all(body)?;
    w.flush()
}

/// Reads one frame; `Ok(None)` at a clean end of stream (before a length).
pub fn recv(r: &mut impl Read) -> std::io::Result<Option<Vec<u8>>> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        let n = r.read(&mut len[got..])?;
        if n == 0 {
            if got == 0 {
                return Ok(None);
            }
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "truncated frame length",
            ));
        }
        got += n;
    }
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_FRAME {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("frame of {len} bytes"),
        ));
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body)?;
    Ok(Some(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_truncation() {
        let mut w = Writer::default();
        w.u8(7)
            .u32(0xdead_beef)
            .u64(u64::MAX)
            .str("Code size")
            .bytes(&[1, 2, 3]);
        let mut r = Reader::new(&w.buf);
        assert_eq!(r.u8().unwrap(), 7);
        assert_eq!(r.u32().unwrap(), 0xdead_beef);
        assert_eq!(r.u64().unwrap(), u64::MAX);
        assert_eq!(r.str().unwrap(), "Code size");
        assert_eq!(r.bytes().unwrap(), &[1, 2, 3]);
        r.end().unwrap();
        let cut = &w.buf[..w.buf.len() - 1];
        let mut r = Reader::new(cut);
        r.u8().unwrap();
        r.u32().unwrap();
        r.u64().unwrap();
        r.str().unwrap();
        let e = r.bytes().unwrap_err();
        assert_eq!(e.offset, 30);
        let mut r = Reader::new(&[0xff, 0xff, 0xff, 0x7f]);
        assert!(r.count(4).is_err());
    }
}
