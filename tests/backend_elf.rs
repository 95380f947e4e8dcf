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
            objdump_agrees(&objdump, &readelf, &name, g, w, &c);
            checked += 1;
        }
    }
    assert!(checked >= 15);
}
