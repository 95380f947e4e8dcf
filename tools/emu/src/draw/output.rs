//! The output merger: colour exports decoded by SPI_SHADER_COL_FORMAT, converted into
//! the attachment's format, blended, masked; the depth test and write.
//!
//! Export formats (4 bits per MRT in SPI_SHADER_COL_FORMAT): 0 ZERO (no output),
//! 1 32_R, 2 32_GR, 3 32_AR, 4 FP16_ABGR, 5 UNORM16_ABGR, 6 SNORM16_ABGR, 7 UINT16_ABGR,
//! 8 SINT16_ABGR, 9 32_ABGR. 16-bit formats hold (r, g) in the low/high halves of one
//! dword and (b, a) in another: GFX9/GFX10.3 compressed exports take them from slots 0
//! and 2 (`compr`), GFX11 (no `compr`) from slots 0 and 1. Channels a format lacks are
//! 0, alpha 1. UINT16/SINT16 need an integer attachment, which no supported format is
//! (`Unsupported`).
//!
//! Attachments: R8G8B8A8_UNORM and R16G16B16A16_UNORM (round to nearest after clamping to
//! [0, 1]), R16G16B16A16_SNORM (likewise in [-1, 1]), R16G16B16A16_SFLOAT (round to
//! nearest even), R32G32B32A32_SFLOAT, R32G32_SFLOAT, R32_SFLOAT; D32_SFLOAT depth.
//! Blending (Vulkan): the source is clamped to the range of normalized attachments, the
//! destination read back from the attachment; one equation for colour and alpha.

use super::desc::{BlendFactor, BlendOp, ColorAttachment, ColorFormat};
use super::{Draw, Images};
use crate::error::{Error, Result};
use crate::export::Export;
use crate::float::{f16_to_f32, f32_to_f16};

/// The attachments being drawn.
pub struct Framebuffer {
    pub width: u32,
    pub height: u32,
    pub color: Vec<(ColorAttachment, Vec<u8>)>,
    pub depth: Option<(super::desc::DepthAttachment, Vec<f32>)>,
}

/// Bytes of one pixel in `f`, from channel values.
pub fn encode(f: ColorFormat, c: [f32; 4]) -> Vec<u8> {
    match f {
        ColorFormat::R8G8B8A8_UNORM => c
            .iter()
            .map(|&x| {
                let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
                (x * 255.0).round() as u8
            })
            .collect(),
        ColorFormat::R16G16B16A16_SFLOAT => c
            .iter()
            .flat_map(|&x| f32_to_f16(x).to_le_bytes())
            .collect(),
        ColorFormat::R32G32B32A32_SFLOAT => c.iter().flat_map(|x| x.to_le_bytes()).collect(),
        ColorFormat::R32_SFLOAT => c[0].to_le_bytes().to_vec(),
        ColorFormat::R32G32_SFLOAT => c[..2].iter().flat_map(|x| x.to_le_bytes()).collect(),
        ColorFormat::R16G16B16A16_UNORM => c
            .iter()
            .flat_map(|&x| {
                let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
                ((x * 65535.0).round() as u16).to_le_bytes()
            })
            .collect(),
        ColorFormat::R16G16B16A16_SNORM => c
            .iter()
            .flat_map(|&x| {
                let x = if x.is_nan() { 0.0 } else { x.clamp(-1.0, 1.0) };
                ((x * 32767.0).round() as i16).to_le_bytes()
            })
            .collect(),
    }
}

/// Channel values of one pixel of `f` (missing channels 0, alpha 1).
pub fn decode(f: ColorFormat, b: &[u8]) -> [f32; 4] {
    match f {
        ColorFormat::R8G8B8A8_UNORM => [0, 1, 2, 3].map(|k| b[k] as f32 / 255.0),
        ColorFormat::R16G16B16A16_SFLOAT => {
            [0, 1, 2, 3].map(|k| f16_to_f32(u16::from_le_bytes([b[2 * k], b[2 * k + 1]])))
        }
        ColorFormat::R32G32B32A32_SFLOAT => [0, 1, 2, 3]
            .map(|k| f32::from_le_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]])),
        ColorFormat::R32_SFLOAT => [f32::from_le_bytes([b[0], b[1], b[2], b[3]]), 0.0, 0.0, 1.0],
        ColorFormat::R32G32_SFLOAT => [
            f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            f32::from_le_bytes([b[4], b[5], b[6], b[7]]),
            0.0,
            1.0,
        ],
        ColorFormat::R16G16B16A16_UNORM => {
            [0, 1, 2, 3].map(|k| u16::from_le_bytes([b[2 * k], b[2 * k + 1]]) as f32 / 65535.0)
        }
        ColorFormat::R16G16B16A16_SNORM => [0, 1, 2, 3]
            .map(|k| (i16::from_le_bytes([b[2 * k], b[2 * k + 1]]) as f32 / 32767.0).max(-1.0)),
    }
}

fn halves(v: u32, f: impl Fn(u16) -> f32) -> [f32; 2] {
    [f(v as u16), f((v >> 16) as u16)]
}

/// The colour of `lane` in export `e` under export format `fmt` (None: format ZERO).
pub fn export_color(fmt: u32, e: &Export, lane: usize, gfx11: bool) -> Result<Option<[f32; 4]>> {
    let s = e.data[lane];
    let f = f32::from_bits;
    let (lo, hi) = if gfx11 { (s[0], s[1]) } else { (s[0], s[2]) };
    if (4..=8).contains(&fmt) && !gfx11 && !e.compr {
        return Err(Error::new(crate::error::ErrorKind::Graphics(format!(
            "export at {:#x}: 16-bit export format {fmt} needs a compressed export",
            e.pc
        ))));
    }
    if (4..=8).contains(&fmt) && gfx11 && e.en & 3 != 3 && e.en != 0xf {
        return Err(Error::new(crate::error::ErrorKind::Graphics(format!(
            "export at {:#x}: 16-bit export format {fmt} needs slots 0 and 1",
            e.pc
        ))));
    }
    let pk = |conv: &dyn Fn(u16) -> f32| {
        let [r, g] = halves(lo, conv);
        let [b, a] = halves(hi, conv);
        [r, g, b, a]
    };
    Ok(Some(match fmt {
        0 => return Ok(None),
        1 => [f(s[0]), 0.0, 0.0, 1.0],
        2 => [f(s[0]), f(s[1]), 0.0, 1.0],
        3 => [f(s[0]), 0.0, 0.0, f(s[1])],
        4 => pk(&f16_to_f32),
        5 => pk(&|h| h as f32 / 65535.0),
        6 => pk(&|h| (h as i16 as f32 / 32767.0).max(-1.0)),
        9 => [f(s[0]), f(s[1]), f(s[2]), f(s[3])],
        7 | 8 => {
            return Err(Error::unsupported(
                "UINT16/SINT16 exports: no integer attachment formats yet",
            ))
        }
        _ => {
            return Err(Error::new(crate::error::ErrorKind::Graphics(format!(
                "SPI_SHADER_COL_FORMAT value {fmt} is reserved"
            ))))
        }
    }))
}

fn factor(f: BlendFactor, src: [f32; 4], dst: [f32; 4], k: usize) -> f32 {
    match f {
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
        let n = (d.width * d.height) as usize;
        let color = d
            .desc
            .color_attachments
            .iter()
            .map(|a| {
                let px = encode(a.format, a.clear.map(|x| x as f32));
                (a.clone(), px.repeat(n))
            })
            .collect();
        Framebuffer {
            width: d.width,
            height: d.height,
            color,
            depth: d.desc.depth_attachment.map(|a| (a, vec![a.clear; n])),
        }
    }

    /// Depth test (and write) at (x, y); whether the fragment survives.
    pub fn depth(&mut self, x: u32, y: u32, z: f32) -> bool {
        let i = (y * self.width + x) as usize;
        let Some((a, buf)) = &mut self.depth else {
            return true;
        };
        if a.test && !a.compare.test(z, buf[i]) {
            return false;
        }
        if a.test && a.write {
            buf[i] = z;
        }
        true
    }

    /// Blends `src` into attachment `n` at (x, y).
    pub fn write(&mut self, n: usize, x: u32, y: u32, src: [f32; 4]) {
        let (a, buf) = &mut self.color[n];
        let bpp = a.format.bytes();
        let i = (y * self.width + x) as usize * bpp;
        let dst = decode(a.format, &buf[i..i + bpp]);
        let mut src = src;
        if let Some((lo, hi)) = a.format.clamp() {
            src = src.map(|x| if x.is_nan() { 0.0 } else { x.clamp(lo, hi) });
        }
        let mut out = match a.blend {
            None => src,
            Some(b) => {
                let mut o = [0f32; 4];
                for k in 0..4 {
                    let s = src[k] * factor(b.src, src, dst, k);
                    let d = dst[k] * factor(b.dst, src, dst, k);
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
        let px = encode(a.format, out);
        buf[i..i + bpp].copy_from_slice(&px);
    }

    pub fn images(self) -> Images {
        Images {
            width: self.width,
            height: self.height,
            color: self.color.into_iter().map(|c| c.1).collect(),
            depth: self
                .depth
                .map(|(_, d)| d.iter().flat_map(|z| z.to_le_bytes()).collect()),
        }
    }
}
