//! `examples/compile.c`, the C driver example of libgcnc (docs/c-api.md), built by `cc`
//! against the `gcnc-capi` cdylib (a dev-dependency of this package, so cargo builds it
//! beside this test): on each target it writes the ELF `gcnc compile` writes for the same
//! shader, byte for byte, and prints the statistics `gcnc compile --stats` prints; a
//! module that is not SPIR-V gives the result code and gcnc's located message, exit 1 and
//! no output file.

mod cli_support;

#[path = "../../../capi/tests/c_build/mod.rs"]
mod c_build;

use c_build::{build, out_dir, root};
use cli_support::gcnc;
use std::process::Command;

#[test]
fn the_c_example_writes_the_elf_gcnc_compile_writes() {
    let out = out_dir("c-example");
    let exe = build(
        "cc",
        &root().join("examples/compile.c"),
        &["-std=c11"],
        &out,
    );
    let shader = "tests/shaders/compute/push_constants.spv";
    for target in ["gfx900", "gfx1030", "gfx1100"] {
        let from_c = out.join(format!("{target}.c.elf"));
        let o = Command::new(&exe)
            .arg(root().join(shader))
            .arg(target)
            .arg(&from_c)
            .arg("--stats")
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{target}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let from_cli = out.join(format!("{target}.cli.elf"));
        let (ok, stats, err) = gcnc(&[
            "compile",
            shader,
            "--target",
            target,
            "--stats",
            "-o",
            from_cli.to_str().unwrap(),
        ]);
        assert!(ok, "{err}");
        assert_eq!(
            std::fs::read(&from_c).unwrap(),
            std::fs::read(&from_cli).unwrap(),
            "{target}: the C example's ELF differs from gcnc compile's"
        );
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            stats,
            "{target}: statistics"
        );
    }

    let bad = out.join("bad.spv");
    std::fs::write(&bad, [0x03, 0x02, 0x23, 0x07, 0, 0, 1, 0]).unwrap();
    let o = Command::new(&exe)
        .arg(&bad)
        .arg("gfx1100")
        .arg(out.join("bad.elf"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "compile: {}: GCNC_ERROR_INVALID_SPIRV: SPIR-V word ",
            bad.display()
        )),
        "{stderr}"
    );
    assert!(!out.join("bad.elf").exists());
    let _ = std::fs::remove_dir_all(&out);
}
