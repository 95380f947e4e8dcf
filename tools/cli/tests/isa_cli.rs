//! The CLI on the committed examples: `gcnc asm` must produce llvm-mc's bytes and
//! `gcnc disasm` must print exactly llvm-mc's disassembly; bad input is an error with a
//! location, not a panic.

mod cli_support;

use cli_support::{gcnc_output as gcnc, ROOT};

#[path = "../../../tests/support/mod.rs"]
mod support;

use std::process::Command;

fn tmp(name: &str) -> String {
    let d = std::env::temp_dir().join(format!("gcnc-isa-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name).to_string_lossy().into_owned()
}

#[test]
fn examples_assemble_and_disassemble_like_llvm() {
    let Some(mc) = support::llvm_mc() else { return };
    for (mcpu, file) in [
        ("gfx1100", "examples/hello_gfx1100.s"),
        ("gfx900", "examples/hello_gfx900.s"),
        ("gfx900", "examples/memory_gfx900.s"),
        ("gfx1030", "examples/memory_gfx1030.s"),
        ("gfx1100", "examples/memory_gfx1100.s"),
    ] {
        let path = format!("{}/{file}", ROOT);
        let out = tmp(&format!("{mcpu}.bin"));
        let r = gcnc(&["asm", "--target", mcpu, &path, "-o", &out]);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let ours = std::fs::read(&out).unwrap();
        // LLVM's bytes for the same text, line by line
        let src = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<String> = src
            .lines()
            .map(|l| l.split(';').next().unwrap().trim().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        let theirs: Vec<u8> = support::assemble(&mc, mcpu, None, &lines)
            .into_iter()
            .map(|r| r.expect("llvm-mc assembles the example"))
            .flatten()
            .collect();
        assert_eq!(ours, theirs, "{file}: bytes differ from llvm-mc");
        let r = gcnc(&["disasm", "--target", mcpu, "--raw", &out]);
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let text = String::from_utf8(r.stdout).unwrap();
        // llvm-mc's disassembly of the same bytes, instruction by instruction
        let mut items = Vec::new();
        let mut off = 0;
        let t = gcnc::isa::Target::new(mcpu.parse().unwrap());
        while off < ours.len() {
            let (_, len) = gcnc::isa::decode(&ours, off, t).unwrap();
            items.push(ours[off..off + len].to_vec());
            off += len;
        }
        let llvm: Vec<String> = support::disassemble(&mc, mcpu, None, &items)
            .into_iter()
            .map(|t| format!("\t{}\n", t.expect("llvm-mc decodes")))
            .collect();
        assert_eq!(
            text,
            llvm.concat(),
            "{file}: disassembly differs from llvm-mc"
        );
    }
}

#[test]
fn bad_input_is_an_error_with_a_location() {
    let src = tmp("bad.s");
    std::fs::write(&src, "s_nop 0\nv_bogus_op v1, v2\n").unwrap();
    let r = gcnc(&["asm", "--target", "gfx1100", &src, "-o", &tmp("bad.bin")]);
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains(":2:1: unknown mnemonic `v_bogus_op`"), "{err}");

    std::fs::write(&src, "v_add_f32 v1, v2, s3\n").unwrap();
    let r = gcnc(&["asm", "--target", "gfx900", &src, "-o", &tmp("bad.bin")]);
    // LLVM picks the VOP3 form for an SGPR in src1; so do we
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));

    let bin = tmp("trunc.bin");
    std::fs::write(&bin, [0x01, 0x00, 0x13, 0xd6, 0x01]).unwrap();
    let r = gcnc(&["disasm", "--target", "gfx1100", "--raw", &bin]);
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("byte offset 0x0") && err.contains("truncated"),
        "{err}"
    );
}

#[test]
fn isa_coverage_reports_every_generation() {
    let r = gcnc(&["isa-coverage"]);
    assert!(r.status.success());
    let text = String::from_utf8(r.stdout).unwrap();
    for gen in gcnc::isa::Gen::ALL {
        let n = gcnc::isa::tables::encodings(gen).len();
        assert!(text.contains(&format!("{gen}: {n} encodings")), "{text}");
    }
}

#[test]
fn disasm_reads_the_text_section_of_an_elf() {
    let Some(mc) = support::llvm_mc() else { return };
    let src = format!("{}/examples/hello_gfx1100.s", ROOT);
    let obj = tmp("hello.o");
    let st = Command::new(&mc)
        .args([
            "-arch=amdgcn",
            "-mcpu=gfx1100",
            "-filetype=obj",
            &src,
            "-o",
            &obj,
        ])
        .status()
        .unwrap();
    assert!(st.success());
    let bin = tmp("hello_elf_raw.bin");
    let r = gcnc(&["asm", "--target", "gfx1100", &src, "-o", &bin]);
    assert!(r.status.success());
    let from_elf = gcnc(&["disasm", "--target", "gfx1100", &obj]);
    let from_raw = gcnc(&["disasm", "--target", "gfx1100", "--raw", &bin]);
    assert!(
        from_elf.status.success(),
        "{}",
        String::from_utf8_lossy(&from_elf.stderr)
    );
    assert_eq!(
        from_elf.stdout, from_raw.stdout,
        "the ELF's .text is the assembled code"
    );
    // --raw on the ELF treats the header as code: an error with an offset, not a panic
    let raw = gcnc(&["disasm", "--target", "gfx1100", "--raw", &obj]);
    if !raw.status.success() {
        assert!(String::from_utf8_lossy(&raw.stderr).contains("byte offset"));
    }
}
