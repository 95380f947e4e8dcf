//! The committed SPIR-V of the corpus is exactly what `scripts/build-shaders.sh` makes from
//! the GLSL (glslangValidator is an oracle here), it passes spirv-val, and the set of
//! sources equals the set of cases.

use std::path::PathBuf;
use std::process::Command;
use vkref::corpus;

fn sources() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus::dir())
        .expect("corpus dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "comp"))
        .collect();
    v.sort();
    v
}

fn target_env(src: &str) -> String {
    src.lines()
        .find_map(|l| l.strip_prefix("// target-env:"))
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "vulkan1.2".into())
}

/// The environment spirv-val checks a source's SPIR-V against: its `// spirv-val-env: ENV
/// (reason)` line (as scripts/build-shaders.sh reads it), else its target environment.
fn validation_env(src: &str) -> String {
    src.lines()
        .find_map(|l| l.strip_prefix("// spirv-val-env:"))
        .and_then(|s| s.split_whitespace().next())
        .map(str::to_string)
        .unwrap_or_else(|| target_env(src))
}

#[test]
fn every_source_is_a_case_and_every_case_has_a_source() {
    let mut from_files: Vec<String> = sources()
        .iter()
        .map(|p| p.file_stem().expect("stem").to_string_lossy().into_owned())
        .collect();
    from_files.sort();
    let mut from_cases: Vec<String> = corpus::cases().iter().map(|c| c.name.to_string()).collect();
    from_cases.sort();
    assert_eq!(from_files, from_cases);
}

#[test]
fn committed_spirv_is_rebuilt_identically_from_glsl() {
    let Some(glslang) = vkref::oracle::tool("glslangValidator", "--version") else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!("vkref-spv-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("tmp dir");
    for src in sources() {
        let text = std::fs::read_to_string(&src).expect("read source");
        let out = tmp
            .join(src.file_name().expect("name"))
            .with_extension("spv");
        let st = Command::new(&glslang)
            .args(["-V", "--target-env", &target_env(&text), "-o"])
            .arg(&out)
            .arg(&src)
            .output()
            .expect("run glslangValidator");
        assert!(
            st.status.success(),
            "{}: {}",
            src.display(),
            String::from_utf8_lossy(&st.stdout)
        );
        let built = std::fs::read(&out).expect("built spv");
        let committed = std::fs::read(src.with_extension("spv")).expect("committed spv");
        assert!(
            built == committed,
            "{} is stale: run scripts/build-shaders.sh",
            src.with_extension("spv").display()
        );
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn committed_spirv_passes_spirv_val() {
    let Some(val) = vkref::oracle::tool("spirv-val", "--version") else {
        return;
    };
    for src in sources() {
        let text = std::fs::read_to_string(&src).expect("read source");
        let spv = src.with_extension("spv");
        let st = Command::new(&val)
            .args(["--target-env", &validation_env(&text)])
            .arg(&spv)
            .output()
            .expect("run spirv-val");
        assert!(
            st.status.success(),
            "{}: {}",
            spv.display(),
            String::from_utf8_lossy(&st.stderr)
        );
    }
}
