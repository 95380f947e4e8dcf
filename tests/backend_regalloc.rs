//! Register allocation on live ranges with holes, as specifications.
//!
//! - A VGPR read only in the else arm of a divergent `if` has a hole over the then arm
//!   (the lanes' CFG: the then-lanes never read it, the else-lanes are inactive there);
//!   an SGPR in the same place stays live across the then arm (the linear CFG).
//! - Emulator runs under a small VGPR budget that only fits when the then arm's temps
//!   take the registers of values waiting for the else arm: the results are right in
//!   every lane, without spilling.
//! - A divergent loop whose lanes leave by `break` in different iterations: a value of
//!   the breaking iteration stays intact for the lanes that left (the loop exit stays
//!   an edge of the lanes' CFG; without it, the test fails).

mod backend_support;

use backend_support::ir_options;
use gcnc::amdgpu::mir::{Arg, RegType};
use gcnc::amdgpu::regalloc::{live, Budget};
use gcnc::compile_module;

/// Lane x: `v[i] = x + 3 * i` (read only in the else arm) defined before a divergent
/// `if` on x even; the then arm computes `u[i] = x * (i + 1)` itself; `n` of each. Each
/// arm sums `w[0] + Σ_{i≥1} w[i] * w[(i + 1) % n]` of its values; the result goes to
/// `out[x]`.
fn if_else(n: usize) -> String {
    let mut s = String::from(
        "shader compute local_size=64,1,1\n\nentry fn main() {\n  block_0:\n    \
         32x3 %0 = load_local_invocation_id\n    32x1 %1 = swizzle %0.x\n    \
         32x1 %2 = const 0\n    32x1 %3 = const 1\n    32x1 %4 = const 2\n",
    );
    // %(10+i), %(30+i): constants; %(100+i) = u[i]; %(200+i) = v[i]
    for i in 0..n {
        s += &format!("    32x1 %{} = const {}\n", 10 + i, i + 1);
        s += &format!("    32x1 %{} = const {}\n", 30 + i, 3 * i);
        s += &format!("    32x1 %{} = iadd %1, %{}\n", 200 + i, 30 + i);
    }
    s += "    32x1 %5 = iand %1, %3\n    1x1 %6 = ieq %5, %2\n  if %6 {\n    block_1:\n";
    for i in 0..n {
        s += &format!("      32x1 %{} = imul %1, %{}\n", 100 + i, 10 + i);
    }
    let arm = |s: &mut String, base: usize, tmp: usize| {
        let mut acc = base;
        for i in 1..n {
            *s += &format!(
                "      32x1 %{} = imul %{}, %{}\n      32x1 %{} = iadd %{acc}, %{}\n",
                tmp + 2 * i,
                base + i,
                base + (i + 1) % n,
                tmp + 2 * i + 1,
                tmp + 2 * i
            );
            acc = tmp + 2 * i + 1;
        }
        acc
    };
    let a = arm(&mut s, 100, 1000);
    s += "  } else {\n    block_2:\n";
    let b = arm(&mut s, 200, 2000);
    s += &format!(
        "  }}\n  block_3:\n    32x1 %7 = phi block_1: %{a}, block_2: %{b}\n    \
         32x2 %9 = vulkan_resource_index %2 binding=0 mode=ssbo\n    \
         32x1 %8 = ishl %1, %4\n    store_ssbo %7, %9, %8 write_mask=0x1 align=4\n}}\n"
    );
    s
}

fn if_else_want(x: u32, n: usize) -> u32 {
    let w: Vec<u32> = (0..n as u32)
        .map(|i| if x % 2 == 0 { x * (i + 1) } else { x + 3 * i })
        .collect();
    (1..n).fold(w[0], |a, i| {
        a.wrapping_add(w[i].wrapping_mul(w[(i + 1) % n]))
    })
}

#[test]
fn a_vgpr_read_only_in_the_else_arm_has_a_hole_over_the_then_arm() {
    let m = gcnc::ir::parse_module(&if_else(4)).unwrap();
    let t = gcnc::isa::Target::with_wave(gcnc::isa::Gen::Gfx11, gcnc::isa::Wave::W32).unwrap();
    let p = gcnc::amdgpu::isel::select(&m, t, &Default::default()).unwrap();
    let lr = live::ranges(&p);
    // layout positions of each block: [first read, last write]
    let mut span = Vec::new();
    let mut k = 0u32;
    for b in &p.blocks {
        span.push((2 * k, (2 * (k + b.insts.len() as u32)).saturating_sub(1)));
        k += b.insts.len() as u32;
    }
    let reads_in = |t: usize| -> Vec<usize> {
        (0..p.blocks.len())
            .filter(|&bi| {
                p.blocks[bi].insts.iter().any(|i| {
                    i.ops
                        .contains(&Arg::Temp(gcnc::amdgpu::mir::Temp(t as u32)))
                })
            })
            .collect()
    };
    // the then arm: the first block with a logical edge into it that is not the entry
    let then_b = p.blocks[0].logical_succs.iter().map(|b| b.0 as usize).min();
    let then_b = then_b.expect("the divergent if starts in the entry block");
    let (ts, te) = span[then_b];
    assert!(te > ts, "the then arm has instructions");
    let mut seen = 0;
    for t in 0..p.temps.len() {
        let blocks = reads_in(t);
        let Some(&last) = blocks.last() else { continue };
        if p.temps[t].ty != RegType::Vgpr || blocks.len() != 1 || last <= then_b + 1 {
            continue;
        }
        // a VGPR of the entry read in exactly one block after the then arm
        let segs = lr.of(t);
        if segs.first().is_none_or(|s| s.0 > span[0].1) {
            continue;
        }
        seen += 1;
        assert!(
            segs.iter().all(|&(s, e)| e < ts || s > te),
            "%{t} is live in the then arm: {segs:?}, then arm {ts}..{te}"
        );
        assert!(segs.len() >= 2, "%{t} has a hole: {segs:?}");
    }
    assert!(seen >= 4, "the else arm's values were found ({seen})");
}

#[test]
fn then_arm_temps_reuse_registers_of_values_waiting_for_the_else_arm() {
    let n = 12;
    let text = if_else(n);
    let m = gcnc::ir::parse_module(&text).unwrap();
    for (gen, wave) in backend_support::CONFIGS {
        let mut o = ir_options(gen, wave);
        // v waiting for the else arm and u in the then arm need 2n together; the then
        // arm fits in n + 6 only on v's registers
        o.budget = Some(Budget {
            sgprs: 106,
            vgprs: n as u16 + 6,
        });
        let c = compile_module(&m, &o).unwrap();
        assert_eq!(c.stats.spilled_vgprs, 0, "{}", c.stats.to_text());
        let out = backend_support::run_output_with(&text, &o, 1);
        for (x, got) in out.iter().enumerate() {
            assert_eq!(
                got[0],
                if_else_want(x as u32, n),
                "{} {wave:?} lane {x}",
                gen.mcpu()
            );
        }
    }
}

/// A divergent loop: lane x leaves by `break` in iteration `x & 3`; the header computes
/// `w[j] = (i + x) * (j + 1)`, their sum `s`, and then `n` more values from `i` that the
/// body after the break test reads. After the loop, `out[x] = s` of the iteration the
/// lane left in: `s` must stay live from the header through the body to the exit (a
/// lane that leaves writes the values after `s` while it is still active; if `s` were
/// dead after its definition, they could take its register).
fn break_loop(n: usize) -> String {
    let mut s = String::from(
        "shader compute local_size=64,1,1\n\nentry fn main() {\n  block_0:\n    \
         32x3 %0 = load_local_invocation_id\n    32x1 %1 = swizzle %0.x\n    \
         32x1 %2 = const 0\n    32x1 %3 = const 1\n    32x1 %4 = const 2\n    \
         32x1 %5 = const 3\n    32x1 %6 = iand %1, %5\n",
    );
    for j in 0..n {
        s += &format!("    32x1 %{} = const {}\n", 10 + j, j + 1);
        s += &format!("    32x1 %{} = const {}\n", 40 + j, 7 * j + 5);
    }
    s += "  loop {\n    block_1:\n      32x1 %7 = phi block_0: %2, block_3: %8\n      \
          32x1 %9 = iadd %7, %1\n";
    let mut acc = None;
    for j in 0..n {
        s += &format!("      32x1 %{} = imul %9, %{}\n", 100 + j, 10 + j);
    }
    for j in 0..n {
        acc = Some(match acc {
            None => 100,
            Some(a) => {
                s += &format!("      32x1 %{} = iadd %{a}, %{}\n", 200 + j, 100 + j);
                200 + j
            }
        });
    }
    let sum = acc.unwrap();
    // defined while the lanes about to leave are still active, read after the break
    for j in 0..n {
        s += &format!("      32x1 %{} = imul %7, %{}\n", 300 + j, 40 + j);
    }
    s += "      1x1 %20 = uge %7, %6\n    if %20 {\n      block_2:\n        break\n    } \
          else {\n      block_4:\n    }\n    block_3:\n";
    let mut acc = 300;
    for j in 1..n {
        s += &format!("      32x1 %{} = ixor %{acc}, %{}\n", 400 + j, 300 + j);
        acc = 400 + j;
    }
    s += &format!(
        "      32x1 %21 = umin %{acc}, %3\n      32x1 %24 = umax %21, %3\n      \
         32x1 %8 = iadd %7, %24\n  }}\n  block_5:\n    \
         32x2 %22 = vulkan_resource_index %2 binding=0 mode=ssbo\n    \
         32x1 %23 = ishl %1, %4\n    store_ssbo %{sum}, %22, %23 write_mask=0x1 align=4\n}}\n"
    );
    s
}

#[test]
fn a_value_of_the_breaking_iteration_survives_the_iterations_of_other_lanes() {
    let n = 10;
    let text = break_loop(n);
    for (gen, wave) in backend_support::CONFIGS {
        let o = ir_options(gen, wave);
        let out = backend_support::run_output_with(&text, &o, 1);
        for (x, got) in out.iter().enumerate() {
            let x = x as u32;
            let want = (x + (x & 3)).wrapping_mul((n * (n + 1) / 2) as u32);
            assert_eq!(got[0], want, "{} {wave:?} lane {x}", gen.mcpu());
        }
    }
}
