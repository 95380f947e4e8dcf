//! Building C and C++ programs against libgcnc in tests (the C++ smoke test here, the C
//! example in `tools/cli/tests/c_example.rs`): the system compiler (`cc`, `g++`; the test
//! suite's setup installs them), the committed header, and the `libgcnc_capi.so` cargo
//! built beside the running test executable, found at run time through an rpath that
//! takes precedence over `LD_LIBRARY_PATH`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (the including package's nearest ancestor with `isa_tables/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|d| d.join("isa_tables").is_dir())
        .expect("the workspace root")
        .to_path_buf()
}

/// The directory holding `libgcnc_capi.so`: this test executable's (`target/<profile>/deps`).
pub fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap().to_path_buf();
    assert!(
        dir.join("libgcnc_capi.so").exists(),
        "no libgcnc_capi.so beside {}",
        exe.display()
    );
    dir
}

/// A fresh scratch directory for `name`.
pub fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gcnc-capi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles and links `source` with `compiler` (warnings are errors) against
/// libgcnc_capi into `out`; the executable.
pub fn build(compiler: &str, source: &Path, extra: &[&str], out: &Path) -> PathBuf {
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
        // DT_RPATH, not DT_RUNPATH: searched before LD_LIBRARY_PATH, which cargo sets to
        // its target directories, where an older `libgcnc_capi.so` may lie uplifted
        .arg("-Wl,--disable-new-dtags")
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
