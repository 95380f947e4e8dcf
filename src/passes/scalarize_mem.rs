//! Shapes explicit memory accesses for the back-end: no access moves more than 16 bytes
//! (a `dwordx4`), and every store writes one contiguous run of components.
//!
//! A store with a holey write mask (`0b1011`) becomes one store per run of set bits, at
//! the run's byte offset; a wider access is split into 16-byte pieces (a load's pieces are
//! reassembled with `vec`). Also home of the access description shared with
//! `vectorize_mem`.

use crate::ir::*;

/// What an explicit memory intrinsic accesses.
pub struct MemAccess {
    pub op: Intrinsic,
    pub is_store: bool,
    /// Buffer resource operand, if any.
    pub res: Option<Value>,
    /// The offset (or address) operand and its position among the sources.
    pub off: Value,
    pub off_src: usize,
    /// Position of the write mask among the indices (stores).
    pub mask_idx: Option<usize>,
}

pub fn mem_access(f: &Function, i: Inst) -> Option<MemAccess> {
    let InstKind::Intrinsic { op, srcs, .. } = &f.insts[i].kind else {
        return None;
    };
    use Intrinsic as I;
    let (is_store, res, off_src) = match op {
        I::LoadUbo | I::LoadSsbo => (false, Some(srcs[0]), 1),
        I::LoadPushConstant | I::LoadShared | I::LoadGlobal | I::LoadScratch | I::LoadConstant => {
            (false, None, 0)
        }
        I::StoreSsbo => (true, Some(srcs[1]), 2),
        I::StoreShared | I::StoreGlobal | I::StoreScratch => (true, None, 1),
        _ => return None,
    };
    Some(MemAccess {
        op: *op,
        is_store,
        res,
        off: srcs[off_src],
        off_src,
        mask_idx: op.index_pos("write_mask"),
    })
}

/// Splits an offset into (non-constant base, constant addend).
pub fn split_offset(f: &Function, off: Value) -> (Option<Value>, u64) {
    if let Some(c) = f.as_scalar_const(off) {
        return (None, c);
    }
    if let InstKind::Alu {
        op: AluOp::Iadd,
        srcs,
    } = &f.insts[off].kind
    {
        if let Some(c) = f.as_scalar_const(srcs[1]) {
            return (Some(srcs[0]), c);
        }
        if let Some(c) = f.as_scalar_const(srcs[0]) {
            return (Some(srcs[1]), c);
        }
    }
    (Some(off), 0)
}

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        for i in f.insts_in_order() {
            progress |= shape(f, i);
        }
    }
    progress
}

/// `off + c` before `at`.
fn offset_plus(f: &mut Function, at: Inst, off: Value, c: u64) -> Value {
    if c == 0 {
        return off;
    }
    let t = f.insts[off].ty;
    let k = f.insert_before(at, InstKind::Const(smallvec::smallvec![c]), t);
    f.insert_before(
        at,
        InstKind::Alu {
            op: AluOp::Iadd,
            srcs: smallvec::smallvec![off, k],
        },
        t,
    )
}

fn shape(f: &mut Function, i: Inst) -> bool {
    let Some(a) = mem_access(f, i) else {
        return false;
    };
    let InstKind::Intrinsic { srcs, idx, .. } = f.insts[i].kind.clone() else {
        unreachable!()
    };
    let vt = if a.is_store {
        f.insts[srcs[0]].ty
    } else {
        f.insts[i].ty
    };
    let elem = (vt.bits as u32).max(8) / 8;
    let per_piece = (16 / elem).max(1) as u8;
    let full = if vt.comps >= 32 {
        u32::MAX
    } else {
        (1u32 << vt.comps) - 1
    };
    let mask = a.mask_idx.map_or(full, |k| idx[k] & full);
    // Runs of components: (start, len), contiguous and at most 16 bytes each.
    let mut runs: SmallVec<[(u8, u8); 4]> = SmallVec::new();
    let mut k = 0u8;
    while k < vt.comps {
        if mask & (1 << k) == 0 {
            k += 1;
            continue;
        }
        let s = k;
        while k < vt.comps && mask & (1 << k) != 0 && k - s < per_piece {
            k += 1;
        }
        runs.push((s, k - s));
    }
    if runs.len() == 1 && runs[0] == (0, vt.comps) {
        return false;
    }
    if a.is_store {
        if runs.len() == 1 && mask == full {
            return false;
        }
        for &(s, n) in &runs {
            let v = f.insert_before(
                i,
                InstKind::Swizzle {
                    src: srcs[0],
                    comps: (s..s + n).collect(),
                },
                vt.with_comps(n),
            );
            let off = offset_plus(f, i, a.off, s as u64 * elem as u64);
            let mut ns = srcs.clone();
            ns[0] = v;
            ns[a.off_src] = off;
            let mut ni = idx.clone();
            if let Some(mk) = a.mask_idx {
                ni[mk] = (1 << n) - 1;
            }
            f.insert_before(
                i,
                InstKind::Intrinsic {
                    op: a.op,
                    srcs: ns,
                    idx: ni,
                },
                ValType::NONE,
            );
        }
        f.remove(i);
        true
    } else {
        let mut parts: SmallVec<[Value; 16]> = SmallVec::new();
        for &(s, n) in &runs {
            let off = offset_plus(f, i, a.off, s as u64 * elem as u64);
            let mut ns = srcs.clone();
            ns[a.off_src] = off;
            let piece = f.insert_before(
                i,
                InstKind::Intrinsic {
                    op: a.op,
                    srcs: ns,
                    idx: idx.clone(),
                },
                vt.with_comps(n),
            );
            for c in 0..n {
                let x = f.insert_before(
                    i,
                    InstKind::Swizzle {
                        src: piece,
                        comps: smallvec::smallvec![c],
                    },
                    vt.with_comps(1),
                );
                parts.push(x);
            }
        }
        let whole = f.insert_before(
            i,
            InstKind::Alu {
                op: AluOp::Vec,
                srcs: parts.into_iter().collect(),
            },
            vt,
        );
        f.replace_all_uses(i, whole);
        f.remove(i);
        true
    }
}
