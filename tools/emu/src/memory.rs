//! The GPU address space, buffer resource descriptors (V#) and their range checks.
//!
//! `Memory` is sparse: 4 KiB pages in a `BTreeMap`, plus the list of mapped ranges. Every
//! access must fall inside a mapped range, otherwise it is a `MemFault` (hardware would
//! page-fault or read garbage; we report). Out-of-range *buffer* accesses are not faults:
//! the V# range check turns them into zero loads and dropped stores before memory is
//! touched, as the hardware does.
//!
//! V# fields (all three generations): dword0 base[31:0]; dword1 base[47:32] in [15:0],
//! stride in [29:16], swizzle enable in [31] (GFX9/GFX10.3: [`Swizzle::Legacy`], refused
//! at access) or [31:30] (GFX11: 0 off, 1/2/3 = 4/8/16-byte elements); dword2
//! num_records; dword3 GFX10+ OOB_SELECT in [29:28], GFX9/10/11 ADD_TID_ENABLE in [23],
//! INDEX_STRIDE in [22:21] (8 << n indices, used when swizzled).
//!
//! Range checking (per dword of an access, so a straddling load returns its in-range part):
//! - GFX9: stride 0 → out of range when the byte offset ≥ num_records; stride ≠ 0 →
//!   out of range when index ≥ num_records.
//! - GFX10/GFX11 by OOB_SELECT: 0 structured-with-offset (index ≥ num_records or
//!   offset ≥ stride), 1 structured (index ≥ num_records), 2 disabled (never), 3 raw
//!   (byte offset ≥ num_records; GFX11 swizzled with a stride: as 0). For SMEM `s_buffer_load` the offset is checked against
//!   num_records as bytes on every generation.

use crate::error::{Error, ErrorKind, Result};
use gcnc::isa::Gen;
use std::collections::BTreeMap;

const PAGE: u64 = 4096;

#[derive(Clone, Debug, Default)]
pub struct Memory {
    pages: BTreeMap<u64, Box<[u8]>>,
    ranges: Vec<(u64, u64)>,
}

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Makes `[addr, addr+len)` accessible (zero filled).
    pub fn map(&mut self, addr: u64, len: u64) {
        if len > 0 {
            self.ranges.push((addr, addr + len));
        }
    }

    pub fn is_mapped(&self, addr: u64, len: u64) -> bool {
        let end = addr.saturating_add(len);
        self.ranges.iter().any(|&(a, b)| addr >= a && end <= b)
    }

    fn check(&self, addr: u64, len: u64, write: bool) -> Result<()> {
        if self.is_mapped(addr, len) {
            Ok(())
        } else {
            Err(Error::new(ErrorKind::MemFault {
                addr,
                size: len,
                write,
            }))
        }
    }

    fn byte(&self, a: u64) -> u8 {
        self.pages
            .get(&(a / PAGE))
            .map(|p| p[(a % PAGE) as usize])
            .unwrap_or(0)
    }

    fn set_byte(&mut self, a: u64, v: u8) {
        let p = self
            .pages
            .entry(a / PAGE)
            .or_insert_with(|| vec![0u8; PAGE as usize].into_boxed_slice());
        p[(a % PAGE) as usize] = v;
    }

    pub fn read(&self, addr: u64, buf: &mut [u8]) -> Result<()> {
        self.check(addr, buf.len() as u64, false)?;
        for (i, b) in buf.iter_mut().enumerate() {
            *b = self.byte(addr + i as u64);
        }
        Ok(())
    }

    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<()> {
        self.check(addr, data.len() as u64, true)?;
        for (i, &b) in data.iter().enumerate() {
            self.set_byte(addr + i as u64, b);
        }
        Ok(())
    }

    pub fn read_u32(&self, addr: u64) -> Result<u32> {
        let mut b = [0; 4];
        self.read(addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    pub fn write_u32(&mut self, addr: u64, v: u32) -> Result<()> {
        self.write(addr, &v.to_le_bytes())
    }

    /// Reads `len` bytes into a new vector.
    pub fn read_vec(&self, addr: u64, len: usize) -> Result<Vec<u8>> {
        let mut v = vec![0; len];
        self.read(addr, &mut v)?;
        Ok(v)
    }
}

/// Swizzled addressing of a V# (`BufferDesc::swizzle`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swizzle {
    /// Linear: `index·stride + offset`.
    Off,
    /// GFX11 SWIZZLE_ENABLE (dword 1 bits 31:30) 1/2/3: elements of 4/8/16 bytes;
    /// INDEX_STRIDE (dword 3 bits 22:21) 0..3: 8/16/32/64 indices.
    On { element: u32, index_stride: u32 },
    /// GFX9/GFX10.3 SWIZZLE_ENABLE (dword 1 bit 31): their element sizes are not
    /// modelled; an access through it is `Unsupported`.
    Legacy,
}

/// A decoded buffer resource descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferDesc {
    pub base: u64,
    pub stride: u32,
    pub num_records: u32,
    pub swizzle: Swizzle,
    pub add_tid: bool,
    /// GFX10+ OOB_SELECT (GFX9: None).
    pub oob_select: Option<u8>,
}

impl BufferDesc {
    pub fn decode(gen: Gen, d: [u32; 4]) -> BufferDesc {
        let swizzle = match gen {
            Gen::Gfx11 => match d[1] >> 30 {
                0 => Swizzle::Off,
                e => Swizzle::On {
                    element: 2 << e,
                    index_stride: 8 << (d[3] >> 21 & 3),
                },
            },
            _ if d[1] >> 31 == 1 => Swizzle::Legacy,
            _ => Swizzle::Off,
        };
        BufferDesc {
            base: d[0] as u64 | ((d[1] & 0xffff) as u64) << 32,
            stride: (d[1] >> 16) & 0x3fff,
            num_records: d[2],
            swizzle,
            add_tid: (d[3] >> 23) & 1 == 1,
            oob_select: (gen != Gen::Gfx9).then_some(((d[3] >> 28) & 3) as u8),
        }
    }

    /// The byte offset from the base (SOFFSET not included) of byte `offset` of record
    /// `index`: linear `index·stride + offset`, or swizzled (the ISA's swizzled buffer
    /// addressing, as AMD's gem5 model computes it): with element size E and index stride
    /// N, `(index / N · stride + offset / E · E) · N + index % N · E + offset % E`.
    pub fn byte_offset(&self, index: u32, offset: u64) -> u64 {
        let stride = self.stride as u64;
        match self.swizzle {
            Swizzle::On {
                element,
                index_stride,
            } => {
                let (e, n, i) = (element as u64, index_stride as u64, index as u64);
                (i / n * stride + offset / e * e) * n + i % n * e + offset % e
            }
            Swizzle::Off | Swizzle::Legacy => index as u64 * stride + offset,
        }
    }

    /// Builds the four dwords of a raw (byte-addressed) buffer of `size` bytes at `base`.
    pub fn raw(gen: Gen, base: u64, size: u32) -> [u32; 4] {
        let d3 = match gen {
            Gen::Gfx9 => 0,
            _ => 3 << 28,
        };
        [base as u32, (base >> 32) as u32 & 0xffff, size, d3]
    }

    /// Is the dword at byte `offset` (within the record) of record `index` in range?
    /// `offset` here is the total byte offset for raw accesses (index·stride included).
    pub fn in_range(&self, index: u32, offset: u64, structured: bool) -> bool {
        match self.oob_select {
            None => {
                if self.stride == 0 || !structured {
                    offset < self.num_records as u64
                } else {
                    index < self.num_records
                }
            }
            Some(0) => {
                index < self.num_records && (self.stride == 0 || offset < self.stride as u64)
            }
            Some(1) => index < self.num_records,
            Some(2) => true,
            // GFX11: swizzled with a stride checks as structured-with-offset
            _ if matches!(self.swizzle, Swizzle::On { .. }) && self.stride != 0 => {
                index < self.num_records && offset < self.stride as u64
            }
            _ => offset < self.num_records as u64,
        }
    }
}

/// The LDS of one workgroup: byte addressed, bounds checked.
#[derive(Clone, Debug)]
pub struct Lds {
    pub bytes: Vec<u8>,
}

impl Lds {
    pub fn new(size: usize) -> Lds {
        Lds {
            bytes: vec![0; size],
        }
    }
    /// LDS reads out of the allocation return 0 (the hardware's rule); None means OOB.
    pub fn read_u32(&self, addr: u32) -> Option<u32> {
        let a = addr as usize;
        let b = self.bytes.get(a..a + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    /// Writes out of the allocation are dropped; returns whether it landed.
    pub fn write_u32(&mut self, addr: u32, v: u32) -> bool {
        let a = addr as usize;
        match self.bytes.get_mut(a..a + 4) {
            Some(b) => {
                b.copy_from_slice(&v.to_le_bytes());
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparse_memory_faults_outside_mappings() {
        let mut m = Memory::new();
        m.map(0x1000_0000, 16);
        m.write_u32(0x1000_000c, 7).unwrap();
        assert_eq!(m.read_u32(0x1000_000c).unwrap(), 7);
        assert!(matches!(
            m.read_u32(0x1000_000e).unwrap_err().kind,
            ErrorKind::MemFault { .. }
        ));
        assert!(m.write_u32(0x2000_0000, 1).is_err());
    }

    #[test]
    fn descriptor_round_trip_and_ranges() {
        for gen in Gen::ALL {
            let d = BufferDesc::decode(gen, BufferDesc::raw(gen, 0x1234_5678_9abc, 64));
            assert_eq!(d.base, 0x1234_5678_9abc);
            assert_eq!(d.num_records, 64);
            assert!(d.in_range(0, 60, false));
            assert!(!d.in_range(0, 64, false));
        }
        // GFX10 structured-with-offset
        let d = BufferDesc::decode(Gen::Gfx10, [0, 16 << 16, 4, 0]);
        assert!(d.in_range(3, 12, true));
        assert!(!d.in_range(4, 0, true));
        assert!(!d.in_range(0, 16, true));
        // disabled checks
        let d = BufferDesc::decode(Gen::Gfx11, [0, 0, 0, 2 << 28]);
        assert!(d.in_range(1000, 1 << 20, false));
        // GFX9 structured
        let d = BufferDesc::decode(Gen::Gfx9, [0, 8 << 16, 2, 0]);
        assert!(d.in_range(1, 4, true));
        assert!(!d.in_range(2, 0, true));
    }
}
