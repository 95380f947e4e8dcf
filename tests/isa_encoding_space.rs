//! The decoder against LLVM's over whole field ranges, where random words rarely land:
//! every opcode of a format with one field walked through its values, the rest canonical.
//! For each word llvm-mc-19 either rejects it (we must return an error) or decodes it (we
//! must print the same text with the same length). These are the forms drivers emit that
//! the round trips and the random-word test missed (issue 17):
//! - SDWA VOP1 / VOP2 / VOPC (GFX9, GFX10.3): each bit of the SDWA dword flipped alone, and
//!   every `sel` value with and without `sext`; LLVM decodes a VOP1 SDWA word only with its
//!   src1 bits zero, which hid the whole VOP1 SDWA family from the table sweep;
//! - VOP3 VDST over 0..=255 where it is not a VGPR: `v_cmpx_*_e64` decodes whatever the
//!   unused VDST holds; VOP3b carry-out SGPR over 0..=127 (`null` on GFX10+);
//! - SMEM soffset over 0..=127 with a zero and a nonzero offset: a `null` soffset with
//!   offset 0 prints `null` on GFX10.3 as on GFX11;
//! - VOP3 16-bit sources over the constant codes 128..=255, and every VOP3P modifier bit
//!   (op_sel, op_sel_hi, neg, neg_hi, clamp) flipped alone.

mod support;

use gcnc::isa::*;

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The canonical SDWA dword: src0 v40, every sel DWORD (VOP1: no src1 bits; VOPC: no
/// dst_sel, whose bits hold sdst).
fn sdwa_dword(base: &str) -> u32 {
    match base {
        "vop1" => 0x0006_0600 | 40,
        "vopc" => 0x0606_0000 | 40,
        _ => 0x0606_0600 | 40,
    }
}

/// The 32-bit word of `base` with opcode `op` and src0 = the SDWA marker 0xf9.
fn sdwa_word0(base: &str, op: u32) -> u32 {
    match base {
        "vop1" => 0x7e00_0000 | 20 << 17 | op << 9 | 0xf9,
        "vop2" => op << 25 | 20 << 17 | 60 << 9 | 0xf9,
        _ => 0x7c00_0000 | op << 17 | 60 << 9 | 0xf9,
    }
}

/// Does the SDWA dword hold the reserved select 7 in a select field of `base`? llvm-mc-19
/// crashes (SIGSEGV) on such words, so they are checked apart: gcnc rejects them.
fn reserved_sel(base: &str, w1: u32) -> bool {
    let sel = |at: u32| (w1 >> at) & 7 == 7;
    sel(16) || (base != "vop1" && sel(24)) || (base != "vopc" && sel(8))
}

/// SDWA words of every opcode of `base`: the canonical dword with each bit flipped alone,
/// every select value with and without sext, and each source scalar (SGPRs and
/// constants); (words LLVM can judge, words with a reserved select).
fn sdwa_items(base: &str) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    // VOP2 opcodes 0x3e / 0x3f are the VOPC / VOP1 prefixes
    let ops = if base == "vop2" { 0..0x3e } else { 0..256 };
    let d = sdwa_dword(base);
    let mut dwords: Vec<u32> = (0..32).map(|b| d ^ 1 << b).collect();
    dwords.push(d);
    // every src0/src1/dst select, alone and with sext on that source
    for sel in 0..8u32 {
        dwords.push(d & !(7 << 16) | sel << 16);
        dwords.push(d & !(7 << 16) | sel << 16 | 1 << 19);
        dwords.push(d & !(7 << 24) | sel << 24 | 1 << 27);
        if base != "vopc" {
            dwords.push(d & !(7 << 8) | sel << 8);
        }
    }
    let (mut judged, mut reserved) = (Vec::new(), Vec::new());
    for op in ops {
        for &w1 in &dwords {
            let set = if reserved_sel(base, w1) {
                &mut reserved
            } else {
                &mut judged
            };
            set.push(bytes(&[sdwa_word0(base, op), w1]));
        }
        // scalar sources (S0 = bit 23 with the src0 byte, S1 = bit 31 with VSRC1 of the
        // first word): SGPRs, specials, integer and float inline constants, the literal
        // code (never valid in SDWA); the sweep once probed only 1.0, which a 16-bit
        // integer source prints as 0x3c00, and missed their integer constants
        for code in [
            0u32, 42, 106, 124, 126, 128, 129, 192, 193, 208, 240, 242, 248, 255,
        ] {
            judged.push(bytes(&[sdwa_word0(base, op), (d & !0xff) | code | 1 << 23]));
            if base != "vop1" {
                let w0 = sdwa_word0(base, op) & !(0xff << 9) | code << 9;
                judged.push(bytes(&[w0, d | 1 << 31]));
            }
        }
    }
    (judged, reserved)
}

/// VOP3 words of every opcode whose VDST field is not a VGPR (absent, or an SGPR mask)
/// with VDST walked over `vdsts` (as a VGPR every value is one); sources s1, v2, v3
/// where the instruction has them (LLVM rejects a nonzero unused source field).
fn vop3_items(gen: Gen, vdsts: &[u32]) -> Vec<Vec<u8>> {
    let prefix = if gen == Gen::Gfx9 {
        0xd000_0000
    } else {
        0xd400_0000
    };
    let mut items = Vec::new();
    let vgpr_dst = |d: &EncDesc| d.operands.iter().any(|o| o.field == Field::Vdst && !o.sgpr);
    for d in tables::encodings(gen)
        .iter()
        .filter(|d| d.format == Format::Vop3 && !vgpr_dst(d))
    {
        let has = |f: Field| d.operands.iter().any(|o| o.field == f);
        let mut w1 = 0;
        if has(Field::Src0) {
            w1 |= 1;
        }
        if has(Field::Src1) {
            w1 |= 258 << 9;
        }
        if has(Field::Src2) {
            w1 |= 259 << 18;
        }
        for &v in vdsts {
            items.push(bytes(&[prefix | (d.op as u32) << 16 | v, w1]));
        }
    }
    items
}

/// VOP3b words (a VGPR result and an SGPR carry-out or mask in bits 14:8) of every
/// opcode with the SGPR field walked over 0..=127 (`null` among them on GFX10+).
fn vop3b_items(gen: Gen) -> Vec<Vec<u8>> {
    let prefix = if gen == Gen::Gfx9 {
        0xd000_0000
    } else {
        0xd400_0000
    };
    let mut items = Vec::new();
    for d in tables::encodings(gen)
        .iter()
        .filter(|d| d.format == Format::Vop3 && d.vop3b)
    {
        let has = |f: Field| d.operands.iter().any(|o| o.field == f);
        let mut w1 = 0;
        for (f, at, code) in [
            (Field::Src0, 0, 257),
            (Field::Src1, 9, 258),
            (Field::Src2, 18, 259),
        ] {
            if has(f) {
                w1 |= code << at;
            }
        }
        for sdst in 0..128u32 {
            items.push(bytes(&[prefix | (d.op as u32) << 16 | sdst << 8 | 5, w1]));
        }
    }
    items
}

/// VOP3 words of every opcode with a 16-bit source, that source's field walked over the
/// constant codes 128..=255 (16-bit inline constants print as LLVM types them: GFX9
/// `v_cmp_*_u16_e64` among them); other sources v2 / v3.
fn vop3_const16_items(gen: Gen) -> Vec<Vec<u8>> {
    let prefix = if gen == Gen::Gfx9 {
        0xd000_0000
    } else {
        0xd400_0000
    };
    let mut items = Vec::new();
    for d in tables::encodings(gen)
        .iter()
        .filter(|d| d.format == Format::Vop3)
    {
        let srcs = [(Field::Src0, 0), (Field::Src1, 9), (Field::Src2, 18)];
        let present: Vec<_> = srcs
            .iter()
            .filter_map(|&(f, at)| d.operands.iter().find(|o| o.field == f).map(|o| (o, at)))
            .collect();
        let Some(&(_, walk)) = present
            .iter()
            .find(|(o, _)| matches!(o.ty, ValTy::I16 | ValTy::F16))
        else {
            continue;
        };
        let vdst = if d.operands.iter().any(|o| o.field == Field::Vdst) {
            1
        } else {
            0
        };
        for code in 128..=255u32 {
            let mut w1 = 0;
            for &(_, at) in &present {
                w1 |= if at == walk { code } else { 258 + at / 9 } << at;
            }
            // a literal dword for code 255 (GFX10+; GFX9 rejects it)
            items.push(bytes(&[prefix | (d.op as u32) << 16 | vdst, w1, 0x4567]));
        }
    }
    items
}

/// VOP3P words of every opcode, each modifier bit flipped alone (neg_hi 8..=10, op_sel
/// 11..=13, op_sel_hi[2] 14, clamp 15 of word 0; op_sel_hi[1:0] 27..=28, neg 29..=31 of
/// word 1) from LLVM's default op_sel_hi = all ones; sources v1, v2, v3 where present.
/// Prefix (bits 31:23): GFX9 110100111, GFX10/GFX11 110011000.
fn vop3p_items(gen: Gen) -> Vec<Vec<u8>> {
    let mut items = Vec::new();
    for d in tables::encodings(gen)
        .iter()
        .filter(|d| d.format == Format::Vop3p)
    {
        let has = |f: Field| d.operands.iter().any(|o| o.field == f);
        let mut w1 = 3 << 27;
        for (f, at, code) in [
            (Field::Src0, 0, 257),
            (Field::Src1, 9, 258),
            (Field::Src2, 18, 259),
        ] {
            if has(f) {
                w1 |= code << at;
            }
        }
        let prefix = if gen == Gen::Gfx9 {
            0b1_1010_0111 << 23
        } else {
            0b1_1001_1000 << 23
        };
        let w0 = prefix | (d.op as u32) << 16 | 1 << 14 | 5;
        items.push(bytes(&[w0, w1]));
        for b in 8..16 {
            items.push(bytes(&[w0 ^ 1 << b, w1]));
        }
        for b in 27..32 {
            items.push(bytes(&[w0, w1 ^ 1 << b]));
        }
    }
    items
}

fn smem_items(gen: Gen) -> Vec<Vec<u8>> {
    let prefix = if gen == Gen::Gfx9 {
        0xc000_0000
    } else {
        0xf400_0000
    };
    let mut items = Vec::new();
    for d in tables::encodings(gen)
        .iter()
        .filter(|d| d.format == Format::Smem)
    {
        // sdata s4, sbase s[2:3]
        let w0 = prefix | (d.op as u32) << 18 | 4 << 6 | 1;
        for soffset in 0..128u32 {
            for offset in [0, 0x10] {
                items.push(bytes(&[w0, soffset << 25 | offset]));
            }
        }
    }
    items
}

#[test]
fn whole_field_ranges_decode_like_llvm() {
    let Some(mc) = support::llvm_mc() else { return };
    let mut report = Vec::new();
    let mut bad = Vec::new();
    for gen in Gen::ALL {
        let t = Target::new(gen);
        let mut sets: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
        if gen != Gen::Gfx11 {
            for base in ["vop1", "vop2", "vopc"] {
                let (judged, reserved) = sdwa_items(base);
                for b in &reserved {
                    assert!(
                        decode(b, 0, t).is_err(),
                        "{gen} {base} SDWA {b:02x?}: a reserved select decodes"
                    );
                }
                sets.push((format!("{base} sdwa"), judged));
            }
        }
        let all_vdst: Vec<u32> = (0..256).collect();
        sets.push(("vop3 vdst".into(), vop3_items(gen, &all_vdst)));
        sets.push(("vop3b sdst".into(), vop3b_items(gen)));
        sets.push(("smem soffset".into(), smem_items(gen)));
        sets.push(("vop3 16-bit constants".into(), vop3_const16_items(gen)));
        sets.push(("vop3p modifiers".into(), vop3p_items(gen)));
        for (name, items) in &sets {
            let (agree, decoded) = support::decode_like_llvm(&mc, t, name, items, &mut bad);
            report.push(format!(
                "{gen} {name}: {agree}/{} agree ({decoded} valid)",
                items.len()
            ));
        }
    }
    println!("{}", report.join("\n"));
    assert!(
        bad.is_empty(),
        "decoder disagrees with llvm-mc:\n{}",
        bad.join("\n")
    );
}

/// The VOP1 SDWA forms the issue names, in LLVM's text, assemble to LLVM's bytes and
/// print back the same.
#[test]
fn vop1_sdwa_assembles_like_llvm() {
    let Some(mc) = support::llvm_mc() else { return };
    let lines = [
        "v_cvt_f32_i32_sdwa v1, sext(v2) dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_1",
        "v_mov_b32_sdwa v1, sext(v2) dst_sel:DWORD dst_unused:UNUSED_PRESERVE src0_sel:WORD_1",
        "v_cvt_f16_f32_sdwa v5, -|v6| dst_sel:WORD_0 dst_unused:UNUSED_SEXT src0_sel:DWORD",
        "v_mov_b32_sdwa v1, s2 dst_sel:BYTE_3 dst_unused:UNUSED_PAD src0_sel:BYTE_0",
    ];
    for gen in [Gen::Gfx9, Gen::Gfx10] {
        let t = Target::new(gen);
        let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let want = support::assemble(&mc, gen.mcpu(), None, &text);
        for (line, want) in lines.iter().zip(want) {
            let inst = parse_line(line, 1, t)
                .unwrap_or_else(|e| panic!("{gen} `{line}`: {e:?}"))
                .expect("an instruction");
            let got = encode(&inst, t).unwrap_or_else(|e| panic!("{gen} `{line}`: {e}"));
            assert_eq!(Ok(got.clone()), want, "{gen} `{line}`: bytes");
            let (back, _) = decode(&got, 0, t).expect("decodes");
            assert_eq!(print(&back, t).unwrap(), *line, "{gen}: printed back");
        }
    }
}
