//! GFX11 VOPD (dual issue): two VALU operations in one instruction. Both halves read
//! their sources before either writes, so the Y half sees the X destination's old value:
//! X runs first, its destination column is saved and the old one restored while Y runs,
//! then X's result is put back (unless Y wrote the same register, which the pairing rules
//! forbid). Each `v_dual_*` half executes as its ordinary VALU opcode (`v_dual_add_f32`
//! as `v_add_f32`) with the VOPD operand layout from the table.

use crate::error::{Error, Result};
use crate::wave::{Env, Wave};
use gcnc::isa::{Field, Inst, Opcode, Operand};

/// The ordinary opcode a `v_dual_*` half executes as.
pub fn base_opcode(op: Opcode) -> Result<Opcode> {
    gcnc::isa::format::vopd::base_opcode(op).ok_or_else(|| Error::unimpl(op.name()))
}

fn vdst(inst: &Inst, d: &gcnc::isa::EncDesc) -> Option<u16> {
    match inst.get(d, Field::Vdst) {
        Some(Operand::Reg(r)) if r.base.is_vgpr() => Some(r.base.0 - 256),
        _ => None,
    }
}

pub fn exec(w: &mut Wave, inst: &Inst, env: &mut Env) -> Result<()> {
    let gen = w.t.gen;
    let (x, y) = inst
        .vopd_halves(gen)
        .map_err(|e| Error::unsupported(format!("VOPD: {e:?}")))?;
    let dx = x
        .desc(gen)
        .map_err(|e| Error::unsupported(format!("{e:?}")))?;
    let dy = y
        .desc(gen)
        .map_err(|e| Error::unsupported(format!("{e:?}")))?;
    let mut xb = x.clone();
    xb.op = base_opcode(x.op)?;
    let mut yb = y.clone();
    yb.op = base_opcode(y.op)?;
    let xd = vdst(&x, dx);
    let saved = xd.map(|n| w.regs.column(n));
    crate::valu::exec(w, &xb, dx, env)?;
    let x_result = xd.map(|n| w.regs.column(n));
    if let (Some(n), Some(old)) = (xd, saved) {
        w.regs.set_column(n, old);
    }
    crate::valu::exec(w, &yb, dy, env)?;
    if let (Some(n), Some(new)) = (xd, x_result) {
        if vdst(&y, dy) != Some(n) {
            w.regs.set_column(n, new);
        }
    }
    Ok(())
}
