//! The GFX11 attribute ring as a compiled pipeline holds it, read with LLVM's tools (not
//! gcnc's decoder) from the ELF of tests/shaders/draw/vs_interp + fs_interp (four output
//! locations, all read), on gfx1100 wave32 and wave64 (docs/abi.md "The GFX11 attribute
//! ring: facts and sources"):
//! - the ring's V# is loaded from byte 0xB0 of PAL's global table (entry 11, LLPC's
//!   `SiDrvTableOffChipParamCache`);
//! - STRIDE = 16 × the parameters ORed into the V#'s dword 1 (bits 29:16) before the
//!   stores (RADV's `load_ring_attr_amd`: the driver's V# has STRIDE 0);
//! - the soffset = `(s5 & 0x7fff) << 9`, s5 being the NGG system SGPR `gs_attr_offset`
//!   (the subgroup's place in the ring in 512-byte units);
//! - one `buffer_store_b128 v[..], vLane, ring, soffset idxen offset:16·a` per attribute
//!   `a` (Mesa's `ac_nir_store_parameters_to_attr_ring`);
//! - `s_waitcnt_vscnt null, 0` after the last store and before `exp pos0` (the position
//!   export waits for the ring, as Mesa's `export_pos0_wait_attr_ring`), and no
//!   `exp param` at all;
//! - SPI_VS_OUT_CONFIG (41393) VS_EXPORT_COUNT = 3 (four parameters), NO_PC_EXPORT clear;
//!   SPI_PS_INPUT_CNTL_0..3 (41361…) OFFSET = the parameter, FLAT_SHADE (bit 10) on the
//!   flat one only.
//!
//! The emulator draws these pipelines with the driver's swizzled V# and a per-subgroup s5
//! (draw, draw_corpus, draw_unlinked on gfx1100), so the stores must also land where the
//! hardware reads them.

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
        let reg = |r: &str| -> u32 {
            r.trim_start_matches("s[")
                .trim_start_matches('s')
                .split(':')
                .next()
                .unwrap()
                .trim_end_matches(']')
                .parse()
                .unwrap_or_else(|_| panic!("w{wave}: register {r}"))
        };
        let imm = |x: &str| match x.strip_prefix("0x") {
            Some(h) => u32::from_str_radix(h, 16).unwrap(),
            None => x.parse().unwrap(),
        };
        let ops_of = |l: &str| -> Vec<String> {
            let rest = l.split_once(' ').map_or("", |x| x.1);
            rest.split(',').map(|o| o.trim().to_string()).collect()
        };
        let stores: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("buffer_store_b128"))
            .collect();
        assert_eq!(stores.len(), 4, "w{wave}: one store per attribute:\n{asm}");
        // STRIDE = 16 × 4 parameters into dword 1 of the V#, between the load and the stores
        let dw1 = format!("s{}", reg(ring) + 1);
        let or = (load..stores[0])
            .find(|&i| lines[i].starts_with("s_or_b32") && ops_of(lines[i])[0] == dw1)
            .unwrap_or_else(|| panic!("w{wave}: no s_or_b32 into {dw1}:\n{asm}"));
        let or_ops = ops_of(lines[or]);
        assert_eq!(or_ops[1], dw1, "w{wave}: {}", lines[or]);
        assert_eq!(
            imm(&or_ops[2]),
            (16 * 4) << 16,
            "w{wave}: STRIDE: {}",
            lines[or]
        );
        for (a, &i) in stores.iter().enumerate() {
            let ops = ops_of(lines[i]);
            assert!(
                ops.len() == 4 && ops[2] == ring,
                "w{wave}: attribute {a} stored through the ring's V#: {}",
                lines[i]
            );
            let mut last = ops[3].split_whitespace();
            let soffset = last.next().unwrap();
            let mods: Vec<&str> = last.collect();
            let offset = 16 * a as u32;
            let want: Vec<String> = std::iter::once("idxen".to_string())
                .chain((offset != 0).then(|| format!("offset:{offset}")))
                .collect();
            assert_eq!(mods, want, "w{wave}: attribute {a}: {}", lines[i]);
            // soffset = (s5 & 0x7fff) << 9, computed before the store
            let set = |op: &str| {
                lines[..i]
                    .iter()
                    .rev()
                    .find(|l| l.starts_with(op) && ops_of(l)[0] == soffset)
                    .map(|l| ops_of(l))
                    .unwrap_or_else(|| panic!("w{wave}: no {op} into {soffset}:\n{asm}"))
            };
            let and = set("s_and_b32");
            assert!(
                and[1] == "s5" && imm(&and[2]) == 0x7fff,
                "w{wave}: soffset from s5[14:0]: {and:?}"
            );
            let shl = set("s_lshl_b32");
            assert!(
                shl[1] == soffset && imm(&shl[2]) == 9,
                "w{wave}: soffset in 512-byte units: {shl:?}"
            );
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
