//! `gcnc ir`: prints IR as read, after a given pass, or after the whole middle end;
//! bad input and unknown passes are errors with a non-zero exit code.

mod cli_support;

use cli_support::gcnc;

const SHADER: &str = "shader compute local_size=4,1,1
struct $0 { [u32, stride=4] @0 }
var @0 ssbo $0 set=0 binding=0

entry fn main() {
  var @1 function u32 \"x\"
  block_0:
    32x1 %0 = deref_var @1 : function u32
    32x1 %1 = const 7
    store_deref %0, %1 write_mask=0x1
    32x1 %2 = load_deref %0
    32x1 %3 = deref_var @0 : ssbo $0
    32x1 %4 = deref_struct %3.0 : ssbo [u32, stride=4]
    32x1 %5 = deref_array %4[%2] : ssbo u32
    store_deref %5, %2 write_mask=0x1
}
";

#[test]
fn ir_subcommand() {
    let dir = std::env::temp_dir().join(format!("gcnc-cli-ir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.ir");
    std::fs::write(&path, SHADER).unwrap();
    let p = path.to_str().unwrap();

    let (ok, out, _) = gcnc(&["ir", p]);
    assert!(ok);
    assert_eq!(out, SHADER);

    let (ok, out, _) = gcnc(&["ir", p, "--after", "mem2reg"]);
    assert!(ok);
    assert!(!out.contains("load_deref"), "{}", out);
    assert!(out.contains("store_deref"), "{}", out);

    let (ok, out, _) = gcnc(&["ir", p, "--after", "all"]);
    assert!(ok);
    assert!(out.contains("store_ssbo"), "{}", out);

    let (ok, _, err) = gcnc(&["ir", p, "--after", "nonsense"]);
    assert!(!ok);
    assert!(err.contains("unknown pass"), "{}", err);

    std::fs::write(&path, SHADER.replace("const 7", "const")).unwrap();
    let (ok, _, err) = gcnc(&["ir", p]);
    assert!(!ok);
    assert!(err.contains("s.ir:9:16: expected a number"), "{}", err);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// IR text with no entry function is a valid module for `gcnc ir`, but there is nothing to
/// compile or run: both say so with an error exit, not a panic (exit 101).
#[test]
fn a_module_without_an_entry_function_is_an_error_to_compile_or_run() {
    let dir = std::env::temp_dir().join(format!("gcnc-cli-noentry-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("empty.ir");
    std::fs::write(&path, "shader compute local_size=1,1,1\n").unwrap();
    let p = path.to_str().unwrap();

    let (ok, _, _) = gcnc(&["ir", p]);
    assert!(ok);
    for cmd in ["compile", "run"] {
        let o = cli_support::gcnc_output(&[cmd, "--target", "gfx1030", p]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "gcnc {cmd}: {err}");
        assert!(err.contains("no entry function"), "gcnc {cmd}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
