//! Output variables become function-local shadows, copied to the real outputs once at the
//! end of the entry point (NIR's `lower_io_to_temporaries` for outputs).
//!
//! Shaders may read back and partially rewrite their outputs along any path; the hardware
//! wants each output written once, late (exports). After this pass every access goes to a
//! local that mem2reg turns into SSA, and the end of the entry function stores each leaf
//! (scalar/vector; matrices per column, arrays and structs per element) of each output
//! exactly once. Runs after inlining, when the entry function is the only function and
//! ends with at most a final `return`.

use crate::ir::*;

#[derive(Clone, Copy)]
enum Step {
    Member(u32),
    Index(u32),
}

pub fn run(m: &mut Module) -> bool {
    let Some(entry) = m.entry else {
        return false;
    };
    let outputs: Vec<Var> = m
        .globals
        .iter()
        .copied()
        .filter(|&v| m.vars[v].mode == Mode::Output)
        .collect();
    if outputs.is_empty() || m.functions.len() != 1 {
        return false;
    }
    let mut pairs = Vec::new();
    for &o in &outputs {
        let mut shadow = Variable::new(m.vars[o].ty, Mode::Function);
        shadow.name = m.vars[o].name.as_ref().map(|n| format!("{}_tmp", n));
        let s = m.add_local(entry, shadow);
        pairs.push((o, s));
    }
    // Redirect every access to the shadow.
    let f = &mut m.functions[entry];
    for i in f.insts_in_order() {
        if let InstKind::Deref(Deref {
            kind: DerefKind::Var(v),
            mode,
            ..
        }) = &mut f.insts[i].kind
        {
            if let Some(&(_, s)) = pairs.iter().find(|p| p.0 == *v) {
                *v = s;
                *mode = Mode::Function;
            }
        }
    }
    // Mode of the rest of each chain follows its root.
    for i in f.insts_in_order() {
        if let InstKind::Deref(d) = &f.insts[i].kind {
            if let Some(p) = d.kind.parent() {
                let pm = match &f.insts[p].kind {
                    InstKind::Deref(pd) => Some(pd.mode),
                    _ => None,
                };
                if let (Some(pm), InstKind::Deref(d)) = (pm, &mut f.insts[i].kind) {
                    if !matches!(d.kind, DerefKind::Cast { .. }) {
                        d.mode = pm;
                    }
                }
            }
        }
    }
    // Copy out at the end (before a final return).
    let last = func::last_block(&m.functions[entry].body);
    for &(o, s) in &pairs {
        let ty = m.vars[o].ty;
        let mut leaves = Vec::new();
        leaf_paths(&mut m.types, ty, &mut Vec::new(), &mut leaves);
        for path in leaves {
            let leaf = path.last().map_or(ty, |p| p.1);
            let Some(vt) = m.types.value_type(leaf) else {
                continue;
            };
            let f = &mut m.functions[entry];
            let src = chain(f, last, s, ty, Mode::Function, &path);
            let dst = chain(f, last, o, ty, Mode::Output, &path);
            let v = f.insert_before_jump(
                last,
                InstKind::Intrinsic {
                    op: Intrinsic::LoadDeref,
                    srcs: smallvec::smallvec![src],
                    idx: smallvec::smallvec![0],
                },
                vt,
            );
            f.insert_before_jump(
                last,
                InstKind::Intrinsic {
                    op: Intrinsic::StoreDeref,
                    srcs: smallvec::smallvec![dst, v],
                    idx: smallvec::smallvec![(1u32 << vt.comps) - 1, 0],
                },
                ValType::NONE,
            );
        }
    }
    true
}

/// Every path from `t` to a scalar/vector leaf: the steps and the type after each.
fn leaf_paths(
    types: &mut TypeArena,
    t: Type,
    path: &mut Vec<(Step, Type)>,
    out: &mut Vec<Vec<(Step, Type)>>,
) {
    if types.is_leaf(t) {
        out.push(path.clone());
        return;
    }
    if let TypeKind::Struct { members } = types.kind(t).clone() {
        for (k, mm) in members.iter().enumerate() {
            path.push((Step::Member(k as u32), mm.ty));
            leaf_paths(types, mm.ty, path, out);
            path.pop();
        }
        return;
    }
    let n = types.length(t).unwrap_or(0);
    if let Some(e) = types.element(t) {
        for k in 0..n {
            path.push((Step::Index(k), e));
            leaf_paths(types, e, path, out);
            path.pop();
        }
    }
}

/// Builds the deref chain `var.path…` at the end of `b` (before its jump).
fn chain(
    f: &mut Function,
    b: Block,
    var: Var,
    var_ty: Type,
    mode: Mode,
    path: &[(Step, Type)],
) -> Value {
    let bits = ValType::new(mode.deref_bits(), 1);
    let mut d = f.insert_before_jump(
        b,
        InstKind::Deref(Deref {
            kind: DerefKind::Var(var),
            ty: var_ty,
            mode,
        }),
        bits,
    );
    for &(step, ty) in path {
        let kind = match step {
            Step::Member(member) => DerefKind::Struct { parent: d, member },
            Step::Index(k) => {
                let index = f.insert_before_jump(
                    b,
                    InstKind::Const(smallvec::smallvec![k as u64]),
                    ValType::U32,
                );
                DerefKind::Array { parent: d, index }
            }
        };
        d = f.insert_before_jump(b, InstKind::Deref(Deref { kind, ty, mode }), bits);
    }
    d
}
