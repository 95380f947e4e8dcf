//! Every IR test shader in tests/backend/ through the whole backend on gfx900 (wave64),
//! gfx1030 and gfx1100 (wave32 and wave64): the ELF disassembles with llvm-objdump-19
//! with no unknown words, each instruction's text equals our printer's, the padding is
//! `s_code_end`, the PAL metadata note decodes with llvm-readelf-19, and compiling twice
//! gives identical bytes.

mod backend_support;

use backend_support::*;

fn shaders() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir("tests/backend")
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "ir").then(|| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&p).unwrap(),
                )
            })
        })
        .collect();
    v.sort();
    assert!(v.len() >= 3, "test shaders missing");
    v
}

#[test]
fn deterministic() {
    for (name, text) in shaders() {
        for (g, w) in CONFIGS {
            let a = compile_ir(&text, g, w);
            let b = compile_ir(&text, g, w);
            assert_eq!(a.elf, b.elf, "{name} {}/{w:?} not deterministic", g.mcpu());
        }
    }
}

#[test]
fn objdump_and_readelf_agree() {
    let (Some(objdump), Some(readelf)) = (oracle("llvm-objdump-19"), oracle("llvm-readelf-19"))
    else {
        return;
    };
    let mut checked = 0;
    for (name, text) in shaders() {
        for (g, w) in CONFIGS {
            let c = compile_ir(&text, g, w);
            let path = temp_path(&format!("{name}-{}-{w:?}.elf", g.mcpu()));
            std::fs::write(&path, &c.elf).unwrap();
            let p = path.to_str().unwrap();
            let mut args = vec!["-d".to_string(), format!("--mcpu={}", g.mcpu())];
            if w == gcnc::isa::Wave::W64 && g != gcnc::isa::Gen::Gfx9 {
                args.push("--mattr=+wavefrontsize64".into());
            }
            args.push(p.into());
            let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
            let (ok, out) = run_status(&objdump, &a);
            assert!(ok, "{name} {}: objdump failed:\n{out}", g.mcpu());
            let insts: Vec<&str> = out
                .lines()
                .filter(|l| l.starts_with('\t'))
                .map(|l| l.trim().split("//").next().unwrap().trim())
                .collect();
            assert!(
                !out.contains("<unknown>") && !out.contains("invalid"),
                "{name} {}/{w:?}: unknown words:\n{out}",
                g.mcpu()
            );
            // our printer's text for the code part, instruction by instruction
            let ours: Vec<String> = c
                .asm()
                .unwrap()
                .lines()
                .map(|l| l.trim().split("  ;").next().unwrap().trim().to_string())
                .collect();
            for (k, o) in ours.iter().enumerate() {
                // LLVM prints a zero SMEM immediate offset as `null` on GFX10+ (its own
                // assembler output for `0x0` disassembles that way); the bytes are the same
                let norm = |s: &str| {
                    s.split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ")
                        .replace(", null", ", 0x0")
                };
                if o.contains(".long") {
                    // printer gap (depctr syntax): LLVM must still know the word
                    assert!(
                        insts[k].starts_with("s_waitcnt_depctr"),
                        "{name}: {}",
                        insts[k]
                    );
                    continue;
                }
                assert_eq!(
                    norm(o),
                    norm(insts[k]),
                    "{name} {}/{w:?} instruction {k}",
                    g.mcpu()
                );
            }
            // everything after the code is s_code_end on GFX10+
            for l in &insts[ours.len()..] {
                assert_eq!(*l, "s_code_end", "{name} {}: padding", g.mcpu());
            }
            let (ok, notes) = run_status(&readelf, &["--notes", p]);
            assert!(ok, "{name}: readelf failed:\n{notes}");
            assert!(
                notes.contains("amdpal.pipelines"),
                "{name}: metadata not decoded:\n{notes}"
            );
            assert!(!notes.to_lowercase().contains("error"), "{name}: {notes}");
            checked += 1;
        }
    }
    assert!(checked >= 15);
}
