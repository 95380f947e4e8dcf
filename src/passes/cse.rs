//! Common-subexpression elimination (dominator-scoped global value numbering).
//!
//! Walks the dominator tree keeping a scoped table from an instruction's content (kind
//! with operands, result type) to the first instruction computing it; an instruction
//! whose content is already in scope is replaced by that one. Only instructions that do
//! not depend on memory or invocation state ([`InstKind::can_reorder`]) take part.
//! Commutative ALU ops are keyed with their first two operands sorted, so `a+b` and
//! `b+a` share a number. The `exact` flag is not part of the content: the kept instruction
//! becomes `exact` when any instruction it replaces was.
//!
//! The dominator tree comes from the function's cached CFG ([`Cfg::of`]): CSE changes no
//! control flow, so the clean-up loop's rounds share one.

use crate::ir::*;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        progress |= cse(f);
    }
    progress
}

/// Hash of an instruction's content (commutative operands in sorted order), if it may
/// take part. Equal content gives equal hashes; candidates are then compared exactly.
fn content_hash(f: &Function, i: Inst) -> Option<u64> {
    let d = &f.insts[i];
    if !d.kind.can_reorder() || d.ty.is_none() {
        return None;
    }
    let mut h = crate::ir::handle::FxHasher::default();
    d.ty.hash(&mut h);
    match &d.kind {
        InstKind::Alu { op, srcs } if op.is_commutative() && srcs.len() >= 2 => {
            op.hash(&mut h);
            let (a, b) = (srcs[0].min(srcs[1]), srcs[0].max(srcs[1]));
            a.hash(&mut h);
            b.hash(&mut h);
            srcs[2..].hash(&mut h);
        }
        k => k.hash(&mut h),
    }
    Some(h.finish())
}

/// Exact content equality (commutative ALU ops match with swapped first operands).
fn same(f: &Function, a: Inst, b: Inst) -> bool {
    let (da, db) = (&f.insts[a], &f.insts[b]);
    if da.ty != db.ty {
        return false;
    }
    match (&da.kind, &db.kind) {
        (InstKind::Alu { op: oa, srcs: sa }, InstKind::Alu { op: ob, srcs: sb })
            if oa == ob && oa.is_commutative() && sa.len() >= 2 && sa.len() == sb.len() =>
        {
            sa[2..] == sb[2..]
                && ((sa[0] == sb[0] && sa[1] == sb[1]) || (sa[0] == sb[1] && sa[1] == sb[0]))
        }
        (ka, kb) => ka == kb,
    }
}

fn cse(f: &mut Function) -> bool {
    let cfg = Cfg::of(f);
    let children = cfg.dom_children();
    let Some(&entry) = cfg.order.first() else {
        return false;
    };
    // Tables sized up front (the scalar clean-up loop runs this pass many times): one
    // allocation each instead of regrowing.
    let placed: usize = cfg.order.iter().map(|&b| f.blocks[b].insts.len()).sum();
    let mut table: HashMap<u64, SmallVec<[Value; 1]>, crate::ir::handle::FxBuild> =
        HashMap::with_capacity_and_hasher(placed, Default::default());
    let mut map: SecondaryMap<InstData, Option<Value>> =
        SecondaryMap::with_len(f.insts.len(), None);
    let mut any = false;
    // Explicit DFS: (block, where its entries start in `added` when leaving / None when
    // entering). `added` is one log of the keys the blocks on the path added, innermost last.
    let mut stack: Vec<(Block, Option<usize>)> = vec![(entry, None)];
    let mut added: Vec<u64> = Vec::with_capacity(placed);
    while let Some((b, leave)) = stack.pop() {
        if let Some(mark) = leave {
            for k in added.drain(mark..) {
                if let Some(v) = table.get_mut(&k) {
                    v.pop();
                }
            }
            continue;
        }
        stack.push((b, Some(added.len())));
        for idx in 0..f.blocks[b].insts.len() {
            let i = f.blocks[b].insts[idx];
            // Operands first go through earlier replacements so contents match.
            f.insts[i].kind.for_each_operand_mut(|v| {
                if let Some(t) = map[*v] {
                    *v = t
                }
            });
            let Some(h) = content_hash(f, i) else {
                continue;
            };
            let found = table
                .get(&h)
                .and_then(|c| c.iter().copied().find(|&p| same(f, p, i)));
            match found {
                Some(prev) => {
                    // the kept value serves the replaced one's users too: an `exact`
                    // (NoContraction) result stays unfusable
                    if f.insts[i].exact {
                        f.insts[prev].exact = true;
                    }
                    map[i] = Some(prev);
                    any = true;
                }
                None => {
                    table.entry(h).or_default().push(i);
                    added.push(h);
                }
            }
        }
        for &c in children[b].iter().rev() {
            stack.push((c, None));
        }
    }
    if any {
        f.rewrite_uses(&map);
    }
    any
}
