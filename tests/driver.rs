//! The library driver (`gcnc::compile_spirv` and its variants), as a caller sees it:
//!
//! - one call compiles SPIR-V to the pipeline ELF; the same input and options give the same
//!   bytes, and splitting the chain (`optimize_spirv`, then `compile_module` without the
//!   middle end) gives those bytes too;
//! - a failure is a `gcnc::Error` naming its layer with that layer's typed error — the
//!   SPIR-V word for the front end, the generation and wave for the target, the register
//!   file for the backend — and `phase()` says which part of the chain refused;
//! - `Settings` change how the compiler runs, never what it produces: timing reports every
//!   middle-end pass and backend stage, in chain order, and is empty when off.

use gcnc::isa::{Gen, Target, Wave};
use gcnc::{
    compile_module, compile_spirv, compile_spirv_unlinked, optimize_spirv, Error, Options, Phase,
};

fn words(spv: &[u8]) -> Vec<u32> {
    gcnc::front::spirv::words_from_bytes(spv).unwrap()
}

const NESTED_LOOPS: &[u8] = include_bytes!("shaders/compute/nested_loops.spv");
const SPEC_ARRAY: &[u8] = include_bytes!("shaders/link/spec_array.spv");

#[test]
fn one_call_compiles_spirv_and_the_split_chain_gives_the_same_bytes() {
    for t in [
        Target::new(Gen::Gfx9),
        Target::new(Gen::Gfx10),
        Target::with_wave(Gen::Gfx11, Wave::W64).unwrap(),
    ] {
        let o = Options::new(t);
        let c = compile_spirv(&words(NESTED_LOOPS), &o).unwrap();
        let asm = c.asm().unwrap();
        assert!(asm.contains("s_endpgm"), "{t}: {asm}");
        assert_eq!(
            compile_spirv(&words(NESTED_LOOPS), &o).unwrap().elf,
            c.elf,
            "{t}"
        );
        let m = optimize_spirv(&words(NESTED_LOOPS), &o).unwrap();
        let backend_only = Options {
            optimize: false,
            ..o.clone()
        };
        assert_eq!(compile_module(&m, &backend_only).unwrap().elf, c.elf, "{t}");
    }
}

#[test]
fn errors_name_their_layer() {
    // front end: a truncated module, with the word offset
    let mut w = words(NESTED_LOOPS);
    w.truncate(w.len() - 3);
    match compile_spirv(&w, &Options::new(Target::new(Gen::Gfx10))) {
        Err(e @ Error::Front(_)) => {
            assert_eq!(e.phase(), Phase::Front);
            assert!(e.to_string().contains("SPIR-V word"), "{e}");
        }
        other => panic!(
            "expected a front-end error, got {:?}",
            other.map(|c| c.stats)
        ),
    }
    // target: GFX9 has no wave32
    let t = Target {
        gen: Gen::Gfx9,
        wave: Wave::W32,
    };
    match compile_spirv(&words(NESTED_LOOPS), &Options::new(t)) {
        Err(Error::Target(e)) => assert_eq!(e.to_string(), "gfx900 has no wave32"),
        other => panic!("expected a target error, got {:?}", other.map(|c| c.stats)),
    }
    // backend: no VGPR at all cannot hold a VGPR value
    let mut o = Options::new(Target::new(Gen::Gfx11));
    o.budget = Some(gcnc::amdgpu::regalloc::Budget {
        sgprs: 106,
        vgprs: 0,
    });
    match compile_spirv(&words(NESTED_LOOPS), &o) {
        Err(e @ Error::Backend(gcnc::amdgpu::Error::RegisterPressure { file: "VGPR", .. })) => {
            assert_eq!(e.phase(), Phase::Back)
        }
        other => panic!(
            "expected register pressure, got {:?}",
            other.map(|c| c.stats)
        ),
    }
    // an unlinked compile cannot leave an array length to the link stage
    let mut o = Options::new(Target::new(Gen::Gfx10));
    o.missing.spec_constants = [0].into_iter().collect();
    match compile_spirv_unlinked(&words(SPEC_ARRAY), &o) {
        Err(Error::Front(e)) => {
            assert_eq!(e.kind, gcnc::front::ErrorKind::NeedsWholePipeline, "{e}")
        }
        other => panic!(
            "expected NeedsWholePipeline, got {:?}",
            other.map(|c| c.stats)
        ),
    }
}

#[test]
fn settings_time_the_chain_without_changing_the_output() {
    let quiet = Options::new(Target::new(Gen::Gfx10));
    let plain = compile_spirv(&words(NESTED_LOOPS), &quiet).unwrap();
    assert!(plain.timings.is_empty());
    let mut timed = quiet.clone();
    timed.settings.time_passes = true;
    timed.settings.verify = true;
    let c = compile_spirv(&words(NESTED_LOOPS), &timed).unwrap();
    assert_eq!(c.elf, plain.elf);
    let names: Vec<&str> = c.timings.iter().map(|t| t.pass).collect();
    assert_eq!(names.first(), Some(&"translate"));
    assert!(names.contains(&"mem2reg"), "{names:?}");
    let backend: Vec<&str> = c
        .timings
        .iter()
        .filter(|t| t.phase == Phase::Back)
        .map(|t| t.pass)
        .collect();
    assert_eq!(
        backend,
        [
            "isel",
            "optimize_selected",
            // the register allocator's stages (no spill round: `ra_spill` is the
            // scratch setup check; `ra_verify` because `verify` is set)
            "ra_spill",
            "ra_liveness",
            "ra_assign",
            "ra_verify",
            "ra_rewrite",
            "lower_to_hw",
            "thread_branches",
            "drop_short_exec_branches",
            "simplify_exec_writes",
            // timed on every target; pairs only on GFX11 wave32
            "form_vopd",
            "insert_waitcnt",
            "resolve_hazards",
            "encode",
            "link"
        ]
    );
    // phases come in chain order
    let phases: Vec<Phase> = c.timings.iter().map(|t| t.phase).collect();
    assert!(phases.windows(2).all(|w| w[0] <= w[1]), "{phases:?}");
}
