//! C and C++ programs against libgcnc, built by the system compilers (`cc`, `g++`; the
//! test suite's setup installs them) and linked against the cdylib cargo built beside
//! this test: `examples/compile.c` writes the ELF `gcnc compile` writes for the same
//! shader and target (the CLI's compile is `gcnc::compile_spirv` with the target's
//! default options, which is what this test compares with), and prints the statistics;
//! `tests/cpp/smoke.cpp` includes the header as C++ and checks a compile and an error.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The directory holding `libgcnc_capi.so`: this test executable's (`target/<profile>/deps`).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().to_path_buf();
    assert!(
        dir.join("libgcnc_capi.so").exists(),
        "no libgcnc_capi.so beside {}",
        exe.display()
    );
    dir
}

fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gcnc-capi-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles and links `source` with `compiler` against libgcnc_capi; the executable.
fn build(compiler: &str, source: &Path, extra: &[&str], out: &Path) -> PathBuf {
    let lib = lib_dir();
    let exe = out.join(source.file_stem().unwrap());
    let o = Command::new(compiler)
        .args(extra)
        .arg("-Wall")
        .arg("-Werror")
        .arg(format!("-I{}", root().join("capi/include").display()))
        .arg(source)
        .arg(format!("-L{}", lib.display()))
        .arg("-lgcnc_capi")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| panic!("{compiler}: {e} (scripts/test.sh installs it)"));
    assert!(
        o.status.success(),
        "{compiler} {}:\n{}",
        source.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    exe
}

#[test]
fn the_c_example_writes_the_elf_gcnc_compile_writes() {
    let out = out_dir("c-example");
    let exe = build(
        "cc",
        &root().join("examples/compile.c"),
        &["-std=c11"],
        &out,
    );
    let shader = root().join("tests/shaders/compute/push_constants.spv");
    let words = gcnc::front::spirv::words_from_bytes(&std::fs::read(&shader).unwrap()).unwrap();
    for (name, gen) in [
        ("gfx900", gcnc::isa::Gen::Gfx9),
        ("gfx1030", gcnc::isa::Gen::Gfx10),
        ("gfx1100", gcnc::isa::Gen::Gfx11),
    ] {
        let elf = out.join(format!("{name}.elf"));
        let o = Command::new(&exe)
            .arg(&shader)
            .arg(name)
            .arg(&elf)
            .arg("--stats")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let lib =
            gcnc::compile_spirv(&words, &gcnc::Options::new(gcnc::isa::Target::new(gen))).unwrap();
        assert_eq!(
            std::fs::read(&elf).unwrap(),
            lib.elf,
            "{name}: the ELF differs"
        );
        assert_eq!(
            stdout,
            lib.stats.to_text(),
            "{name}: RADV's statistics text"
        );
    }
    // a file that is not SPIR-V: the code and the located message, exit status 1
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
        stderr.contains("GCNC_ERROR_INVALID_SPIRV: SPIR-V word"),
        "{stderr}"
    );
    assert!(!out.join("bad.elf").exists());
    let _ = std::fs::remove_dir_all(&out);
}

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
