//! Dead-code elimination: instructions and control flow.
//!
//! 1. Liveness from roots: instructions with side effects (stores, atomics, barriers,
//!    jumps, calls, …) and `if` conditions are live; operands of live instructions are
//!    live; everything else is detached. Dead phi cycles die with it.
//! 2. Dead control flow: an `if` on a constant takes its arm (nodes after an arm that
//!    ends in a jump become unreachable and go); code after an `if` whose arms both jump
//!    away goes; an `if` whose arms are empty blocks and whose merge has no phis
//!    disappears. Phis lose the sources of vanished predecessors.

use super::cf;
use crate::ir::*;

pub fn run(m: &mut Module) -> bool {
    run_parts(m).any()
}

/// What a run of DCE changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// Dead instructions were detached (step 1).
    pub insts: bool,
    /// Control flow was simplified (step 2), with whatever that implies: phis rewritten,
    /// blocks merged, more instructions detached.
    pub control_flow: bool,
}

impl Changed {
    pub fn any(self) -> bool {
        self.insts || self.control_flow
    }
}

/// [`run`], saying which of its two steps changed the module. A run leaves nothing for a
/// second run to do (it repeats step 2 until it changes nothing, with step 1 after each
/// change): DCE is idempotent, which the clean-up loop relies on.
pub fn run_parts(m: &mut Module) -> Changed {
    let mut c = Changed::default();
    for (_, f) in m.functions.iter_mut() {
        c.insts |= dead_insts(f);
        if dead_cf(f) {
            c.control_flow = true;
            dead_insts(f);
            // Removing instructions can empty more ifs.
            while dead_cf(f) {
                dead_insts(f);
            }
        }
    }
    c
}

fn dead_insts(f: &mut Function) -> bool {
    let mut live = SecondaryMap::with_len(f.insts.len(), false);
    let mut work = Vec::new();
    visit::for_each_block(&f.body, |b| {
        for &i in &f.blocks[b].insts {
            if !f.insts[i].kind.can_eliminate() {
                live[i] = true;
                work.push(i);
            }
        }
    });
    visit::for_each_if_cond(&f.body, |c| {
        if !live[c] {
            live[c] = true;
            work.push(c);
        }
    });
    while let Some(i) = work.pop() {
        f.insts[i].kind.for_each_operand(|v| {
            if !live[v] {
                live[v] = true;
                work.push(v);
            }
        });
    }
    let mut all_live = true;
    visit::for_each_block(&f.body, |b| {
        all_live &= f.blocks[b].insts.iter().all(|&i| live[i]);
    });
    if all_live {
        return false;
    }
    // Detach the dead instructions of the tree's blocks (blocks outside the tree keep
    // theirs).
    let Function { blocks, insts, .. } = f;
    visit::for_each_block(&f.body, |b| {
        blocks[b].insts.retain(|&i| {
            live[i] || {
                insts[i].block = None;
                false
            }
        })
    });
    true
}

fn const_bool(f: &Function, v: Value) -> Option<bool> {
    f.as_scalar_const(v).map(|c| c != 0)
}

fn is_empty_arm(f: &Function, list: &[CfNode]) -> bool {
    list.len() == 1 && f.blocks[list[0].as_block().unwrap()].insts.is_empty()
}

/// Detaches every instruction of every block in `list`.
pub fn kill_list(f: &mut Function, list: &[CfNode]) {
    visit::for_each_block(list, |b| {
        for i in std::mem::take(&mut f.blocks[b].insts) {
            f.insts[i].block = None;
        }
    });
}

fn dead_cf(f: &mut Function) -> bool {
    let mut body = std::mem::take(&mut f.body);
    let mut rewrites: cf::ValueMap = SecondaryMap::new(None);
    let mut changed = false;
    visit::rewrite_lists(&mut body, &mut |list, k| {
        simplify_at(f, list, k, &mut rewrites, &mut changed)
    });
    f.body = body;
    if changed {
        f.rewrite_uses(&rewrites);
        prune_phis(f);
    }
    changed
}

/// Simplifies the `if` at position `k` of `list` (its arms are already simplified);
/// returns the position to look at next.
fn simplify_at(
    f: &mut Function,
    list: &mut Vec<CfNode>,
    k: usize,
    rw: &mut cf::ValueMap,
    changed: &mut bool,
) -> usize {
    let CfNode::If {
        cond,
        then_body,
        else_body,
        ..
    } = &list[k]
    else {
        return k + 1;
    };
    let cond = rw[*cond].unwrap_or(*cond);
    let merge = list[k + 1].as_block().unwrap();
    if let Some(c) = const_bool(f, cond) {
        let (taken, other) = if c {
            (then_body.clone(), else_body.clone())
        } else {
            (else_body.clone(), then_body.clone())
        };
        kill_list(f, &other);
        let taken_end = func::last_block(&taken);
        let ends_in_jump = f.block_jump(taken_end).is_some();
        // Merge phis take the taken arm's value.
        let phis: Vec<Inst> = f.blocks[merge]
            .insts
            .iter()
            .copied()
            .take_while(|&i| f.insts[i].kind.is_phi())
            .collect();
        for p in phis {
            if let InstKind::Phi(srcs) = &f.insts[p].kind {
                if let Some(&(_, v)) = srcs.iter().find(|s| s.0 == taken_end) {
                    rw[p] = Some(v);
                } else {
                    let ty = f.insts[p].ty;
                    f.insts[p].kind = InstKind::Undef;
                    let _ = ty;
                }
            }
            if rw[p].is_some() {
                f.remove(p);
            }
        }
        list.splice(k..k + 1, taken);
        if ends_in_jump {
            // Everything after the arm's jump is unreachable.
            let pos = list
                .iter()
                .position(|n| n.as_block() == Some(taken_end))
                .unwrap();
            let rest: Vec<CfNode> = list.drain(pos + 1..).collect();
            kill_list(f, &rest);
        }
        cf::merge_adjacent_blocks(f, list);
        *changed = true;
        return 0;
    }
    // Both arms jump away: everything after the if is unreachable.
    let ends_in_jump = |l: &[CfNode]| f.block_jump(func::last_block(l)).is_some();
    if ends_in_jump(then_body) && ends_in_jump(else_body) {
        let has_code = k + 2 < list.len() || !f.blocks[merge].insts.is_empty();
        if has_code {
            let rest: Vec<CfNode> = list.drain(k + 1..).collect();
            kill_list(f, &rest);
            list.push(CfNode::Block(merge));
            *changed = true;
        }
        return k + 1;
    }
    let merge_has_phis = f.blocks[merge]
        .insts
        .first()
        .is_some_and(|&i| f.insts[i].kind.is_phi());
    if is_empty_arm(f, then_body) && is_empty_arm(f, else_body) && !merge_has_phis {
        list.remove(k);
        cf::merge_adjacent_blocks(f, list);
        *changed = true;
        return 0;
    }
    k + 1
}

/// Drops phi sources from blocks that are no longer (reachable) predecessors; a phi left
/// with no sources becomes undef.
pub fn prune_phis(f: &mut Function) {
    let cfg = Cfg::of(f);
    for &b in &cfg.order {
        let preds = &cfg.preds[b];
        for k in 0..f.blocks[b].insts.len() {
            let i = f.blocks[b].insts[k];
            let InstKind::Phi(srcs) = &mut f.insts[i].kind else {
                break;
            };
            srcs.retain(|s| preds.contains(&s.0) && cfg.reachable[s.0]);
            if srcs.is_empty() {
                f.insts[i].kind = InstKind::Undef;
            }
        }
        // Undefs must not sit among phis' position rules: move them after the phis.
        let is_phi = |i: &Inst| f.insts[*i].kind.is_phi();
        if !f.blocks[b]
            .insts
            .iter()
            .skip_while(|i| is_phi(i))
            .any(is_phi)
        {
            continue;
        }
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let (mut phis, rest): (Vec<Inst>, Vec<Inst>) =
            insts.into_iter().partition(|&i| f.insts[i].kind.is_phi());
        phis.extend(rest);
        f.blocks[b].insts = phis;
    }
}
