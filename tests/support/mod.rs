//! The one shared home of the test oracle rule and the helpers every test family uses.
//!
//! [`oracle`] finds a tool (llvm-mc-19, llvm-objdump-19, glslangValidator, ...) on PATH.
//! When it is missing the test FAILS if `GCNC_REQUIRE_ORACLES=1` (CI) and otherwise the
//! caller skips after a printed notice — no other test module repeats that decision.
//! [`run`]/[`run_status`] run a tool, [`temp_path`] gives a per-test-binary scratch path,
//! and [`assemble`]/[`disassemble`] batch many lines through one llvm-mc process.
//! Other support modules (`backend_support`, `binary_support`, `link_support`,
//! `front_support`) include this file with `#[path]` and re-export what they need.
#![allow(dead_code)]

pub mod mem;

use std::ffi::OsStr;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Finds an oracle tool on PATH. Missing: panics when GCNC_REQUIRE_ORACLES=1 (CI), otherwise
/// prints a notice and returns None so the caller can skip.
pub fn oracle(name: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        if std::env::var("GCNC_REQUIRE_ORACLES").as_deref() == Ok("1") {
            panic!(
                "oracle {name} is not installed and GCNC_REQUIRE_ORACLES=1 \
                 (scripts/test.sh lists the packages to install)"
            );
        }
        // Written to the real stderr (not the captured test output) so the skip is visible.
        let _ = writeln!(
            std::io::stderr(),
            "NOTICE: {name} not installed; oracle check SKIPPED (not a pass). \
             Set GCNC_REQUIRE_ORACLES=1 to make this a failure."
        );
    }
    found
}

/// Path of llvm-mc-19, or None (after the notice) when absent and not required.
pub fn llvm_mc() -> Option<String> {
    oracle("llvm-mc-19").map(|p| p.to_string_lossy().into_owned())
}

/// Runs a tool and returns its stdout; panics with its stderr when it fails.
pub fn run(tool: impl AsRef<OsStr>, args: &[&str]) -> String {
    let tool = tool.as_ref();
    let out = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.to_string_lossy()));
    assert!(
        out.status.success(),
        "{} {args:?} failed:\n{}",
        tool.to_string_lossy(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs a tool; returns whether it succeeded and its stdout followed by its stderr.
pub fn run_status(tool: impl AsRef<OsStr>, args: &[&str]) -> (bool, String) {
    let tool = tool.as_ref();
    let o = Command::new(tool)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.to_string_lossy()));
    let mut s = String::from_utf8_lossy(&o.stdout).into_owned();
    s.push_str(&String::from_utf8_lossy(&o.stderr));
    (o.status.success(), s)
}

/// A scratch file path under Cargo's per-target temp dir, in a directory of this test
/// binary's own (test binaries run concurrently; tests inside one use distinct names).
pub fn temp_path(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(env!("CARGO_CRATE_NAME"));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs llvm-mc with `input` on stdin; returns its stdout and stderr.
fn run_stdin(mc: &str, args: &[String], input: &str) -> (String, String) {
    let mut child = Command::new(mc)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn llvm-mc");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        stdin.write_all(input.as_bytes()).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    // a crashed llvm-mc (it segfaults on some words) answers nothing for the rest of the
    // batch: never let that pass as "rejected"
    assert!(
        out.status.code().is_some(),
        "llvm-mc crashed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    writer.join().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn base_args(mcpu: &str, wave: Option<u32>) -> Vec<String> {
    let mut a = vec!["-arch=amdgcn".to_string(), format!("-mcpu={mcpu}")];
    if let Some(w) = wave {
        a.push(format!("-mattr=+wavefrontsize{w}"));
    }
    a
}

/// Assembles each line; returns per line the bytes or the error text.
pub fn assemble(
    mc: &str,
    mcpu: &str,
    wave: Option<u32>,
    lines: &[String],
) -> Vec<Result<Vec<u8>, String>> {
    let mut args = base_args(mcpu, wave);
    args.push("-show-encoding".into());
    let input = lines.join("\n") + "\n";
    let (out, err) = run_stdin(mc, &args, &input);
    let mut errors = std::collections::BTreeMap::new();
    for l in err.lines() {
        if let Some(rest) = l.strip_prefix("<stdin>:") {
            if let Some((n, msg)) = rest.split_once(':') {
                if let Ok(n) = n.parse::<usize>() {
                    if msg.contains("error") {
                        errors.entry(n - 1).or_insert_with(|| msg.to_string());
                    }
                }
            }
        }
    }
    let mut encs = out.lines().filter_map(|l| {
        l.split_once("; encoding: [")
            .map(|(_, e)| e.trim_end_matches(']').to_string())
    });
    (0..lines.len())
        .map(|i| {
            if let Some(e) = errors.get(&i) {
                return Err(e.clone());
            }
            let e = encs.next().ok_or("no output")?;
            Ok(e.split(',')
                .map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).unwrap())
                .collect())
        })
        .collect()
}

/// Disassembles each byte string (one instruction each); returns LLVM's text per item
/// (None when LLVM rejects it). A marker instruction separates items.
pub fn disassemble(
    mc: &str,
    mcpu: &str,
    wave: Option<u32>,
    items: &[Vec<u8>],
) -> Vec<Option<String>> {
    const MARK: &str = "0xfe,0x03,0xfe,0x7f"; // v_mov_b32_e32 v255, v254
    let mut input = String::new();
    for it in items {
        let b: Vec<String> = it.iter().map(|x| format!("{x:#04x}")).collect();
        input.push_str(&b.join(","));
        // a v_nop after each item: taken as a literal by an instruction that wrongly
        // expects one, so the marker itself is never swallowed
        input.push_str(",0x00,0x00,0x00,0x7e\n");
        input.push_str(MARK);
        input.push('\n');
    }
    let mut args = base_args(mcpu, wave);
    args.push("-disassemble".into());
    let (out, err) = run_stdin(mc, &args, &input);
    let bad: std::collections::BTreeSet<usize> = err
        .lines()
        .filter_map(|l| {
            l.strip_prefix("<stdin>:")?
                .split_once(':')
                .and_then(|(n, _)| n.parse::<usize>().ok())
        })
        .collect();
    let mut res = Vec::new();
    let mut cur: Vec<String> = Vec::new();
    for l in out
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != ".text")
    {
        if l == "v_mov_b32_e32 v255, v254" {
            let i = res.len();
            // the pad alone = the item did not decode; v_nop itself prints v_nop twice
            let ok = !cur.is_empty()
                && (cur[0] != "v_nop" || cur == ["v_nop", "v_nop"])
                && cur.len() <= 2
                && !bad.contains(&(2 * i + 1));
            res.push(if ok { Some(cur[0].clone()) } else { None });
            cur.clear();
        } else {
            cur.push(l.to_string());
        }
    }
    res.resize(items.len(), None);
    res
}

/// Disassembles the start of each byte string: LLVM's text and the length it consumed,
/// or None when LLVM rejects the first bytes. Items are separated by a marker; the
/// consumed length comes from the re-encoding LLVM prints with -show-encoding.
pub fn disassemble_prefix(mc: &str, mcpu: &str, items: &[Vec<u8>]) -> Vec<Option<(String, usize)>> {
    const MARK: &str = "0xfe,0x03,0xfe,0x7f"; // v_mov_b32_e32 v255, v254
    let mut input = String::new();
    for it in items {
        // one item per line: LLVM decodes the first instruction of the line; the rest of
        // the line is consumed as further (ignored) instructions
        let b: Vec<String> = it.iter().map(|x| format!("{x:#04x}")).collect();
        input.push_str(&b.join(","));
        // v_nop padding: whatever the trailing random words start cannot reach the marker
        input.push_str(",0x00,0x00,0x00,0x7e,0x00,0x00,0x00,0x7e,0x00,0x00,0x00,0x7e,0x00,0x00,0x00,0x7e,0x00,0x00,0x00,0x7e,0x00,0x00,0x00,0x7e\n");
        input.push_str(MARK);
        input.push('\n');
    }
    let mut args = base_args(mcpu, None);
    args.push("-disassemble".into());
    args.push("-show-encoding".into());
    let (out, err) = run_stdin(mc, &args, &input);
    let first_bad: std::collections::BTreeSet<usize> = err
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("<stdin>:")?;
            let mut it = rest.split(':');
            let line: usize = it.next()?.parse().ok()?;
            let col: usize = it.next()?.parse().ok()?;
            (col == 1).then_some(line)
        })
        .collect();
    let mut res = Vec::new();
    let mut cur: Vec<String> = Vec::new();
    for l in out
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != ".text")
    {
        if l.starts_with("v_mov_b32_e32 v255, v254") {
            let i = res.len();
            let ok = !first_bad.contains(&(2 * i + 1)) && !cur.is_empty();
            res.push(if ok {
                let (text, enc) = cur[0].split_once("; encoding: [").unwrap_or((&cur[0], ""));
                Some((text.trim().to_string(), enc.matches("0x").count()))
            } else {
                None
            });
            cur.clear();
        } else {
            cur.push(l.to_string());
        }
    }
    res.resize(items.len(), None);
    res
}

/// The text to give LLVM's assembler for `inst` printed as `text`: LLVM prints the VOP3
/// form of an operand-less VOP1 (v_nop, v_clrexcp, v_pipeflush) without `_e64`, and that
/// text assembles to the VOP1 form; only the suffixed name selects VOP3 (our parser takes
/// both).
pub fn assembler_text(inst: &gcnc::isa::Inst, text: &str, t: gcnc::isa::Target) -> String {
    use gcnc::isa::Format;
    let d = inst.desc(t.gen).expect("encodable instruction");
    if d.format == Format::Vop3 && d.explicit().next().is_none() {
        let e64 = format!("{text}_e64");
        let back = gcnc::isa::parse_line(&e64, 1, t).expect("parses the _e64 name");
        assert_eq!(back.as_ref(), Some(inst), "`{e64}` parses to the VOP3 form");
        e64
    } else {
        text.to_string()
    }
}

/// Decodes each byte string with gcnc and with llvm-mc-19 and compares: LLVM rejects it
/// (gcnc must return an error) or decodes it (gcnc must print the same text with the same
/// length, confirmed by LLVM on exactly gcnc's length). Returns (agreeing items, items
/// LLVM decoded among them); each disagreement is pushed to `bad` (at most 40 kept).
pub fn decode_like_llvm(
    mc: &str,
    t: gcnc::isa::Target,
    name: &str,
    items: &[Vec<u8>],
    bad: &mut Vec<String>,
) -> (usize, usize) {
    use gcnc::isa::{decode, print, Error};
    let gen = t.gen;
    // LLVM prints some encodings it considers invalid with a /*Invalid ...*/ marker
    // instead of rejecting them; we reject those: count them as rejected
    let llvm: Vec<Option<(String, usize)>> = disassemble_prefix(mc, gen.mcpu(), items)
        .into_iter()
        .map(|l| {
            l.filter(|(text, _)| {
                !text.to_lowercase().contains("/*invalid")
                    && !text.to_lowercase().contains("/* invalid")
            })
        })
        .collect();
    let ours: Vec<_> = items
        .iter()
        .map(|bytes| decode(bytes, 0, t).and_then(|(i, len)| print(&i, t).map(|s| (s, len))))
        // our printer marks invalid s_delay_alu fields as LLVM does: count as rejected
        .map(|r| {
            r.and_then(|(s, len)| {
                if s.contains("/* invalid") {
                    Err(Error::invalid(s))
                } else {
                    Ok((s, len))
                }
            })
        })
        .collect();
    // our length, confirmed by LLVM: the bytes cut to our length must still decode
    // to the same text and nothing else (a literal we missed would swallow the
    // padding; an extra dword would decode as a second instruction)
    let cut: Vec<Vec<u8>> = items
        .iter()
        .zip(&ours)
        .map(|(b, o)| match o {
            Ok((_, len)) => b[..*len].to_vec(),
            Err(_) => vec![0, 0, 0x80, 0xbf], // s_nop 0: a placeholder LLVM decodes
        })
        .collect();
    let confirm = disassemble(mc, gen.mcpu(), None, &cut);
    let (mut agree, mut decoded) = (0, 0);
    for (k, (bytes, l)) in items.iter().zip(&llvm).enumerate() {
        let ours = &ours[k];
        // GFX11 true16 forms (`v39.h`) are not in our tables (docs/isa.md)
        if l.as_ref()
            .is_some_and(|(text, _)| text.contains(".h") || text.contains(".l"))
        {
            continue;
        }
        let same = match (ours, l) {
            (Err(_), None) => true,
            // LLVM can reject a valid instruction because of the bytes after it (it
            // tries longer encodings first); on exactly our bytes it must agree
            (Ok((s, _)), None) => confirm[k].as_deref() == Some(s.as_str()),
            (Ok((s, _)), Some((text, _))) => s == text && confirm[k].as_deref() == Some(s.as_str()),
            _ => false,
        };
        if same {
            agree += 1;
            decoded += l.is_some() as usize;
        } else if bad.len() < 40 {
            let w: Vec<String> = bytes
                .chunks(4)
                .map(|c| format!("{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                .collect();
            bad.push(format!(
                "{gen} {name} {}: ours {:?}, llvm {l:?}, llvm on our length {:?}",
                w.join(" "),
                ours.clone().map_err(|e| e.to_string()),
                confirm[k]
            ));
        }
    }
    (agree, decoded)
}
