//! Live-range splitting for assignment: when a temp finds no aligned hole although the
//! file has room (fragmentation), the temps occupying one aligned window are moved out of
//! the way by a parallel copy placed right before the instruction where the temp starts.
//!
//! Design: a moved temp `X` keeps its register up to the copy; the copy defines a new
//! temp `X'` in a register that is free from there on, and every later read of `X`
//! (all of them in the same block, see below) reads `X'`. Nothing else changes, so the
//! assignment's other decisions stay valid and the linear scan simply continues.
//!
//! A temp may be moved at instruction k of block B only when this is sound without new
//! phis: its hull (first to last position) ends inside B before B's last write point
//! (so it is not live-out
//! of B and every read from k on is in B), it is a single definition (not a phi web), it
//! is not a linear VGPR (whose inactive lanes matter), no instruction both reads and
//! defines it, and — for VGPRs, whose copy only moves active lanes — no instruction of B
//! from k on writes exec: the lanes that read it after k are B's, which the copy moves
//! (lanes inactive in B never read it again: on the lanes' CFG it is not live-out of B,
//! see `live`). Destination registers are free at the copy and disjoint from
//! every source, so the copy never needs a swap (and never clobbers SCC).

use super::live::Interval;
use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo, RegType, Temp};
use crate::isa::{PhysReg, Props};
use std::collections::BTreeSet;

/// A move decided during assignment: from instruction `inst` (layout index) on, `temp`
/// lives in `reg`.
#[derive(Clone, Copy, Debug)]
pub struct Split {
    pub temp: usize,
    pub inst: u32,
    pub reg: PhysReg,
}

/// Per-instruction and per-temp facts the soundness rule needs.
pub struct Facts {
    /// Block of instruction k.
    block: Vec<u32>,
    /// Write position of each block's last instruction (0 for an empty block).
    block_end: Vec<u32>,
    /// For instruction k: does some instruction from k to the end of its block write exec?
    exec_later: Vec<bool>,
    unsplittable: BTreeSet<Temp>,
}

pub fn writes_exec(i: &MInst) -> bool {
    i.defs.iter().any(
        |d| matches!(d, Arg::Reg(r) if r.base == PhysReg::EXEC_LO || r.base == PhysReg::EXEC_HI),
    ) || i
        .opcode()
        .is_some_and(|o| o.props().contains(Props::WRITES_EXEC))
}

impl Facts {
    pub fn new(p: &Program) -> Facts {
        let mut f = Facts {
            block: Vec::new(),
            block_end: Vec::new(),
            exec_later: Vec::new(),
            unsplittable: p.multi_def.clone(),
        };
        for (bi, b) in p.blocks.iter().enumerate() {
            let first = f.block.len();
            for i in &b.insts {
                f.block.push(bi as u32);
                f.exec_later.push(writes_exec(i));
                if i.op == Op::Pseudo(Pseudo::StartLinearVgpr) {
                    f.unsplittable
                        .extend(i.defs.iter().filter_map(|a| a.temp()));
                }
                for d in i.defs.iter().filter_map(|a| a.temp()) {
                    if i.ops.contains(&Arg::Temp(d)) {
                        f.unsplittable.insert(d);
                    }
                }
            }
            for k in (first..f.block.len()).rev().skip(1) {
                f.exec_later[k] |= f.exec_later[k + 1];
            }
            f.block_end.push(if f.block.len() > first {
                2 * (f.block.len() as u32 - 1) + 1
            } else {
                0
            });
        }
        f
    }

    /// May `t` (interval `iv`, class file `ty`) be moved right before instruction `k`?
    pub fn can_move(&self, t: usize, iv: Interval, ty: RegType, k: u32) -> bool {
        let Some(&b) = self.block.get(k as usize) else {
            return false;
        };
        !self.unsplittable.contains(&Temp(t as u32))
            && iv.start < 2 * k
            && iv.end >= 2 * k
            && iv.end < self.block_end[b as usize]
            && self.block[(iv.end / 2) as usize] == b
            && (ty == RegType::Sgpr || !self.exec_later[k as usize])
    }
}

/// Applies the moves to `p` and extends `assign` with the new temps' registers.
pub fn apply(p: &mut Program, splits: &[Split], assign: &mut Vec<Option<PhysReg>>) {
    if splits.is_empty() {
        return;
    }
    // layout index → (block, index in block)
    let mut at = Vec::new();
    for (bi, b) in p.blocks.iter().enumerate() {
        for k in 0..b.insts.len() {
            at.push((bi, k));
        }
    }
    let mut by_inst: Vec<Split> = splits.to_vec();
    by_inst.sort_by_key(|s| (std::cmp::Reverse(s.inst), s.temp));
    let mut k = 0;
    while k < by_inst.len() {
        let inst = by_inst[k].inst;
        let group: Vec<Split> = by_inst[k..]
            .iter()
            .take_while(|s| s.inst == inst)
            .copied()
            .collect();
        k += group.len();
        let (bi, ii) = at[inst as usize];
        let mut defs = Vec::new();
        let mut ops = Vec::new();
        for s in &group {
            let old = Temp(s.temp as u32);
            let new = p.new_temp(p.rc(old));
            assign.push(Some(s.reg));
            defs.push(Arg::Temp(new));
            ops.push(Arg::Temp(old));
            for i in &mut p.blocks[bi].insts[ii..] {
                for o in i.ops.iter_mut() {
                    if *o == Arg::Temp(old) {
                        *o = Arg::Temp(new);
                    }
                }
            }
        }
        p.blocks[bi]
            .insts
            .insert(ii, MInst::pseudo(Pseudo::ParallelCopy, &defs, &ops));
    }
}
