//! Common-subexpression elimination (dominator-scoped global value numbering).
//!
//! Walks the dominator tree keeping a scoped table from an instruction's content (kind
//! with operands, result type) to the first instruction computing it; an instruction
//! whose content is already in scope is replaced by that one. Only instructions that do
//! not depend on memory or invocation state ([`InstKind::can_reorder`]) take part.
//! Commutative ALU ops are keyed with their first two operands sorted, so `a+b` and
//! `b+a` share a number.

use crate::ir::*;
use std::collections::HashMap;

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        progress |= cse(f);
    }
    progress
}

fn key(f: &Function, i: Inst) -> Option<(InstKind, ValType)> {
    let d = &f.insts[i];
    if !d.kind.can_reorder() || d.ty.is_none() {
        return None;
    }
    let mut k = d.kind.clone();
    if let InstKind::Alu { op, srcs } = &mut k {
        if op.is_commutative() && srcs.len() >= 2 && srcs[1] < srcs[0] {
            srcs.swap(0, 1);
        }
    }
    Some((k, d.ty))
}

fn cse(f: &mut Function) -> bool {
    let cfg = Cfg::new(f);
    let children = cfg.dom_children();
    let Some(&entry) = cfg.order.first() else {
        return false;
    };
    let mut table: HashMap<(InstKind, ValType), Value> = HashMap::new();
    let mut map: SecondaryMap<InstData, Option<Value>> = SecondaryMap::new(None);
    let mut any = false;
    // Explicit DFS: (block, entering?) with the keys each block added.
    let mut stack: Vec<(Block, bool)> = vec![(entry, true)];
    let mut added: SecondaryMap<BlockData, Vec<(InstKind, ValType)>> =
        SecondaryMap::new(Vec::new());
    while let Some((b, enter)) = stack.pop() {
        if !enter {
            for k in std::mem::take(&mut added[b]) {
                table.remove(&k);
            }
            continue;
        }
        stack.push((b, false));
        for idx in 0..f.blocks[b].insts.len() {
            let i = f.blocks[b].insts[idx];
            // Operands first go through earlier replacements so keys match.
            let mut kind = std::mem::replace(&mut f.insts[i].kind, InstKind::Undef);
            kind.for_each_operand_mut(|v| {
                if let Some(t) = map[*v] {
                    *v = t
                }
            });
            f.insts[i].kind = kind;
            if let Some(k) = key(f, i) {
                match table.get(&k) {
                    Some(&prev) => {
                        map[i] = Some(prev);
                        any = true;
                    }
                    None => {
                        table.insert(k.clone(), i);
                        added[b].push(k);
                    }
                }
            }
        }
        for &c in children[b].iter().rev() {
            stack.push((c, true));
        }
    }
    if any {
        f.rewrite_uses(&map);
    }
    any
}
