//! Promotes function and private variables to SSA values (Cytron et al.: phis at the
//! iterated dominance frontier of the stores, renaming along the dominator tree).
//!
//! A variable is promotable when every deref rooted at it indexes with constants only
//! (struct members, constant array indices — so constant-indexed arrays split into one
//! SSA value per element — and at most a final vector component) and is used only as
//! the parent of another such deref or as the address of `load_deref`/`store_deref`.
//! Each distinct constant access path to a scalar/vector leaf becomes a *slot*. A load of
//! a vector component is a swizzle of the slot's value; a store to a component, or with
//! a partial write mask, rebuilds the vector with `vec`. Reads before any write see
//! `undef`. Phis are pruned: a block of the iterated frontier gets a slot's phi only when
//! the slot is live on entry to it (a read of the slot, a load or a store keeping part of
//! the old vector, reachable from the block's start without passing a store), so no phi
//! is made that nothing could read — unpruned, the inlined functions' locals made
//! thousands of dead phis per real-world shader for DCE to remove (ggml's
//! `rms_norm_mul_rope`: 23,145 made, 180 kept). Promoted variables, their derefs, loads and stores disappear; a private
//! variable is only promoted when a single function uses it. The per-slot lists (store
//! blocks, dominance frontiers, rename stacks) are scratch in a bump arena.

use crate::ir::*;
use bumpalo::collections::Vec as BVec;
use bumpalo::Bump;
use std::collections::HashMap;

pub fn run(m: &mut Module) -> bool {
    // Private variables used by exactly one function.
    let mut users: HashMap<Var, Vec<Func>> = HashMap::new();
    for (fh, f) in m.functions.iter() {
        for i in f.insts_in_order() {
            if let InstKind::Deref(Deref {
                kind: DerefKind::Var(v),
                ..
            }) = f.insts[i].kind
            {
                let u = users.entry(v).or_default();
                if !u.contains(&fh) {
                    u.push(fh);
                }
            }
        }
    }
    let mut progress = false;
    let handles: Vec<Func> = m.functions.handles().collect();
    // Per-slot scratch lists live in one arena, reset between functions.
    let mut bump = Bump::new();
    for fh in handles {
        bump.reset();
        let promotable = |v: Var, vars: &Arena<Variable>| match vars[v].mode {
            Mode::Function => true,
            Mode::Private => users.get(&v).is_some_and(|u| u.len() == 1),
            _ => false,
        };
        let promoted = {
            let Module {
                functions,
                vars,
                types,
                ..
            } = &mut *m;
            promote(&bump, &mut functions[fh], types, &|v| promotable(v, vars))
        };
        if !promoted.is_empty() {
            progress = true;
            let mut gone: SecondaryMap<Variable, bool> = SecondaryMap::new(false);
            for &v in &promoted {
                gone[v] = true;
            }
            m.functions[fh].locals.retain(|&v| !gone[v]);
            m.globals.retain(|&v| !gone[v]);
        }
    }
    progress
}

#[derive(Clone, Debug)]
struct Access {
    var: Var,
    path: SmallVec<[u32; 4]>,
    /// Final vector component, if the chain ends in one.
    comp: Option<u8>,
}

fn promote(
    bump: &Bump,
    f: &mut Function,
    types: &TypeArena,
    promotable: &dyn Fn(Var) -> bool,
) -> Vec<Var> {
    let order = f.insts_in_order();
    let mut acc: SecondaryMap<InstData, Option<Access>> = SecondaryMap::new(None);
    let mut bad: HashMap<Var, bool> = HashMap::new();
    let mut seen_vars: Vec<Var> = Vec::new();
    let mut seen: SecondaryMap<Variable, bool> = SecondaryMap::new(false);
    // 1. Access paths of derefs rooted at candidate variables.
    for &i in &order {
        let InstKind::Deref(d) = &f.insts[i].kind else {
            continue;
        };
        let a = match d.kind {
            DerefKind::Var(v) => {
                if !promotable(v) {
                    continue;
                }
                if !seen[v] {
                    seen[v] = true;
                    seen_vars.push(v);
                }
                Some(Access {
                    var: v,
                    path: SmallVec::new(),
                    comp: None,
                })
            }
            DerefKind::Struct { parent, member } => acc[parent].clone().map(|mut a| {
                if a.comp.is_some() {
                    bad.insert(a.var, true);
                }
                a.path.push(member);
                a
            }),
            DerefKind::Array { parent, index } => match acc[parent].clone() {
                None => None,
                Some(mut a) => {
                    let parent_ty = match &f.insts[parent].kind {
                        InstKind::Deref(pd) => pd.ty,
                        _ => unreachable!(),
                    };
                    match f.as_scalar_const(index) {
                        Some(c) if a.comp.is_none() => {
                            if matches!(types.kind(parent_ty), TypeKind::Vector { .. }) {
                                a.comp = Some(c as u8);
                            } else {
                                a.path.push(c as u32);
                            }
                        }
                        _ => {
                            bad.insert(a.var, true);
                        }
                    }
                    Some(a)
                }
            },
            DerefKind::PtrAsArray { parent, .. } | DerefKind::Cast { parent, .. } => {
                if let Some(a) = &acc[parent] {
                    bad.insert(a.var, true);
                }
                None
            }
        };
        acc[i] = a;
    }
    // 2. Every use of such a deref must be a deref step, or a load/store address.
    for &i in &order {
        let kind = &f.insts[i].kind;
        let mut check = |v: Value, ok: bool| {
            if let Some(a) = &acc[v] {
                if !ok {
                    bad.insert(a.var, true);
                }
            }
        };
        match kind {
            InstKind::Deref(d) => match d.kind {
                DerefKind::Array { parent, index } => {
                    check(parent, true);
                    check(index, false);
                }
                DerefKind::Struct { parent, .. } => check(parent, true),
                DerefKind::PtrAsArray { parent, index, .. } => {
                    check(parent, false);
                    check(index, false);
                }
                DerefKind::Cast { parent, .. } => check(parent, false),
                DerefKind::Var(_) => {}
            },
            InstKind::Intrinsic {
                op: Intrinsic::LoadDeref,
                srcs,
                ..
            } => check(srcs[0], true),
            InstKind::Intrinsic {
                op: Intrinsic::StoreDeref,
                srcs,
                ..
            } => {
                check(srcs[0], true);
                check(srcs[1], false);
            }
            _ => kind.for_each_operand(|v| check(v, false)),
        }
    }
    let promote_vars: Vec<Var> = seen_vars
        .into_iter()
        .filter(|v| !bad.get(v).copied().unwrap_or(false))
        .collect();
    if promote_vars.is_empty() {
        return promote_vars;
    }
    let mut promoted: SecondaryMap<Variable, bool> = SecondaryMap::new(false);
    for &v in &promote_vars {
        promoted[v] = true;
    }
    // 3. Slots: one per (variable, path) that is loaded or stored.
    let mut slots: HashMap<(Var, SmallVec<[u32; 4]>), usize> = HashMap::new();
    let mut slot_ty: Vec<ValType> = Vec::new();
    let mut slot_of: SecondaryMap<InstData, Option<(usize, Option<u8>)>> = SecondaryMap::new(None);
    let mut def_blocks: Vec<BVec<Block>> = Vec::new();
    let mut use_blocks: Vec<BVec<Block>> = Vec::new();
    for &i in &order {
        let (is_store, d) = match &f.insts[i].kind {
            InstKind::Intrinsic {
                op: Intrinsic::LoadDeref,
                srcs,
                ..
            } => (false, srcs[0]),
            InstKind::Intrinsic {
                op: Intrinsic::StoreDeref,
                srcs,
                ..
            } => (true, srcs[0]),
            _ => continue,
        };
        let Some(a) = &acc[d] else { continue };
        if !promoted[a.var] {
            continue;
        }
        // The slot's type: the whole vector for component accesses.
        let vty = if a.comp.is_some() {
            // Parent of the component deref is the vector.
            let InstKind::Deref(cd) = &f.insts[d].kind else {
                unreachable!()
            };
            let p = cd.kind.parent().unwrap();
            match &f.insts[p].kind {
                InstKind::Deref(pd) => types.value_type(pd.ty).unwrap(),
                _ => unreachable!(),
            }
        } else {
            let InstKind::Deref(dd) = &f.insts[d].kind else {
                unreachable!()
            };
            match types.value_type(dd.ty) {
                Some(t) => t,
                None => continue,
            }
        };
        let key = (a.var, a.path.clone());
        let s = *slots.entry(key).or_insert_with(|| {
            slot_ty.push(vty);
            def_blocks.push(BVec::new_in(bump));
            use_blocks.push(BVec::new_in(bump));
            slot_ty.len() - 1
        });
        slot_of[i] = Some((s, a.comp));
        let b = f.insts[i].block.unwrap();
        // A load, or a store that keeps part of the old value, reads the slot; it is an
        // upward-exposed read when no store to the slot precedes it in its block.
        let reads = !is_store || a.comp.is_some() || {
            let full = (1u32 << slot_ty[s].comps) - 1;
            let InstKind::Intrinsic { idx, .. } = &f.insts[i].kind else {
                unreachable!()
            };
            idx[0] & full != full
        };
        // instructions come in program order, block by block, so a block already listed
        // is the last one
        if reads && def_blocks[s].last() != Some(&b) && use_blocks[s].last() != Some(&b) {
            use_blocks[s].push(b);
        }
        if is_store && def_blocks[s].last() != Some(&b) {
            def_blocks[s].push(b);
        }
    }
    let nslots = slot_ty.len();
    // 4. Phi placement at iterated dominance frontiers.
    let cfg = Cfg::of(f);
    let mut df: SecondaryMap<BlockData, BVec<Block>> = SecondaryMap::new(BVec::new_in(bump));
    for &b in &cfg.order {
        if !cfg.reachable[b] || cfg.preds[b].len() < 2 {
            continue;
        }
        let idom = cfg.idom[b];
        for &p in cfg.preds[b].iter() {
            if !cfg.reachable[p] {
                continue;
            }
            let mut r = p;
            while Some(r) != idom {
                // `b` is pushed only in this iteration, so it is last when present
                if df[r].last() != Some(&b) {
                    df[r].push(b);
                }
                match cfg.idom[r] {
                    Some(x) => r = x,
                    None => break,
                }
            }
        }
    }
    let mut block_phis: SecondaryMap<BlockData, Vec<(usize, Inst)>> = SecondaryMap::new(Vec::new());
    // the last slot given a phi in each block, and the blocks given phis
    let mut has_phi: SecondaryMap<BlockData, usize> = SecondaryMap::new(usize::MAX);
    let mut phi_blocks: Vec<Block> = Vec::new();
    let mut defines: SecondaryMap<BlockData, usize> = SecondaryMap::new(usize::MAX);
    // the last slot found live on entry to each block
    let mut live_in: SecondaryMap<BlockData, usize> = SecondaryMap::new(usize::MAX);
    let mut work: Vec<Block> = Vec::new();
    for s in 0..nslots {
        for &b in def_blocks[s].iter() {
            defines[b] = s;
        }
        // Blocks the slot is live into: back from its upward-exposed reads, through
        // predecessors, stopping at blocks that store it.
        work.clear();
        for &b in use_blocks[s].iter() {
            live_in[b] = s;
            work.push(b);
        }
        while let Some(b) = work.pop() {
            for &p in cfg.preds[b].iter() {
                if live_in[p] != s && defines[p] != s {
                    live_in[p] = s;
                    work.push(p);
                }
            }
        }
        // Iterated dominance frontier of the stores (the whole frontier is walked: a
        // phi counts as a store of the slot), with a phi only where the slot is live
        // (pruned SSA): a phi elsewhere would have no reader.
        work.clear();
        work.extend(def_blocks[s].iter().copied());
        while let Some(b) = work.pop() {
            for &y in df[b].iter() {
                if has_phi[y] == s {
                    continue;
                }
                has_phi[y] = s;
                if defines[y] != s {
                    work.push(y);
                }
                if live_in[y] != s {
                    continue;
                }
                let phi = f.alloc_detached(InstKind::Phi(SmallVec::new()), slot_ty[s]);
                if block_phis[y].is_empty() {
                    phi_blocks.push(y);
                }
                block_phis[y].push((s, phi));
            }
        }
    }
    // each block's new phis go first, the latest placed first
    for &y in &phi_blocks {
        let old = std::mem::take(&mut f.blocks[y].insts);
        let mut list = Vec::with_capacity(old.len() + block_phis[y].len());
        for &(_, phi) in block_phis[y].iter().rev() {
            f.insts[phi].block = Some(y);
            list.push(phi);
        }
        list.extend(old);
        f.blocks[y].insts = list;
    }
    // 5. Rename along the dominator tree.
    let entry = cfg.order[0];
    let mut undefs: Vec<Option<Value>> = vec![None; nslots];
    let mut cur: Vec<BVec<Value>> = (0..nslots).map(|_| BVec::new_in(bump)).collect();
    let mut map: SecondaryMap<InstData, Option<Value>> = SecondaryMap::new(None);
    let mut dead: SecondaryMap<InstData, bool> = SecondaryMap::with_len(f.insts.len(), false);
    let children = cfg.dom_children();
    let mut stack: Vec<(Block, bool)> = vec![(entry, true)];
    let mut pushed: SecondaryMap<BlockData, Vec<usize>> = SecondaryMap::new(Vec::new());
    // (load or store, new instruction before it), placed after the walk
    let mut before: Vec<(Inst, Inst)> = Vec::new();
    let get_cur = |f: &mut Function,
                   s: usize,
                   cur: &Vec<BVec<Value>>,
                   undefs: &mut Vec<Option<Value>>|
     -> Value {
        if let Some(&v) = cur[s].last() {
            return v;
        }
        *undefs[s].get_or_insert_with(|| f.insert_after_phis(entry, InstKind::Undef, slot_ty[s]))
    };
    while let Some((b, enter)) = stack.pop() {
        if !enter {
            for s in std::mem::take(&mut pushed[b]) {
                cur[s].pop();
            }
            continue;
        }
        stack.push((b, false));
        for &(s, phi) in &block_phis[b].clone() {
            cur[s].push(phi);
            pushed[b].push(s);
        }
        let insts = f.blocks[b].insts.clone();
        for i in insts {
            let Some((s, comp)) = slot_of[i] else {
                continue;
            };
            match f.insts[i].kind.clone() {
                InstKind::Intrinsic {
                    op: Intrinsic::LoadDeref,
                    ..
                } => {
                    let v = get_cur(f, s, &cur, &mut undefs);
                    let r = match comp {
                        None => v,
                        Some(c) => {
                            let r = f.alloc_detached(
                                InstKind::Swizzle {
                                    src: v,
                                    comps: smallvec::smallvec![c],
                                },
                                slot_ty[s].with_comps(1),
                            );
                            before.push((i, r));
                            r
                        }
                    };
                    map[i] = Some(r);
                    dead[i] = true;
                }
                InstKind::Intrinsic {
                    op: Intrinsic::StoreDeref,
                    srcs,
                    idx,
                } => {
                    let val = srcs[1];
                    let st = slot_ty[s];
                    let full = (1u32 << st.comps) - 1;
                    let mask = idx[0] & full;
                    let new = if comp.is_none() && mask == full {
                        val
                    } else {
                        let old = get_cur(f, s, &cur, &mut undefs);
                        let mut parts: SmallVec<[Value; 4]> = SmallVec::new();
                        for k in 0..st.comps {
                            let from_new = match comp {
                                Some(c) => k == c,
                                None => mask & (1 << k) != 0,
                            };
                            let (src, sc) = match (from_new, comp) {
                                (true, Some(_)) => (val, 0),
                                (true, None) => (val, k),
                                (false, _) => (old, k),
                            };
                            let part = if f.insts[src].ty.comps == 1 {
                                src
                            } else {
                                let r = f.alloc_detached(
                                    InstKind::Swizzle {
                                        src,
                                        comps: smallvec::smallvec![sc],
                                    },
                                    st.with_comps(1),
                                );
                                before.push((i, r));
                                r
                            };
                            parts.push(part);
                        }
                        if parts.len() == 1 {
                            parts[0]
                        } else {
                            let r = f.alloc_detached(
                                InstKind::Alu {
                                    op: AluOp::Vec,
                                    srcs: parts.into_iter().collect(),
                                },
                                st,
                            );
                            before.push((i, r));
                            r
                        }
                    };
                    cur[s].push(new);
                    pushed[b].push(s);
                    dead[i] = true;
                }
                _ => {}
            }
        }
        for &succ in cfg.succs[b].iter() {
            for &(s, phi) in &block_phis[succ].clone() {
                let v = get_cur(f, s, &cur, &mut undefs);
                if let InstKind::Phi(srcs) = &mut f.insts[phi].kind {
                    srcs.push((b, v));
                }
            }
        }
        for &c in children[b].iter().rev() {
            stack.push((c, true));
        }
    }
    f.place_before(&before);
    // Unreachable blocks: loads read undef, stores vanish.
    for &b in &cfg.order {
        if cfg.reachable[b] {
            continue;
        }
        for i in f.blocks[b].insts.clone() {
            if let Some((s, comp)) = slot_of[i] {
                if matches!(
                    f.insts[i].kind,
                    InstKind::Intrinsic {
                        op: Intrinsic::LoadDeref,
                        ..
                    }
                ) {
                    let ty = if comp.is_some() {
                        slot_ty[s].with_comps(1)
                    } else {
                        slot_ty[s]
                    };
                    let u = f.insert_before(i, InstKind::Undef, ty);
                    map[i] = Some(u);
                }
                dead[i] = true;
            }
        }
    }
    // Derefs of promoted variables go too (all their uses were loads/stores/derefs).
    for &i in &order {
        if let Some(a) = &acc[i] {
            if promoted[a.var] {
                dead[i] = true;
            }
        }
    }
    f.rewrite_uses(&map);
    f.remove_all(&dead);
    promote_vars
}
