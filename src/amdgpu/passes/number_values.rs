//! Local value numbering on machine SSA (before register allocation): an instruction that
//! computes what an earlier one of its block already computed is deleted and its readers
//! read the earlier result.
//!
//! Where duplicates come from: each selection routine legalises its own operands, so
//! several VALU readers of one SGPR on GFX9 (constant-bus limit 1) each copy it with its
//! own `v_mov_b32`; each image instruction builds its coordinate tuple with its own
//! `p_create_vector`. The middle end's CSE sees none of these.
//!
//! What is merged: real ALU instructions (SALU, VALU) and the pseudos `p_create_vector`
//! and `p_split_vector` with the same opcode, encoding, operands, modifiers and result
//! classes as an earlier one in the same block, reading at least one temp or computed by
//! the SALU (`s_mov_b32 s, 0xaaaaaaab`: GFX9 VOP3 literals in SGPRs, one per block).
//! Never merged: VGPR constant materialisations (`v_mov_b32 v, 5`: one VGPR would hold
//! the constant across the block), memory accesses,
//! branches, anything that reads or writes SCC, VCC or M0 implicitly or writes exec (every
//! VALU instruction reads exec), cross-lane operations, instructions with a
//! physical-register operand or result, definitions the program names
//! elsewhere (precoloured, multi-definition phi webs, untied, whole-quad-mode seeds), and
//! readers of a multi-definition temp (its value differs between its definitions).
//!
//! Why per block: a VALU result is only defined in the lanes active when it was computed.
//! Exec changes only where a block starts or ends (the selector's `s_and_saveexec`, merges
//! and loop exits), so within a block every later reader runs under the same exec as the
//! first computation; the table is also cleared at any instruction that writes exec.
//!
//! Invariant: SSA is kept (the kept definition precedes the deleted one, so it precedes
//! every reader); one hash-map lookup per candidate instruction, one rename pass.

use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo, RegClass, Temp};
use crate::isa::tables::Props;
use crate::isa::Mods;
use smallvec::SmallVec;
use std::collections::HashMap;

type Key = (Op, SmallVec<[Arg; 4]>, Mods, SmallVec<[RegClass; 2]>);

/// Deletes instructions that recompute a value of their block; returns how many.
pub fn number_values(p: &mut Program) -> u32 {
    let n = p.temps.len();
    let mut named = vec![false; n];
    for t in p
        .precolored
        .keys()
        .chain(p.multi_def.iter())
        .chain(p.untied.iter())
    {
        named[t.0 as usize] = true;
    }
    if let Some(w) = &p.wqm {
        for t in w.seeds.iter().chain(std::iter::once(&w.live)) {
            named[t.0 as usize] = true;
        }
    }
    let mut rename: Vec<Option<Temp>> = vec![None; n];
    let mut removed = 0;
    // one table for the whole program, emptied per block (FxHash: the keys are ours)
    let mut seen: HashMap<Key, SmallVec<[Temp; 2]>, crate::ir::handle::FxBuild> =
        HashMap::default();
    for b in 0..p.blocks.len() {
        seen.clear();
        let insts = std::mem::take(&mut p.blocks[b].insts);
        let mut kept = Vec::with_capacity(insts.len());
        for mut i in insts {
            for a in i.ops.iter_mut() {
                if let Arg::Temp(t) = a {
                    if let Some(r) = rename[t.0 as usize] {
                        *t = r;
                    }
                }
            }
            if writes_exec(&i) {
                seen.clear();
            }
            let Some(key) = key(p, &i, &named) else {
                kept.push(i);
                continue;
            };
            let defs: SmallVec<[Temp; 2]> = i.defs.iter().filter_map(|d| d.temp()).collect();
            match seen.get(&key) {
                Some(first) => {
                    for (d, f) in defs.iter().zip(first) {
                        rename[d.0 as usize] = Some(*f);
                    }
                    removed += 1;
                }
                None => {
                    seen.insert(key, defs);
                    kept.push(i);
                }
            }
        }
        p.blocks[b].insts = kept;
    }
    if removed > 0 {
        // readers in earlier blocks (values carried around a loop into a phi web copy)
        for blk in &mut p.blocks {
            for i in &mut blk.insts {
                for a in i.ops.iter_mut() {
                    if let Arg::Temp(t) = a {
                        if let Some(r) = rename[t.0 as usize] {
                            *t = r;
                        }
                    }
                }
            }
        }
    }
    removed
}

fn writes_exec(i: &MInst) -> bool {
    i.opcode()
        .is_some_and(|o| o.props().contains(Props::WRITES_EXEC))
        || i.defs.iter().any(|d| matches!(d, Arg::Reg(_)))
}

/// The value `i` computes, when it may be merged with an identical one.
fn key(p: &Program, i: &MInst, named: &[bool]) -> Option<Key> {
    match i.op {
        Op::Pseudo(Pseudo::CreateVector | Pseudo::SplitVector) => {}
        Op::Pseudo(_) => return None,
        Op::Hw(o, _) => {
            let pr = o.props();
            if !pr.intersects(Props::SALU | Props::VALU)
                || pr.intersects(
                    Props::SMEM
                        | Props::VMEM
                        | Props::LDS
                        | Props::EXPORT
                        | Props::BRANCH
                        | Props::BARRIER
                        | Props::WAITCNT
                        | Props::READS_SCC
                        | Props::WRITES_SCC
                        | Props::READS_VCC
                        | Props::WRITES_VCC
                        | Props::WRITES_EXEC
                        | Props::READS_M0
                        | Props::WRITES_M0
                        | Props::CROSS_LANE
                        | Props::LANE_SELECT
                        | Props::MOVREL
                        | Props::WRITES_HWREG
                        | Props::CACHE_INV
                        | Props::ATOMIC
                        | Props::GFX9_LDS_M0,
                )
            {
                return None;
            }
        }
    }
    let def_ok = |a: &Arg| matches!(a, Arg::Temp(t) if !named[t.0 as usize]);
    let op_ok = |a: &Arg| match a {
        Arg::Temp(t) => !p.multi_def.contains(t),
        Arg::Const(_) | Arg::Imm(_) | Arg::Symbol(_) => true,
        _ => false,
    };
    if i.defs.is_empty() || !i.defs.iter().all(def_ok) || !i.ops.iter().all(op_ok) {
        return None;
    }
    // a VGPR constant materialisation stays per reader: merged, one register would hold
    // it across the block (a table of constants written to LDS kept hundreds of VGPRs
    // live). A SALU one is merged: GFX9's VOP3 literals arrive in SGPRs (selection's
    // legalisation), and under pressure the allocator rematerialises an SGPR constant
    // before it spills anything (`regalloc::spill::remat_def`)
    let salu = matches!(i.op, Op::Hw(o, _) if o.props().contains(Props::SALU));
    if !salu && !i.ops.iter().any(|a| matches!(a, Arg::Temp(_))) {
        return None;
    }
    let classes = i
        .defs
        .iter()
        .filter_map(|d| d.temp())
        .map(|t| p.rc(t))
        .collect();
    Some((i.op, i.ops.clone(), i.mods, classes))
}
