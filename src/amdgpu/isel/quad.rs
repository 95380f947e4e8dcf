//! Quad operations of a fragment shader: derivatives, the live mask, discard and demote,
//! and helper-invocation queries. What exec each instruction runs under is decided later,
//! by the whole-quad-mode pass (`passes::insert_wqm`, docs/wqm.md); selection only
//! records what that pass needs in `Program::wqm`.
//!
//! - A fragment shader whose IR reads across a quad (a derivative of a divergent value, an
//!   implicit-LOD sample or LOD query) needs helper lanes (`Wqm::helpers`); one with
//!   demote or a helper-invocation query needs the live mask. Either way the entry block
//!   starts with `live = exec` (the hardware launches with exec = the covered lanes).
//!   Any other shader selects exactly as before: WQM costs it nothing.
//! - Derivatives: one lane-crossing subtraction per component through DPP `quad_perm`
//!   (GFX9 DPP, GFX10+ DPP16; every generation has `v_sub_f32` with a DPP form):
//!   `t = v_mov_b32_dpp x [lo]`, `d = v_sub_f32_dpp x [hi], t` = x[hi lane] − x[lo lane].
//!   Quad lane k sits at (k & 1, k >> 1). Fine x: lo [0,0,2,2], hi [1,1,3,3]; fine y:
//!   lo [0,1,0,1], hi [2,3,2,3]; coarse x: lo [0,0,0,0], hi [1,1,1,1]; coarse y: lo
//!   [0,0,0,0], hi [2,2,2,2]. `dFdx`/`dFdy` without a qualifier are fine. A derivative
//!   of a uniform value is 0. Both results are seeds: the pass makes everything `x`
//!   depends on run in whole-quad mode.
//! - Discard, terminate and demote, in a shader with a live mask: the lanes `m` (exec, or
//!   the condition) leave the live mask, `live = s_andn2 live, m`; when no lane is left
//!   (SCC clear) the wave branches to the dead end (after the program end: exec = 0,
//!   the null export, `s_endpgm`); otherwise `exec = s_and exec, live`. The pass widens
//!   that last operand to `s_wqm live` while helper lanes are still needed, so a quad
//!   with a live lane keeps its discarded and demoted lanes running as helpers. Discard
//!   and demote only differ in what SPIR-V lets the shader observe afterwards, and here
//!   a terminated lane that keeps running as a helper has no observable effect either.
//! - `gl_HelperInvocation` / `OpIsHelperInvocationEXT`: `exec & ~live`.

use super::{Isel, Kind, MV};
use crate::amdgpu::mir::{Arg, MInst, RegClass, Temp, Wqm};
use crate::amdgpu::Error;
use crate::ir::{self, AluOp, InstKind, Intrinsic, TexOp, Value};
use crate::isa::{Format, Gen, Opcode};
use smallvec::SmallVec;

/// DPP `quad_perm` control: lane k of each quad reads lane `sel[k]`.
fn quad_perm(sel: [u16; 4]) -> u16 {
    sel[0] | sel[1] << 2 | sel[2] << 4 | sel[3] << 6
}

/// (lo, hi) quad permutations of a derivative: the result is x[hi] − x[lo].
fn derivative_perms(op: AluOp) -> Option<([u16; 4], [u16; 4])> {
    use AluOp::*;
    Some(match op {
        Fddx | FddxFine => ([0, 0, 2, 2], [1, 1, 3, 3]),
        Fddy | FddyFine => ([0, 1, 0, 1], [2, 3, 2, 3]),
        FddxCoarse => ([0, 0, 0, 0], [1, 1, 1, 1]),
        FddyCoarse => ([0, 0, 0, 0], [2, 2, 2, 2]),
        _ => return None,
    })
}

/// What a fragment shader's IR asks of quads: (helper lanes, live mask).
fn quad_needs(f: &ir::Function) -> (bool, bool) {
    let (mut helpers, mut live) = (false, false);
    for b in f.blocks_in_order() {
        for &i in &f.blocks[b].insts {
            match f.kind(i) {
                InstKind::Alu { op, .. } if derivative_perms(*op).is_some() => helpers = true,
                InstKind::Tex(t)
                    if matches!(t.op, TexOp::Sample | TexOp::SampleBias | TexOp::QueryLod) =>
                {
                    helpers = true
                }
                // interpolation at an offset or sample extrapolates the centre's
                // barycentrics with their derivatives (`graphics.rs`)
                InstKind::Intrinsic {
                    op: Intrinsic::LoadBarycentricAtOffset | Intrinsic::LoadBarycentricAtSample,
                    ..
                } => helpers = true,
                InstKind::Intrinsic {
                    op:
                        Intrinsic::Demote
                        | Intrinsic::DemoteIf
                        | Intrinsic::IsHelperInvocation
                        | Intrinsic::LoadHelperInvocation,
                    ..
                } => live = true,
                _ => {}
            }
        }
    }
    (helpers, live || helpers)
}

impl Isel<'_> {
    /// Fragment entry: the live mask, when the shader needs one (first thing after
    /// `p_startpgm`, so that the pass can enter whole-quad mode right after it).
    pub(super) fn quad_begin(&mut self) -> Result<(), Error> {
        let (helpers, live) = quad_needs(self.f);
        if !live {
            return Ok(());
        }
        let t = self.tmp(self.mask_rc());
        self.p.multi_def.insert(t);
        let exec = self.p.exec();
        self.hw_lane(Opcode::SMovB32, &[Arg::Temp(t)], &[exec])?;
        self.p.wqm = Some(Wqm {
            live: t,
            helpers,
            seeds: Vec::new(),
            end: self.cur,
        });
        Ok(())
    }

    /// Whether helper lanes will run (derivatives and implicit LOD are selectable).
    pub(super) fn quad_helpers(&self) -> bool {
        self.p.wqm.as_ref().is_some_and(|w| w.helpers)
    }

    /// Records temps helper lanes must compute (`Wqm::seeds`).
    pub(super) fn wqm_seed(&mut self, ts: &[Temp]) {
        if let Some(w) = self.p.wqm.as_mut() {
            w.seeds.extend_from_slice(ts);
        }
    }

    /// `dFdx`/`dFdy` and their fine and coarse forms; `None` for any other ALU op.
    pub(super) fn derivative(
        &mut self,
        i: Value,
        op: AluOp,
        srcs: &[Value],
    ) -> Result<Option<SmallVec<[MV; 4]>>, Error> {
        let Some((lo, hi)) = derivative_perms(op) else {
            return Ok(None);
        };
        let at = Some(i.index() as u32);
        let ty = self.f.ty(i);
        if self.m.stage != ir::Stage::Fragment {
            return Err(Error::unsupported(
                at,
                "derivatives outside fragment shaders (compute quads: DerivativeGroupQuadsNV)",
            ));
        }
        if ty.bits != 32 {
            return Err(Error::unsupported(
                at,
                format!("{}-bit derivatives", ty.bits),
            ));
        }
        let mut out = SmallVec::new();
        if !self.div.is_divergent(srcs[0]) {
            // the same value in every lane of the quad
            out.extend((0..ty.comps).map(|_| MV::C(0)));
            return Ok(Some(out));
        }
        for c in 0..ty.comps as usize {
            let a = self.arg(srcs[0], c)?;
            let x = self.to_vgpr(a)?;
            let d = self.quad_difference(x, lo, hi)?;
            out.push(MV::T(d, Kind::Plain));
        }
        Ok(Some(out))
    }

    /// x[hi lane] − x[lo lane] in each quad (`lo`, `hi` quad permutations), both
    /// results seeds of whole-quad mode.
    fn quad_difference(&mut self, x: Temp, lo: [u16; 4], hi: [u16; 4]) -> Result<Temp, Error> {
        let t = self.tmp(RegClass::V1);
        let d = self.tmp(RegClass::V1);
        self.dpp(
            Opcode::VMovB32,
            Format::Vop1Dpp,
            &[Arg::Temp(t)],
            &[Arg::Temp(x)],
            quad_perm(lo),
            0xf,
            false,
        )?;
        self.dpp(
            Opcode::VSubF32,
            Format::Vop2Dpp,
            &[Arg::Temp(d)],
            &[Arg::Temp(x), Arg::Temp(t)],
            quad_perm(hi),
            0xf,
            false,
        )?;
        self.wqm_seed(&[t, d]);
        Ok(d)
    }

    /// The fine (d/dx, d/dy) of `x`, a value every lane of the quad holds (helper lanes
    /// included: the pass runs what they need in whole-quad mode).
    pub(super) fn fine_derivatives(&mut self, x: Temp) -> Result<(Temp, Temp), Error> {
        let (xl, xh) = derivative_perms(AluOp::FddxFine).expect("a derivative");
        let (yl, yh) = derivative_perms(AluOp::FddyFine).expect("a derivative");
        Ok((
            self.quad_difference(x, xl, xh)?,
            self.quad_difference(x, yl, yh)?,
        ))
    }

    /// Discard, terminate or demote of the lanes `cond` selects (all of the current
    /// region's when `None`), in a shader with a live mask.
    pub(super) fn quad_kill(&mut self, cond: Option<Value>) -> Result<(), Error> {
        let live = self.p.wqm.as_ref().expect("quad_begin").live;
        let exec = self.p.exec();
        let m = match cond {
            Some(c) => self.mask(c, 0)?,
            None => exec,
        };
        self.hw_lane(Opcode::SAndn2B32, &[Arg::Temp(live)], &[Arg::Temp(live), m])?;
        let at = self.branch(Opcode::SCbranchScc0, self.cur)?;
        self.gfx.dead_ends.push(at);
        let next = self.p.new_block(self.loop_depth);
        self.p.add_edge(self.cur, next, true);
        self.cur = next;
        self.hw_lane(Opcode::SAndB32, &[exec], &[exec, Arg::Temp(live)])?;
        Ok(())
    }

    /// `gl_HelperInvocation`: the running lanes outside the live mask.
    pub(super) fn helper_mask(&mut self) -> Result<SmallVec<[MV; 4]>, Error> {
        let live = self.p.wqm.as_ref().expect("quad_begin").live;
        let d = self.tmp(self.mask_rc());
        let exec = self.p.exec();
        self.hw_lane(Opcode::SAndn2B32, &[Arg::Temp(d)], &[exec, Arg::Temp(live)])?;
        Ok(smallvec::smallvec![MV::T(d, Kind::Mask)])
    }

    /// After the program end: the block every wave whose lanes were all discarded
    /// branches to (exec = 0, the null export, `s_endpgm`); records the end block.
    pub(super) fn quad_end(&mut self, end: crate::amdgpu::mir::BlockId) -> Result<(), Error> {
        let Some(w) = self.p.wqm.as_mut() else {
            return Ok(());
        };
        w.end = end;
        let patches = std::mem::take(&mut self.gfx.dead_ends);
        if patches.is_empty() {
            return Ok(());
        }
        let dead = self.p.new_block(0);
        for at in patches {
            self.patch(at, dead);
            self.p.add_edge(at.0, dead, false);
        }
        self.cur = dead;
        let exec = self.p.exec();
        self.hw_lane(Opcode::SMovB32, &[exec], &[Arg::Const(0)])?;
        let gfx11 = self.t().gen == Gen::Gfx11;
        // GFX11 has no null target: mrt0 with no channel enabled
        let tgt = if gfx11 { 0 } else { 9 };
        let mut mi = MInst::hw(
            Opcode::Exp,
            Format::Exp,
            &[],
            &[Arg::Imm(tgt), Arg::Off, Arg::Off, Arg::Off, Arg::Off],
        );
        mi.mods.mem.done = true;
        mi.mods.mem.vm = !gfx11;
        self.push(mi);
        self.hw(Opcode::SEndpgm, &[], &[Arg::Imm(0)])?;
        Ok(())
    }
}
