//! A vertex or fragment stage as a main part, to be linked with parts (every graphics
//! stage, whole-pipeline or unlinked; docs/link.md "Graphics parts").
//!
//! - Vertex inputs: location `l` (the channels up to the last one the shader reads) arrives
//!   in consecutive VGPRs from [`first_input_vgpr`] on, locations in order; the
//!   vertex-fetch prolog (`parts::vs_prolog`) fills them. With any input the stage also
//!   declares what the prolog reads — the vertex-buffer table, BaseVertex and BaseInstance
//!   user SGPRs and the VertexID / InstanceID VGPRs — whether or not its own code uses them.
//! - The end: instead of exports, `s_waitcnt` with every counter at zero, then
//!   `s_branch gcnc.next` whose operands after the symbol are the values the epilog exports
//!   (each a VGPR or `off`), in the runs `GraphicsAbi::epilog_values` names: fragment
//!   colour locations (4 channels each), the second source of dual-source blending (4,
//!   [`SLOT_DUAL_SOURCE`]), then the depth (1), then gl_SampleMask (1,
//!   [`SLOT_SAMPLE_MASK`]); vertex position (4), point size
//!   (1), the primitive shading rate (1), gl_Layer (1, [`SLOT_LAYER`]), gl_ViewportIndex (1,
//!   [`SLOT_VIEWPORT`]), clip + cull distances (their count), the output locations (4 each), then on
//!   the primitive id when `LinkTime::vs_primitive_id` (`SLOT_PRIMITIVE_ID`: GFX9 v2; NGG
//!   an empty run, the id being in LDS), then on GFX11 (with parameters or the primitive
//!   id) the global table's SGPR ([`SLOT_GLOBAL_TABLE`]) and the subgroup's ring offset
//!   (s5, [`SLOT_ATTR_OFFSET`]). After
//!   register allocation those operands are the physical VGPRs the epilog is keyed by.
//!   The NGG prologue (GS_ALLOC_REQ, the primitive export, EXEC = the vertex lanes) stays in
//!   the main part; the position exports go to the epilog with the parameters, because on
//!   GFX11 the attribute-ring stores must complete before them.

use super::{Isel, Kind, MV};
use super::{
    SLOT_CLIP, SLOT_DUAL_SOURCE, SLOT_FRAG_DEPTH, SLOT_LAYER, SLOT_POINT_SIZE, SLOT_POSITION,
    SLOT_PRIMITIVE_ID, SLOT_PRIMITIVE_SHADING_RATE, SLOT_SAMPLE_MASK, SLOT_VIEWPORT,
};
use crate::amdgpu::abi_graphics::vertex_is_ngg;
use crate::amdgpu::mir::{Arg, MInst, RegClass, Temp};
use crate::amdgpu::passes::insert_waitcnt::wait_insts;
use crate::amdgpu::Error;
use crate::binary::prelink::PrelinkSymbol;
use crate::ir::Stage;
use crate::isa::{Format, Gen, Opcode, PhysReg};
use smallvec::SmallVec;
use std::collections::BTreeMap;

/// The `epilog_values` run of the GFX11 vertex stage's global-table SGPR (after the
/// output locations).
pub const SLOT_GLOBAL_TABLE: u32 = 0xffff;
/// The `epilog_values` run of the GFX11 vertex stage's NGG system SGPR s5, the
/// subgroup's attribute-ring offset (after the global table).
pub const SLOT_ATTR_OFFSET: u32 = 0xfffe;

/// The unlinked vertex stage's prolog-filled inputs.
#[derive(Default)]
pub(crate) struct PartsInputs {
    /// Every precoloured input temp (p_startpgm defines them).
    pub(super) inputs: Vec<Temp>,
    /// Input location → one temp per channel from 0.
    attrs: BTreeMap<u32, Vec<Temp>>,
}

/// The first VGPR the vertex-fetch prolog fills: above the system VGPRs (GFX9 hardware
/// VS v0–v3, NGG v0–v8).
pub fn first_input_vgpr(gen: Gen) -> u16 {
    if vertex_is_ngg(gen) {
        9
    } else {
        4
    }
}

impl Isel<'_> {
    pub(super) fn vs_begin_parts(&mut self) -> Result<(), Error> {
        let (needs, widths) = self.vs_reads()?;
        let mut next = first_input_vgpr(self.t().gen);
        for (&loc, &w) in &widths {
            let mut ts = Vec::new();
            for c in 0..w as u16 {
                let t = self.tmp(RegClass::V1);
                self.p.precolored.insert(t, PhysReg::vgpr(next + c));
                ts.push(t);
            }
            self.gfx.parts.inputs.extend(&ts);
            self.gfx.parts.attrs.insert(loc, ts);
            self.p
                .abi
                .graphics
                .prolog_inputs
                .insert(loc, (next, w as u8));
            next += w as u16;
        }
        self.vs_indices(needs)?;
        if !widths.is_empty() {
            // what the prolog reads, at their ABI places
            self.gfx.vb_table = Some(self.tmp(RegClass::S1));
            for (id, base) in [
                (&mut self.gfx.vertex_id, &mut self.gfx.base_vertex),
                (&mut self.gfx.instance_id, &mut self.gfx.base_instance),
            ] {
                if id.is_none() {
                    *id = Some(self.p.new_temp(RegClass::V1));
                }
                if base.is_none() {
                    *base = Some(self.p.new_temp(RegClass::S1));
                }
            }
        }
        Ok(())
    }

    /// Channels `first..first + comps` of input location `loc`.
    pub(super) fn vertex_input_parts(&self, loc: u32, first: u32, comps: u32) -> SmallVec<[MV; 4]> {
        let ts = &self.gfx.parts.attrs[&loc];
        (first..first + comps)
            .map(|c| MV::T(ts[c as usize], Kind::Plain))
            .collect()
    }

    /// The end of an unlinked stage: the values for the epilog on the final branch.
    pub(super) fn gfx_end_parts(&mut self) -> Result<(), Error> {
        let outputs = std::mem::take(&mut self.gfx.outputs);
        let mut vals: Vec<Arg> = Vec::new();
        let mut runs: Vec<(u32, u8)> = Vec::new();
        let four = |o: &[Option<Arg>; 4]| o.map(|a| a.unwrap_or(Arg::Off));
        let builtin_ok: fn(u32) -> bool;
        match self.m.stage {
            Stage::Fragment => {
                for (&slot, o) in outputs.range(..SLOT_POSITION) {
                    if slot >= 8 {
                        return Err(Error::unsupported(None, format!("colour output {slot}")));
                    }
                    runs.push((slot, 4));
                    vals.extend(four(o));
                }
                if let Some(o) = outputs.get(&SLOT_DUAL_SOURCE) {
                    runs.push((SLOT_DUAL_SOURCE, 4));
                    vals.extend(four(o));
                }
                if let Some(o) = outputs.get(&SLOT_FRAG_DEPTH) {
                    self.p.abi.graphics.writes_depth = true;
                    runs.push((SLOT_FRAG_DEPTH, 1));
                    vals.push(Arg::Temp(self.to_vgpr(o[0].unwrap_or(Arg::Const(0)))?));
                }
                if let Some(o) = outputs.get(&SLOT_SAMPLE_MASK) {
                    self.p.abi.graphics.writes_sample_mask = true;
                    runs.push((SLOT_SAMPLE_MASK, 1));
                    vals.push(Arg::Temp(self.to_vgpr(o[0].unwrap_or(Arg::Const(0)))?));
                }
                builtin_ok = |s| matches!(s, SLOT_FRAG_DEPTH | SLOT_DUAL_SOURCE | SLOT_SAMPLE_MASK);
            }
            Stage::Vertex => {
                let pos = outputs.get(&SLOT_POSITION).copied().unwrap_or([None; 4]);
                for a in pos {
                    vals.push(Arg::Temp(self.to_vgpr(a.unwrap_or(Arg::Const(0)))?));
                }
                runs.push((SLOT_POSITION, 4));
                self.p.abi.graphics.pos_exports = 1;
                if let Some(o) = outputs.get(&SLOT_POINT_SIZE) {
                    vals.push(Arg::Temp(self.to_vgpr(o[0].unwrap_or(Arg::Const(0)))?));
                    runs.push((SLOT_POINT_SIZE, 1));
                    self.p.abi.graphics.pos_exports = 2;
                    self.p.abi.graphics.writes_point_size = true;
                }
                if let Some(o) = outputs.get(&SLOT_PRIMITIVE_SHADING_RATE) {
                    // the misc position export (pos1.y), shared with the point size
                    vals.push(Arg::Temp(self.to_vgpr(o[0].unwrap_or(Arg::Const(0)))?));
                    runs.push((SLOT_PRIMITIVE_SHADING_RATE, 1));
                    self.p.abi.graphics.pos_exports = 2;
                    self.p.abi.graphics.writes_shading_rate = true;
                }
                // gl_Layer and gl_ViewportIndex, each its raw value: the epilog packs them
                // into the misc export's z and exports them as parameters when the
                // fragment shader reads them
                for (slot, flag) in [(SLOT_LAYER, 0), (SLOT_VIEWPORT, 1)] {
                    if let Some(o) = outputs.get(&slot) {
                        vals.push(Arg::Temp(self.to_vgpr(o[0].unwrap_or(Arg::Const(0)))?));
                        runs.push((slot, 1));
                        self.p.abi.graphics.pos_exports = 2;
                        if flag == 0 {
                            self.p.abi.graphics.writes_layer = true;
                        } else {
                            self.p.abi.graphics.writes_viewport = true;
                        }
                    }
                }
                let dists = self.distance_values(&outputs)?;
                if !dists.is_empty() {
                    runs.push((SLOT_CLIP, dists.len() as u8));
                    self.p.abi.graphics.pos_exports += dists.len().div_ceil(4) as u32;
                    vals.extend(dists);
                }
                for (&slot, o) in outputs.range(..SLOT_POSITION) {
                    runs.push((slot, 4));
                    vals.extend(four(o));
                    self.p.abi.graphics.vs_params.push(slot);
                }
                // the primitive id for the epilog (`LinkTime::vs_primitive_id`): GFX9 v2,
                // NGG nothing in registers (the prologue stored it to LDS: an empty run)
                let prim_id = self.link.vs_primitive_id;
                if prim_id {
                    self.p.abi.graphics.vs_primitive_id = true;
                    if vertex_is_ngg(self.t().gen) {
                        runs.push((SLOT_PRIMITIVE_ID, 0));
                    } else {
                        let t = self.tmp(RegClass::V1);
                        self.gfx.vs_prim_id = Some(t);
                        runs.push((SLOT_PRIMITIVE_ID, 1));
                        vals.push(Arg::Temp(t));
                    }
                }
                if self.t().gen == Gen::Gfx11
                    && (prim_id || !self.p.abi.graphics.vs_params.is_empty())
                {
                    // the epilog's attribute-ring stores find the ring in PAL's global
                    // table and the subgroup's place in it in s5: both stay live to the
                    // branch
                    let git = self.tmp(RegClass::S1);
                    self.gfx.ngg.global_table = Some(git);
                    runs.push((SLOT_GLOBAL_TABLE, 1));
                    vals.push(Arg::Temp(git));
                    let attr = self.tmp(RegClass::S1);
                    self.gfx.ngg.attr_offset = Some(attr);
                    runs.push((SLOT_ATTR_OFFSET, 1));
                    vals.push(Arg::Temp(attr));
                }
                builtin_ok = |s| {
                    matches!(
                        s,
                        SLOT_POSITION
                            | SLOT_POINT_SIZE
                            | SLOT_PRIMITIVE_SHADING_RATE
                            | SLOT_LAYER
                            | SLOT_VIEWPORT
                    ) || (SLOT_CLIP..SLOT_CLIP + 4).contains(&s)
                };
            }
            _ => return Ok(()),
        }
        if let Some((&slot, _)) = outputs
            .range(SLOT_POSITION..)
            .find(|(s, _)| !builtin_ok(**s))
        {
            return Err(Error::unsupported(
                None,
                format!("{} built-in output slot {slot}", self.m.stage.name()),
            ));
        }
        // the boundary contract: no counter outstanding at the splice
        let vs = (self.t().gen != Gen::Gfx9).then_some(0);
        for w in wait_insts(self.t().gen, [Some(0), Some(0), Some(0), vs])? {
            self.push(w);
        }
        let mut ops = vec![Arg::Imm(0), self.p.symbol(PrelinkSymbol::Next)];
        ops.extend(vals);
        self.push(MInst::hw(Opcode::SBranch, Format::Sopp, &[], &ops));
        self.p.abi.graphics.epilog_values = runs;
        Ok(())
    }
}
