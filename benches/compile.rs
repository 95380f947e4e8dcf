//! Compile time of every corpus shader gcnc compiles, per target, side by side with RADV's
//! ACO and LLVM backends compiling the same SPIR-V: one criterion group per shader×target
//! (`arith_i32/gfx1030`) holding `gcnc`, `radv_aco` and `radv_llvm`.
//!
//! - gcnc: SPIR-V bytes → PAL ELF in process (front-end, middle-end, backend, ELF), the same
//!   function `vkref compare` times ([`vkref::compare::gcnc_compile`]).
//! - RADV: `vkCreateComputePipelines` on its null device, in a worker process per
//!   (family, backend) because RADV reads its environment when the instance is created;
//!   this executable is its own worker (`compile radv-worker`). `iter_custom` asks the
//!   worker for N timed creations and sums them, so criterion sees real per-compile times.
//! - Like with like: wave64 on gfx900, wave32 on gfx1030/gfx1100 for both sides.
//! - RADV's cache is defeated (fresh module with a differing bound word each creation,
//!   `RADV_DEBUG=nocache`, `MESA_SHADER_CACHE_DISABLE=true`), and the setup asserts it per
//!   target and backend before measuring: a same-module repeat with the cache on is a hit
//!   (µs), fresh modules and the benchmark's creations cost at least ten hits.
//! - Shaders gcnc rejects are listed with the error, not silently dropped.
//!
//! Short mode (CI): `cargo test --bench compile` or `cargo bench --bench compile -- --test`
//! runs every function once (the bench is `test = true`, so `cargo test` includes it).
//! Full run: `cargo bench --bench compile` (≈ 10 minutes: 20 samples, 2 s each); filter
//! with a criterion pattern, e.g. `cargo bench --bench compile -- arith_i32/`.

use criterion::Criterion;
use std::time::Duration;
use vkref::compare::{compute_entry, gcnc_compile, shader_files, wave_for, CacheLine};
use vkref::radv::{self, Backend, Config, Family};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/shaders/compute");
/// The shader the cache-defeat assertion compiles.
const CACHE_SHADER: &str = "arith_i32";

struct Shader {
    name: String,
    spirv: Vec<u8>,
    entry: String,
}

fn load() -> Vec<Shader> {
    shader_files(std::path::Path::new(CORPUS), &[])
        .expect("corpus")
        .into_iter()
        .map(|p| {
            let spirv = std::fs::read(&p).expect("read shader");
            let entry = compute_entry(&spirv).expect("compute entry point");
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            Shader { name, spirv, entry }
        })
        .collect()
}

/// Asserts that RADV's creations in the benchmark configuration are real compiles.
fn assert_cache_defeated(s: &Shader) {
    for family in Family::ALL {
        for backend in [Backend::Aco, Backend::Llvm] {
            let check = radv::cache_check(&s.spirv, &s.entry, family, backend, 5)
                .map_err(|e| e.to_string());
            let cfg = Config::new(family, backend, wave_for(family));
            let timed = radv::with_worker(cfg, |w| w.time(&s.spirv, &s.entry, 3))
                .unwrap_or_else(|e| panic!("{cfg}: {e}"));
            let mut t = timed.clone();
            t.sort_unstable();
            let line = CacheLine {
                family,
                backend,
                shader: s.name.clone(),
                check,
                bench_median_ns: Some(t[t.len() / 2]),
            };
            println!("{}", vkref::compare::table::cache_line_text(&line));
            if let Err(e) = line.verdict() {
                panic!("{cfg}: RADV's cache is not defeated: {e}");
            }
        }
    }
}

fn benches(c: &mut Criterion, radv_ok: bool) {
    let shaders = load();
    if radv_ok {
        let s = shaders
            .iter()
            .find(|s| s.name == CACHE_SHADER)
            .expect("cache-check shader in the corpus");
        assert_cache_defeated(s);
    }
    // Which pairs gcnc compiles, listed before anything is measured.
    let mut accepted = Vec::new();
    let mut rejected = Vec::new();
    for s in &shaders {
        for family in Family::ALL {
            match gcnc_compile(&s.spirv, family) {
                Ok(_) => accepted.push((s, family)),
                Err(e) => rejected.push(format!("{}/{}: {e}", s.name, family.gfx_target())),
            }
        }
    }
    println!(
        "gcnc compiles {} shader×target pairs; it rejects {} (not benchmarked):",
        accepted.len(),
        rejected.len()
    );
    for r in &rejected {
        println!("  {r}");
    }
    for (s, family) in accepted {
        let target = family.gfx_target();
        let mut g = c.benchmark_group(format!("{}/{target}", s.name));
        g.bench_function("gcnc", |b| {
            b.iter(|| {
                gcnc_compile(std::hint::black_box(&s.spirv), family).expect("compiled before")
            })
        });
        if radv_ok {
            for backend in [Backend::Aco, Backend::Llvm] {
                let cfg = Config::new(family, backend, wave_for(family));
                // RADV's GFX9 LLVM backend crashes on some shaders: say so, go on.
                if let Err(e) = radv::with_worker(cfg, |w| w.time(&s.spirv, &s.entry, 1)) {
                    println!(
                        "RADV fails {}/{target} with {}: {e}",
                        s.name,
                        backend.name()
                    );
                    continue;
                }
                g.bench_function(format!("radv_{}", backend.name()), |b| {
                    b.iter_custom(|iters| {
                        let n = u32::try_from(iters).expect("iteration count");
                        let times = radv::with_worker(cfg, |w| w.time(&s.spirv, &s.entry, n))
                            .unwrap_or_else(|e| panic!("{}/{cfg}: {e}", s.name));
                        Duration::from_nanos(times.iter().sum())
                    })
                });
            }
        }
        g.finish();
    }
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("radv-worker") {
        std::process::exit(radv::worker_main());
    }
    radv::set_worker_exe(std::env::current_exe().expect("current executable"));
    let radv_ok = vkref::oracle::radv().is_some();
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    benches(&mut c, radv_ok);
    c.final_summary();
}
