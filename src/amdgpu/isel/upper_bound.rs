//! Unsigned upper bounds of 32-bit integer IR values, for selection choices that need a
//! value to be small: a multiply whose operands both fit in 24 bits is `v_mul_u32_u24`
//! (VOP2: a literal operand needs no register on GFX9, where VOP3 takes none) and, under
//! an add, `v_mad_u32_u24` — ACO makes the same choice from NIR's range analysis.
//!
//! Design: a query, not a pass. [`Isel::unsigned_upper_bound`] walks the operands of one
//! component of a value, at most [`DEPTH`] instructions deep, so each query costs a
//! bounded amount and no table outlives selection. The bound of anything it does not
//! understand (loads, phis, calls, parameters, signed arithmetic) is the type's maximum.
//!
//! Facts used, each a property of the shader itself (never of a dispatch, so nothing here
//! assumes a workgroup count; ACO's analysis assumes at most 65535 workgroups per
//! dimension, which a Vulkan device may exceed in x): constants; `iand` is at most either
//! operand; `umin`/`umax`/`bcsel` bound by their operands; `ushr`/`udiv` by a constant
//! divide the bound, `umod` by a constant `c` is below `c`; `ishl`/`iadd`/`imul`/`ior`/
//! `ixor` combine the operands' bounds where no overflow past 32 bits is possible;
//! `u2u`/`ubitfield_extract` zero-extend from their width; the local invocation id (per
//! component) and index are below the module's workgroup size, the subgroup invocation
//! below the wave size.
//!
//! Invariant: the returned bound is ≥ every value the component can take in any
//! invocation (sound for any input), and `u32::MAX` or below for 32-bit values.

use super::Isel;
use crate::ir::{AluOp, InstKind, Intrinsic, Value};

/// How many instructions deep a query looks.
const DEPTH: u32 = 6;

impl Isel<'_> {
    /// An upper bound of component `c` of the integer value `v` read as unsigned.
    pub(super) fn unsigned_upper_bound(&self, v: Value, c: usize) -> u64 {
        ub(self, v, c, DEPTH)
    }

    /// Whether component `c` of `v` provably fits in 24 unsigned bits.
    pub(super) fn fits_u24(&self, v: Value, c: usize) -> bool {
        self.unsigned_upper_bound(v, c) < 1 << 24
    }
}

fn ub(s: &Isel<'_>, v: Value, c: usize, depth: u32) -> u64 {
    let f = s.f;
    let ty = f.ty(v);
    let max = match ty.bits {
        1..=63 => (1u64 << ty.bits) - 1,
        _ => u64::MAX,
    };
    let r =
        match f.kind(v) {
            InstKind::Const(k) => k.get(c).copied().unwrap_or(max),
            _ if depth == 0 => max,
            InstKind::Swizzle { src, comps } => match comps.get(c) {
                Some(&k) => ub(s, *src, k as usize, depth - 1),
                None => max,
            },
            InstKind::Intrinsic { op, .. } => {
                let size = s.m.local_size;
                match op {
                    Intrinsic::LoadLocalInvocationId => size.get(c).map_or(max, |&n| n as u64 - 1),
                    Intrinsic::LoadLocalInvocationIndex => {
                        size.iter().map(|&n| n as u64).product::<u64>() - 1
                    }
                    Intrinsic::LoadSubgroupInvocation => s.t().wave.lanes() as u64 - 1,
                    _ => max,
                }
            }
            InstKind::Alu { op, srcs } => {
                let comp = |k: usize| super::legalize::src_comp(f, srcs[k], c);
                let b = |k: usize| ub(s, srcs[k], comp(k), depth - 1);
                let k = |k: usize| f.as_const(srcs[k]).and_then(|x| x.get(comp(k)).copied());
                let fit = |x: Option<u64>| x.filter(|&x| x <= max).unwrap_or(max);
                match op {
                    AluOp::Iand => b(0).min(b(1)),
                    AluOp::Umin => b(0).min(b(1)),
                    AluOp::Umax => b(0).max(b(1)),
                    AluOp::Bcsel => b(1).max(b(2)),
                    AluOp::Ior | AluOp::Ixor => {
                        let m = b(0).max(b(1));
                        fit(m.checked_next_power_of_two().map(|p| {
                            if p == m {
                                2 * p - 1
                            } else {
                                p - 1
                            }
                        }))
                    }
                    AluOp::Iadd => fit(b(0).checked_add(b(1))),
                    AluOp::Imul => fit(b(0).checked_mul(b(1))),
                    AluOp::Ishl => match k(1) {
                        Some(n) => {
                            let n = n & (ty.bits as u64 - 1);
                            fit(b(0).checked_mul(1u64 << n))
                        }
                        None => max,
                    },
                    AluOp::Ushr => match k(1) {
                        Some(n) => b(0) >> (n & (ty.bits as u64 - 1)),
                        None => b(0),
                    },
                    AluOp::Udiv => match k(1) {
                        Some(n) if n != 0 => b(0) / n,
                        _ => b(0),
                    },
                    AluOp::Umod => match k(1) {
                        Some(n) if n != 0 => b(0).min(n - 1),
                        _ => max,
                    },
                    AluOp::U2u => {
                        let from = f.ty(srcs[0]).bits;
                        let src_max = if from < 64 {
                            (1u64 << from) - 1
                        } else {
                            u64::MAX
                        };
                        b(0).min(src_max).min(max)
                    }
                    AluOp::UbitfieldExtract => match k(2) {
                        Some(n) if n < 32 => (1u64 << n) - 1,
                        _ => max,
                    },
                    _ => max,
                }
            }
            _ => max,
        };
    r.min(max)
}
