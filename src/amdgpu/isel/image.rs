//! Images, samplers and texel buffers: descriptor loads, MIMG selection, and MUBUF format
//! access for texel buffers (docs/images.md).
//!
//! Descriptors are SSA values (`load_descriptor`, from `passes::lower_image_derefs`): one
//! machine value holding the whole descriptor in an SGPR tuple — a T# in 8 SGPRs, an S# or
//! a texel-buffer view in 4 — loaded with `s_load_dwordx8` / `s_load_dwordx4` at the
//! binding's slot (`PipelineLayout::slot`; the S# of a combined image+sampler at the
//! slot's `sampler_offset`), or through `gcnc.desc.*` relocations in an unlinked compile.
//! A divergent (`nonuniformEXT`) index leaves the descriptor (and a buffer's V#, from
//! `vulkan_resource_index`) as its index VGPR; each user
//! then runs in a waterfall loop ([`Isel::waterfall`]): per trip the first active lane's
//! index (`v_readfirstlane_b32`), the descriptors for it, exec narrowed to the lanes with
//! the same indices (`v_cmp_eq_u32`, `s_and_saveexec`), the instruction, then
//! `exec = old & ~exec` and `s_cbranch_execnz` back; exec is restored after.
//!
//! MIMG address VGPRs are in the order the hardware reads them:
//! `[offset] [bias] [compare] [derivatives] coordinates [layer] [sample | lod]`: one
//! contiguous tuple on GFX9, and on GFX10+ the NSA form, which names each address VGPR
//! (up to 13 on GFX10.3; on GFX11 up to 5, the fifth a tuple of the rest when there are
//! more: partial NSA), so no copies gather them.
//!
//! 16-bit addresses: A16 is set when the coordinate is 16-bit (f16 for sampling, i16 for
//! texel addresses) and so is the LOD, mip level or sample index after it (a constant
//! below 2¹⁶ counts); the coordinates and that value are then packed two per dword
//! (`v_perm_b32`, the first in the low half; an odd count leaves the last dword's high
//! half undefined). Offsets, compare values and biases are never packed: a biased sample,
//! a sampled cube (whose face transform is f32 arithmetic) or a 16-bit coordinate with a
//! 32-bit LOD widens the 16-bit components instead (`v_cvt_f32_f16`, sign extension). 16-bit
//! derivatives are packed per derivative vector: on GFX10+ with the `_g16` opcodes,
//! independently of A16; on GFX9 A16 covers derivatives too, so there they are packed
//! only when the coordinates are 16-bit as well and are widened otherwise.
//!
//! Per generation:
//! - GFX9 encodes no dimension: `da` is set for arrays and cubes, and a 1D image is a 2D
//!   one of height 1 (a second coordinate, 0 for fetches, 0.5 for sampling, is inserted).
//! - GFX10+: `dim` is the image's dimension; the address count must be the table's count
//!   for that dimension (the encoder checks it).
//! - Loads, stores and atomics address cubes as 2D arrays of faces (`z` = face + 6·layer,
//!   as SPIR-V gives it). Sampling a cube computes the face and face coordinates with
//!   `v_cubeid/sc/tc/ma` (`s,t = sc,tc / |ma| + 1.5`, face + 8·layer for cube arrays).
//! - Array layers of sampling and gathers are rounded to the nearest even integer first.
//! - `unorm` is set for the instructions without a sampler; sampling uses normalised
//!   coordinates.
//!
//! Results: `dmask` covers the components the result's users read (a swizzle reads the
//! ones it names, any other user all; a gather returns four values for its one selected
//! component; texel-buffer format loads return a prefix up to the last one read). 16-bit
//! results (an f16 sampled type, `Float16ImageAMD`) use D16: the hardware converts the
//! texel to 16 bits and packs two components per dword (packed on GFX9 as on GFX10.3 and
//! GFX11), which are taken apart with a shift of the high half; D16 stores pack the 16-bit
//! data the same way. A 16-bit gather gathers 32-bit values and rounds each to f16
//! (`v_cvt_f16_f32`), since a D16 gather's register layout differs between generations;
//! sparse reads of 16-bit texels are refused. 64-bit images (Int64ImageEXT) have one channel
//! (R64_UINT/R64_SINT, a 32_32 format in the T#): storage-image loads read `dmask:0x3` and
//! fill `y, z, w` with 0, 0, 1; stores write the two dwords of `x`; atomics take
//! `dmask:0x3` (`0xf` for compare-swap); 64-bit textures (sampled) are refused. Returning
//! atomics set `glc` and tie their data tuple to the result (as the MUBUF atomics do).
//! Sizes come from `image_get_resinfo` (cube arrays report faces: divided by 6; a GFX9 1D
//! array has its layers in `z`); `textureQueryLevels` from
//! its `w`; sample counts from the T# (`1 << LAST_LEVEL` for a multisampled type).
//!
//! Implicit-LOD sampling (`texture`, `textureOffset` with bias, `textureQueryLod`) needs
//! derivatives: only the fragment stage has them, where its results seed whole-quad mode
//! (`quad.rs`, docs/wqm.md); other stages refuse it (`Unsupported`). Every stage goes
//! through [`Isel::tex`].

use super::{Isel, Kind, MV};
use crate::amdgpu::abi::DescriptorKind;
use crate::amdgpu::mir::{Arg, MInst, Pseudo, RegClass, Temp};
use crate::amdgpu::Error;
use crate::binary::prelink::DescKind;
use crate::ir::{
    AtomicOp, Descriptor, Dim, InstKind, Intrinsic, SecondaryMap, Tex, TexOp, TexSrc, Value,
    ACCESS_SPARSE,
};
use crate::isa::{Format, Gen, Opcode};
use smallvec::SmallVec;

/// The image shape an instruction addresses.
#[derive(Clone, Copy, Debug)]
struct Shape {
    dim: Dim,
    arrayed: bool,
    ms: bool,
}

/// MIMG modifiers chosen per instruction.
#[derive(Clone, Copy, Debug, Default)]
struct Mods {
    dmask: u8,
    unorm: bool,
    glc: bool,
    /// TFE: the destination has one more dword, the fetch status (a sparse read); `mimg`
    /// reads the destination as well (zeroed before, see [`Isel::read_dest`]).
    tfe: bool,
    /// D16: 16-bit data, two components per dword (packed on every target here).
    d16: bool,
    /// A16: 16-bit address components, two per dword ([`Isel::pack_halves`]).
    a16: bool,
}

impl Shape {
    /// The GFX10+ `dim` field (SQ_RSRC_IMG_*), addressing cubes as 2D arrays unless
    /// `sampled`.
    fn hw_dim(self, gen: Gen, sampled: bool) -> u8 {
        let d1 = self.dim == Dim::D1 && gen != Gen::Gfx9;
        match (self.dim, self.arrayed, self.ms) {
            (_, false, true) => 6,
            (_, true, true) => 7,
            (Dim::D1, false, _) if d1 => 0,
            (Dim::D1, true, _) if d1 => 4,
            (Dim::D3, _, _) => 2,
            (Dim::Cube, _, _) if sampled => 3,
            (Dim::Cube, _, _) => 5,
            (_, true, _) => 5,
            _ => 1,
        }
    }

    /// GFX9's `da` (declare array): arrays and cubes.
    fn da(self) -> bool {
        self.arrayed || self.dim == Dim::Cube
    }
}

/// (binding kind for the layout, whether the S# half of a combined binding, relocation
/// kind) of a descriptor to load.
fn descriptor_kind(d: Descriptor) -> (DescriptorKind, bool, DescKind) {
    match d {
        Descriptor::StorageImage => (DescriptorKind::StorageImage, false, DescKind::Image),
        Descriptor::SampledImage => (DescriptorKind::SampledImage, false, DescKind::Image),
        Descriptor::Sampler => (DescriptorKind::Sampler, false, DescKind::Sampler),
        Descriptor::CombinedImage => (DescriptorKind::CombinedImageSampler, false, DescKind::Image),
        Descriptor::CombinedSampler => (
            DescriptorKind::CombinedImageSampler,
            true,
            DescKind::Sampler,
        ),
        Descriptor::TexelBuffer => (DescriptorKind::TexelBuffer, false, DescKind::TexelBuffer),
    }
}

impl Isel<'_> {
    /// `load_descriptor`: the descriptor as one SGPR-tuple machine value.
    pub(super) fn load_descriptor(
        &mut self,
        i: Value,
        srcs: &[Value],
        idx: &[u32],
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let d = Descriptor::ALL
            .get(idx[2] as usize)
            .copied()
            .ok_or_else(|| Error::unsupported(at, "descriptor kind"))?;
        let (kind, sampler_half, reloc) = descriptor_kind(d);
        let index = self.get(srcs[0], 0)?;
        if let MV::T(v, _) = index {
            if !self.p.rc(v).is_sgpr() {
                // a divergent index: each user loads the descriptor in a waterfall loop
                return Ok(SmallVec::from_slice(&[MV::T(v, Kind::Plain)]));
            }
        }
        let t = self.descriptor_of(
            idx[0],
            idx[1],
            kind,
            sampler_half,
            reloc,
            d.dwords(),
            index,
            at,
        )?;
        Ok(SmallVec::from_slice(&[MV::T(t, Kind::Plain)]))
    }

    /// The `load_descriptor` operands of `i` whose index is divergent (kept as the index
    /// VGPR until a waterfall loop around `i` loads them).
    pub(super) fn nonuniform_descriptors(&self, i: Value) -> Vec<Value> {
        let mut out: Vec<Value> = Vec::new();
        let f = self.f;
        let mut check = |v: Value| {
            let is_desc = matches!(
                f.kind(v),
                InstKind::Intrinsic {
                    op: Intrinsic::LoadDescriptor | Intrinsic::VulkanResourceIndex,
                    ..
                }
            );
            let deferred =
                matches!(self.vals[v].first(), Some(MV::T(t, _)) if !self.p.rc(*t).is_sgpr());
            if is_desc && deferred && !out.contains(&v) {
                out.push(v);
            }
        };
        match f.kind(i) {
            InstKind::Tex(t) => {
                for s in [TexSrc::Texture, TexSrc::Sampler] {
                    if let Some(v) = t.src(s) {
                        check(v);
                    }
                }
            }
            InstKind::Intrinsic { srcs, .. } => srcs.iter().for_each(|&v| check(v)),
            _ => {}
        }
        out
    }

    /// Selects `i`, whose descriptors `descs` have divergent indices, in a waterfall loop:
    /// each trip takes the index of the first active lane (`v_readfirstlane_b32`), loads
    /// the descriptors for it, restricts exec to the lanes with the same indices, runs the
    /// instruction, and removes those lanes; the loop ends when none is left and exec is
    /// restored. Lanes done in earlier trips are outside exec in the later ones, so no
    /// later write touches their results; a 32-bit result in SGPRs (one value per trip)
    /// is copied into the trip's lanes of a VGPR, a wider one is refused. The same loop
    /// serves image descriptors (`load_descriptor`) and buffer descriptors
    /// (`vulkan_resource_index`).
    pub(super) fn waterfall(&mut self, i: Value, descs: &[Value]) -> Result<(), Error> {
        let at = Some(i.index() as u32);
        let mrc = self.mask_rc();
        let exec = self.p.exec();
        let saved = self.tmp(mrc);
        self.hw_lane(Opcode::SMovB32, &[Arg::Temp(saved)], &[exec])?;
        let pre = self.cur;
        self.loop_depth += 1;
        let header = self.p.new_block(self.loop_depth);
        self.p.add_edge(pre, header, true);
        self.cur = header;
        let mut mask: Option<Temp> = None;
        let mut indices: Vec<(Temp, Temp)> = Vec::new();
        let mut kept = Vec::new();
        for &d in descs {
            let MV::T(vidx, _) = self.get(d, 0)? else {
                unreachable!("a deferred descriptor is its index VGPR")
            };
            let sidx = match indices.iter().find(|(v, _)| *v == vidx) {
                Some(&(_, s)) => s,
                None => {
                    let s = self.tmp(RegClass::S1);
                    self.hw(
                        Opcode::VReadfirstlaneB32,
                        &[Arg::Temp(s)],
                        &[Arg::Temp(vidx)],
                    )?;
                    let m = self.tmp(mrc);
                    self.valu(
                        Opcode::VCmpEqU32,
                        &[Arg::Temp(m)],
                        vec![Arg::Temp(s), Arg::Temp(vidx)],
                    )?;
                    mask = Some(match mask {
                        None => m,
                        Some(prev) => {
                            let both = self.tmp(mrc);
                            self.hw_lane(
                                Opcode::SAndB32,
                                &[Arg::Temp(both)],
                                &[Arg::Temp(prev), Arg::Temp(m)],
                            )?;
                            both
                        }
                    });
                    indices.push((vidx, s));
                    s
                }
            };
            let InstKind::Intrinsic { op, srcs, idx } = self.f.kind(d) else {
                unreachable!("checked by nonuniform_descriptors")
            };
            let (op, srcs, idx) = (*op, srcs.clone(), idx.clone());
            // the descriptor for the index of this trip
            let index = std::mem::replace(
                &mut self.vals[srcs[0]],
                SmallVec::from_slice(&[MV::T(sidx, Kind::Plain)]),
            );
            let loaded = if op == Intrinsic::VulkanResourceIndex {
                self.vulkan_resource_index(&srcs, &idx, Some(d.index() as u32))
            } else {
                self.load_descriptor(d, &srcs, &idx)
            };
            self.vals[srcs[0]] = index;
            let loaded = loaded?;
            kept.push((d, std::mem::replace(&mut self.vals[d], loaded)));
        }
        let old = self.tmp(mrc);
        let mask = mask.expect("at least one descriptor");
        self.hw_lane(
            Opcode::SAndSaveexecB32,
            &[Arg::Temp(old)],
            &[Arg::Temp(mask)],
        )?;
        self.select_inst(i)?;
        for (d, v) in kept {
            self.vals[d] = v;
        }
        // a result in SGPRs (e.g. a buffer's size from its V#) is one value per trip:
        // copied into the trip's lanes of a VGPR
        for k in 0..self.vals[i].len() {
            let MV::T(t, kind) = self.vals[i][k] else {
                continue;
            };
            match self.p.rc(t) {
                RegClass::S1 => {
                    let v = self.tmp(RegClass::V1);
                    self.valu(Opcode::VMovB32, &[Arg::Temp(v)], vec![Arg::Temp(t)])?;
                    self.vals[i][k] = MV::T(v, kind);
                }
                rc if rc.is_sgpr() => {
                    return Err(Error::unsupported(
                        at,
                        "a wide uniform result from a non-uniform descriptor",
                    ))
                }
                _ => {}
            }
        }
        // the lanes not done yet: those active before this trip but not in it
        self.hw_lane(Opcode::SAndn2B32, &[exec], &[Arg::Temp(old), exec])?;
        let latch = self.cur;
        self.branch(Opcode::SCbranchExecnz, header)?;
        self.p.add_edge(latch, header, false);
        self.loop_depth -= 1;
        let exit = self.p.new_block(self.loop_depth);
        self.p.add_edge(latch, exit, true);
        self.cur = exit;
        self.hw_lane(Opcode::SMovB32, &[exec], &[Arg::Temp(saved)])?;
        Ok(())
    }

    /// The descriptor tuple of value `v` (`dwords` SGPRs).
    fn desc(&mut self, v: Value, dwords: u8, at: Option<u32>) -> Result<Temp, Error> {
        match self.get(v, 0)? {
            MV::T(t, _) if self.p.rc(t) == RegClass::s(dwords) => Ok(t),
            _ => Err(Error::unsupported(
                at,
                "image or sampler operand is not a uniform descriptor",
            )),
        }
    }

    /// The `image_*` intrinsics (storage images, and the image half of everything).
    pub(super) fn image_intrinsic(
        &mut self,
        i: Value,
        op: Intrinsic,
        srcs: &[Value],
        idx: &[u32],
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let shape = Shape {
            dim: *Dim::ALL
                .get(idx[0] as usize)
                .ok_or_else(|| Error::unsupported(at, "image dimension"))?,
            arrayed: idx[1] != 0,
            ms: idx[2] != 0,
        };
        if shape.dim == Dim::Buffer {
            if op == Intrinsic::ImageLoad && idx[3] & ACCESS_SPARSE != 0 {
                return Err(Error::unsupported(at, "sparse texel-buffer loads"));
            }
            return self.texel_buffer(i, op, srcs, idx, at);
        }
        if op == Intrinsic::ImageLoad && shape.dim == Dim::SubpassData {
            // subpassLoad: a 2D load at the fragment's pixel plus the offset coordinate
            let t = self.desc(srcs[0], 8, at)?;
            let mut addr = self.subpass_coords(srcs[1], at)?;
            if shape.ms {
                addr.push(self.vgpr_of(srcs[2], 0)?);
            }
            let shape = Shape {
                dim: Dim::D2,
                ..shape
            };
            let sparse = idx[3] & ACCESS_SPARSE != 0;
            return self.load_at(i, t, shape, addr, false, sparse, false, at);
        }
        if matches!(shape.dim, Dim::Rect | Dim::SubpassData) {
            return Err(Error::unsupported(
                at,
                format!("{} images", shape.dim.name()),
            ));
        }
        let ty = self.f.ty(i);
        match op {
            Intrinsic::ImageLoad => {
                let t = self.desc(srcs[0], 8, at)?;
                let lod = self.const_or_none(srcs[3]);
                let sample = shape.ms.then_some(srcs[2]);
                let lod = (lod != Some(0)).then_some(srcs[3]);
                let extra: Vec<Value> = if shape.ms { sample } else { lod }.into_iter().collect();
                let a16 = self.a16_coord(srcs[1], &extra, false);
                let addr = self.coords(shape, srcs[1], false, a16, at)?;
                let sparse = idx[3] & ACCESS_SPARSE != 0;
                self.image_load_at(i, t, shape, addr, sample, lod, sparse, a16, at)
            }
            Intrinsic::ImageStore => {
                let t = self.desc(srcs[0], 8, at)?;
                let data_ty = self.f.ty(srcs[3]);
                if !matches!(data_ty.bits, 16 | 32 | 64) {
                    return Err(Error::unsupported(
                        at,
                        format!("{}-bit image stores", data_ty.bits),
                    ));
                }
                let d16 = data_ty.bits == 16;
                // a 64-bit image has one channel (R64): its two dwords are the whole texel
                let last = if data_ty.bits == 64 {
                    0
                } else {
                    data_ty.comps as u32 - 1
                };
                let lod = (self.const_or_none(srcs[4]) != Some(0)).then_some(srcs[4]);
                let extra = if shape.ms { Some(srcs[2]) } else { lod };
                let extra: Vec<Value> = extra.into_iter().collect();
                let a16 = self.a16_coord(srcs[1], &extra, false);
                let mut addr = self.coords(shape, srcs[1], false, a16, at)?;
                for &e in &extra {
                    addr.push(self.addr_comp(e, false, a16)?);
                }
                if a16 {
                    addr = self.pack_halves(&addr)?;
                }
                let (data, n) = if d16 {
                    // D16: the components packed two per dword (`dmask` counts components)
                    let halves = (0..data_ty.comps as usize)
                        .map(|k| self.vgpr_of(srcs[3], k))
                        .collect::<Result<Vec<_>, _>>()?;
                    (self.pack_halves(&halves)?, data_ty.comps)
                } else {
                    let data = self.vgpr_dwords(srcs[3], 0, last)?;
                    let n = data.len() as u8;
                    (data, n)
                };
                let data = self.vgpr_tuple(&data);
                let opc = if lod.is_some() && !shape.ms {
                    Opcode::ImageStoreMip
                } else {
                    Opcode::ImageStore
                };
                let mods = Mods {
                    dmask: (1u8 << n) - 1,
                    unorm: true,
                    glc: false,
                    tfe: false,
                    d16,
                    a16,
                };
                self.mimg(opc, None, Some(data), &addr, t, None, shape, false, mods)?;
                Ok(SmallVec::new())
            }
            Intrinsic::ImageAtomic | Intrinsic::ImageAtomicSwap => {
                let t = self.desc(srcs[0], 8, at)?;
                if !matches!(ty.bits, 32 | 64) {
                    return Err(Error::unsupported(
                        at,
                        format!("{}-bit image atomics", ty.bits),
                    ));
                }
                let mut addr = self.coords(shape, srcs[1], false, false, at)?;
                if shape.ms {
                    addr.push(self.wide_comp(srcs[2], 0, false)?);
                }
                let swap = op == Intrinsic::ImageAtomicSwap;
                let (opc, data, dw) = self.atomic_data(
                    srcs,
                    idx,
                    swap,
                    (
                        Opcode::ImageAtomicCmpswap,
                        image_atomic_opcode,
                        "image atomic",
                    ),
                    at,
                )?;
                let wide = ty.bits == 64;
                let mods = Mods {
                    dmask: ((1u16 << dw) - 1) as u8,
                    unorm: true,
                    glc: true,
                    tfe: false,
                    ..Mods::default()
                };
                self.mimg(
                    opc,
                    Some(data),
                    Some(data),
                    &addr,
                    t,
                    None,
                    shape,
                    false,
                    mods,
                )?;
                let words = self.split(data, dw)?;
                let keep = if wide { 2 } else { 1 };
                let words: SmallVec<[MV; 4]> = words[..keep]
                    .iter()
                    .map(|t| MV::T(*t, Kind::Plain))
                    .collect();
                self.regroup(i, words, ty)
            }
            Intrinsic::ImageSize => {
                let t = self.desc(srcs[0], 8, at)?;
                self.resinfo_size(i, t, shape, false, Some(srcs[1]), at)
            }
            Intrinsic::ImageSamples => {
                let t = self.desc(srcs[0], 8, at)?;
                self.samples(t)
            }
            _ => unreachable!("not an image intrinsic"),
        }
    }

    /// A `tex` instruction (shared by every stage). Implicit-LOD forms are refused outside
    /// the fragment stage, which alone has derivatives.
    pub(crate) fn tex(&mut self, i: Value, t: &Tex) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let shape = Shape {
            dim: t.dim,
            arrayed: t.arrayed,
            ms: t.op == TexOp::FetchMs,
        };
        let texture = t
            .src(TexSrc::Texture)
            .ok_or_else(|| Error::unsupported(at, "tex without a texture"))?;
        if t.dim == Dim::Buffer {
            if t.sparse {
                return Err(Error::unsupported(at, "sparse texel-buffer fetches"));
            }
            let v = self.desc(texture, 4, at)?;
            return match (t.op, t.src(TexSrc::Coord)) {
                (TexOp::Fetch, Some(coord)) => self.texel_load(i, v, coord),
                (TexOp::Size, _) => self.texel_buffer_size(v),
                _ => Err(Error::unsupported(at, "texel buffers only fetch and size")),
            };
        }
        if matches!(t.dim, Dim::Rect | Dim::SubpassData) {
            return Err(Error::unsupported(at, format!("{} textures", t.dim.name())));
        }
        if t.src(TexSrc::MinLod).is_some() {
            return Err(Error::unsupported(at, "minLod clamps"));
        }
        if t.sparse
            && !matches!(
                t.op,
                TexOp::Fetch
                    | TexOp::FetchMs
                    | TexOp::Sample
                    | TexOp::SampleBias
                    | TexOp::SampleLod
                    | TexOp::SampleGrad
                    | TexOp::Gather
            )
        {
            return Err(Error::unsupported(
                at,
                format!("sparse {} (only reads return residency)", t.op.name()),
            ));
        }
        let res = self.desc(texture, 8, at)?;
        let ty = self.f.ty(i);
        if !matches!(ty.bits, 16 | 32) {
            // (64-bit textures, which GLSL cannot declare, are not selected: only storage
            // images are, whose loads `load_at` handles)
            return Err(Error::unsupported(
                at,
                format!("{}-bit texture results", ty.bits),
            ));
        }
        match t.op {
            TexOp::Fetch | TexOp::FetchMs => {
                let coord = need(t, TexSrc::Coord, at)?;
                let lod = t
                    .src(TexSrc::Lod)
                    .filter(|&l| self.const_or_none(l) != Some(0));
                let ms = t.src(TexSrc::MsIndex);
                let extra: Vec<Value> = if shape.ms { ms } else { lod }.into_iter().collect();
                let a16 = self.a16_coord(coord, &extra, false);
                let mut addr = self.coords(shape, coord, false, a16, at)?;
                if let Some(off) = t.src(TexSrc::Offset) {
                    // texelFetchOffset: MIMG loads have no offset operand; the texel
                    // offset is added to the integer coordinates it applies to (not the
                    // layer, nor the y GFX9 inserts for 1D)
                    for k in 0..self.f.ty(off).comps as usize {
                        let o = self.arg(off, k)?;
                        let d = self.tmp(RegClass::V1);
                        self.valu(
                            Opcode::VAddU32,
                            &[Arg::Temp(d)],
                            vec![o, Arg::Temp(addr[k])],
                        )?;
                        addr[k] = d;
                    }
                }
                self.image_load_at(i, res, shape, addr, ms, lod, t.sparse, a16, at)
            }
            TexOp::Size => {
                let lod = t.src(TexSrc::Lod);
                self.resinfo_size(i, res, shape, true, lod, at)
            }
            TexOp::Levels => {
                let z = self.to_vgpr(Arg::Const(0))?;
                let d = self.tmp(RegClass::V1);
                let mods = Mods {
                    dmask: 8,
                    unorm: true,
                    glc: false,
                    tfe: false,
                    ..Mods::default()
                };
                self.mimg(
                    Opcode::ImageGetResinfo,
                    Some(d),
                    None,
                    &[z],
                    res,
                    None,
                    shape,
                    true,
                    mods,
                )?;
                self.regroup(i, SmallVec::from_slice(&[MV::T(d, Kind::Plain)]), ty)
            }
            TexOp::Samples => self.samples(res),
            TexOp::Sample | TexOp::SampleBias | TexOp::QueryLod if !self.quad_helpers() => {
                Err(Error::unsupported(
                    at,
                    "implicit-LOD sampling needs derivatives, which only fragment shaders have",
                ))
            }
            TexOp::Sample
            | TexOp::SampleBias
            | TexOp::QueryLod
            | TexOp::SampleLod
            | TexOp::SampleGrad
            | TexOp::Gather => {
                let samp = t
                    .src(TexSrc::Sampler)
                    .ok_or_else(|| Error::unsupported(at, "sampling without a sampler"))?;
                let samp = self.desc(samp, 4, at)?;
                self.sample(i, t, shape, res, samp, at)
            }
        }
    }

    /// Sampling (implicit LOD, with a bias, explicit LOD or gradients), gathers (LOD 0)
    /// and LOD queries. Implicit-LOD results are whole-quad-mode seeds (`quad.rs`): the
    /// hardware takes the LOD from the coordinates of the whole quad.
    fn sample(
        &mut self,
        i: Value,
        t: &Tex,
        shape: Shape,
        res: Temp,
        samp: Temp,
        at: Option<u32>,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let gen = self.t().gen;
        let ty = self.f.ty(i);
        let coord = need(t, TexSrc::Coord, at)?;
        let offset = t.src(TexSrc::Offset);
        let cmp = t.src(TexSrc::Comparator);
        let lod = t.src(TexSrc::Lod);
        let lz = match t.op {
            TexOp::Gather => true,
            TexOp::SampleLod => lod.and_then(|l| self.const_or_none(l)) == Some(0),
            _ => false,
        };
        let grad = t.op == TexOp::SampleGrad;
        if grad && t.dim == Dim::Cube {
            return Err(Error::unsupported(at, "textureGrad on cube maps"));
        }
        let bias = (t.op == TexOp::SampleBias)
            .then(|| need(t, TexSrc::Bias, at))
            .transpose()?;
        let derivs = if grad {
            Some((need(t, TexSrc::Ddx, at)?, need(t, TexSrc::Ddy, at)?))
        } else {
            None
        };
        let lod_addr = (!lz && t.op == TexOp::SampleLod)
            .then(|| need(t, TexSrc::Lod, at))
            .transpose()?;
        // 16-bit addresses: A16 packs the coordinates and the LOD (on GFX9 the derivatives
        // too, so they must be 16-bit as well); GFX10+ packs 16-bit derivatives with G16
        // opcodes independently of A16. A bias keeps every address 32-bit.
        let g16_derivs =
            derivs.is_some_and(|(x, y)| self.f.ty(x).bits == 16 && self.f.ty(y).bits == 16);
        let extra: Vec<Value> = lod_addr.into_iter().collect();
        let a16 = bias.is_none()
            && self.a16_coord(coord, &extra, t.dim == Dim::Cube)
            && (gen != Gen::Gfx9 || !grad || g16_derivs);
        let pack_derivs = g16_derivs && (gen != Gen::Gfx9 || a16);
        let mut opc = sample_opcode(t.op, cmp.is_some(), offset.is_some(), lz);
        if pack_derivs && gen != Gen::Gfx9 {
            opc = g16_opcode(opc);
        }
        let mut addr: Vec<Temp> = Vec::new();
        if let Some(o) = offset {
            addr.push(self.packed_offset(o)?);
        }
        if let Some(b) = bias {
            addr.push(self.wide_comp(b, 0, true)?);
        }
        if let Some(c) = cmp {
            addr.push(self.wide_comp(c, 0, true)?);
        }
        if let Some((ddx, ddy)) = derivs {
            for d in [ddx, ddy] {
                let n = self.f.ty(d).comps as usize;
                let mut v = Vec::new();
                for c in 0..n {
                    v.push(if pack_derivs {
                        self.vgpr_of(d, c)?
                    } else {
                        self.wide_comp(d, c, true)?
                    });
                }
                if gen == Gen::Gfx9 && t.dim == Dim::D1 {
                    v.push(self.to_vgpr(Arg::Const(0))?);
                }
                if pack_derivs {
                    v = self.pack_halves(&v)?;
                }
                addr.extend(v);
            }
        }
        let mut c = self.coords(shape, coord, true, a16, at)?;
        if let Some(l) = lod_addr {
            c.push(self.addr_comp(l, true, a16)?);
        }
        if a16 {
            c = self.pack_halves(&c)?;
        }
        addr.extend(c);
        let gather = t.op == TexOp::Gather;
        // a 16-bit gather gathers 32-bit values and converts them (D16 gathers return
        // their four values in a layout that differs between generations)
        let d16 = ty.bits == 16 && !gather;
        if ty.bits == 16 && t.sparse {
            return Err(Error::unsupported(at, "sparse 16-bit texture reads"));
        }
        let dmask = match (gather, cmp.is_some()) {
            (true, true) => 1,
            (true, false) => 1 << t.component,
            (false, _) => self.texel_mask(i, t.sparse),
        };
        // a gather returns four values for its one component
        let n = if gather { 4 } else { dmask.count_ones() as u8 };
        let d = if d16 {
            self.tmp(RegClass::v(n.div_ceil(2)))
        } else {
            self.read_dest(n, t.sparse)?
        };
        let mods = Mods {
            dmask,
            unorm: false,
            glc: false,
            tfe: t.sparse,
            d16,
            a16,
        };
        self.mimg(
            opc,
            Some(d),
            None,
            &addr,
            res,
            Some(samp),
            shape,
            true,
            mods,
        )?;
        if matches!(t.op, TexOp::Sample | TexOp::SampleBias | TexOp::QueryLod) {
            self.wqm_seed(&[d]);
        }
        if d16 {
            let words = self.d16_words(d, n, dmask, ty.comps)?;
            return self.regroup(i, words, ty);
        }
        let spread = if gather { 0xf } else { dmask };
        let mut words = self.read_words(d, n, spread, ty.comps, t.sparse)?;
        if ty.bits == 16 {
            // the 16-bit gather: each f32 value rounded to f16
            for w in words.iter_mut() {
                if let MV::T(x, k) = *w {
                    let h = self.v1op(Opcode::VCvtF16F32, vec![Arg::Temp(x)])?;
                    let Arg::Temp(h) = h else {
                        unreachable!("a VALU result")
                    };
                    *w = MV::T(h, k);
                }
            }
        }
        self.regroup(i, words, ty)
    }

    /// `image_load` at texel coordinates `addr` (as [`Isel::coords`] gives them), with the
    /// sample index or LOD appended.
    #[allow(clippy::too_many_arguments)]
    fn image_load_at(
        &mut self,
        i: Value,
        res: Temp,
        shape: Shape,
        mut addr: Vec<Temp>,
        sample: Option<Value>,
        lod: Option<Value>,
        sparse: bool,
        a16: bool,
        at: Option<u32>,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let mip = lod.is_some() && !shape.ms;
        if shape.ms {
            let s = sample
                .ok_or_else(|| Error::unsupported(at, "multisampled load without a sample"))?;
            addr.push(self.addr_comp(s, false, a16)?);
        } else if let Some(l) = lod {
            addr.push(self.addr_comp(l, false, a16)?);
        }
        if a16 {
            addr = self.pack_halves(&addr)?;
        }
        self.load_at(i, res, shape, addr, mip, sparse, a16, at)
    }

    /// `image_load` (`_mip`) of the components of `i` the program uses at `addr` (with
    /// `sparse`, TFE and the residency code as the last component).
    #[allow(clippy::too_many_arguments)]
    fn load_at(
        &mut self,
        i: Value,
        res: Temp,
        shape: Shape,
        addr: Vec<Temp>,
        mip: bool,
        sparse: bool,
        a16: bool,
        at: Option<u32>,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let ty = self.f.ty(i);
        if ty.bits != 32 && sparse {
            return Err(Error::unsupported(
                at,
                format!("sparse {}-bit image loads", ty.bits),
            ));
        }
        if ty.bits == 64 {
            return self.load_at_64(i, res, shape, addr, mip, a16);
        }
        if !matches!(ty.bits, 16 | 32) {
            return Err(Error::unsupported(
                at,
                format!("{}-bit image loads", ty.bits),
            ));
        }
        let d16 = ty.bits == 16;
        let dmask = self.texel_mask(i, sparse);
        let n = dmask.count_ones() as u8;
        let mods = Mods {
            dmask,
            tfe: sparse,
            d16,
            a16,
            ..Mods::default()
        };
        if d16 {
            let d = self.tmp(RegClass::v(n.div_ceil(2)));
            self.image_load_into(d, &addr, res, shape, mip, mods)?;
            let words = self.d16_words(d, n, dmask, ty.comps)?;
            return self.regroup(i, words, ty);
        }
        let d = self.read_dest(n, sparse)?;
        self.image_load_into(d, &addr, res, shape, mip, mods)?;
        let words = self.read_words(d, n, dmask, ty.comps, sparse)?;
        self.regroup(i, words, ty)
    }

    /// The `comps` result components of a D16 read of `n` components (`dmask`) into `d`:
    /// two per dword, the first in the low half (kept as the component: its upper half
    /// is undefined, `alu16.rs`), the second shifted down.
    fn d16_words(
        &mut self,
        d: Temp,
        n: u8,
        dmask: u8,
        comps: u8,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let words = self.split(d, n.div_ceil(2))?;
        let mut halves = Vec::new();
        for k in 0..n as usize {
            let w = words[k / 2];
            halves.push(if k % 2 == 0 {
                w
            } else {
                let h = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VLshrrevB32,
                    &[Arg::Temp(h)],
                    vec![Arg::Const(16), Arg::Temp(w)],
                )?;
                h
            });
        }
        Ok(Self::spread(&halves, dmask, comps))
    }

    /// Address component `v` (a LOD, mip level or sample index after the coordinates):
    /// its low half as it is under `a16`, otherwise 32-bit ([`Isel::wide_comp`]).
    fn addr_comp(&mut self, v: Value, float: bool, a16: bool) -> Result<Temp, Error> {
        if a16 {
            self.vgpr_of(v, 0)
        } else {
            self.wide_comp(v, 0, float)
        }
    }

    /// `image_load` (`_mip` with a LOD) of the `mods.dmask` components at `addr` into `d`,
    /// with the residency status after them when `mods.tfe`.
    fn image_load_into(
        &mut self,
        d: Temp,
        addr: &[Temp],
        res: Temp,
        shape: Shape,
        mip: bool,
        mods: Mods,
    ) -> Result<(), Error> {
        let mods = Mods {
            unorm: true,
            glc: false,
            ..mods
        };
        let opc = if mip {
            Opcode::ImageLoadMip
        } else {
            Opcode::ImageLoad
        };
        self.mimg(opc, Some(d), None, addr, res, None, shape, false, mods)
    }

    /// A 64-bit image load. The only 64-bit image formats are one-channel (R64_UINT,
    /// R64_SINT; a 32_32 format in the T#): `x` is the texel's two dwords, and `y`, `z`, `w`
    /// read 0, 0, 1 as Vulkan fills the components a format lacks. Nothing is loaded when
    /// no user reads `x`.
    fn load_at_64(
        &mut self,
        i: Value,
        res: Temp,
        shape: Shape,
        addr: Vec<Temp>,
        mip: bool,
        a16: bool,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let ty = self.f.ty(i);
        let mut out: SmallVec<[MV; 4]> = SmallVec::new();
        if self.used_mask(i) & 1 != 0 {
            let d = self.tmp(RegClass::v(2));
            let mods = Mods {
                dmask: 0x3,
                a16,
                ..Mods::default()
            };
            self.image_load_into(d, &addr, res, shape, mip, mods)?;
            let words = self.split(d, 2)?;
            let words = words.iter().map(|t| MV::T(*t, Kind::Plain)).collect();
            out.extend(self.regroup(i, words, ty)?);
        } else {
            out.push(MV::C(0));
        }
        out.extend([MV::C(0), MV::C(0), MV::C(1)]);
        out.truncate(ty.comps as usize);
        Ok(out)
    }

    /// The size query through `image_get_resinfo` at `lod` (0 when absent). A storage
    /// (not `sampled`) cube's descriptor is a 2D array of its faces, so the query names
    /// that dim, as RADV's `nir_lower_image` (`lower_cube_size`) turns a cube's
    /// `image_size` into a 2D-array one; the layer count of a cube array is faces / 6
    /// either way.
    fn resinfo_size(
        &mut self,
        i: Value,
        res: Temp,
        shape: Shape,
        sampled: bool,
        lod: Option<Value>,
        at: Option<u32>,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let gen = self.t().gen;
        let ty = self.f.ty(i);
        let l = match lod {
            Some(l) => self.vgpr_of(l, 0)?,
            None => self.to_vgpr(Arg::Const(0))?,
        };
        // which resinfo component answers each result component
        let mut comps: SmallVec<[u8; 4]> = match shape.dim {
            Dim::D1 => smallvec::smallvec![0],
            Dim::D2 | Dim::Cube => smallvec::smallvec![0, 1],
            Dim::D3 => smallvec::smallvec![0, 1, 2],
            _ => return Err(Error::unsupported(at, "size of this image dimension")),
        };
        if shape.arrayed {
            comps.push(if shape.dim == Dim::D1 && gen != Gen::Gfx9 {
                1
            } else {
                2
            });
        }
        if comps.len() != ty.comps as usize {
            return Err(Error::unsupported(
                at,
                "size query with an unexpected shape",
            ));
        }
        let dmask = comps.iter().fold(0u8, |m, c| m | 1 << c);
        let n = dmask.count_ones() as u8;
        let d = self.tmp(RegClass::v(n));
        let mods = Mods {
            dmask,
            unorm: true,
            glc: false,
            tfe: false,
            ..Mods::default()
        };
        self.mimg(
            Opcode::ImageGetResinfo,
            Some(d),
            None,
            &[l],
            res,
            None,
            shape,
            sampled,
            mods,
        )?;
        let words = self.split(d, n)?;
        let mut out: SmallVec<[MV; 4]> = SmallVec::new();
        for (k, &c) in comps.iter().enumerate() {
            // the k-th set dmask bit's value is the k-th returned dword
            let pos = (dmask & ((1u8 << c) - 1)).count_ones() as usize;
            let mut w = words[pos];
            if shape.dim == Dim::Cube && shape.arrayed && k == comps.len() - 1 {
                // faces → layers: x / 6 = mulhi(x, 0xaaaaaaab) >> 2
                let h = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VMulHiU32,
                    &[Arg::Temp(h)],
                    vec![Arg::Temp(w), Arg::Const(0xaaaa_aaab)],
                )?;
                let q = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VLshrrevB32,
                    &[Arg::Temp(q)],
                    vec![Arg::Const(2), Arg::Temp(h)],
                )?;
                w = q;
            }
            out.push(MV::T(w, Kind::Plain));
        }
        self.regroup(i, out, ty)
    }

    /// Samples per texel from the T#: `1 << LAST_LEVEL` (dword 3, bits 19:16) when its
    /// type (bits 31:28) is a multisampled one (14, 15), else 1.
    fn samples(&mut self, res: Temp) -> Result<SmallVec<[MV; 4]>, Error> {
        let dw = self.split(res, 8)?;
        let w3 = Arg::Temp(dw[3]);
        let ty = self.tmp(RegClass::S1);
        self.salu(Opcode::SLshrB32, &[Arg::Temp(ty)], vec![w3, Arg::Const(28)])?;
        let last = self.tmp(RegClass::S1);
        // s_bfe_u32: offset 16, width 4 (width << 16 | offset)
        self.salu(
            Opcode::SBfeU32,
            &[Arg::Temp(last)],
            vec![w3, Arg::Const(4 << 16 | 16)],
        )?;
        let n = self.tmp(RegClass::S1);
        self.salu(
            Opcode::SLshlB32,
            &[Arg::Temp(n)],
            vec![Arg::Const(1), Arg::Temp(last)],
        )?;
        self.salu(Opcode::SCmpGeU32, &[], vec![Arg::Temp(ty), Arg::Const(14)])?;
        let r = self.tmp(RegClass::S1);
        self.salu(
            Opcode::SCselectB32,
            &[Arg::Temp(r)],
            vec![Arg::Temp(n), Arg::Const(1)],
        )?;
        Ok(SmallVec::from_slice(&[MV::T(r, Kind::Plain)]))
    }

    /// Texel buffers (`Dim::Buffer` image intrinsics): MUBUF format access by index.
    fn texel_buffer(
        &mut self,
        i: Value,
        op: Intrinsic,
        srcs: &[Value],
        idx: &[u32],
        at: Option<u32>,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let v = self.desc(srcs[0], 4, at)?;
        let ty = self.f.ty(i);
        match op {
            Intrinsic::ImageLoad => self.texel_load(i, v, srcs[1]),
            Intrinsic::ImageStore => {
                let data_ty = self.f.ty(srcs[3]);
                if !matches!(data_ty.bits, 16 | 32) || data_ty.comps != 4 {
                    return Err(Error::unsupported(at, "texel buffer store of this type"));
                }
                let index = self.vgpr_of(srcs[1], 0)?;
                // 16-bit data: the D16 form, two components per dword, the first low
                let (data, opc) = if data_ty.bits == 16 {
                    let halves = (0..4)
                        .map(|k| self.vgpr_of(srcs[3], k))
                        .collect::<Result<Vec<_>, _>>()?;
                    (self.pack_halves(&halves)?, Opcode::BufferStoreFormatD16Xyzw)
                } else {
                    (
                        self.vgpr_dwords(srcs[3], 0, 3)?,
                        Opcode::BufferStoreFormatXyzw,
                    )
                };
                let data = self.vgpr_tuple(&data);
                self.mubuf_idx(
                    opc,
                    &[],
                    &[
                        Arg::Temp(data),
                        Arg::Temp(index),
                        Arg::Temp(v),
                        Arg::Const(0),
                    ],
                    false,
                )?;
                Ok(SmallVec::new())
            }
            Intrinsic::ImageAtomic | Intrinsic::ImageAtomicSwap => {
                if ty.bits != 32 {
                    return Err(Error::unsupported(
                        at,
                        format!("{}-bit texel buffer atomics", ty.bits),
                    ));
                }
                let index = self.vgpr_of(srcs[1], 0)?;
                let swap = op == Intrinsic::ImageAtomicSwap;
                let (opc, data, n) = self.atomic_data(
                    srcs,
                    idx,
                    swap,
                    (
                        Opcode::BufferAtomicCmpswap,
                        buffer_atomic_opcode,
                        "texel buffer atomic",
                    ),
                    at,
                )?;
                self.mubuf_idx(
                    opc,
                    &[Arg::Temp(data)],
                    &[
                        Arg::Temp(data),
                        Arg::Temp(index),
                        Arg::Temp(v),
                        Arg::Const(0),
                    ],
                    true,
                )?;
                let w = self.split(data, n)?;
                self.regroup(i, SmallVec::from_slice(&[MV::T(w[0], Kind::Plain)]), ty)
            }
            Intrinsic::ImageSize => self.texel_buffer_size(v),
            _ => Err(Error::unsupported(at, "this query on a texel buffer")),
        }
    }

    /// The opcode and the data tuple of an atomic (`image_atomic` sources: descriptor,
    /// coordinate, sample, data; `image_atomic_swap`: ..., compare, data): the new value,
    /// then the compare value for a compare-swap, copied into a fresh tuple the
    /// instruction also defines (tied, as the MUBUF atomics). `ops` is (compare-swap
    /// opcode, opcode of an `AtomicOp`, name for errors). Returns the tuple's dwords too.
    #[allow(clippy::type_complexity)]
    fn atomic_data(
        &mut self,
        srcs: &[Value],
        idx: &[u32],
        swap: bool,
        ops: (Opcode, fn(AtomicOp) -> Option<Opcode>, &str),
        at: Option<u32>,
    ) -> Result<(Opcode, Temp, u8), Error> {
        let opc = if swap {
            ops.0
        } else {
            let a = AtomicOp::ALL
                .get(idx[3] as usize)
                .copied()
                .ok_or_else(|| Error::unsupported(at, "atomic op"))?;
            ops.1(a).ok_or_else(|| Error::unsupported(at, format!("{} {}", ops.2, a.name())))?
        };
        let mut parts = vec![self.vgpr_value(srcs[if swap { 4 } else { 3 }])?];
        if swap {
            parts.push(self.vgpr_value(srcs[3])?);
        }
        let dw: u8 = parts.iter().map(|t| self.p.rc(*t).dwords).sum();
        let data = self.tmp(RegClass::v(dw));
        let args: Vec<Arg> = parts.iter().map(|t| Arg::Temp(*t)).collect();
        self.push(MInst::pseudo(
            Pseudo::CreateVector,
            &[Arg::Temp(data)],
            &args,
        ));
        self.p.multi_def.insert(data);
        Ok((opc, data, dw))
    }

    /// A texel buffer's size in elements: its view's NUM_RECORDS (dword 2).
    fn texel_buffer_size(&mut self, v: Temp) -> Result<SmallVec<[MV; 4]>, Error> {
        let dw = self.split(v, 4)?;
        Ok(SmallVec::from_slice(&[MV::T(dw[2], Kind::Plain)]))
    }

    /// `buffer_load_format_xyzw` of element `coord` of the view `v`.
    fn texel_load(&mut self, i: Value, v: Temp, coord: Value) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        if !matches!(ty.bits, 16 | 32) {
            return Err(Error::unsupported(
                at,
                format!("{}-bit texel buffer loads", ty.bits),
            ));
        }
        let index = self.vgpr_of(coord, 0)?;
        // the format loads return a prefix of x, y, z, w: up to the last one used; 16-bit
        // results use the D16 forms (two components per dword, the first low)
        let last = 8 - self.used_mask(i).leading_zeros() as u8;
        let d16 = ty.bits == 16;
        let (opc, n): (Opcode, u8) = match (last.min(ty.comps), d16) {
            (1, false) => (Opcode::BufferLoadFormatX, 1),
            (2, false) => (Opcode::BufferLoadFormatXy, 2),
            (3, false) => (Opcode::BufferLoadFormatXyz, 3),
            (_, false) => (Opcode::BufferLoadFormatXyzw, 4),
            (1, true) => (Opcode::BufferLoadFormatD16X, 1),
            (2, true) => (Opcode::BufferLoadFormatD16Xy, 2),
            (3, true) => (Opcode::BufferLoadFormatD16Xyz, 3),
            (_, true) => (Opcode::BufferLoadFormatD16Xyzw, 4),
        };
        let d = self.tmp(RegClass::v(if d16 { n.div_ceil(2) } else { n }));
        self.mubuf_idx(
            opc,
            &[Arg::Temp(d)],
            &[Arg::Temp(index), Arg::Temp(v), Arg::Const(0)],
            false,
        )?;
        if d16 {
            let words = self.d16_words(d, n, (1u8 << n) - 1, ty.comps)?;
            return self.regroup(i, words, ty);
        }
        let words = self.split(d, n)?;
        let words = Self::spread(&words, (1u8 << n) - 1, ty.comps);
        self.regroup(i, words, ty)
    }

    fn mubuf_idx(&mut self, op: Opcode, defs: &[Arg], ops: &[Arg], glc: bool) -> Result<(), Error> {
        let o = self.op(op)?;
        let mut m = MInst::hw(o, Format::Mubuf, defs, ops);
        m.mods.mem.idxen = true;
        m.mods.glc = glc;
        self.push(m);
        Ok(())
    }

    /// The address VGPRs of an image coordinate: its components, GFX9's second
    /// coordinate for 1D images, and for sampling the cube face transform and the rounded
    /// layer. With `a16` (a 16-bit coordinate, [`Isel::a16_coord`]) each VGPR holds one
    /// 16-bit component in its low half, for [`Isel::pack_halves`]; otherwise each holds
    /// a 32-bit one (a 16-bit coordinate widened, [`Isel::wide_comp`]).
    fn coords(
        &mut self,
        shape: Shape,
        coord: Value,
        sampled: bool,
        a16: bool,
        at: Option<u32>,
    ) -> Result<Vec<Temp>, Error> {
        let gen = self.t().gen;
        let n = self.f.ty(coord).comps as usize;
        // a cube's texel address is (x, y, face + 6 · layer) with or without layers
        let want = match (shape.dim, sampled) {
            (Dim::Cube, false) => 3,
            _ => shape.dim.coord_components() as usize + shape.arrayed as usize,
        };
        if n < want {
            return Err(Error::unsupported(at, "image coordinate too short"));
        }
        let mut c: Vec<Temp> = Vec::new();
        for k in 0..want {
            c.push(if a16 {
                self.vgpr_of(coord, k)?
            } else {
                self.wide_comp(coord, k, sampled)?
            });
        }
        if sampled && shape.arrayed {
            let layer = c
                .pop()
                .ok_or_else(|| Error::unsupported(at, "no array layer"))?;
            let r = self.tmp(RegClass::V1);
            let rnd = if a16 {
                Opcode::VRndneF16
            } else {
                Opcode::VRndneF32
            };
            self.valu(rnd, &[Arg::Temp(r)], vec![Arg::Temp(layer)])?;
            c.push(r);
        }
        if sampled && shape.dim == Dim::Cube {
            if a16 {
                return Err(Error::unsupported(at, "16-bit cube coordinates"));
            }
            let layer = shape.arrayed.then(|| c[3]);
            c = self.cube_coords(c[0], c[1], c[2], layer)?;
        }
        if gen == Gen::Gfx9 && shape.dim == Dim::D1 {
            // 0.5 (f32 or f16) for sampling, 0 for texel addresses
            let y = match (sampled, a16) {
                (false, _) => 0,
                (true, false) => 0x3f00_0000,
                (true, true) => 0x3800,
            };
            let y = self.to_vgpr(Arg::Const(y))?;
            c.insert(1, y);
        }
        Ok(c)
    }

    /// Component `k` of an address operand as a 32-bit VGPR: a 16-bit one widened (f16 to
    /// f32 when `float`, a signed integer sign-extended otherwise).
    fn wide_comp(&mut self, v: Value, k: usize, float: bool) -> Result<Temp, Error> {
        let bits = self.f.ty(v).bits;
        let a = self.arg(v, k)?;
        if bits != 16 {
            return self.to_vgpr(a);
        }
        let w = if float {
            self.v1op(Opcode::VCvtF32F16, vec![a])?
        } else {
            self.narrow_ext(a, 16, true)?
        };
        self.to_vgpr(w)
    }

    /// Whether the address of an instruction with coordinate `coord` can be A16: the
    /// coordinate is 16-bit and so is each of `extra` (a LOD, sample index or mip level
    /// in the same packed group; an integer constant that fits in 16 bits counts), and
    /// the image is not a sampled cube (whose face transform is f32 arithmetic).
    fn a16_coord(&self, coord: Value, extra: &[Value], sampled_cube: bool) -> bool {
        self.f.ty(coord).bits == 16
            && !sampled_cube
            && extra.iter().all(|&e| {
                self.f.ty(e).bits == 16 || self.const_or_none(e).is_some_and(|c| c < 0x1_0000)
            })
    }

    /// 16-bit values (each in the low half of a VGPR, upper half undefined) packed two
    /// per dword in order, the last one alone when their number is odd: `v_perm_b32`
    /// takes the low halves of both (`lo | hi << 16`).
    fn pack_halves(&mut self, halves: &[Temp]) -> Result<Vec<Temp>, Error> {
        let mut out = Vec::new();
        for pair in halves.chunks(2) {
            match *pair {
                [lo, hi] => {
                    let d = self.tmp(RegClass::V1);
                    self.valu(
                        Opcode::VPermB32,
                        &[Arg::Temp(d)],
                        vec![Arg::Temp(hi), Arg::Temp(lo), Arg::Const(0x0504_0100)],
                    )?;
                    out.push(d);
                }
                [only] => out.push(only),
                _ => unreachable!("chunks of two"),
            }
        }
        Ok(out)
    }

    /// Cube-map coordinates → (s, t, face [+ 8·layer]).
    fn cube_coords(
        &mut self,
        x: Temp,
        y: Temp,
        z: Temp,
        layer: Option<Temp>,
    ) -> Result<Vec<Temp>, Error> {
        let xyz = vec![Arg::Temp(x), Arg::Temp(y), Arg::Temp(z)];
        let mut r = [Temp(0); 4];
        for (k, o) in [
            Opcode::VCubeidF32,
            Opcode::VCubescF32,
            Opcode::VCubetcF32,
            Opcode::VCubemaF32,
        ]
        .into_iter()
        .enumerate()
        {
            let d = self.tmp(RegClass::V1);
            self.valu(o, &[Arg::Temp(d)], xyz.clone())?;
            r[k] = d;
        }
        let [id, sc, tc, ma] = r;
        let abs = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VAndB32,
            &[Arg::Temp(abs)],
            vec![Arg::Const(0x7fff_ffff), Arg::Temp(ma)],
        )?;
        let inv = self.tmp(RegClass::V1);
        self.valu(Opcode::VRcpF32, &[Arg::Temp(inv)], vec![Arg::Temp(abs)])?;
        let mut st = Vec::new();
        for v in [sc, tc] {
            let m = self.tmp(RegClass::V1);
            self.valu(
                Opcode::VMulF32,
                &[Arg::Temp(m)],
                vec![Arg::Temp(v), Arg::Temp(inv)],
            )?;
            let a = self.tmp(RegClass::V1);
            self.valu(
                Opcode::VAddF32,
                &[Arg::Temp(a)],
                vec![Arg::Const(0x3fc0_0000), Arg::Temp(m)],
            )?;
            st.push(a);
        }
        let face = match layer {
            None => id,
            Some(l) => {
                let m = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VMulF32,
                    &[Arg::Temp(m)],
                    vec![Arg::Const(0x4100_0000), Arg::Temp(l)],
                )?;
                let f = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VAddF32,
                    &[Arg::Temp(f)],
                    vec![Arg::Temp(m), Arg::Temp(id)],
                )?;
                f
            }
        };
        Ok(vec![st[0], st[1], face])
    }

    /// A texel offset packed for the `_o` forms: 6 bits per component, a byte apart.
    fn packed_offset(&mut self, o: Value) -> Result<Temp, Error> {
        let n = self.f.ty(o).comps as usize;
        if let Some(c) = self.f.as_const(o) {
            let mut w = 0u32;
            for (k, &x) in c.iter().enumerate().take(n) {
                w |= (x as u32 & 0x3f) << (8 * k);
            }
            return self.to_vgpr(Arg::Const(w));
        }
        let mut acc: Option<Temp> = None;
        for k in 0..n {
            let x = self.vgpr_of(o, k)?;
            let m = self.tmp(RegClass::V1);
            self.valu(
                Opcode::VAndB32,
                &[Arg::Temp(m)],
                vec![Arg::Const(0x3f), Arg::Temp(x)],
            )?;
            let s = if k == 0 {
                m
            } else {
                let s = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VLshlrevB32,
                    &[Arg::Temp(s)],
                    vec![Arg::Const(8 * k as u32), Arg::Temp(m)],
                )?;
                s
            };
            acc = Some(match acc {
                None => s,
                Some(a) => {
                    let d = self.tmp(RegClass::V1);
                    self.valu(
                        Opcode::VOrB32,
                        &[Arg::Temp(d)],
                        vec![Arg::Temp(a), Arg::Temp(s)],
                    )?;
                    d
                }
            });
        }
        Ok(acc.expect("an offset has components"))
    }

    /// Emits one MIMG instruction. `def` is the result tuple, `data` the stored or
    /// atomic data (the same temp as `def` for a returning atomic).
    #[allow(clippy::too_many_arguments)]
    fn mimg(
        &mut self,
        op: Opcode,
        def: Option<Temp>,
        data: Option<Temp>,
        addr: &[Temp],
        res: Temp,
        samp: Option<Temp>,
        shape: Shape,
        sampled: bool,
        mods: Mods,
    ) -> Result<(), Error> {
        let gen = self.t().gen;
        let o = self.op(op)?;
        let defs: Vec<Arg> = def.into_iter().map(Arg::Temp).collect();
        let mut ops: Vec<Arg> = data.into_iter().map(Arg::Temp).collect();
        ops.extend(self.nsa_addresses(addr));
        ops.push(Arg::Temp(res));
        if let Some(s) = samp {
            ops.push(Arg::Temp(s));
        }
        if mods.tfe {
            // the zeroed destination, one extra trailing use (`read_dest`)
            ops.extend(def.map(Arg::Temp));
        }
        let mut m = MInst::hw(o, Format::Mimg, &defs, &ops);
        m.mods.mem.dmask = mods.dmask;
        m.mods.mem.unorm = mods.unorm;
        m.mods.mem.tfe = mods.tfe;
        m.mods.mem.d16 = mods.d16;
        m.mods.mem.a16 = mods.a16;
        m.mods.glc = mods.glc;
        if gen == Gen::Gfx9 {
            m.mods.mem.da = shape.da();
        } else {
            m.mods.mem.dim = shape.hw_dim(gen, sampled);
        }
        self.push(m);
        Ok(())
    }

    /// The address operands of a MIMG instruction: GFX10+'s NSA form names each address
    /// VGPR where it is (no copies gather them), up to 13 on GFX10.3; GFX11 names at most
    /// five, the fifth a tuple built of the fifth address and every one after it (partial
    /// NSA: only those are copied together); GFX9 takes one contiguous tuple
    /// (`isa::format::mimg::nsa_operands`).
    fn nsa_addresses(&mut self, addr: &[Temp]) -> Vec<Arg> {
        match crate::isa::format::mimg::nsa_operands(self.t().gen, addr.len()) {
            Some(k) => {
                let mut ops: Vec<Arg> = addr[..k - 1].iter().map(|&t| Arg::Temp(t)).collect();
                ops.push(Arg::Temp(self.vgpr_tuple(&addr[k - 1..])));
                ops
            }
            None => vec![Arg::Temp(self.vgpr_tuple(addr))],
        }
    }

    /// The destination tuple of a MIMG read of `n` data dwords. A sparse read (TFE) has
    /// one more, the fetch status, and the whole tuple is zeroed first: the hardware may
    /// leave the data unwritten when a texel is not resident, and the program must then
    /// read 0 (as ACO does). The MIMG instruction reads that zeroed tuple as its trailing
    /// operand and redefines it, so the tuple is listed in `multi_def`.
    fn read_dest(&mut self, n: u8, sparse: bool) -> Result<Temp, Error> {
        if !sparse {
            return Ok(self.tmp(RegClass::v(n)));
        }
        let d = self.tmp(RegClass::v(n + 1));
        let z = self.to_vgpr(Arg::Const(0))?;
        let parts = vec![Arg::Temp(z); n as usize + 1];
        self.push(MInst::pseudo(Pseudo::CreateVector, &[Arg::Temp(d)], &parts));
        self.p.multi_def.insert(d);
        Ok(d)
    }

    /// The `comps` result components from destination `d` ([`Isel::read_dest`]): its `n`
    /// data dwords spread by `dmask` over the texel's components, then for a sparse read
    /// the status dword as the last component (the residency code, 0 = resident).
    fn read_words(
        &mut self,
        d: Temp,
        n: u8,
        dmask: u8,
        comps: u8,
        sparse: bool,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let words = self.split(d, n + sparse as u8)?;
        let mut out = Self::spread(&words[..n as usize], dmask, comps - sparse as u8);
        if sparse {
            out.push(MV::T(words[n as usize], Kind::Plain));
        }
        Ok(out)
    }

    /// The `dmask` of a read: the texel components of `i` its users read (never none;
    /// a sparse read's last component, the residency code, is not a texel component).
    fn texel_mask(&mut self, i: Value, sparse: bool) -> u8 {
        let texel = ((1u16 << (self.f.ty(i).comps - sparse as u8)) - 1) as u8;
        match self.used_mask(i) & texel {
            0 => 1,
            m => m,
        }
    }

    /// The components of `i` its users read, as a mask (a swizzle reads the components it
    /// names, any other user all of them), so loads ask for no more than those.
    fn used_mask(&mut self, i: Value) -> u8 {
        let f = self.f;
        let table = self.used_comps.get_or_insert_with(|| {
            let mut t = SecondaryMap::with_len(f.insts.len(), 0u8);
            for u in f.insts_in_order() {
                match &f.insts[u].kind {
                    InstKind::Swizzle { src, comps } => {
                        for &c in comps {
                            t[*src] |= 1 << c;
                        }
                    }
                    k => k.for_each_operand(|v| t[v] = 0xff),
                }
            }
            t
        });
        let all = ((1u16 << f.ty(i).comps) - 1) as u8;
        match table[i] & all {
            0 => 1,
            m => m,
        }
    }

    /// `words` (one per set bit of `dmask`, in order) as the `n` result components; the
    /// components no user reads are 0.
    fn spread(words: &[Temp], dmask: u8, n: u8) -> SmallVec<[MV; 4]> {
        let mut it = words.iter();
        (0..n)
            .map(
                |c| match (dmask >> c & 1 == 1).then(|| it.next()).flatten() {
                    Some(t) => MV::T(*t, Kind::Plain),
                    None => MV::C(0),
                },
            )
            .collect()
    }

    /// Component `c` of `v` in a VGPR.
    fn vgpr_of(&mut self, v: Value, c: usize) -> Result<Temp, Error> {
        let a = self.arg(v, c)?;
        self.to_vgpr(a)
    }

    /// A scalar 32- or 64-bit value in a VGPR (tuple).
    fn vgpr_value(&mut self, v: Value) -> Result<Temp, Error> {
        let a = self.arg(v, 0)?;
        self.to_vgpr(a)
    }

    /// The constant value of a scalar, if it is one.
    fn const_or_none(&self, v: Value) -> Option<u64> {
        self.f.as_scalar_const(v)
    }
}

/// Source `which` of `t`, which the operation needs.
fn need(t: &Tex, which: TexSrc, at: Option<u32>) -> Result<Value, Error> {
    t.src(which).ok_or_else(|| {
        Error::unsupported(
            at,
            format!("tex {} without a {} source", t.op.name(), which.name()),
        )
    })
}

/// The opcode of a sampling or gather instruction.
fn sample_opcode(op: TexOp, cmp: bool, off: bool, lz: bool) -> Opcode {
    use Opcode::*;
    match (op, cmp, off, lz) {
        (TexOp::QueryLod, ..) => ImageGetLod,
        (TexOp::Sample, false, false, _) => ImageSample,
        (TexOp::Sample, false, true, _) => ImageSampleO,
        (TexOp::Sample, true, false, _) => ImageSampleC,
        (TexOp::Sample, true, true, _) => ImageSampleCO,
        (TexOp::SampleBias, false, false, _) => ImageSampleB,
        (TexOp::SampleBias, false, true, _) => ImageSampleBO,
        (TexOp::SampleBias, true, false, _) => ImageSampleCB,
        (TexOp::SampleBias, true, true, _) => ImageSampleCBO,
        (TexOp::Gather, false, false, _) => ImageGather4Lz,
        (TexOp::Gather, false, true, _) => ImageGather4LzO,
        (TexOp::Gather, true, false, _) => ImageGather4CLz,
        (TexOp::Gather, true, true, _) => ImageGather4CLzO,
        (TexOp::SampleGrad, false, false, _) => ImageSampleD,
        (TexOp::SampleGrad, false, true, _) => ImageSampleDO,
        (TexOp::SampleGrad, true, false, _) => ImageSampleCD,
        (TexOp::SampleGrad, true, true, _) => ImageSampleCDO,
        (_, false, false, true) => ImageSampleLz,
        (_, false, true, true) => ImageSampleLzO,
        (_, true, false, true) => ImageSampleCLz,
        (_, true, true, true) => ImageSampleCLzO,
        (_, false, false, false) => ImageSampleL,
        (_, false, true, false) => ImageSampleLO,
        (_, true, false, false) => ImageSampleCL,
        (_, true, true, false) => ImageSampleCLO,
    }
}

/// The G16 twin (16-bit derivatives, GFX10+) of a derivative sampling opcode.
fn g16_opcode(o: Opcode) -> Opcode {
    use Opcode::*;
    match o {
        ImageSampleD => ImageSampleDG16,
        ImageSampleDO => ImageSampleDOG16,
        ImageSampleCD => ImageSampleCDG16,
        ImageSampleCDO => ImageSampleCDOG16,
        o => o,
    }
}

/// The MIMG atomic for an IR atomic (32- and 64-bit share opcodes; dmask gives the size).
fn image_atomic_opcode(a: AtomicOp) -> Option<Opcode> {
    use Opcode::*;
    Some(match a {
        AtomicOp::Add => ImageAtomicAdd,
        AtomicOp::Imin => ImageAtomicSmin,
        AtomicOp::Umin => ImageAtomicUmin,
        AtomicOp::Imax => ImageAtomicSmax,
        AtomicOp::Umax => ImageAtomicUmax,
        AtomicOp::And => ImageAtomicAnd,
        AtomicOp::Or => ImageAtomicOr,
        AtomicOp::Xor => ImageAtomicXor,
        AtomicOp::Xchg => ImageAtomicSwap,
        AtomicOp::Fmin => ImageAtomicFmin,
        AtomicOp::Fmax => ImageAtomicFmax,
        // the hardware's inc/dec wrap at the data value; SPIR-V's are adds of ±1
        AtomicOp::Inc | AtomicOp::Dec | AtomicOp::Fadd => return None,
    })
}

/// The MUBUF atomic for an IR atomic on a texel buffer (32-bit).
fn buffer_atomic_opcode(a: AtomicOp) -> Option<Opcode> {
    use Opcode::*;
    Some(match a {
        AtomicOp::Add => BufferAtomicAdd,
        AtomicOp::Imin => BufferAtomicSmin,
        AtomicOp::Umin => BufferAtomicUmin,
        AtomicOp::Imax => BufferAtomicSmax,
        AtomicOp::Umax => BufferAtomicUmax,
        AtomicOp::And => BufferAtomicAnd,
        AtomicOp::Or => BufferAtomicOr,
        AtomicOp::Xor => BufferAtomicXor,
        AtomicOp::Xchg => BufferAtomicSwap,
        AtomicOp::Inc | AtomicOp::Dec | AtomicOp::Fmin | AtomicOp::Fmax | AtomicOp::Fadd => {
            return None
        }
    })
}
