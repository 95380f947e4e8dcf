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
    let c = match compile_compute(&m, &o) {
        Ok(c) => c,
        Err(e @ gcnc::amdgpu::Error::Unsupported { .. }) => {
            return Outcome::Unsupported(e.to_string())
        }
        Err(e) => return Outcome::Fail(format!("backend: {e}")),
    };
    // the ELF must disassemble completely and its note decode (LLVM's tools)
    if let (Some(objdump), Some(readelf)) = (
        backend_support::oracle("llvm-objdump-19"),
        backend_support::oracle("llvm-readelf-19"),
    ) {
        let path = backend_support::temp_path(&format!(
            "{}-{}-{}.elf",
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
    let expects = (case.expect)(&inputs, &env);
    for e in &expects {
        let got = mem.read_vec(addrs[e.resource], e.bytes.len()).unwrap();
        if let Err(msg) = corpus::compare(&got, e) {
            return Outcome::Fail(format!("resource {}: {msg}", e.resource));
        }
    }
    // The same dispatch on lavapipe must agree with the emulator, wherever the result does
    // not depend on the subgroup size (lavapipe's subgroups are 8 wide; see
    // ../shared/reference/lavapipe-quirks.md). Both results lie within the expectation's
    // tolerance of the exact answer, so they may differ by twice that tolerance.
    if subgroup_size_independent(case, &inputs) {
        let reference = match lavapipe_outputs(case) {
            Ok(Some(r)) => r,
            Ok(None) => return Outcome::Pass,
            Err(e) => return Outcome::Fail(format!("lavapipe: {e}")),
        };
        for e in &expects {
            let got = mem.read_vec(addrs[e.resource], e.bytes.len()).unwrap();
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
        "{} case x configuration runs also agreed with lavapipe (the rest depend on the subgroup size)",
        COMPARED_WITH_LAVAPIPE.load(std::sync::atomic::Ordering::Relaxed)
    );
    if !newly.is_empty() {
        println!("newly passing (add to PASSING): {newly:?}");
    }
    assert!(failures.is_empty(), "{}\n\n{summary}", failures.join("\n"));
}
