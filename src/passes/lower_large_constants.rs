//! Moves scratch arrays that only ever hold constants into the module's constant data
//! (`Module::constant_data`), and their loads to `load_constant`: a table such as GLSL's
//! `const uvec2 grid[1024] = {...}` in a function is then read from data placed after the
//! code instead of being stored to per-lane scratch by every invocation (the role of NIR's
//! `nir_opt_large_constants`).
//!
//! It runs after `lower_explicit_io` and a clean-up, on `load_scratch` / `store_scratch`:
//! what mem2reg could not promote (a dynamically indexed function or private variable) is
//! scratch by then, each variable a distinct `base` (its byte place in the scratch area,
//! `lower_explicit_io` gives every variable its own), and its initialisation is a run of
//! stores of constants at constant offsets once the offset arithmetic has folded. A
//! variable's extent is `[base, next base)`, the last one's ending at `scratch_size`.
//!
//! A variable (a `base`) moves when every store to it has a constant value and a constant
//! offset inside its extent, and no two stores give one byte different values. Scratch is
//! private to the invocation and its address never escapes (the IR has no pointer to it
//! after lowering), so every load then reads either a byte one of those stores wrote or a
//! byte no store wrote before it (undefined: any value, so the constant, or zero for a
//! byte no store writes at all, is a correct refinement). The order of stores and loads
//! therefore does not matter, and neither does control flow: an initialiser inside a loop
//! writes the same constants every iteration.
//!
//! Then: the variable's extent is appended to the constant data (16-byte aligned: the
//! widest load is 16 bytes), unwritten bytes zero; its stores are removed and each load
//! becomes `load_constant(offset; base = its place in the data, align)` (the same
//! operands: the offset source and `align` are unchanged). When no scratch access is left
//! in the module, `scratch_size` becomes 0.
//!
//! Invariants: output depends only on the module (variables in `base` order, bytes in
//! store order); the pass never changes what a load can observe, only where it reads it.

use crate::ir::*;
use std::collections::BTreeMap;

/// Alignment of each variable's bytes in the constant data.
const DATA_ALIGN: usize = 16;

/// What the pass learnt about one scratch variable (one `base`).
#[derive(Default)]
struct Slot {
    /// A store with a non-constant value or offset, or conflicting constants.
    keep: bool,
    /// (function, store instruction, byte offset in the variable, bytes, write mask, bytes
    /// per component).
    stores: Vec<(Func, Inst, u64, Vec<u64>, u32, u32)>,
    /// (function, load instruction).
    loads: Vec<(Func, Inst)>,
}

pub fn run(m: &mut Module) -> bool {
    if m.scratch_size == 0 {
        return false;
    }
    let mut slots: BTreeMap<u32, Slot> = BTreeMap::new();
    for (fh, f) in m.functions.iter() {
        for i in f.insts_in_order() {
            let InstKind::Intrinsic { op, srcs, idx } = &f.insts[i].kind else {
                continue;
            };
            match op {
                Intrinsic::LoadScratch => slots.entry(idx[0]).or_default().loads.push((fh, i)),
                Intrinsic::StoreScratch => {
                    let s = slots.entry(idx[0]).or_default();
                    let bits = f.insts[srcs[0]].ty.bits as u32;
                    match (f.as_const(srcs[0]), f.as_scalar_const(srcs[1])) {
                        (Some(v), Some(off)) if bits >= 8 => {
                            s.stores.push((fh, i, off, v.to_vec(), idx[1], bits / 8));
                        }
                        _ => s.keep = true,
                    }
                }
                _ => {}
            }
        }
    }
    let bases: Vec<u32> = slots.keys().copied().collect();
    let mut moved = Vec::new();
    for (k, (&base, s)) in slots.iter().enumerate() {
        if s.keep {
            continue;
        }
        let end = bases.get(k + 1).copied().unwrap_or(m.scratch_size);
        if let Some(bytes) = initial_bytes(s, (end - base) as usize) {
            moved.push((base, bytes));
        }
    }
    if moved.is_empty() {
        return false;
    }
    for (base, bytes) in moved {
        let at = m.constant_data.len().div_ceil(DATA_ALIGN) * DATA_ALIGN;
        m.constant_data.resize(at, 0);
        m.constant_data.extend_from_slice(&bytes);
        let s = &slots[&base];
        for &(fh, i, ..) in &s.stores {
            m.functions[fh].remove(i);
        }
        for &(fh, i) in &s.loads {
            if let InstKind::Intrinsic { op, idx, .. } = &mut m.functions[fh].insts[i].kind {
                *op = Intrinsic::LoadConstant;
                idx[0] = at as u32;
            }
        }
    }
    let scratch_left = m.functions.iter().any(|(_, f)| {
        f.insts_in_order().into_iter().any(|i| {
            matches!(
                &f.insts[i].kind,
                InstKind::Intrinsic {
                    op: Intrinsic::LoadScratch | Intrinsic::StoreScratch,
                    ..
                }
            )
        })
    });
    if !scratch_left {
        m.scratch_size = 0;
    }
    true
}

/// The variable's bytes (`len` of them) after all its stores, or `None` when a store
/// falls outside it or two stores disagree about a byte.
fn initial_bytes(s: &Slot, len: usize) -> Option<Vec<u8>> {
    let mut bytes: Vec<Option<u8>> = vec![None; len];
    for (_, _, off, comps, mask, n) in &s.stores {
        for (c, &x) in comps.iter().enumerate() {
            if mask & (1 << c) == 0 {
                continue;
            }
            for j in 0..*n {
                let at = usize::try_from(off + c as u64 * *n as u64 + j as u64).ok()?;
                let b = (x >> (8 * j)) as u8;
                match bytes.get_mut(at)? {
                    Some(old) if *old != b => return None,
                    slot => *slot = Some(b),
                }
            }
        }
    }
    Some(bytes.into_iter().map(|b| b.unwrap_or(0)).collect())
}
