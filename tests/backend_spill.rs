//! The spill pass, as specifications.
//!
//! File tests (`tests/backend_spill/*.ir`): the first line is `; SPILL: <gfx900|gfx1030|
//! gfx1100> w<32|64> sgprs=<N>`, then the IR shader, then a line `; CHECK:` followed by the
//! machine IR after instruction selection and spilling to N SGPRs, verbatim.
//! `GCNC_BLESS=1 cargo test --test backend_spill` rewrites the expectations. Each file is
//! then allocated and compiled under that budget (the spilled program must verify, and
//! assignment must succeed in it).
//!
//! The other tests state properties: reloads define fresh temps used once, slots of
//! tuples stay in one linear VGPR, the statistics report the spilled dwords, VGPRs go to
//! scratch (and a budget of none is a clean error), and fragmentation is resolved by a live-range split
//! (a parallel copy) instead of a spill.

mod backend_support;

use backend_support::ir_options;
use gcnc::amdgpu::mir::{print::print_program, verify::verify, Arg, Op, Program, Pseudo};
use gcnc::amdgpu::regalloc::{allocate, spill, Budget};
use gcnc::compile_module;
use gcnc::isa::{Gen, Target, Wave};
use std::path::Path;

const CHECK: &str = "; CHECK:";

fn parse_header(line: &str) -> Result<(Target, u16), String> {
    let rest = line
        .strip_prefix("; SPILL:")
        .ok_or("first line must be `; SPILL: <gen> w<lanes> sgprs=<n>`")?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let [gen, wave, sgprs] = f[..] else {
        return Err(format!("bad header `{line}`"));
    };
    let gen = match gen {
        "gfx900" => Gen::Gfx9,
        "gfx1030" => Gen::Gfx10,
        "gfx1100" => Gen::Gfx11,
        g => return Err(format!("unknown target {g}")),
    };
    let wave = match wave {
        "w32" => Wave::W32,
        "w64" => Wave::W64,
        w => return Err(format!("unknown wave {w}")),
    };
    let sgprs = sgprs
        .strip_prefix("sgprs=")
        .and_then(|n| n.parse().ok())
        .ok_or(format!("bad budget `{sgprs}`"))?;
    let t = Target::with_wave(gen, wave).map_err(|e| e.to_string())?;
    Ok((t, sgprs))
}

fn select(ir: &str, t: Target) -> (gcnc::ir::Module, Program) {
    let m = gcnc::ir::parse_module(ir).expect("test IR parses");
    gcnc::ir::verify_module(&m).expect("test IR verifies");
    let p = gcnc::amdgpu::isel::select(&m, t, &Default::default()).expect("isel");
    verify(&p, false).expect("isel output verifies");
    (m, p)
}

fn run_file(path: &Path, bless: bool) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let (t, sgprs) = parse_header(text.lines().next().unwrap_or(""))?;
    let (input, expected) = match text.find(&format!("\n{CHECK}\n")) {
        Some(k) => (&text[..k + 1], &text[k + CHECK.len() + 2..]),
        None => return Err("missing `; CHECK:` line".into()),
    };
    let budget = Budget {
        sgprs,
        vgprs: Budget::full(t.gen).vgprs,
    };
    let (m, mut p) = select(input, t);
    let mut st = spill::State::default();
    spill::spill(&mut p, budget, &mut st).map_err(|e| format!("spill: {e}"))?;
    verify(&p, false).map_err(|e| format!("spilled program: {e}"))?;
    let got = print_program(&p);
    allocate(&mut p, budget).map_err(|e| format!("allocation after spilling: {e}"))?;
    verify(&p, true).map_err(|e| format!("allocated program: {e}"))?;
    let mut o = ir_options(t.gen, t.wave);
    o.budget = Some(budget);
    let c = compile_module(&m, &o).map_err(|e| format!("compile: {e}"))?;
    if c.stats.sgprs > sgprs as u32 {
        return Err(format!("uses {} SGPRs", c.stats.sgprs));
    }
    if bless {
        std::fs::write(path, format!("{input}{CHECK}\n{got}")).map_err(|e| e.to_string())?;
        return Ok(());
    }
    if got != expected {
        return Err(format!(
            "output differs (GCNC_BLESS=1 to update)\n--- expected\n{expected}--- got\n{got}"
        ));
    }
    Ok(())
}

#[test]
fn spill_file_tests() {
    let bless = std::env::var("GCNC_BLESS").is_ok_and(|v| v == "1");
    let mut files: Vec<_> = std::fs::read_dir("tests/backend_spill")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ir"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    for f in &files {
        if let Err(e) = run_file(f, bless) {
            failures.push(format!("{}: {e}", f.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The IR of `uniform_loop.ir` (without its expectation).
fn shader() -> &'static str {
    let f = include_str!("backend_spill/uniform_loop.ir");
    &f[..f
        .find(&format!("\n{CHECK}\n"))
        .expect("has a CHECK section")
        + 1]
}

#[test]
fn reloads_are_fresh_temps_used_once_and_slots_are_lanes() {
    for (gen, wave) in backend_support::CONFIGS {
        let t = Target::with_wave(gen, wave).unwrap();
        let (_, mut p) = select(shader(), t);
        let before = p.temps.len();
        let mut st = spill::State::default();
        let budget = Budget {
            sgprs: 6,
            vgprs: 256,
        };
        spill::spill(&mut p, budget, &mut st).unwrap();
        verify(&p, false).unwrap();
        assert!(st.spilled_sgprs > 0, "{}", print_program(&p));
        let mut uses = vec![0u32; p.temps.len()];
        let mut reloads = Vec::new();
        let mut lanes = Vec::new();
        for b in &p.blocks {
            for i in &b.insts {
                for o in &i.ops {
                    if let Arg::Temp(t) = o {
                        uses[t.0 as usize] += 1;
                    }
                }
                match i.op {
                    Op::Pseudo(Pseudo::Reload) => {
                        let Arg::Temp(d) = i.defs[0] else { panic!() };
                        assert!(d.0 as usize >= before, "a reload defines a new temp");
                        reloads.push(d);
                    }
                    Op::Pseudo(Pseudo::Spill) => {
                        let (Arg::Temp(v), Arg::Temp(s), Arg::Imm(l)) =
                            (i.ops[0], i.ops[1], i.ops[2])
                        else {
                            panic!()
                        };
                        assert!(p.rc(v).ty == gcnc::amdgpu::mir::RegType::Vgpr);
                        let n = p.rc(s).dwords as u32;
                        assert!(l + n <= wave.lanes(), "a slot stays inside one VGPR");
                        lanes.push((v, l, n));
                    }
                    _ => {}
                }
            }
        }
        assert!(!reloads.is_empty());
        for r in reloads {
            assert_eq!(uses[r.0 as usize], 1, "each reload feeds one instruction");
        }
        // distinct temps get disjoint lanes (a phi web's definitions share one slot)
        lanes.sort();
        lanes.dedup();
        for w in lanes.windows(2) {
            if w[0].0 == w[1].0 {
                assert!(w[0].1 + w[0].2 <= w[1].1, "overlapping slots {w:?}");
            }
        }
        allocate(&mut p, budget).unwrap();
        verify(&p, true).unwrap();
    }
}

#[test]
fn statistics_report_spills() {
    let m = gcnc::ir::parse_module(shader()).unwrap();
    for (gen, wave) in backend_support::CONFIGS {
        let mut o = ir_options(gen, wave);
        let free = compile_module(&m, &o).unwrap();
        assert_eq!(free.stats.spilled_sgprs, 0);
        o.budget = Some(Budget {
            sgprs: 6,
            vgprs: 256,
        });
        let c = compile_module(&m, &o).unwrap();
        assert!(c.stats.spilled_sgprs > 0);
        assert!(c.stats.sgprs <= 6);
        assert!(c
            .stats
            .to_text()
            .contains(&format!("Spilled SGPRs: {}\n", c.stats.spilled_sgprs)));
        assert!(
            c.asm().unwrap().contains("v_writelane_b32")
                && c.asm().unwrap().contains("v_readlane_b32")
        );
        // deterministic
        assert_eq!(compile_module(&m, &o).unwrap().elf, c.elf);
    }
}

/// `shader()` with two of its VGPR values also read at the very end, so three or more
/// VGPRs are live at once (its own phi web computes in place and fits in two).
fn vgpr_heavy_shader() -> String {
    let s = shader().replace(
        "store_ssbo %21, %22, %23",
        "32x1 %90 = iadd %21, %18\n    32x1 %91 = iadd %90, %19\n    store_ssbo %91, %22, %23",
    );
    assert!(s.contains("%91"), "the fixture changed");
    s
}

#[test]
fn vgpr_spills_go_to_scratch() {
    let m = gcnc::ir::parse_module(&vgpr_heavy_shader()).unwrap();
    for (gen, wave) in backend_support::CONFIGS {
        let mut o = ir_options(gen, wave);
        let free = compile_module(&m, &o).unwrap();
        assert_eq!(free.stats.spilled_vgprs, 0);
        assert_eq!(free.stats.scratch_size, 0);
        // three VGPRs: the two adds select as one `v_add3_u32`, whose three sources are
        // live at once; below that no allocation exists, spilled or not
        o.budget = Some(Budget {
            sgprs: 106,
            vgprs: 3,
        });
        let c = compile_module(&m, &o).unwrap();
        assert!(c.stats.spilled_vgprs > 0, "{}", c.asm().unwrap());
        assert!(c.stats.vgprs <= 3);
        assert!(c.stats.scratch_size >= 4 * c.stats.spilled_vgprs);
        assert!(
            c.asm().unwrap().contains("scratch_store") && c.asm().unwrap().contains("scratch_load")
        );
        assert!(c
            .stats
            .to_text()
            .contains(&format!("Spilled VGPRs: {}\n", c.stats.spilled_vgprs)));
    }
    // no VGPR at all cannot hold a VGPR definition: a clean error
    let mut o = ir_options(Gen::Gfx10, Wave::W32);
    o.budget = Some(Budget {
        sgprs: 106,
        vgprs: 0,
    });
    let e = compile_module(&m, &o).unwrap_err();
    assert!(
        matches!(
            e,
            gcnc::Error::Backend(gcnc::amdgpu::Error::RegisterPressure { file: "VGPR", .. })
        ),
        "{e}"
    );
}

#[test]
fn a_budget_below_the_unspillable_minimum_is_a_clean_error() {
    let m = gcnc::ir::parse_module(shader()).unwrap();
    let mut o = ir_options(Gen::Gfx11, Wave::W32);
    o.budget = Some(Budget {
        sgprs: 2,
        vgprs: 256,
    });
    let e = compile_module(&m, &o).unwrap_err();
    assert!(
        matches!(
            e,
            gcnc::Error::Backend(gcnc::amdgpu::Error::RegisterPressure { file: "SGPR", .. })
        ),
        "{e}"
    );
}

/// Four SGPRs; `a`, `b`, `c` take s0, s1, s2; `b` dies; the pair `d` then finds s1 and s3
/// free but no aligned pair. Demand (a, c, d = 4 dwords) fits, so assignment must split —
/// move `a` or `c` with a parallel copy — rather than spill.
#[test]
fn fragmentation_is_resolved_by_splitting_not_spilling() {
    use gcnc::amdgpu::mir::{MInst, Pseudo, RegClass};
    use gcnc::isa::{Format, Opcode, Reg};
    let op = |n: &str| Opcode::from_name(n).unwrap();
    let t = Target::with_wave(Gen::Gfx10, Wave::W32).unwrap();
    let mut p = Program::new(t);
    p.new_block(0);
    let [a, b, c, e] = [(); 4].map(|_| p.new_temp(RegClass::S1));
    let [d, g] = [(); 2].map(|_| p.new_temp(RegClass::S2));
    let mov = |d, k| {
        MInst::hw(
            op("s_mov_b32"),
            Format::Sop1,
            &[Arg::Temp(d)],
            &[Arg::Const(k)],
        )
    };
    let ins = &mut p.blocks[0].insts;
    ins.push(MInst::pseudo(Pseudo::StartPgm, &[], &[]));
    ins.push(mov(a, 1));
    ins.push(mov(b, 2));
    ins.push(mov(c, 3));
    ins.push(MInst::hw(
        op("s_cmp_eq_u32"),
        Format::Sopc,
        &[],
        &[Arg::Temp(b), Arg::Const(0)],
    ));
    ins.push(MInst::hw(
        op("s_mov_b64"),
        Format::Sop1,
        &[Arg::Temp(d)],
        &[Arg::Const(0)],
    ));
    ins.push(MInst::hw(
        op("s_add_u32"),
        Format::Sop2,
        &[Arg::Temp(e)],
        &[Arg::Temp(a), Arg::Temp(c)],
    ));
    ins.push(MInst::hw(
        op("s_not_b64"),
        Format::Sop1,
        &[Arg::Temp(g)],
        &[Arg::Temp(d)],
    ));
    ins.push(MInst::hw(op("s_endpgm"), Format::Sopp, &[], &[Arg::Imm(0)]));
    verify(&p, false).unwrap();
    let u = allocate(
        &mut p,
        Budget {
            sgprs: 4,
            vgprs: 256,
        },
    )
    .unwrap();
    verify(&p, true).unwrap();
    assert_eq!(u.spilled_sgprs, 0, "{}", print_program(&p));
    assert!(u.sgprs <= 4);
    let insts = &p.blocks[0].insts;
    let copy = insts
        .iter()
        .position(|i| i.op == Op::Pseudo(Pseudo::ParallelCopy))
        .unwrap_or_else(|| panic!("no split copy:\n{}", print_program(&p)));
    // the copy sits right before the pair's definition, and the pair is aligned
    assert_eq!(insts[copy + 1].opcode(), Some(op("s_mov_b64")));
    let Arg::Reg(Reg { base, .. }) = insts[copy + 1].defs[0] else {
        panic!()
    };
    assert_eq!(base.0 % 2, 0);
}

/// A loop that carries `n` divergent values (a phi web each: defined before the loop and
/// at its latch) and sums them after it: `out[x]` is the sum after `trips` rounds of
/// `v[i] = v[i] * v[(i + 1) % n] + i`, starting from `v[i] = x + i`.
fn loop_carried(n: usize, trips: u32) -> String {
    let mut s = String::from(
        "shader compute local_size=64,1,1\n\nentry fn main() {\n  block_0:\n    \
         32x3 %0 = load_local_invocation_id\n    32x1 %1 = swizzle %0.x\n    \
         32x1 %2 = const 0\n    32x1 %3 = const 1\n    32x1 %4 = const 2\n    \
         32x1 %5 = const TRIPS\n",
    )
    .replace("TRIPS", &trips.to_string());
    // %(10+i): constant i; %(100+i): initial value; %(200+i): the phi; %(300+i): next
    for i in 0..n {
        s += &format!("    32x1 %{} = const {i}\n", 10 + i);
        s += &format!("    32x1 %{} = iadd %1, %{}\n", 100 + i, 10 + i);
    }
    s += "  loop {\n    block_1:\n      32x1 %6 = phi block_0: %2, block_3: %7\n";
    for i in 0..n {
        s += &format!(
            "      32x1 %{} = phi block_0: %{}, block_3: %{}\n",
            200 + i,
            100 + i,
            300 + i
        );
    }
    s += "      1x1 %8 = uge %6, %5\n    if %8 {\n      block_2:\n        break\n    } \
          else {\n      block_4:\n    }\n    block_3:\n";
    for i in 0..n {
        s += &format!(
            "      32x1 %{} = imul %{}, %{}\n      32x1 %{} = iadd %{}, %{}\n",
            400 + i,
            200 + i,
            200 + (i + 1) % n,
            300 + i,
            400 + i,
            10 + i
        );
    }
    s += "      32x1 %7 = iadd %6, %3\n  }\n  block_5:\n";
    let mut acc = 200;
    for i in 1..n {
        s += &format!("    32x1 %{} = iadd %{acc}, %{}\n", 500 + i, 200 + i);
        acc = 500 + i;
    }
    s += &format!(
        "    32x2 %9 = vulkan_resource_index %2 binding=0 mode=ssbo\n    \
         32x1 %8000 = ishl %1, %4\n    store_ssbo %{acc}, %9, %8000 write_mask=0x1 align=4\n}}\n"
    );
    s
}

#[test]
fn a_spilled_phi_web_frees_its_registers_between_definitions() {
    // 12 values live around the back edge with a budget of 8 VGPRs: the webs must be
    // spilled, and a spilled web may not stay live from its first definition (before
    // the loop) to its last (the latch), or nothing is gained
    let (n, trips) = (12, 3);
    let text = loop_carried(n, trips);
    for (gen, wave) in backend_support::CONFIGS {
        let mut o = ir_options(gen, wave);
        o.budget = Some(Budget {
            sgprs: 106,
            vgprs: 8,
        });
        let out = backend_support::run_output_with(&text, &o, 1);
        let m = gcnc::ir::parse_module(&text).unwrap();
        let c = compile_module(&m, &o).unwrap();
        assert!(
            c.stats.spilled_vgprs > 0 && c.stats.vgprs <= 8,
            "{}",
            c.stats.to_text()
        );
        for (x, o) in out.iter().enumerate() {
            let mut v: Vec<u32> = (0..n as u32).map(|i| x as u32 + i).collect();
            for _ in 0..trips {
                v = (0..n)
                    .map(|i| v[i].wrapping_mul(v[(i + 1) % n]).wrapping_add(i as u32))
                    .collect();
            }
            let want = v.iter().fold(0u32, |a, b| a.wrapping_add(*b));
            assert_eq!(o[0], want, "{} {wave:?} x={x}", gen.mcpu());
        }
    }
}

/// Straight-line code in one file (`vector`: VGPRs, else SGPRs) where eight constants
/// (moves of literals) are defined first and read one by one into a running sum, so all
/// are live at once: (program, the value of the sum).
fn constants_live_at_once(vector: bool) -> (Program, u32) {
    use gcnc::amdgpu::mir::{MInst, RegClass};
    use gcnc::isa::{Format, Opcode};
    let t = Target::with_wave(Gen::Gfx10, Wave::W32).unwrap();
    let mut p = Program::new(t);
    p.new_block(0);
    let rc = if vector { RegClass::V1 } else { RegClass::S1 };
    let (mov, add, fmov, fadd) = if vector {
        (
            Opcode::VMovB32,
            Opcode::VAddNcU32,
            Format::Vop1,
            Format::Vop2,
        )
    } else {
        (Opcode::SMovB32, Opcode::SAddU32, Format::Sop1, Format::Sop2)
    };
    let consts: Vec<u32> = (0..8).map(|i| 0x1234_5678u32.wrapping_mul(i + 3)).collect();
    let ks: Vec<_> = consts.iter().map(|_| p.new_temp(rc)).collect();
    let mut ins = vec![MInst::pseudo(Pseudo::StartPgm, &[], &[])];
    for (&k, &c) in ks.iter().zip(&consts) {
        ins.push(MInst::hw(mov, fmov, &[Arg::Temp(k)], &[Arg::Const(c)]));
    }
    let mut acc = p.new_temp(rc);
    ins.push(MInst::hw(
        add,
        fadd,
        &[Arg::Temp(acc)],
        &[Arg::Temp(ks[0]), Arg::Temp(ks[1])],
    ));
    for &k in &ks[2..] {
        let next = p.new_temp(rc);
        ins.push(MInst::hw(
            add,
            fadd,
            &[Arg::Temp(next)],
            &[Arg::Temp(k), Arg::Temp(acc)],
        ));
        acc = next;
    }
    ins.push(MInst::hw(
        Opcode::SEndpgm,
        Format::Sopp,
        &[],
        &[Arg::Imm(0)],
    ));
    p.blocks[0].insts = ins;
    verify(&p, false).unwrap();
    let sum = consts.iter().fold(0u32, |a, &c| a.wrapping_add(c));
    (p, sum)
}

/// Evaluates allocated straight-line moves and adds of one file: the value of the
/// register the last add wrote. A read of a register nothing wrote fails.
fn evaluate_moves_and_adds(p: &Program) -> u32 {
    use gcnc::isa::Reg;
    let mut regs = std::collections::BTreeMap::new();
    let mut last = None;
    for i in &p.blocks[0].insts {
        let Some(op) = i.opcode() else { continue };
        let [Arg::Reg(Reg { base: d, .. })] = i.defs[..] else {
            continue;
        };
        let read = |a: &Arg| match a {
            Arg::Const(c) => *c,
            Arg::Reg(Reg { base, .. }) => *regs
                .get(base)
                .unwrap_or_else(|| panic!("{base:?} read before written:\n{}", print_program(p))),
            a => panic!("unexpected operand {a:?}"),
        };
        let v = match i.ops.len() {
            1 => read(&i.ops[0]),
            2 => read(&i.ops[0]).wrapping_add(read(&i.ops[1])),
            _ => panic!("unexpected {op:?}"),
        };
        regs.insert(d, v);
        if i.ops.len() == 2 {
            last = Some(v);
        }
    }
    last.expect("an add")
}

/// Constants under pressure are recomputed before each use, not spilled: no slot, no
/// store or reload, a move of the constant right before the instruction reading it, and
/// the allocated code still computes the same sum (a wrong or clobbered recomputation
/// would change it).
#[test]
fn constants_are_rematerialised_instead_of_spilled() {
    for vector in [false, true] {
        let (p0, sum) = constants_live_at_once(vector);
        let budget = if vector {
            Budget {
                sgprs: 106,
                vgprs: 3,
            }
        } else {
            Budget {
                sgprs: 3,
                vgprs: 256,
            }
        };
        let mut p = p0.clone();
        let mut st = spill::State::default();
        spill::spill(&mut p, budget, &mut st).unwrap();
        verify(&p, false).unwrap();
        assert!(st.rematerialized > 0, "{}", print_program(&p));
        assert_eq!((st.spilled_sgprs, st.spilled_vgprs), (0, 0));
        assert_eq!(p.scratch_bytes, 0);
        let insts = &p.blocks[0].insts;
        assert!(
            !insts.iter().any(|i| matches!(
                i.op,
                Op::Pseudo(Pseudo::Spill | Pseudo::Reload | Pseudo::StartLinearVgpr)
            )),
            "{}",
            print_program(&p)
        );
        // each recomputation (a move defining a new temp) sits right before the sum
        // reading it
        let fresh = |a: &Arg| a.temp().is_some_and(|t| t.0 as usize >= p0.temps.len());
        let mut recomputed = 0;
        for (k, i) in insts.iter().enumerate() {
            if i.ops.len() == 1 && i.defs.first().is_some_and(fresh) {
                assert!(matches!(i.ops[0], Arg::Const(_)));
                assert!(
                    insts[k + 1].ops.contains(&i.defs[0]),
                    "{}",
                    print_program(&p)
                );
                recomputed += 1;
            }
        }
        assert_eq!(recomputed, st.rematerialized, "{}", print_program(&p));
        let mut p = p0;
        let u = allocate(&mut p, budget).unwrap();
        verify(&p, true).unwrap();
        assert_eq!((u.spilled_sgprs, u.spilled_vgprs), (0, 0));
        assert!(if vector { u.vgprs <= 3 } else { u.sgprs <= 3 });
        assert_eq!(evaluate_moves_and_adds(&p), sum, "{}", print_program(&p));
    }
}
