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
//!   divergent condition or right after a divergent loop. A loop header's phi is divergent
//!   too when a `continue` of that loop sits under an `if` with a divergent condition:
//!   invocations then arrive at the header along different paths in the same iteration.
//!   Except right after a divergent `if`: when the phi's sources are one computation on
//!   uniform operands — the same value, or the same ALU op on the same operands, as
//!   `a * 3` written once per arm — every path brings the same value and the phi stays
//!   uniform (`same_computation`). Never at a loop header (nor after a divergent loop):
//!   a uniform phi lives in one SGPR that every predecessor's copy writes, and with exec
//!   masking the `continue` block's copy runs on the linear path *before* the rest of the
//!   iteration, which still reads the header phi's old value — the copy would overwrite it
//!   (tests/backend/loop_divergent_continue.ir). After an `if` the phi has no older value
//!   to overwrite: both arms' copies write the same value before anything reads it.
//! * A loop is divergent when a `break`/`continue` of it (not of an inner loop) sits under
//!   an `if` with a divergent condition inside it, when it contains a `return`, or when it
//!   is nested in a divergent loop.
//! * **A value defined in a divergent loop and read outside it (by an instruction or as an
//!   `if` condition) is divergent.** Invocations leave such a loop in different
//!   iterations, so each must keep the value of the iteration it left in: the IR has no
//!   loop-closed (LCSSA) phis at which a per-iteration-uniform value could be copied out
//!   per invocation, so the value itself lives in a VGPR, whose lanes of the invocations
//!   that left are not written again (a phi after the loop reads its source at the exit:
//!   outside). Inside the loop the invocations still running agree on a value computed
//!   from uniform values in the same iteration (a divergent `break` only removes
//!   invocations), so such a value — a loop counter not read after the loop — stays
//!   uniform there. That holds for constants, phis, swizzles and the 32-bit integer and
//!   boolean ALU ops the scalar unit computes ([`scalar_in_divergent_loop`]); every other
//!   value of a divergent loop stays divergent: after every invocation has broken out,
//!   the rest of the iteration still runs with no invocation active, where a uniform
//!   value computed on the VALU and read back (`v_readfirstlane`) would be stale, and a
//!   scalar load at an address made from it could fault.
//! * Every value defined in a loop that contains a `return` is divergent (the returned
//!   value leaves the loop through the return, in different iterations).
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
        enclosing: SecondaryMap::with_len(f.blocks.len(), Vec::new()),
    };
    enclose(&f.body, &mut Vec::new(), &mut w.enclosing);
    // Facts depend on each other through loop phis: repeat until nothing changes.
    while w.changed {
        w.changed = false;
        w.list(&f.body, false, false, Merge::No);
        w.live_out_of_divergent_loops();
    }
    w.d
}

/// Records the loop headers enclosing each block of `list` (`outer` enclose the list).
fn enclose(list: &[CfNode], outer: &mut Vec<Block>, out: &mut SecondaryMap<BlockData, Vec<Block>>) {
    for n in list {
        match n {
            CfNode::Block(b) => out[*b] = outer.clone(),
            CfNode::If {
                then_body,
                else_body,
                ..
            } => {
                enclose(then_body, outer, out);
                enclose(else_body, outer, out);
            }
            CfNode::Loop { body, .. } => {
                outer.push(func::first_block(body));
                enclose(body, outer, out);
                outer.pop();
            }
        }
    }
}

/// Calls `read` on each `if` condition of `list` with the loop headers enclosing the `if`
/// (`outer` enclose the list).
fn if_conditions(list: &[CfNode], outer: &mut Vec<Block>, read: &mut impl FnMut(Value, &[Block])) {
    for n in list {
        match n {
            CfNode::Block(_) => {}
            CfNode::If {
                cond,
                then_body,
                else_body,
                ..
            } => {
                read(*cond, outer);
                if_conditions(then_body, outer, read);
                if_conditions(else_body, outer, read);
            }
            CfNode::Loop { body, .. } => {
                outer.push(func::first_block(body));
                if_conditions(body, outer, read);
                outer.pop();
            }
        }
    }
}

struct Walk<'a> {
    f: &'a Function,
    d: FunctionDivergence,
    changed: bool,
    /// The header blocks of the loops enclosing each block, outermost first.
    enclosing: SecondaryMap<BlockData, Vec<Block>>,
}

impl Walk<'_> {
    fn mark(&mut self, v: Value) {
        if !self.d.values[v] {
            self.d.values[v] = true;
            self.changed = true;
        }
    }

    /// Marks the values defined in a divergent loop that an instruction or an `if`
    /// condition outside it reads.
    fn live_out_of_divergent_loops(&mut self) {
        let f = self.f;
        let mut out = Vec::new();
        // `v` read where the loops `here` enclose
        let mut read = |v: Value, here: &[Block]| {
            if self.d.values[v] {
                return;
            }
            let Some(db) = f.insts[v].block else { return };
            if self.enclosing[db]
                .iter()
                .any(|h| self.d.loops[*h] && !here.contains(h))
            {
                out.push(v);
            }
        };
        for (b, bd) in f.blocks.iter() {
            for &i in &bd.insts {
                f.insts[i]
                    .kind
                    .for_each_operand(|v| read(v, &self.enclosing[b]));
            }
        }
        let mut here = Vec::new();
        if_conditions(&f.body, &mut here, &mut read);
        for v in out {
            self.mark(v);
        }
    }

    /// Whether a jump of `kinds` of this loop level sits under a divergent `if`.
    fn divergent_jump(&self, list: &[CfNode], under_div_if: bool, kinds: &[JumpKind]) -> bool {
        list.iter().any(|n| match n {
            CfNode::Block(b) => {
                under_div_if
                    && self
                        .f
                        .block_jump(*b)
                        .is_some_and(|(k, _)| kinds.contains(&k))
            }
            CfNode::If {
                cond,
                then_body,
                else_body,
                ..
            } => {
                let u = under_div_if || self.d.values[*cond];
                self.divergent_jump(then_body, u, kinds) || self.divergent_jump(else_body, u, kinds)
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

    /// `in_div_loop`: the block is in a divergent loop; `in_ret_loop`: in a loop that
    /// contains a `return`.
    fn block(&mut self, b: Block, in_div_loop: bool, in_ret_loop: bool, merge: Merge) {
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
            let div = in_ret_loop
                || (in_div_loop && !scalar_in_divergent_loop(f, inst))
                || match &inst.kind {
                    InstKind::Const(_) | InstKind::Undef => false,
                    InstKind::Phi(srcs) => {
                        any_src(&self.d)
                            || match merge {
                                Merge::No => false,
                                Merge::Divergent => true,
                                Merge::Paths => !same_computation(f, srcs),
                            }
                    }
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

    /// `entry_merge`: how the phis of the list's first block merge invocations (a loop
    /// header with a divergent `continue`: `Merge::Divergent`).
    fn list(&mut self, list: &[CfNode], in_div_loop: bool, in_ret_loop: bool, entry_merge: Merge) {
        // How the phis of the next block merge invocations.
        let mut merge = entry_merge;
        for n in list {
            match n {
                CfNode::Block(b) => {
                    self.block(*b, in_div_loop, in_ret_loop, merge);
                    merge = Merge::No;
                }
                CfNode::If {
                    cond,
                    then_body,
                    else_body,
                    ..
                } => {
                    self.list(then_body, in_div_loop, in_ret_loop, Merge::No);
                    self.list(else_body, in_div_loop, in_ret_loop, Merge::No);
                    merge = if self.d.values[*cond] {
                        Merge::Paths
                    } else {
                        Merge::No
                    };
                }
                CfNode::Loop { body, .. } => {
                    let header = func::first_block(body);
                    let ret = in_ret_loop || super::cf::has_jump(self.f, body, JumpKind::Return);
                    let div = in_div_loop
                        || ret
                        || self.d.loops[header]
                        || self.divergent_jump(body, false, &[JumpKind::Break, JumpKind::Continue]);
                    if div && !self.d.loops[header] {
                        self.d.loops[header] = true;
                        self.changed = true;
                    }
                    let continue_div = self.divergent_jump(body, false, &[JumpKind::Continue]);
                    let entry = if continue_div {
                        Merge::Divergent
                    } else {
                        Merge::No
                    };
                    self.list(body, div, ret, entry);
                    merge = if div { Merge::Divergent } else { Merge::No };
                }
            }
        }
    }
}

/// How the phis of a block merge the invocations that reach it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Merge {
    /// All arrive along one path (or the branch before was uniform).
    No,
    /// Along different paths in the same iteration, right after an `if` on a divergent
    /// condition: uniform when the sources are one computation.
    Paths,
    /// In different iterations (after a divergent loop), or at a loop header with a
    /// divergent `continue`: always divergent (see the module doc).
    Divergent,
}

/// Whether the phi sources `srcs` are one computation: the same value, or ALU
/// instructions of one op and type on the same operands. The sources being uniform,
/// invocations arriving along different paths in the same iteration then bring the same
/// value (each path computed it from the same uniform operands, which dominate both paths
/// and so were computed by every invocation in this iteration).
fn same_computation(f: &Function, srcs: &[(Block, Value)]) -> bool {
    let mut vals = srcs.iter().map(|&(_, v)| v);
    let Some(v0) = vals.next() else {
        return true;
    };
    let (k0, t0) = (&f.insts[v0].kind, f.insts[v0].ty);
    vals.all(|v| {
        v == v0
            || f.insts[v].ty == t0
                && matches!(
                    (k0, &f.insts[v].kind),
                    (InstKind::Alu { op: a, srcs: x }, InstKind::Alu { op: b, srcs: y })
                        if a == b && x == y
                )
    })
}

/// Whether `inst` may be uniform inside a divergent loop: a constant, phi or swizzle, or a
/// 32-bit integer / boolean ALU op with a scalar-unit form, on 32-bit or boolean sources
/// (computed right whatever exec holds).
fn scalar_in_divergent_loop(f: &Function, inst: &InstData) -> bool {
    use AluOp::*;
    let narrow = |bits: u8| bits == 1 || bits == 32;
    match &inst.kind {
        InstKind::Const(_) | InstKind::Undef | InstKind::Phi(_) | InstKind::Swizzle { .. } => true,
        InstKind::Alu { op, srcs } => {
            matches!(
                op,
                Iadd | Isub
                    | Imul
                    | Iand
                    | Ior
                    | Ixor
                    | Inot
                    | Ineg
                    | Iabs
                    | Ishl
                    | Ushr
                    | Ishr
                    | Imin
                    | Imax
                    | Umin
                    | Umax
                    | Ieq
                    | Ine
                    | Ilt
                    | Ige
                    | Ult
                    | Uge
                    | Bcsel
            ) && narrow(inst.ty.bits)
                && srcs.iter().all(|&v| narrow(f.ty(v).bits))
        }
        _ => false,
    }
}

/// Divergence is an analysis; as a "pass" it changes nothing.
pub fn run(_m: &mut Module) -> bool {
    false
}
