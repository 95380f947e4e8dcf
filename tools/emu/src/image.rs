//! Image instructions (MIMG): `image_load`, `image_store`, `image_sample` / `_l` / `_lz`
//! on linear (SW_MODE 0) 1D/2D/3D/1D-array/2D-array images of R32_FLOAT and
//! R8G8B8A8_UNORM, with nearest and bilinear filtering and the clamp modes wrap, mirror
//! and clamp-to-edge. Everything else (tiled layouts, other formats, mip levels above the
//! base, cube maps, gather/derivative forms, border colours) is an `Unsupported` /
//! `Unimplemented` error, never a silent guess.
//!
//! T# fields (8 dwords; facts from AMD's register headers as published in ROCr/Mesa):
//! word0 base address >> 8; word1 base[39:32] in [7:0], GFX9 DATA_FORMAT [25:20] and
//! NUM_FORMAT [29:26], GFX10 FORMAT [28:20], GFX11 FORMAT [27:20], GFX10+ WIDTH-1 low bits
//! in [31:30]; word2 GFX9 WIDTH-1 [13:0], GFX10+ WIDTH-1 high bits [11:0], HEIGHT-1
//! [27:14]; word3 SW_MODE [24:20], TYPE [31:28] (8 1D, 9 2D, 10 3D, 12 1D array, 13 2D
//! array); word4 DEPTH [12:0] (depth-1 for 3D, last slice for arrays), GFX10+ BASE_ARRAY
//! [28:16]; GFX9 BASE_ARRAY in word5 [12:0]. Rows are `width` texels apart (a linear
//! image with pitch = width). S#: CLAMP_X/Y/Z in word0 [2:0]/[5:3]/[8:6],
//! FORCE_UNNORMALIZED word0 [15], XY_MAG_FILTER word2 [21:20] (0 point, 1 bilinear).
//! Coordinates outside an image read 0 for loads; stores outside it are dropped.

use crate::error::{Error, Result};
use crate::track::Counter;
use crate::wave::{Env, Wave};
use gcnc::isa::format::mem;
use gcnc::isa::{EncDesc, Field, Gen, Inst, Operand};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    R32Float,
    Rgba8Unorm,
}

#[derive(Clone, Copy, Debug)]
pub struct ImageDesc {
    pub base: u64,
    pub width: u32,
    pub height: u32,
    /// Depth (3D) or number of array layers.
    pub depth: u32,
    pub ty: u32,
    pub fmt: Fmt,
}

impl ImageDesc {
    pub fn decode(gen: Gen, t: &[u32; 8]) -> Result<ImageDesc> {
        let base = (t[0] as u64 | ((t[1] & 0xff) as u64) << 32) << 8;
        let fmt = match gen {
            Gen::Gfx9 => match ((t[1] >> 20) & 0x3f, (t[1] >> 26) & 0xf) {
                (4, 7) => Fmt::R32Float,
                (10, 0) => Fmt::Rgba8Unorm,
                (d, n) => {
                    return Err(Error::unsupported(format!(
                        "image data format {d} / num format {n}"
                    )))
                }
            },
            Gen::Gfx10 => match (t[1] >> 20) & 0x1ff {
                22 => Fmt::R32Float,
                56 => Fmt::Rgba8Unorm,
                f => return Err(Error::unsupported(format!("image format {f}"))),
            },
            Gen::Gfx11 => match (t[1] >> 20) & 0xff {
                22 => Fmt::R32Float,
                42 => Fmt::Rgba8Unorm,
                f => return Err(Error::unsupported(format!("image format {f}"))),
            },
        };
        let width = match gen {
            Gen::Gfx9 => (t[2] & 0x3fff) + 1,
            _ => ((t[1] >> 30) | (t[2] & 0xfff) << 2) + 1,
        };
        let height = ((t[2] >> 14) & 0x3fff) + 1;
        let sw_mode = (t[3] >> 20) & 0x1f;
        if sw_mode != 0 {
            return Err(Error::unsupported(format!(
                "tiled image (SW_MODE {sw_mode})"
            )));
        }
        let ty = t[3] >> 28;
        let base_array = match gen {
            Gen::Gfx9 => t[5] & 0x1fff,
            _ => (t[4] >> 16) & 0x1fff,
        };
        let last = t[4] & 0x1fff;
        let depth = match ty {
            10 | 12 | 13 => last + 1 - base_array.min(last),
            _ => 1,
        };
        if !matches!(ty, 8 | 9 | 10 | 12 | 13) {
            return Err(Error::unsupported(format!("image type {ty}")));
        }
        Ok(ImageDesc {
            base,
            width,
            height,
            depth,
            ty,
            fmt,
        })
    }

    /// Builds a linear T# (used by tests and the CLI).
    pub fn encode(
        gen: Gen,
        base: u64,
        width: u32,
        height: u32,
        depth: u32,
        ty: u32,
        fmt: Fmt,
    ) -> [u32; 8] {
        let mut t = [0u32; 8];
        t[0] = (base >> 8) as u32;
        t[1] = ((base >> 40) & 0xff) as u32;
        let (w1, h1) = (width - 1, height - 1);
        match gen {
            Gen::Gfx9 => {
                let (d, n) = match fmt {
                    Fmt::R32Float => (4, 7),
                    Fmt::Rgba8Unorm => (10, 0),
                };
                t[1] |= d << 20 | n << 26;
                t[2] = w1 | h1 << 14;
            }
            _ => {
                let f = match (gen, fmt) {
                    (_, Fmt::R32Float) => 22,
                    (Gen::Gfx10, Fmt::Rgba8Unorm) => 56,
                    (_, Fmt::Rgba8Unorm) => 42,
                };
                t[1] |= f << 20 | (w1 & 3) << 30;
                t[2] = (w1 >> 2) | h1 << 14;
            }
        }
        t[3] = ty << 28;
        t[4] = depth - 1;
        t
    }

    fn bpp(&self) -> u64 {
        4
    }

    fn addr(&self, x: u32, y: u32, z: u32) -> u64 {
        let pitch = self.width as u64 * self.bpp();
        let slice = pitch * self.height as u64;
        self.base + z as u64 * slice + y as u64 * pitch + x as u64 * self.bpp()
    }

    /// Whether (x, y, z) is a texel of the image.
    fn contains(&self, x: i64, y: i64, z: i64) -> bool {
        (0..self.width as i64).contains(&x)
            && (0..self.height as i64).contains(&y)
            && (0..self.depth as i64).contains(&z)
    }

    /// The texel as RGBA floats, or None outside the image.
    fn texel(&self, env: &Env, x: i64, y: i64, z: i64) -> Result<Option<[f32; 4]>> {
        if !self.contains(x, y, z) {
            return Ok(None);
        }
        let v = env.mem.read_u32(self.addr(x as u32, y as u32, z as u32))?;
        Ok(Some(match self.fmt {
            Fmt::R32Float => [f32::from_bits(v), 0.0, 0.0, 1.0],
            Fmt::Rgba8Unorm => {
                let c = |k: u32| ((v >> (8 * k)) & 0xff) as f32 / 255.0;
                [c(0), c(1), c(2), c(3)]
            }
        }))
    }

    fn store(&self, env: &mut Env, x: i64, y: i64, z: i64, c: [f32; 4]) -> Result<()> {
        if !self.contains(x, y, z) {
            return Ok(());
        }
        let v = match self.fmt {
            Fmt::R32Float => c[0].to_bits(),
            Fmt::Rgba8Unorm => (0..4).fold(0u32, |a, k| {
                let x = c[k as usize];
                let b = if x.is_nan() {
                    0
                } else {
                    (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u32
                };
                a | b << (8 * k)
            }),
        };
        env.mem
            .write_u32(self.addr(x as u32, y as u32, z as u32), v)
    }
}

fn wrap(i: i64, n: u32, mode: u32) -> i64 {
    let n = n as i64;
    match mode {
        0 => i.rem_euclid(n),
        1 => {
            let p = i.rem_euclid(2 * n);
            if p < n {
                p
            } else {
                2 * n - 1 - p
            }
        }
        _ => i.clamp(0, n - 1),
    }
}

pub fn exec(w: &mut Wave, inst: &Inst, d: &EncDesc, env: &mut Env) -> Result<()> {
    let name = inst.op.name();
    let gen = w.t.gen;
    let m = inst.mods.mem;
    let (load, store, sample) = match name {
        "image_load" => (true, false, false),
        "image_store" => (false, true, false),
        "image_sample" | "image_sample_lz" | "image_sample_l" => (false, false, true),
        _ => return Err(Error::unimpl(name)),
    };
    if m.d16 || m.tfe || m.lwe || m.a16 {
        return Err(Error::unsupported("image d16/tfe/lwe/a16"));
    }
    if store {
        w.check_helpers(name)?;
    }
    let lay = mem::layout(inst, d);
    // address VGPRs: one range, or one operand per VGPR (NSA)
    let mut vaddr: Vec<u16> = Vec::new();
    let mut ranges = 0;
    let mut vdata = None;
    let mut srsrc = None;
    let mut ssamp = None;
    for (od, o) in lay.iter().zip(inst.operands.iter()) {
        match (od.field, o) {
            (Field::Vaddr, Operand::Reg(r)) => {
                ranges += 1;
                for k in 0..r.count as u16 {
                    vaddr.push(r.base.0 - 256 + k);
                }
            }
            (Field::Vdst | Field::Vdata, Operand::Reg(r)) => {
                vdata = Some((r.base.0 - 256, r.count))
            }
            (Field::Srsrc, Operand::Reg(r)) => srsrc = Some(r.base.0),
            (Field::Ssamp, Operand::Reg(r)) => ssamp = Some(r.base.0),
            _ => {}
        }
    }
    let srsrc = srsrc.ok_or_else(|| Error::unsupported("image without resource"))?;
    let mut t = [0u32; 8];
    for (k, x) in t.iter_mut().enumerate() {
        *x = w.regs.s(srsrc + k as u16)?;
    }
    let img = ImageDesc::decode(gen, &t)?;
    let (mut clamp, mut bilinear, mut unnorm) = ([0u32; 3], false, m.unorm);
    if let Some(s) = ssamp {
        let s0 = w.regs.s(s)?;
        let s2 = w.regs.s(s + 2)?;
        clamp = [s0 & 7, (s0 >> 3) & 7, (s0 >> 6) & 7];
        unnorm |= s0 >> 15 & 1 == 1;
        bilinear = (s2 >> 20) & 3 == 1;
    }
    // coordinates per dimension: x (y) (z / slice) [lod for _l]
    let ncoord = match img.ty {
        8 => 1,
        9 | 12 => 2,
        _ => 3,
    };
    let exec = w.regs.exec();
    if let (true, true, Some((n, c))) = (env.checks.uninit, store, vdata) {
        for k in 0..c as u16 {
            w.regs.check_v(n + k, exec)?;
        }
    }
    // a single address range holds as many consecutive VGPRs as the image type needs (the
    // encoding does not carry the count on GFX9); NSA forms list each VGPR
    if ranges == 1 && vaddr.len() < ncoord {
        let b = vaddr[0];
        vaddr = (0..ncoord as u16).map(|k| b + k).collect();
    }
    if vaddr.len() < ncoord {
        return Err(Error::unsupported(
            "fewer address VGPRs than the image type needs",
        ));
    }
    if env.checks.uninit {
        for &v in vaddr.iter().take(ncoord) {
            w.regs.check_v(v, exec)?;
        }
    }
    let dmask = m.dmask as u32 & 0xf;
    let mut results: Vec<(u32, Vec<u32>)> = Vec::new();
    for lane in 0..w.lanes() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let c: Vec<u32> = vaddr
            .iter()
            .take(ncoord)
            .map(|&v| w.regs.v(v, lane))
            .collect();
        let layer_idx = if img.ty == 12 { 1 } else { 2 };
        if load || store {
            let x = c[0] as i32 as i64;
            let y = if ncoord >= 2 && img.ty != 12 {
                c[1] as i32 as i64
            } else {
                0
            };
            let z = if ncoord >= 2 && img.ty != 9 {
                c[layer_idx.min(ncoord - 1)] as i32 as i64
            } else {
                0
            };
            if load {
                let texel = img.texel(env, x, y, z)?.unwrap_or([0.0; 4]);
                results.push((lane, pack(texel, dmask)));
            } else {
                let (n, _) = vdata.ok_or_else(|| Error::unsupported("image_store data"))?;
                let mut col = [0f32; 4];
                let mut k = 0;
                for (ch, v) in col.iter_mut().enumerate() {
                    if dmask >> ch & 1 == 1 {
                        *v = f32::from_bits(w.regs.v(n + k, lane));
                        k += 1;
                    }
                }
                img.store(env, x, y, z, col)?;
            }
        } else if sample {
            let f = |i: usize| f32::from_bits(c[i]);
            let dims = [img.width, img.height, img.depth];
            let spatial = match img.ty {
                8 | 12 => 1,
                9 | 13 => 2,
                _ => 3,
            };
            // array layer: rounded, clamped
            let layer = match img.ty {
                12 => (f(1).round_ties_even() as i64).clamp(0, img.depth as i64 - 1),
                13 => (f(2).round_ties_even() as i64).clamp(0, img.depth as i64 - 1),
                _ => 0,
            };
            let mut u = [0f32; 3];
            for (k, x) in u.iter_mut().enumerate().take(spatial) {
                *x = if unnorm { f(k) } else { f(k) * dims[k] as f32 };
            }
            let fetch = |env: &Env, ix: [i64; 3]| -> Result<[f32; 4]> {
                let mut p = [0i64; 3];
                for k in 0..3 {
                    p[k] = if k < spatial {
                        wrap(ix[k], dims[k], clamp[k])
                    } else {
                        0
                    };
                }
                let z = if spatial == 3 { p[2] } else { layer };
                Ok(img.texel(env, p[0], p[1], z)?.unwrap_or([0.0; 4]))
            };
            let texel = if !bilinear {
                let ix = [
                    u[0].floor() as i64,
                    u[1].floor() as i64,
                    u[2].floor() as i64,
                ];
                fetch(env, ix)?
            } else {
                // bilinear (trilinear for 3D) around u - 0.5
                let mut acc = [0f32; 4];
                let base: Vec<f32> = u.iter().map(|x| x - 0.5).collect();
                let corners = 1 << spatial;
                for cix in 0..corners {
                    let mut wgt = 1f32;
                    let mut ix = [0i64; 3];
                    for k in 0..spatial {
                        let fl = base[k].floor();
                        let fr = base[k] - fl;
                        let hi = cix >> k & 1 == 1;
                        ix[k] = fl as i64 + hi as i64;
                        wgt *= if hi { fr } else { 1.0 - fr };
                    }
                    let t = fetch(env, ix)?;
                    for ch in 0..4 {
                        acc[ch] += wgt * t[ch];
                    }
                }
                acc
            };
            results.push((lane, pack(texel, dmask)));
        }
    }
    let mut dsts = Vec::new();
    if !store {
        let (n, cnt) = vdata.ok_or_else(|| Error::unsupported("image result registers"))?;
        for (lane, v) in results {
            for k in 0..cnt as usize {
                w.regs
                    .set_v(n + k as u16, lane, v.get(k).copied().unwrap_or(0))?;
            }
        }
        dsts.push((n + 256, cnt as u16));
    }
    let mut srcs: Vec<(u16, u16)> = vaddr.iter().map(|&v| (v + 256, 1)).collect();
    srcs.push((srsrc, 8));
    if let Some(s) = ssamp {
        srcs.push((s, 4));
    }
    if store {
        if let Some((n, c)) = vdata {
            srcs.push((n + 256, c as u16));
        }
    }
    let counter = if store && gen != Gen::Gfx9 {
        Counter::Vs
    } else {
        Counter::Vm
    };
    w.track.issue(
        &[(counter, false)],
        w.cur_pc,
        w.cur_text.clone(),
        dsts,
        srcs,
    );
    Ok(())
}

/// The enabled components (dmask) in order, as f32 bits.
fn pack(c: [f32; 4], dmask: u32) -> Vec<u32> {
    (0..4)
        .filter(|k| dmask >> k & 1 == 1)
        .map(|k| c[k as usize].to_bits())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_round_trip() {
        for gen in Gen::ALL {
            for fmt in [Fmt::R32Float, Fmt::Rgba8Unorm] {
                let t = ImageDesc::encode(gen, 0x12_3456_7800, 37, 5, 3, 13, fmt);
                let d = ImageDesc::decode(gen, &t).unwrap();
                assert_eq!(
                    (d.base, d.width, d.height, d.depth, d.ty, d.fmt),
                    (0x12_3456_7800, 37, 5, 3, 13, fmt)
                );
            }
        }
    }

    #[test]
    fn wrap_modes() {
        assert_eq!(wrap(-1, 4, 0), 3);
        assert_eq!(wrap(5, 4, 1), 2);
        assert_eq!(wrap(-1, 4, 1), 0);
        assert_eq!(wrap(9, 4, 2), 3);
    }
}
