//! RADV on its null device as a reference compiler: corpus shaders compile for vega10,
//! navi21 and gfx1100 with ACO and LLVM, wave64 and (GFX10+) wave32; the statistics parse;
//! the spilling cases really spill; the cache check times every creation and judges
//! given figures; a dying worker is
//! reported and replaced.

use gcnc::isa::Wave;
use vkref::corpus;
use vkref::radv::{self, Backend, Config, Family, Worker};

fn setup() -> Option<()> {
    radv::set_worker_exe(env!("CARGO_BIN_EXE_vkref"));
    vkref::oracle::radv()
}

fn spirv(name: &str) -> &'static [u8] {
    corpus::cases()
        .into_iter()
        .find(|c| c.name == name)
        .expect("case")
        .spirv
}

const SHADERS: [&str; 5] = [
    "arith_i32",
    "shared_reduce",
    "subgroup_reduce",
    "loop_break_continue",
    "bda_pointer",
];

#[test]
fn corpus_shaders_compile_for_every_family_backend_and_wave() {
    if setup().is_none() {
        return;
    }
    let mut compiled = 0;
    let mut crashed = Vec::new();
    for family in Family::ALL {
        for backend in [Backend::Aco, Backend::Llvm] {
            for wave in [Wave::W64, Wave::W32] {
                if !family.gen().supports(wave) {
                    continue;
                }
                let cfg = Config::new(family, backend, wave);
                for name in SHADERS {
                    let r = radv::with_worker(cfg, |w| w.compile(spirv(name), "main", 1));
                    let c = match r {
                        Ok(c) => c,
                        // RADV's GFX9 LLVM backend is known to crash on some shaders.
                        Err(e @ vkref::Error::Crashed { .. })
                            if family == Family::Vega10 && backend == Backend::Llvm =>
                        {
                            crashed.push(format!("{name} on {cfg}: {e}"));
                            continue;
                        }
                        Err(e) => panic!("{name} on {cfg}: {e}"),
                    };
                    let what = format!("{name} on {cfg}");
                    assert_eq!(c.subgroup_size, wave.lanes(), "{what}");
                    assert_eq!(c.compile_ns.len(), 1, "{what}");
                    assert_ne!(c.compile_ns[0], 0, "{what}: the creation was not timed");
                    for stat in [
                        "SGPRs",
                        "VGPRs",
                        "Spilled SGPRs",
                        "Spilled VGPRs",
                        "Code size",
                        "LDS size",
                        "Scratch size",
                        "Subgroups per SIMD",
                    ] {
                        assert!(
                            c.stat(stat).is_some(),
                            "{what}: no {stat:?} in {:?}",
                            c.statistics
                        );
                    }
                    if backend == Backend::Aco {
                        for stat in [
                            "Instructions",
                            "Copies",
                            "Branches",
                            "Pre-Sched SGPRs",
                            "Pre-Sched VGPRs",
                        ] {
                            assert!(c.stat(stat).is_some(), "{what}: no {stat:?}");
                        }
                        let counted = radv::count_instructions(c.disassembly().expect("assembly"));
                        let reported = c.stat("Instructions").unwrap();
                        assert!(
                            counted.abs_diff(reported) <= reported / 10 + 2,
                            "{what}: counted {counted}, ACO says {reported}"
                        );
                    }
                    assert!(c.stat("Code size").unwrap() >= 8, "{what}");
                    assert!(c.stat("VGPRs").unwrap() >= 1, "{what}");
                    assert!(c.instructions().unwrap() >= 3, "{what}");
                    assert!(c.sgprs().unwrap() >= 1, "{what}");
                    let asm = c.disassembly().expect("assembly");
                    assert!(asm.contains("s_endpgm"), "{what}: {asm}");
                    if name == "shared_reduce" {
                        assert!(
                            c.stat("LDS size").unwrap() >= 1024,
                            "{what}: LDS {:?}",
                            c.stat("LDS size")
                        );
                    }
                    compiled += 1;
                }
            }
        }
    }
    println!("compiled {compiled}; crashed (GFX9 LLVM): {crashed:?}");
    assert!(compiled >= 45, "only {compiled} compiles succeeded");
}

#[test]
fn the_spilling_cases_spill_with_aco() {
    if setup().is_none() {
        return;
    }
    for family in [Family::Vega10, Family::Navi21, Family::Gfx1100] {
        let cfg = Config::new(family, Backend::Aco, Wave::W64);
        let v = radv::with_worker(cfg, |w| w.compile(spirv("spill_vgpr"), "main", 0))
            .expect("spill_vgpr");
        assert!(
            v.stat("Spilled VGPRs").unwrap() > 0 && v.stat("Scratch size").unwrap() > 0,
            "{cfg}: {:?}",
            v.statistics
        );
        let s = radv::with_worker(cfg, |w| w.compile(spirv("spill_sgpr"), "main", 0))
            .expect("spill_sgpr");
        assert!(
            s.stat("Spilled SGPRs").unwrap() > 0,
            "{cfg}: {:?}",
            s.statistics
        );
    }
}

/// The cache check times every creation it makes. Whether the fresh creations are real
/// compiles is a timing judgement ([`radv::CacheCheck::verdict`]): `vkref compare` makes
/// it on every benchmark run and fails when it does not hold; a test does not compare
/// durations measured on a machine it does not control.
#[test]
fn the_cache_check_times_every_creation() {
    if setup().is_none() {
        return;
    }
    for backend in [Backend::Aco, Backend::Llvm] {
        let c = radv::cache_check(spirv("arith_i32"), "main", Family::Navi21, backend, 5)
            .expect("cache check");
        assert_eq!(c.same_module_ns.len(), 5, "{backend:?}: {c:?}");
        assert_eq!(c.fresh_module_ns.len(), 5, "{backend:?}: {c:?}");
        assert_ne!(c.first_ns, 0, "{backend:?}: {c:?}");
        assert!(
            c.fresh_module_ns.iter().all(|t| *t != 0),
            "{backend:?}: {c:?}"
        );
        let cfg = Config::new(Family::Navi21, backend, Wave::W64);
        let timed =
            radv::with_worker(cfg, |w| w.compile(spirv("arith_i32"), "main", 5)).expect("compile");
        assert_eq!(timed.compile_ns.len(), 5, "{backend:?}");
    }
}

/// The verdict on given figures: sensitive (a repeat hits the cache: under a tenth of the
/// first creation) and defeated (fresh modules cost at least ten hits).
#[test]
fn the_cache_verdict_needs_a_hit_and_fresh_misses() {
    let check = |first, hit, fresh| radv::CacheCheck {
        first_ns: first,
        same_module_ns: vec![hit; 3],
        fresh_module_ns: vec![fresh; 3],
    };
    check(1_000_000, 1_000, 900_000).verdict().unwrap();
    let e = check(1_000_000, 500_000, 900_000).verdict().unwrap_err();
    assert!(e.contains("no cache hit seen"), "{e}");
    let e = check(1_000_000, 1_000, 5_000).verdict().unwrap_err();
    assert!(e.contains("fresh modules are being cached"), "{e}");
}

#[test]
fn a_dead_worker_is_reported_and_a_new_one_works() {
    if setup().is_none() {
        return;
    }
    let cfg = Config::new(Family::Gfx1100, Backend::Aco, Wave::W32);
    let mut w = Worker::spawn(cfg).expect("spawn");
    assert!(
        w.device_name.to_uppercase().contains("GFX1100") || w.device_name.contains("RADV"),
        "{}",
        w.device_name
    );
    assert!(w.pid() > 0);
    w.kill();
    match w.compile(spirv("arith_i32"), "main", 1) {
        Err(vkref::Error::Crashed { status, .. }) => assert!(status.contains("9"), "{status}"),
        other => panic!("expected a crash report, got {other:?}"),
    }
    let mut w2 = Worker::spawn(cfg).expect("respawn");
    let c = w2
        .compile(spirv("arith_i32"), "main", 1)
        .expect("compile after respawn");
    assert_eq!(c.subgroup_size, 32);
}

#[test]
fn bad_requests_are_errors_not_crashes() {
    if setup().is_none() {
        return;
    }
    assert!(matches!(
        Worker::spawn(Config::new(Family::Vega10, Backend::Aco, Wave::W32)),
        Err(vkref::Error::Usage(_))
    ));
    let cfg = Config::new(Family::Navi21, Backend::Aco, Wave::W64);
    let e = radv::with_worker(cfg, |w| w.compile(spirv("arith_i32"), "nope", 1)).unwrap_err();
    assert!(e.to_string().contains("nope"), "{e}");
    let e =
        radv::with_worker(cfg, |w| w.compile(&[1, 2, 3, 4, 5, 6, 7, 8], "main", 1)).unwrap_err();
    assert!(e.to_string().contains("header"), "{e}");
    // The worker is still alive.
    radv::with_worker(cfg, |w| w.compile(spirv("arith_i32"), "main", 1)).expect("worker survived");
}
