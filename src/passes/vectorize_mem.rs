//! Combines adjacent 32-bit loads into vector loads (up to 4 dwords), so the back-end
//! issues one `buffer_load_dwordx4` instead of four `buffer_load_dword`s.
//!
//! Within a block, loads of the same kind from the same buffer whose offsets are the same
//! base value plus constants are grouped; runs of loads covering consecutive dwords merge
//! into one load placed before the earliest of them, and each original load becomes a
//! swizzle of it (constant data, `load_constant`, groups like UBO loads). Loads of mutable
//! memory (SSBO, global) are only grouped between
//! instructions with side effects (stores, atomics, barriers). Shared and scratch loads
//! are left alone: their wide forms need more than dword alignment, which the offsets
//! do not prove.

use super::scalarize_mem::{mem_access, split_offset, MemAccess};
use crate::ir::*;
use std::collections::HashMap;

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        let mut rw = SecondaryMap::new(None);
        let mut changed = false;
        for b in f.blocks_in_order() {
            changed |= vectorize_block(f, &mut rw, b);
        }
        if changed {
            f.rewrite_uses(&rw);
            progress = true;
        }
    }
    progress
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    op: Intrinsic,
    res: Option<Value>,
    base: Option<Value>,
    /// Indices other than alignment (base, range, access).
    other: SmallVec<[u32; 4]>,
    segment: u32,
}

struct Entry {
    inst: Inst,
    pos: usize,
    off: u64,
    comps: u8,
}

fn vectorize_block(
    f: &mut Function,
    rw: &mut SecondaryMap<InstData, Option<Value>>,
    b: Block,
) -> bool {
    let insts = f.blocks[b].insts.clone();
    let mut groups: HashMap<Key, Vec<Entry>> = HashMap::new();
    let mut key_order: Vec<Key> = Vec::new();
    let mut segment = 0u32;
    for (pos, &i) in insts.iter().enumerate() {
        if !f.insts[i].kind.can_eliminate() {
            segment += 1;
            continue;
        }
        let Some(MemAccess {
            op,
            is_store: false,
            res,
            off,
            ..
        }) = mem_access(f, i)
        else {
            continue;
        };
        let ty = f.insts[i].ty;
        // LDS and scratch wide accesses want more than dword alignment; only buffer and
        // global loads are combined.
        if ty.bits != 32
            || ty.comps > 3
            || matches!(op, Intrinsic::LoadShared | Intrinsic::LoadScratch)
        {
            continue;
        }
        let (base, c) = split_offset(f, off);
        let InstKind::Intrinsic { idx, .. } = &f.insts[i].kind else {
            unreachable!()
        };
        let other: SmallVec<[u32; 4]> = op
            .indices()
            .iter()
            .zip(idx.iter())
            .filter(|((n, _), _)| *n != "align")
            .map(|(_, &x)| x)
            .collect();
        let mutable = !matches!(
            op,
            Intrinsic::LoadUbo | Intrinsic::LoadPushConstant | Intrinsic::LoadConstant
        );
        let key = Key {
            op,
            res,
            base,
            other,
            segment: if mutable { segment } else { 0 },
        };
        let e = groups.entry(key.clone()).or_insert_with(|| {
            key_order.push(key.clone());
            Vec::new()
        });
        e.push(Entry {
            inst: i,
            pos,
            off: c,
            comps: ty.comps,
        });
    }
    let mut changed = false;
    for key in key_order {
        let mut es = groups.remove(&key).unwrap();
        es.sort_by_key(|e| (e.off, e.pos));
        let mut k = 0;
        while k < es.len() {
            let mut end = k + 1;
            let mut total = es[k].comps as u64;
            while end < es.len()
                && es[end].off == es[k].off + 4 * total
                && total + es[end].comps as u64 <= 4
            {
                total += es[end].comps as u64;
                end += 1;
            }
            if end - k >= 2 {
                merge_run(f, rw, &key, &es[k..end], total as u8);
                changed = true;
            }
            k = end;
        }
    }
    changed
}

fn merge_run(
    f: &mut Function,
    rw: &mut SecondaryMap<InstData, Option<Value>>,
    key: &Key,
    run: &[Entry],
    total: u8,
) {
    let first = run.iter().min_by_key(|e| e.pos).unwrap().inst;
    let lowest = &run[0];
    let template = f.insts[lowest.inst].kind.clone();
    let InstKind::Intrinsic {
        op, mut srcs, idx, ..
    } = template
    else {
        unreachable!()
    };
    let offk = match mem_access(f, lowest.inst) {
        Some(a) => a.off_src,
        None => return,
    };
    // Offset of the lowest load, rebuilt before the earliest one.
    let off = match key.base {
        None => f.insert_before(
            first,
            InstKind::Const(smallvec::smallvec![lowest.off & 0xffff_ffff]),
            ValType::U32,
        ),
        Some(bv) if lowest.off == 0 => bv,
        Some(bv) => {
            let bt = f.insts[bv].ty;
            let c = f.insert_before(first, InstKind::Const(smallvec::smallvec![lowest.off]), bt);
            f.insert_before(
                first,
                InstKind::Alu {
                    op: AluOp::Iadd,
                    srcs: smallvec::smallvec![bv, c],
                },
                bt,
            )
        }
    };
    srcs[offk] = off;
    let wide = f.insert_before(
        first,
        InstKind::Intrinsic { op, srcs, idx },
        ValType::new(32, total),
    );
    let mut at = 0u8;
    for e in run {
        let comps: SmallVec<[u8; 4]> = (at..at + e.comps).collect();
        at += e.comps;
        let sw = f.insert_before(
            first,
            InstKind::Swizzle { src: wide, comps },
            ValType::new(32, e.comps),
        );
        rw[e.inst] = Some(sw);
    }
    for e in run {
        f.remove(e.inst);
    }
}
