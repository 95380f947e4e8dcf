//! Image instructions (MIMG): loads and stores (with and without a mip level), atomics
//! (32 and 64 bit), `image_get_resinfo`, sampling with explicit LOD or derivatives
//! (`image_sample_l` / `_lz` / `_d`, with `_c` depth compare and `_o` offsets), sampling
//! with implicit LOD (`image_sample` / `_b` bias, `_c`, `_o`) and `image_get_lod`,
//! `image_gather4` (`_lz` / `_l`, `_c`, `_o`), on linear images of every format
//! `texformat` converts: 1D, 2D, 3D, cube, their arrays and 2D multisampled (arrays).
//!
//! T# fields (8 dwords; facts from AMD's register database as published in Mesa,
//! src/amd/registers gfx9.json / gfx10-rsrc.json / gfx11-rsrc.json):
//! - word0 base address >> 8; word1 [7:0] base address bits 47:40.
//! - GFX9: word1 DATA_FORMAT [25:20], NUM_FORMAT [29:26]; word2 WIDTH-1 [13:0], HEIGHT-1
//!   [27:14]; word4 DEPTH [12:0], PITCH-1 [28:13]; word5 BASE_ARRAY [12:0].
//! - GFX10.3: word1 FORMAT [28:20], WIDTH-1 bits 1:0 in [31:30]; word2 WIDTH-1 bits 13:2 in
//!   [11:0], HEIGHT-1 [27:14]; word4 DEPTH [12:0], BASE_ARRAY [28:16].
//! - GFX11: as GFX10.3 but FORMAT [27:20] (and MAX_MIP in word1 [19:16]).
//! - word3 (all): DST_SEL_X/Y/Z/W [11:0] (0 zero, 1 one, 4..7 x..w), BASE_LEVEL [15:12],
//!   LAST_LEVEL [19:16] (log2 of the sample count for MSAA types), SW_MODE [24:20], TYPE
//!   [31:28] (8 1D, 9 2D, 10 3D, 11 cube, 12 1D array, 13 2D array, 14 2D MSAA, 15 2D
//!   MSAA array). DEPTH is depth-1 for 3D and the last array slice otherwise (cubes: six
//!   slices per cube).
//!
//! Memory layout (the emulator's; SW_MODE 0 only, tiled modes are `Unsupported`): levels
//! 0..=LAST_LEVEL one after another from the base address; in a level, slices (3D depth
//! or array layers, all of them, BASE_ARRAY counts from slice 0) one after another, rows
//! of `max(1, width >> level)` texels without padding, and for MSAA the samples of a texel
//! next to each other. The GFX9 PITCH field must say the same (pitch = width); a linear
//! layout with a padded pitch, which real drivers use, is `Unsupported`. The pipeline
//! harness and the lavapipe runner write and read images in exactly this layout.
//!
//! Implicit LOD (as the hardware does it, coarse): every lane of a quad takes the
//! derivatives of its quad, dx = coord(lane 1) − coord(lane 0) and dy = coord(lane 2) −
//! coord(lane 0) per spatial coordinate, so lanes 0..2 of the quad must be in EXEC (the
//! shader runs in whole-quad mode); an inactive one is an error, not a guess. `_b` adds
//! its bias VGPR (after the offset, before the z-compare) to that LOD. `image_get_lod`
//! returns (the LOD clamped to the sampler's range and the image's levels, the LOD as
//! computed).
//!
//! Semantics: out-of-range coordinates (or mip levels, layers, samples) read as zero in
//! every component and writes and atomics there are dropped (robust image access);
//! the format's components then go through DST_SEL. Sampling (`sampler`): normalized
//! coordinates (unless the S# or the instruction says unnormalized) scaled by the level's
//! size, point filtering takes `floor`, linear filtering weighs the taps around `u - 0.5`
//! with exact (f64) weights, linear mip filtering blends two levels. Cube coordinates
//! are the hardware's (s, t in [1, 2] on a face, face id + 8 × cube index), as the
//! compiler's v_cube* sequence makes them; a filter tap that leaves the face (seamless
//! cube filtering) is `Unsupported`. Array layers are `round_ties_even(z)` clamped.
//!
//! Precision: the hardware's filter weights are fixed point (8 fraction bits); the
//! emulator's exact weights make a filtered result differ from the hardware's (and from
//! lavapipe's, also 8 bits) by at most (max tap − min tap) × 2⁻⁸ per filtered axis, and
//! by the same again for the mip blend. Point sampling, loads, stores, gathers and
//! compares are exact. The LOD computed by `image_sample_d` is the isotropic
//! log2(max |∂/∂x|, |∂/∂y|) in f64, where hardware uses an approximation of the length and
//! the log; a LOD within 2⁻⁸ of a mip boundary may select a different level.
//!
//! TFE (texture fail enable, what SPIR-V's sparse-residency sampling selects to): a load,
//! sample or gather returns one more dword after its data, the fetch status — 0 when every
//! texel was resident, which it always is here: the emulator models no sparse (partially
//! resident) image, so a residency code is 0 for every image it runs. The destination must
//! be exactly the data dwords plus that one.
//!
//! D16 (16-bit data, packed two components per dword, the first in the low half, on all
//! three generations): a load or sample rounds each float-like component to f16 (to
//! nearest even; the hardware converts from the format directly, which can differ in the
//! last f16 bit for formats wider than f16's precision) and keeps the low 16 bits of an
//! integer one (an assumption: no shader here reads integer formats with D16); a store
//! widens each f16 to f32 (an integer: sign- or zero-extended) before the format's
//! conversion. The destination must be exactly the packed dwords. A16 (16-bit address
//! components): the coordinates and the trailing LOD, mip level or sample index are
//! packed two per dword in that order (the group starting in a new dword); offsets, bias
//! and compare values stay 32-bit. 16-bit derivatives (the `_g16` opcodes on GFX10+, and
//! A16 on GFX9, where it covers them) pack each derivative vector the same way. Float
//! components are widened from f16 exactly; integer coordinates are sign-extended.
//! NSA forms name each address VGPR; the emulator gathers them in order.
//!
//! Not modelled (`Unsupported` / `Unimplemented`): implicit-LOD and bias forms (no quads in
//! compute), `_cl`, lwe, TFE on stores, atomics and resinfo, D16 with TFE or on atomics,
//! queries and gathers, A16 on atomics, queries and implicit-LOD or biased sampling,
//! `image_load_pck*`, gather4 on cubes or other than level 0 / explicit LOD, MSAA
//! sampling, `image_sample_d` on cubes.

use crate::error::{Error, Result};
use crate::sampler::{address, SamplerDesc};
use crate::texformat::TexFormat;
use crate::track::Counter;
use crate::wave::{Env, Wave};
use gcnc::isa::format::mem;
use gcnc::isa::{EncDesc, Field, Gen, Inst, Operand};

pub const TYPE_1D: u32 = 8;
pub const TYPE_2D: u32 = 9;
pub const TYPE_3D: u32 = 10;
pub const TYPE_CUBE: u32 = 11;
pub const TYPE_1D_ARRAY: u32 = 12;
pub const TYPE_2D_ARRAY: u32 = 13;
pub const TYPE_2D_MSAA: u32 = 14;
pub const TYPE_2D_MSAA_ARRAY: u32 = 15;

/// The identity DST_SEL (x, y, z, w).
pub const SWIZZLE_XYZW: [u8; 4] = [4, 5, 6, 7];

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImageDesc {
    pub base: u64,
    pub fmt: TexFormat,
    pub ty: u32,
    pub width: u32,
    pub height: u32,
    /// 3D: depth; otherwise the number of slices in memory (arrays: layers, cubes: 6 ×
    /// cubes, others 1).
    pub depth: u32,
    /// First visible slice (arrays).
    pub base_array: u32,
    /// Levels in memory, and the visible range `base_level..=last_level`.
    pub levels: u32,
    pub base_level: u32,
    pub last_level: u32,
    /// Samples per texel (MSAA types), else 1.
    pub samples: u32,
    pub dst_sel: [u8; 4],
}

impl ImageDesc {
    /// A linear image of `levels` levels at `base`, every level and slice visible.
    pub fn linear(
        base: u64,
        fmt: TexFormat,
        ty: u32,
        size: [u32; 3],
        levels: u32,
        samples: u32,
    ) -> ImageDesc {
        ImageDesc {
            base,
            fmt,
            ty,
            width: size[0],
            height: size[1],
            depth: size[2],
            base_array: 0,
            levels,
            base_level: 0,
            last_level: levels - 1,
            samples,
            dst_sel: SWIZZLE_XYZW,
        }
    }

    fn is_msaa(&self) -> bool {
        matches!(self.ty, TYPE_2D_MSAA | TYPE_2D_MSAA_ARRAY)
    }

    pub fn decode(gen: Gen, t: &[u32; 8]) -> Result<ImageDesc> {
        let base = (t[0] as u64 | ((t[1] & 0xff) as u64) << 32) << 8;
        let fmt = match gen {
            Gen::Gfx9 => TexFormat::from_image(gen, (t[1] >> 20) & 0x3f, (t[1] >> 26) & 0xf)?,
            Gen::Gfx10 => TexFormat::from_image(gen, (t[1] >> 20) & 0x1ff, 0)?,
            Gen::Gfx11 => TexFormat::from_image(gen, (t[1] >> 20) & 0xff, 0)?,
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
        if gen == Gen::Gfx9 && ((t[4] >> 13) & 0xffff) + 1 != width {
            return Err(Error::unsupported(format!(
                "linear image with pitch {} for width {width} (the emulator's layout has pitch = width)",
                ((t[4] >> 13) & 0xffff) + 1
            )));
        }
        let ty = t[3] >> 28;
        if ty < 8 {
            return Err(Error::unsupported(format!("image type {ty}")));
        }
        let sel = |k: u32| ((t[3] >> (3 * k)) & 7) as u8;
        let dst_sel = [sel(0), sel(1), sel(2), sel(3)];
        if dst_sel.iter().any(|&s| s == 2 || s == 3) {
            return Err(Error::unsupported("reserved DST_SEL value"));
        }
        let base_array = match gen {
            Gen::Gfx9 => t[5] & 0x1fff,
            _ => (t[4] >> 16) & 0x1fff,
        };
        let last = t[4] & 0x1fff;
        let depth = match ty {
            TYPE_3D | TYPE_CUBE | TYPE_1D_ARRAY | TYPE_2D_ARRAY | TYPE_2D_MSAA_ARRAY => last + 1,
            _ => 1,
        };
        if base_array > last && depth > 1 {
            return Err(Error::unsupported("BASE_ARRAY beyond the last slice"));
        }
        let (base_level, last_level) = ((t[3] >> 12) & 0xf, (t[3] >> 16) & 0xf);
        let (levels, samples, base_level, last_level) = if matches!(ty, 14 | 15) {
            (1, 1 << last_level, 0, 0)
        } else {
            if base_level > last_level {
                return Err(Error::unsupported("BASE_LEVEL above LAST_LEVEL"));
            }
            (last_level + 1, 1, base_level, last_level)
        };
        Ok(ImageDesc {
            base,
            fmt,
            ty,
            width,
            height,
            depth,
            base_array: if ty == TYPE_3D { 0 } else { base_array },
            levels,
            base_level,
            last_level,
            samples,
            dst_sel,
        })
    }

    /// The T# of this image on `gen` (None: a format the generation has no code for).
    pub fn encode(&self, gen: Gen) -> Option<[u32; 8]> {
        let mut t = [0u32; 8];
        t[0] = (self.base >> 8) as u32;
        t[1] = ((self.base >> 40) & 0xff) as u32;
        let (w1, h1) = (self.width - 1, self.height - 1);
        let (data, num) = self.fmt.image_code(gen)?;
        match gen {
            Gen::Gfx9 => {
                t[1] |= data << 20 | num << 26;
                t[2] = w1 | h1 << 14;
            }
            _ => {
                t[1] |= data << 20 | (w1 & 3) << 30;
                t[2] = (w1 >> 2) | h1 << 14;
            }
        }
        let sel = self
            .dst_sel
            .iter()
            .enumerate()
            .fold(0, |a, (k, &s)| a | (s as u32) << (3 * k));
        let (bl, ll) = if self.is_msaa() {
            (0, self.samples.trailing_zeros())
        } else {
            (self.base_level, self.last_level)
        };
        t[3] = sel | bl << 12 | ll << 16 | self.ty << 28;
        t[4] = self.depth - 1;
        match gen {
            Gen::Gfx9 => {
                t[4] |= w1 << 13;
                t[5] = self.base_array;
            }
            _ => t[4] |= self.base_array << 16,
        }
        if gen == Gen::Gfx11 {
            t[1] |= (self.levels - 1) << 16;
        } else if gen == Gen::Gfx10 {
            t[5] |= (self.levels - 1) << 4;
        } else {
            t[5] |= (self.levels - 1) << 28;
        }
        Some(t)
    }

    /// Extent of physical level `l`: (width, height, slices).
    pub fn extent(&self, l: u32) -> [u32; 3] {
        let m = |x: u32| (x >> l).max(1);
        let d = if self.ty == TYPE_3D {
            m(self.depth)
        } else {
            self.depth
        };
        [m(self.width), m(self.height), d]
    }

    /// Bytes of physical level `l`.
    pub fn level_bytes(&self, l: u32) -> u64 {
        let [w, h, d] = self.extent(l);
        w as u64 * h as u64 * d as u64 * self.samples as u64 * self.fmt.bytes() as u64
    }

    /// Bytes of the whole image in the emulator's layout.
    pub fn bytes(&self) -> u64 {
        (0..self.levels).map(|l| self.level_bytes(l)).sum()
    }

    /// Address of texel (x, y, slice, sample) of physical level `l`, or None outside.
    fn addr(&self, l: u32, x: i64, y: i64, z: i64, s: i64) -> Option<u64> {
        if l >= self.levels {
            return None;
        }
        let [w, h, d] = self.extent(l);
        let inside = (0..w as i64).contains(&x)
            && (0..h as i64).contains(&y)
            && (0..d as i64).contains(&z)
            && (0..self.samples as i64).contains(&s);
        if !inside {
            return None;
        }
        let off: u64 = (0..l).map(|k| self.level_bytes(k)).sum();
        let idx = ((z as u64 * h as u64 + y as u64) * w as u64 + x as u64) * self.samples as u64
            + s as u64;
        Some(self.base + off + idx * self.fmt.bytes() as u64)
    }

    /// The texel's components before DST_SEL, or None outside the image.
    fn read(&self, env: &Env, l: u32, x: i64, y: i64, z: i64, s: i64) -> Result<Option<[u32; 4]>> {
        match self.addr(l, x, y, z, s) {
            None => Ok(None),
            Some(a) => {
                let b = env.mem.read_vec(a, self.fmt.bytes() as usize)?;
                Ok(Some(self.fmt.decode(&b)))
            }
        }
    }

    fn write(&self, env: &mut Env, l: u32, p: [i64; 4], c: [u32; 4]) -> Result<()> {
        if let Some(a) = self.addr(l, p[0], p[1], p[2], p[3]) {
            env.mem.write(a, &self.fmt.encode(c))?;
        }
        Ok(())
    }

    fn swizzle(&self, c: [u32; 4]) -> [u32; 4] {
        let one = self.fmt.missing()[3];
        self.dst_sel.map(|s| match s {
            0 => 0,
            1 => one,
            s => c[(s - 4) as usize],
        })
    }

    /// Spatial dimensions addressed by coordinates (1D 1, 2D/cube 2, 3D 3).
    fn spatial(&self) -> usize {
        match self.ty {
            TYPE_1D | TYPE_1D_ARRAY => 1,
            TYPE_3D => 3,
            _ => 2,
        }
    }

    fn arrayed(&self) -> bool {
        matches!(
            self.ty,
            TYPE_1D_ARRAY | TYPE_2D_ARRAY | TYPE_2D_MSAA_ARRAY | TYPE_CUBE
        )
    }
}

/// What an MIMG opcode does, from its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Load { mip: bool },
    Store { mip: bool },
    Atomic,
    ResInfo,
    Sample,
    Gather,
    GetLod,
}

/// The address-affecting suffixes of a sample/gather opcode.
#[derive(Clone, Copy, Debug, Default)]
struct Variant {
    bias: bool,
    compare: bool,
    derivs: bool,
    lod: bool,
    lz: bool,
    offset: bool,
    /// `_g16`: 16-bit derivatives, packed two per dword.
    g16: bool,
}

fn classify(name: &str) -> Result<(Kind, Variant)> {
    let mut v = Variant::default();
    let kind = match name {
        "image_load" => Kind::Load { mip: false },
        "image_load_mip" => Kind::Load { mip: true },
        "image_store" => Kind::Store { mip: false },
        "image_store_mip" => Kind::Store { mip: true },
        "image_get_resinfo" => Kind::ResInfo,
        "image_get_lod" => Kind::GetLod,
        n if n.starts_with("image_atomic_") => Kind::Atomic,
        n => {
            let (kind, rest) = if let Some(r) = n.strip_prefix("image_sample") {
                (Kind::Sample, r)
            } else if let Some(r) = n.strip_prefix("image_gather4") {
                (Kind::Gather, r)
            } else {
                return Err(Error::unimpl(n));
            };
            for part in rest.split('_').filter(|p| !p.is_empty()) {
                match part {
                    "c" => v.compare = true,
                    "d" => v.derivs = true,
                    "l" => v.lod = true,
                    "lz" => v.lz = true,
                    "o" => v.offset = true,
                    "b" => v.bias = true,
                    "g16" if v.derivs => v.g16 = true,
                    "cl" | "cd" | "h" => {
                        return Err(Error::unsupported(format!(
                            "{n}: LOD clamp, coarse-derivative and packed forms"
                        )))
                    }
                    _ => return Err(Error::unimpl(n)),
                }
            }
            if kind == Kind::Gather && !(v.lod || v.lz) || v.bias && (v.lod || v.lz || v.derivs) {
                return Err(Error::unimpl(n));
            }
            if kind == Kind::Gather && v.derivs {
                return Err(Error::unimpl(n));
            }
            kind
        }
    };
    Ok((kind, v))
}

/// Number of address VGPRs and their meaning for one instruction on one image.
struct AddrLayout {
    offset: bool,
    bias: bool,
    compare: bool,
    derivs: usize,
    coords: usize,
    /// A trailing mip level (load/store_mip), LOD (_l) or sample index (MSAA).
    extra: bool,
}

impl AddrLayout {
    /// Address components (one 32-bit value each once unpacked).
    fn count(&self) -> usize {
        self.offset as usize
            + self.bias as usize
            + self.compare as usize
            + 2 * self.derivs
            + self.coords
            + self.extra as usize
    }

    /// Address VGPRs: 16-bit derivatives (`d16`) pack each derivative vector two
    /// components per dword, and A16 packs the coordinates with the trailing LOD, mip
    /// level or sample index the same way (each group starting in a new dword).
    fn dwords(&self, d16: bool, a16: bool) -> usize {
        let derivs = if d16 {
            self.derivs.div_ceil(2)
        } else {
            self.derivs
        };
        let coords = self.coords + self.extra as usize;
        self.offset as usize
            + self.bias as usize
            + self.compare as usize
            + 2 * derivs
            + if a16 { coords.div_ceil(2) } else { coords }
    }

    /// One lane's address components from its address dwords `a` (see
    /// [`AddrLayout::dwords`]), each as a 32-bit value: a 16-bit float widened to f32
    /// (`float`: the coordinates and the LOD of sampling), a 16-bit integer coordinate
    /// sign-extended and a 16-bit mip level or sample index zero-extended.
    fn unpack(&self, a: &[u32], d16: bool, a16: bool, float: bool) -> Vec<u32> {
        let half = |v: u32, k: usize| (v >> (16 * (k % 2))) & 0xffff;
        let widen = |h: u32, fl: bool, signed: bool| {
            if fl {
                crate::float::f16_to_f32(h as u16).to_bits()
            } else if signed {
                h as u16 as i16 as i32 as u32
            } else {
                h
            }
        };
        let scalars = self.offset as usize + self.bias as usize + self.compare as usize;
        let mut out: Vec<u32> = a[..scalars].to_vec();
        let mut at = scalars;
        for _ in 0..2 {
            if d16 {
                for k in 0..self.derivs {
                    out.push(widen(half(a[at + k / 2], k), true, false));
                }
                at += self.derivs.div_ceil(2);
            } else {
                out.extend_from_slice(&a[at..at + self.derivs]);
                at += self.derivs;
            }
        }
        let n = self.coords + self.extra as usize;
        if a16 {
            for k in 0..n {
                // the trailing LOD is a float like the coordinates; a mip level or sample
                // index an unsigned integer
                let coord = k < self.coords;
                out.push(widen(half(a[at + k / 2], k), float, coord));
            }
        } else {
            out.extend_from_slice(&a[at..at + n]);
        }
        out
    }
}

pub fn exec(w: &mut Wave, inst: &Inst, d: &EncDesc, env: &mut Env) -> Result<()> {
    let name = inst.op.name();
    let gen = w.t.gen;
    let m = inst.mods.mem;
    let (kind, var) = classify(name)?;
    if m.lwe {
        return Err(Error::unsupported(format!("{name}: lwe")));
    }
    if m.d16
        && (m.tfe
            || matches!(
                kind,
                Kind::Atomic | Kind::ResInfo | Kind::GetLod | Kind::Gather
            ))
    {
        return Err(Error::unsupported(format!(
            "{name}: d16 with tfe, or on an atomic, query or gather"
        )));
    }
    let implicit_lod = kind == Kind::Sample && !(var.lod || var.lz || var.derivs);
    if m.a16
        && (matches!(kind, Kind::Atomic | Kind::ResInfo | Kind::GetLod) || var.bias || implicit_lod)
    {
        return Err(Error::unsupported(format!(
            "{name}: a16 on an atomic, a query or implicit-LOD sampling"
        )));
    }
    if var.g16 && gen == Gen::Gfx9 {
        return Err(Error::unsupported(format!("{name} on GFX9")));
    }
    // 16-bit derivatives: the G16 opcodes, and on GFX9 A16 (which covers them there)
    let d16_derivs = var.g16 || (m.a16 && gen == Gen::Gfx9);
    if m.tfe && !matches!(kind, Kind::Load { .. } | Kind::Sample | Kind::Gather) {
        return Err(Error::unsupported(format!(
            "{name}: tfe on other than a load, sample or gather"
        )));
    }
    // memory writes (stores, atomics) may not run on a pixel wave's helper lanes
    if matches!(kind, Kind::Store { .. } | Kind::Atomic) {
        w.check_helpers(name)?;
    }
    let lay = mem::layout(inst, d);
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
                vdata = Some((r.base.0 - 256, r.count as u16))
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
    if gen != Gen::Gfx9 && m.dim as u32 + 8 != img.ty {
        return Err(Error::unsupported(format!(
            "{name}: dim {} but the T# has type {}",
            m.dim, img.ty
        )));
    }
    let samp = match (ssamp, kind) {
        (Some(s), Kind::Sample | Kind::Gather | Kind::GetLod) => {
            let mut v = [0u32; 4];
            for (k, x) in v.iter_mut().enumerate() {
                *x = w.regs.s(s + k as u16)?;
            }
            Some(SamplerDesc::decode(v)?)
        }
        _ => None,
    };
    // address layout: [offset] [bias] [z-compare] [derivatives] coordinates
    // [mip / lod / sample]
    let msaa = img.is_msaa();
    let coords = img.spatial() + img.arrayed() as usize;
    let addr = match kind {
        Kind::ResInfo => AddrLayout {
            offset: false,
            bias: false,
            compare: false,
            derivs: 0,
            coords: 0,
            extra: true,
        },
        Kind::Load { mip } | Kind::Store { mip } => AddrLayout {
            offset: false,
            bias: false,
            compare: false,
            derivs: 0,
            coords,
            extra: mip || msaa,
        },
        Kind::Atomic => AddrLayout {
            offset: false,
            bias: false,
            compare: false,
            derivs: 0,
            coords,
            extra: msaa,
        },
        Kind::GetLod => AddrLayout {
            offset: false,
            bias: false,
            compare: false,
            derivs: 0,
            coords,
            extra: false,
        },
        Kind::Sample | Kind::Gather => {
            if msaa {
                return Err(Error::unsupported(format!(
                    "{name} on a multisampled image"
                )));
            }
            AddrLayout {
                offset: var.offset,
                bias: var.bias,
                compare: var.compare,
                derivs: if var.derivs {
                    if img.ty == TYPE_CUBE {
                        return Err(Error::unsupported(format!("{name} on a cube")));
                    }
                    img.spatial()
                } else {
                    0
                },
                coords,
                extra: var.lod,
            }
        }
    };
    if msaa && matches!(kind, Kind::Load { mip: true } | Kind::Store { mip: true }) {
        return Err(Error::unsupported(format!(
            "{name} on a multisampled image"
        )));
    }
    let need = addr.dwords(d16_derivs, m.a16);
    // one range holds as many consecutive VGPRs as the operation needs (GFX9's encoding
    // does not carry the count); NSA forms list each VGPR
    if ranges == 1 && vaddr.len() < need {
        let b = vaddr[0];
        vaddr = (0..need as u16).map(|k| b + k).collect();
    }
    if vaddr.len() < need {
        return Err(Error::unsupported(format!(
            "{name}: {} address VGPRs, the operation needs {need}",
            vaddr.len()
        )));
    }
    vaddr.truncate(need);
    let exec = w.regs.exec();
    let store_like = matches!(kind, Kind::Store { .. }) || (kind == Kind::Atomic && !inst.mods.glc);
    if env.checks.uninit {
        for &v in &vaddr {
            w.regs.check_v(v, exec)?;
        }
        if let (true, Some((n, c))) = (matches!(kind, Kind::Store { .. } | Kind::Atomic), vdata) {
            for k in 0..c {
                w.regs.check_v(n + k, exec)?;
            }
        }
    }
    let dmask = m.dmask as u32 & 0xf;
    let unnorm = m.unorm || samp.is_some_and(|s| s.unnorm);
    let mut results: Vec<(u32, Vec<u32>)> = Vec::new();
    for lane in 0..w.lanes() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let a: Vec<u32> = vaddr.iter().map(|&v| w.regs.v(v, lane)).collect();
        let float = matches!(kind, Kind::Sample | Kind::Gather);
        let a = addr.unpack(&a, d16_derivs, m.a16, float);
        let mut at = 0;
        let mut next = || {
            at += 1;
            a[at - 1]
        };
        let offset = if addr.offset { next() } else { 0 };
        let bias = if addr.bias {
            f32::from_bits(next()) as f64
        } else {
            0.0
        };
        let zref = if addr.compare {
            f32::from_bits(next())
        } else {
            0.0
        };
        let mut derivs = [[0f32; 3]; 2];
        for dd in derivs.iter_mut() {
            for x in dd.iter_mut().take(addr.derivs) {
                *x = f32::from_bits(next());
            }
        }
        let c: Vec<u32> = (0..addr.coords).map(|_| next()).collect();
        let extra = if addr.extra { next() } else { 0 };
        match kind {
            Kind::Load { .. } | Kind::Store { .. } | Kind::Atomic => {
                let mut p = [0i64; 4];
                for (k, &v) in c.iter().enumerate() {
                    // 1D array: (x, slice) → slice is the third index
                    let k = if img.ty == TYPE_1D_ARRAY && k == 1 {
                        2
                    } else {
                        k
                    };
                    p[k] = v as i32 as i64;
                }
                if img.arrayed() {
                    p[2] += img.base_array as i64;
                }
                let mip = if matches!(kind, Kind::Load { mip: true } | Kind::Store { mip: true }) {
                    extra
                } else {
                    0
                };
                if msaa {
                    p[3] = extra as i32 as i64;
                }
                let level = img.base_level as u64 + mip as u64;
                let level = if level > img.last_level as u64 {
                    u32::MAX
                } else {
                    level as u32
                };
                match kind {
                    Kind::Load { .. } => {
                        // outside the image: zero data, then DST_SEL (robustImageAccess2)
                        let texel = match img.read(env, level, p[0], p[1], p[2], p[3])? {
                            Some(t) => img.swizzle(t),
                            None => img.swizzle([0; 4]),
                        };
                        results.push((lane, pack(texel, dmask)));
                    }
                    Kind::Store { .. } => {
                        let (n, _) = vdata.ok_or_else(|| Error::unsupported("image_store data"))?;
                        let mut col = img.fmt.missing();
                        let mut k = 0;
                        for (ch, v) in col.iter_mut().enumerate() {
                            if dmask >> ch & 1 == 1 {
                                *v = if m.d16 {
                                    // two components per dword, the first in the low half
                                    let h = w.regs.v(n + k / 2, lane) >> (16 * (k % 2)) & 0xffff;
                                    d16_widen(img.fmt.num, h)
                                } else {
                                    w.regs.v(n + k, lane)
                                };
                                k += 1;
                            }
                        }
                        img.write(env, level, p, col)?;
                    }
                    _ => {
                        let old = atomic(w, env, &img, name, dmask, vdata, lane, level, p)?;
                        results.push((lane, old));
                    }
                }
            }
            Kind::ResInfo => results.push((lane, pack(resinfo(&img, extra)?, dmask))),
            Kind::GetLod => {
                let s =
                    samp.ok_or_else(|| Error::unsupported(format!("{name} without a sampler")))?;
                let q = Query {
                    img: &img,
                    s: &s,
                    unnorm,
                    offset: [0; 3],
                    zref: None,
                };
                let derivs = quad_derivs(
                    w,
                    &vaddr,
                    addr.count() - addr.coords,
                    &img,
                    exec,
                    lane,
                    name,
                )?;
                let raw = q.lod_from_derivs(&derivs);
                let top = (img.last_level - img.base_level) as f64;
                let clamped = raw
                    .clamp(s.min_lod as f64, s.max_lod as f64)
                    .clamp(0.0, top);
                let v = [(clamped as f32).to_bits(), (raw as f32).to_bits(), 0, 0];
                results.push((lane, pack(v, dmask)));
            }
            Kind::Sample | Kind::Gather => {
                let s =
                    samp.ok_or_else(|| Error::unsupported(format!("{name} without a sampler")))?;
                let q = Query {
                    img: &img,
                    s: &s,
                    unnorm,
                    offset: if addr.offset {
                        let f = |k: u32| (((offset >> (8 * k)) & 0x3f) << 26) as i32 as i64 >> 26;
                        [f(0), f(1), f(2)]
                    } else {
                        [0; 3]
                    },
                    zref: addr.compare.then_some(zref),
                };
                let f: Vec<f32> = c.iter().map(|&x| f32::from_bits(x)).collect();
                let lod = if var.lz {
                    0.0
                } else if var.lod {
                    f32::from_bits(extra) as f64
                } else if var.derivs {
                    q.lod_from_derivs(&derivs)
                } else {
                    let first = addr.count() - addr.coords - addr.extra as usize;
                    let d = quad_derivs(w, &vaddr, first, &img, exec, lane, name)?;
                    q.lod_from_derivs(&d) + bias
                };
                let out = if kind == Kind::Gather {
                    if dmask.count_ones() != 1 {
                        return Err(Error::unsupported(format!(
                            "{name}: dmask {dmask:#x} must select one component"
                        )));
                    }
                    q.gather(env, &f, lod, dmask.trailing_zeros() as usize)?
                } else {
                    pack(q.sample(env, &f, lod)?, dmask)
                };
                results.push((lane, out));
            }
        }
    }
    let mut dsts = Vec::new();
    let returns = !store_like;
    if returns {
        let (n, cnt) = vdata.ok_or_else(|| Error::unsupported("image result registers"))?;
        let cnt = if kind == Kind::Atomic {
            results.first().map_or(cnt, |r| r.1.len() as u16)
        } else {
            cnt
        };
        for (lane, mut v) in results {
            if m.d16 {
                v = d16_pack(img.fmt.num, &v);
                if v.len() != cnt as usize {
                    return Err(Error::unsupported(format!(
                        "{name}: d16 with {cnt} destination registers for {} packed dwords",
                        v.len()
                    )));
                }
            }
            if m.tfe {
                if v.len() + 1 != cnt as usize {
                    return Err(Error::unsupported(format!(
                        "{name}: tfe with {cnt} destination registers for {} data dwords \
                         (needs one more for the status)",
                        v.len()
                    )));
                }
                // the fetch status: 0, every texel resident (no sparse image modelled)
                v.push(0);
            }
            for k in 0..cnt as usize {
                w.regs
                    .set_v(n + k as u16, lane, v.get(k).copied().unwrap_or(0))?;
            }
        }
        dsts.push((n + 256, cnt));
    }
    let mut srcs: Vec<(u16, u16)> = vaddr.iter().map(|&v| (v + 256, 1)).collect();
    srcs.push((srsrc, 8));
    if let Some(s) = ssamp {
        srcs.push((s, 4));
    }
    if matches!(kind, Kind::Store { .. } | Kind::Atomic) {
        if let Some((n, c)) = vdata {
            srcs.push((n + 256, c));
        }
    }
    let counter = if store_like && gen != Gen::Gfx9 {
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

/// A D16 store's 16-bit component as the 32-bit register value the format's conversion
/// takes: f16 widened to f32 for float-like formats, an integer extended by its sign
/// (SINT) or with zeros.
pub(crate) fn d16_widen(num: crate::texformat::Num, h: u32) -> u32 {
    use crate::texformat::Num;
    match num {
        Num::Sint => h as u16 as i16 as i32 as u32,
        Num::Uint => h,
        _ => crate::float::f16_to_f32(h as u16).to_bits(),
    }
}

/// A D16 read's components (32-bit register values in order) packed two per dword, the
/// first in the low half: float-like values rounded to f16 (to nearest even), integers
/// keep their low 16 bits.
pub(crate) fn d16_pack(num: crate::texformat::Num, v: &[u32]) -> Vec<u32> {
    let mut out = vec![0u32; v.len().div_ceil(2)];
    for (k, &x) in v.iter().enumerate() {
        let h = if num.is_int() {
            x & 0xffff
        } else {
            crate::float::f32_to_f16(f32::from_bits(x)) as u32
        };
        out[k / 2] |= h << (16 * (k % 2));
    }
    out
}

/// `image_atomic_*` on one lane: returns the old value's dwords.
#[allow(clippy::too_many_arguments)]
fn atomic(
    w: &Wave,
    env: &mut Env,
    img: &ImageDesc,
    name: &str,
    dmask: u32,
    vdata: Option<(u16, u16)>,
    lane: u32,
    level: u32,
    p: [i64; 4],
) -> Result<Vec<u32>> {
    let rest = name.strip_prefix("image_atomic_").unwrap_or(name);
    let mut a = crate::atomic::parse(rest).ok_or_else(|| Error::unimpl(name))?;
    let cmp = a.op == crate::atomic::Op::CmpSwap;
    // dmask: one dword per data value (two for cmpswap), 64-bit values take two
    let values = if cmp { 2 } else { 1 };
    a.wide = match dmask.count_ones() / values {
        1 => false,
        2 => true,
        _ => {
            return Err(Error::unsupported(format!(
                "{name}: dmask {dmask:#x} is neither a 32- nor a 64-bit atomic"
            )))
        }
    };
    let bytes = if a.wide { 8 } else { 4 };
    if img.fmt.bytes() != bytes || a.float && !cmp && a.op != crate::atomic::Op::Swap {
        return Err(Error::unsupported(format!(
            "{name} on a {}-byte format",
            img.fmt.bytes()
        )));
    }
    let (n, _) = vdata.ok_or_else(|| Error::unsupported("image atomic data"))?;
    let dw = bytes / 4;
    let val = |k: u16| -> u64 {
        let lo = w.regs.v(n + k, lane) as u64;
        if a.wide {
            lo | (w.regs.v(n + k + 1, lane) as u64) << 32
        } else {
            lo
        }
    };
    let data = val(0);
    let second = if cmp { val(dw as u16) } else { 0 };
    let Some(at) = img.addr(level, p[0], p[1], p[2], p[3]) else {
        return Ok(vec![0; dw as usize]);
    };
    let mut b = [0u8; 8];
    env.mem.read(at, &mut b[..bytes as usize])?;
    let old = u64::from_le_bytes(b);
    let new = a.apply(old, data, second);
    env.mem.write(at, &new.to_le_bytes()[..bytes as usize])?;
    Ok((0..dw).map(|k| (old >> (32 * k)) as u32).collect())
}

/// `image_get_resinfo` at mip `mip`: width, height, depth / layers, level count.
fn resinfo(img: &ImageDesc, mip: u32) -> Result<[u32; 4]> {
    let levels = img.last_level - img.base_level + 1;
    if mip >= levels {
        return Err(Error::unsupported(format!(
            "image_get_resinfo of level {mip} of a {levels}-level image"
        )));
    }
    let [w, h, d] = img.extent(img.base_level + mip);
    let layers = img.depth - img.base_array;
    Ok(match img.ty {
        TYPE_1D => [w, 0, 0, levels],
        TYPE_1D_ARRAY => [w, layers, 0, levels],
        TYPE_2D | TYPE_2D_MSAA => [w, h, 0, levels],
        TYPE_3D => [w, h, d, levels],
        // cube (array): the number of faces, 6 per cube; the compiler divides by 6, as
        // RADV has NIR do (`lower_txs_cube_array`)
        TYPE_CUBE => [w, h, layers, levels],
        _ => [w, h, layers, levels],
    })
}

/// The coarse derivatives of `lane`'s quad: coordinate k of lanes 1 and 2 minus lane 0's,
/// the coordinates from address VGPR `first` on.
fn quad_derivs(
    w: &Wave,
    vaddr: &[u16],
    first: usize,
    img: &ImageDesc,
    exec: u64,
    lane: u32,
    name: &str,
) -> Result<[[f32; 3]; 2]> {
    let base = lane & !3;
    for l in base..base + 3 {
        if exec >> l & 1 == 0 {
            return Err(Error::unsupported(format!(
                "{name}: implicit LOD in lane {lane} with lane {l} of its quad inactive \
                 (the quad's derivatives need whole-quad mode)"
            )));
        }
    }
    let c = |l: u32, k: usize| f32::from_bits(w.regs.v(vaddr[first + k], l));
    let mut d = [[0f32; 3]; 2];
    for (axis, other) in d.iter_mut().zip([base + 1, base + 2]) {
        for (k, x) in axis.iter_mut().enumerate().take(img.spatial()) {
            *x = c(other, k) - c(base, k);
        }
    }
    Ok(d)
}

/// One sampling request on one lane.
struct Query<'a> {
    img: &'a ImageDesc,
    s: &'a SamplerDesc,
    unnorm: bool,
    offset: [i64; 3],
    zref: Option<f32>,
}

impl Query<'_> {
    /// Isotropic LOD from the derivatives (dx then dy, per spatial dimension).
    fn lod_from_derivs(&self, d: &[[f32; 3]; 2]) -> f64 {
        let size = self.img.extent(self.img.base_level);
        let n = self.img.spatial();
        let len = |v: &[f32; 3]| -> f64 {
            (0..n)
                .map(|k| {
                    let s = if self.unnorm { 1.0 } else { size[k] as f64 };
                    (v[k] as f64 * s).powi(2)
                })
                .sum::<f64>()
                .sqrt()
        };
        len(&d[0]).max(len(&d[1])).log2()
    }

    /// The face-local coordinates and physical slice: (u, v, w) scaled inputs and slice.
    fn place(&self, f: &[f32]) -> Result<([f64; 3], i64)> {
        let img = self.img;
        let mut u = [0f64; 3];
        let n = img.spatial();
        for (k, x) in u.iter_mut().enumerate().take(n) {
            *x = f[k] as f64;
        }
        let slice = match img.ty {
            TYPE_CUBE => {
                let z = (f[2] as f64).round_ties_even();
                if !(0.0..=(8 * (img.depth / 6)) as f64).contains(&z) || z as u32 % 8 >= 6 {
                    return Err(Error::unsupported(format!(
                        "cube face id {z} (face + 8 × cube index)"
                    )));
                }
                let z = z as u32;
                u[0] -= 1.0;
                u[1] -= 1.0;
                (img.base_array + (z / 8) * 6 + z % 8) as i64
            }
            TYPE_1D_ARRAY | TYPE_2D_ARRAY => {
                let layers = (img.depth - img.base_array) as f64;
                let l = (f[n] as f64).round_ties_even().clamp(0.0, layers - 1.0);
                img.base_array as i64 + l as i64
            }
            _ => 0,
        };
        Ok((u, slice))
    }

    /// Levels and weights for a LOD: [(physical level, weight)], and whether the
    /// minification filter applies.
    fn levels(&self, lod: f64) -> (Vec<(u32, f64)>, bool) {
        let img = self.img;
        let q = (img.last_level - img.base_level) as f64;
        let lod = lod.clamp(self.s.min_lod as f64, self.s.max_lod as f64);
        let minify = lod > 0.0;
        let lod = lod.clamp(0.0, q);
        let lv = |d: f64| img.base_level + d as u32;
        let out = match self.s.mip {
            0 => vec![(img.base_level, 1.0)],
            1 => vec![(lv((lod + 0.5).floor().min(q)), 1.0)],
            _ => {
                let l0 = lod.floor();
                let fr = lod - l0;
                if fr == 0.0 {
                    vec![(lv(l0), 1.0)]
                } else {
                    vec![(lv(l0), 1.0 - fr), (lv((l0 + 1.0).min(q)), fr)]
                }
            }
        };
        (out, minify)
    }

    /// One texel (before DST_SEL) at integer coordinates of a level, addressing applied;
    /// compared with the reference if there is one.
    fn tap(&self, env: &Env, level: u32, ix: [i64; 3], slice: i64) -> Result<[f64; 4]> {
        let img = self.img;
        let ext = img.extent(level);
        let n = img.spatial();
        let mut p = [0i64; 3];
        let cube = img.ty == TYPE_CUBE;
        let mut border = false;
        for k in 0..n {
            let i = ix[k] + self.offset[k];
            if cube && !(0..ext[k] as i64).contains(&i) {
                return Err(Error::unsupported(
                    "a cube filter tap across a face edge (seamless cube filtering)",
                ));
            }
            match address(i, ext[k], self.s.clamp[k]) {
                Some(a) => p[k] = a,
                None => border = true,
            }
        }
        let z = if n == 3 { p[2] } else { slice };
        let int = img.fmt.num.is_int();
        let t = if border {
            self.s.border_color(int)
        } else {
            img.read(env, level, p[0], p[1], z, 0)?
                .ok_or_else(|| Error::unsupported("sampled texel outside the image"))?
        };
        let v = |x: u32| {
            if int {
                x as i32 as f64
            } else {
                f32::from_bits(x) as f64
            }
        };
        let mut out = t.map(v);
        if let Some(r) = self.zref {
            if int {
                return Err(Error::unsupported("depth compare on an integer format"));
            }
            out[0] = self.s.compare(r, out[0] as f32) as f64;
        }
        Ok(out)
    }

    fn to_regs(&self, c: [f64; 4]) -> [u32; 4] {
        let int = self.img.fmt.num.is_int();
        let regs = c.map(|x| {
            if int {
                x as i64 as u32
            } else {
                (x as f32).to_bits()
            }
        });
        self.img.swizzle(regs)
    }

    fn sample(&self, env: &Env, f: &[f32], lod: f64) -> Result<[u32; 4]> {
        let img = self.img;
        let (u, slice) = self.place(f)?;
        let (levels, minify) = self.levels(lod);
        let linear = if minify {
            self.s.min_linear
        } else {
            self.s.mag_linear
        };
        let n = img.spatial();
        let mut acc = [0f64; 4];
        for (level, lw) in levels {
            let ext = img.extent(level);
            let mut lin = [linear; 3];
            if let Some(z) = self.s.z_linear {
                lin[2] = z;
            }
            if img.fmt.num.is_int() && lin[..n].iter().any(|&l| l) {
                return Err(Error::unsupported("linear filtering of an integer format"));
            }
            let s: Vec<f64> = (0..n)
                .map(|k| {
                    if self.unnorm {
                        u[k]
                    } else {
                        u[k] * ext[k] as f64
                    }
                })
                .collect();
            for cix in 0..1usize << n {
                let mut wgt = lw;
                let mut ix = [0i64; 3];
                for k in 0..n {
                    let hi = cix >> k & 1 == 1;
                    if lin[k] {
                        let b = s[k] - 0.5;
                        let fl = b.floor();
                        let fr = b - fl;
                        ix[k] = fl as i64 + hi as i64;
                        wgt *= if hi { fr } else { 1.0 - fr };
                    } else {
                        ix[k] = s[k].floor() as i64;
                        if hi {
                            wgt = 0.0;
                        }
                    }
                }
                if wgt == 0.0 {
                    continue;
                }
                let t = self.tap(env, level, ix, slice)?;
                for ch in 0..4 {
                    acc[ch] += wgt * t[ch];
                }
            }
        }
        Ok(self.to_regs(acc))
    }

    /// The 2×2 footprint's component `comp`, in the order (i0, j1), (i1, j1), (i1, j0),
    /// (i0, j0).
    fn gather(&self, env: &Env, f: &[f32], lod: f64, comp: usize) -> Result<Vec<u32>> {
        let img = self.img;
        if img.spatial() != 2 || img.ty == TYPE_CUBE {
            return Err(Error::unsupported(
                "gather4 other than on 2D (array) images",
            ));
        }
        let (u, slice) = self.place(f)?;
        let (levels, _) = self.levels(lod);
        let level = match levels.as_slice() {
            [(l, _)] => *l,
            _ => {
                return Err(Error::unsupported(
                    "gather4 at a LOD between two levels (linear mip filter)",
                ))
            }
        };
        let ext = img.extent(level);
        let b: Vec<i64> = (0..2)
            .map(|k| {
                let s = if self.unnorm {
                    u[k]
                } else {
                    u[k] * ext[k] as f64
                };
                (s - 0.5).floor() as i64
            })
            .collect();
        let mut out = Vec::new();
        for (dx, dy) in [(0, 1), (1, 1), (1, 0), (0, 0)] {
            let t = self.tap(env, level, [b[0] + dx, b[1] + dy, 0], slice)?;
            // DST_SEL picks which stored component a requested one is
            let regs = self.to_regs(t);
            out.push(regs[comp]);
        }
        Ok(out)
    }
}

/// The enabled components (dmask) in order.
fn pack(c: [u32; 4], dmask: u32) -> Vec<u32> {
    (0..4)
        .filter(|k| dmask >> k & 1 == 1)
        .map(|k| c[k as usize])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::texformat::Num;

    #[test]
    fn descriptor_round_trip() {
        let rgba8 = TexFormat {
            bits: [8; 4],
            comps: 4,
            num: Num::Unorm,
        };
        let r32f = TexFormat {
            bits: [32, 0, 0, 0],
            comps: 1,
            num: Num::Float,
        };
        for gen in Gen::ALL {
            for fmt in [r32f, rgba8] {
                for (ty, size, levels, samples) in [
                    (TYPE_2D_ARRAY, [37, 5, 3], 3, 1),
                    (TYPE_3D, [8, 4, 2], 4, 1),
                    (TYPE_CUBE, [4, 4, 12], 1, 1),
                    (TYPE_2D_MSAA, [4, 4, 1], 1, 4),
                ] {
                    let mut img = ImageDesc::linear(0x12_3456_7800, fmt, ty, size, levels, samples);
                    img.dst_sel = [6, 5, 4, 1];
                    let t = img.encode(gen).unwrap();
                    assert_eq!(ImageDesc::decode(gen, &t).unwrap(), img, "{gen} type {ty}");
                }
            }
        }
    }

    #[test]
    fn mip_chain_layout() {
        let r32f = TexFormat {
            bits: [32, 0, 0, 0],
            comps: 1,
            num: Num::Float,
        };
        let img = ImageDesc::linear(0, r32f, TYPE_2D_ARRAY, [4, 2, 3], 3, 1);
        // level 0: 4x2x3, level 1: 2x1x3, level 2: 1x1x3
        assert_eq!(img.bytes(), 4 * (24 + 6 + 3));
        assert_eq!(img.addr(1, 1, 0, 2, 0), Some(4 * (24 + 2 * 2 + 1)));
        assert_eq!(img.addr(1, 2, 0, 0, 0), None);
    }
}
