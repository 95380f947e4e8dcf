//! Divergence (uniformity) analysis: which values may differ between the invocations of
//! a subgroup. The result is a side table isel consumes — uniform values live in SGPRs,
//! ifs on uniform conditions become scalar branches instead of exec-mask updates.
//!
//! Rules (forward data flow to a fixpoint, values only become divergent):
//! * constants and undef are uniform; ALU ops, swizzles, derefs and texture ops are
//!   divergent when a source is; intrinsics follow their table class (system values
//!   such as the local invocation id are divergent, subgroup reductions and ballots are
//!   uniform, loads depend on their address); loads of per-invocation memory (input,
//!   output, function, private, scratch) are divergent; calls are divergent.
//! * A phi is divergent when a source is, or when the paths it joins split under a
//!   divergent condition: the merge of an `if` on a divergent condition, the header of a
//!   loop with a `continue` under divergent control, the block after a loop with a `break`
//!   under divergent control.
//! * A value defined inside a loop with a divergent break, used after that loop, is
//!   divergent at the use (invocations left the loop in different iterations).
//!
//! Instructions without a result are not classified (always reported uniform).
//! "Under divergent control" means: some `if` between the jump and its loop has a
//! divergent condition.

use crate::ir::*;

/// Divergence facts for one function.
#[derive(Clone, Debug)]
pub struct FunctionDivergence {
    /// Whether each value may differ between invocations of a subgroup.
    pub values: SecondaryMap<InstData, bool>,
}

impl FunctionDivergence {
    #[inline]
    pub fn is_divergent(&self, v: Value) -> bool {
        self.values[v]
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

#[derive(Clone, Debug)]
struct LoopInfo {
    parent: Option<usize>,
    div_break: bool,
    div_cont: bool,
}

struct Jump {
    kind: JumpKind,
    lp: usize,
    conds: Vec<Value>,
}

#[derive(Default)]
struct Structure {
    loops: Vec<LoopInfo>,
    loop_of: SecondaryMap<BlockData, Option<usize>>,
    merge_cond: SecondaryMap<BlockData, Option<Value>>,
    header_of: SecondaryMap<BlockData, Option<usize>>,
    exit_of: SecondaryMap<BlockData, Option<usize>>,
    jumps: Vec<Jump>,
}

impl Default for LoopInfo {
    fn default() -> Self {
        LoopInfo {
            parent: None,
            div_break: false,
            div_cont: false,
        }
    }
}

fn scan(
    f: &Function,
    s: &mut Structure,
    list: &[CfNode],
    lp: Option<usize>,
    conds: &mut Vec<Value>,
) {
    for (k, n) in list.iter().enumerate() {
        match n {
            CfNode::Block(b) => {
                s.loop_of[*b] = lp;
                if let Some((kind, _)) = f.block_jump(*b) {
                    if let (Some(l), true) = (lp, kind != JumpKind::Return) {
                        s.jumps.push(Jump {
                            kind,
                            lp: l,
                            conds: conds.clone(),
                        });
                    }
                }
            }
            CfNode::If {
                cond,
                then_body,
                else_body,
                ..
            } => {
                if let Some(m) = list.get(k + 1).and_then(CfNode::as_block) {
                    s.merge_cond[m] = Some(*cond);
                }
                conds.push(*cond);
                scan(f, s, then_body, lp, conds);
                scan(f, s, else_body, lp, conds);
                conds.pop();
            }
            CfNode::Loop { body, .. } => {
                let id = s.loops.len();
                s.loops.push(LoopInfo {
                    parent: lp,
                    ..Default::default()
                });
                s.header_of[func::first_block(body)] = Some(id);
                if let Some(e) = list.get(k + 1).and_then(CfNode::as_block) {
                    s.exit_of[e] = Some(id);
                }
                // Conditions outside the loop do not make its jumps divergent.
                let mut inner = Vec::new();
                scan(f, s, body, Some(id), &mut inner);
            }
        }
    }
}

/// Analyses one function.
pub fn analyze_function(f: &Function) -> FunctionDivergence {
    let mut s = Structure::default();
    let mut conds = Vec::new();
    scan(f, &mut s, &f.body, None, &mut conds);
    let order = f.insts_in_order();
    let mut div: SecondaryMap<InstData, bool> = SecondaryMap::with_len(f.insts.len(), false);
    let is_ancestor = |s: &Structure, anc: usize, mut l: Option<usize>| {
        while let Some(x) = l {
            if x == anc {
                return true;
            }
            l = s.loops[x].parent;
        }
        false
    };
    let mut changed = true;
    while changed {
        changed = false;
        for j in &s.jumps {
            let d = j.conds.iter().any(|&c| div[c]);
            let l = &mut s.loops[j.lp];
            match j.kind {
                JumpKind::Break if d && !l.div_break => {
                    l.div_break = true;
                    changed = true;
                }
                JumpKind::Continue if d && !l.div_cont => {
                    l.div_cont = true;
                    changed = true;
                }
                _ => {}
            }
        }
        for &i in &order {
            if div[i] || f.insts[i].ty.is_none() {
                continue;
            }
            let b = f.insts[i].block.unwrap();
            let user_loop = s.loop_of[b];
            // Divergence of operand `v` as seen from block `b`.
            let src_div = |v: Value| -> bool {
                if div[v] {
                    return true;
                }
                let Some(db) = f.insts[v].block else {
                    return false;
                };
                let mut l = s.loop_of[db];
                while let Some(x) = l {
                    if is_ancestor(&s, x, user_loop) {
                        break;
                    }
                    if s.loops[x].div_break {
                        return true;
                    }
                    l = s.loops[x].parent;
                }
                false
            };
            let any_src = |kind: &InstKind| {
                let mut d = false;
                kind.for_each_operand(|v| d |= src_div(v));
                d
            };
            let d = match &f.insts[i].kind {
                InstKind::Const(_) | InstKind::Undef => false,
                InstKind::Phi(srcs) => {
                    srcs.iter().any(|&(_, v)| src_div(v))
                        || s.merge_cond[b].is_some_and(|c| div[c])
                        || s.header_of[b].is_some_and(|l| s.loops[l].div_cont)
                        || s.exit_of[b].is_some_and(|l| s.loops[l].div_break)
                }
                InstKind::Intrinsic {
                    op: Intrinsic::Reduce,
                    idx,
                    ..
                } if idx[1] != 0 => {
                    // A clustered reduction is uniform per cluster only.
                    any_src(&f.insts[i].kind)
                }
                InstKind::Intrinsic { op, srcs, .. } => {
                    let per_invocation_mem = match op {
                        Intrinsic::LoadDeref => match &f.insts[srcs[0]].kind {
                            InstKind::Deref(d) => matches!(
                                d.mode,
                                Mode::Input | Mode::Output | Mode::Function | Mode::Private
                            ),
                            _ => true,
                        },
                        Intrinsic::LoadScratch => true,
                        _ => false,
                    };
                    per_invocation_mem
                        || match op.divergence() {
                            Div::Uniform => false,
                            Div::Divergent => true,
                            Div::Srcs => any_src(&f.insts[i].kind),
                        }
                }
                InstKind::Call { .. } => true,
                InstKind::Jump(..) => false,
                k => any_src(k),
            };
            if d {
                div[i] = true;
                changed = true;
            }
        }
    }
    FunctionDivergence { values: div }
}

/// Divergence is an analysis; as a "pass" it changes nothing.
pub fn run(_m: &mut Module) -> bool {
    false
}
