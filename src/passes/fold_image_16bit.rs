//! Folds 16-bit conversions into the image operations around them, where the result is
//! bit-identical, so that instruction selection picks the hardware's 16-bit forms (D16
//! data, A16 addresses, G16 derivatives; docs/images.md "16-bit folds") from plain,
//! Vulkan-valid shaders, as RADV (`nir_opt_16bit_tex_image`) and LLVM
//! (`AMDGPUInstCombineIntrinsic.cpp`) do.
//!
//! - **D16 results**: a float `tex` read (fetch, sample with explicit or implicit LOD or
//!   a bias, gradients, texel-buffer fetches; not gathers, queries or sparse reads) or a
//!   storage `image_load`, whose 32-bit result is used only by plain `f2f` conversions to 16 bits —
//!   of the whole value, or of swizzles (component extracts) of it whose own users are all
//!   such conversions — gets a 16-bit result, and the conversions become their source.
//!   Only `f2f` (SPIR-V `OpFConvert` without an `FPRoundingMode`, whose rounding the
//!   implementation chooses) is folded, never `f2f_rtz` / `f2f_rtne` (an explicit
//!   rounding the hardware's conversion need not make); RADV folds the same set (its
//!   `rounding_mode_undef`). The D16 conversion rounds to nearest even in the emulator, as
//!   our `f2f` (`v_cvt_f16_f32`, FLOAT_MODE round-to-nearest-even) does, so the fold never
//!   changes an emulated result. Integer results are not folded: the hardware saturates an
//!   integer texel into 16 bits where `u2u`/`i2i` truncate.
//! - **D16 stores**: an `image_store` (storage image or texel buffer) whose data is f16
//!   widened to f32 by `f2f` (or such components and constants exact in f16) stores the
//!   f16 data: the D16 store widens each component to f32 exactly before the format's
//!   conversion, so memory receives the same bits.
//! - **A16 addresses**: the coordinate of a fetch (integer) or a sample (float; not a
//!   sampled cube, whose face transform is f32 arithmetic, and not a biased sample, whose
//!   bias stays 32-bit) whose every component is exactly a 16-bit value — an `f2f` from
//!   f16, an `i2i` / `u2u` from a 16-bit integer, or a constant that converts without loss
//!   (a float exact in f16, an integer in `0..2^15`) — together with its LOD (sample:
//!   unless the constant 0, which selects `_lz`; fetch: the mip level) or sample index,
//!   which must be such a value too, is rewritten to the 16-bit values. Exactness: the f32
//!   the shader computes is the f16 widened, so the hardware reads the same number; for
//!   integers a 16-bit value reads the same texel, and a negative one (sign-extended from
//!   `i16`, zero-extended by the hardware's 16-bit address) is out of bounds either way,
//!   since no image dimension reaches 2^15 (Vulkan's `maxImageDimension*` are at most
//!   16384 on these parts). Storage-image `image_load` / `image_store` addresses (integer
//!   coordinates with their sample index or mip level) fold by the same rule; texel-buffer
//!   indices (MUBUF, no A16) and image atomics keep 32 bits. Instruction selection then
//!   sets `a16` (on every generation here).
//! - **G16 derivatives**: `textureGrad`'s `ddx` and `ddy`, when both are exactly 16-bit
//!   values in the same sense, become 16-bit whether or not the coordinate does: GFX10+
//!   select the `_g16` opcodes, GFX9 packs them under A16 or widens them again (exact).
//!
//! Addresses made only of constants are left 32-bit: they gain nothing (GFX9 would widen
//! constant derivatives again, GFX10+ would pack them with extra instructions).
//!
//! Invariants: only values whose every use is rewritten change type; new 16-bit vectors
//! and constants are inserted right before the image instruction; the dead conversions
//! are left for DCE. The pass is target-independent (every target here has D16 and A16).

use crate::ir::*;

pub fn run(m: &mut Module) -> bool {
    let mut progress = false;
    for (_, f) in m.functions.iter_mut() {
        progress |= fold(f);
    }
    progress
}

fn fold(f: &mut Function) -> bool {
    let mut users: SecondaryMap<InstData, SmallVec<[Inst; 2]>> = SecondaryMap::new(SmallVec::new());
    for i in f.insts_in_order() {
        f.insts[i].kind.for_each_operand(|v| users[v].push(i));
    }
    let mut any = false;
    for i in f.insts_in_order() {
        if matches!(f.insts[i].kind, InstKind::Tex(_)) {
            any |= fold_addresses(f, i);
        }
        any |= fold_storage_coords(f, i);
        let read = match &f.insts[i].kind {
            // texel reads: not a gather (whose D16 layout differs per generation) nor a
            // query
            InstKind::Tex(t) => {
                !t.sparse
                    && !matches!(
                        t.op,
                        TexOp::Gather
                            | TexOp::QueryLod
                            | TexOp::Size
                            | TexOp::Levels
                            | TexOp::Samples
                    )
            }
            InstKind::Intrinsic {
                op: Intrinsic::ImageLoad,
                idx,
                ..
            } => idx.get(3).copied().unwrap_or(0) & ACCESS_SPARSE == 0,
            _ => false,
        };
        if read && f.insts[i].ty.bits == 32 {
            any |= fold_result(f, i, &users);
        }
        any |= fold_store_data(f, i);
    }
    any
}

/// Whether `u` is a plain `f2f` of `src` to 16 bits (same component count).
fn is_f2f16_of(f: &Function, u: Inst, src: Value) -> bool {
    matches!(&f.insts[u].kind, InstKind::Alu { op: AluOp::F2f, srcs } if srcs[0] == src)
        && f.insts[u].ty == half(f.insts[src].ty)
}

/// `t` with 16-bit components.
fn half(t: ValType) -> ValType {
    ValType::new(16, t.comps)
}

/// D16: `i`'s result becomes 16-bit if every use is a conversion to f16 (directly or
/// through extracts).
fn fold_result(
    f: &mut Function,
    i: Inst,
    users: &SecondaryMap<InstData, SmallVec<[Inst; 2]>>,
) -> bool {
    let direct = &users[i];
    if direct.is_empty() {
        return false;
    }
    let mut convs: Vec<Inst> = Vec::new();
    let mut swizzles: Vec<Inst> = Vec::new();
    for &u in direct {
        if is_f2f16_of(f, u, i) {
            convs.push(u);
            continue;
        }
        let InstKind::Swizzle { src, .. } = &f.insts[u].kind else {
            return false;
        };
        debug_assert_eq!(*src, i);
        let su = &users[u];
        if su.is_empty() || !su.iter().all(|&c| is_f2f16_of(f, c, u)) {
            return false;
        }
        swizzles.push(u);
        convs.extend(su.iter().copied());
    }
    let t = f.insts[i].ty;
    f.insts[i].ty = half(t);
    for &s in &swizzles {
        let st = f.insts[s].ty;
        f.insts[s].ty = half(st);
    }
    for c in convs {
        let InstKind::Alu { srcs, .. } = &f.insts[c].kind else {
            unreachable!()
        };
        let src = srcs[0];
        f.replace_all_uses(c, src);
    }
    true
}

/// D16 stores: an `image_store` (storage image or texel buffer) whose 32-bit data is
/// f16 widened by `f2f` stores the f16 values (the D16 store widens them again, exactly).
fn fold_store_data(f: &mut Function, i: Inst) -> bool {
    let InstKind::Intrinsic {
        op: Intrinsic::ImageStore,
        srcs,
        ..
    } = &f.insts[i].kind
    else {
        return false;
    };
    let data = srcs[3];
    let Some(n) = narrow_comps(f, data, true).filter(|n| widened(f, n)) else {
        return false;
    };
    let v = build16(f, i, &n);
    if let InstKind::Intrinsic { srcs, .. } = &mut f.insts[i].kind {
        srcs[3] = v;
    }
    true
}

/// One component of a 32-bit address value as an exactly equal 16-bit value: the source
/// of a widening conversion, or a constant that converts without loss.
enum Narrow {
    /// Component `c` of the 16-bit value `v`.
    Comp(Value, u8),
    /// A 16-bit constant's bits.
    Const(u64),
}

/// The 16-bit form of every component of `v` (float: f16; integer: i16/u16), if exact.
fn narrow_comps(f: &Function, v: Value, float: bool) -> Option<Vec<Narrow>> {
    let ty = f.insts[v].ty;
    if ty.bits != 32 {
        return None;
    }
    let widen = if float {
        &[AluOp::F2f][..]
    } else {
        &[AluOp::I2i, AluOp::U2u][..]
    };
    match &f.insts[v].kind {
        InstKind::Alu { op, srcs } if widen.contains(op) && f.insts[srcs[0]].ty.bits == 16 => {
            Some((0..ty.comps).map(|c| Narrow::Comp(srcs[0], c)).collect())
        }
        InstKind::Const(k) => k.iter().map(|&x| narrow_const(x, float)).collect(),
        InstKind::Alu {
            op: AluOp::Vec,
            srcs,
        } => {
            let mut out = Vec::new();
            for &s in srcs.iter() {
                let n = narrow_comps(f, s, float)?;
                if n.len() != 1 {
                    return None;
                }
                out.extend(n);
            }
            Some(out)
        }
        InstKind::Swizzle { src, comps } => {
            let inner = narrow_comps(f, *src, float)?;
            let mut out = Vec::new();
            for &c in comps.iter() {
                out.push(match inner.get(c as usize)? {
                    Narrow::Comp(v, k) => Narrow::Comp(*v, *k),
                    Narrow::Const(x) => Narrow::Const(*x),
                });
            }
            Some(out)
        }
        _ => None,
    }
}

/// Whether some component is a widened non-constant 16-bit value: constants alone gain
/// nothing from 16-bit addresses (they would only be packed or widened again).
fn widened(f: &Function, comps: &[Narrow]) -> bool {
    comps
        .iter()
        .any(|n| matches!(n, Narrow::Comp(v, _) if !matches!(f.insts[*v].kind, InstKind::Const(_))))
}

/// A 32-bit constant's 16-bit form when it converts without loss.
fn narrow_const(x: u64, float: bool) -> Option<Narrow> {
    if float {
        let v = f32::from_bits(x as u32);
        let h = f16::f32_to_f16(v, false);
        (f16::f16_to_f32(h).to_bits() == v.to_bits()).then_some(Narrow::Const(h as u64))
    } else {
        (x < 0x8000).then_some(Narrow::Const(x))
    }
}

/// A 16-bit value made of `comps`, inserted before `at` (the source itself when `comps`
/// are all its components in order).
fn build16(f: &mut Function, at: Inst, comps: &[Narrow]) -> Value {
    if let Some(Narrow::Comp(v, _)) = comps.first() {
        let v = *v;
        let whole = f.insts[v].ty.comps as usize == comps.len()
            && comps
                .iter()
                .enumerate()
                .all(|(k, n)| matches!(n, Narrow::Comp(s, c) if *s == v && *c as usize == k));
        if whole {
            return v;
        }
    }
    let mut parts: SmallVec<[Value; 3]> = SmallVec::new();
    for n in comps {
        let p = match *n {
            Narrow::Comp(v, _) if f.insts[v].ty.comps == 1 => v,
            Narrow::Comp(v, c) => f.insert_before(
                at,
                InstKind::Swizzle {
                    src: v,
                    comps: smallvec::smallvec![c],
                },
                ValType::new(16, 1),
            ),
            Narrow::Const(x) => f.insert_before(
                at,
                InstKind::Const(smallvec::smallvec![x]),
                ValType::new(16, 1),
            ),
        };
        parts.push(p);
    }
    if parts.len() == 1 {
        return parts[0];
    }
    let n = parts.len() as u8;
    f.insert_before(
        at,
        InstKind::Alu {
            op: AluOp::Vec,
            srcs: parts,
        },
        ValType::new(16, n),
    )
}

/// A16 / G16 on `tex` instruction `i`; true if anything changed.
fn fold_addresses(f: &mut Function, i: Inst) -> bool {
    let InstKind::Tex(t) = &f.insts[i].kind else {
        return false;
    };
    let t = (**t).clone();
    let float = match t.op {
        TexOp::Fetch | TexOp::FetchMs => false,
        TexOp::Sample | TexOp::SampleLod | TexOp::SampleGrad => true,
        _ => return false,
    };
    if t.dim == Dim::Buffer || (float && t.dim == Dim::Cube) {
        return false;
    }
    let mut new: Vec<(TexSrc, Value)> = Vec::new();
    // the coordinate and the value packed after it
    if let Some(coord) = t.src(TexSrc::Coord) {
        let extra = match t.op {
            TexOp::SampleLod => t
                .src(TexSrc::Lod)
                .filter(|&l| f.as_scalar_const(l) != Some(0))
                .map(|l| (TexSrc::Lod, l)),
            TexOp::Fetch => t.src(TexSrc::Lod).map(|l| (TexSrc::Lod, l)),
            TexOp::FetchMs => t.src(TexSrc::MsIndex).map(|l| (TexSrc::MsIndex, l)),
            _ => None,
        };
        let c16 = narrow_comps(f, coord, float);
        // an integer LOD / sample index that is a small constant is already A16-ready
        let e16 = match extra {
            None => Some(None),
            Some((_, e)) if !float && f.as_scalar_const(e).is_some_and(|k| k < 0x1_0000) => {
                Some(None)
            }
            Some((which, e)) => narrow_comps(f, e, float).map(|n| Some((which, n))),
        };
        if let (Some(c16), Some(e16)) = (c16.filter(|c| widened(f, c)), e16) {
            let v = build16(f, i, &c16);
            new.push((TexSrc::Coord, v));
            if let Some((which, n)) = e16 {
                let v = build16(f, i, &n);
                new.push((which, v));
            }
        }
    }
    if t.op == TexOp::SampleGrad {
        if let (Some(dx), Some(dy)) = (t.src(TexSrc::Ddx), t.src(TexSrc::Ddy)) {
            let nx = narrow_comps(f, dx, true);
            let ny = narrow_comps(f, dy, true);
            if let (Some(nx), Some(ny)) = (nx, ny) {
                if !widened(f, &nx) && !widened(f, &ny) {
                    return apply(f, i, new);
                }
                let vx = build16(f, i, &nx);
                let vy = build16(f, i, &ny);
                new.push((TexSrc::Ddx, vx));
                new.push((TexSrc::Ddy, vy));
            }
        }
    }
    apply(f, i, new)
}

/// A16 on a storage-image `image_load` / `image_store` (not a texel buffer, whose index
/// is a MUBUF VGPR, nor a subpass input): the integer coordinate and the value packed after
/// it (the sample index of a multisampled image, else a mip level unless the constant 0)
/// as for a fetch. Atomics keep 32-bit addresses.
fn fold_storage_coords(f: &mut Function, i: Inst) -> bool {
    let (lod, dim, ms) = match &f.insts[i].kind {
        InstKind::Intrinsic { op, idx, .. } if *op == Intrinsic::ImageLoad => (3, idx[0], idx[2]),
        InstKind::Intrinsic { op, idx, .. } if *op == Intrinsic::ImageStore => (4, idx[0], idx[2]),
        _ => return false,
    };
    let (coord, sample, ms) = (1, 2, ms != 0);
    if matches!(
        Dim::ALL.get(dim as usize),
        None | Some(Dim::Buffer | Dim::SubpassData | Dim::Rect)
    ) {
        return false;
    }
    let InstKind::Intrinsic { srcs, .. } = &f.insts[i].kind else {
        unreachable!()
    };
    let (c, s, l) = (srcs[coord], srcs[sample], srcs[lod]);
    let extra = if ms {
        Some((sample, s))
    } else {
        (f.as_scalar_const(l) != Some(0)).then_some((lod, l))
    };
    let Some(c16) = narrow_comps(f, c, false).filter(|n| widened(f, n)) else {
        return false;
    };
    // a small constant mip level or sample index is already A16-ready
    let e16 = match extra {
        None => None,
        Some((_, e)) if f.as_scalar_const(e).is_some_and(|k| k < 0x1_0000) => None,
        Some((k, e)) => match narrow_comps(f, e, false) {
            Some(n) => Some((k, n)),
            None => return false,
        },
    };
    let v = build16(f, i, &c16);
    let e = e16.map(|(k, n)| (k, build16(f, i, &n)));
    if let InstKind::Intrinsic { srcs, .. } = &mut f.insts[i].kind {
        srcs[coord] = v;
        if let Some((k, e)) = e {
            srcs[k] = e;
        }
    }
    true
}

/// Replaces the sources `new` names in `tex` instruction `i`; true if there were any.
fn apply(f: &mut Function, i: Inst, new: Vec<(TexSrc, Value)>) -> bool {
    if new.is_empty() {
        return false;
    }
    let InstKind::Tex(t) = &mut f.insts[i].kind else {
        unreachable!()
    };
    for (which, v) in new {
        for s in t.srcs.iter_mut() {
            if s.0 == which {
                s.1 = v;
            }
        }
    }
    true
}
