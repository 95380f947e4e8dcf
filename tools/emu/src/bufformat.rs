//! Typed buffer formats (`buffer_*_format_*`, `tbuffer_*`): decoding a format code into
//! component sizes and a numeric type, and converting elements to and from the 32-bit
//! register values.
//!
//! Codes: GFX9 `dfmt | nfmt << 4`, GFX10/GFX11 the unified format; the (data, numeric)
//! pair of a code comes from the ISA table (`isa_tables/buf_formats.txt`, typed by the
//! compiler's build as `BufData` / `BufNum`: `gcnc::isa::format::mtbuf::format_of`).
//! Data formats of byte-sized equal components (8, 16, 8_8, 32, ..., 32_32_32_32) are read
//! component by component; packed ones (2_10_10_10: x in bits 9:0, y 19:10, z 29:20, w
//! 31:30) as one element whose components are bit fields. Float components are 16 or 32
//! bits (10_11_11 / 11_11_10 floats are `Unsupported`).

use crate::error::{Error, Result};
use gcnc::isa::format::mtbuf::format_of;
use gcnc::isa::{BufNum, Gen};

/// The numeric types, shared with image formats (buffer formats have no SRGB: `decode`
/// never makes one).
pub use crate::texformat::Num;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufFormat {
    /// Bits per component, x first.
    pub bits: Vec<u32>,
    pub num: Num,
}

/// The format of `code` on `gen`.
pub fn decode(gen: Gen, code: u32) -> Result<BufFormat> {
    let bad = || Error::unsupported(format!("buffer format {code} on {gen}"));
    let (data, num) = u8::try_from(code)
        .ok()
        .and_then(|c| format_of(gen, c))
        .ok_or_else(bad)?;
    let num = match num {
        BufNum::Unorm => Num::Unorm,
        BufNum::Snorm => Num::Snorm,
        BufNum::Uscaled => Num::Uscaled,
        BufNum::Sscaled => Num::Sscaled,
        BufNum::Uint => Num::Uint,
        BufNum::Sint => Num::Sint,
        BufNum::Float => Num::Float,
    };
    let bits = data.bits().to_vec();
    if num == Num::Float && bits.iter().any(|&b| b != 16 && b != 32) {
        return Err(bad());
    }
    Ok(BufFormat { bits, num })
}

/// The buffer format code (GFX9 `dfmt | nfmt << 4`, GFX10+ unified) of an image format
/// whose components are all 8, 16 or 32 bits (texel buffers), if `gen` has one.
pub fn code_of(gen: Gen, f: &crate::texformat::TexFormat) -> Option<u32> {
    if f.num == Num::Srgb {
        return None;
    }
    let want = BufFormat {
        bits: vec![f.bits[0] as u32; f.comps as usize],
        num: f.num,
    };
    (1..128).find(|&c| decode(gen, c).is_ok_and(|b| b == want))
}

impl BufFormat {
    pub fn comps(&self) -> u32 {
        self.bits.len() as u32
    }

    pub fn bytes(&self) -> u32 {
        self.bits.iter().sum::<u32>() / 8
    }

    /// Where component `k` is: (byte offset, bytes read, bit shift in them). Byte-sized
    /// equal components are read alone; packed ones from the whole element.
    pub fn place(&self, k: u32) -> (u32, u32, u32) {
        if self.packed() {
            (0, self.bytes(), self.bits[..k as usize].iter().sum())
        } else {
            let b = self.bits[0];
            (k * b / 8, b / 8, 0)
        }
    }

    /// Components are bit fields of one element (not byte-sized and equal).
    pub fn packed(&self) -> bool {
        let b = self.bits[0];
        b % 8 != 0 || self.bits.iter().any(|&x| x != b)
    }

    /// Component `k` of the bytes `place(k)` read → register value.
    pub fn extract(&self, k: u32, raw: u32) -> u32 {
        let (_, _, shift) = self.place(k);
        let b = self.bits[k as usize];
        let v = if b == 32 {
            raw
        } else {
            (raw >> shift) & ((1 << b) - 1)
        };
        self.to_reg(b, v)
    }

    /// A raw `b`-bit component → register value.
    fn to_reg(&self, b: u32, raw: u32) -> u32 {
        let max = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
        let sx = |v: u32| -> i32 {
            if b == 32 {
                v as i32
            } else {
                ((v << (32 - b)) as i32) >> (32 - b)
            }
        };
        match self.num {
            Num::Unorm | Num::Srgb => (raw as f64 / max as f64).to_bits_f32(),
            Num::Snorm => {
                let m = (max >> 1) as f64;
                ((sx(raw) as f64 / m).max(-1.0)).to_bits_f32()
            }
            Num::Uscaled => (raw as f32).to_bits(),
            Num::Sscaled => (sx(raw) as f32).to_bits(),
            Num::Uint => raw,
            Num::Sint => sx(raw) as u32,
            Num::Float => match b {
                32 => raw,
                16 => crate::float::f16_to_f32(raw as u16).to_bits(),
                _ => 0,
            },
        }
    }

    /// Register value → raw component `k` (round to nearest even, saturate).
    pub fn from_reg(&self, k: u32, v: u32) -> u32 {
        let b = self.bits[k as usize];
        let max = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
        let f = f32::from_bits(v) as f64;
        let mask = max;
        match self.num {
            Num::Unorm | Num::Srgb => (if f.is_nan() {
                0.0
            } else {
                f.clamp(0.0, 1.0) * max as f64
            })
            .round_ties_even() as u32,
            Num::Snorm => {
                let m = (max >> 1) as f64;
                ((if f.is_nan() {
                    0.0
                } else {
                    f.clamp(-1.0, 1.0) * m
                })
                .round_ties_even() as i64 as u32)
                    & mask
            }
            Num::Uscaled => (f.max(0.0).min(max as f64) as u32) & mask,
            Num::Sscaled => (f as i64 as u32) & mask,
            Num::Uint | Num::Sint => v & mask,
            Num::Float => match b {
                32 => v,
                16 => crate::float::f32_to_f16(f32::from_bits(v)) as u32,
                _ => 0,
            },
        }
    }

    /// The value of a component the format lacks: 0, or 1 (1.0 for float-like) for w.
    pub fn missing(&self, k: u32) -> u32 {
        if k < 3 {
            return 0;
        }
        match self.num {
            Num::Uint | Num::Sint => 1,
            _ => 1.0f32.to_bits(),
        }
    }
}

trait ToBitsF32 {
    fn to_bits_f32(self) -> u32;
}
impl ToBitsF32 for f64 {
    fn to_bits_f32(self) -> u32 {
        (self as f32).to_bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_from_the_isa_table() {
        let f = |bits: &[u32], num| BufFormat {
            bits: bits.to_vec(),
            num,
        };
        assert_eq!(decode(Gen::Gfx10, 56).unwrap(), f(&[8; 4], Num::Unorm));
        assert_eq!(decode(Gen::Gfx11, 42).unwrap(), f(&[8; 4], Num::Unorm));
        assert_eq!(decode(Gen::Gfx11, 22).unwrap(), f(&[32], Num::Float));
        assert_eq!(
            decode(Gen::Gfx9, 14 | 7 << 4).unwrap(),
            f(&[32; 4], Num::Float)
        );
        assert_eq!(
            decode(Gen::Gfx9, 10 | 4 << 4).unwrap(),
            f(&[8; 4], Num::Uint)
        );
        let g = decode(Gen::Gfx10, 56).unwrap();
        assert_eq!(g.extract(0, 255), 1.0f32.to_bits());
        assert_eq!(g.from_reg(0, 0.5f32.to_bits()), 128);
    }

    #[test]
    fn packed_2_10_10_10_components_are_bit_fields_x_lowest() {
        // GFX9 dfmt 9 (2_10_10_10), nfmt 1 (SNORM)
        let f = decode(Gen::Gfx9, 9 | 1 << 4).unwrap();
        assert_eq!(f.bits, [10, 10, 10, 2]);
        let raw = 511 | 0x200 << 10 | 3 << 30; // x = 511, y = -512, w = -1
        assert_eq!(f32::from_bits(f.extract(0, raw)), 1.0);
        assert_eq!(f32::from_bits(f.extract(1, raw)), -1.0);
        assert_eq!(f32::from_bits(f.extract(2, raw)), 0.0);
        assert_eq!(f32::from_bits(f.extract(3, raw)), -1.0);
        assert_eq!(f.place(3), (0, 4, 30));
    }
}
