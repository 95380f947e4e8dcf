//! Address-offset folding on machine SSA (before register allocation): a memory access
//! whose address VGPR is `x + c` (a VALU add of a constant) reads `x` instead and adds `c`
//! to its immediate offset field, while the sum stays within the field. The add itself
//! stays; when nothing else reads it, `eliminate_dead_code` removes it.
//!
//! Where: MUBUF accesses with `offen` and no `idxen` (the address VGPR is the byte offset,
//! the 12-bit unsigned `offset` is added to it) and DS accesses of LDS with one 16-bit
//! `offset` (not the two-address `offset0/offset1` forms, not `ds_swizzle`, whose offset
//! is a pattern; `ds_permute`/`ds_bpermute` add their offset to the lane address too).
//! Chains `(x + c1) + c2` fold in one go. The field's range is the generation's
//! (`GenInfo::mubuf_offset_max`, `GenInfo::ds_offset_max`).
//!
//! When it is sound (what is checked):
//! - the add is the generation's carry-less `VAddU32` with no modifiers, one constant and
//!   one VGPR temp operand, and defines a single-definition temp (not `multi_def`);
//! - `x` has one definition too, so in SSA it dominates the add and hence the access, and
//!   every lane the access runs in read `x` when the add ran;
//! - the hardware forms `address + offset` itself. The one difference is a 32-bit wrap of
//!   `x + c`: that address is far outside any buffer or LDS, where the robust-access rules
//!   already leave the result undefined (RADV's ACO folds the same constants).
//!
//! Invariant: the program stays valid MIR; linear in the number of instructions.

use crate::amdgpu::mir::{Arg, MInst, Op, Program, RegClass, Temp};
use crate::isa::tables::{self, Field, MemFlags, Props};
use crate::isa::{Format, Gen, Opcode};

/// The explicit source slot of `i`'s address VGPR and the largest offset its field holds,
/// when `i` is an access this pass may fold into.
fn address_slot(i: &MInst, gen: Gen) -> Option<(usize, u32)> {
    let Op::Hw(op, fmt) = i.op else {
        return None;
    };
    let info = gen.info();
    let (field, max) = match fmt {
        Format::Mubuf if i.mods.mem.offen && !i.mods.mem.idxen => {
            (Field::Vaddr, info.mubuf_offset_max)
        }
        Format::Ds => {
            if !op.props_on(gen).contains(Props::LDS) {
                return None;
            }
            (Field::Addr, info.ds_offset_max)
        }
        _ => return None,
    };
    let d = tables::form(gen, op, fmt)?;
    if fmt == Format::Ds && (!d.mem.contains(MemFlags::OFFSET) || d.mem.contains(MemFlags::SWIZZLE))
    {
        return None;
    }
    let slot = d
        .explicit()
        .filter(|o| !o.is_def())
        .position(|o| o.field == field)?;
    Some((slot, max))
}

/// Folds constant address adds into offset fields; returns how many accesses changed.
pub fn fold_address_offsets(p: &mut Program) -> u32 {
    let gen = p.target.gen;
    let Some(add) = Opcode::VAddU32.on(gen) else {
        return 0;
    };
    let n = p.temps.len();
    let mut defs = vec![0u8; n];
    // `t = x + c` for each temp defined by a foldable add.
    let mut sum: Vec<Option<(Temp, u32)>> = vec![None; n];
    for b in &p.blocks {
        for i in &b.insts {
            for a in &i.defs {
                if let Arg::Temp(t) = a {
                    defs[t.0 as usize] = defs[t.0 as usize].saturating_add(1);
                }
            }
            if i.opcode() != Some(add)
                || i.defs.len() != 1
                || i.ops.len() != 2
                || i.mods != Default::default()
            {
                continue;
            }
            let Arg::Temp(d) = i.defs[0] else { continue };
            let xc = match (i.ops[0], i.ops[1]) {
                (Arg::Const(c), Arg::Temp(x)) | (Arg::Temp(x), Arg::Const(c)) => (x, c),
                _ => continue,
            };
            if p.rc(xc.0) == RegClass::V1 {
                sum[d.0 as usize] = Some(xc);
            }
        }
    }
    let single = |t: Temp| defs[t.0 as usize] == 1 && !p.multi_def.contains(&t);
    let mut folded = 0;
    for b in &mut p.blocks {
        for i in &mut b.insts {
            let Some((slot, max)) = address_slot(i, gen) else {
                continue;
            };
            let Arg::Temp(mut va) = i.ops[slot] else {
                continue;
            };
            let Ok(mut offset) = u32::try_from(i.mods.mem.offset) else {
                continue;
            };
            let start = va;
            while let Some((x, c)) = sum[va.0 as usize] {
                let total = offset as u64 + c as u64;
                if !single(va) || !single(x) || total > max as u64 {
                    break;
                }
                va = x;
                offset = total as u32;
            }
            if va != start {
                i.ops[slot] = Arg::Temp(va);
                i.mods.mem.offset = offset as i32;
                folded += 1;
            }
        }
    }
    folded
}
