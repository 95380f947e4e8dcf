//! A C++ program against libgcnc, built by `g++`: `tests/cpp/smoke.cpp` includes the
//! header as C++ (extern "C", nothing C-only), compiles a shader, reads the ELF, the
//! statistics and the disassembly, and sees a typed, located error for truncated SPIR-V.
//! (The C example, `examples/compile.c`, is built and compared with `gcnc compile` in
//! `tools/cli/tests/c_example.rs`, where the CLI binary is at hand.)

mod c_build;

use c_build::{build, out_dir, root};
use std::process::Command;

#[test]
fn a_cpp_program_includes_the_header_and_compiles_a_shader() {
    let out = out_dir("cpp-smoke");
    let exe = build(
        "g++",
        &root().join("capi/tests/cpp/smoke.cpp"),
        &["-std=c++17"],
        &out,
    );
    let o = Command::new(&exe)
        .arg(root().join("tests/shaders/compute/nested_loops.spv"))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "smoke: all checks held\n"
    );
    let _ = std::fs::remove_dir_all(&out);
}
