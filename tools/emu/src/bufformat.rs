//! Typed buffer formats (`buffer_*_format_*`, `tbuffer_*`): decoding a format code into
//! component sizes and a numeric type, and converting elements to and from the 32-bit
//! register values.
//!
//! Codes: GFX9 `dfmt | nfmt << 4` (data formats 8, 16, 8_8, 32, 16_16, 8_8_8_8, 32_32,
//! 16_16_16_16, 32_32_32, 32_32_32_32 by their LLVM names; numeric formats UNORM 0,
//! SNORM 1, USCALED 2, SSCALED 3, UINT 4, SINT 5, FLOAT 7). GFX10/GFX11: the unified
//! format, whose names come from `isa_tables/buf_formats.txt` (LLVM's names, recorded by
//! the ISA sweep), e.g. `BUF_FMT_8_8_8_8_UNORM`. Packed formats with unequal components
//! (10_11_11, 2_10_10_10, ...) are `Unsupported`.

use crate::error::{Error, Result};
use gcnc::isa::Gen;

const TABLE: &str = include_str!("../../../isa_tables/buf_formats.txt");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufFormat {
    /// Bits per component (all equal), 8/16/32.
    pub bits: u32,
    pub comps: u32,
    pub num: Num,
}

fn num_of(s: &str) -> Option<Num> {
    Some(match s {
        "UNORM" => Num::Unorm,
        "SNORM" => Num::Snorm,
        "USCALED" => Num::Uscaled,
        "SSCALED" => Num::Sscaled,
        "UINT" => Num::Uint,
        "SINT" => Num::Sint,
        "FLOAT" => Num::Float,
        _ => return None,
    })
}

fn sizes(s: &str) -> Option<(u32, u32)> {
    let parts: Vec<u32> = s
        .split('_')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let first = *parts.first()?;
    (parts.iter().all(|&p| p == first) && matches!(first, 8 | 16 | 32))
        .then_some((first, parts.len() as u32))
}

/// The format of `code` on `gen`.
pub fn decode(gen: Gen, code: u32) -> Result<BufFormat> {
    let bad = || Error::unsupported(format!("buffer format {code} on {gen}"));
    match gen {
        Gen::Gfx9 => {
            let (dfmt, nfmt) = (code & 0xf, (code >> 4) & 7);
            let line = TABLE
                .lines()
                .find(|l| {
                    l.starts_with("gfx9 ") && l.split_whitespace().nth(1) == Some(&dfmt.to_string())
                })
                .ok_or_else(bad)?;
            // `-` is LLVM's default data format, 8
            let name = line
                .split('[')
                .nth(1)
                .and_then(|r| r.split([',', ']']).next())
                .unwrap_or("BUF_DATA_FORMAT_8");
            let (bits, comps) =
                sizes(name.strip_prefix("BUF_DATA_FORMAT_").ok_or_else(bad)?).ok_or_else(bad)?;
            let num = match nfmt {
                0 => Num::Unorm,
                1 => Num::Snorm,
                2 => Num::Uscaled,
                3 => Num::Sscaled,
                4 => Num::Uint,
                5 => Num::Sint,
                7 => Num::Float,
                _ => return Err(bad()),
            };
            Ok(BufFormat { bits, comps, num })
        }
        _ => {
            let tag = if gen == Gen::Gfx10 {
                "gfx10 "
            } else {
                "gfx11 "
            };
            let line = TABLE
                .lines()
                .find(|l| {
                    l.starts_with(tag) && l.split_whitespace().nth(1) == Some(&code.to_string())
                })
                .ok_or_else(bad)?;
            // `-` is LLVM's default format, 8_UNORM
            let name = line
                .split('[')
                .nth(1)
                .and_then(|r| r.split(']').next())
                .unwrap_or("BUF_FMT_8_UNORM");
            let rest = name.strip_prefix("BUF_FMT_").ok_or_else(bad)?;
            let (sz, ty) = rest.rsplit_once('_').ok_or_else(bad)?;
            let (bits, comps) = sizes(sz).ok_or_else(bad)?;
            Ok(BufFormat {
                bits,
                comps,
                num: num_of(ty).ok_or_else(bad)?,
            })
        }
    }
}

/// The buffer format code (GFX9 `dfmt | nfmt << 4`, GFX10+ unified) of an image format
/// whose components are all 8, 16 or 32 bits (texel buffers), if `gen` has one.
pub fn code_of(gen: Gen, f: &crate::texformat::TexFormat) -> Option<u32> {
    use crate::texformat::Num as T;
    let num = match f.num {
        T::Unorm => Num::Unorm,
        T::Snorm => Num::Snorm,
        T::Uscaled => Num::Uscaled,
        T::Sscaled => Num::Sscaled,
        T::Uint => Num::Uint,
        T::Sint => Num::Sint,
        T::Float => Num::Float,
        T::Srgb => return None,
    };
    let want = BufFormat {
        bits: f.bits[0] as u32,
        comps: f.comps as u32,
        num,
    };
    (1..128).find(|&c| decode(gen, c).is_ok_and(|b| b == want))
}

impl BufFormat {
    pub fn bytes(&self) -> u32 {
        self.bits * self.comps / 8
    }

    /// Raw component `k` of an element → register value.
    pub fn to_reg(&self, raw: u32) -> u32 {
        let b = self.bits;
        let max = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
        let sx = |v: u32| -> i32 {
            if b == 32 {
                v as i32
            } else {
                ((v << (32 - b)) as i32) >> (32 - b)
            }
        };
        match self.num {
            Num::Unorm => (raw as f64 / max as f64).to_bits_f32(),
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

    /// Register value → raw component (round to nearest even, saturate).
    pub fn from_reg(&self, v: u32) -> u32 {
        let b = self.bits;
        let max = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
        let f = f32::from_bits(v) as f64;
        let mask = max;
        match self.num {
            Num::Unorm => (if f.is_nan() {
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
    fn formats_from_llvm_names() {
        assert_eq!(
            decode(Gen::Gfx10, 56).unwrap(),
            BufFormat {
                bits: 8,
                comps: 4,
                num: Num::Unorm
            }
        );
        assert_eq!(
            decode(Gen::Gfx11, 42).unwrap(),
            BufFormat {
                bits: 8,
                comps: 4,
                num: Num::Unorm
            }
        );
        assert_eq!(
            decode(Gen::Gfx11, 22).unwrap(),
            BufFormat {
                bits: 32,
                comps: 1,
                num: Num::Float
            }
        );
        assert_eq!(
            decode(Gen::Gfx9, 14 | 7 << 4).unwrap(),
            BufFormat {
                bits: 32,
                comps: 4,
                num: Num::Float
            }
        );
        assert_eq!(
            decode(Gen::Gfx9, 10 | 4 << 4).unwrap(),
            BufFormat {
                bits: 8,
                comps: 4,
                num: Num::Uint
            }
        );
        let f = decode(Gen::Gfx10, 56).unwrap();
        assert_eq!(f.to_reg(255), 1.0f32.to_bits());
        assert_eq!(f.from_reg(0.5f32.to_bits()), 128);
    }
}
