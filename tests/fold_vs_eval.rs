//! The constant folder agrees with the IR's evaluation semantics (`ir::eval`), which is
//! written apart from it.
//!
//! For every ALU op at every bit size its operands can take (and every destination size of
//! a conversion), a function of `const` sources feeding that op — edge values first, then
//! seeded random ones — goes through the `fold_constants` pass. The pass must fold exactly
//! the instructions the evaluator defines, to exactly the evaluator's bits (a NaN result
//! matches any NaN of its size: the IR gives NaN payloads no meaning), and leave the
//! undefined and ill-typed ones alone.

mod front_support;

use front_support::Rng;
use gcnc::ir::eval::{eval_alu, EvalError};
use gcnc::ir::ops::alu_result_type;
use gcnc::ir::*;
use std::collections::BTreeSet;

const SIZES: [u8; 5] = [1, 8, 16, 32, 64];
/// Instructions per (op, source size, destination size).
const CASES: usize = 400;

fn mask(bits: u8) -> u64 {
    ValType::new(bits, 1).mask()
}

/// Values that sit on the edges of integer and float behaviour at `bits` bits.
fn edges(bits: u8) -> Vec<u64> {
    let m = mask(bits);
    let mut v = vec![
        0,
        1,
        2,
        3,
        m,
        m - 1,
        m >> 1,
        (m >> 1) + 1,
        (m >> 1).wrapping_sub(1) & m,
        7,
        31,
        32,
        33,
        63,
        64,
        65,
    ];
    let floats: &[f64] = &[
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1.5,
        2.5,
        -2.5,
        3.0,
        0.1,
        -7.75,
        1e-3,
        100.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        127.0,
        128.0,
        -128.0,
        255.0,
        256.0,
        32767.0,
        32768.0,
        -32768.0,
        65504.0,
        65519.0,
        65520.0,
        65535.0,
        65536.0,
        2147483647.0,
        2147483648.0,
        -2147483648.0,
        -2147483904.0,
        4294967295.0,
        4294967296.0,
        9.223_372_036_854_775_808e18,
        9.223_372_036_854_774_784e18,
        -9.223_372_036_854_775_808e18,
        1.844_674_407_370_955_2e19,
        1.844_674_407_370_954_8e19,
        1e30,
        -1e300,
    ];
    match bits {
        16 => {
            v.extend([
                0x7e00, 0x7c01, 0xfe00, 0x0001, 0x03ff, 0x0400, 0x8001, 0x7bff, 0x3c01, 0xbc02,
                0x3bff,
            ]);
            v.extend(floats.iter().map(|&x| half_bits(x)));
        }
        32 => {
            v.extend([
                0x7fc0_0000,
                0x7f80_0001,
                0xffc0_0000,
                1,
                0x007f_ffff,
                0x0080_0000,
                0x8000_0001,
                0x7f7f_ffff,
            ]);
            v.extend(floats.iter().map(|&x| (x as f32).to_bits() as u64));
        }
        64 => {
            v.extend([
                0x7ff8_0000_0000_0000,
                0x7ff0_0000_0000_0001,
                1,
                0x000f_ffff_ffff_ffff,
                0x0010_0000_0000_0000,
                0x8000_0000_0000_0001,
            ]);
            v.extend(floats.iter().map(|&x| x.to_bits()));
        }
        _ => {}
    }
    v.iter()
        .map(|&x| x & m)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// The f16 nearest an f64 (for edge values only; truncating the significand is enough).
fn half_bits(x: f64) -> u64 {
    let b = (x as f32).to_bits();
    let sign = (b >> 16) & 0x8000;
    let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let out = if x.is_infinite() || e >= 31 {
        sign | 0x7c00
    } else if e <= 0 {
        sign
    } else {
        sign | ((e as u32) << 10) | ((b >> 13) & 0x3ff)
    };
    out as u64
}

/// A random value of `bits` bits: an edge, an arbitrary pattern, or a small number.
fn value(rng: &mut Rng, bits: u8, edge: &[u64]) -> u64 {
    match rng.below(4) {
        0 | 1 => edge[rng.below(edge.len())],
        2 => rng.next() & mask(bits),
        _ => (rng.below(80) as u64) & mask(bits),
    }
}

/// Source types for `op` with its first source at `bits` bits (one choice of the free
/// sizes of shift amounts, exponents and bitfield operands).
fn source_types(op: AluOp, bits: u8, rng: &mut Rng) -> Vec<ValType> {
    let s = ValType::new(bits, 1);
    let any = |rng: &mut Rng| ValType::new(SIZES[1 + rng.below(4)], 1);
    let n = op.num_srcs();
    match op.shape() {
        Shape::Same | Shape::Cmp | Shape::Conv => vec![s; n],
        Shape::FirstSame => {
            let mut t = vec![s];
            t.extend((1..n).map(|_| any(rng)));
            t
        }
        Shape::Select => vec![ValType::B1, s, s],
        Shape::Special => {
            let comps = [2u8, 3, 4][rng.below(3)];
            match op {
                AluOp::Vec => vec![s; comps as usize],
                AluOp::Fdot => vec![ValType::new(bits, comps); 2],
                AluOp::Bany | AluOp::Ball => vec![ValType::new(1, comps)],
                AluOp::BitfieldInsert => vec![s, s, any(rng), any(rng)],
                _ => {
                    // Packing: the one source type the op accepts at this size, if any.
                    [2u8, 4, 1]
                        .iter()
                        .map(|&c| ValType::new(bits, c))
                        .find(|t| alu_result_type(op, &[*t], 0).is_some())
                        .into_iter()
                        .collect()
                }
            }
        }
    }
}

fn produces_float(op: AluOp) -> bool {
    use AluOp::*;
    let name = op.name();
    (name.starts_with('f')
        && !matches!(op, Fneg | Fabs | FfrexpExp | FindLsb)
        && op.shape() != Shape::Cmp
        && !matches!(op, F2i | F2u | F2iSat | F2uSat))
        || matches!(
            op,
            I2f | U2f
                | B2f
                | UnpackHalf2x16
                | UnpackUnorm4x8
                | UnpackSnorm4x8
                | UnpackUnorm2x16
                | UnpackSnorm2x16
        )
}

fn is_nan(bits: u8, x: u64) -> bool {
    match bits {
        16 => x & 0x7c00 == 0x7c00 && x & 0x3ff != 0,
        32 => f32::from_bits(x as u32).is_nan(),
        64 => f64::from_bits(x).is_nan(),
        _ => false,
    }
}

/// Whether result bits `w` (evaluator) and `g` (folder) mean the same: equal, or NaNs in the
/// same float position.
fn same(c: &Case, w: u64, g: u64) -> bool {
    if c.op == AluOp::PackHalf2x16 {
        return (0..2).all(|k| {
            let (w, g) = ((w >> (16 * k)) & 0xffff, (g >> (16 * k)) & 0xffff);
            w == g || (is_nan(16, w) && is_nan(16, g))
        });
    }
    w == g || (produces_float(c.op) && is_nan(c.dst.bits, w) && is_nan(c.dst.bits, g))
}

struct Case {
    op: AluOp,
    dst: ValType,
    srcs: Vec<(ValType, Vec<u64>)>,
    inst: Value,
}

/// Builds every case of one (op, size) group into one function, folds it, and returns the
/// disagreements.
fn check_group(op: AluOp, bits: u8, dst_bits: u8, rng: &mut Rng) -> (usize, Vec<String>) {
    let mut m = Module::new(Stage::Compute);
    let main = m.add_function("main", vec![], ValType::NONE);
    m.entry = Some(main);
    let mut b = Builder::new(&mut m, main);
    let mut cases = Vec::new();
    for k in 0..CASES {
        let tys = source_types(op, bits, rng);
        if tys.is_empty() {
            break;
        }
        let Some(dst) = alu_result_type(op, &tys, dst_bits) else {
            break;
        };
        if !dst.is_valid() {
            break;
        }
        let srcs: Vec<(ValType, Vec<u64>)> = tys
            .iter()
            .enumerate()
            .map(|(s, &t)| {
                let e = edges(t.bits);
                let comps = (0..t.comps)
                    .map(|c| {
                        // The first cases walk the edge values of source 0 in order.
                        if k < e.len() && s == 0 && c == 0 {
                            e[k]
                        } else {
                            value(rng, t.bits, &e)
                        }
                    })
                    .collect();
                (t, comps)
            })
            .collect();
        let vals: SmallVec<[Value; 3]> = srcs.iter().map(|(t, c)| b.const_bits(*t, c)).collect();
        let inst = b.push(InstKind::Alu { op, srcs: vals }, dst);
        cases.push(Case {
            op,
            dst,
            srcs,
            inst,
        });
    }
    drop(b);
    let n = cases.len();
    let folded = std::panic::catch_unwind(move || {
        gcnc::passes::fold_constants::run(&mut m);
        m
    });
    let Ok(m) = folded else {
        return (
            n,
            vec![format!(
                "the folder panics on {} at {bits} -> {dst_bits} bits",
                op.name()
            )],
        );
    };
    let f = &m.functions[main];
    let mut bad = Vec::new();
    for c in &cases {
        let refs: Vec<(ValType, &[u64])> = c.srcs.iter().map(|(t, v)| (*t, &v[..])).collect();
        let want = eval_alu(c.op, c.dst, &refs);
        let got = f.as_const(c.inst);
        let agree = match (&want, got) {
            (Ok(w), Some(g)) => w.len() == g.len() && w.iter().zip(g).all(|(&w, &g)| same(c, w, g)),
            (Err(_), None) => true,
            _ => false,
        };
        if !agree {
            let shown = |v: &[u64]| {
                v.iter()
                    .map(|x| format!("{x:#x}"))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let srcs: Vec<String> = c
                .srcs
                .iter()
                .map(|(t, v)| format!("{t} {}", shown(v)))
                .collect();
            let want = match &want {
                Ok(w) => shown(w),
                Err(EvalError::Undefined(why)) => format!("undefined ({why})"),
                Err(EvalError::IllTyped) => "ill-typed".into(),
            };
            let got = got.map_or("not folded".into(), shown);
            bad.push(format!(
                "{} -> {}: [{}] evaluator {want}, folder {got}",
                c.op.name(),
                c.dst,
                srcs.join("; ")
            ));
        }
    }
    (cases.len(), bad)
}

#[test]
fn the_folder_folds_exactly_what_the_evaluator_defines() {
    let mut rng = Rng(0x5eed_f01d_e7a1_0001);
    let mut bad = Vec::new();
    let mut covered = BTreeSet::new();
    let mut total = 0;
    for &op in AluOp::ALL {
        for bits in SIZES {
            let dsts: &[u8] = if op.shape() == Shape::Conv {
                &SIZES
            } else {
                &[0]
            };
            for &db in dsts {
                let (n, b) = check_group(op, bits, db, &mut rng);
                if n > 0 {
                    covered.insert(op);
                }
                total += n;
                bad.extend(b);
            }
        }
    }
    let missing: Vec<_> = AluOp::ALL.iter().filter(|o| !covered.contains(o)).collect();
    assert!(missing.is_empty(), "ops never exercised: {missing:?}");
    assert!(total > 100_000, "only {total} cases");
    assert!(
        bad.is_empty(),
        "{} of {total} cases disagree; first ones:\n{}",
        bad.len(),
        bad.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
}
