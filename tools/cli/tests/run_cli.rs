//! `gcnc run` end to end: corpus shaders (SPIR-V, and the same shader compiled to a PAL ELF
//! first) run on the emulator through the command line produce the corpus's expected
//! bytes; bad arguments and a shader missing an `s_waitcnt` give readable errors with the
//! failing instruction and a register dump, never a panic.

use gcnc::binary::{CodeObject, ComputeShaderInfo, UserData};
use gcnc::isa::{self, Gen, Target, Wave};
use std::path::PathBuf;
use std::process::Command;
use vkref::corpus::{self, Env, SpecValue};
use vkref::lavapipe::Resource;

/// The workspace root: test inputs are named relative to it.
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn gcnc(args: &[String]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_gcnc"))
        .current_dir(ROOT)
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into(),
        String::from_utf8_lossy(&o.stderr).into(),
    )
}

fn strs(a: &[&str]) -> Vec<String> {
    a.iter().map(|s| s.to_string()).collect()
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gcnc-run-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs corpus case `name` through `gcnc run` (on `input`, SPIR-V or ELF) and checks every
/// expectation against the dumped buffers.
fn run_corpus_case(name: &str, input: &str, target: &str, wave: u32, dir: &PathBuf) {
    let case = corpus::cases()
        .into_iter()
        .find(|c| c.name == name)
        .unwrap();
    let inputs = (case.inputs)();
    let mut args = strs(&["run", input, "--target", target]);
    args.push("--wave".into());
    args.push(wave.to_string());
    let g = inputs.groups;
    args.push("--dispatch".into());
    args.push(format!("{},{},{}", g[0], g[1], g[2]));
    if !inputs.push.is_empty() {
        args.push("--push".into());
        args.push(inputs.push.iter().map(|b| format!("{b:02x}")).collect());
    }
    if input.ends_with(".spv") {
        for (id, v) in &inputs.spec {
            let v = match v {
                SpecValue::U32(x) => *x as u64,
                SpecValue::U64(x) => *x,
            };
            // the case's values are raw bit patterns (a float constant's bits, say)
            args.push("--spec".into());
            args.push(format!("{id}={v:#x}"));
        }
    }
    let mut outs = Vec::new();
    for (k, r) in inputs.resources.iter().enumerate() {
        let Resource::Buffer {
            set, binding, data, ..
        } = r
        else {
            panic!("{name}: only descriptor-bound buffers in this test");
        };
        let f = dir.join(format!("{name}-{target}-{wave}-in{k}.bin"));
        std::fs::write(&f, data).unwrap();
        args.push("--bind".into());
        args.push(format!("{set}:{binding}={}", f.display()));
        let o = dir.join(format!("{name}-{target}-{wave}-out{k}.bin"));
        args.push("--dump".into());
        args.push(format!("{set}:{binding}={}", o.display()));
        outs.push(o);
    }
    let (ok, stdout, stderr) = gcnc(&args);
    assert!(ok, "{name} {target} w{wave}: {stderr}");
    assert!(
        stdout.contains(&format!("wave(s) of {wave} lanes on {target}")),
        "{stdout}"
    );
    let env = Env {
        subgroup_size: wave,
    };
    for e in (case.expect)(&inputs, &env) {
        let got = std::fs::read(&outs[e.resource]).unwrap();
        corpus::compare(&got[..e.bytes.len()], &e)
            .unwrap_or_else(|m| panic!("{name} {target} w{wave} resource {}: {m}", e.resource));
    }
}

#[test]
fn corpus_shaders_run_from_spirv_and_from_elf() {
    let dir = temp_dir("corpus");
    for (t, w) in [
        ("gfx900", 64),
        ("gfx1030", 32),
        ("gfx1100", 32),
        ("gfx1100", 64),
    ] {
        for name in ["push_constants", "std140_ubo", "spec_local_size"] {
            run_corpus_case(
                name,
                &format!("tests/shaders/compute/{name}.spv"),
                t,
                w,
                &dir,
            );
        }
    }
    // compile to an ELF first, then run the ELF
    let elf = dir.join("push_constants.elf");
    let (ok, _, stderr) = gcnc(&strs(&[
        "compile",
        "tests/shaders/compute/push_constants.spv",
        "--target",
        "gfx1030",
        "--wave",
        "64",
        "-o",
        elf.to_str().unwrap(),
    ]));
    assert!(ok, "{stderr}");
    run_corpus_case("push_constants", elf.to_str().unwrap(), "gfx1030", 64, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn print_shows_results_and_asm_stats_are_printed() {
    let (ok, stdout, stderr) = gcnc(&strs(&[
        "run",
        "tests/shaders/compute/push_constants.spv",
        "--target",
        "gfx1100",
        "--push",
        // n = 3, scale = 2.0, off = (1, -1), color = (1, 2, 3, 4), mask = 0xff
        "03000000 00000040 01000000 ffffffff 0000803f 00000040 00004040 00008040 ff000000",
        "--bind",
        "0:0=@1024",
        "--bind",
        "0:1=@256",
        "--print",
        "0:1:u32",
        "--print",
        "0:0:f32",
        "--asm",
        "--stats",
    ]));
    assert!(ok, "{stderr}");
    assert!(stdout.contains("s_endpgm"), "disassembly: {stdout}");
    assert!(stdout.contains("VGPRs:"), "statistics: {stdout}");
    assert!(stdout.contains("ran 1 workgroup(s), 2 wave(s)"), "{stdout}");
    // cnt[i] = sum over k < 3 of (i ^ k) & 0xff: i = 0 → 0+1+2 = 3, i = 1 → 1+0+3 = 4
    assert!(
        stdout.contains("set 0 binding 1 (256 bytes):\n  0x0000: 3 4 "),
        "{stdout}"
    );
    // o[0] = color * 2 + (1, -1, 0, 0) = (3, 3, 6, 8)
    assert!(
        stdout.contains("set 0 binding 0 (1024 bytes):\n  0x0000: 3.0 3.0 6.0 8.0 "),
        "{stdout}"
    );
}

#[test]
fn bad_arguments_are_reported() {
    let spv = "tests/shaders/compute/push_constants.spv";
    for (args, want) in [
        (vec!["run", spv], "--target is required"),
        (vec!["run", spv, "--target", "gfx42"], "gfx42"),
        (
            vec!["run", spv, "--target", "gfx1100", "--dispatch", "0"],
            "not a positive count",
        ),
        (
            vec!["run", spv, "--target", "gfx1100", "--bind", "0=@4"],
            "expected SET:BINDING",
        ),
        (
            vec!["run", spv, "--target", "gfx1100", "--bind", "0:0=@x"],
            "not a byte count",
        ),
        (
            vec!["run", spv, "--target", "gfx1100", "--dump", "0:3=/tmp/x"],
            "not bound",
        ),
        (
            vec!["run", spv, "--target", "gfx1100", "--push", "abc"],
            "odd number of hex digits",
        ),
        (
            vec!["run", spv, "--target", "gfx1100", "--wave", "16"],
            "32 or 64",
        ),
        (
            vec!["run", "/nonexistent.spv", "--target", "gfx1100"],
            "/nonexistent.spv",
        ),
        // the shader writes binding 0 and 1: unbound, its descriptor is zero → the V# has
        // num_records 0, stores are dropped, and the run succeeds; but a bad set number is
        // a layout error
        (
            vec!["run", spv, "--target", "gfx1100", "--bind", "9:0=@4"],
            "descriptor set 9",
        ),
    ] {
        let (ok, _, stderr) = gcnc(&strs(&args));
        assert!(!ok, "{args:?} should fail");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// `--spec` values are read by the type of the SPIR-V constant their SpecId decorates
/// (spec_constants.comp: 0 uint K, 1 int S, 2 bool FLAG, 3 float F, 4 uint64 BIG, 5 uint
/// UNSET), give the same results as the bit patterns they stand for, and wrong ones are
/// refused naming the ID and the reason.
#[test]
fn spec_values_are_typed_by_the_constant() {
    let spv = "tests/shaders/compute/spec_constants.spv";
    let dir = temp_dir("spec");
    let run = |tag: &str, spec: &[&str]| -> (Vec<u32>, Vec<u64>) {
        let (o, q) = (dir.join(format!("{tag}-o")), dir.join(format!("{tag}-q")));
        let mut args = strs(&["run", spv, "--target", "gfx1100", "--bind", "0:0=@1024"]);
        args.extend(strs(&["--bind", "0:1=@512", "--dump"]));
        args.push(format!("0:0={}", o.display()));
        args.push("--dump".into());
        args.push(format!("0:1={}", q.display()));
        for s in spec {
            args.push("--spec".into());
            args.push(s.to_string());
        }
        let (ok, _, stderr) = gcnc(&args);
        assert!(ok, "{spec:?}: {stderr}");
        let words = |p: &PathBuf, n: usize| -> Vec<u64> {
            let b = std::fs::read(p).unwrap();
            b.chunks(n)
                .map(|c| c.iter().rev().fold(0u64, |a, x| a << 8 | *x as u64))
                .collect()
        };
        let o = words(&o, 4).into_iter().map(|w| w as u32).collect();
        (o, words(&q, 8))
    };
    let typed = run("typed", &["0=4", "1=-7", "2=true", "3=0.5", "4=-0", "5=11"]);
    let bits = run(
        "bits",
        &[
            "0=0x4",
            "1=0xfffffff9",
            "2=0x1",
            "3=0x3f000000",
            "4=0x0",
            "5=0xb",
        ],
    );
    assert_eq!(typed, bits);
    let (k, s, f, big, unset) = (4u32, -7i32 as u32, 0.5f32, 0u64, 11u32);
    let kk = 2 * k + 1;
    for i in 0..64u32 {
        let o = &typed.0[4 * i as usize..4 * i as usize + 4];
        assert_eq!(o[0], i.wrapping_mul(kk).wrapping_add(s) ^ 0xff, "lane {i}");
        assert_eq!(o[1], (i as f32 * f).to_bits(), "lane {i}");
        assert_eq!(o[2], unset + i % k, "lane {i}");
        assert_eq!(o[3], (i % kk) * (i % kk) + i, "lane {i}");
        assert_eq!(typed.1[i as usize], big * i as u64 + k as u64, "lane {i}");
    }
    for (spec, want) in [
        ("1=2147483648", "--spec 1=2147483648: specialization constant 1 is a 32-bit signed integer: 2147483648 is outside -2147483648..=2147483647"),
        ("0=-1", "specialization constant 0 is a 32-bit unsigned integer: -1 is outside 0..=4294967295"),
        ("2=2", "specialization constant 2 is a bool: `2` is not true, false, 1 or 0"),
        ("3=fast", "specialization constant 3 is a 32-bit float: `fast` is not a number"),
        ("3=1e39", "specialization constant 3 is a 32-bit float: 1e39 overflows a 32-bit float"),
        ("0=0x100000000", "specialization constant 0 is a 32-bit unsigned integer: the bit pattern 0x100000000 is wider than 32 bits"),
        ("9=1", "--spec 9=1: the module has no specialization constant 9 (it has: 0, 1, 2, 3, 4, 5)"),
        ("K=1", "--spec K=1: `K` is not a SpecId"),
    ] {
        for cmd in ["run", "compile"] {
            let args = strs(&[cmd, spv, "--target", "gfx900", "--spec", spec]);
            let (ok, _, stderr) = gcnc(&args);
            assert!(!ok, "{args:?} should fail");
            assert!(stderr.contains(want), "{args:?}: {stderr}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Arrays sized by specialization constants (spec_array.comp: `shared float
/// tile[BLOCK_SIZE]`, `shared uint sums[ROWS][BLOCK_SIZE / 2 + 1]`) take their size from the
/// values given; values that make a length 0 are refused saying where the length came
/// from, and an unlinked compile that leaves BLOCK_SIZE (directly, or through the
/// constant built from it) to the link stage asks for the whole pipeline.
#[test]
fn spec_sized_arrays_follow_the_values() {
    let spv = "tests/shaders/compute/spec_array.spv";
    for (spec, lds) in [
        (["0=32", "1=2"], 32 * 4 + 2 * 17 * 4),
        (["0=48", "1=3"], 48 * 4 + 3 * 25 * 4),
    ] {
        let mut args = strs(&["compile", spv, "--target", "gfx1100", "--stats"]);
        for s in spec {
            args.push("--spec".into());
            args.push(s.into());
        }
        let (ok, out, stderr) = gcnc(&args);
        assert!(ok, "{spec:?}: {stderr}");
        assert!(out.contains(&format!("LDS size: {lds}")), "{spec:?}: {out}");
    }
    let (ok, _, stderr) = gcnc(&strs(&[
        "compile", spv, "--target", "gfx900", "--spec", "0=0",
    ]));
    assert!(!ok);
    assert!(
        stderr.contains("array length 0 (computed from specialization constants"),
        "{stderr}"
    );
    for late in ["0", "1"] {
        let args = strs(&[
            "compile",
            spv,
            "--target",
            "gfx900",
            "--unlinked",
            "--link-spec",
            late,
        ]);
        let (ok, _, stderr) = gcnc(&args);
        assert!(!ok, "{args:?} should fail");
        assert!(
            stderr.contains("NeedsWholePipeline")
                && stderr.contains(&format!("specialization constant {late}")),
            "{args:?}: {stderr}"
        );
    }
}

/// Requests beyond the documented limits (docs/emu.md) stop at once with an error naming
/// the limit: no allocation abort, no reading until memory runs out, no endless dispatch.
#[test]
fn requests_beyond_the_run_limits_are_errors() {
    let spv = "tests/shaders/compute/push_constants.spv";
    let base = [
        "run",
        spv,
        "--target",
        "gfx1100",
        "--push",
        &"00".repeat(36),
    ];
    for (extra, want) in [
        (
            vec!["--bind", "0:0=@99999999999999"],
            "exceed 268435456 bytes",
        ),
        (vec!["--bind", "0:0=/dev/zero"], "exceed 268435456 bytes"),
        (
            vec!["--bind", "0:0=@200000000", "--bind", "0:1=@100000000"],
            "--bind 0:1=@100000000: the bound buffers would exceed 268435456 bytes",
        ),
        (
            vec!["--dispatch", "65535,65535,65535"],
            "more than the dispatch budget of 100000000 instructions",
        ),
        (
            vec!["--dispatch", "300", "--dispatch-budget", "500"],
            "more than the dispatch budget of 500 instructions",
        ),
        (
            vec!["--dispatch", "10", "--dispatch-budget", "100"],
            "budget of 100 instructions (all waves together) is exhausted",
        ),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra.iter().copied()).collect();
        let o = Command::new(env!("CARGO_BIN_EXE_gcnc"))
            .current_dir(ROOT)
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{extra:?}: {stderr}");
        assert!(stderr.contains(want), "{extra:?}: {stderr}");
    }
    // within the budget the same dispatch runs
    let args: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--dispatch", "10", "--dispatch-budget", "100000"])
        .collect();
    let (ok, stdout, stderr) = gcnc(&strs(&args));
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("ran 10 workgroup(s), 20 wave(s)"),
        "{stdout}"
    );
}

/// A workgroup of 1024 invocations (Vulkan's largest), laid out 1024x1x1 and 1x1024x1,
/// runs on every target and wave size: the local ids of the last invocation (1023) fit
/// the launch's 10-bit fields, and every invocation exchanges its value through LDS.
#[test]
fn a_workgroup_of_1024_invocations_runs_in_either_dimension() {
    let dir = temp_dir("wide");
    let out = dir.join("o.bin");
    let out_s = out.to_str().unwrap();
    for (target, wave) in CONFIGS {
        for (sx, sy) in [(1024u32, 1u32), (1, 1024)] {
            let (ok, _, stderr) = gcnc(&strs(&[
                "run",
                "tests/shaders/emu/wide_workgroup.spv",
                "--target",
                target,
                "--wave",
                wave,
                "--spec",
                &format!("0={sx}"),
                "--spec",
                &format!("1={sy}"),
                "--dispatch",
                "2",
                "--bind",
                "0:0=@8192",
                "--dump",
                &format!("0:0={out_s}"),
            ]));
            assert!(ok, "{target} wave{wave} {sx}x{sy}: {stderr}");
            let got: Vec<u32> = std::fs::read(&out)
                .unwrap()
                .chunks(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            let want: Vec<u32> = (0..2u32)
                .flat_map(|wg| {
                    (0..1024u32).map(move |i| {
                        let j = 1023 - i;
                        let (x, y) = if sx == 1024 { (j, 0) } else { (0, j) };
                        x * 7 + y * 3 + wg * 100_000
                    })
                })
                .collect();
            assert_eq!(got, want, "{target} wave{wave} {sx}x{sy}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

const CONFIGS: [(&str, &str); 5] = [
    ("gfx900", "64"),
    ("gfx1030", "32"),
    ("gfx1030", "64"),
    ("gfx1100", "32"),
    ("gfx1100", "64"),
];

/// A barrier only some invocations reach is an error naming the `s_barrier`: with part
/// of a wave's lanes (EXEC short of the wave's lanes), or with whole waves ending
/// without it. Reached by every invocation, the same shader runs and exchanges its
/// values through LDS.
#[test]
fn a_barrier_in_divergent_control_flow_is_reported() {
    let spv = "tests/shaders/emu/divergent_barrier.spv";
    for (target, wave) in CONFIGS {
        let run = |limit: u32| {
            gcnc(&strs(&[
                "run",
                spv,
                "--target",
                target,
                "--wave",
                wave,
                "--spec",
                &format!("0={limit}"),
                "--bind",
                "0:0=@512",
                "--print",
                "0:0:u32",
            ]))
        };
        for (limit, want) in [(16, "s_barrier with EXEC"), (64, "ended without reaching")] {
            let (ok, _, stderr) = run(limit);
            assert!(!ok, "{target} wave{wave} limit {limit}: ran");
            assert!(
                stderr.contains("barrier in divergent control flow"),
                "{target} wave{wave} limit {limit}: {stderr}"
            );
            assert!(
                stderr.contains(want),
                "{target} wave{wave} limit {limit}: {stderr}"
            );
            assert!(stderr.contains("s_barrier"), "{stderr}");
        }
        let (ok, stdout, stderr) = run(128);
        assert!(ok, "{target} wave{wave}: {stderr}");
        // o[i] = s[127 - i] = 5 * (127 - i)
        assert!(
            stdout.contains("0x0000: 635 630 625 620 615 610 605 600"),
            "{stdout}"
        );
    }
}

/// A read of shared memory past the workgroup's LDS allocation is an error naming the
/// instruction and the address; inside it the same shader runs.
#[test]
fn an_lds_read_outside_the_allocation_is_reported() {
    let spv = "tests/shaders/emu/lds_out_of_range.spv";
    for (target, wave) in CONFIGS {
        let run = |k: u32| {
            let push: String = k.to_le_bytes().iter().map(|b| format!("{b:02x}")).collect();
            gcnc(&strs(&[
                "run", spv, "--target", target, "--wave", wave, "--push", &push, "--bind",
                "0:0=@256", "--print", "0:0:u32",
            ]))
        };
        let (ok, stdout, stderr) = run(0);
        assert!(ok, "{target} wave{wave}: {stderr}");
        assert!(stdout.contains("0x0000: 1 2 3 4 5 6 7 8"), "{stdout}");
        let (ok, _, stderr) = run(1000);
        assert!(!ok, "{target} wave{wave}: ran");
        assert!(
            stderr.contains("LDS read of 4 bytes at 0xfa0"),
            "{target} wave{wave}: {stderr}"
        );
        assert!(stderr.contains("outside the workgroup's"), "{stderr}");
    }
}

#[test]
fn missing_waitcnt_elf_is_reported_with_instruction_and_registers() {
    let dir = temp_dir("waitcnt");
    let t = Target::with_wave(Gen::Gfx11, Wave::W32).unwrap();
    // loads the V# of set 0 binding 0, loads a dword through it and uses it before
    // s_waitcnt vmcnt(0)
    let src = "s_load_b128 s[4:7], s[0:1], 0x0\n\
               s_waitcnt lgkmcnt(0)\n\
               v_mov_b32_e32 v1, 0\n\
               buffer_load_b32 v2, v1, s[4:7], 0 offen\n\
               v_add_nc_u32_e32 v3, v2, v2\n\
               s_endpgm\n";
    let mut code = Vec::new();
    for (line, inst) in isa::parse(src, t).unwrap() {
        code.extend(isa::encode(&inst, t).unwrap_or_else(|e| panic!("{line}: {e:?}")));
    }
    let mut info = ComputeShaderInfo::new(t);
    info.workgroup_size = [32, 1, 1];
    info.vgprs = 8;
    info.sgprs = 16;
    info.user_data = vec![UserData::Entry(2), UserData::Entry(3)];
    let size = code.len() as u64;
    code.resize(256, 0);
    let elf = CodeObject::compute(&info, code, size, vec![])
        .unwrap()
        .write()
        .unwrap();
    let path = dir.join("nowait.elf");
    std::fs::write(&path, elf).unwrap();
    let (ok, _, stderr) = gcnc(&strs(&["run", path.to_str().unwrap(), "--bind", "0:0=@64"]));
    assert!(!ok);
    assert!(stderr.contains("missing s_waitcnt vmcnt"), "{stderr}");
    assert!(stderr.contains("v_add_nc_u32"), "{stderr}");
    assert!(stderr.contains("buffer_load_b32"), "{stderr}");
    assert!(stderr.contains("exec="), "register dump: {stderr}");
    // the ELF is gfx1100: asking for another target is an error
    let (ok, _, stderr) = gcnc(&strs(&[
        "run",
        path.to_str().unwrap(),
        "--target",
        "gfx900",
    ]));
    assert!(!ok);
    assert!(stderr.contains("the ELF is for gfx1100"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--bind` images through the command line: img_sample_lod's combined image samplers
/// (the same 8x8, 4-level rgba8 image with a nearest and a linear sampler) give the
/// corpus's expected exact outputs, and img_storage's r32f storage image comes back as
/// `2f + 1` of the file bound to it.
#[test]
fn images_and_samplers_bind_from_the_command_line() {
    let dir = temp_dir("images");
    let case = corpus::cases()
        .into_iter()
        .find(|c| c.name == "img_sample_lod")
        .unwrap();
    let inputs = (case.inputs)();
    let Resource::Image { images, .. } = &inputs.resources[0] else {
        panic!("img_sample_lod binds an image first");
    };
    let img = dir.join("lod.bin");
    std::fs::write(&img, &images[0].data).unwrap();
    let exact = dir.join("exact.bin");
    let (ok, out, err) = gcnc(&[
        "run".into(),
        "tests/shaders/compute/img_sample_lod.spv".into(),
        "--target".into(),
        "gfx1030".into(),
        "--bind".into(),
        format!(
            "0:0=image:2d:rgba8:8x8:4+nearest/clamp/mipnearest={}",
            img.display()
        ),
        "--bind".into(),
        format!(
            "0:1=image:2d:rgba8:8x8:4+linear/clamp/miplinear={}",
            img.display()
        ),
        "--bind".into(),
        format!("0:2=@{}", corpus::data(&inputs, 2).len()),
        "--bind".into(),
        "0:3=@2048".into(),
        "--dump".into(),
        format!("0:2={}", exact.display()),
    ]);
    assert!(ok, "{out}\n{err}");
    let want = (case.expect)(&inputs, &Env { subgroup_size: 32 });
    let e = want.iter().find(|e| e.resource == 2).unwrap();
    corpus::compare(&std::fs::read(&exact).unwrap(), e).unwrap();

    let floats: Vec<u8> = (0..64)
        .flat_map(|i| (i as f32 * 0.5).to_le_bytes())
        .collect();
    let r32f = dir.join("r32f.bin");
    std::fs::write(&r32f, &floats).unwrap();
    let (ok, out, err) = gcnc(&strs(&[
        "run",
        "tests/shaders/compute/img_storage.spv",
        "--target",
        "gfx900",
        "--dispatch",
        "2,2",
        "--bind",
        "0:0=image:2d:rgba8:8x8=@",
        "--bind",
        &format!("0:1=image:2d:r32f:8x8={}", r32f.display()),
        "--bind",
        "0:2=image:2d:rgba16f:8x8=@",
        "--bind",
        "0:3=image:2d:r32ui:8x8=@",
        "--bind",
        "0:4=@32",
        "--print",
        "0:1:f32",
    ]));
    assert!(ok, "{out}\n{err}");
    assert!(
        out.contains("0x0000: 1.0 2.0 3.0 4.0 5.0 6.0 7.0 8.0"),
        "{out}"
    );
    assert!(
        out.contains("0x00e0: 57.0 58.0 59.0 60.0 61.0 62.0 63.0 64.0"),
        "{out}"
    );
    // a wrong-sized image file is refused before anything runs
    let (ok, _, err) = gcnc(&strs(&[
        "run",
        "tests/shaders/compute/img_storage.spv",
        "--target",
        "gfx900",
        "--bind",
        &format!("0:0=image:2d:rgba8:4x4={}", r32f.display()),
    ]));
    assert!(
        !ok && err.contains("holds 256 bytes, the image 64"),
        "{err}"
    );
}
