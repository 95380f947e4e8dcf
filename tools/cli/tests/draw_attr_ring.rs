//! The GFX11 attribute ring as a compiled pipeline holds it, read with LLVM's tools (not
//! gcnc's decoder) from the ELF of tests/shaders/draw/vs_interp + fs_interp (four output
//! locations, all read), on gfx1100 wave32 and wave64 (docs/abi.md "The GFX11 attribute
//! ring: facts and sources"):
//! - the ring's V# is loaded from byte 0xB0 of PAL's global table (entry 11, LLPC's
//!   `SiDrvTableOffChipParamCache`);
//! - one `buffer_store_b128 … idxen` per attribute, whose soffset is set to `a·1024`;
//! - `s_waitcnt_vscnt null, 0` after the last store and before `exp pos0` (the position
//!   export waits for the ring, as Mesa's `export_pos0_wait_attr_ring`), and no
//!   `exp param` at all;
//! - SPI_VS_OUT_CONFIG (41393) VS_EXPORT_COUNT = 3 (four parameters), NO_PC_EXPORT clear;
//!   SPI_PS_INPUT_CNTL_0..3 (41361…) OFFSET = the parameter, FLAT_SHADE (bit 10) on the
//!   flat one only.
//!
//! The emulator draws these pipelines from the same V# (draw_corpus); the layout's
//! known differences from the hardware's swizzled ring are listed in docs/abi.md.

mod draw_support;

use draw_support::{gcnc, oracle_output, pal_register};
use std::path::Path;

/// The instruction text of an llvm-objdump line (without the address comment).
fn inst(l: &str) -> &str {
    l.split("//").next().unwrap().trim()
}

#[test]
fn gfx11_attributes_go_to_the_ring_whose_descriptor_is_the_global_tables_entry_11() {
    let c = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw");
    let dir = std::env::temp_dir().join(format!("gcnc-attr-ring-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for wave in ["32", "64"] {
        let elf = dir.join(format!("interp-w{wave}.elf"));
        gcnc(&[
            "compile".as_ref(),
            c.join("vs_interp.spv").as_os_str(),
            c.join("fs_interp.spv").as_os_str(),
            "--target".as_ref(),
            "gfx1100".as_ref(),
            "--wave".as_ref(),
            wave.as_ref(),
            "-o".as_ref(),
            elf.as_os_str(),
        ])
        .unwrap_or_else(|e| panic!("w{wave}: {e}"));
        let elf = elf.to_string_lossy();
        let asm = oracle_output("llvm-objdump-19", &["-d", "--mcpu=gfx1100", &elf]);
        let lines: Vec<&str> = asm.lines().map(inst).filter(|l| !l.is_empty()).collect();
        let at = |p: &dyn Fn(&str) -> bool| lines.iter().position(|l| p(l));
        // the V#: s_load_b128 s[r:r+3], s[t:t+1], 0xb0
        let load = at(&|l| l.starts_with("s_load_b128") && l.ends_with(", 0xb0"))
            .unwrap_or_else(|| panic!("w{wave}: no V# load at 0xb0:\n{asm}"));
        let ring = lines[load]["s_load_b128 ".len()..]
            .split(',')
            .next()
            .unwrap()
            .trim();
        let stores: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("buffer_store_b128"))
            .collect();
        assert_eq!(stores.len(), 4, "w{wave}: one store per attribute:\n{asm}");
        for (a, &i) in stores.iter().enumerate() {
            let ops: Vec<&str> = lines[i]["buffer_store_b128 ".len()..]
                .split(',')
                .map(str::trim)
                .collect();
            assert!(
                ops.len() == 4 && ops[2] == ring && ops[3].ends_with(" idxen"),
                "w{wave}: attribute {a} stored through the ring's V# with idxen: {}",
                lines[i]
            );
            let soffset = ops[3].trim_end_matches(" idxen");
            let set = format!("s_mov_b32 {soffset}, ");
            let value = lines[..i]
                .iter()
                .rev()
                .find_map(|l| l.strip_prefix(set.as_str()))
                .unwrap_or_else(|| panic!("w{wave}: {soffset} never set:\n{asm}"));
            let value = match value.strip_prefix("0x") {
                Some(h) => u32::from_str_radix(h, 16).unwrap(),
                None => value.parse().unwrap(),
            };
            assert_eq!(value, a as u32 * 1024, "w{wave}: attribute {a}'s soffset");
        }
        let pos0 = at(&|l| l.starts_with("exp pos0 ")).expect("exp pos0");
        assert!(
            stores[3] < pos0 && lines[stores[3]..pos0].contains(&"s_waitcnt_vscnt null, 0x0"),
            "w{wave}: the stores, then the wait, then exp pos0:\n{asm}"
        );
        assert!(
            at(&|l| l.starts_with("exp param")).is_none(),
            "w{wave}: exp param on GFX11"
        );
        let notes = oracle_output("llvm-readelf-19", &["--notes", &elf]);
        assert_eq!(
            pal_register(&notes, 0xa1b1),
            Some(3 << 1),
            "w{wave}: SPI_VS_OUT_CONFIG"
        );
        for k in 0..4 {
            let cntl = pal_register(&notes, 0xa191 + k).expect("SPI_PS_INPUT_CNTL");
            let flat = (k == 1) as u32;
            assert_eq!(cntl & 0x3f, k, "w{wave}: SPI_PS_INPUT_CNTL_{k}.OFFSET");
            assert_eq!(
                cntl >> 10 & 1,
                flat,
                "w{wave}: SPI_PS_INPUT_CNTL_{k}.FLAT_SHADE"
            );
        }
    }
}
