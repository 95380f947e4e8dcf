//! `gcnc compile` end to end: IR text in, ELF + statistics + disassembly out; SPIR-V goes
//! through the front-end; unsupported input is a located error, not a crash.

mod cli_support;

use cli_support::gcnc;

#[test]
fn compile_ir_with_stats_and_asm() {
    let out = std::env::temp_dir().join(format!("gcnc-cli-{}.elf", std::process::id()));
    let o = out.to_str().unwrap();
    for (t, w) in [("gfx900", "64"), ("gfx1030", "32"), ("gfx1100", "64")] {
        let (ok, stdout, stderr) = gcnc(&[
            "compile",
            "tests/backend/control_flow.ir",
            "--target",
            t,
            "--wave",
            w,
            "--no-opt",
            "--stats",
            "--asm",
            "-o",
            o,
        ]);
        assert!(ok, "{stderr}");
        for name in [
            "Instructions:",
            "Code size:",
            "SGPRs:",
            "VGPRs:",
            "Spilled SGPRs: 0",
            "Spilled VGPRs: 0",
            "Scratch size: 0",
            "LDS size: 0",
            "Subgroups per SIMD:",
            "Copies:",
            "Branches:",
        ] {
            assert!(stdout.contains(name), "{name} missing:\n{stdout}");
        }
        assert!(stdout.contains("s_endpgm"));
        let elf = std::fs::read(o).unwrap();
        assert_eq!(&elf[..4], b"\x7fELF");
    }
}

#[test]
fn errors_are_located() {
    // a fragment-stage input read in a compute shader: a clean error at its instruction
    let ir = std::env::temp_dir().join(format!("gcnc-point-coord-{}.ir", std::process::id()));
    std::fs::write(
        &ir,
        "shader compute local_size=1,1,1\n\nentry fn main() {\n  block_0:\n    32x1 %0 = const 0\n    \
         32x2 %1 = load_point_coord\n    32x2 %2 = vulkan_resource_index %0 binding=0 mode=ssbo\n    \
         store_ssbo %1, %2, %0 write_mask=0x3 align=4\n}\n",
    )
    .unwrap();
    let (ok, _, stderr) = gcnc(&[
        "compile",
        ir.to_str().unwrap(),
        "--target",
        "gfx1030",
        "--no-opt",
    ]);
    let _ = std::fs::remove_file(&ir);
    assert!(!ok);
    assert!(
        stderr.contains("#1: intrinsic load_point_coord"),
        "{stderr}"
    );
    assert!(
        stderr.contains("unsupported at IR instruction #"),
        "{stderr}"
    );
    // a register budget too small even with spilling (no VGPR for the local ids)
    let (ok, _, stderr) = gcnc(&[
        "compile",
        "tests/backend/builtins_64bit.ir",
        "--target",
        "gfx1030",
        "--no-opt",
        "--max-vgprs",
        "0",
    ]);
    assert!(!ok);
    assert!(stderr.contains("register pressure"), "{stderr}");
    // bad layout JSON
    let l = std::env::temp_dir().join(format!("gcnc-layout-{}.json", std::process::id()));
    std::fs::write(&l, "{\"sets\": {\"x\": {}}}").unwrap();
    let (ok, _, stderr) = gcnc(&[
        "compile",
        "tests/backend/arith.ir",
        "--target",
        "gfx900",
        "--no-opt",
        "--layout",
        l.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(stderr.contains("set key `x` is not a number"), "{stderr}");
}
