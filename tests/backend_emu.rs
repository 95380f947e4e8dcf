//! Compiled IR test shaders run on the emulator (tools/emu) for gfx900 wave64, gfx1030 and
//! gfx1100 in wave32 and wave64, with every strict check on (missing s_waitcnt, hazards,
//! reads of unwritten registers). A test shader's result is its last value: the test
//! appends a store of it to an output buffer (set 3, binding 0, one dword per thread, at
//! the local invocation index) and compares each thread's dword with a Rust expectation
//! (None: the lane returned early and stored nothing, so it is not compared).

mod backend_support;

use backend_support::*;
use gcnc::binary::UserData;
use gcnc::isa::{Gen, Target, Wave};
use gcnc::Options;
use gcnc_emu::{dispatch::run_workgroup, BufferDesc, Dispatch, Memory};

const PUSH: u64 = 0x1_0000;
const SETS: u64 = 0x2_0000;
const WGCOUNT: u64 = 0x3_0000;
const BUF: u64 = 0x4_0000;

struct Setup {
    push: Vec<u32>,
    /// set → bytes of descriptor memory
    sets: Vec<(u32, Vec<u32>)>,
    wgcount: [u32; 3],
    buffer: Vec<u32>,
}

/// The output buffer the result stores go to, and its descriptor set.
const OUT: u64 = 0x5_0000;
const OUT_SET: u64 = 3;

/// `ir` with a store of its last value (the last `%N = ...` of the entry function) to the
/// output buffer at the local invocation index, appended to the function's last block.
fn storing_result(ir: &str) -> String {
    let end = ir.rfind('}').expect("a function body");
    let last = ir[..end]
        .lines()
        .rev()
        .find_map(|l| {
            let l = l.trim();
            let (_, rest) = l.split_once(" %")?;
            let (n, _) = rest.split_once(" = ")?;
            l.starts_with("32x1 ").then(|| n.to_string())
        })
        .expect("a 32-bit result value");
    format!(
        "{}    32x1 %9000 = load_local_invocation_index
    32x1 %9001 = const 2
    32x1 %9002 = ishl %9000, %9001
    32x1 %9003 = const 0
    32x2 %9004 = vulkan_resource_index %9003 set={OUT_SET} binding=0 mode=ssbo
    store_ssbo %{last}, %9004, %9002 write_mask=0x1 align=4
{}",
        &ir[..end],
        &ir[end..]
    )
}

fn run_case(
    ir: &str,
    gen: Gen,
    wave: Wave,
    setup: &Setup,
    wg: [u32; 3],
    expect: &dyn Fn(u32, [u32; 3]) -> Option<u32>,
) {
    let c = compile_ir(&storing_result(ir), gen, wave);
    let mut d = Dispatch::from_elf(&c.elf, Some(wave)).expect("dispatch from ELF");
    let mut mem = Memory::new();
    mem.map(OUT, 4096);
    mem.map(PUSH, 4096);
    mem.map(SETS, 8 * 4096);
    mem.map(WGCOUNT, 4096);
    mem.map(BUF, 4096);
    for (k, v) in setup.push.iter().enumerate() {
        mem.write_u32(PUSH + 4 * k as u64, *v).unwrap();
    }
    for (s, words) in &setup.sets {
        for (k, v) in words.iter().enumerate() {
            mem.write_u32(SETS + 4096 * *s as u64 + 4 * k as u64, *v)
                .unwrap();
        }
    }
    for (k, v) in BufferDesc::raw(gen, OUT, 4096).iter().enumerate() {
        mem.write_u32(SETS + 4096 * OUT_SET + 4 * k as u64, *v)
            .unwrap();
    }
    for k in 0..3 {
        mem.write_u32(WGCOUNT + 4 * k as u64, setup.wgcount[k])
            .unwrap();
    }
    for (k, v) in setup.buffer.iter().enumerate() {
        mem.write_u32(BUF + 4 * k as u64, *v).unwrap();
    }
    // user SGPRs from the ABI mapping in the program
    let mut sg = Vec::new();
    for u in &c.program.abi.user_sgprs {
        let addr = |a: u64, hi: bool| if hi { (a >> 32) as u32 } else { a as u32 };
        sg.push(match *u {
            UserData::Entry(n) => {
                let (base, hi) = if n < 2 {
                    (PUSH, n == 1)
                } else {
                    (SETS + 4096 * ((n as u64 - 2) / 2), n % 2 == 1)
                };
                addr(base, hi)
            }
            UserData::Workgroup => addr(WGCOUNT, false),
            UserData::GlobalTable => d.global_table_lo(),
            UserData::Unused => addr(WGCOUNT, true),
            other => panic!("unexpected user data {other:?}"),
        });
    }
    d.user_sgprs = sg;
    let waves = run_workgroup(&d, &mut mem, wg).unwrap_or_else(|e| {
        panic!(
            "{} {wave:?}: emulator: {e}\n{}",
            gen.mcpu(),
            c.asm().unwrap()
        )
    });
    let lanes = wave.lanes();
    let [sx, sy, sz] = c.program.workgroup_size;
    for wi in 0..waves.len() {
        for lane in 0..lanes {
            let t = wi as u32 * lanes + lane;
            if t >= sx * sy * sz {
                continue;
            }
            let local = [t % sx, (t / sx) % sy, t / (sx * sy)];
            let Some(want) = expect(t, local) else {
                continue;
            };
            let got = mem.read_u32(OUT + 4 * t as u64).unwrap();
            assert_eq!(
                got,
                want,
                "{} {wave:?} thread {t} (lane {lane}):\n{}",
                gen.mcpu(),
                c.asm().unwrap()
            );
        }
    }
}

fn control_flow_expect(x: u32, p: u32) -> Option<u32> {
    let v = if x < 32 {
        let t = 3 * x;
        if x < p {
            t + p
        } else {
            t
        }
    } else {
        x - 32
    };
    let (mut i, mut n) = (0u32, v);
    loop {
        if i >= n {
            break;
        }
        let i1 = i + 1;
        if i & 1 == 1 {
            i = i1;
            continue;
        }
        i = i1 + 1;
        n -= 1;
    }
    let w = i + n;
    let r = w + p; // the uniform loop counts up to p
    (r != 0).then(|| r.wrapping_mul(r))
}

/// A setup with only the push constant `[p, 0]` set.
fn push_only(p: u32) -> Setup {
    Setup {
        push: vec![p, 0],
        sets: vec![],
        wgcount: [1, 1, 1],
        buffer: vec![],
    }
}

/// Runs the IR test shader at `path` with only the push constant `[p, 0]` set, for each
/// `p` and every configuration; `expect(thread, p)`.
fn run_push_cases(path: &str, ps: &[u32], expect: &dyn Fn(u32, u32) -> Option<u32>) {
    let ir = std::fs::read_to_string(path).unwrap();
    for &p in ps {
        let setup = push_only(p);
        for (g, w) in CONFIGS {
            run_case(&ir, g, w, &setup, [0, 0, 0], &|t, _| expect(t, p));
        }
    }
}

#[test]
fn control_flow_on_emulator() {
    run_push_cases(
        "tests/backend/control_flow.ir",
        &[0, 20, 40],
        &control_flow_expect,
    );
}

/// tests/backend/loop_divergent_exit.ir in Rust: an accumulating loop left when the
/// accumulator passes the thread index (its counter stays in an SGPR), then a loop whose
/// counter, read after it, is where each thread left, then a loop whose exit test is read
/// after it as an `if` condition.
fn divergent_exit_expect(t: u32, p: u32) -> u32 {
    let (mut i, mut acc) = (0u32, 0u32);
    while i < p && t >= acc {
        acc += i;
        i += 1;
    }
    let mut j = 0u32;
    while j < p && t >= j {
        j += 1;
    }
    let mut k = 0u32;
    while k < p && t >= k {
        k += 1;
    }
    let flag = if k >= p { 1 } else { 2 };
    (flag << 16) + acc.wrapping_mul(256).wrapping_add(j)
}

#[test]
fn loops_left_by_divergent_breaks_on_emulator() {
    run_push_cases(
        "tests/backend/loop_divergent_exit.ir",
        &[0, 5, 40],
        &|t, p| Some(divergent_exit_expect(t, p)),
    );
}

/// tests/backend/loop_divergent_continue.ir in Rust: a loop of `p` iterations whose
/// `continue` is taken where bit `a` of the thread index is set; the other threads run an
/// inner loop of `t & 3` iterations adding `a * 16 + b + 1`.
fn divergent_continue_expect(t: u32, p: u32) -> u32 {
    let mut acc = 0u32;
    for a in 0..p {
        if (t >> a) & 1 == 1 {
            continue;
        }
        for b in 0..(t & 3) {
            acc += a * 16 + b + 1;
        }
    }
    acc
}

#[test]
fn a_loop_counter_read_after_a_divergent_continue_on_emulator() {
    run_push_cases(
        "tests/backend/loop_divergent_continue.ir",
        &[0, 3, 7],
        &|t, p| Some(divergent_continue_expect(t, p)),
    );
}

/// tests/backend/ballot_bit_count.ir in Rust, for thread `t` of a wave of `lanes` lanes:
/// only the dwords of the wave's lanes count.
fn ballot_bit_count_expect(t: u32, p: u32, lanes: u32) -> u32 {
    let count = |v: [u32; 4]| -> u32 {
        v[..(lanes / 32) as usize]
            .iter()
            .map(|d| d.count_ones())
            .sum()
    };
    let first = t / lanes * lanes;
    let below_p = p.saturating_sub(first).min(lanes);
    count([p, 0x0f0f, 7, 0]) + (count([0x0f0f, p, 7, 0]) << 8) + (below_p << 16)
}

#[test]
fn ballot_bit_counts_read_the_waves_dwords_on_emulator() {
    let ir = std::fs::read_to_string("tests/backend/ballot_bit_count.ir").unwrap();
    for p in [0, 5, 0x8000_0041] {
        let setup = push_only(p);
        for (g, w) in CONFIGS {
            run_case(&ir, g, w, &setup, [0, 0, 0], &|t, _| {
                Some(ballot_bit_count_expect(t, p, w.lanes()))
            });
        }
    }
}

#[test]
fn builtins_64bit_on_emulator() {
    let ir = std::fs::read_to_string("tests/backend/builtins_64bit.ir").unwrap();
    let (nx, ny, nz) = (5u32, 3u32, 7u32);
    for (g, w) in CONFIGS {
        // set 1: binding 2 element 1 at 0x20 + 16 is a raw buffer over BUF
        let mut set1 = vec![0u32; 16];
        set1[12..16].copy_from_slice(&BufferDesc::raw(g, BUF, 4096));
        let mut buffer = vec![0u32; 64];
        buffer[(nx + 7) as usize / 4] = 1000;
        let setup = Setup {
            push: vec![1],
            sets: vec![(1, set1)],
            wgcount: [nx, ny, nz],
            buffer,
        };
        let wg = [2u32, 1, 3];
        let lanes = w.lanes();
        run_case(&ir, g, w, &setup, wg, &|t, l| {
            let gid = [wg[0] * 8 + l[0], wg[1] * 4 + l[1], wg[2] * 2 + l[2]];
            let idx = l[0] + l[1] * 8 + l[2] * 32;
            let sub = t % lanes;
            let v9 = gid[0].wrapping_add(nx.wrapping_mul(gid[1]));
            let v12 = (v9 as u64).wrapping_add(1 << 32);
            let v15 = (ny as i32 as i64 as u64).wrapping_add(1 << 32);
            let v16 = v12.wrapping_sub(v15);
            let v18 = (v16 >> 32) as u32;
            let c22 = sub < 7 && gid[2] != idx;
            let v24 = if !c22 { v18 } else { v9 };
            let v35 = v24.wrapping_add(1000);
            Some(v35 + (v16 == v12) as u32)
        });
    }
}

#[test]
fn float_on_emulator() {
    let ir = std::fs::read_to_string("tests/backend/float.ir").unwrap();
    for p in [1.5f32, -3.25, 7.0] {
        let setup = Setup {
            push: vec![p.to_bits(), 0],
            sets: vec![],
            wgcount: [1, 1, 1],
            buffer: vec![],
        };
        for (g, w) in CONFIGS {
            run_case(&ir, g, w, &setup, [0, 0, 0], &|_, l| {
                let (x, y) = (l[0] as i32 as f32, l[1] as f32);
                let v8 = x.mul_add(0.25, p);
                let v9 = v8.floor();
                let v10 = v8 - v8.floor();
                let v13 = (v9 * y).max(-v10);
                let v16 = if v13 < p { v10.abs() } else { v13 };
                let v18 = v16 * (p + p);
                Some((v18 as i32).wrapping_add(l[0] as i32) as u32)
            });
        }
    }
}

#[test]
fn buffers_on_emulator() {
    // set 0: binding 0 = input (IN), binding 1 = output (OUT), raw V#s
    const IN: u64 = 0x10_0000;
    const OUT: u64 = 0x20_0000;
    let ir = std::fs::read_to_string("tests/backend/buffers.ir").unwrap();
    for (g, w) in CONFIGS {
        let c = compile_ir(&ir, g, w);
        let mut d = Dispatch::from_elf(&c.elf, Some(w)).unwrap();
        let mut mem = Memory::new();
        mem.map(SETS, 4096);
        mem.map(IN, 0x2000);
        mem.map(OUT, 0x6000);
        let input: Vec<u32> = (0..0x2000 / 4)
            .map(|k: u32| k.wrapping_mul(2654435761))
            .collect();
        for (k, v) in input.iter().enumerate() {
            mem.write_u32(IN + 4 * k as u64, *v).unwrap();
        }
        for (k, v) in BufferDesc::raw(g, IN, 0x2000).iter().enumerate() {
            mem.write_u32(SETS + 4 * k as u64, *v).unwrap();
        }
        for (k, v) in BufferDesc::raw(g, OUT, 0x6000).iter().enumerate() {
            mem.write_u32(SETS + 16 + 4 * k as u64, *v).unwrap();
        }
        assert_eq!(
            c.program.abi.user_sgprs,
            vec![UserData::Entry(2), UserData::Entry(3)]
        );
        d.user_sgprs = vec![SETS as u32, (SETS >> 32) as u32];
        gcnc_emu::run(&d, &mut mem)
            .unwrap_or_else(|e| panic!("{} {w:?}: {e}\n{}", g.mcpu(), c.asm().unwrap()));
        for x in 0..64u32 {
            let q = (4 * x) as usize;
            let v14 = input[q]
                .wrapping_add(input[q + 3])
                .wrapping_add(input[0x1000 / 4]);
            let v17 = input[q + 1];
            let rd = |a: u64| mem.read_u32(a).unwrap();
            let o = OUT + 16 * x as u64;
            assert_eq!(rd(o), v14, "{} {w:?} x={x}", g.mcpu());
            assert_eq!(rd(o + 4), v17, "{} {w:?} x={x}", g.mcpu());
            assert_eq!(rd(o + 12), x, "{} {w:?} x={x}", g.mcpu());
            assert_eq!(rd(OUT + 0x2000 + 256 * x as u64), v14);
        }
    }
}

/// A loop whose if/else chain breaks in every arm leaves unreachable blocks that the
/// exit phi does not list (tests/backend/unreachable_pred.ir, reduced from a real
/// matrix-vector kernel that failed with "phi without a source for its predecessor").
#[test]
fn a_phi_may_omit_unreachable_predecessors() {
    let text = std::fs::read_to_string("tests/backend/unreachable_pred.ir").unwrap();
    for (g, w) in CONFIGS {
        let out = run_output(&text, g, w, 1);
        for (x, o) in out.iter().enumerate() {
            let x = x as u32;
            let want = match x {
                0..=7 => x + 7,
                8..=15 => x * 7,
                16..=31 => x - 7,
                _ => x << 7,
            };
            assert_eq!(o[0], want, "{} {w:?} x={x}", g.mcpu());
        }
    }
}

/// A loop whose body is longer than a SOPP branch reaches (±32 Ki dwords): the branch
/// over the body's divergent `if` jumps forward and the back edge jumps back over it,
/// both in the long form (`s_getpc_b64` … `s_setpc_b64`). Lane x runs (x & 1) + 1
/// iterations (a divergent exit), each applying `v = v * 3 + 1` `K` times to v = x when
/// x < 48.
#[test]
fn branches_beyond_the_sopp_range_take_the_long_form() {
    const K: u32 = 12_000;
    let mut body = String::new();
    let mut v = 20; // %20: the loop phi; the body's values follow from %100
    for k in 0..K {
        let (m, a) = (100 + 2 * k, 101 + 2 * k);
        body += &format!("      32x1 %{m} = imul %{v}, %4\n      32x1 %{a} = iadd %{m}, %3\n");
        v = a;
    }
    let text = format!(
        "shader compute local_size=64,1,1

entry fn main() {{
  block_0:
    32x3 %0 = load_local_invocation_id
    32x1 %1 = swizzle %0.x
    32x1 %2 = const 0
    32x1 %3 = const 1
    32x1 %4 = const 3
    32x1 %5 = iand %1, %3
    32x1 %6 = iadd %5, %3
    32x1 %7 = const 2
    32x1 %16 = const 48
  loop {{
    block_1:
      32x1 %10 = phi block_0: %2, block_8: %11
      32x1 %20 = phi block_0: %1, block_8: %21
      1x1 %12 = uge %10, %6
    if %12 {{
      block_2:
        break
    }} else {{
      block_4:
    }}
    block_3:
      1x1 %15 = ult %1, %16
    if %15 {{
      block_6:
{body}    }} else {{
      block_7:
    }}
    block_8:
      32x1 %21 = phi block_6: %{v}, block_7: %20
      32x1 %11 = iadd %10, %3
  }}
  block_5:
    32x2 %13 = vulkan_resource_index %2 binding=0 mode=ssbo
    32x1 %14 = ishl %1, %7
    store_ssbo %20, %13, %14 write_mask=0x1 align=4
}}
"
    );
    let tools = oracle("llvm-objdump-19").zip(oracle("llvm-readelf-19"));
    for (g, w) in CONFIGS {
        let c = compile_ir(&text, g, w);
        // the long form's encoding as LLVM reads it
        if let Some((objdump, readelf)) = &tools {
            objdump_agrees(objdump, readelf, "long_branch", g, w, &c);
        }
        let asm = c.asm().unwrap();
        assert!(
            asm.matches("s_setpc_b64").count() >= 2,
            "{} {w:?}: no long branches",
            g.mcpu()
        );
        let out = run_output(&text, g, w, 1);
        for (x, o) in out.iter().enumerate() {
            let mut want = x as u32;
            for _ in 0..(x as u32 & 1) + 1 {
                for _ in 0..if x < 48 { K } else { 0 } {
                    want = want.wrapping_mul(3).wrapping_add(1);
                }
            }
            assert_eq!(o[0], want, "{} {w:?} x={x}", g.mcpu());
        }
    }
}

/// `a*a - b` for a = 4097, b = 4097² rounded to f32: the product 16785409 needs 25 bits
/// and rounds (ties to even) to 16785408 = b, so computed as written the result is 0; fused
/// into one fma it is exactly 1. `exact` (SPIR-V NoContraction, GLSL `precise`) must keep
/// the two roundings; without it the middle end fuses, which this test shows too.
fn multiply_add(exact: &str) -> String {
    format!(
        "shader compute local_size=1,1,1

entry fn main() {{
  block_0:
    32x3 %0 = load_local_invocation_id
    32x1 %1 = swizzle %0.x
    32x1 %2 = const 4097
    32x1 %3 = iadd %1, %2
    32x1 %4 = u2f %3
    32x1 %5 = {exact}fmul %4, %4
    32x1 %6 = const 0xcb801000 ; -16785408.0
    32x1 %7 = {exact}fadd %5, %6
    32x1 %8 = const 0
    32x2 %9 = vulkan_resource_index %8 binding=0 mode=ssbo
    store_ssbo %7, %9, %8 write_mask=0x1 align=4
}}
"
    )
}

#[test]
fn a_precise_multiply_add_is_rounded_twice_on_emulator() {
    assert_eq!(-16785408f32, f32::from_bits(0xcb80_1000));
    for (g, w) in CONFIGS {
        let o = Options::new(Target::with_wave(g, w).unwrap());
        let precise = run_output_with(&multiply_add("exact "), &o, 1);
        assert_eq!(
            f32::from_bits(precise[0][0]),
            0.0,
            "{} {w:?} precise",
            g.mcpu()
        );
        let fused = run_output_with(&multiply_add(""), &o, 1);
        assert_eq!(
            f32::from_bits(fused[0][0]),
            1.0,
            "{} {w:?} contracted",
            g.mcpu()
        );
    }
}
