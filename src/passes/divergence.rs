//! Divergence (uniformity) analysis: which values may differ between the invocations of
//! a subgroup, and which loops the invocations may leave in different iterations. It is
//! the one analysis of the compiler: instruction selection consumes it (uniform values
//! live in SGPRs, ifs on uniform conditions become scalar branches, divergent loops keep
//! exec masks) and `gcnc ir --divergence` and the filetests print it.
//!
//! Rules (forward data flow to a fixpoint; facts only go from uniform to divergent):
//! * constants and undef are uniform; ALU ops, swizzles, derefs and texture ops are
//!   divergent when a source is; intrinsics follow their table class (system values
//!   such as the local invocation id are divergent, subgroup reductions and ballots are
//!   uniform, loads depend on their address); a clustered reduction is uniform per cluster
//!   only, so it follows its source; loads of per-invocation memory (input, output,
//!   function, private, scratch) are divergent; calls are divergent.
//! * A phi is divergent when a source is, or when it sits right after an `if` on a
//!   divergent condition or right after a divergent loop.
//! * A loop is divergent when a `break`/`continue` of it (not of an inner loop) sits under
//!   an `if` with a divergent condition inside it, when it contains a `return`, or when it
//!   is nested in a divergent loop.
//! * **Every value defined in a divergent loop is divergent.** Invocations leave such a loop
//!   in different iterations, so a value carried out of it must keep one copy per
//!   invocation from its definition on: the IR has no loop-closed (LCSSA) phis at which a
//!   per-iteration-uniform value could be copied out per invocation. This is coarser than
//!   "uniform within an iteration", and it is what makes SGPR allocation sound for values
//!   that live out of the loop.
//!
//! Instructions without a result are not classified (always reported uniform).

use crate::ir::*;

/// Divergence facts for one function.
#[derive(Clone, Debug)]
pub struct FunctionDivergence {
    /// Whether each value may differ between invocations of a subgroup.
    pub values: SecondaryMap<InstData, bool>,
    /// Whether each loop, keyed by its header (first) block, is divergent.
    pub loops: SecondaryMap<BlockData, bool>,
}

impl FunctionDivergence {
    #[inline]
    pub fn is_divergent(&self, v: Value) -> bool {
        self.values[v]
    }
    /// Whether the loop whose first block is `header` may be left by the invocations in
    /// different iterations.
    #[inline]
    pub fn loop_is_divergent(&self, header: Block) -> bool {
        self.loops[header]
    }
}

/// Divergence facts for a module, per function.
#[derive(Clone, Debug)]
pub struct Divergence {
    pub functions: SecondaryMap<Function, Option<FunctionDivergence>>,
}

impl Divergence {
    pub fn is_divergent(&self, f: Func, v: Value) -> bool {
        self.functions[f].as_ref().is_some_and(|d| d.values[v])
    }
}

/// Analyses every function of the module.
pub fn analyze(m: &Module) -> Divergence {
    let mut functions = SecondaryMap::new(None);
    for (fh, f) in m.functions.iter() {
        functions[fh] = Some(analyze_function(f));
    }
    Divergence { functions }
}

/// Analyses one function.
pub fn analyze_function(f: &Function) -> FunctionDivergence {
    let mut w = Walk {
        f,
        d: FunctionDivergence {
            values: SecondaryMap::with_len(f.insts.len(), false),
            loops: SecondaryMap::with_len(f.blocks.len(), false),
        },
        changed: true,
    };
    // Facts depend on each other through loop phis: repeat until nothing changes.
    while w.changed {
        w.changed = false;
        w.list(&f.body, false);
    }
    w.d
}

struct Walk<'a> {
    f: &'a Function,
    d: FunctionDivergence,
    changed: bool,
}

impl Walk<'_> {
    fn mark(&mut self, v: Value) {
        if !self.d.values[v] {
            self.d.values[v] = true;
            self.changed = true;
        }
    }

    /// Whether a break/continue of this loop level sits under a divergent `if`.
    fn divergent_jump(&self, list: &[CfNode], under_div_if: bool) -> bool {
        list.iter().any(|n| match n {
            CfNode::Block(b) => {
                under_div_if
                    && matches!(
                        self.f.block_jump(*b),
                        Some((JumpKind::Break | JumpKind::Continue, _))
                    )
            }
            CfNode::If {
                cond,
                then_body,
                else_body,
                ..
            } => {
                let u = under_div_if || self.d.values[*cond];
                self.divergent_jump(then_body, u) || self.divergent_jump(else_body, u)
            }
            CfNode::Loop { .. } => false,
        })
    }

    /// Whether a load reads per-invocation memory.
    fn per_invocation_load(&self, op: Intrinsic, srcs: &[Value]) -> bool {
        match op {
            Intrinsic::LoadDeref => match &self.f.insts[srcs[0]].kind {
                InstKind::Deref(d) => matches!(
                    d.mode,
                    Mode::Input | Mode::Output | Mode::Function | Mode::Private
                ),
                _ => true,
            },
            Intrinsic::LoadScratch => true,
            _ => false,
        }
    }

    fn block(&mut self, b: Block, in_div_loop: bool, merge_div: bool) {
        let f = self.f;
        for &i in &f.blocks[b].insts {
            let inst = &f.insts[i];
            if inst.ty.is_none() || self.d.values[i] {
                continue;
            }
            let any_src = |d: &FunctionDivergence| {
                let mut div = false;
                inst.kind.for_each_operand(|v| div |= d.values[v]);
                div
            };
            let div = in_div_loop
                || match &inst.kind {
                    InstKind::Const(_) | InstKind::Undef => false,
                    InstKind::Phi(_) => merge_div || any_src(&self.d),
                    InstKind::Intrinsic {
                        op: Intrinsic::Reduce,
                        idx,
                        ..
                    } if idx.get(1).is_some_and(|&c| c != 0) => any_src(&self.d),
                    // subpassLoad reads at the invocation's pixel, whatever its operands
                    InstKind::Intrinsic {
                        op: Intrinsic::ImageLoad,
                        idx,
                        ..
                    } if idx
                        .first()
                        .and_then(|&d| crate::ir::Dim::ALL.get(d as usize))
                        == Some(&crate::ir::Dim::SubpassData) =>
                    {
                        true
                    }
                    InstKind::Intrinsic { op, srcs, .. } => {
                        self.per_invocation_load(*op, srcs)
                            || match op.divergence() {
                                Div::Uniform => false,
                                Div::Divergent => true,
                                Div::Srcs => any_src(&self.d),
                            }
                    }
                    InstKind::Call { .. } => true,
                    _ => any_src(&self.d),
                };
            if div {
                self.mark(i);
            }
        }
    }

    fn list(&mut self, list: &[CfNode], in_div_loop: bool) {
        // Whether the phis of the next block merge invocations that took different paths.
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
                    self.list(then_body, in_div_loop);
                    self.list(else_body, in_div_loop);
                    merge_div = self.d.values[*cond];
                }
                CfNode::Loop { body, .. } => {
                    let header = func::first_block(body);
                    let div = in_div_loop
                        || self.d.loops[header]
                        || super::cf::has_jump(self.f, body, JumpKind::Return)
                        || self.divergent_jump(body, false);
                    if div && !self.d.loops[header] {
                        self.d.loops[header] = true;
                        self.changed = true;
                    }
                    self.list(body, div);
                    merge_div = div;
                }
            }
        }
    }
}

/// Divergence is an analysis; as a "pass" it changes nothing.
pub fn run(_m: &mut Module) -> bool {
    false
}
