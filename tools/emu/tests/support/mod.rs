//! Shared test helpers: assemble with our ISA layer (for semantic tests) or with LLVM's
//! `llvm-mc-19` + `llvm-objcopy-19` (for end-to-end programs: an assembler we did not
//! write), and run a single workgroup. `llvm()` fails when the oracle is missing and
//! GCNC_REQUIRE_ORACLES=1, otherwise callers skip with a printed notice.
#![allow(dead_code, clippy::result_large_err)]

use gcnc::isa::{self, Gen, Target, Wave as W};
use gcnc_emu::dispatch::{run_workgroup, Dispatch};
use gcnc_emu::wave::Wave;
use gcnc_emu::{Memory, Result};
use std::process::Command;

pub fn target(gen: Gen, w64: bool) -> Target {
    Target::with_wave(gen, if w64 { W::W64 } else { W::W32 }).unwrap()
}

/// Assembles with gcnc's own ISA layer (used where the encoding is not under test).
pub fn ours(t: Target, src: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for (line, inst) in isa::parse(src, t).unwrap_or_else(|e| panic!("{e:?}\n{src}")) {
        let b = isa::encode(&inst, t).unwrap_or_else(|e| panic!("line {line}: {e:?}"));
        out.extend(b);
    }
    out
}

/// Is llvm-mc-19 usable? Panics when required and missing.
pub fn llvm() -> bool {
    let ok = Command::new("llvm-mc-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new("llvm-objcopy-19")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("GCNC_REQUIRE_ORACLES").as_deref() == Ok("1") {
            panic!("llvm-mc-19/llvm-objcopy-19 required (GCNC_REQUIRE_ORACLES=1) but missing");
        }
        eprintln!("NOTICE: llvm-mc-19 not found; skipping LLVM-assembled emulator programs");
    }
    ok
}

/// Assembles `src` with llvm-mc-19 and returns the raw `.text` bytes.
pub fn llvm_asm(t: Target, src: &str) -> Vec<u8> {
    // a fresh directory per call: tests running in parallel may assemble the same text
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let dir = std::env::temp_dir().join(format!(
        "gcnc-emu-{}-{:x}-{}",
        std::process::id(),
        (src.len() as u64 * 2654435761) ^ src.bytes().map(|b| b as u64).sum::<u64>(),
        CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let s = dir.join("p.s");
    let o = dir.join("p.o");
    let b = dir.join("p.bin");
    std::fs::write(&s, src).unwrap();
    let mut mc = Command::new("llvm-mc-19");
    mc.args([
        "-arch=amdgcn",
        &format!("-mcpu={}", t.gen.mcpu()),
        "-filetype=obj",
    ]);
    if t.gen != Gen::Gfx9 {
        mc.arg(format!(
            "-mattr=+wavefrontsize{}",
            if t.wave == W::W64 { 64 } else { 32 }
        ));
    }
    let out = mc.arg(&s).arg("-o").arg(&o).output().unwrap();
    assert!(
        out.status.success(),
        "llvm-mc failed:\n{}\n{src}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new("llvm-objcopy-19")
        .args(["-O", "binary", "--only-section=.text"])
        .arg(&o)
        .arg(&b)
        .output()
        .unwrap();
    assert!(out.status.success());
    let bytes = std::fs::read(&b).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

/// Runs one workgroup of `threads` lanes; returns the final waves.
pub fn run(
    t: Target,
    code: Vec<u8>,
    threads: u32,
    user: &[u32],
    mem: &mut Memory,
) -> Result<Vec<Wave>> {
    run_checked(t, code, threads, user, mem, gcnc_emu::Checks::default())
}

/// `run` with chosen checks.
pub fn run_checked(
    t: Target,
    code: Vec<u8>,
    threads: u32,
    user: &[u32],
    mem: &mut Memory,
    checks: gcnc_emu::Checks,
) -> Result<Vec<Wave>> {
    let mut d = Dispatch::new(t, code);
    d.checks = checks;
    d.group_size = [threads, 1, 1];
    d.user_sgprs = user.to_vec();
    d.tgid_en = [false; 3];
    d.tid_dims = 1;
    d.budget = 100_000;
    run_workgroup(&d, mem, [0, 0, 0])
}

/// VGPR `v` of every lane of a wave.
pub fn lanes(w: &Wave, v: u16) -> Vec<u32> {
    (0..w.lanes()).map(|l| w.regs.v(v, l)).collect()
}

/// Is llc-19 usable? Same policy as `llvm()`.
pub fn llc() -> bool {
    let ok = Command::new("llc-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("GCNC_REQUIRE_ORACLES").as_deref() == Ok("1") {
            panic!("llc-19 required (GCNC_REQUIRE_ORACLES=1) but missing");
        }
        eprintln!("NOTICE: llc-19 not found; skipping LLVM-compiled emulator programs");
    }
    ok && llvm()
}

/// Compiles LLVM IR with llc-19 for `t` and returns the assembly of function `f` (labels
/// and instructions only) followed by `s_endpgm`, ready for `llvm_asm`.
pub fn llc_asm(t: Target, ir: &str) -> String {
    let dir = std::env::temp_dir().join(format!(
        "gcnc-emu-llc-{}-{:x}",
        std::process::id(),
        ir.bytes()
            .fold(0u64, |h, b| h.wrapping_mul(131).wrapping_add(b as u64))
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("f.ll");
    std::fs::write(&p, ir).unwrap();
    let mut c = Command::new("llc-19");
    c.args(["-march=amdgcn", &format!("-mcpu={}", t.gen.mcpu())]);
    if t.gen != Gen::Gfx9 {
        c.arg(format!(
            "-mattr=+wavefrontsize{}",
            if t.wave == W::W64 { 64 } else { 32 }
        ));
    }
    let out = c.arg(&p).arg("-o").arg("-").output().unwrap();
    assert!(
        out.status.success(),
        "llc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    let mut body = String::new();
    let mut on = false;
    for l in text.lines() {
        if l.starts_with("f:") {
            on = true;
            continue;
        }
        if l.starts_with(".Lfunc_end") {
            break;
        }
        if !on {
            continue;
        }
        let code = l.split(';').next().unwrap_or("").trim_end();
        if code.trim().is_empty() || code.trim_start().starts_with('.') && !code.ends_with(':') {
            continue;
        }
        body.push_str(code);
        body.push('\n');
    }
    body.push_str("\ts_endpgm\n");
    body
}

/// `run` with a hook to adjust the dispatch (LDS, scratch, workgroup size, checks).
pub fn run_cfg(
    t: Target,
    code: Vec<u8>,
    threads: u32,
    user: &[u32],
    mem: &mut Memory,
    cfg: impl FnOnce(&mut Dispatch),
) -> Result<Vec<Wave>> {
    let mut d = Dispatch::new(t, code);
    d.group_size = [threads, 1, 1];
    d.user_sgprs = user.to_vec();
    d.tgid_en = [false; 3];
    d.tid_dims = 1;
    d.budget = 100_000;
    cfg(&mut d);
    run_workgroup(&d, mem, [0, 0, 0])
}
