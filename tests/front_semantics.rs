//! What the translated IR *does*: `tests/shaders/front/semantics.comp` computes values from
//! constants only; its IR runs in the reference interpreter (`ir::interp`) and every output
//! must equal the same algorithm written here in Rust. The middle end up to (not including)
//! `lower_explicit_io` must leave the results unchanged too.

mod front_support;

use front_support::*;
use gcnc::front::spirv::{translate, Options};
use gcnc::ir::{self, interp, Mode};

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
    let mut side = |k: i32, o15: &mut i32| -> bool {
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
        (15, o15),
    ]
}

fn outputs(m: &ir::Module) -> Vec<(u32, i32)> {
    let ssbo = m.globals.iter().copied().find(|&v| m.vars[v].mode == Mode::Ssbo).unwrap();
    let mem = interp::run(m, interp::Invocation::default()).expect("interpretable");
    let mut out = Vec::new();
    for ((var, path), comps) in mem {
        if var == ssbo.index() {
            assert_eq!(path.len(), 2, "o[] element path");
            out.push((path[1], comps[0] as u32 as i32));
        }
    }
    out
}

#[test]
fn translated_control_flow_computes_what_the_source_says() {
    let m = translate(&shader("front/semantics.spv"), &Options::default()).unwrap();
    assert_eq!(outputs(&m), expected());
}

#[test]
fn middle_end_keeps_the_results() {
    let mut m = translate(&shader("front/semantics.spv"), &Options::default()).unwrap();
    gcnc::passes::run_pipeline_until(&mut m, Some("if_to_select")).unwrap();
    assert_eq!(outputs(&m), expected());
}
