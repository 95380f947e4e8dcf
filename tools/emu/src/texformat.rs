//! Image resource formats: decoding a T#'s format fields into component sizes and a
//! numeric type, and converting one texel between its memory bits and the four 32-bit
//! register values the shader sees.
//!
//! Design: a [`TexFormat`] is the component sizes in memory order (x in the lowest bits)
//! plus one numeric type for all components (SRGB applies to x, y, z; w stays linear).
//! AMD names formats MSB first (`2_10_10_10` has x in bits 9:0 and w in 31:30), so a name's
//! sizes are reversed here. The names of the codes come from the ISA tables: the buffer
//! formats LLVM prints (`isa_tables/buf_formats.txt`, shared with images on GFX10/GFX11) and
//! the image-only codes (`isa_tables/img_formats.txt`: SRGB, 5_6_5). Any other code is an
//! `Unsupported` error naming it.
//!
//! Invariants: a float-like format (UNORM, SNORM, USCALED, SSCALED, FLOAT, SRGB) reads as
//! f32 bits and writes from them; UINT/SINT read as integers (sign-extended for SINT) and
//! write by truncation to the component's width. Components the format lacks read as 0
//! (x, y, z) and 1 / 1.0 (w), before the descriptor's DST_SEL swizzle.

use crate::error::{Error, Result};
use gcnc::isa::Gen;

const BUF_TABLE: &str = include_str!("../../../isa_tables/buf_formats.txt");
const IMG_TABLE: &str = include_str!("../../../isa_tables/img_formats.txt");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
    Srgb,
}

impl Num {
    /// AMD's name of a numeric type (`UNORM`, `FLOAT`, ...).
    pub(crate) fn parse(s: &str) -> Option<Num> {
        Some(match s {
            "UNORM" => Num::Unorm,
            "SNORM" => Num::Snorm,
            "USCALED" => Num::Uscaled,
            "SSCALED" => Num::Sscaled,
            "UINT" => Num::Uint,
            "SINT" => Num::Sint,
            "FLOAT" => Num::Float,
            "SRGB" => Num::Srgb,
            _ => return None,
        })
    }

    /// Integer (not float-like) register values.
    pub fn is_int(self) -> bool {
        matches!(self, Num::Uint | Num::Sint)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexFormat {
    /// Component sizes in bits, x first (lowest bits); `comps` of them are used.
    pub bits: [u8; 4],
    pub comps: u8,
    pub num: Num,
}

/// `8_8_8_8` → sizes LSB first, if every size is one the emulator converts.
fn sizes(s: &str) -> Option<([u8; 4], u8)> {
    let mut parts: Vec<u8> = s
        .split('_')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    parts.reverse();
    if parts.is_empty() || parts.len() > 4 {
        return None;
    }
    let mut bits = [0u8; 4];
    bits[..parts.len()].copy_from_slice(&parts);
    Some((bits, parts.len() as u8))
}

/// `8_8_8_8_UNORM` → a format, if the emulator converts it.
fn parse_name(name: &str) -> Option<TexFormat> {
    let (sz, ty) = name.rsplit_once('_')?;
    let (bits, comps) = sizes(sz)?;
    let num = Num::parse(ty)?;
    let f = TexFormat { bits, comps, num };
    f.supported().then_some(f)
}

/// The name LLVM gives code `code` of `gen`'s buffer formats (`-`: the default).
fn buf_name(tag: &str, code: u32) -> Option<String> {
    let code = code.to_string();
    let line = BUF_TABLE.lines().find(|l| {
        let mut w = l.split_whitespace();
        w.next() == Some(tag) && w.next() == Some(code.as_str())
    })?;
    let rest = line.split_whitespace().nth(2)?;
    if rest == "-" {
        return Some(
            match tag {
                "gfx9" => "BUF_DATA_FORMAT_8",
                _ => "BUF_FMT_8_UNORM",
            }
            .to_string(),
        );
    }
    let inner = rest.strip_prefix('[')?.strip_suffix(']')?;
    Some(inner.split(',').next()?.to_string())
}

fn img_name(tag: &str, code: u32) -> Option<&'static str> {
    let code = code.to_string();
    IMG_TABLE.lines().find_map(|l| {
        let mut w = l.split_whitespace();
        (w.next() == Some(tag) && w.next() == Some(code.as_str()))
            .then(|| w.next())
            .flatten()
    })
}

fn gen_tag(gen: Gen) -> &'static str {
    match gen {
        Gen::Gfx9 => "gfx9",
        Gen::Gfx10 => "gfx10",
        Gen::Gfx11 => "gfx11",
    }
}

const GFX9_NUM: [&str; 8] = [
    "UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "", "FLOAT",
];

impl TexFormat {
    /// A format by AMD's name, e.g. `8_8_8_8_UNORM`, `32_FLOAT`, `2_10_10_10_UINT` (None:
    /// not one the emulator converts).
    pub fn named(name: &str) -> Option<TexFormat> {
        parse_name(name)
    }

    /// The format of a T#: GFX9 `data` = DATA_FORMAT, `num` = NUM_FORMAT; GFX10/GFX11
    /// `data` = FORMAT, `num` unused.
    pub fn from_image(gen: Gen, data: u32, num: u32) -> Result<TexFormat> {
        let bad = || Error::unsupported(format!("image format {data}/{num} on {gen}"));
        let name = match gen {
            Gen::Gfx9 => {
                let sz = match buf_name("gfx9", data).filter(|_| data < 16) {
                    Some(n) => n
                        .strip_prefix("BUF_DATA_FORMAT_")
                        .ok_or_else(bad)?
                        .to_string(),
                    None => img_name("gfx9-data", data).ok_or_else(bad)?.to_string(),
                };
                let ty = match GFX9_NUM.get(num as usize).filter(|s| !s.is_empty()) {
                    Some(t) => *t,
                    None => img_name("gfx9-num", num).ok_or_else(bad)?,
                };
                format!("{sz}_{ty}")
            }
            _ => match img_name(gen_tag(gen), data) {
                Some(n) => n.to_string(),
                None => buf_name(gen_tag(gen), data)
                    .and_then(|n| n.strip_prefix("BUF_FMT_").map(str::to_string))
                    .ok_or_else(bad)?,
            },
        };
        parse_name(&name).ok_or_else(|| Error::unsupported(format!("image format {name}")))
    }

    /// The T# format fields of `self` on `gen`: (GFX9 DATA_FORMAT or GFX10+ FORMAT,
    /// GFX9 NUM_FORMAT or 0). Used by descriptor builders (tests, the pipeline harness).
    pub fn image_code(&self, gen: Gen) -> Option<(u32, u32)> {
        let probe = |data: u32, num: u32| {
            TexFormat::from_image(gen, data, num)
                .ok()
                .filter(|f| f == self)
                .map(|_| (data, num))
        };
        match gen {
            Gen::Gfx9 => (0..64).find_map(|d| (0..16).find_map(|n| probe(d, n))),
            _ => (1..256).find_map(|c| probe(c, 0)),
        }
    }

    /// Whether texels of this format convert (sizes the emulator handles).
    fn supported(&self) -> bool {
        let b = &self.bits[..self.comps as usize];
        let total: u32 = b.iter().map(|&x| x as u32).sum();
        let equal = b.iter().all(|&x| x == b[0]) && matches!(b[0], 8 | 16 | 32);
        let packed = matches!(
            (b, self.num),
            ([11, 11, 10] | [10, 11, 11], Num::Float)
                | ([10, 10, 10, 2] | [2, 10, 10, 10], _)
                | ([5, 6, 5], Num::Unorm)
        );
        let float_ok = match self.num {
            Num::Float => equal && b[0] >= 16 || packed,
            Num::Srgb => equal && b[0] == 8,
            _ => true,
        };
        (equal || packed) && float_ok && total.is_multiple_of(8)
    }

    /// Bytes of one texel.
    pub fn bytes(&self) -> u32 {
        self.bits[..self.comps as usize]
            .iter()
            .map(|&b| b as u32)
            .sum::<u32>()
            / 8
    }

    /// The components (register values, missing ones filled) of a texel's bytes.
    pub fn decode(&self, bytes: &[u8]) -> [u32; 4] {
        let mut out = self.missing();
        let mut at = 0u32;
        for (k, slot) in out.iter_mut().enumerate().take(self.comps as usize) {
            let b = self.bits[k] as u32;
            *slot = self.component_value(get_bits(bytes, at, b), b, k);
            at += b;
        }
        out
    }

    /// The bytes of a texel from four register values (components beyond `comps` ignored).
    pub fn encode(&self, regs: [u32; 4]) -> Vec<u8> {
        let mut out = vec![0u8; self.bytes() as usize];
        let mut at = 0u32;
        for (k, &reg) in regs.iter().enumerate().take(self.comps as usize) {
            let b = self.bits[k] as u32;
            set_bits(&mut out, at, b, self.component_bits(reg, b, k));
            at += b;
        }
        out
    }

    /// The register values of components the format lacks: (0, 0, 0, 1).
    pub fn missing(&self) -> [u32; 4] {
        let one = if self.num.is_int() {
            1
        } else {
            1.0f32.to_bits()
        };
        [0, 0, 0, one]
    }

    /// Component `k` (of `b` bits) → register value.
    fn component_value(&self, raw: u32, b: u32, k: usize) -> u32 {
        let max = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
        let sx = |v: u32| -> i32 {
            if b == 32 {
                v as i32
            } else {
                ((v << (32 - b)) as i32) >> (32 - b)
            }
        };
        let f = |x: f64| (x as f32).to_bits();
        match self.num {
            Num::Unorm => f(raw as f64 / max as f64),
            Num::Srgb if k < 3 => f(srgb_to_linear(raw as f64 / max as f64)),
            Num::Srgb => f(raw as f64 / max as f64),
            Num::Snorm => f((sx(raw) as f64 / (max >> 1) as f64).max(-1.0)),
            Num::Uscaled => (raw as f32).to_bits(),
            Num::Sscaled => (sx(raw) as f32).to_bits(),
            Num::Uint => raw,
            Num::Sint => sx(raw) as u32,
            Num::Float => match b {
                32 => raw,
                16 => crate::float::f16_to_f32(raw as u16).to_bits(),
                _ => small_float_to_f32(raw, b - 5).to_bits(),
            },
        }
    }

    /// Register value → component `k` of `b` bits (round to nearest even, saturate).
    fn component_bits(&self, v: u32, b: u32, k: usize) -> u32 {
        let max = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
        let f = f32::from_bits(v) as f64;
        let norm = |x: f64, lo: f64| -> f64 {
            if x.is_nan() {
                0.0
            } else {
                x.clamp(lo, 1.0)
            }
        };
        match self.num {
            Num::Unorm => (norm(f, 0.0) * max as f64).round_ties_even() as u32,
            Num::Srgb if k < 3 => {
                (linear_to_srgb(norm(f, 0.0)) * max as f64).round_ties_even() as u32
            }
            Num::Srgb => (norm(f, 0.0) * max as f64).round_ties_even() as u32,
            Num::Snorm => {
                ((norm(f, -1.0) * (max >> 1) as f64).round_ties_even() as i64 as u32) & max
            }
            Num::Uscaled => (f.max(0.0).min(max as f64) as u32) & max,
            Num::Sscaled => (f as i64 as u32) & max,
            Num::Uint | Num::Sint => v & max,
            Num::Float => match b {
                32 => v,
                16 => crate::float::f32_to_f16(f32::from_bits(v)) as u32,
                _ => f32_to_small_float(f32::from_bits(v), b - 5),
            },
        }
    }
}

/// The `n`-bit field (n ≤ 32) at bit `at` of a texel of any width: read from the byte that
/// holds its first bit, so fields past the first 64 bits (z and w of a 96- or 128-bit
/// texel) come from their own bytes.
fn get_bits(bytes: &[u8], at: u32, n: u32) -> u32 {
    let mut v = 0u64;
    for (i, &b) in bytes.iter().skip((at / 8) as usize).enumerate().take(5) {
        v |= (b as u64) << (8 * i);
    }
    ((v >> (at % 8)) & ((1u64 << n) - 1)) as u32
}

fn set_bits(bytes: &mut [u8], at: u32, n: u32, x: u32) {
    for i in 0..n {
        let bit = at + i;
        let m = 1u8 << (bit % 8);
        if x >> i & 1 == 1 {
            bytes[(bit / 8) as usize] |= m;
        } else {
            bytes[(bit / 8) as usize] &= !m;
        }
    }
}

/// The sRGB electro-optical transfer function (Vulkan's "sRGB EOTF").
pub fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Its inverse, for stores.
pub fn linear_to_srgb(l: f64) -> f64 {
    if l <= 0.0031308 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    }
}

/// An unsigned float with a 5-bit exponent (bias 15) and `m` mantissa bits (the 11- and
/// 10-bit components of 10_11_11 / 11_11_10).
pub fn small_float_to_f32(raw: u32, m: u32) -> f32 {
    let e = (raw >> m) & 31;
    let f = raw & ((1 << m) - 1);
    let frac = f as f32 / (1u32 << m) as f32;
    match e {
        0 => frac * 2f32.powi(-14),
        31 if f == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + frac) * 2f32.powi(e as i32 - 15),
    }
}

/// f32 → unsigned small float, round to nearest even; negatives become 0, NaN stays NaN,
/// values above the largest finite one become infinity.
pub fn f32_to_small_float(x: f32, m: u32) -> u32 {
    if x.is_nan() {
        return 31 << m | 1;
    }
    if x <= 0.0 {
        return 0;
    }
    // search the nearest representable value (at most 2^(m+5) candidates, m ≤ 6)
    let n = 1u32 << (m + 5);
    let mut best = 0u32;
    let mut err = f64::INFINITY;
    for raw in 0..n {
        let v = small_float_to_f32(raw, m) as f64;
        if v.is_nan() {
            continue;
        }
        let d = (v - x as f64).abs();
        if d < err || (d == err && raw & 1 == 0) {
            best = raw;
            err = d;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(gen: Gen, data: u32, num: u32) -> TexFormat {
        TexFormat::from_image(gen, data, num).unwrap()
    }

    #[test]
    fn codes_per_generation_name_the_same_formats() {
        let rgba8 = |num| TexFormat {
            bits: [8; 4],
            comps: 4,
            num,
        };
        assert_eq!(f(Gen::Gfx9, 10, 0), rgba8(Num::Unorm));
        assert_eq!(f(Gen::Gfx10, 56, 0), rgba8(Num::Unorm));
        assert_eq!(f(Gen::Gfx11, 42, 0), rgba8(Num::Unorm));
        assert_eq!(f(Gen::Gfx9, 10, 9), rgba8(Num::Srgb));
        assert_eq!(f(Gen::Gfx10, 130, 0), rgba8(Num::Srgb));
        assert_eq!(f(Gen::Gfx11, 66, 0), rgba8(Num::Srgb));
        let r11g11b10 = TexFormat {
            bits: [11, 11, 10, 0],
            comps: 3,
            num: Num::Float,
        };
        assert_eq!(f(Gen::Gfx9, 6, 7), r11g11b10);
        assert_eq!(f(Gen::Gfx10, 36, 0), r11g11b10);
        assert_eq!(f(Gen::Gfx11, 30, 0), r11g11b10);
        let r565 = TexFormat {
            bits: [5, 6, 5, 0],
            comps: 3,
            num: Num::Unorm,
        };
        assert_eq!(f(Gen::Gfx9, 16, 0), r565);
        assert_eq!(f(Gen::Gfx10, 133, 0), r565);
        assert_eq!(f(Gen::Gfx11, 68, 0), r565);
        for gen in Gen::ALL {
            for fmt in [r565, r11g11b10, rgba8(Num::Srgb), rgba8(Num::Sint)] {
                let (d, n) = fmt.image_code(gen).unwrap();
                assert_eq!(f(gen, d, n), fmt);
            }
        }
        assert!(
            TexFormat::from_image(Gen::Gfx11, 109, 0).is_err(),
            "BC1 is not modelled"
        );
    }

    #[test]
    fn texel_conversions() {
        let a2 = f(Gen::Gfx10, 50, 0); // 2_10_10_10_UNORM: x bits 9:0, w bits 31:30
        let t = a2.decode(&(1023u32 | 3 << 30).to_le_bytes());
        assert_eq!(t, [1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()]);
        let fl = f(Gen::Gfx10, 36, 0); // 10_11_11_FLOAT
                                       // 1.0 = exponent 15, mantissa 0, in each 11-bit component and the 10-bit one
        let one11 = 15u32 << 6;
        let one10 = 15u32 << 5;
        let bits = one11 | one11 << 11 | one10 << 22;
        let t = fl.decode(&bits.to_le_bytes());
        assert_eq!(t[..3], [1.0f32.to_bits(); 3]);
        assert_eq!(fl.encode(t), bits.to_le_bytes());
        let srgb = f(Gen::Gfx11, 66, 0);
        let t = srgb.decode(&[188, 0, 255, 128]);
        assert!((f32::from_bits(t[0]) - 0.5029).abs() < 1e-3);
        assert_eq!(f32::from_bits(t[3]), 128.0 / 255.0, "alpha stays linear");
        assert_eq!(srgb.encode(t), vec![188, 0, 255, 128]);
        let s8 = f(Gen::Gfx9, 1, 1); // 8_SNORM: -128 and -127 both read -1
        assert_eq!(
            s8.decode(&[0x80]),
            [(-1.0f32).to_bits(), 0, 0, 1.0f32.to_bits()]
        );
        let r565 = f(Gen::Gfx11, 68, 0);
        assert_eq!(
            r565.decode(&0xf800u16.to_le_bytes())[..3],
            [0, 0, 1.0f32.to_bits()]
        );
    }

    /// 64-, 96- and 128-bit texels: every component from its own four bytes, both ways.
    #[test]
    fn wide_texels_keep_every_component() {
        for (name, n) in [
            ("32_32_UINT", 2),
            ("32_32_32_FLOAT", 3),
            ("32_32_32_32_UINT", 4),
            ("32_32_32_32_FLOAT", 4),
        ] {
            let f = TexFormat::named(name).unwrap();
            let words: Vec<u32> = (1..=n).map(|k| 0x1020_3040 * k + k).collect();
            let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let t = f.decode(&bytes);
            assert_eq!(t[..n as usize], words[..], "{name}");
            assert_eq!(f.encode(t), bytes, "{name}");
        }
    }
}
