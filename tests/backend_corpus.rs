//! The compute corpus (tools/vkref/src/corpus: GLSL + SPIR-V + Rust expectations) through
//! front-end → middle-end → backend → emulator, on gfx900 wave64, gfx1030 and gfx1100 in
//! wave32 and wave64, with all of the emulator's strict checks. Each case either compiles
//! and must match its expectation (and disassemble cleanly with llvm-objdump-19, its
//! PAL note decoding with llvm-readelf-19), or is refused with the backend's `Unsupported`
//! (or `NotOnTarget`) error (printed in the summary). `PASSING` lists the cases that must pass everywhere, so a
//! regression fails the test; a newly passing case is reported so the list can grow.

mod backend_support;

use backend_support::CONFIGS;
use gcnc::isa::{Gen, Target, Wave};
use gcnc::{compile_module, compile_spirv, Options};
use gcnc_emu::pipeline;
use vkref::compare::dynamic;
use vkref::corpus::{self, Env};

const PASSING: &[&str] = &[
    "arith_f64",
    "arith_i64",
    "atomics_i64",
    "bda_linked_list",
    "bda_pointer",
    "atomic_cas",
    "atomic_compact",
    "atomics_buffer",
    "atomics_shared",
    "arith_f16",
    "arith_f32",
    "arith_f32_divsqrt",
    "arith_i16",
    "arith_i32",
    "arith_i8",
    "arith_u32_bits",
    "convert",
    "do_while",
    "dynamic_index",
    "ssbo_length",
    "early_return",
    "function_calls",
    "int_hash",
    "loop_break_continue",
    "math_exact",
    "math_std450",
    "memory_model",
    "const_tables",
    "mul_extended",
    "nested_if",
    "nested_loops",
    "push_constants",
    "row_major",
    "shared_phases",
    "shared_prefix",
    "shared_reduce",
    "shared_transpose",
    "spec_constants",
    "spec_local_size",
    "spill_sgpr",
    "spill_vgpr",
    "spec_array",
    "storage16_push_ubo",
    "storage16_shared",
    "storage16_ssbo",
    "storage8_16_bda",
    "storage8_scratch",
    "storage8_ssbo",
    "ubo_divergent",
    "std140_ubo",
    "std430_struct",
    "subgroup_ballot",
    "subgroup_basic",
    "subgroup_broadcast",
    "subgroup_divergent",
    "subgroup_ops",
    "subgroup_reduce",
    "subgroup_scan",
    "subgroup_shuffle",
    "subgroup_vote",
    "subgroup_widths",
    "subgroup_widths_clustered",
    "switch_case",
    "uniform_branch",
    "unroll_control",
    "vec_swizzle",
    "img_arrays",
    "img_atomics",
    "img_atomics64",
    "img_cube",
    "img_gather_shadow",
    "img_sample_lod",
    "img_sparse",
    "img_d16",
    "img_fold16",
    "img_texel16",
    "img_nsa",
    "img_storage",
    "img_texel_buffers",
    "nonuniform_index",
    "desc_runtime_arrays",
    "desc_runtime_nonuniform",
    "img_unformatted",
    "img_unformatted_store",
    "img_dims",
    "img_wide_texels",
    "img_cube_size",
    "img_robust",
    "img_ms",
    "img_formats",
    "img_samplers",
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
    let mut o = dynamic::case_options(case, &inputs, Target::with_wave(gen, wave).unwrap());
    o.budget = budget;
    let c = match compile_spirv(&words, &o) {
        Ok(c) => c,
        Err(gcnc::Error::Backend(
            e @ (gcnc::amdgpu::Error::Unsupported { .. } | gcnc::amdgpu::Error::NotOnTarget { .. }),
        )) => return Outcome::Unsupported(e.to_string()),
        Err(e) => return Outcome::Fail(format!("{}: {e}", e.phase().name())),
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
    let setup = match dynamic::emu_setup(&inputs, &words, &o) {
        Ok(s) => s,
        Err(e) => return Outcome::Fail(e),
    };
    let ran = match pipeline::run_elf(&c.elf, &setup) {
        Ok((p, _)) => p,
        Err(e) => return Outcome::Fail(format!("emulator: {e}")),
    };
    let env = Env {
        subgroup_size: wave.lanes(),
    };
    let expects = (case.expect)(&inputs, &env);
    for e in &expects {
        let got = ran.resource(e.resource).unwrap();
        if let Err(msg) = corpus::compare(&got, e) {
            return Outcome::Fail(format!("resource {}: {msg}", e.resource));
        }
    }
    // The same dispatch on lavapipe must agree with the emulator, wherever the result does
    // not depend on the subgroup size (lavapipe's subgroups are 8 wide; see
    // ../shared/reference/lavapipe-quirks.md) and that lavapipe can run at all (not the
    // cases of `corpus::LAVAPIPE_LACKS`). Both results lie within the expectation's
    // tolerance of the exact answer, so they may differ by twice that tolerance.
    if subgroup_size_independent(case, &inputs) && corpus::lavapipe_lacks(case.name).is_none() {
        let reference = match lavapipe_outputs(case) {
            Ok(Some(r)) => r,
            Ok(None) => return Outcome::Pass,
            Err(e) => return Outcome::Fail(format!("lavapipe: {e}")),
        };
        for e in &expects {
            let got = ran.resource(e.resource).unwrap();
            let theirs = corpus::Expect {
                resource: e.resource,
                bytes: reference[e.resource].clone(),
                check: twice(e.check),
            };
            if let Err(msg) = corpus::compare(&got, &theirs) {
                return Outcome::Fail(format!(
                    "resource {} disagrees with lavapipe: {msg}",
                    e.resource
                ));
            }
        }
        COMPARED_WITH_LAVAPIPE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    Outcome::Pass
}

/// Case × configuration runs whose outputs were compared with lavapipe's.
static COMPARED_WITH_LAVAPIPE: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// True when the case's expectations are the same for every subgroup size a device may have.
fn subgroup_size_independent(case: &corpus::Case, inputs: &corpus::Inputs) -> bool {
    let at = |n| (case.expect)(inputs, &Env { subgroup_size: n });
    let base = at(8);
    base == at(32) && base == at(64)
}

/// A comparison bound twice as wide as `c` (exact checks stay exact).
fn twice(c: corpus::Check) -> corpus::Check {
    use corpus::Check::*;
    match c {
        F32 { ulp, abs } => F32 {
            ulp: 2 * ulp,
            abs: 2.0 * abs,
        },
        F64 { ulp, abs } => F64 {
            ulp: 2 * ulp,
            abs: 2.0 * abs,
        },
        F16 { ulp, abs } => F16 {
            ulp: 2 * ulp,
            abs: 2.0 * abs,
        },
        other => other,
    }
}

/// Every resource after the case's dispatch on lavapipe, run once per case per process.
/// `Ok(None)`: lavapipe is missing and oracles are not required (the oracle helper printed
/// the notice; with GCNC_REQUIRE_ORACLES=1 it fails the test instead).
fn lavapipe_outputs(case: &corpus::Case) -> Result<Option<Vec<Vec<u8>>>, String> {
    use std::collections::BTreeMap;
    use std::sync::Mutex;
    static RUNS: Mutex<BTreeMap<&'static str, Result<Vec<Vec<u8>>, String>>> =
        Mutex::new(BTreeMap::new());
    if vkref::oracle::lavapipe().is_none() {
        return Ok(None);
    }
    let mut runs = RUNS.lock().unwrap_or_else(|p| p.into_inner());
    let r = runs.entry(case.name).or_insert_with(|| {
        let i = (case.inputs)();
        vkref::lavapipe::run_compute(
            case.spirv,
            case.entry,
            i.groups,
            &i.resources,
            &i.push,
            &i.spec,
        )
        .map_err(|e| e.to_string())
    });
    r.clone().map(Some)
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
    println!(
        "{} case x configuration runs also agreed with lavapipe (the rest depend on the subgroup size, or need a feature lavapipe lacks: corpus::LAVAPIPE_LACKS)",
        COMPARED_WITH_LAVAPIPE.load(std::sync::atomic::Ordering::Relaxed)
    );
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
        let front = dynamic::case_options(&case, &inputs, Target::new(Gen::Gfx10));
        // front and middle end once; every budget below compiles this IR
        let m = gcnc::optimize_spirv(&words, &front).unwrap();
        for (g, w) in CONFIGS {
            let tag = format!("{}w{}", g.mcpu(), w.lanes());
            let full = Budget::full(g);
            let mut o = Options::new(Target::with_wave(g, w).unwrap());
            o.optimize = false;
            let Ok(uncapped) = compile_module(&m, &o) else {
                failures.push(format!("{} {tag}: fails uncapped", case.name));
                continue;
            };
            let (used_s, used_v) = (uncapped.stats.sgprs as u16, uncapped.stats.vgprs as u16);
            let compiles = |b: Budget| {
                let mut o = o.clone();
                o.budget = Some(b);
                compile_module(&m, &o).is_ok()
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
