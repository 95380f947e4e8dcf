//! Structured control flow: SPIR-V blocks → the IR's if/loop tree, and call inlining.
//!
//! # How blocks are walked
//! Translation follows the structured program the way a reader does. [`Fx::flow`]
//! translates a block and follows its unconditional branch into the next one. A branch
//! target is *resolved* before it is followed ([`Fx::resolve`]): the merge of the
//! innermost open selection means "this arm is done" (`Stop`); the merge of an open loop or
//! switch is a `break`; a loop's header is a `continue`; a loop's continue target means
//! "translate the continue construct here, then `continue`" — the continue construct is
//! re-translated at each branch to it, which keeps every value it uses dominated by its
//! definition. A header with `OpSelectionMerge` becomes an `if` whose arms are walked up to
//! the merge; a header with `OpLoopMerge` becomes a `loop`; an `OpSwitch` becomes a one-trip
//! `loop` holding a chain of `if`s (fall-through re-translates the next case).
//!
//! # Constant conditions
//! A selection on a constant condition, or a switch on a constant selector, translates only
//! the arm taken; the `if` (or case chain) stays, with an empty arm, for the middle end to
//! fold exactly as it folds a translated one. When the arm taken never reaches the merge
//! (it returns, or breaks further out), the walk ends there: the merge is not translated.
//! A call whose every translated return gives
//! the same scalar constant has that constant as its result (not a load of its return
//! variable), so the pruning reaches switches on such a call (`determine_format_mode()` in
//! dxvk's mipgen, called by each pixel accessor, switches on a specialization constant:
//! translating every arm multiplied the inlined code ≈ 30×).
//!
//! # Phis
//! Each `OpPhi` gets a function variable. Every edge stores the incoming value into the
//! variables of the target's phis (at the branch, where the value is available); the
//! target block loads them. `mem2reg` rebuilds SSA phis from this.
//!
//! # Jumps out of several constructs
//! An IR `break` leaves only the innermost loop. A branch to the merge/continue target of
//! an outer loop, or a return from inside loops of an inlined function, stores an *escape
//! code* (target construct × kind) in a function variable and breaks; after each loop that
//! was escaped through, code compares the variable with the codes that passed and either
//! performs the jump (if its target is now innermost) or breaks again.
//!
//! # Calls
//! Calls are inlined: parameters bind to the argument values (pointer arguments alias the
//! caller's derefs). A callee with a single exit and no loops or switches is translated in
//! place; any other callee runs inside a one-trip loop where returns break out, storing the
//! return value in a variable. Recursion is an error (SPIR-V for Vulkan forbids it).
//!
//! # Termination on bad input
//! Unstructured input can make the walk loop or recurse forever; a translation budget (in
//! blocks) and a nesting limit turn that into `ErrorKind::BadControlFlow`.

use super::module::{BlockInfo, FuncInfo, Merge};
use super::parse::Inst;
use super::{Cons, Error, ErrorKind, Fx, RetConst, Val};
use crate::ir::{
    self, AluOp, Control, Deref, DerefKind, InstKind, Intrinsic, JumpKind, Mode, ValType, Value,
};
use rspirv::dr::Operand;
use rspirv::spirv::Op;

/// No block (edges into a merge reached by breaks, whose phis were stored at the breaks).
const NONE: u32 = 0;
const MAX_DEPTH: u32 = 96;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Break = 0,
    ContinueConstruct = 1,
    BackEdge = 2,
    Return = 3,
}

impl Kind {
    fn from(n: u32) -> Kind {
        match n & 3 {
            0 => Kind::Break,
            1 => Kind::ContinueConstruct,
            2 => Kind::BackEdge,
            _ => Kind::Return,
        }
    }
}

enum Target {
    Flow,
    Stop,
    Jump(usize, Kind),
}

fn sel_control(c: u32) -> Control {
    if c & 1 != 0 {
        Control::Prefer
    } else if c & 2 != 0 {
        Control::Avoid
    } else {
        Control::None
    }
}

impl<'a, 'm> Fx<'a, 'm> {
    fn cur_func(&self) -> &'a FuncInfo {
        let spv = self.spv;
        &spv.funcs[self
            .call_stack
            .last()
            .expect("no function being translated")]
    }

    fn block_info(&self, i: Option<&Inst>, label: u32) -> Result<&'a BlockInfo, Error> {
        let f = self.cur_func();
        f.blocks.get(&label).ok_or_else(|| {
            let inst = i.unwrap_or(&self.spv.insts[f.inst]);
            inst.err(
                ErrorKind::BadId,
                format!("%{} is not a block of this function", label),
            )
        })
    }

    /// Inlines function `f` with arguments `args`; returns its return value.
    pub(super) fn inline_function(
        &mut self,
        f: &FuncInfo,
        args: &[Val],
        entry: bool,
    ) -> Result<Option<Val>, Error> {
        let fi = &self.spv.insts[f.inst];
        if self.call_stack.contains(&f.id) {
            return Err(fi.err(ErrorKind::Unsupported, "recursive function call"));
        }
        if args.len() != f.params.len() {
            return Err(fi.err(
                ErrorKind::BadOperands,
                "argument count differs from the parameter count",
            ));
        }
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(fi.err(ErrorKind::BadControlFlow, "nesting too deep"));
        }
        for (&(pid, _), a) in f.params.iter().zip(args) {
            self.vals[pid as usize] = Some(a.clone());
        }
        let void = matches!(self.spv.def(f.ret_ty), super::Def::Type(super::SType::Void));
        // A callee with one exit and no loops or switches returns at its end: no wrapper.
        let wrapped = !entry && (f.exits != 1 || f.has_loop_or_switch);
        let ret_var = if wrapped && !void {
            Some(self.local_var(fi, f.ret_ty, None)?)
        } else {
            None
        };
        self.call_stack.push(f.id);
        self.cons.push(Cons::Func {
            wrapped,
            entry,
            ret_var,
            ret_val: None,
            ret_const: RetConst::None,
            esc: Vec::new(),
        });
        let saved_if = std::mem::replace(&mut self.if_depth, 0);
        if wrapped {
            self.b.push_loop();
        }
        self.flow(f.entry, None)?;
        if wrapped {
            self.b.jump(JumpKind::Break);
            self.b.pop_loop();
        }
        self.if_depth = saved_if;
        let Some(Cons::Func {
            ret_val, ret_const, ..
        }) = self.cons.pop()
        else {
            unreachable!("construct stack out of sync")
        };
        self.call_stack.pop();
        self.depth -= 1;
        if void {
            return Ok(None);
        }
        // Every return gave the same scalar constant: the result is that constant (built
        // where the load of the return variable would be).
        let const_ret = match ret_const {
            RetConst::Const(c) => self
                .spv
                .val_type(f.ret_ty)
                .filter(|vt| vt.comps == 1)
                .map(|vt| (vt, c)),
            _ => None,
        };
        Ok(Some(match (ret_var, ret_val, const_ret) {
            (Some(_), _, Some((vt, c))) => Val::V(self.b.const_bits(vt, &[c])),
            (Some(v), _, None) => {
                let d = self.b.deref_var(v);
                self.load_tree(fi, &Val::Ptr(d), f.ret_ty, 0)?
            }
            (None, Some(v), _) => v,
            (None, None, _) => {
                // The function never returns normally (it always kills): any value will do.
                let c = self.spv.null_of(fi, f.ret_ty)?;
                let u = undef_tree(&c);
                self.materialize_const(fi, &u, f.ret_ty)?
            }
        }))
    }

    /// Translates blocks starting at `blk` until the walk stops or jumps; the current
    /// block (for the dominance check) is the caller's again afterwards.
    fn flow(&mut self, blk: u32, stop: Option<u32>) -> Result<(), Error> {
        let saved = self.cur_block;
        let r = self.flow_blocks(blk, stop);
        self.cur_block = saved;
        r
    }

    fn flow_blocks(&mut self, mut blk: u32, stop: Option<u32>) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let f = self.cur_func();
            return Err(self.spv.insts[f.inst]
                .err(ErrorKind::BadControlFlow, "control flow nested too deeply"));
        }
        loop {
            let info = self.block_info(None, blk)?;
            if self.budget == 0 {
                let t = &self.spv.insts[info.term];
                return Err(t.err(
                    ErrorKind::BadControlFlow,
                    "control flow is not structured (translation does not terminate)",
                ));
            }
            self.budget -= 1;
            let next = if let Some(Merge::Loop {
                merge,
                cont,
                control,
            }) = info.merge
            {
                self.cons.push(Cons::Loop {
                    header: blk,
                    merge,
                    cont,
                    esc: Vec::new(),
                });
                let ctl = if control & 1 != 0 {
                    Control::Prefer
                } else if control & 2 != 0 {
                    Control::Avoid
                } else {
                    Control::None
                };
                self.b.push_loop_control(ctl);
                if let Some((f, t)) = self.block(blk, info, None)? {
                    self.run(f, t, None)?;
                }
                self.b.pop_loop();
                let Some(Cons::Loop { esc, .. }) = self.cons.pop() else {
                    unreachable!("construct stack out of sync")
                };
                self.dispatch(esc, info.term)?;
                self.step(NONE, merge, stop)?
            } else {
                match self.block(blk, info, stop)? {
                    Some((f, t)) => self.step(f, t, stop)?,
                    None => None,
                }
            };
            match next {
                Some(b) => blk = b,
                None => break,
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// Follows the edge `from → to`: stores phis, then flows on if `to` is ordinary code.
    fn run(&mut self, from: u32, to: u32, stop: Option<u32>) -> Result<(), Error> {
        if let Some(b) = self.step(from, to, stop)? {
            self.flow(b, stop)?;
        }
        Ok(())
    }

    /// Takes the edge `from → to`; returns the block to translate next, if any.
    fn step(&mut self, from: u32, to: u32, stop: Option<u32>) -> Result<Option<u32>, Error> {
        self.store_phis(from, to)?;
        match self.resolve(to, stop) {
            Target::Flow => Ok(Some(to)),
            Target::Stop => {
                if let Some(h) = self.stop_hits.get_mut(to as usize) {
                    *h += 1;
                }
                Ok(None)
            }
            Target::Jump(k, kind) => {
                self.do_jump(k, kind)?;
                Ok(None)
            }
        }
    }

    fn resolve(&self, to: u32, stop: Option<u32>) -> Target {
        if Some(to) == stop {
            return Target::Stop;
        }
        for k in (0..self.cons.len()).rev() {
            match &self.cons[k] {
                Cons::Loop {
                    header,
                    merge,
                    cont,
                    ..
                } => {
                    if to == *merge {
                        return Target::Jump(k, Kind::Break);
                    }
                    if to == *header {
                        return Target::Jump(k, Kind::BackEdge);
                    }
                    if to == *cont {
                        return Target::Jump(k, Kind::ContinueConstruct);
                    }
                }
                Cons::Switch { merge, .. } => {
                    if to == *merge {
                        return Target::Jump(k, Kind::Break);
                    }
                }
                Cons::Func { .. } => break,
            }
        }
        Target::Flow
    }

    fn is_ir_loop(c: &Cons) -> bool {
        matches!(
            c,
            Cons::Loop { .. } | Cons::Switch { .. } | Cons::Func { wrapped: true, .. }
        )
    }

    /// Index of the innermost construct that is an IR loop (not crossing a function).
    fn innermost_loop(&self) -> Option<usize> {
        for k in (0..self.cons.len()).rev() {
            if Self::is_ir_loop(&self.cons[k]) {
                return Some(k);
            }
            if matches!(self.cons[k], Cons::Func { .. }) {
                return None;
            }
        }
        None
    }

    fn do_jump(&mut self, k: usize, kind: Kind) -> Result<(), Error> {
        let inner = self.innermost_loop().expect("jump target is an IR loop");
        if inner == k {
            return self.direct_jump(k, kind);
        }
        let code = (k as u32) * 4 + kind as u32;
        let var = self.esc_var();
        let d = self.b.deref_var(var);
        let c = self.b.const_u32(code);
        self.b.store(d, c);
        push_esc(&mut self.cons[inner], code);
        self.b.jump(JumpKind::Break);
        Ok(())
    }

    fn direct_jump(&mut self, k: usize, kind: Kind) -> Result<(), Error> {
        match (kind, &self.cons[k]) {
            (Kind::ContinueConstruct, Cons::Loop { cont, .. }) => {
                let cont = *cont;
                self.flow(cont, None)?;
                // The continue construct ends in a back edge (a `continue`).
                Ok(())
            }
            (Kind::BackEdge, _) => {
                self.b.jump(JumpKind::Continue);
                Ok(())
            }
            (_, Cons::Switch { .. }) => {
                if let Cons::Switch { reached, .. } = &mut self.cons[k] {
                    *reached = true;
                }
                self.b.jump(JumpKind::Break);
                Ok(())
            }
            _ => {
                self.b.jump(JumpKind::Break);
                Ok(())
            }
        }
    }

    /// After an IR loop closes: performs or forwards the escapes that passed through it.
    fn dispatch(&mut self, codes: Vec<u32>, at: usize) -> Result<(), Error> {
        if codes.is_empty() {
            return Ok(());
        }
        let _ = at;
        let var = self.esc_var();
        let d = self.b.deref_var(var);
        let e = self.b.load(d);
        let inner = self.innermost_loop().expect("escape without an outer loop");
        for code in codes {
            let k = (code / 4) as usize;
            let kind = Kind::from(code);
            let c = self.b.const_u32(code);
            let cond = self.b.alu2(AluOp::Ieq, e, c);
            self.b.push_if(cond);
            self.if_depth += 1;
            if k == inner {
                let d = self.b.deref_var(var);
                let z = self.b.const_u32(0);
                self.b.store(d, z);
                self.direct_jump(k, kind)?;
            } else {
                push_esc(&mut self.cons[inner], code);
                self.b.jump(JumpKind::Break);
            }
            self.b.push_else();
            self.b.pop_if();
            self.if_depth -= 1;
        }
        Ok(())
    }

    /// The escape-code variable, created (and zeroed at function entry) on first use.
    fn esc_var(&mut self) -> ir::Var {
        if let Some(v) = self.esc_var {
            return v;
        }
        let u32t = self.types().scalar(ir::Scalar::U32);
        let v = self.b.local(u32t, Some("escape"));
        let f = self.b.f();
        let first = ir::func::first_block(&f.body);
        let d = f.insert_at(
            first,
            0,
            InstKind::Deref(Deref {
                kind: DerefKind::Var(v),
                ty: u32t,
                mode: Mode::Function,
            }),
            ValType::U32,
        );
        let z = f.insert_at(
            first,
            1,
            InstKind::Const([0u64].into_iter().collect()),
            ValType::U32,
        );
        f.insert_at(
            first,
            2,
            InstKind::Intrinsic {
                op: Intrinsic::StoreDeref,
                srcs: [d, z].into_iter().collect(),
                idx: [1u32, 0].into_iter().collect(),
            },
            ValType::NONE,
        );
        self.esc_var = Some(v);
        v
    }

    /// Stores the values flowing along `from → to` into the phi variables of `to`.
    fn store_phis(&mut self, from: u32, to: u32) -> Result<(), Error> {
        if from == NONE {
            return Ok(());
        }
        let info = self.block_info(None, to)?;
        // a phi's value is used at the end of the parent block it comes from
        let saved = std::mem::replace(&mut self.cur_block, from);
        let r = self.store_phi_values(info, from);
        self.cur_block = saved;
        r
    }

    fn store_phi_values(&mut self, info: &'a BlockInfo, from: u32) -> Result<(), Error> {
        let spv = self.spv;
        for k in info.first..info.term {
            let i = &spv.insts[k];
            match i.op {
                Op::Phi => {}
                Op::Line | Op::NoLine => continue,
                _ => break,
            }
            if i.ops.len() % 2 != 0 || i.ops.is_empty() {
                return Err(i.err(ErrorKind::BadOperands, "OpPhi needs (value, parent) pairs"));
            }
            let mut found = None;
            for p in (0..i.ops.len()).step_by(2) {
                if i.id_op(p + 1)? == from {
                    found = Some(i.id_op(p)?);
                    break;
                }
            }
            let Some(vid) = found else {
                return Err(i.err(
                    ErrorKind::BadControlFlow,
                    format!("OpPhi has no value for predecessor %{}", from),
                ));
            };
            let ty = i.result_ty()?;
            let v = self.val(i, vid)?;
            let var = self.phi_var(i)?;
            let d = self.b.deref_var(var);
            self.store_tree(i, &Val::Ptr(d), ty, v)?;
        }
        Ok(())
    }

    fn phi_var(&mut self, i: &Inst) -> Result<ir::Var, Error> {
        let id = i.result_id()?;
        if let Some(&v) = self.phi_vars.get(&id) {
            return Ok(v);
        }
        let name = self.spv.names.get(&id).cloned();
        let v = self.local_var(i, i.result_ty()?, name)?;
        self.phi_vars.insert(id, v);
        Ok(v)
    }

    /// Translates one block: phis, body, terminator. Returns the edge to follow, if the
    /// terminator is an unconditional flow onwards.
    fn block(
        &mut self,
        blk: u32,
        info: &'a BlockInfo,
        stop: Option<u32>,
    ) -> Result<Option<(u32, u32)>, Error> {
        let spv = self.spv;
        self.cur_block = blk;
        for k in info.first..info.term {
            let i = &spv.insts[k];
            match i.op {
                // newer than rspirv: `op` is a placeholder Nop, not to be skipped
                _ if i.new_op.is_some() => self.inst(i)?,
                Op::Phi => {
                    let var = self.phi_var(i)?;
                    let d = self.b.deref_var(var);
                    let v = self.load_tree(i, &Val::Ptr(d), i.result_ty()?, 0)?;
                    self.set(i, v)?;
                }
                Op::SelectionMerge | Op::LoopMerge | Op::Line | Op::NoLine | Op::Nop => {}
                _ => self.inst(i)?,
            }
        }
        let t = &spv.insts[info.term];
        match t.op {
            Op::Branch => {
                t.exact(1)?;
                Ok(Some((blk, t.id_op(0)?)))
            }
            Op::BranchConditional => {
                if t.ops.len() != 3 && t.ops.len() != 5 {
                    return Err(t.err(ErrorKind::BadOperands, "needs a condition and two labels"));
                }
                let c = self.value(t, 0)?;
                if self.b.ty(c) != ValType::B1 {
                    return Err(t.err(ErrorKind::BadType, "condition must be a scalar bool"));
                }
                let (tl, fl) = (t.id_op(1)?, t.id_op(2)?);
                self.block_info(Some(t), tl)?;
                self.block_info(Some(t), fl)?;
                if let Some(Merge::Selection { merge, control }) = info.merge {
                    self.block_info(Some(t), merge)?;
                    // A constant condition: the arm not taken stays empty (the `if` itself
                    // is kept for the middle end to fold, as it would with both arms).
                    // If the arm taken never reaches the merge, neither does anything: the
                    // walk ends here.
                    let taken = self.b.fr().as_scalar_const(c).map(|c| c != 0);
                    let hits = self.stop_hits.get(merge as usize).copied();
                    self.b.push_if_control(c, sel_control(control));
                    self.if_depth += 1;
                    if taken != Some(false) {
                        self.run(blk, tl, Some(merge))?;
                    }
                    self.b.push_else();
                    if taken != Some(true) {
                        self.run(blk, fl, Some(merge))?;
                    }
                    self.b.pop_if();
                    self.if_depth -= 1;
                    if taken.is_some() && self.stop_hits.get(merge as usize).copied() == hits {
                        return Ok(None);
                    }
                    return Ok(Some((NONE, merge)));
                }
                if tl == fl {
                    return Ok(Some((blk, tl)));
                }
                let rt = self.resolve(tl, stop);
                let rf = self.resolve(fl, stop);
                match (rt, rf) {
                    (Target::Flow, Target::Flow) => Err(t.err(
                        ErrorKind::BadControlFlow,
                        "conditional branch to two ordinary blocks without OpSelectionMerge",
                    )),
                    (Target::Flow, Target::Jump(..)) => {
                        self.b.push_if(c);
                        self.if_depth += 1;
                        self.b.push_else();
                        self.run(blk, fl, stop)?;
                        self.b.pop_if();
                        self.if_depth -= 1;
                        Ok(Some((blk, tl)))
                    }
                    (Target::Jump(..), Target::Flow) => {
                        self.b.push_if(c);
                        self.if_depth += 1;
                        self.run(blk, tl, stop)?;
                        self.b.push_else();
                        self.b.pop_if();
                        self.if_depth -= 1;
                        Ok(Some((blk, fl)))
                    }
                    (Target::Jump(..), Target::Jump(..)) => {
                        // `if c { jump t }`, then jump f after it: no unreachable merge.
                        self.b.push_if(c);
                        self.if_depth += 1;
                        self.run(blk, tl, stop)?;
                        self.b.push_else();
                        self.b.pop_if();
                        self.if_depth -= 1;
                        Ok(Some((blk, fl)))
                    }
                    _ => {
                        self.b.push_if(c);
                        self.if_depth += 1;
                        self.run(blk, tl, stop)?;
                        self.b.push_else();
                        self.run(blk, fl, stop)?;
                        self.b.pop_if();
                        self.if_depth -= 1;
                        Ok(None)
                    }
                }
            }
            Op::Switch => self.switch(blk, info, t),
            Op::Return => {
                t.exact(0)?;
                self.ret(t, None)?;
                Ok(None)
            }
            Op::ReturnValue => {
                t.exact(1)?;
                let id = t.id_op(0)?;
                let v = self.val(t, id)?;
                self.ret(t, Some(v))?;
                Ok(None)
            }
            Op::Kill | Op::TerminateInvocation | Op::Unreachable => {
                match t.op {
                    Op::Kill => self
                        .b
                        .intrinsic(Intrinsic::Discard, ValType::NONE, &[], &[]),
                    Op::TerminateInvocation => {
                        self.b
                            .intrinsic(Intrinsic::Terminate, ValType::NONE, &[], &[])
                    }
                    _ => Value::new(0),
                };
                self.ret(t, None)?;
                Ok(None)
            }
            _ => Err(t.err(
                ErrorKind::BadControlFlow,
                "block does not end in a terminator",
            )),
        }
    }

    /// Leaves the current function (return value `v`, if any).
    fn ret(&mut self, t: &Inst, v: Option<Val>) -> Result<(), Error> {
        let k = (0..self.cons.len())
            .rev()
            .find(|&k| matches!(self.cons[k], Cons::Func { .. }))
            .expect("no function construct");
        let top = k == self.cons.len() - 1 && self.if_depth == 0;
        let ret_ty = self.cur_func().ret_ty;
        match &mut self.cons[k] {
            Cons::Func { entry: true, .. } => {
                if !top {
                    self.b.ret(None);
                }
            }
            Cons::Func {
                wrapped: false,
                ret_val,
                ..
            } => {
                if !top {
                    return Err(t.err(
                        ErrorKind::Internal,
                        "return inside control flow of an unwrapped inline",
                    ));
                }
                *ret_val = v;
            }
            Cons::Func {
                ret_var, ret_const, ..
            } => {
                if let (Some(_), Some(v)) = (*ret_var, &v) {
                    *ret_const = ret_const.with(scalar_const(self.b.fr(), v));
                }
                if let (Some(var), Some(v)) = (*ret_var, v) {
                    let d = self.b.deref_var(var);
                    self.store_tree(t, &Val::Ptr(d), ret_ty, v)?;
                }
                self.do_jump(k, Kind::Return)?;
            }
            _ => unreachable!(),
        }
        Ok(())
    }

    fn switch(
        &mut self,
        blk: u32,
        info: &'a BlockInfo,
        t: &Inst,
    ) -> Result<Option<(u32, u32)>, Error> {
        let Some(Merge::Selection { merge, .. }) = info.merge else {
            return Err(t.err(
                ErrorKind::BadControlFlow,
                "OpSwitch without OpSelectionMerge",
            ));
        };
        t.need(2)?;
        if t.ops.len() % 2 != 0 {
            return Err(t.err(
                ErrorKind::BadOperands,
                "case literals and labels must pair up",
            ));
        }
        let sel = self.value(t, 0)?;
        let st = self.b.ty(sel);
        if st.comps != 1 || st.bits < 8 {
            return Err(t.err(ErrorKind::BadType, "selector must be a scalar integer"));
        }
        let default = t.id_op(1)?;
        self.block_info(Some(t), default)?;
        self.block_info(Some(t), merge)?;
        let mut groups: Vec<(u32, Vec<u64>)> = Vec::new();
        for p in (2..t.ops.len()).step_by(2) {
            let lit = match &t.ops[p] {
                Operand::LiteralBit32(w) => *w as u64,
                Operand::LiteralBit64(w) => *w,
                _ => return Err(t.err(ErrorKind::BadOperands, "case literal expected")),
            };
            let label = t.id_op(p + 1)?;
            self.block_info(Some(t), label)?;
            if label == default {
                continue;
            }
            match groups.iter_mut().find(|g| g.0 == label) {
                Some(g) => g.1.push(lit),
                None => groups.push((label, vec![lit])),
            }
        }
        // A constant selector: only the case taken is translated; the others keep their
        // (constant-false) `if` with an empty arm, for the middle end to fold as before.
        let taken = self.b.fr().as_scalar_const(sel).map(|c| {
            let m = st.mask();
            groups
                .iter()
                .position(|(_, lits)| lits.iter().any(|&l| l & m == c & m))
        });
        self.cons.push(Cons::Switch {
            merge,
            esc: Vec::new(),
            reached: false,
        });
        self.b.push_loop();
        // `if (case A) { A… jump } if (case B) { B… jump } default… jump`: every case arm
        // ends in a jump (a break to the merge, or another jump), so the code after each
        // `if` is reached exactly when that case did not match.
        for (g, (label, lits)) in groups.iter().enumerate() {
            let mut cond: Option<Value> = None;
            for &l in lits {
                let c = self.b.const_int(st, l);
                let eq = self.b.alu2(AluOp::Ieq, sel, c);
                cond = Some(match cond {
                    Some(p) => self.b.alu2(AluOp::Ior, p, eq),
                    None => eq,
                });
            }
            self.b.push_if(cond.expect("case group has a literal"));
            self.if_depth += 1;
            if taken.is_none() || taken == Some(Some(g)) {
                self.run(blk, *label, None)?;
            }
            self.b.push_else();
            self.b.pop_if();
            self.if_depth -= 1;
        }
        if !matches!(taken, Some(Some(_))) {
            self.run(blk, default, None)?;
        }
        self.b.jump(JumpKind::Break);
        self.b.pop_loop();
        let Some(Cons::Switch { esc, reached, .. }) = self.cons.pop() else {
            unreachable!("construct stack out of sync")
        };
        self.dispatch(esc, info.term)?;
        if taken.is_some() && !reached {
            // The case taken never breaks to the merge (it returns or jumps further out).
            return Ok(None);
        }
        Ok(Some((NONE, merge)))
    }
}

/// The bits of `v` when it is a single-component IR constant.
fn scalar_const(f: &ir::Function, v: &Val) -> Option<u64> {
    match v {
        Val::V(v) => f.as_scalar_const(*v),
        _ => None,
    }
}

fn push_esc(c: &mut Cons, code: u32) {
    let esc = match c {
        Cons::Loop { esc, .. } | Cons::Switch { esc, .. } | Cons::Func { esc, .. } => esc,
    };
    if !esc.contains(&code) {
        esc.push(code);
    }
}

fn undef_tree(c: &super::CVal) -> super::CVal {
    match c {
        super::CVal::C(v) => super::CVal::C(v.iter().map(undef_tree).collect()),
        _ => super::CVal::Undef,
    }
}
