//! Uniformity for instruction selection: which IR values are the same in every active
//! lane (→ SGPRs, SALU) and which loops need exec-mask control flow.
//!
//! The middle-end's divergence pass is still a stub, so isel computes its own conservative
//! answer, as a side table over the function's instruction arena:
//! - constants, uniform intrinsics (`Div::Uniform`) are uniform; divergent intrinsics and
//!   scratch loads (per-lane memory) are divergent; everything else is divergent when any
//!   operand is;
//! - a phi is divergent when a source is, when it merges a divergent `if`, or when it sits
//!   in the header of (or right after) a divergent loop;
//! - every value defined inside a divergent loop is divergent: lanes leave such a loop in
//!   different iterations, so a value used after the loop must keep one copy per lane;
//! - a loop is divergent when a `break`/`continue` in it (not in an inner loop) sits under
//!   an `if` with a divergent condition, when it contains a `return` anywhere, or when it
//!   is nested in a divergent loop.
//!
//! The facts depend on each other through loop phis, so the walk repeats until nothing
//! changes; every fact only ever goes from uniform to divergent, so this terminates.

use crate::ir::{CfNode, Div, Function, InstKind, JumpKind, SecondaryMap, Value};

/// The analysis result.
pub struct Divergence {
    pub divergent: SecondaryMap<crate::ir::InstData, bool>,
    /// Divergent loops, identified by their header block.
    pub divergent_loops: Vec<crate::ir::Block>,
}

impl Divergence {
    pub fn is_divergent(&self, v: Value) -> bool {
        self.divergent[v]
    }
    pub fn loop_is_divergent(&self, header: crate::ir::Block) -> bool {
        self.divergent_loops.contains(&header)
    }
}

struct Walk<'a> {
    f: &'a Function,
    d: Divergence,
    changed: bool,
}

/// Runs the analysis on `f`.
pub fn analyze(f: &Function) -> Divergence {
    let mut w = Walk {
        f,
        d: Divergence {
            divergent: SecondaryMap::with_len(f.insts.len(), false),
            divergent_loops: Vec::new(),
        },
        changed: true,
    };
    while w.changed {
        w.changed = false;
        w.list(&f.body, false, false);
    }
    w.d
}

fn has_return(list: &[CfNode], f: &Function) -> bool {
    list.iter().any(|n| match n {
        CfNode::Block(b) => f.blocks[*b]
            .insts
            .iter()
            .any(|&i| matches!(f.kind(i), InstKind::Jump(JumpKind::Return, _))),
        CfNode::If {
            then_body,
            else_body,
            ..
        } => has_return(then_body, f) || has_return(else_body, f),
        CfNode::Loop { body, .. } => has_return(body, f),
    })
}

impl Walk<'_> {
    fn mark(&mut self, v: Value) {
        if !self.d.divergent[v] {
            self.d.divergent[v] = true;
            self.changed = true;
        }
    }

    /// Whether a break/continue of this loop level sits under a divergent if.
    fn divergent_jump(&self, list: &[CfNode], under_div_if: bool) -> bool {
        list.iter().any(|n| match n {
            CfNode::Block(b) => {
                under_div_if
                    && self.f.blocks[*b].insts.iter().any(|&i| {
                        matches!(
                            self.f.kind(i),
                            InstKind::Jump(JumpKind::Break | JumpKind::Continue, _)
                        )
                    })
            }
            CfNode::If {
                cond,
                then_body,
                else_body,
                ..
            } => {
                let u = under_div_if || self.d.divergent[*cond];
                self.divergent_jump(then_body, u) || self.divergent_jump(else_body, u)
            }
            CfNode::Loop { .. } => false,
        })
    }

    fn block(&mut self, b: crate::ir::Block, in_div_loop: bool, phis_div: bool) {
        let f = self.f;
        for &i in &f.blocks[b].insts {
            let inst = f.inst(i);
            if inst.ty.is_none() {
                continue;
            }
            let mut div = in_div_loop;
            match &inst.kind {
                InstKind::Const(_) | InstKind::Undef => {}
                InstKind::Phi(_) => {
                    div |= phis_div;
                    inst.kind.for_each_operand(|v| div |= self.d.divergent[v]);
                }
                // scratch is per-lane memory: a uniform address still reads lane data
                InstKind::Intrinsic {
                    op: crate::ir::Intrinsic::LoadScratch,
                    ..
                } => div = true,
                InstKind::Intrinsic { op, srcs, .. } => match op.divergence() {
                    Div::Uniform => {}
                    Div::Divergent => div = true,
                    Div::Srcs => srcs.iter().for_each(|&v| div |= self.d.divergent[v]),
                },
                k => k.for_each_operand(|v| div |= self.d.divergent[v]),
            }
            if div {
                self.mark(i);
            }
        }
    }

    fn list(&mut self, list: &[CfNode], in_div_loop: bool, _unused: bool) {
        let mut merge_div = false;
        for n in list {
            match n {
                CfNode::Block(b) => {
                    self.block(*b, in_div_loop, merge_div);
                    merge_div = false;
                }
                CfNode::If {
                    cond,
                    then_body,
                    else_body,
                    ..
                } => {
                    self.list(then_body, in_div_loop, false);
                    self.list(else_body, in_div_loop, false);
                    merge_div = self.d.divergent[*cond];
                }
                CfNode::Loop { body, .. } => {
                    let header = crate::ir::func::first_block(body);
                    let div = in_div_loop
                        || self.d.loop_is_divergent(header)
                        || has_return(body, self.f)
                        || self.divergent_jump(body, false);
                    if div && !self.d.loop_is_divergent(header) {
                        self.d.divergent_loops.push(header);
                        self.changed = true;
                    }
                    self.list(body, div, false);
                    merge_div = div;
                }
            }
        }
    }
}
