//! What the translated IR *does*: `tests/shaders/front/semantics.comp` computes values from
//! constants only; its IR runs in the reference interpreter (`ir::interp`) and every output
//! must equal the same algorithm written here in Rust — straight from the front-end and
//! after the whole middle end (the interpreter models buffers as bytes, so lowered IR runs
//! too).

mod front_support;

use front_support::*;
use gcnc::front::spirv::{translate, Options};
use gcnc::ir::{self, interp};

/// The shader's algorithm, in Rust: (index, value) of every output it writes.
fn expected() -> Vec<(u32, i32)> {
    let mut acc = 0i32;
    for i in 0..12 {
        match i % 5 {
            0 => {
                acc += 1;
                continue;
            }
            1 => acc += 110,
            2 => acc += 100,
            3 => {
                if i <= 10 {
                    acc += 1000
                }
            }
            _ => {
                for j in 0..5 {
                    if j == 3 {
                        break;
                    }
                    acc += j;
                }
            }
        }
        if acc > 3000 {
            break;
        }
        acc += 2;
    }
    let search = |key: i32| -> i32 {
        for a in 0..4 {
            for b in 0..4 {
                if a * 4 + b == key {
                    return a * 10 + b;
                }
            }
        }
        -1
    };
    let (mut n, mut steps) = (0i32, 0i32);
    loop {
        n = if n & 1 == 1 { n * 3 + 1 } else { n + 5 };
        steps += 1;
        if !(n < 60 && steps < 20) {
            break;
        }
    }
    let mut o15 = 0i32;
    let mut hits = 0i32;
    let mut calls = 3;
    let mut side = |k: i32, o15: &mut i32| -> bool {
        calls += 1;
        *o15 += k;
        k > 2
    };
    for k in 0..6 {
        if side(k, &mut o15) && side(k + 10, &mut o15) {
            hits += 1;
        }
        if k == 1 || side(k * 100, &mut o15) {
            hits += 100;
        }
    }
    vec![
        (0, acc),
        (1, search(7)),
        (2, search(99)),
        (3, 53),
        (4, n),
        (5, steps),
        (6, hits),
        (7, 44),
        (8, 3),
        (10, calls),
        (15, o15),
    ]
}

/// 32-bit words written to the buffer at set 0, binding 0: (byte offset / 4, word).
fn words(m: &ir::Module) -> Vec<(u32, u32)> {
    let mem = interp::run(m, interp::Invocation::default()).expect("interpretable");
    let Some(bytes) = mem.buffers.get(&(0, 0, 0)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (&off, _) in bytes.iter().filter(|(o, _)| *o % 4 == 0) {
        let b: Option<Vec<u8>> = (0..4).map(|k| bytes.get(&(off + k)).copied()).collect();
        if let Some(b) = b {
            out.push((off / 4, u32::from_le_bytes([b[0], b[1], b[2], b[3]])));
        }
    }
    out
}

/// `o[]` outputs (the first 16 words) as (index, value).
fn outputs(m: &ir::Module) -> Vec<(u32, i32)> {
    words(m)
        .into_iter()
        .filter(|w| w.0 < 16)
        .map(|(k, w)| (k, w as i32))
        .collect()
}

/// Translation, and translation followed by the whole middle end.
fn both(path: &str, opts: &Options) -> [(&'static str, ir::Module); 2] {
    let m = translate(&shader(path), opts).unwrap();
    let mut p = m.clone();
    gcnc::passes::run_pipeline(&mut p).unwrap_or_else(|e| panic!("{path}: {e}"));
    [("front-end", m), ("pipeline", p)]
}

/// Both glslang's output and its `spirv-opt -O` version (SSA form, OpPhi throughout).
const VARIANTS: [&str; 2] = ["", ".opt"];

#[test]
fn translated_control_flow_computes_what_the_source_says() {
    for v in VARIANTS {
        for (stage, m) in both(&format!("front/semantics{v}.spv"), &Options::default()) {
            assert_eq!(outputs(&m), expected(), "variant {v:?}, {stage}");
        }
    }
}

fn values_expected() -> Vec<(u32, i32)> {
    // Column-major m: columns (1,2,3), (4,5,6), (7,8,9).
    let m = [[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]];
    let v = [1.0f32, -1.0, 2.0];
    let mv: Vec<f32> = (0..3)
        .map(|r| (0..3).map(|c| m[c][r] * v[c]).sum())
        .collect();
    let vm: Vec<f32> = (0..3)
        .map(|c| (0..3).map(|r| v[r] * m[c][r]).sum())
        .collect();
    // (m * mᵀ)[1][2] = Σk m[k][2] * mᵀ[1][k] = Σk m[k][2] * m[k][1].
    let mm12: f32 = (0..3).map(|k| m[k][2] * m[k][1]).sum();
    let op12 = v[2] * 3.0;
    let enc = |x: &[f32]| x[0] as i32 * 10000 + x[1] as i32 * 100 + x[2] as i32;
    let iv = [10, 11, 12, 13];
    let f = -2.75f32;
    let mut out = vec![
        (0, enc(&mv)),
        (1, enc(&vm)),
        (2, mm12 as i32),
        (3, op12 as i32),
    ];
    for k in 0..4 {
        out.push((4 + k as u32, iv[(k + 1) & 3]));
    }
    let iv2 = [10, 99, 10, 11];
    out.push((
        8,
        iv2[0] * 1_000_000 + iv2[1] * 10000 + iv2[2] * 100 + iv2[3],
    ));
    out.push((9, f as i32));
    out.push((10, (f.to_bits() >> 20) as i32));
    out.push((11, ((-7i32) as u32 >> 28) as i32));
    out.push((12, (0x12345678 >> 8) & 0xff));
    out.push((13, (0x11111111 & !(0xfff << 4)) | (0xabc << 4)));
    out.push((14, 8 + 10 * 100 + 10 * 10000));
    // glslang emits `%` as OpSMod: the result takes the divisor's sign.
    out.push((15, (-17 / 5) * 100 + (-17i32).rem_euclid(5)));
    out.push((16, (0xffff_ffffu32 / 3) as i32));
    out
}

#[test]
fn translated_values_compute_what_the_source_says() {
    for v in VARIANTS {
        values_variant(v);
    }
}

fn values_variant(v: &str) {
    for (stage, m) in both(
        &format!("front/semantics_values{v}.spv"),
        &Options::default(),
    ) {
        let w = words(&m);
        let o: Vec<(u32, i32)> = w
            .iter()
            .filter(|x| x.0 < 32)
            .map(|&(k, x)| (k, x as i32))
            .collect();
        assert_eq!(o, values_expected(), "variant {v:?}, {stage}");
        // s_out = t at byte 128 (std430: ivec2 a @0, int b[3] @8): a = (7, 8), b = [1, 20, 3].
        let s: Vec<(u32, i32)> = w
            .iter()
            .filter(|x| x.0 >= 32)
            .map(|&(k, x)| (k * 4 - 128, x as i32))
            .collect();
        assert_eq!(
            s,
            vec![(0, 7), (4, 8), (8, 1), (12, 20), (16, 3)],
            "variant {v:?}, {stage}"
        );
    }
}

#[test]
fn glsl_std450_expansions_match_libm() {
    for v in VARIANTS {
        glsl_variant(v);
    }
}

fn glsl_variant(v: &str) {
    for (stage, m) in both(&format!("front/semantics_glsl{v}.spv"), &Options::default()) {
        glsl_check(v, stage, &m);
    }
}

fn glsl_check(v: &str, stage: &str, m: &ir::Module) {
    let got: Vec<f64> = words(m)
        .into_iter()
        .filter(|w| w.0 < 63)
        .map(|(_, w)| f32::from_bits(w) as f64)
        .collect();
    let (x, y) = (0.375f64, -1.625f64);
    let a = [1.0f64, 2.0, 3.0];
    let b = [-2.0f64, 0.5, 1.0];
    let len = |v: [f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    let s2 = std::f64::consts::FRAC_1_SQRT_2;
    // refract(I = (s2, -s2, 0), N = (0, 1, 0), eta = 0.5)
    let d = -s2;
    let kk = 1.0 - 0.25 * (1.0 - d * d);
    let tv = [
        0.5 * s2 - (0.5 * d + kk.sqrt()) * 0.0,
        0.5 * -s2 - (0.5 * d + kk.sqrt()),
    ];
    let m3 = [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]];
    let det3 = 2.0 * (3.0 * 4.0 - 1.0 * 1.0) - 1.0 * (1.0 * 4.0 - 0.0 * 1.0);
    let _ = m3;
    let want = [
        x.atan(),
        y.atan(),
        7.5f64.atan(),
        x.atan2(y),
        y.atan2(x),
        (-x).atan2(y),
        x.asin(),
        x.acos(),
        (-0.875f64).asin(),
        x.sinh(),
        y.cosh(),
        x.tanh(),
        1.0,
        y.asinh(),
        2.5f64.acosh(),
        x.atanh(),
        x.exp(),
        2.5f64.ln(),
        x.tan(),
        std::f64::consts::FRAC_PI_2,
        1.0f64.to_degrees(),
        {
            let t: f64 = 0.25;
            t * t * (3.0 - 2.0 * t)
        },
        0.0,
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
        len(a),
        len([a[0] - b[0], a[1] - b[1], a[2] - b[2]]),
        a[1] / len(a),
        s2,
        s2,
        tv[0],
        tv[1],
        -1.0,
        det3,
        // inverse = adjugate / det
        (3.0 * 4.0 - 1.0 * 1.0) / det3,
        -(2.0 * 1.0 - 0.0 * 1.0) / det3,
        -(2.0 * 1.0 - 1.0 * 0.0) / det3,
        6.0 / 10.0,
        -2.0 / 10.0,
        -0.25,
        -3.0,
        0.625,
        6.0,
        6.0,
        // det of the 4x4 (columns as given), by cofactor expansion in f64:
        {
            let c = [
                [1.0, 2.0, 0.0, 1.0],
                [0.0, 1.0, 3.0, 0.0],
                [2.0, 0.0, 1.0, 1.0],
                [1.0, 1.0, 0.0, 2.0],
            ];
            fn det(m: &[Vec<f64>]) -> f64 {
                if m.len() == 1 {
                    return m[0][0];
                }
                (0..m.len())
                    .map(|j| {
                        let minor: Vec<Vec<f64>> = m[1..]
                            .iter()
                            .map(|r| {
                                r.iter()
                                    .enumerate()
                                    .filter(|(k, _)| *k != j)
                                    .map(|(_, v)| *v)
                                    .collect()
                            })
                            .collect();
                        let s = if j % 2 == 0 { 1.0 } else { -1.0 };
                        s * m[0][j] * det(&minor)
                    })
                    .sum()
            }
            det(&c.iter().map(|r| r.to_vec()).collect::<Vec<_>>())
        },
    ];
    assert_eq!(got.len(), want.len(), "outputs: {got:?}");
    for (k, (g, w)) in got.iter().zip(want.iter()).enumerate() {
        let tol = 2e-4 * w.abs().max(1.0);
        assert!(
            (g - w).abs() <= tol,
            "variant {v:?}, {stage}, output {k}: got {g}, want {w}"
        );
    }
}

/// `front/handwritten.spvasm`: a 64-bit switch selector, struct phis and selects,
/// OpCopyMemory, spec-constant shuffles and extracts.
#[test]
fn handwritten_spirv_shapes() {
    let run = |opts: &Options| -> Vec<(u32, i32)> {
        let [(_, a), (_, b)] = both("front/handwritten.spv", opts);
        let (x, y) = (outputs(&a), outputs(&b));
        assert_eq!(x, y, "the middle end changed the results");
        x
    };
    // acc = (1, (6, 7)); i = 0: .0 += 10; i = 2: .1.x = .1.y * 3; i = 1, 3, 4: .0 += 1.
    // The exit stores the header phi: acc as it was before the last trip (i = 4).
    assert_eq!(
        run(&Options::default()),
        vec![(0, 13), (1, 21), (2, 7), (3, 6)]
    );
    // SpecId 3 feeds the shuffled/extracted spec constant.
    let opts = Options {
        spec: [(3, 9)].into_iter().collect(),
        ..Default::default()
    };
    assert_eq!(run(&opts), vec![(0, 13), (1, 21), (2, 7), (3, 9)]);
}

/// `front/rounding.spvasm`: FPRoundingMode decorations pick the f32 → f16 rounding.
#[test]
fn fp_rounding_mode_decorations() {
    for (stage, m) in both("front/rounding.spv", &Options::default()) {
        // half @0 = RTZ(1 + 1.5·2⁻¹⁰) = 0x3c01, half @2 = RTE(…) = 0x3c02.
        assert_eq!(words(&m), vec![(0, 0x3c02_3c01)], "{stage}");
    }
}

/// `front/const_dispatch.comp`: a switch on a specialization constant whose cases return,
/// a switch on that function's result, and a branch on a bool specialization constant.
/// Only the arms taken are translated (the front end's IR holds the taken `encode` arm's
/// constant and none of the others'), and what is written is what the source says for
/// every choice of constants, straight from the front end and after the middle end.
#[test]
fn constant_conditions_translate_only_the_arm_taken() {
    // The constant each `encode` arm uses, by the mode that takes it.
    let arm_consts = [(1, 1000003u32), (2, 2000003), (3, 3000017), (0, 4000037)];
    for (format, wide) in [(2u64, false), (9, false), (70, true), (5, true), (10, true)] {
        let mode = match format {
            9 | 10 => 1,
            2 | 37 => 2,
            70 => 3,
            _ => 0,
        };
        let encode = |x: u32| match mode {
            1 => x.wrapping_mul(1000003),
            2 => x.wrapping_mul(2000003).wrapping_add(7),
            3 => x ^ 3000017,
            _ => x.wrapping_add(4000037),
        };
        let scale = |x: u32| {
            if wide {
                x.wrapping_mul(5000011)
            } else {
                x.wrapping_add(6000011)
            }
        };
        let want = vec![
            (0, mode),
            (1, encode(5)),
            (2, scale(encode(mode))),
            (3, (0..3).map(encode).fold(0u32, u32::wrapping_add)),
        ];
        let opts = Options {
            spec: [(0, format), (1, wide as u64)].into_iter().collect(),
            ..Default::default()
        };
        let [(_, front), (_, piped)] = both("front/const_dispatch.spv", &opts);
        let case = format!("FORMAT={format} WIDE={wide}");
        assert_eq!(words(&front), want, "{case}, front end");
        assert_eq!(words(&piped), want, "{case}, pipeline");
        let text = ir::print_module(&front);
        for (m, c) in arm_consts {
            assert_eq!(
                text.contains(&format!("const {c:#x} ")),
                m == mode,
                "{case}: the arm of mode {m} (constant {c})"
            );
        }
        let wide_arms = [(true, 5000011u32), (false, 6000011)];
        for (w, c) in wide_arms {
            assert_eq!(
                text.contains(&format!("const {c:#x} ")),
                w == wide,
                "{case}: the WIDE={w} arm"
            );
        }
    }
}
