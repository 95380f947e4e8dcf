//! `gcnc ir` on SPIR-V: prints verified IR, honours --entry/--spec/--after, and reports
//! bad input as an error naming the file, word and opcode (exit status 1).

mod cli_support;

use cli_support::{gcnc, ROOT};

#[test]
fn prints_the_front_end_ir() {
    let (ok, out, err) = gcnc(&["ir", "tests/shaders/frag/solid.spv"]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("shader fragment origin_upper_left\n"),
        "{out}"
    );
    assert!(out.contains("entry fn main()"), "{out}");
    gcnc::ir::verify_module(&gcnc::ir::parse_module(&out).unwrap()).unwrap();
}

#[test]
fn after_runs_the_pipeline() {
    let (ok, before, _) = gcnc(&["ir", "tests/shaders/vert/functions.spv"]);
    assert!(ok);
    let (ok, after, err) = gcnc(&[
        "ir",
        "tests/shaders/vert/functions.spv",
        "--after",
        "mem2reg",
    ]);
    assert!(ok, "{err}");
    assert!(before.contains("load_deref") && before != after);
    let (ok, _, err) = gcnc(&[
        "ir",
        "tests/shaders/vert/functions.spv",
        "--after",
        "nosuchpass",
    ]);
    assert!(!ok && err.contains("unknown pass"), "{err}");
}

#[test]
fn spec_values_are_applied() {
    let (ok, out, err) = gcnc(&[
        "ir",
        "tests/shaders/front/spec_local_size.spv",
        "--spec",
        "0=16",
        "--spec",
        "1=0x2",
    ]);
    assert!(ok, "{err}");
    assert!(out.starts_with("shader compute local_size=16,2,1"), "{out}");
    let (ok, _, err) = gcnc(&[
        "ir",
        "tests/shaders/front/spec_local_size.spv",
        "--spec",
        "zero=1",
    ]);
    assert!(!ok && err.contains("--spec"), "{err}");
}

#[test]
fn bad_input_is_an_error_with_position() {
    let dir = std::env::temp_dir().join(format!("gcnc_front_cli_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bytes = std::fs::read(format!("{ROOT}/tests/shaders/frag/solid.spv")).unwrap();
    bytes.truncate(bytes.len() - 8);
    let p = dir.join("cut.spv");
    std::fs::write(&p, &bytes).unwrap();
    let (ok, _, err) = gcnc(&["ir", p.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        err.contains("cut.spv") && err.contains("SPIR-V word"),
        "{err}"
    );
    let (ok, _, err) = gcnc(&["ir", "tests/shaders/frag/solid.spv", "--entry", "other"]);
    assert!(!ok && err.contains("no entry point named"), "{err}");
}
