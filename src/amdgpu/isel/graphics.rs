//! Vertex and fragment stages: stage inputs, system values, exports and discard
//! (docs/abi.md "Graphics" gives the register layout; `amdgpu::abi_graphics` the state).
//!
//! Fragment shader:
//! - Inputs arrive in the VGPRs SPI_PS_INPUT_ENA enables, packed from v0 in bit order
//!   (`PsInput`); PRIM_MASK is the SGPR after the user SGPRs. A prologue at the top of
//!   the entry block writes M0 = PRIM_MASK once (nothing else in a fragment shader writes
//!   M0; GFX9 needs one wait state before an interpolation reads it). On GFX11 it also
//!   loads every attribute channel the shader reads with `lds_param_load`, with exec
//!   widened to whole quads (`s_wqm`) because `v_interp_p10/p2` read the P0/P10/P20
//!   values from the other lanes of the quad; exec is restored right after.
//! - Smooth and noperspective inputs: GFX9/10 `v_interp_p1_f32` + `v_interp_p2_f32`
//!   (the p2 accumulates into p1's result: one register, listed in `multi_def`, with the
//!   accumulator as an extra trailing use so liveness sees the read); GFX11
//!   `v_interp_p10_f32` + `v_interp_p2_f32` on the preloaded channel. Flat inputs: GFX9/10
//!   `v_interp_mov_f32 p0`; GFX11 a quad broadcast of lane 0 (the provoking vertex's P0)
//!   with DPP fetch-inactive, since lane 0 of a quad may be a helper lane outside exec.
//!   Per-vertex inputs (`load_input_vertex`, GFX10.3 and GFX11 only: GFX9's parameter
//!   cache has no fixed vertex order) are read in passthrough mode, where P0/P10/P20
//!   hold the raw values of vertices 0/1/2: `v_interp_mov_f32` p0/p10/p20, or the quad
//!   broadcast of lane 0/1/2.
//! - Outputs are collected as the shader stores them (they are stored once, at the end
//!   of the entry point, after `lower_io_to_temporaries`) and handed to the colour-export
//!   epilog (`parts::ps_epilog`) as the uses of the final `s_branch` (`graphics/parts.rs`):
//!   the epilog converts, packs and exports them in the attachments' formats.
//! - Discard/terminate clears exec in the current region. The control-flow selection
//!   never brings back a lane that left its region with exec clear (cf.rs), so a
//!   discarded lane stays off until the exports, whose `vm` mask is exec. In a shader
//!   with derivatives, implicit-LOD sampling, demote or helper queries, discard, demote
//!   and `gl_HelperInvocation` go through the live mask instead (`quad.rs`).
//!
//! Vertex shader (a hardware VS on GFX9, an NGG primitive shader on GFX10.3 and GFX11,
//! `ngg.rs`):
//! - VertexID and InstanceID at their launch VGPRs; VertexIndex = VertexID + BaseVertex
//!   and InstanceIndex = InstanceID + BaseInstance, both user SGPRs; BaseVertex,
//!   BaseInstance and DrawIndex read directly (gl_BaseVertex, gl_BaseInstance,
//!   gl_DrawID) are those user SGPRs, one each, shared with the index computations.
//! - Attributes arrive in VGPRs the vertex-fetch prolog (`parts::vs_prolog`) fills
//!   (`graphics/parts.rs`); the position, point size, distances and output locations go
//!   to the parameter-export epilog (`parts::vs_epilog`) on the final branch. There is no
//!   fetch or export selection here: every graphics compile, whole-pipeline or unlinked,
//!   goes through the parts and the link (docs/link.md "Graphics parts").

pub mod parts;

use super::{Isel, Kind, MV};
use crate::amdgpu::abi_graphics::{
    vertex_is_ngg, USER_DATA_BASE_INSTANCE, USER_DATA_BASE_VERTEX, USER_DATA_DRAW_INDEX,
    USER_DATA_GLOBAL_TABLE, USER_DATA_VERTEX_BUFFER_TABLE,
};
use crate::amdgpu::mir::{Arg, MInst, RegClass, Temp};
use crate::amdgpu::Error;
use crate::binary::prelink::PrelinkSymbol;
use crate::binary::registers::UserData;
use crate::binary::HwStage;
use crate::ir::{self, InstKind, Intrinsic, Stage, Value};
use crate::isa::{Format, Gen, Opcode, PhysReg, Reg};
use smallvec::SmallVec;
use std::collections::BTreeMap;

/// SPI_PS_INPUT_ENA bits (pal-abi.md §3.6).
pub mod ps_input {
    pub const PERSP_SAMPLE: u32 = 0;
    pub const PERSP_CENTER: u32 = 1;
    pub const PERSP_CENTROID: u32 = 2;
    pub const LINEAR_SAMPLE: u32 = 4;
    pub const LINEAR_CENTER: u32 = 5;
    pub const LINEAR_CENTROID: u32 = 6;
    pub const POS_X: u32 = 8;
    pub const FRONT_FACE: u32 = 12;
    pub const ANCILLARY: u32 = 13;
    pub const SAMPLE_COVERAGE: u32 = 14;

    /// VGPRs each input takes.
    pub fn vgprs(bit: u32) -> u16 {
        match bit {
            0..=2 | 4..=6 => 2,
            3 => 3,
            _ => 1,
        }
    }
}

/// Export targets.
pub mod target {
    pub const MRT0: u32 = 0;
    pub const MRTZ: u32 = 8;
    pub const NULL: u32 = 9;
    pub const POS0: u32 = 12;
    /// GFX10+: the NGG primitive export.
    pub const PRIM: u32 = 20;
    /// GFX11: dual-source blending's two exports (`dual_src_blend0/1`; LLVM's
    /// `ET_DUAL_SRC_BLEND0/1`).
    pub const DUAL_SRC_BLEND0: u32 = 21;
    pub const PARAM0: u32 = 32;
}

/// Built-in output slots (`lower_explicit_io::builtin_slot`).
pub const SLOT_POSITION: u32 = 64;
pub const SLOT_POINT_SIZE: u32 = 65;
/// Clip distances 0-3, 4-7, then cull distances 0-3, 4-7.
pub const SLOT_CLIP: u32 = 66;
/// gl_Layer and gl_ViewportIndex: vertex outputs (the misc position export's z, and flat
/// parameters for a fragment shader that reads them) and the fragment inputs that read
/// those parameters (`lower_explicit_io::builtin_slot`).
pub const SLOT_LAYER: u32 = 70;
pub const SLOT_VIEWPORT: u32 = 71;
pub const SLOT_FRAG_DEPTH: u32 = 72;
/// gl_SampleMask[0] (MRTZ's sample-mask channel; a mask of at most 32 samples).
pub const SLOT_SAMPLE_MASK: u32 = 73;
/// gl_PrimitiveShadingRateEXT, held in the hardware's encoding (`hw_shading_rate`).
pub const SLOT_PRIMITIVE_SHADING_RATE: u32 = 75;
/// The second colour source of dual-source blending (fragment output location 0,
/// `Index` 1): `lower_explicit_io::DUAL_SOURCE_SLOT`.
pub const SLOT_DUAL_SOURCE: u32 = crate::passes::lower_explicit_io::DUAL_SOURCE_SLOT;
/// The fragment input gl_PointCoord reads: no vertex output; its SPI_PS_INPUT_CNTL
/// has PT_SPRITE_TEX, so the hardware gives a point's sprite coordinates (S, T, 0, 1)
/// (SPI_INTERP_CONTROL_0), interpolated like any smooth input (as RADV does it).
pub const SLOT_POINT_COORD: u32 = 80;
/// The fragment attribute of `gl_PrimitiveID`: a flat parameter the vertex stage's epilog
/// adds (after every location, so it is the last parameter).
pub const SLOT_PRIMITIVE_ID: u32 = 81;

/// The name of the both-ways choice between per-pixel and per-sample shading
/// (`gcnc.choice.per_sample`, seed 000's perSampleShading): 1 when the pipeline's state
/// asks for sample shading (`GraphicsState::sample_shading`).
pub const CHOICE_PER_SAMPLE: &str = "per_sample";

/// Selector state of a graphics stage.
#[derive(Default)]
pub(crate) struct Gfx {
    /// PS input VGPR temps by SPI_PS_INPUT bit (one temp per VGPR).
    ps_vgprs: BTreeMap<u32, SmallVec<[Temp; 2]>>,
    prim_mask: Option<Temp>,
    /// Fragment input location → attribute index.
    attr_of: BTreeMap<u32, u32>,
    /// GFX11: (attribute, channel) → the `lds_param_load` result.
    params: BTreeMap<(u32, u32), Temp>,
    /// Stored outputs by slot, per component.
    outputs: BTreeMap<u32, [Option<Arg>; 4]>,
    /// VS inputs.
    vertex_id: Option<Temp>,
    instance_id: Option<Temp>,
    /// GFX9 hardware VS: v2, the primitive id (VGT_PRIMITIVEID_EN), kept for the epilog.
    vs_prim_id: Option<Temp>,
    base_vertex: Option<Temp>,
    base_instance: Option<Temp>,
    /// PAL's DrawIndex (gl_DrawID), a user SGPR.
    draw_id: Option<Temp>,
    vb_table: Option<Temp>,
    /// Vertex / instance index, computed once in the entry block.
    vertex_index: Option<Temp>,
    instance_index: Option<Temp>,
    /// NGG system inputs (`ngg.rs`).
    pub(super) ngg: super::ngg::NggInputs,
    /// Branches to the dead end taken when discard leaves no live lane (`quad.rs`).
    pub(super) dead_ends: Vec<(crate::amdgpu::mir::BlockId, usize)>,
    /// Unlinked stage (`parts.rs`).
    parts: parts::PartsInputs,
}

/// Whether a fragment shader runs once per sample: it reads gl_SampleID or
/// gl_SamplePosition or has a `sample`-qualified input (Vulkan's sample shading rules;
/// RADV decides the same way). Its pipeline gets PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE, which
/// `binary/graphics.rs` derives from the inputs these enable (ANCILLARY, PERSP/LINEAR
/// SAMPLE).
pub(super) fn sample_rate_shading(f: &ir::Function) -> bool {
    f.blocks_in_order().into_iter().any(|b| {
        f.blocks[b].insts.iter().any(|&i| {
            matches!(
                f.kind(i),
                InstKind::Intrinsic {
                    op: Intrinsic::LoadSampleId
                        | Intrinsic::LoadSamplePos
                        | Intrinsic::LoadBarycentricSample,
                    ..
                }
            )
        })
    })
}

/// The fragment inputs: (location, flat) in location order, and the locations read per
/// vertex.
type PsInputs = (Vec<(u32, bool)>, Vec<u32>);

/// (VertexIndex read, InstanceIndex read), channels read per input location.
type VsReads = ((bool, bool), BTreeMap<u32, u32>);

/// The constant slot of a stage I/O access (`load_input`/`store_output` offset source).
fn const_slot(s: &Isel, v: Value, base: u32, at: Option<u32>) -> Result<u32, Error> {
    match s.get(v, 0)? {
        MV::C(c) => Ok(base + c as u32),
        _ => Err(Error::unsupported(
            at,
            "dynamically indexed stage input or output",
        )),
    }
}

impl Isel<'_> {
    pub(super) fn is_graphics(&self) -> bool {
        matches!(self.m.stage, Stage::Vertex | Stage::Fragment)
    }

    /// Checks the stage can be selected for the target and emits the fragment prologue.
    pub(super) fn gfx_begin(&mut self) -> Result<(), Error> {
        match self.m.stage {
            Stage::Vertex if vertex_is_ngg(self.t().gen) => {
                self.ngg_begin()?;
                self.vs_begin_parts()
            }
            Stage::Vertex => self.vs_begin_parts(),
            Stage::Fragment => self.ps_begin(),
            _ => Ok(()),
        }
    }

    /// Every input access with a constant slot: (location, flat) in location order, and
    /// the locations read per vertex (flat, in passthrough mode).
    fn ps_input_locations(&self) -> Result<PsInputs, Error> {
        let f = self.f;
        let mut locs: BTreeMap<u32, bool> = BTreeMap::new();
        let mut per_vertex: BTreeMap<u32, bool> = BTreeMap::new();
        for b in f.blocks_in_order() {
            for &i in &f.blocks[b].insts {
                let InstKind::Intrinsic { op, srcs, idx } = f.kind(i) else {
                    continue;
                };
                let flat = match op {
                    Intrinsic::LoadInput | Intrinsic::LoadInputVertex => true,
                    Intrinsic::LoadInterpolatedInput => false,
                    Intrinsic::LoadPointCoord => {
                        locs.insert(SLOT_POINT_COORD, false);
                        continue;
                    }
                    Intrinsic::LoadPrimitiveId => {
                        locs.insert(SLOT_PRIMITIVE_ID, true);
                        continue;
                    }
                    Intrinsic::LoadLayerId => {
                        locs.insert(SLOT_LAYER, true);
                        continue;
                    }
                    Intrinsic::LoadViewportIndex => {
                        locs.insert(SLOT_VIEWPORT, true);
                        continue;
                    }
                    _ => continue,
                };
                let off = srcs.last().copied().ok_or_else(|| {
                    Error::unsupported(Some(i.index() as u32), "input without a slot")
                })?;
                let at = Some(i.index() as u32);
                let loc = match f.kind(off) {
                    InstKind::Const(c) => idx[0] + c[0] as u32,
                    _ => return Err(Error::unsupported(at, "dynamically indexed fragment input")),
                };
                let e = locs.entry(loc).or_insert(flat);
                if *e != flat {
                    return Err(Error::unsupported(
                        at,
                        format!("location {loc} read both flat and interpolated"),
                    ));
                }
                let pv = *op == Intrinsic::LoadInputVertex;
                if *per_vertex.entry(loc).or_insert(pv) != pv {
                    return Err(Error::unsupported(
                        at,
                        format!("location {loc} read both per vertex and flat"),
                    ));
                }
                if pv && self.t().gen == Gen::Gfx9 {
                    return Err(Error::unsupported(
                        at,
                        "per-vertex fragment inputs on GFX9: its parameter cache keeps a \
                         primitive's vertices in no fixed order (SPI_PS_INPUT_CNTL.\
                         ROTATE_PC_PTR is GFX10.3+; RADV offers \
                         VK_KHR_fragment_shader_barycentric from GFX10.3)",
                    ));
                }
            }
        }
        let pv = per_vertex
            .into_iter()
            .filter(|e| e.1)
            .map(|e| e.0)
            .collect();
        Ok((locs.into_iter().collect(), pv))
    }

    fn ps_begin(&mut self) -> Result<(), Error> {
        self.quad_begin()?;
        let (locs, per_vertex) = self.ps_input_locations()?;
        for (k, &(loc, _)) in locs.iter().enumerate() {
            self.gfx.attr_of.insert(loc, k as u32);
        }
        self.p.abi.graphics.ps_attributes = locs.clone();
        self.p.abi.graphics.ps_per_vertex = per_vertex;
        self.p.abi.graphics.writes_memory = self.stores_to_memory();
        self.p.abi.graphics.ps_sample_rate = sample_rate_shading(self.f);
        self.p.abi.graphics.early_fragment_tests = self
            .m
            .exec_flags
            .contains(crate::ir::ExecFlags::EARLY_FRAGMENT_TESTS);
        if locs.is_empty() {
            return Ok(());
        }
        let pm = self.tmp(RegClass::S1);
        self.gfx.prim_mask = Some(pm);
        let m0 = Arg::Reg(Reg::m0());
        self.hw(Opcode::SMovB32, &[m0], &[Arg::Temp(pm)])?;
        if self.t().gen == Gen::Gfx9 {
            // M0 write → interpolation read: one wait state on GFX9
            self.hw(Opcode::SNop, &[], &[Arg::Imm(0)])?;
        }
        if self.t().gen != Gen::Gfx11 {
            return Ok(());
        }
        // GFX11: every channel of every attribute, loaded in whole-quad mode (already
        // entered when helper lanes run the shader)
        let used = self.ps_used_channels()?;
        let exec = self.p.exec();
        let saved = if self.quad_helpers() {
            None
        } else {
            let t = self.tmp(self.mask_rc());
            self.hw_lane(Opcode::SMovB32, &[Arg::Temp(t)], &[exec])?;
            self.hw_lane(Opcode::SWqmB32, &[exec], &[exec])?;
            Some(t)
        };
        for (attr, chan) in used {
            let d = self.tmp(RegClass::V1);
            let mut mi = MInst::hw(
                self.op(Opcode::LdsParamLoad)?,
                Format::Ldsdir,
                &[Arg::Temp(d)],
                &[Arg::Imm(attr * 4 + chan)],
            );
            // wait for every VALU in flight before writing the VGPR (always safe)
            mi.mods.mem.wait = 0;
            self.push(mi);
            self.gfx.params.insert((attr, chan), d);
        }
        if let Some(t) = saved {
            self.hw_lane(Opcode::SMovB32, &[exec], &[Arg::Temp(t)])?;
        }
        Ok(())
    }

    /// Whether the shader has a memory side effect (a store or an atomic outside its own
    /// scratch and outputs): buffers, global memory and images, as NIR's
    /// `writes_external_memory` counts them for RADV's DB_SHADER_CONTROL.
    fn stores_to_memory(&self) -> bool {
        let f = self.f;
        f.blocks_in_order().into_iter().any(|b| {
            f.blocks[b].insts.iter().any(|&i| match f.kind(i) {
                InstKind::Intrinsic { op, .. } => matches!(
                    op,
                    Intrinsic::StoreDeref
                        | Intrinsic::ImageStore
                        | Intrinsic::ImageDerefStore
                        | Intrinsic::DerefAtomic
                        | Intrinsic::DerefAtomicSwap
                        | Intrinsic::ImageDerefAtomic
                        | Intrinsic::ImageDerefAtomicSwap
                        | Intrinsic::ImageAtomic
                        | Intrinsic::ImageAtomicSwap
                        | Intrinsic::StoreSsbo
                        | Intrinsic::SsboAtomic
                        | Intrinsic::SsboAtomicSwap
                        | Intrinsic::StoreShared
                        | Intrinsic::SharedAtomic
                        | Intrinsic::SharedAtomicSwap
                        | Intrinsic::StoreGlobal
                        | Intrinsic::GlobalAtomic
                        | Intrinsic::GlobalAtomicSwap
                ),
                _ => false,
            })
        })
    }

    /// (attribute, channel) pairs the fragment shader reads.
    fn ps_used_channels(&self) -> Result<Vec<(u32, u32)>, Error> {
        let f = self.f;
        let mut out = std::collections::BTreeSet::new();
        for b in f.blocks_in_order() {
            for &i in &f.blocks[b].insts {
                let InstKind::Intrinsic { op, srcs, idx } = f.kind(i) else {
                    continue;
                };
                if *op == Intrinsic::LoadPointCoord {
                    let attr = self.gfx.attr_of[&SLOT_POINT_COORD];
                    out.extend([(attr, 0), (attr, 1)]);
                    continue;
                }
                let flat_builtin = match op {
                    Intrinsic::LoadPrimitiveId => Some(SLOT_PRIMITIVE_ID),
                    Intrinsic::LoadLayerId => Some(SLOT_LAYER),
                    Intrinsic::LoadViewportIndex => Some(SLOT_VIEWPORT),
                    _ => None,
                };
                if let Some(slot) = flat_builtin {
                    out.insert((self.gfx.attr_of[&slot], 0));
                    continue;
                }
                if !matches!(
                    op,
                    Intrinsic::LoadInput
                        | Intrinsic::LoadInterpolatedInput
                        | Intrinsic::LoadInputVertex
                ) {
                    continue;
                }
                let ty = f.ty(i);
                if ty.bits != 32 {
                    return Err(Error::unsupported(
                        Some(i.index() as u32),
                        format!("{}-bit fragment inputs", ty.bits),
                    ));
                }
                let InstKind::Const(c) = f.kind(*srcs.last().expect("checked")) else {
                    unreachable!("checked by ps_input_locations")
                };
                let attr = self.gfx.attr_of[&(idx[0] + c[0] as u32)];
                for k in 0..ty.comps as u32 {
                    out.insert((attr, idx[1] + k));
                }
            }
        }
        Ok(out.into_iter().collect())
    }

    /// The temps of PS input `bit` (created on first use).
    fn ps_vgpr(&mut self, bit: u32) -> SmallVec<[Temp; 2]> {
        if let Some(v) = self.gfx.ps_vgprs.get(&bit) {
            return v.clone();
        }
        let v: SmallVec<[Temp; 2]> = (0..ps_input::vgprs(bit))
            .map(|_| self.tmp(RegClass::V1))
            .collect();
        self.gfx.ps_vgprs.insert(bit, v.clone());
        v
    }

    fn barycentric(
        &mut self,
        op: Intrinsic,
        srcs: &[Value],
        idx: &[u32],
        at: Option<u32>,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let interp = ir::Interp::ALL.get(idx[0] as usize).copied();
        let linear = interp == Some(ir::Interp::NoPerspective);
        use ps_input::*;
        let offset = match op {
            Intrinsic::LoadBarycentricAtOffset => {
                Some((self.arg(srcs[0], 0)?, self.arg(srcs[0], 1)?))
            }
            Intrinsic::LoadBarycentricAtSample => {
                let id = self.arg(srcs[0], 0)?;
                let (x, y) = self.sample_position(id, at)?;
                let half = Arg::Const((-0.5f32).to_bits());
                let (ox, oy) = (self.tmp(RegClass::V1), self.tmp(RegClass::V1));
                self.valu(Opcode::VAddF32, &[Arg::Temp(ox)], vec![half, Arg::Temp(x)])?;
                self.valu(Opcode::VAddF32, &[Arg::Temp(oy)], vec![half, Arg::Temp(y)])?;
                Some((Arg::Temp(ox), Arg::Temp(oy)))
            }
            _ => None,
        };
        if let Some((ox, oy)) = offset {
            self.p.abi.graphics.ps_exact_center = true;
            let centre = self.ps_vgpr(if linear { LINEAR_CENTER } else { PERSP_CENTER });
            let mut out = SmallVec::new();
            for c in centre {
                out.push(MV::T(self.extrapolate(c, ox, oy)?, Kind::Plain));
            }
            return Ok(out);
        }
        let bit = match (op, linear) {
            (Intrinsic::LoadBarycentricPixel, false) => PERSP_CENTER,
            (Intrinsic::LoadBarycentricPixel, true) => LINEAR_CENTER,
            (Intrinsic::LoadBarycentricCentroid, false) => PERSP_CENTROID,
            (Intrinsic::LoadBarycentricCentroid, true) => LINEAR_CENTROID,
            (Intrinsic::LoadBarycentricSample, false) => PERSP_SAMPLE,
            (Intrinsic::LoadBarycentricSample, true) => LINEAR_SAMPLE,
            _ => {
                return Err(Error::unsupported(
                    at,
                    format!("{} (interpolation at an offset or sample)", op.name()),
                ))
            }
        };
        let v = self.ps_vgpr(bit);
        Ok(v.iter().map(|t| MV::T(*t, Kind::Plain)).collect())
    }

    /// A pixel-centre barycentric `c` moved to the offset (ox, oy) pixels from the centre
    /// with its screen-space derivatives: c + ox·dc/dx + oy·dc/dy (what ACO does for
    /// interpolateAtOffset/AtSample; exact for linear barycentrics, first order for
    /// perspective-correct ones).
    fn extrapolate(&mut self, c: Temp, ox: Arg, oy: Arg) -> Result<Temp, Error> {
        let (dx, dy) = self.fine_derivatives(c)?;
        let t = self.tmp(RegClass::V1);
        let r = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VFmaF32,
            &[Arg::Temp(t)],
            vec![ox, Arg::Temp(dx), Arg::Temp(c)],
        )?;
        self.valu(
            Opcode::VFmaF32,
            &[Arg::Temp(r)],
            vec![oy, Arg::Temp(dy), Arg::Temp(t)],
        )?;
        self.wqm_seed(&[t, r]);
        Ok(r)
    }

    /// The location of sample `id` in its pixel, (x, y) in [0, 1): Vulkan's standard
    /// locations of the pipeline's sample count (`GraphicsState::samples`), read from two
    /// words holding each sample's x and y in 1/16 pixel, 4 bits per sample
    /// (`packed_sample_locations`, docs/abi.md "Multisampling"): constants, or without the
    /// sample count (an unlinked stage) two SGPRs loaded from literals the link resolves
    /// (`ITEM_SAMPLE_LOCATIONS`).
    fn sample_position(&mut self, id: Arg, at: Option<u32>) -> Result<(Temp, Temp), Error> {
        use crate::amdgpu::abi_graphics::{packed_sample_locations, ITEM_SAMPLE_LOCATIONS};
        use crate::binary::prelink::PrelinkSymbol;
        let samples = self.state.samples;
        let words: [Arg; 2] = match packed_sample_locations(samples) {
            Some(w) => w.map(Arg::Const),
            None if samples == 0 => {
                let mut w = [Arg::Const(0); 2];
                for (c, name) in ITEM_SAMPLE_LOCATIONS.into_iter().enumerate() {
                    let sym = self.p.symbol(PrelinkSymbol::Item(name.into()));
                    let d = self.tmp(RegClass::S1);
                    self.hw(Opcode::SMovB32, &[Arg::Temp(d)], &[sym])?;
                    w[c] = Arg::Temp(d);
                }
                w
            }
            None => {
                return Err(Error::unsupported(
                    at,
                    format!("sample locations of {samples} samples (Vulkan's standard locations are for 1, 2, 4 and 8)"),
                ))
            }
        };
        let shift = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VLshlrevB32,
            &[Arg::Temp(shift)],
            vec![Arg::Const(2), id],
        )?;
        let mut out = Vec::with_capacity(2);
        for c in 0..2 {
            let n = self.tmp(RegClass::V1);
            let f = self.tmp(RegClass::V1);
            let d = self.tmp(RegClass::V1);
            self.valu(
                Opcode::VBfeU32,
                &[Arg::Temp(n)],
                vec![words[c], Arg::Temp(shift), Arg::Const(4)],
            )?;
            self.valu(Opcode::VCvtF32U32, &[Arg::Temp(f)], vec![Arg::Temp(n)])?;
            self.valu(
                Opcode::VMulF32,
                &[Arg::Temp(d)],
                vec![Arg::Const(0.0625f32.to_bits()), Arg::Temp(f)],
            )?;
            out.push(d);
        }
        Ok((out[0], out[1]))
    }

    /// The sample id (ANCILLARY bits 11:8).
    fn sample_id(&mut self) -> Result<Temp, Error> {
        let t = self.ps_vgpr(ps_input::ANCILLARY)[0];
        let d = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VBfeU32,
            &[Arg::Temp(d)],
            vec![Arg::Temp(t), Arg::Const(8), Arg::Const(4)],
        )?;
        Ok(d)
    }

    fn interpolate(
        &mut self,
        i: Value,
        srcs: &[Value],
        idx: &[u32],
        flat: bool,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        let loc = const_slot(self, *srcs.last().expect("verified"), idx[0], at)?;
        let ij = if flat {
            None
        } else {
            let b = self.get(srcs[0], 0)?;
            let c = self.get(srcs[0], 1)?;
            match (b, c) {
                (MV::T(x, _), MV::T(y, _)) => Some((x, y)),
                _ => return Err(Error::unsupported(at, "constant barycentrics")),
            }
        };
        self.interp_channels(loc, idx[1], ty.comps as u32, ij, 0)
    }

    /// `load_input_vertex`: the raw value of vertex `srcs[0]` (a constant 0..3) of the
    /// primitive. Its attribute is read in passthrough mode (SPI_PS_INPUT_CNTL FLAT_SHADE
    /// with OFFSET bit 5, and ROTATE_PC_PTR for the API's vertex order: `binary/graphics.rs`),
    /// so P0, P10 and P20 hold vertices 0, 1 and 2 (ACO reads them the same way).
    fn input_vertex(
        &mut self,
        i: Value,
        srcs: &[Value],
        idx: &[u32],
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        let loc = const_slot(self, srcs[1], idx[0], at)?;
        let vertex = match self.get(srcs[0], 0)? {
            MV::C(v) if v < 3 => v as u32,
            _ => {
                return Err(Error::unsupported(
                    at,
                    "per-vertex input read with a vertex index that is not 0, 1 or 2",
                ))
            }
        };
        self.interp_channels(loc, idx[1], ty.comps as u32, None, vertex)
    }

    /// Channels `first..first + comps` of the fragment input at `loc`, interpolated with
    /// the barycentrics `ij`, or without them the parameter of `vertex` (0: P0, the
    /// provoking vertex of a flat input; 1, 2: P10, P20 of a passthrough input).
    fn interp_channels(
        &mut self,
        loc: u32,
        first: u32,
        comps: u32,
        ij: Option<(Temp, Temp)>,
        vertex: u32,
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let attr = self.gfx.attr_of[&loc];
        let (ij_i, ij_j) = (ij.map(|x| x.0), ij.map(|x| x.1));
        let mut out = SmallVec::new();
        for k in 0..comps {
            let chan = first + k;
            let d = self.tmp(RegClass::V1);
            let a = Arg::Imm(attr * 4 + chan);
            if self.t().gen == Gen::Gfx11 {
                let p = self.gfx.params[&(attr, chan)];
                match (ij_i, ij_j) {
                    (Some(ci), Some(cj)) => {
                        let t = self.tmp(RegClass::V1);
                        self.vinterp(Opcode::VInterpP10F32, t, [p, ci, p])?;
                        self.vinterp(Opcode::VInterpP2F32, d, [p, cj, t])?;
                    }
                    _ => {
                        // P0 / P10 / P20 sit in lanes 0 / 1 / 2 of each quad, which may
                        // be helper lanes (exec off): fetch-inactive reads them anyway
                        let mut mi = MInst::hw(
                            self.op(Opcode::VMovB32)?,
                            Format::Vop1Dpp,
                            &[Arg::Temp(d)],
                            &[Arg::Temp(p)],
                        );
                        mi.mods.dpp = crate::isa::inst::Dpp {
                            // quad_perm(vertex, vertex, vertex, vertex)
                            ctrl: vertex as u16 * 0x55,
                            fi: true,
                            ..Default::default()
                        };
                        self.push(mi);
                    }
                }
            } else {
                match (ij_i, ij_j) {
                    (Some(ci), Some(cj)) => {
                        self.push(MInst::hw(
                            self.op(Opcode::VInterpP1F32)?,
                            Format::Vintrp,
                            &[Arg::Temp(d)],
                            &[Arg::Temp(ci), a],
                        ));
                        self.p.multi_def.insert(d);
                        self.push(MInst::hw(
                            self.op(Opcode::VInterpP2F32)?,
                            Format::Vintrp,
                            &[Arg::Temp(d)],
                            &[Arg::Temp(cj), a, Arg::Temp(d)],
                        ));
                    }
                    _ => self.push(MInst::hw(
                        self.op(Opcode::VInterpMovF32)?,
                        Format::Vintrp,
                        &[Arg::Temp(d)],
                        // v_interp_mov_f32's parameter: 0 = P10, 1 = P20, 2 = P0
                        &[Arg::Imm((vertex + 2) % 3), a],
                    )),
                }
            }
            out.push(MV::T(d, Kind::Plain));
        }
        Ok(out)
    }

    /// A GFX11 VINTERP instruction (no `wait_exp`: insert_waitcnt covers the loads).
    fn vinterp(&mut self, op: Opcode, d: Temp, srcs: [Temp; 3]) -> Result<(), Error> {
        let mut mi = MInst::hw(
            self.op(op)?,
            Format::Vinterp,
            &[Arg::Temp(d)],
            &srcs.map(Arg::Temp),
        );
        mi.mods.mem.wait = 7;
        self.push(mi);
        Ok(())
    }

    /// What the vertex shader reads: (VertexIndex, InstanceIndex) and, per input location,
    /// the channels up to the last one read.
    fn vs_reads(&self) -> Result<VsReads, Error> {
        let f = self.f;
        let mut needs = (false, false);
        let mut inputs: Vec<(u32, u32)> = Vec::new();
        for b in f.blocks_in_order() {
            for &i in &f.blocks[b].insts {
                let InstKind::Intrinsic { op, srcs, idx } = f.kind(i) else {
                    continue;
                };
                let at = Some(i.index() as u32);
                match op {
                    Intrinsic::LoadVertexIndex => needs.0 = true,
                    Intrinsic::LoadInstanceIndex => needs.1 = true,
                    Intrinsic::LoadInput => {
                        let ty = f.ty(i);
                        if ty.bits != 32 {
                            return Err(Error::unsupported(
                                at,
                                format!("{}-bit vertex inputs", ty.bits),
                            ));
                        }
                        let loc = match f.kind(srcs[0]) {
                            InstKind::Const(c) => idx[0] + c[0] as u32,
                            _ => {
                                return Err(Error::unsupported(
                                    at,
                                    "dynamically indexed vertex input",
                                ))
                            }
                        };
                        inputs.push((loc, idx[1] + ty.comps as u32));
                    }
                    _ => {}
                }
            }
        }
        let mut widths: BTreeMap<u32, u32> = BTreeMap::new();
        for (loc, end) in inputs {
            let w = widths.entry(loc).or_insert(0);
            *w = (*w).max(end);
        }
        Ok((needs, widths))
    }

    /// VertexIndex = VertexID + BaseVertex and InstanceIndex = InstanceID + BaseInstance
    /// for what `needs` says, in the entry block (so every use is dominated); the ID VGPRs
    /// and base SGPRs become inputs.
    fn vs_indices(&mut self, needs: (bool, bool)) -> Result<(), Error> {
        if needs.0 {
            let vid = self.tmp(RegClass::V1);
            let bv = self.tmp(RegClass::S1);
            self.gfx.vertex_id = Some(vid);
            self.gfx.base_vertex = Some(bv);
            let d = self.tmp(RegClass::V1);
            self.valu(
                Opcode::VAddU32,
                &[Arg::Temp(d)],
                vec![Arg::Temp(bv), Arg::Temp(vid)],
            )?;
            self.gfx.vertex_index = Some(d);
        }
        if needs.1 {
            let iid = self.tmp(RegClass::V1);
            let bi = self.tmp(RegClass::S1);
            self.gfx.instance_id = Some(iid);
            self.gfx.base_instance = Some(bi);
            let d = self.tmp(RegClass::V1);
            self.valu(
                Opcode::VAddU32,
                &[Arg::Temp(d)],
                vec![Arg::Temp(bi), Arg::Temp(iid)],
            )?;
            self.gfx.instance_index = Some(d);
        }
        Ok(())
    }

    /// The vertex stage's single-SGPR user-data input `slot` selects (BaseVertex,
    /// BaseInstance, DrawIndex), created on first use; `gfx_finish_inputs` places it.
    fn user_sgpr_input(&mut self, slot: fn(&mut Gfx) -> &mut Option<Temp>) -> Temp {
        if let Some(t) = *slot(&mut self.gfx) {
            return t;
        }
        let t = self.tmp(RegClass::S1);
        *slot(&mut self.gfx) = Some(t);
        t
    }

    /// A vertex input: the VGPRs the fetch prolog fills (`graphics/parts.rs`).
    fn vertex_fetch(
        &mut self,
        i: Value,
        srcs: &[Value],
        idx: &[u32],
    ) -> Result<SmallVec<[MV; 4]>, Error> {
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        let loc = const_slot(self, srcs[0], idx[0], at)?;
        Ok(self.vertex_input_parts(loc, idx[1], ty.comps as u32))
    }

    /// The texel address of `subpassLoad` (an input attachment read): the fragment's pixel
    /// (FragCoord.xy, whose pixel centres truncate to the pixel) plus the offset
    /// coordinate `coord`; fragment stage only.
    pub(super) fn subpass_coords(
        &mut self,
        coord: Value,
        at: Option<u32>,
    ) -> Result<Vec<Temp>, Error> {
        if self.m.stage != Stage::Fragment {
            return Err(Error::unsupported(
                at,
                "subpass input outside a fragment shader",
            ));
        }
        let mut addr = Vec::new();
        for k in 0..2 {
            let pos = self.ps_vgpr(ps_input::POS_X + k)[0];
            let pixel = self.tmp(RegClass::V1);
            self.valu(
                Opcode::VCvtI32F32,
                &[Arg::Temp(pixel)],
                vec![Arg::Temp(pos)],
            )?;
            let off = match self.get(coord, k as usize)? {
                MV::C(0) => {
                    addr.push(pixel);
                    continue;
                }
                MV::C(c) => Arg::Const(c as u32),
                MV::T(t, _) => Arg::Temp(t),
            };
            let d = self.tmp(RegClass::V1);
            self.valu(
                Opcode::VAddU32,
                &[Arg::Temp(d)],
                vec![off, Arg::Temp(pixel)],
            )?;
            addr.push(d);
        }
        Ok(addr)
    }

    /// Graphics intrinsics; `None` when `op` is not one.
    pub(super) fn gfx_intrinsic(
        &mut self,
        i: Value,
        op: Intrinsic,
        srcs: &[Value],
        idx: &[u32],
    ) -> Result<Option<SmallVec<[MV; 4]>>, Error> {
        use Intrinsic::*;
        let at = Some(i.index() as u32);
        let stage = self.m.stage;
        let one = |t: Temp| -> SmallVec<[MV; 4]> { smallvec::smallvec![MV::T(t, Kind::Plain)] };
        let out = match (stage, op) {
            (
                Stage::Fragment,
                LoadBarycentricPixel
                | LoadBarycentricCentroid
                | LoadBarycentricSample
                | LoadBarycentricAtOffset
                | LoadBarycentricAtSample,
            ) => self.barycentric(op, srcs, idx, at)?,
            (Stage::Fragment, LoadInterpolatedInput) => self.interpolate(i, srcs, idx, false)?,
            (Stage::Fragment, LoadInput) => self.interpolate(i, srcs, idx, true)?,
            (Stage::Fragment, LoadInputVertex) => self.input_vertex(i, srcs, idx)?,
            (Stage::Fragment, LoadBaryCoord | LoadBaryCoordNoPersp) => {
                let bit = if op == LoadBaryCoord {
                    ps_input::PERSP_CENTER
                } else {
                    ps_input::LINEAR_CENTER
                };
                let v = self.ps_vgpr(bit);
                // the hardware's I, J weigh vertices 1 and 2: vertex 0 takes 1 − I − J
                let t = self.tmp(RegClass::V1);
                let k = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VSubF32,
                    &[Arg::Temp(t)],
                    vec![Arg::Const(1f32.to_bits()), Arg::Temp(v[0])],
                )?;
                self.valu(
                    Opcode::VSubF32,
                    &[Arg::Temp(k)],
                    vec![Arg::Temp(t), Arg::Temp(v[1])],
                )?;
                smallvec::smallvec![
                    MV::T(k, Kind::Plain),
                    MV::T(v[0], Kind::Plain),
                    MV::T(v[1], Kind::Plain)
                ]
            }
            // no variable-rate shading state: every fragment is 1x1 (rate 0)
            (Stage::Fragment, LoadShadingRate) => smallvec::smallvec![MV::C(0)],
            (Stage::Fragment, LoadPointCoord) => {
                let v = self.ps_vgpr(ps_input::PERSP_CENTER);
                self.interp_channels(SLOT_POINT_COORD, 0, 2, Some((v[0], v[1])), 0)?
            }
            (Stage::Fragment, LoadFragCoord) => {
                let mut out = SmallVec::new();
                for c in 0..4 {
                    let t = self.ps_vgpr(ps_input::POS_X + c)[0];
                    if c == 3 {
                        // the hardware gives w; FragCoord.w is 1/w
                        let d = self.tmp(RegClass::V1);
                        self.valu(Opcode::VRcpF32, &[Arg::Temp(d)], vec![Arg::Temp(t)])?;
                        out.push(MV::T(d, Kind::Plain));
                    } else {
                        out.push(MV::T(t, Kind::Plain));
                    }
                }
                out
            }
            (Stage::Fragment, LoadFrontFace) => {
                let t = self.ps_vgpr(ps_input::FRONT_FACE)[0];
                let m = self.tmp(self.mask_rc());
                self.valu(
                    Opcode::VCmpNeU32,
                    &[Arg::Temp(m)],
                    vec![Arg::Const(0), Arg::Temp(t)],
                )?;
                smallvec::smallvec![MV::T(m, Kind::Mask)]
            }
            (Stage::Fragment, LoadSampleId) => one(self.sample_id()?),
            (Stage::Fragment, LoadSamplePos) => {
                let id = self.sample_id()?;
                let (x, y) = self.sample_position(Arg::Temp(id), at)?;
                smallvec::smallvec![MV::T(x, Kind::Plain), MV::T(y, Kind::Plain)]
            }
            (Stage::Fragment, LoadSampleMaskIn) => {
                let cov = self.ps_vgpr(ps_input::SAMPLE_COVERAGE)[0];
                // the hardware gives the pixel's coverage; an invocation shading one
                // sample sees that sample's bit only (Vulkan's SampleMask input)
                let id = self.sample_id()?;
                let bit = self.tmp(RegClass::V1);
                self.valu(
                    Opcode::VLshlrevB32,
                    &[Arg::Temp(bit)],
                    vec![Arg::Temp(id), Arg::Const(1)],
                )?;
                let mask = if sample_rate_shading(self.f) {
                    Arg::Temp(bit)
                } else {
                    // per pixel or per sample by the pipeline's sample shading, which a
                    // fragment shader is compiled without: both ways, chosen at link by
                    // the literal of `gcnc.choice.per_sample` (1: the own bit; 0: every
                    // bit, since `choice - 1` is then all ones)
                    let choice = self
                        .p
                        .symbol(PrelinkSymbol::Choice(CHOICE_PER_SAMPLE.into()));
                    let all = self.tmp(RegClass::S1);
                    self.hw(
                        Opcode::SAddU32,
                        &[Arg::Temp(all)],
                        &[choice, Arg::Const(u32::MAX)],
                    )?;
                    let m = self.tmp(RegClass::V1);
                    self.valu(
                        Opcode::VOrB32,
                        &[Arg::Temp(m)],
                        vec![Arg::Temp(all), Arg::Temp(bit)],
                    )?;
                    Arg::Temp(m)
                };
                let d = self.tmp(RegClass::V1);
                self.valu(Opcode::VAndB32, &[Arg::Temp(d)], vec![Arg::Temp(cov), mask])?;
                one(d)
            }
            (Stage::Fragment, LoadHelperInvocation | IsHelperInvocation) => self.helper_mask()?,
            (Stage::Fragment, Discard | Terminate | Demote) if self.p.wqm.is_some() => {
                self.p.abi.graphics.can_discard = true;
                self.quad_kill(None)?;
                SmallVec::new()
            }
            (Stage::Fragment, DiscardIf | DemoteIf) if self.p.wqm.is_some() => {
                self.p.abi.graphics.can_discard = true;
                self.quad_kill(Some(srcs[0]))?;
                SmallVec::new()
            }
            (Stage::Fragment, Discard | Terminate) => {
                self.p.abi.graphics.can_discard = true;
                let exec = self.p.exec();
                self.hw_lane(Opcode::SMovB32, &[exec], &[Arg::Const(0)])?;
                SmallVec::new()
            }
            (Stage::Fragment, DiscardIf) => {
                self.p.abi.graphics.can_discard = true;
                let m = self.mask(srcs[0], 0)?;
                let exec = self.p.exec();
                self.hw_lane(Opcode::SAndn2B32, &[exec], &[exec, m])?;
                SmallVec::new()
            }
            (Stage::Vertex, LoadInput) => self.vertex_fetch(i, srcs, idx)?,
            (Stage::Vertex, LoadVertexIndex) => one(self.gfx.vertex_index.expect("vs_begin")),
            (Stage::Vertex, LoadInstanceIndex) => one(self.gfx.instance_index.expect("vs_begin")),
            (Stage::Vertex, LoadBaseVertex) => one(self.user_sgpr_input(|g| &mut g.base_vertex)),
            (Stage::Vertex, LoadBaseInstance) => {
                one(self.user_sgpr_input(|g| &mut g.base_instance))
            }
            (Stage::Vertex, LoadDrawId) => one(self.user_sgpr_input(|g| &mut g.draw_id)),
            // gl_Layer / gl_ViewportIndex read in a fragment shader: flat attributes fed by
            // the vertex epilog's parameters of the vertex outputs in the same slots; a
            // vertex stage that writes neither leaves the attribute at its default value 0
            // (SPI_PS_INPUT_CNTL.OFFSET 0x20), Vulkan's value then (docs/abi.md)
            (Stage::Fragment, LoadLayerId) => self.interp_channels(SLOT_LAYER, 0, 1, None, 0)?,
            (Stage::Fragment, LoadViewportIndex) => {
                self.interp_channels(SLOT_VIEWPORT, 0, 1, None, 0)?
            }
            // the fragment stage has no primitive-id input: the vertex stage's epilog exports
            // it as a flat parameter (docs/abi.md), read as P0 of the provoking vertex
            (Stage::Fragment, LoadPrimitiveId) => {
                self.interp_channels(SLOT_PRIMITIVE_ID, 0, 1, None, 0)?
            }
            // no multiview: every draw renders view 0
            (Stage::Vertex | Stage::Fragment, LoadViewIndex) => smallvec::smallvec![MV::C(0)],
            (Stage::Vertex | Stage::Fragment, StoreOutput) => {
                self.store_output(srcs, idx, at)?;
                SmallVec::new()
            }
            _ => return Ok(None),
        };
        Ok(Some(out))
    }

    fn store_output(&mut self, srcs: &[Value], idx: &[u32], at: Option<u32>) -> Result<(), Error> {
        let slot = const_slot(self, srcs[1], idx[0], at)?;
        let v = srcs[0];
        if matches!(self.f.kind(v), InstKind::Undef) {
            return Ok(());
        }
        if self.div_if_depth > 0 || self.loop_depth > 0 {
            return Err(Error::unsupported(at, "output stored inside control flow"));
        }
        let ty = self.f.ty(v);
        if ty.bits != 32 {
            return Err(Error::unsupported(at, format!("{}-bit outputs", ty.bits)));
        }
        let (comp, mask) = (idx[1], idx[2]);
        for k in 0..ty.comps as u32 {
            if mask >> k & 1 == 0 {
                continue;
            }
            let c = comp + k;
            if c >= 4 {
                return Err(Error::unsupported(at, "output component beyond 4"));
            }
            let mut a = self.arg(v, k as usize)?;
            if slot == SLOT_PRIMITIVE_SHADING_RATE {
                a = self.hw_shading_rate(a, at)?;
            }
            let a = Arg::Temp(self.to_vgpr(a)?);
            self.gfx.outputs.entry(slot).or_default()[c as usize] = Some(a);
        }
        Ok(())
    }

    /// gl_PrimitiveShadingRateEXT (Vulkan rate flags: Vertical2Pixels 1, Vertical4Pixels
    /// 2, Horizontal2Pixels 4, Horizontal4Pixels 8) in the hardware's per-vertex encoding,
    /// as RADV lowers it (radv_nir_lower_primitive_shading_rate): X = 1 when a horizontal
    /// flag is set, Y = 1 when a vertical one is (the hardware's vertex rate goes up to
    /// 2x2), placed at X << 2 | Y << 4 on GFX10.3 and X << 4 | Y << 2 on GFX11 (its 4-bit
    /// VRS_SHADING_RATE enum in bits 5:2: 0 1x1, 1 1x2, 4 2x1, 5 2x2). GFX9 has no
    /// variable-rate shading. docs/abi.md "Graphics" gives the export and registers.
    fn hw_shading_rate(&mut self, a: Arg, at: Option<u32>) -> Result<Arg, Error> {
        let (xs, ys) = match self.t().gen {
            Gen::Gfx9 => {
                return Err(Error::unsupported(
                    at,
                    "gl_PrimitiveShadingRateEXT (PrimitiveShadingRateKHR) on GFX9, which \
                     has no variable-rate shading (PA_CL_VS_OUT_CNTL.USE_VTX_VRS_RATE is \
                     GFX10.3+)",
                ))
            }
            Gen::Gfx11 => (4, 2),
            _ => (2, 4),
        };
        if let Arg::Const(r) = a {
            let bit = |m: u32| (r & m != 0) as u32;
            return Ok(Arg::Const(bit(12) << xs | bit(3) << ys));
        }
        let mut axis = |mask: u32, shift: u32| -> Result<Temp, Error> {
            let (m, t) = (self.tmp(RegClass::V1), self.tmp(RegClass::V1));
            self.valu(Opcode::VAndB32, &[Arg::Temp(m)], vec![Arg::Const(mask), a])?;
            self.valu(
                Opcode::VMinU32,
                &[Arg::Temp(t)],
                vec![Arg::Const(1), Arg::Temp(m)],
            )?;
            let d = self.tmp(RegClass::V1);
            self.valu(
                Opcode::VLshlrevB32,
                &[Arg::Temp(d)],
                vec![Arg::Const(shift), Arg::Temp(t)],
            )?;
            Ok(d)
        };
        let (x, y) = (axis(12, xs)?, axis(3, ys)?);
        let d = self.tmp(RegClass::V1);
        self.valu(
            Opcode::VOrB32,
            &[Arg::Temp(d)],
            vec![Arg::Temp(x), Arg::Temp(y)],
        )?;
        Ok(Arg::Temp(d))
    }

    /// The clip then cull distance VGPRs (module doc of `export_distances`); records the
    /// counts.
    fn distance_values(
        &mut self,
        outputs: &BTreeMap<u32, [Option<Arg>; 4]>,
    ) -> Result<Vec<Arg>, Error> {
        let read = |base: u32| -> Vec<Option<Arg>> {
            (0..8)
                .map(|k| outputs.get(&(base + k / 4)).and_then(|o| o[k as usize % 4]))
                .collect()
        };
        let (clip, cull) = (read(SLOT_CLIP), read(SLOT_CLIP + 2));
        let count = |v: &[Option<Arg>]| v.iter().rposition(|a| a.is_some()).map_or(0, |p| p + 1);
        let (nclip, ncull) = (count(&clip), count(&cull));
        if nclip + ncull > 8 {
            return Err(Error::unsupported(
                None,
                format!("{nclip} clip and {ncull} cull distances (at most 8 together)"),
            ));
        }
        let mut all = Vec::new();
        for a in clip[..nclip].iter().chain(&cull[..ncull]) {
            all.push(Arg::Temp(self.to_vgpr(a.unwrap_or(Arg::Const(0)))?));
        }
        self.p.abi.graphics.clip_distances = nclip as u32;
        self.p.abi.graphics.cull_distances = ncull as u32;
        Ok(all)
    }

    /// The end of a graphics stage: the branch to its export epilog
    /// (`graphics/parts.rs`).
    pub(super) fn gfx_end(&mut self) -> Result<(), Error> {
        self.gfx_end_parts()
    }

    /// Places the graphics inputs after the user SGPRs at `next` (docs/abi.md): the
    /// vertex stage's single-SGPR user data, then PRIM_MASK (fragment); the VGPRs.
    pub(super) fn gfx_finish_inputs(
        &mut self,
        mut next: u16,
        defs: &mut Vec<Arg>,
        ud: &mut Vec<UserData>,
    ) -> Result<(), Error> {
        let gen = self.t().gen;
        if self.m.stage == Stage::Vertex {
            let ngg = vertex_is_ngg(gen);
            self.p.abi.graphics.hw_stage = Some(if ngg { HwStage::Gs } else { HwStage::Vs });
            // NGG: user SGPRs from s8, after the system SGPRs
            let base = if ngg { 8 } else { 0 };
            if ngg {
                self.ngg_finish_inputs(defs);
            }
            let singles = [
                (self.gfx.ngg.global_table, USER_DATA_GLOBAL_TABLE),
                (self.gfx.vb_table, USER_DATA_VERTEX_BUFFER_TABLE),
                (self.gfx.base_vertex, USER_DATA_BASE_VERTEX),
                (self.gfx.base_instance, USER_DATA_BASE_INSTANCE),
                (self.gfx.draw_id, USER_DATA_DRAW_INDEX),
            ];
            for (t, u) in singles {
                if let Some(t) = t {
                    self.p.precolored.insert(t, PhysReg::sgpr(base + next));
                    defs.push(Arg::Temp(t));
                    ud.push(match u {
                        USER_DATA_GLOBAL_TABLE => UserData::GlobalTable,
                        u => UserData::Special(u),
                    });
                    next += 1;
                }
            }
            if next > 16 {
                return Err(Error::Layout(format!(
                    "{next} user SGPRs needed, the hardware has 16"
                )));
            }
            // VertexID, InstanceID: v0 / v1 (GFX9) or v3 (GFX10.3); NGG v5 / v8
            let vbase = if ngg { 5 } else { 0 };
            if let Some(t) = self.gfx.vertex_id {
                self.p.precolored.insert(t, PhysReg::vgpr(vbase));
                defs.push(Arg::Temp(t));
            }
            if let Some(t) = self.gfx.instance_id {
                let v = if gen == Gen::Gfx9 { 1 } else { 3 };
                self.p.precolored.insert(t, PhysReg::vgpr(vbase + v));
                defs.push(Arg::Temp(t));
                self.p.abi.graphics.vgpr_comp_cnt = v as u32;
            }
            // GFX9: the primitive id in v2 (VGPR_COMP_CNT 2 loads v1 and v2)
            if let Some(t) = self.gfx.vs_prim_id {
                self.p.precolored.insert(t, PhysReg::vgpr(2));
                defs.push(Arg::Temp(t));
                let c = &mut self.p.abi.graphics.vgpr_comp_cnt;
                *c = (*c).max(2);
            }
            defs.extend(self.gfx.parts.inputs.iter().map(|t| Arg::Temp(*t)));
            return Ok(());
        }
        self.p.abi.graphics.hw_stage = Some(HwStage::Ps);
        if let Some(t) = self.gfx.prim_mask {
            self.p.precolored.insert(t, PhysReg::sgpr(next));
            defs.push(Arg::Temp(t));
        }
        let mut ena: u32 = self.gfx.ps_vgprs.keys().map(|b| 1 << b).sum();
        // the hardware needs one PERSP or LINEAR input, and POS_W a PERSP one
        if ena & 0x7f == 0 || (ena & 0xf == 0 && ena & (1 << 11) != 0) {
            ena |= 1 << ps_input::PERSP_CENTER;
        }
        self.p.abi.graphics.ps_input_ena = ena;
        let mut v = 0u16;
        for bit in 0..16 {
            if ena >> bit & 1 == 0 {
                continue;
            }
            if let Some(ts) = self.gfx.ps_vgprs.get(&bit) {
                for (k, t) in ts.iter().enumerate() {
                    self.p.precolored.insert(*t, PhysReg::vgpr(v + k as u16));
                    defs.push(Arg::Temp(*t));
                }
            }
            v += ps_input::vgprs(bit);
        }
        Ok(())
    }
}
