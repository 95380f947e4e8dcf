//! The output merger: colour exports decoded by SPI_SHADER_COL_FORMAT, converted into
//! the attachment's format, blended, masked; the depth test and write.
//!
//! Export formats (4 bits per MRT in SPI_SHADER_COL_FORMAT): 0 ZERO (no output),
//! 1 32_R, 2 32_GR, 3 32_AR (alpha in slot 3 on GFX9, slot 1 on GFX10+), 4 FP16_ABGR, 5 UNORM16_ABGR, 6 SNORM16_ABGR, 7 UINT16_ABGR,
//! 8 SINT16_ABGR, 9 32_ABGR. 16-bit formats hold (r, g) in the low/high halves of one
//! dword and (b, a) in another: GFX9/GFX10.3 compressed exports take them from slots 0
//! and 2 (`compr`), GFX11 (no `compr`) from slots 0 and 1. Channels a format lacks are
//! 0, alpha 1. An export is channel bit patterns: f32 for the float exports (FP16 and
//! UNORM16/SNORM16 widened to f32), integers for UINT16/SINT16 (zero- or sign-extended),
//! whatever the shader wrote for the 32-bit exports; integer attachments take integers
//! (a float 16-bit export to one is an error), the others floats (likewise UINT16/SINT16).
//!
//! Attachments: every format of `gcnc::amdgpu::attachment_format` (its channel layout).
//! Float conversion: UNORM/SRGB clamp to [0, 1] (SRGB: colour channels encoded with the
//! sRGB curve, alpha linear), SNORM to [-1, 1], then round to nearest; SFLOAT16 rounds to
//! nearest even; integers clamp to the channel's range. D32_SFLOAT depth.
//! Blending (Vulkan): float formats only; the source is clamped to the range of
//! normalized attachments, the destination read back from the attachment (SRGB decoded
//! to linear); one equation for colour and alpha. Dual-source blending (a SRC1 factor,
//! attachment 0 alone): the second source comes from `mrt1` with MRT 1's export format
//! (GFX9/GFX10.3), or on GFX11 from `dual_src_blend0/1`, which hold each lane pair
//! (2k, 2k+1) as one pixel's (source 0, source 1) — target 0 the even pixel of the pair,
//! target 1 the odd one; it is clamped like the first.
//!
//! A 16-bit export on GFX11 may leave its second slot off (blue and alpha unused, as
//! Mesa's `ac_nir_lower_ps` does for a pair it does not write); those channels read 0.

use super::desc::{BlendFactor, BlendOp, ColorAttachment, ColorFormat};
use super::{Draw, Images};
use crate::error::{Error, Result};
use crate::export::Export;
use crate::float::{f16_to_f32, f32_to_f16};
use gcnc::amdgpu::abi_graphics::ColorFormat as AbiColor;
use gcnc::amdgpu::attachment_format::Num;
use gcnc::isa::Gen;

/// The attachments being drawn: each holds `layers` × `samples` planes of `width` ×
/// `height` pixels, layer 0's samples first, sample 0 first in each layer (`row`).
pub struct Framebuffer {
    pub width: u32,
    pub height: u32,
    pub samples: u32,
    /// Array layers of every attachment.
    pub layers: u32,
    pub color: Vec<(ColorAttachment, Vec<u8>)>,
    pub depth: Option<(super::desc::DepthAttachment, Vec<f32>)>,
}

fn mask(bits: u32) -> u32 {
    if bits == 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    }
}

fn sign_extend(v: u32, bits: u32) -> i32 {
    ((v << (32 - bits)) as i32) >> (32 - bits)
}

fn srgb_encode(x: f32) -> f32 {
    if x <= 0.0031308 {
        12.92 * x
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    }
}

fn srgb_decode(x: f32) -> f32 {
    if x <= 0.04045 {
        x / 12.92
    } else {
        ((x + 0.055) / 1.055).powf(2.4)
    }
}

/// The raw bits of channel `k` (R, G, B, A) of one pixel of `f` (None: the format lacks
/// it).
pub fn raw(f: ColorFormat, px: &[u8], k: usize) -> Option<u32> {
    let &(shift, bits) = f.channels().get(k)?;
    let mut b = [0u8; 16];
    b[..px.len()].copy_from_slice(px);
    Some((u128::from_le_bytes(b) >> shift) as u32 & mask(bits))
}

/// The bytes of one pixel of `f` from channel raw bits.
fn pack(f: ColorFormat, raw: [u32; 4]) -> Vec<u8> {
    let mut v = 0u128;
    for (k, &(shift, bits)) in f.channels().iter().enumerate() {
        v |= ((raw[k] & mask(bits)) as u128) << shift;
    }
    v.to_le_bytes()[..f.bytes()].to_vec()
}

/// Bytes of one pixel in `f`, from channel values (floats; integer formats take them
/// as integers, saturated).
pub fn encode(f: ColorFormat, c: [f32; 4]) -> Vec<u8> {
    if f.is_int() {
        return encode_int(f, c.map(|x| x as i64));
    }
    let mut r = [0u32; 4];
    for (k, &(_, bits)) in f.channels().iter().enumerate() {
        let x = if c[k].is_nan() && f.num() != Num::Float {
            0.0
        } else {
            c[k]
        };
        let max = mask(bits) as f32;
        r[k] = match f.num() {
            Num::Unorm => (x.clamp(0.0, 1.0) * max).round() as u32,
            Num::Srgb if k < 3 => (srgb_encode(x.clamp(0.0, 1.0)) * max).round() as u32,
            Num::Srgb => (x.clamp(0.0, 1.0) * max).round() as u32,
            Num::Snorm => {
                let m = (mask(bits) >> 1) as f32;
                (x.clamp(-1.0, 1.0) * m).round() as i32 as u32
            }
            Num::Float if bits == 16 => f32_to_f16(x) as u32,
            Num::Float => x.to_bits(),
            Num::Uint | Num::Sint => unreachable!("integer formats return above"),
        };
    }
    pack(f, r)
}

/// Bytes of one pixel of an integer format from integer channel values, each saturated
/// to its channel's range.
pub fn encode_int(f: ColorFormat, c: [i64; 4]) -> Vec<u8> {
    let mut r = [0u32; 4];
    for (k, &(_, bits)) in f.channels().iter().enumerate() {
        r[k] = if f.num() == Num::Sint {
            let hi = (mask(bits) >> 1) as i64;
            c[k].clamp(-hi - 1, hi) as u32
        } else {
            c[k].clamp(0, mask(bits) as i64) as u32
        };
    }
    pack(f, r)
}

/// Channel values of one pixel of `f` (missing channels 0, alpha 1; integers as their
/// value).
pub fn decode(f: ColorFormat, b: &[u8]) -> [f32; 4] {
    let mut c = [0.0, 0.0, 0.0, 1.0];
    for (k, &(_, bits)) in f.channels().iter().enumerate() {
        let r = raw(f, b, k).unwrap_or(0);
        let max = mask(bits) as f64;
        c[k] = match f.num() {
            Num::Unorm => (r as f64 / max) as f32,
            Num::Srgb if k < 3 => srgb_decode((r as f64 / max) as f32),
            Num::Srgb => (r as f64 / max) as f32,
            Num::Snorm => (sign_extend(r, bits) as f32 / (mask(bits) >> 1) as f32).max(-1.0),
            Num::Float if bits == 16 => f16_to_f32(r as u16),
            Num::Float => f32::from_bits(r),
            Num::Uint => r as f32,
            Num::Sint => sign_extend(r, bits) as f32,
        };
    }
    c
}

/// Integer channel values of one pixel of an integer format (missing: 0, alpha 1).
fn decode_int(f: ColorFormat, b: &[u8]) -> [i64; 4] {
    let mut c = [0, 0, 0, 1];
    for (k, &(_, bits)) in f.channels().iter().enumerate() {
        let r = raw(f, b, k).unwrap_or(0);
        c[k] = if f.num() == Num::Sint {
            sign_extend(r, bits) as i64
        } else {
            r as i64
        };
    }
    c
}

/// The range blending's source is clamped to (normalized formats).
fn clamp_range(f: ColorFormat) -> Option<(f32, f32)> {
    match f.num() {
        Num::Unorm | Num::Srgb => Some((0.0, 1.0)),
        Num::Snorm => Some((-1.0, 1.0)),
        _ => None,
    }
}

fn halves(v: u32, f: impl Fn(u16) -> u32) -> [u32; 2] {
    [f(v as u16), f((v >> 16) as u16)]
}

/// One lane's exported colour: channel bit patterns and whether they are integers
/// from a 16-bit integer export (module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exported {
    pub bits: [u32; 4],
    /// `Some(true)`: UINT16/SINT16 (integers); `Some(false)`: FP16/UNORM16/SNORM16
    /// (floats); `None`: a 32-bit export (what the shader wrote).
    pub int: Option<bool>,
}

fn graphics(msg: String) -> Error {
    Error::new(crate::error::ErrorKind::Graphics(msg))
}

/// The colour of `lane` in export `e` under export format `fmt` (None: format ZERO).
pub fn export_color(fmt: u32, e: &Export, lane: usize, gen: Gen) -> Result<Option<Exported>> {
    let s = e.data[lane];
    let gfx11 = gen == Gen::Gfx11;
    let (lo, hi) = if gfx11 { (s[0], s[1]) } else { (s[0], s[2]) };
    if (4..=8).contains(&fmt) && !gfx11 && !e.compr {
        return Err(graphics(format!(
            "export at {:#x}: 16-bit export format {fmt} needs a compressed export",
            e.pc
        )));
    }
    if (4..=8).contains(&fmt) && gfx11 && e.en & 0xc != 0 && e.en != 0xf {
        return Err(graphics(format!(
            "export at {:#x}: 16-bit export format {fmt} reads slots 0 and 1 only",
            e.pc
        )));
    }
    let pk = |conv: &dyn Fn(u16) -> u32| {
        let [r, g] = halves(lo, conv);
        let [b, a] = halves(hi, conv);
        [r, g, b, a]
    };
    let one = 1f32.to_bits();
    let alpha = AbiColor::ar32_alpha_slot(gen);
    let (bits, int) = match fmt {
        0 => return Ok(None),
        1 => ([s[0], 0, 0, one], None),
        2 => ([s[0], s[1], 0, one], None),
        3 => ([s[0], 0, 0, s[alpha]], None),
        4 => (pk(&|h| f16_to_f32(h).to_bits()), Some(false)),
        5 => (pk(&|h| (h as f32 / 65535.0).to_bits()), Some(false)),
        6 => (
            pk(&|h| (h as i16 as f32 / 32767.0).max(-1.0).to_bits()),
            Some(false),
        ),
        7 => (pk(&|h| h as u32), Some(true)),
        8 => (pk(&|h| h as i16 as i32 as u32), Some(true)),
        9 => ([s[0], s[1], s[2], s[3]], None),
        _ => {
            return Err(graphics(format!(
                "SPI_SHADER_COL_FORMAT value {fmt} is reserved"
            )))
        }
    };
    Ok(Some(Exported { bits, int }))
}

/// Blend factor `f` for channel `k` (one equation for colour and alpha: on alpha, the
/// COLOR factors read alpha).
fn factor(f: BlendFactor, src: [f32; 4], src1: [f32; 4], dst: [f32; 4], k: usize) -> f32 {
    match f {
        BlendFactor::SRC1_COLOR => src1[k],
        BlendFactor::ONE_MINUS_SRC1_COLOR => 1.0 - src1[k],
        BlendFactor::SRC1_ALPHA => src1[3],
        BlendFactor::ONE_MINUS_SRC1_ALPHA => 1.0 - src1[3],
        BlendFactor::ZERO => 0.0,
        BlendFactor::ONE => 1.0,
        BlendFactor::SRC_COLOR => src[k],
        BlendFactor::ONE_MINUS_SRC_COLOR => 1.0 - src[k],
        BlendFactor::DST_COLOR => dst[k],
        BlendFactor::ONE_MINUS_DST_COLOR => 1.0 - dst[k],
        BlendFactor::SRC_ALPHA => src[3],
        BlendFactor::ONE_MINUS_SRC_ALPHA => 1.0 - src[3],
        BlendFactor::DST_ALPHA => dst[3],
        BlendFactor::ONE_MINUS_DST_ALPHA => 1.0 - dst[3],
    }
}

impl Framebuffer {
    pub fn new(d: &Draw) -> Framebuffer {
        let n = (d.width * d.height * d.desc.samples * d.layers()) as usize;
        let color = d
            .desc
            .color_attachments
            .iter()
            .map(|a| {
                let px = if a.format.is_int() {
                    encode_int(a.format, a.clear.map(|x| x as i64))
                } else {
                    encode(a.format, a.clear.map(|x| x as f32))
                };
                (a.clone(), px.repeat(n))
            })
            .collect();
        Framebuffer {
            width: d.width,
            height: d.height,
            samples: d.desc.samples,
            layers: d.layers(),
            color,
            depth: d.desc.depth_attachment.map(|a| (a, vec![a.clear; n])),
        }
    }

    /// The row of sample `s` of pixel row `y` of layer `layer` in the stacked planes
    /// (layer-major, then sample), which `depth` and `write` take as their `y`.
    pub fn row(&self, y: u32, s: u32, layer: u32) -> u32 {
        (layer * self.samples + s) * self.height + y
    }

    /// Depth test (and write) at (x, y); whether the fragment survives.
    pub fn depth(&mut self, x: u32, y: u32, z: f32) -> bool {
        let i = (y * self.width + x) as usize;
        let Some((a, buf)) = &mut self.depth else {
            return true;
        };
        if a.test && !a.compare.passes(z, buf[i]) {
            return false;
        }
        if a.test && a.write {
            buf[i] = z;
        }
        true
    }

    /// Writes the exported colour `e` (with dual-source blending, `src1` the second
    /// source) into attachment `n` at (x, y): converted, blended (float formats), masked.
    pub fn write(
        &mut self,
        n: usize,
        x: u32,
        y: u32,
        e: Exported,
        src1: Option<Exported>,
    ) -> Result<()> {
        let (a, buf) = &mut self.color[n];
        let f = a.format;
        let bpp = f.bytes();
        let i = (y * self.width + x) as usize * bpp;
        if e.int == Some(!f.is_int()) {
            return Err(graphics(format!(
                "colour attachment {n} ({}) written by a 16-bit {} export",
                f.name(),
                if f.is_int() { "float" } else { "integer" }
            )));
        }
        let dual = a.dual_source();
        let src1 = match (dual, src1) {
            (false, _) => [0.0; 4],
            (true, Some(s1)) => s1.bits.map(f32::from_bits),
            (true, _) => {
                return Err(graphics(format!(
                    "colour attachment {n} blends with a second source the shader does not export"
                )))
            }
        };
        let px = if f.is_int() {
            let dst = decode_int(f, &buf[i..i + bpp]);
            let mut v = e.bits.map(|b| {
                if f.num() == Num::Sint {
                    b as i32 as i64
                } else {
                    b as i64
                }
            });
            for (k, o) in v.iter_mut().enumerate() {
                if a.write_mask >> k & 1 == 0 {
                    *o = dst[k];
                }
            }
            encode_int(f, v)
        } else {
            let dst = decode(f, &buf[i..i + bpp]);
            let mut src = e.bits.map(f32::from_bits);
            let mut src1 = src1;
            if let Some((lo, hi)) = clamp_range(f) {
                let clamp = |x: f32| if x.is_nan() { 0.0 } else { x.clamp(lo, hi) };
                src = src.map(clamp);
                src1 = src1.map(clamp);
            }
            let mut out = match a.blend {
                None => src,
                Some(b) => {
                    let mut o = [0f32; 4];
                    for k in 0..4 {
                        let s = src[k] * factor(b.src, src, src1, dst, k);
                        let d = dst[k] * factor(b.dst, src, src1, dst, k);
                        o[k] = match b.op {
                            BlendOp::ADD => s + d,
                            BlendOp::SUBTRACT => s - d,
                            BlendOp::REVERSE_SUBTRACT => d - s,
                            BlendOp::MIN => src[k].min(dst[k]),
                            BlendOp::MAX => src[k].max(dst[k]),
                        };
                    }
                    o
                }
            };
            for (k, o) in out.iter_mut().enumerate() {
                if a.write_mask >> k & 1 == 0 {
                    *o = dst[k];
                }
            }
            encode(f, out)
        };
        buf[i..i + bpp].copy_from_slice(&px);
        Ok(())
    }

    pub fn images(self) -> Images {
        let plane = (self.width * self.height) as usize;
        let samples = self.samples as usize;
        // each layer resolved alone, the layers' images one after another
        let resolved = self
            .color
            .iter()
            .map(|(a, buf)| {
                buf.chunks(plane * samples * a.format.bytes())
                    .flat_map(|l| resolve(a.format, l, plane, samples))
                    .collect()
            })
            .collect();
        Images {
            width: self.width,
            height: self.height,
            samples: self.samples,
            layers: self.layers,
            resolved,
            color: self.color.into_iter().map(|c| c.1).collect(),
            depth: self
                .depth
                .map(|(_, d)| d.iter().flat_map(|z| z.to_le_bytes()).collect()),
        }
    }
}

/// The resolved image of `samples` stacked planes of `plane` pixels in format `f`, as
/// vkCmdResolveImage defines it: per pixel the average of its samples' values for float,
/// normalized and sRGB formats (averaged after decoding, so sRGB in linear space), and
/// sample 0 for integer formats. One sample: the image itself.
pub fn resolve(f: ColorFormat, buf: &[u8], plane: usize, samples: usize) -> Vec<u8> {
    let bpp = f.bytes();
    if samples == 1 || f.is_int() {
        return buf[..plane * bpp].to_vec();
    }
    let mut out = Vec::with_capacity(plane * bpp);
    for i in 0..plane {
        let mut sum = [0f64; 4];
        for s in 0..samples {
            let at = (s * plane + i) * bpp;
            let c = decode(f, &buf[at..at + bpp]);
            for k in 0..4 {
                sum[k] += c[k] as f64;
            }
        }
        out.extend(encode(f, sum.map(|x| (x / samples as f64) as f32)));
    }
    out
}
