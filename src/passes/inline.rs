//! Inlining: every call in the entry point is replaced by a copy of the callee, after
//! which only the entry function remains. Returns are lowered first.
//!
//! # Lowering returns
//! A `return` that is not the last instruction of the function is turned into stores to
//! two new function variables — a `returned` flag and, for non-void functions, the return
//! value — followed by `break` when inside a loop. Code that could run after a return is
//! then guarded: after a loop that may have returned, `if returned { break }` when inside
//! another loop, else the rest of the list moves into `if !returned { … }`; after an `if`
//! outside loops that may have returned, likewise. Values defined in a guarded region and
//! used after it get a phi (undef on the path that skipped). mem2reg later turns the
//! variables into SSA. The function ends with a single `return` of the loaded value.
//!
//! # Inlining a call
//! The caller's block is split at the call; the callee's CF list is cloned between the
//! halves (its first block merged into the first half, its last block into the second),
//! `load_param` becomes the argument, the final `return %v` becomes the call's value, and
//! callee locals become fresh caller locals. A recursive call graph (invalid SPIR-V, which
//! the front-end rejects) is left alone rather than inlined forever.

use super::cf::{self, clone_list};
use crate::ir::*;

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    let funcs: Vec<Func> = m.functions.handles().collect();
    for &fh in &funcs {
        progress |= lower_returns(m, fh);
    }
    let Some(entry) = m.entry else {
        return progress;
    };
    if recursive(m, entry) {
        // SPIR-V forbids recursion; the front-end rejects it. Never loop forever here.
        return progress;
    }
    // Inline until no call remains (SPIR-V forbids recursion, so this terminates).
    loop {
        let f = &m.functions[entry];
        let call = f
            .insts_in_order()
            .into_iter()
            .find(|&i| matches!(f.insts[i].kind, InstKind::Call { .. }));
        let Some(call) = call else { break };
        inline_call(m, entry, call);
        progress = true;
    }
    if m.functions.len() > 1 {
        let mut arena = Arena::new();
        let e = std::mem::replace(
            &mut m.functions[entry],
            Function::new("", vec![], ValType::NONE),
        );
        let h = arena.alloc(e);
        m.functions = arena;
        m.entry = Some(h);
        progress = true;
    }
    progress
}

/// Whether the call graph reachable from `entry` has a cycle.
fn recursive(m: &Module, entry: Func) -> bool {
    fn visit(m: &Module, f: Func, state: &mut SecondaryMap<Function, u8>) -> bool {
        match state[f] {
            1 => return true,
            2 => return false,
            _ => {}
        }
        state[f] = 1;
        let fun = &m.functions[f];
        for i in fun.insts_in_order() {
            if let InstKind::Call { func, .. } = fun.insts[i].kind {
                if visit(m, func, state) {
                    return true;
                }
            }
        }
        state[f] = 2;
        false
    }
    visit(m, entry, &mut SecondaryMap::new(0))
}

fn inline_call(m: &mut Module, fh: Func, call: Inst) {
    let (callee_h, args) = match &m.functions[fh].insts[call].kind {
        InstKind::Call { func, args } => (*func, args.clone()),
        _ => unreachable!(),
    };
    let callee = m.functions[callee_h].clone();
    // Fresh locals for the callee's locals.
    let mut var_pairs = Vec::new();
    for &l in &callee.locals {
        let v = m.vars[l].clone();
        let nv = m.add_local(fh, v);
        var_pairs.push((l, nv));
    }
    let var_map = |v: Var| var_pairs.iter().find(|p| p.0 == v).map_or(v, |p| p.1);
    let f = &mut m.functions[fh];
    let b = f.insts[call].block.unwrap();
    let pos = f.position(call);
    let after: Vec<Inst> = f.blocks[b].insts.split_off(pos + 1);
    f.blocks[b].insts.pop(); // the call
    f.insts[call].block = None;
    let mut vmap: cf::ValueMap = SecondaryMap::new(None);
    let mut bmap: cf::BlockMap = SecondaryMap::new(None);
    let list = clone_list(&callee, f, &callee.body, &mut vmap, &mut bmap, &var_map);
    // Parameters and the return value.
    let mut ret_val = None;
    let mut dead = Vec::new();
    for (ci, _) in callee.insts.iter() {
        let Some(n) = vmap[ci] else { continue };
        match &f.insts[n].kind {
            InstKind::Intrinsic {
                op: Intrinsic::LoadParam,
                idx,
                ..
            } => {
                let a = args[idx[0] as usize];
                f.replace_all_uses(n, a);
                dead.push(n);
            }
            InstKind::Jump(JumpKind::Return, v) => {
                ret_val = *v;
                dead.push(n);
            }
            _ => {}
        }
    }
    for d in dead {
        f.remove(d);
    }
    let first = func::first_block(&list);
    let last = func::last_block(&list);
    // Splice: b + first ... last + after.
    let mut body = std::mem::take(&mut f.body);
    if let Some((holder, k)) = visit::list_holding_mut(&mut body, b) {
        holder.splice(k + 1..k + 1, list.iter().cloned());
    }
    f.body = body;
    // Successors of the old b now follow `last`.
    cf::rename_pred(f, b, last);
    for &i in &after {
        f.insts[i].block = Some(last);
    }
    f.blocks[last].insts.extend(after);
    cf::merge_blocks(f, b, first);
    let mut body = std::mem::take(&mut f.body);
    if let Some((holder, k)) = visit::list_holding_mut(&mut body, first) {
        holder.remove(k);
    }
    f.body = body;
    if let Some(v) = ret_val {
        f.replace_all_uses(call, v);
    }
}

// ---- return lowering ----

struct Ret {
    flag: Var,
    val: Option<Var>,
    bool_ty: Type,
    val_ty: Option<Type>,
}

fn value_var_type(types: &mut TypeArena, t: ValType) -> Type {
    let s = if t.bits == 1 {
        Scalar::BOOL
    } else {
        Scalar::uint(t.bits)
    };
    types.vector(s, t.comps)
}

/// Whether the function needs return lowering: a return anywhere but at the very end.
fn needs_lowering(f: &Function) -> bool {
    let last = func::last_block(&f.body);
    for b in f.blocks_in_order() {
        if let Some((JumpKind::Return, _)) = f.block_jump(b) {
            if b != last {
                return true;
            }
        }
    }
    false
}

fn lower_returns(m: &mut Module, fh: Func) -> bool {
    if !needs_lowering(&m.functions[fh]) {
        return false;
    }
    let bool_ty = m.types.scalar(Scalar::BOOL);
    let ret_ty = m.functions[fh].ret;
    let val_ty = (!ret_ty.is_none()).then(|| value_var_type(&mut m.types, ret_ty));
    let mut fv = Variable::new(bool_ty, Mode::Function);
    fv.name = Some("returned".into());
    let flag = m.add_local(fh, fv);
    let val = val_ty.map(|t| {
        let mut v = Variable::new(t, Mode::Function);
        v.name = Some("return_value".into());
        m.add_local(fh, v)
    });
    let r = Ret {
        flag,
        val,
        bool_ty,
        val_ty,
    };
    let f = &mut m.functions[fh];
    // returned = false at the start.
    let entry = func::first_block(&f.body);
    let d = f.insert_at(entry, 0, deref_var(&r, r.flag, true), ValType::U32);
    let fls = f.insert_after(d, InstKind::Const(smallvec::smallvec![0]), ValType::B1);
    f.insert_after(fls, store(d, fls, 1), ValType::NONE);
    let mut body = std::mem::take(&mut f.body);
    lower_list(f, &r, &mut body, false);
    f.body = body;
    // Single return at the end.
    let last = func::last_block(&f.body);
    let rv = r.val.map(|v| {
        let d = f.append(last, deref_var(&r, v, false), ValType::U32);
        f.append(last, load(d), ret_ty)
    });
    f.append(last, InstKind::Jump(JumpKind::Return, rv), ValType::NONE);
    true
}

fn deref_var(r: &Ret, v: Var, is_flag: bool) -> InstKind {
    InstKind::Deref(Deref {
        kind: DerefKind::Var(v),
        ty: if is_flag {
            r.bool_ty
        } else {
            r.val_ty.unwrap()
        },
        mode: Mode::Function,
    })
}
fn load(d: Value) -> InstKind {
    InstKind::Intrinsic {
        op: Intrinsic::LoadDeref,
        srcs: smallvec::smallvec![d],
        idx: smallvec::smallvec![0],
    }
}
fn store(d: Value, v: Value, mask: u32) -> InstKind {
    InstKind::Intrinsic {
        op: Intrinsic::StoreDeref,
        srcs: smallvec::smallvec![d, v],
        idx: smallvec::smallvec![mask, 0],
    }
}

/// Lowers returns in `list`; returns whether control may have returned inside it.
fn lower_list(f: &mut Function, r: &Ret, list: &mut Vec<CfNode>, in_loop: bool) -> bool {
    let mut may = false;
    let mut k = 0;
    while k < list.len() {
        let mut guard = false;
        match &mut list[k] {
            CfNode::Block(b) => {
                let b = *b;
                if let Some((JumpKind::Return, j)) = f.block_jump(b) {
                    let v = match f.insts[j].kind {
                        InstKind::Jump(_, v) => v,
                        _ => None,
                    };
                    f.remove(j);
                    if let (Some(v), Some(var)) = (v, r.val) {
                        let d = f.append(b, deref_var(r, var, false), ValType::U32);
                        let n = f.insts[v].ty.comps as u32;
                        f.append(b, store(d, v, (1 << n) - 1), ValType::NONE);
                    }
                    let d = f.append(b, deref_var(r, r.flag, true), ValType::U32);
                    let t = f.append(b, InstKind::Const(smallvec::smallvec![1]), ValType::B1);
                    f.append(b, store(d, t, 1), ValType::NONE);
                    if in_loop {
                        f.append(b, InstKind::Jump(JumpKind::Break, None), ValType::NONE);
                    }
                    may = true;
                }
            }
            CfNode::If {
                then_body,
                else_body,
                ..
            } => {
                let a = lower_list(f, r, then_body, in_loop);
                let b = lower_list(f, r, else_body, in_loop);
                if a || b {
                    may = true;
                    guard = !in_loop;
                }
            }
            CfNode::Loop { body, .. } => {
                if lower_list(f, r, body, true) {
                    may = true;
                    guard = true;
                }
            }
        }
        if guard {
            let is_loop = matches!(list[k], CfNode::Loop { .. });
            if in_loop {
                debug_assert!(is_loop);
                guard_break(f, r, list, k + 1);
                k += 3;
                continue;
            }
            guard_rest(f, r, list, k + 1);
            // The moved rest is lowered inside the new if's then-arm.
            if let Some(CfNode::If { then_body, .. }) = list.get_mut(k + 2) {
                lower_list(f, r, then_body, in_loop);
            }
            return may;
        }
        k += 1;
    }
    may
}

/// Moves the non-phi instructions of `list[k]` into a fresh block, returns it.
fn split_after_phis(f: &mut Function, a: Block) -> Block {
    let n = f.new_block();
    let pos = f.first_non_phi(a);
    let moved = f.blocks[a].insts.split_off(pos);
    for &i in &moved {
        f.insts[i].block = Some(n);
    }
    f.blocks[n].insts = moved;
    cf::rename_pred(f, a, n);
    n
}

fn load_flag(f: &mut Function, r: &Ret, a: Block) -> Value {
    let d = f.append(a, deref_var(r, r.flag, true), ValType::U32);
    f.append(a, load(d), ValType::B1)
}

/// Inside a loop, after an inner loop that may have returned: `if returned { break }`.
fn guard_break(f: &mut Function, r: &Ret, list: &mut Vec<CfNode>, k: usize) {
    let a = list[k].as_block().unwrap();
    let n = split_after_phis(f, a);
    let c = load_flag(f, r, a);
    let (tb, eb) = (f.new_block(), f.new_block());
    f.append(tb, InstKind::Jump(JumpKind::Break, None), ValType::NONE);
    list.insert(
        k + 1,
        CfNode::If {
            cond: c,
            then_body: vec![CfNode::Block(tb)],
            else_body: vec![CfNode::Block(eb)],
            control: Control::None,
        },
    );
    list.insert(k + 2, CfNode::Block(n));
}

/// Outside loops: the rest of the list after `list[k]`'s phis runs under `if !returned`.
fn guard_rest(f: &mut Function, r: &Ret, list: &mut Vec<CfNode>, k: usize) {
    let a = list[k].as_block().unwrap();
    let n = split_after_phis(f, a);
    let c = load_flag(f, r, a);
    let nc = f.append(
        a,
        InstKind::Alu {
            op: AluOp::Inot,
            srcs: smallvec::smallvec![c],
        },
        ValType::B1,
    );
    let mut then_body = vec![CfNode::Block(n)];
    then_body.extend(list.drain(k + 1..));
    let old_last = func::last_block(&then_body);
    let (eb, merge) = (f.new_block(), f.new_block());
    // The arm's last block now flows into `merge`, which flows where it used to.
    cf::rename_pred(f, old_last, merge);
    // SSA repair: values defined in the guarded region and used outside it.
    let mut inside = SecondaryMap::new(false);
    let mut blocks = Vec::new();
    visit::for_each_block(&then_body, |b| blocks.push(b));
    for &b in &blocks {
        for &i in &f.blocks[b].insts {
            inside[i] = true;
        }
    }
    let mut escaping: Vec<Value> = Vec::new();
    for b in f.blocks_in_order() {
        for &i in &f.blocks[b].insts {
            if inside[i] {
                continue;
            }
            f.insts[i].kind.for_each_operand(|v| {
                if inside[v] && !escaping.contains(&v) {
                    escaping.push(v);
                }
            });
        }
    }
    let has_jump = f.block_jump(old_last).is_some();
    for v in escaping {
        let ty = f.insts[v].ty;
        let u = f.insert_at(eb, 0, InstKind::Undef, ty);
        let mut srcs = SmallVec::new();
        if !has_jump {
            srcs.push((old_last, v));
        }
        srcs.push((eb, u));
        let phi = f.insert_at(merge, 0, InstKind::Phi(srcs), ty);
        // Rewrite outside uses.
        for b in f.blocks_in_order() {
            for k in 0..f.blocks[b].insts.len() {
                let i = f.blocks[b].insts[k];
                if inside[i] || i == phi {
                    continue;
                }
                f.insts[i].kind.for_each_operand_mut(|x| {
                    if *x == v {
                        *x = phi
                    }
                });
            }
        }
    }
    list.push(CfNode::If {
        cond: nc,
        then_body,
        else_body: vec![CfNode::Block(eb)],
        control: Control::None,
    });
    list.push(CfNode::Block(merge));
}
