//! Block dominance of a SPIR-V function, for the rule that every id is used only where its
//! definition dominates the use (SPIR-V 2.16 "Validation Rules": a definition must
//! dominate its uses; an `OpPhi` value must dominate the parent block it comes from).
//!
//! Design: the control-flow graph is read from the terminators (`OpBranch`,
//! `OpBranchConditional`, `OpSwitch`; merge and continue declarations are not edges);
//! immediate dominators come from the iterative algorithm of Cooper, Harvey and Kennedy
//! over reverse post-order; a depth-first walk of the dominator tree then numbers each
//! block on entry and exit, so a dominance query is two comparisons (a long chain of
//! blocks, as a long sequence of loops makes, would otherwise cost a walk up the chain per
//! use of an id). Invariants: only blocks reachable from the entry have a
//! dominator; a query about an unreachable block answers "dominated" (SPIR-V puts no
//! dominance constraint on code that never runs), so the check never rejects valid input.
//!
//! The translator asks once per operand, so a query takes positions, not labels: each
//! reachable block's reverse post-order index is written into a table indexed by label
//! id ([`Dominators::of`] fills it; labels are unique in a module, so one table serves
//! every function) and [`Dominators::dominates`] compares two indices' walk numbers.

use super::module::FuncInfo;
use super::parse::Inst;
use rspirv::dr::Operand;
use rspirv::spirv::Op;
use std::collections::BTreeMap;

/// Immediate dominators of one function's reachable blocks.
#[derive(Clone, Debug, Default)]
pub struct Dominators {
    /// Dominator-tree walk numbers by reverse post-order index: `a` dominates `b` when
    /// `b`'s (entry, exit) interval lies within `a`'s.
    enter: Vec<u32>,
    exit: Vec<u32>,
}

/// The successor labels of a block's terminator.
fn successors(term: &Inst) -> Vec<u32> {
    let ids = |from: usize| {
        term.ops
            .iter()
            .skip(from)
            .filter_map(|o| match o {
                Operand::IdRef(l) => Some(*l),
                _ => None,
            })
            .collect()
    };
    match term.op {
        Op::Branch => ids(0),
        // the condition / selector is operand 0; the labels follow (with literals between
        // them for OpSwitch, and branch weights after them for OpBranchConditional)
        Op::BranchConditional | Op::Switch => ids(1),
        _ => Vec::new(),
    }
}

impl Dominators {
    /// The dominators of `f`; writes 1 + each reachable block's reverse post-order
    /// index to `pos[label]` (the positions [`Dominators::dominates`] takes).
    pub fn of(f: &FuncInfo, insts: &[Inst], pos: &mut [u32]) -> Dominators {
        let succ = |b: u32| -> Vec<u32> {
            f.blocks
                .get(&b)
                .map(|info| successors(&insts[info.term]))
                .unwrap_or_default()
                .into_iter()
                .filter(|s| f.blocks.contains_key(s))
                .collect()
        };
        // post-order by an explicit stack (no recursion on deep input)
        let mut post = Vec::new();
        let mut seen = BTreeMap::new();
        let mut stack = vec![(f.entry, succ(f.entry), 0usize)];
        seen.insert(f.entry, ());
        while let Some((b, s, k)) = stack.last_mut() {
            if let Some(&n) = s.get(*k) {
                *k += 1;
                if seen.insert(n, ()).is_none() {
                    let ns = succ(n);
                    stack.push((n, ns, 0));
                }
            } else {
                post.push(*b);
                stack.pop();
            }
        }
        let rpo: Vec<u32> = post.into_iter().rev().collect();
        let order: BTreeMap<u32, usize> = rpo.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mut preds = vec![Vec::new(); rpo.len()];
        for (i, &b) in rpo.iter().enumerate() {
            for s in succ(b) {
                preds[order[&s]].push(i);
            }
        }
        const UNDEF: usize = usize::MAX;
        let mut idom = vec![UNDEF; rpo.len()];
        if !rpo.is_empty() {
            idom[0] = 0;
        }
        let intersect = |idom: &[usize], mut a: usize, mut b: usize| {
            while a != b {
                while a > b {
                    a = idom[a];
                }
                while b > a {
                    b = idom[b];
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for i in 1..rpo.len() {
                let mut new = UNDEF;
                for &p in &preds[i] {
                    if idom[p] == UNDEF {
                        continue;
                    }
                    new = if new == UNDEF {
                        p
                    } else {
                        intersect(&idom, p, new)
                    };
                }
                if new != idom[i] {
                    idom[i] = new;
                    changed = true;
                }
            }
        }
        for (&b, &i) in &order {
            if let Some(p) = pos.get_mut(b as usize) {
                *p = i as u32 + 1;
            }
        }
        let (enter, exit) = tree_intervals(&idom);
        Dominators { enter, exit }
    }

    /// Whether the block at position `a` dominates the one at `b` (positions as
    /// [`Dominators::of`] wrote them, 0 for an unreachable block; true when `b` is
    /// unreachable).
    pub fn dominates(&self, a: u32, b: u32) -> bool {
        if b == 0 {
            return true;
        }
        if a == 0 {
            return false;
        }
        let (ia, ib) = (a as usize - 1, b as usize - 1);
        self.enter[ia] <= self.enter[ib] && self.exit[ib] <= self.exit[ia]
    }
}

/// Entry and exit numbers of a depth-first walk (by an explicit stack) of the tree whose
/// parent links are `idom` (node 0 the root, its own parent).
fn tree_intervals(idom: &[usize]) -> (Vec<u32>, Vec<u32>) {
    let n = idom.len();
    let mut children = vec![Vec::new(); n];
    for (i, &p) in idom.iter().enumerate().skip(1) {
        // every reachable block has a dominator; a missing one would leave `i` dominated
        // only by itself
        if let Some(c) = children.get_mut(p) {
            c.push(i);
        }
    }
    let (mut enter, mut exit) = (vec![0u32; n], vec![0u32; n]);
    if n == 0 {
        return (enter, exit);
    }
    let mut clock = 0u32;
    let mut stack = vec![(0usize, 0usize)];
    enter[0] = clock;
    while let Some((node, k)) = stack.last_mut() {
        if let Some(&c) = children[*node].get(*k) {
            *k += 1;
            clock += 1;
            enter[c] = clock;
            stack.push((c, 0));
        } else {
            clock += 1;
            exit[*node] = clock;
            stack.pop();
        }
    }
    (enter, exit)
}

#[cfg(test)]
mod tests {
    use super::tree_intervals;

    /// `a` dominates `b` by the walk numbers.
    fn dom(t: &(Vec<u32>, Vec<u32>), a: usize, b: usize) -> bool {
        t.0[a] <= t.0[b] && t.1[b] <= t.1[a]
    }

    #[test]
    fn a_chain_dominates_downward_only() {
        // 0 → 1 → 2 → 3 (each the idom of the next)
        let t = tree_intervals(&[0, 0, 1, 2]);
        for a in 0..4 {
            for b in 0..4 {
                assert_eq!(dom(&t, a, b), a <= b, "{a} {b}");
            }
        }
    }

    #[test]
    fn siblings_do_not_dominate_each_other() {
        // a diamond's tree: 0 is the idom of both arms (1, 2) and of the merge (3)
        let t = tree_intervals(&[0, 0, 0, 0]);
        for (a, b) in [(1, 2), (2, 1), (1, 3), (3, 2)] {
            assert!(!dom(&t, a, b), "{a} {b}");
        }
        for b in 0..4 {
            assert!(dom(&t, 0, b) && dom(&t, b, b), "{b}");
        }
    }
}
