//! The compute corpus (tools/vkref/src/corpus: GLSL + SPIR-V + Rust expectations) through
//! front-end → middle-end → backend → emulator, on gfx900 wave64, gfx1030 and gfx1100 in
//! wave32 and wave64, with all of the emulator's strict checks. Each case either compiles
//! and must match its expectation (and disassemble cleanly with llvm-objdump-19, its
//! PAL note decoding with llvm-readelf-19), or is refused with the backend's `Unsupported` error
//! (printed in the summary). `PASSING` lists the cases that must pass everywhere, so a
//! regression fails the test; a newly passing case is reported so the list can grow.

mod backend_support;

use backend_support::CONFIGS;
use gcnc::compile::{compile_compute, Options};
use gcnc::isa::Wave;
use gcnc_emu::{BufferDesc, Dispatch, Memory};
use vkref::corpus::{self, AddressTarget, Env, SpecValue};
use vkref::lavapipe::Resource;

const PUSH: u64 = 0x10_0000;
const SETS: u64 = 0x20_0000;
const DATA: u64 = 0x100_0000;
const WGCOUNT: u64 = 0x30_0000;

const PASSING: &[&str] = &[
    "atomic_cas",
    "atomic_compact",
    "atomics_buffer",
    "atomics_shared",
    "arith_f32",
    "arith_f32_divsqrt",
    "arith_i32",
    "arith_u32_bits",
    "do_while",
    "dynamic_index",
    "early_return",
    "function_calls",
    "int_hash",
    "loop_break_continue",
    "math_std450",
    "memory_model",
    "mul_extended",
    "nested_if",
    "nested_loops",
    "push_constants",
    "row_major",
    "shared_phases",
    "shared_prefix",
    "shared_reduce",
    "shared_transpose",
    "spec_local_size",
    "spill_sgpr",
    "spill_vgpr",
    "std140_ubo",
    "std430_struct",
    "subgroup_basic",
    "subgroup_vote",
    "switch_case",
    "uniform_branch",
    "vec_swizzle",
];

enum Outcome {
    Pass,
    Unsupported(String),
    Fail(String),
}

fn run_case(case: &corpus::Case, gen: gcnc::isa::Gen, wave: Wave) -> Outcome {
    run_case_with(case, gen, wave, None, &mut None)
}

/// `run_case` under a register budget; `stats` receives the compiled shader's statistics.
fn run_case_with(
    case: &corpus::Case,
    gen: gcnc::isa::Gen,
    wave: Wave,
    budget: Option<gcnc::amdgpu::regalloc::Budget>,
    stats: &mut Option<gcnc::amdgpu::emit::Stats>,
) -> Outcome {
    let inputs = (case.inputs)();
    let words = gcnc::front::spirv::words_from_bytes(case.spirv).unwrap();
    let mut spec = std::collections::BTreeMap::new();
    for (id, v) in &inputs.spec {
        spec.insert(
            *id,
            match v {
                SpecValue::U32(x) => *x as u64,
                SpecValue::U64(x) => *x,
            },
        );
    }
    let fopts = gcnc::front::spirv::Options {
        entry: Some(case.entry.to_string()),
        spec,
        stage: Some(gcnc::ir::Stage::Compute),
    };
    let mut m = match gcnc::front::spirv::translate(&words, &fopts) {
        Ok(m) => m,
        Err(e) => return Outcome::Fail(format!("front-end: {e}")),
    };
    if let Err(e) = gcnc::passes::run_pipeline(&mut m) {
        return Outcome::Fail(format!("middle-end: {e}"));
    }
    let mut o = Options::new(gen);
    o.wave = Some(wave);
    o.budget = budget;
    let c = match compile_compute(&m, &o) {
        Ok(c) => c,
        Err(e @ gcnc::amdgpu::Error::Unsupported { .. }) => {
            return Outcome::Unsupported(e.to_string())
        }
        Err(e) => return Outcome::Fail(format!("backend: {e}")),
    };
    *stats = Some(c.stats.clone());
    // the ELF must disassemble completely and its note decode (LLVM's tools)
    if let (Some(objdump), Some(readelf)) = (
        backend_support::oracle("llvm-objdump-19"),
        backend_support::oracle("llvm-readelf-19"),
    ) {
        // the budgeted runs go to their own files (the tests run in parallel)
        let cap = budget.map_or(String::new(), |b| format!("-s{}v{}", b.sgprs, b.vgprs));
        let path = backend_support::temp_path(&format!(
            "{}-{}-{}{cap}.elf",
            case.name,
            gen.mcpu(),
            wave.lanes()
        ));
        std::fs::write(&path, &c.elf).unwrap();
        let p = path.to_str().unwrap();
        let mcpu = format!("--mcpu={}", gen.mcpu());
        let mut args = vec!["-d", &mcpu];
        if wave == Wave::W64 && gen != gcnc::isa::Gen::Gfx9 {
            args.push("--mattr=+wavefrontsize64");
        }
        args.push(p);
        let (ok, out) = backend_support::run_status(&objdump, &args);
        if !ok || out.contains("<unknown>") || out.contains("invalid") {
            return Outcome::Fail(format!("llvm-objdump:\n{out}"));
        }
        let (ok, notes) = backend_support::run_status(&readelf, &["--notes", p]);
        if !ok || !notes.contains("amdpal.pipelines") {
            return Outcome::Fail(format!("llvm-readelf:\n{notes}"));
        }
    }
    let mut d = match Dispatch::from_elf(&c.elf, Some(wave == Wave::W64)) {
        Ok(d) => d,
        Err(e) => return Outcome::Fail(format!("dispatch: {e}")),
    };
    d.groups = inputs.groups;
    let mut mem = Memory::new();
    mem.map(PUSH, 4096);
    mem.map(SETS, 8 * 4096);
    mem.map(WGCOUNT, 4096);
    for k in 0..3 {
        mem.write_u32(WGCOUNT + 4 * k as u64, inputs.groups[k])
            .unwrap();
    }
    let mut push = inputs.push.clone();
    push.resize(4096, 0);
    // place every resource, then patch device addresses
    let mut addrs = Vec::new();
    let mut next = DATA;
    for r in &inputs.resources {
        let len = r.data().len().max(16) as u64;
        mem.map(next, len.next_multiple_of(256));
        mem.write(next, r.data()).unwrap();
        addrs.push(next);
        next += len.next_multiple_of(0x1_0000);
    }
    for (k, r) in inputs.resources.iter().enumerate() {
        match r {
            Resource::Buffer { set, binding, .. } => {
                let v = BufferDesc::raw(gen, addrs[k], r.data().len() as u32);
                for (j, w) in v.iter().enumerate() {
                    mem.write_u32(
                        SETS + 4096 * *set as u64 + 16 * *binding as u64 + 4 * j as u64,
                        *w,
                    )
                    .unwrap();
                }
            }
            Resource::Address { target, .. } => match *target {
                AddressTarget::Push(off) => {
                    push[off as usize..off as usize + 8].copy_from_slice(&addrs[k].to_le_bytes())
                }
                AddressTarget::Resource { index, offset } => mem
                    .write(addrs[index] + offset as u64, &addrs[k].to_le_bytes())
                    .unwrap(),
            },
        }
    }
    mem.write(PUSH, &push).unwrap();
    let mut sg = Vec::new();
    for u in &c.program.abi.user_sgprs {
        sg.push(match *u {
            gcnc::binary::UserData::Entry(n) if n < 2 => {
                if n == 0 {
                    PUSH as u32
                } else {
                    (PUSH >> 32) as u32
                }
            }
            gcnc::binary::UserData::Entry(n) => {
                let a = SETS + 4096 * ((n as u64 - 2) / 2);
                if n % 2 == 0 {
                    a as u32
                } else {
                    (a >> 32) as u32
                }
            }
            gcnc::binary::UserData::Workgroup => WGCOUNT as u32,
            gcnc::binary::UserData::GlobalTable => d.global_table_lo(),
            gcnc::binary::UserData::Unused => (WGCOUNT >> 32) as u32,
            other => {
                return Outcome::Fail(format!("user data {other:?} not set up by this runner"))
            }
        });
    }
    d.user_sgprs = sg;
    if let Err(e) = gcnc_emu::run(&d, &mut mem) {
        return Outcome::Fail(format!("emulator: {e}"));
    }
    let env = Env {
        subgroup_size: wave.lanes(),
    };
    for e in (case.expect)(&inputs, &env) {
        let got = mem.read_vec(addrs[e.resource], e.bytes.len()).unwrap();
        if let Err(msg) = corpus::compare(&got, &e) {
            return Outcome::Fail(format!("resource {}: {msg}", e.resource));
        }
    }
    Outcome::Pass
}

#[test]
fn corpus_on_emulator() {
    let mut summary = String::new();
    let mut failures = Vec::new();
    let mut newly = Vec::new();
    for case in corpus::cases() {
        let mut line = format!("{:24}", case.name);
        let mut all_pass = true;
        for (g, w) in CONFIGS {
            let tag = format!("{}w{}", g.mcpu(), w.lanes());
            match run_case(&case, g, w) {
                Outcome::Pass => line.push_str(&format!(" {tag}:pass")),
                Outcome::Unsupported(why) => {
                    all_pass = false;
                    line.push_str(&format!(" {tag}:unsupported({why})"));
                    if PASSING.contains(&case.name) {
                        failures.push(format!("{} {tag}: {why}", case.name));
                    }
                    break;
                }
                Outcome::Fail(why) => {
                    all_pass = false;
                    line.push_str(&format!(" {tag}:FAIL"));
                    failures.push(format!("{} {tag}: {why}", case.name));
                }
            }
        }
        if all_pass && !PASSING.contains(&case.name) {
            newly.push(case.name);
        }
        summary.push_str(&line);
        summary.push('\n');
    }
    println!("{summary}");
    if !newly.is_empty() {
        println!("newly passing (add to PASSING): {newly:?}");
    }
    assert!(failures.is_empty(), "{}\n\n{summary}", failures.join("\n"));
}

/// Spilling on ordinary shaders: every `PASSING` case again under capped register
/// budgets on every configuration — 10 SGPRs (VGPRs full), 4 VGPRs (SGPRs full), and both
/// together; a cap is raised only while the shader does not compile under it (its
/// unspillable minimum). Each run must still match its expectation on the
/// emulator (all strict checks) and stay within its caps; a shader whose uncapped use fits
/// the caps must not spill; and across the corpus both files must spill.
#[test]
fn corpus_with_tight_budgets() {
    use gcnc::amdgpu::regalloc::Budget;
    let mut failures = Vec::new();
    let mut summary = String::new();
    let (mut spilled_s, mut spilled_v) = (0, 0);
    for case in corpus::cases() {
        if !PASSING.contains(&case.name) {
            continue;
        }
        let mut line = format!("{:24}", case.name);
        let inputs = (case.inputs)();
        let words = gcnc::front::spirv::words_from_bytes(case.spirv).unwrap();
        let fopts = gcnc::front::spirv::Options {
            entry: Some(case.entry.to_string()),
            spec: inputs
                .spec
                .iter()
                .map(|(id, v)| {
                    (
                        *id,
                        match v {
                            SpecValue::U32(x) => *x as u64,
                            SpecValue::U64(x) => *x,
                        },
                    )
                })
                .collect(),
            stage: Some(gcnc::ir::Stage::Compute),
        };
        let mut m = gcnc::front::spirv::translate(&words, &fopts).unwrap();
        gcnc::passes::run_pipeline(&mut m).unwrap();
        for (g, w) in CONFIGS {
            let tag = format!("{}w{}", g.mcpu(), w.lanes());
            let full = Budget::full(g);
            let mut o = Options::new(g);
            o.wave = Some(w);
            let Ok(uncapped) = compile_compute(&m, &o) else {
                failures.push(format!("{} {tag}: fails uncapped", case.name));
                continue;
            };
            let (used_s, used_v) = (uncapped.stats.sgprs as u16, uncapped.stats.vgprs as u16);
            let compiles = |b: Budget| {
                let mut o = o.clone();
                o.budget = Some(b);
                compile_compute(&m, &o).is_ok()
            };
            // tight fixed caps, raised only as far as the shader's unspillable minimum
            // (hardware inputs, operands of one instruction) demands
            let mut cap_s = used_s.min(10);
            while cap_s < full.sgprs
                && !compiles(Budget {
                    sgprs: cap_s,
                    ..full
                })
            {
                cap_s += 1;
            }
            let mut cap_v = used_v.min(4);
            while cap_v < full.vgprs
                && !compiles(Budget {
                    vgprs: cap_v,
                    ..full
                })
            {
                cap_v += 1;
            }
            let mut budgets = vec![
                Budget {
                    sgprs: cap_s,
                    ..full
                },
                Budget {
                    vgprs: cap_v,
                    ..full
                },
            ];
            if compiles(Budget {
                sgprs: cap_s,
                vgprs: cap_v,
            }) {
                budgets.push(Budget {
                    sgprs: cap_s,
                    vgprs: cap_v,
                });
            }
            budgets.dedup();
            for budget in budgets {
                let cap = format!("s{}v{}", budget.sgprs, budget.vgprs);
                let mut st = None;
                match run_case_with(&case, g, w, Some(budget), &mut st) {
                    Outcome::Pass => {
                        let st = st.unwrap();
                        if st.sgprs > budget.sgprs as u32 || st.vgprs > budget.vgprs as u32 {
                            failures.push(format!(
                                "{} {tag} {cap}: uses s{} v{}",
                                case.name, st.sgprs, st.vgprs
                            ));
                        }
                        // a shader that fit under the caps uncapped spills nothing
                        // (SGPR spills take a VGPR, so this holds for both files at once)
                        if used_s <= budget.sgprs
                            && used_v <= budget.vgprs
                            && st.spilled_sgprs + st.spilled_vgprs > 0
                        {
                            failures.push(format!(
                                "{} {tag} {cap}: uncapped s{used_s} v{used_v} fits, yet it spilled",
                                case.name
                            ));
                        }
                        spilled_s += (st.spilled_sgprs > 0) as u32;
                        spilled_v += (st.spilled_vgprs > 0) as u32;
                        line.push_str(&format!(
                            " {tag}:{cap}:{}s/{}v",
                            st.spilled_sgprs, st.spilled_vgprs
                        ));
                    }
                    Outcome::Unsupported(why) | Outcome::Fail(why) => {
                        failures.push(format!("{} {tag} {cap}: {why}", case.name));
                        line.push_str(&format!(" {tag}:{cap}:FAIL"));
                    }
                }
            }
        }
        summary.push_str(&line);
        summary.push('\n');
    }
    println!("{summary}");
    println!("runs with spilled SGPRs: {spilled_s}, with spilled VGPRs: {spilled_v}");
    assert!(failures.is_empty(), "{}\n\n{summary}", failures.join("\n"));
    assert!(spilled_s > 0 && spilled_v > 0, "nothing spilled");
}
