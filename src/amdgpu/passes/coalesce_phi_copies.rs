//! Phi-copy coalescing on machine SSA (before register allocation): where a block ends
//! by copying a value it computed into a phi web (`W = S` in a `p_parallelcopy`, `W` in
//! `Program::multi_def`), the instruction that computes `S` writes `W` directly and the
//! copy pair disappears. The typical case is a loop counter: `%s = s_add_u32 %w, 1` …
//! `%w = p_parallelcopy %s` becomes `%w = s_add_u32 %w, 1`. Register allocation gives a
//! web one register for its whole hull, so without this the increment needs a second
//! register and a move on every iteration.
//!
//! Design: one count of the reads of every temp, then one walk per block remembering
//! where each temp of the block was defined and, per temp, the last position in the
//! block that reads or writes it. Linear in the program.
//!
//! When the rewrite is sound (what is checked), for a pair `W = S` of the copy at index
//! `c` of block B, `S` defined at index `i < c` of B:
//! - `W` is a phi web: every other definition of it is a parallel copy (or one this pass
//!   made); it joins `Program::untied`, since the defining instruction may read it too;
//! - `S` has one definition, no fixed register, the class of `W`, and every read of `S`
//!   is in B after `i`, up to the copy, which reads it once (those reads now read `W`,
//!   which holds the same value there);
//! - `W` has no fixed register and is neither read nor written strictly between `i` and
//!   `c`, nor read by another pair of the copy: its old value is dead from `i` on (every
//!   path from `i` reaches `c` in the same block, where `W` was overwritten anyway);
//! - the defining instruction is no scalar memory load reading `W` (its destination is
//!   early-clobber);
//! - for a VGPR, nothing from `i` to `c` writes exec, so the definition writes the lanes
//!   the copy would have written.
//!
//! Fragment shaders under whole-quad mode are left alone (`insert_wqm` reasons about the
//! temps it was given).

use crate::amdgpu::mir::{Arg, Op, Program, Pseudo, RegType, Temp};
use crate::amdgpu::regalloc::split::writes_exec;
use crate::isa::Format;

pub fn coalesce_phi_copies(p: &mut Program) {
    if p.wqm.is_some() || p.multi_def.is_empty() {
        return;
    }
    let n = p.temps.len();
    let mut reads = vec![0u32; n];
    // phi webs: multi-definition temps defined by parallel copies only (the others are
    // tied operands and accumulations that selection built on purpose)
    let mut web = vec![false; n];
    for &t in &p.multi_def {
        web[t.0 as usize] = true;
    }
    for b in &p.blocks {
        for i in &b.insts {
            for t in i.ops.iter().filter_map(|a| a.temp()) {
                reads[t.0 as usize] += 1;
            }
            if i.op != Op::Pseudo(Pseudo::ParallelCopy) {
                for t in i.defs.iter().filter_map(|a| a.temp()) {
                    web[t.0 as usize] &= p.untied.contains(&t);
                }
            }
        }
    }
    const NONE: u32 = u32::MAX;
    // per temp: index of its definition in the current block, the last index before the
    // current one that touches it, and the number of its reads in the block after its
    // definition; `seen` says which block the entries belong to
    let mut def_at = vec![NONE; n];
    let mut last_touch = vec![NONE; n];
    let mut reads_after_def = vec![0u32; n];
    let mut seen = vec![NONE; n];
    let fixed = |t: Temp, p: &Program| p.precolored.contains_key(&t);
    for bi in 0..p.blocks.len() {
        let mut exec_at: Vec<u32> = Vec::new(); // indices writing exec
        let mut k = 0;
        while k < p.blocks[bi].insts.len() {
            let inst = &p.blocks[bi].insts[k];
            let mut renames: Vec<(usize, Temp, Temp)> = Vec::new(); // (def index, S, W)
            if inst.op == Op::Pseudo(Pseudo::ParallelCopy) {
                for (pair, (d, o)) in inst.defs.iter().zip(&inst.ops).enumerate() {
                    let (Some(w), Some(s)) = (d.temp(), o.temp()) else {
                        continue;
                    };
                    let (wu, su) = (w.0 as usize, s.0 as usize);
                    let ok = web[wu]
                        && !p.multi_def.contains(&s)
                        && !fixed(w, p)
                        && !fixed(s, p)
                        && p.rc(w) == p.rc(s)
                        && seen[su] == bi as u32
                        && def_at[su] != NONE
                        && reads[su] == reads_after_def[su] + 1
                        && inst.ops.iter().filter(|a| **a == Arg::Temp(s)).count() == 1
                        && !inst
                            .ops
                            .iter()
                            .enumerate()
                            .any(|(q, a)| q != pair && *a == Arg::Temp(w))
                        && (seen[wu] != bi as u32
                            || last_touch[wu] == NONE
                            || last_touch[wu] <= def_at[su]);
                    if !ok {
                        continue;
                    }
                    let i = def_at[su] as usize;
                    let di = &p.blocks[bi].insts[i];
                    if matches!(di.op, Op::Hw(_, Format::Smem)) && di.ops.contains(&Arg::Temp(w)) {
                        continue;
                    }
                    if p.rc(w).ty == RegType::Vgpr && exec_at.iter().any(|&e| e as usize >= i) {
                        continue;
                    }
                    // one web per source, one source per web in this copy
                    if renames.iter().any(|&(_, s2, w2)| s2 == s || w2 == w) {
                        continue;
                    }
                    renames.push((i, s, w));
                }
            }
            if !renames.is_empty() {
                for &(i, s, w) in &renames {
                    let b = &mut p.blocks[bi];
                    for a in b.insts[i].defs.iter_mut() {
                        if *a == Arg::Temp(s) {
                            *a = Arg::Temp(w);
                        }
                    }
                    for inst in &mut b.insts[i + 1..k] {
                        for a in inst.ops.iter_mut() {
                            if *a == Arg::Temp(s) {
                                *a = Arg::Temp(w);
                            }
                        }
                    }
                    p.untied.insert(w);
                    // W now defined at i and read up to the copy
                    last_touch[w.0 as usize] = (k as u32 - 1).max(i as u32);
                    seen[w.0 as usize] = bi as u32;
                }
                let c = &mut p.blocks[bi].insts[k];
                let keep: Vec<bool> = c
                    .defs
                    .iter()
                    .map(|d| !renames.iter().any(|&(_, _, w)| *d == Arg::Temp(w)))
                    .collect();
                let mut q = 0;
                c.defs.retain(|_| {
                    q += 1;
                    keep[q - 1]
                });
                let mut q = 0;
                c.ops.retain(|_| {
                    q += 1;
                    keep[q - 1]
                });
                if c.defs.is_empty() {
                    p.blocks[bi].insts.remove(k);
                    continue;
                }
            }
            // record this instruction's touches
            let inst = &p.blocks[bi].insts[k];
            if writes_exec(inst) {
                exec_at.push(k as u32);
            }
            for t in inst.ops.iter().filter_map(|a| a.temp()) {
                let tu = t.0 as usize;
                if seen[tu] != bi as u32 {
                    seen[tu] = bi as u32;
                    def_at[tu] = NONE;
                    reads_after_def[tu] = 0;
                }
                last_touch[tu] = k as u32;
                if def_at[tu] != NONE {
                    reads_after_def[tu] += 1;
                }
            }
            for t in inst.defs.iter().filter_map(|a| a.temp()) {
                let tu = t.0 as usize;
                if seen[tu] != bi as u32 {
                    seen[tu] = bi as u32;
                    reads_after_def[tu] = 0;
                }
                def_at[tu] = k as u32;
                reads_after_def[tu] = 0;
                last_touch[tu] = k as u32;
            }
            k += 1;
        }
    }
}
