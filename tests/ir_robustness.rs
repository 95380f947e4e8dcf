//! Bad IR text never panics the parser or the verifier: every truncation and a family of
//! token-level mutations of every filetest input either fails to parse with a located
//! error, or parses and then verifies or fails verification — without a panic.

use gcnc::ir::{parse_module, verify_module};
use std::path::Path;

fn inputs() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        // the inline-IR filetests (not the backend ones in a subdirectory)
        .filter(|p| p.extension().is_some_and(|e| e == "ir"))
        .collect();
    paths.sort();
    for p in paths {
        let t = std::fs::read_to_string(&p).unwrap();
        let input = match t.find("\n; CHECK:\n") {
            Some(k) => t[..k + 1].to_string(),
            None => t,
        };
        out.push(input);
    }
    out
}

fn check(text: &str) {
    let r = std::panic::catch_unwind(|| {
        if let Ok(m) = parse_module(text) {
            let _ = verify_module(&m);
        } else if let Err(e) = parse_module(text) {
            assert!(e.line >= 1 && e.col >= 1, "{}", e);
        }
    });
    if r.is_err() {
        panic!("panic on input:\n{}", text);
    }
}

#[test]
fn truncations_never_panic() {
    for input in inputs() {
        let lines: Vec<&str> = input.lines().collect();
        for n in 0..lines.len() {
            check(&lines[..n].join("\n"));
        }
        for cut in (0..input.len()).step_by(7) {
            if input.is_char_boundary(cut) {
                check(&input[..cut]);
            }
        }
    }
}

#[test]
fn token_mutations_never_panic() {
    let replacements: &[(&str, &str)] = &[
        ("%1", "%0"),
        ("%2", "%1"),
        ("%3", "%99"),
        ("32x1", "32x4"),
        ("32x1", "1x1"),
        ("32x3", "64x3"),
        ("block_1", "block_0"),
        ("block_2", "block_9"),
        ("deref_array", "deref_struct"),
        ("deref_struct", "deref_array"),
        (".1 :", ".7 :"),
        (".0 :", ".9 :"),
        ("@0", "@9"),
        ("@1", "@0"),
        ("load_deref", "store_deref"),
        ("store_deref", "load_deref"),
        ("iadd", "vec"),
        ("fadd", "fdot"),
        ("swizzle", "mov"),
        (".x", ".w"),
        ("break", "continue"),
        ("break", "return"),
        ("phi", "vec"),
        ("ssbo", "function"),
        ("stride=4", "stride=0"),
        ("function", "shared"),
        ("} else {", "}"),
        ("const 0", "const 0, 1"),
        ("write_mask=0x1", "write_mask=0xff"),
        ("if %", "loop %"),
        ("load_param", "load_param index=7"),
        ("call ", "call x"),
    ];
    for input in inputs() {
        for (from, to) in replacements {
            let mut start = 0;
            while let Some(k) = input[start..].find(from) {
                let at = start + k;
                let mutated = format!("{}{}{}", &input[..at], to, &input[at + from.len()..]);
                check(&mutated);
                start = at + from.len();
            }
        }
        // Deleting each line in turn.
        let lines: Vec<&str> = input.lines().collect();
        for k in 0..lines.len() {
            let mut l = lines.clone();
            l.remove(k);
            check(&l.join("\n"));
        }
    }
}
