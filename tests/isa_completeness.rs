//! Completeness against LLVM: every opcode value llvm-mc-19 decodes, in every base format
//! (SOP1, SOP2, SOPC, SOPK, SOPP, SMEM, VOP1, VOP2, VOPC, VOP3, VOP3P, DS) on every
//! generation, has a table entry — and every table entry of those formats is reached by
//! the probe words (so the probes are rich enough to be trusted for the opcodes we lack).
//!
//! For each opcode value the probe tries several words: distinguishable operand fields,
//! SGPR/zero fallbacks, and every operand field zero (operand-less instructions such as
//! s_barrier or v_nop decode only that way). An opcode counts as decoded when llvm-mc
//! prints an instruction for any of them. The few instructions the sweep sees but cannot
//! describe yet are listed in `KNOWN_ABSENT` with the reason; a listed one that appears in
//! the tables fails too (remove it from the list).

mod support;

use gcnc::isa::*;
use std::collections::{BTreeMap, BTreeSet};

/// (generation, format, mnemonic as LLVM prints it minus `_e32`/`_e64`, why it is absent).
const KNOWN_ABSENT: &[(Gen, Format, &str, &str)] = &[
    (
        Gen::Gfx9,
        Format::Vop3,
        "v_interp_p1_f32",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx9,
        Format::Vop3,
        "v_interp_p2_f32",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx9,
        Format::Vop3,
        "v_interp_mov_f32",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx9,
        Format::Vop3,
        "v_interp_p1ll_f16",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx9,
        Format::Vop3,
        "v_interp_p1lv_f16",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx9,
        Format::Vop3,
        "v_interp_p2_legacy_f16",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx9,
        Format::Vop3,
        "v_interp_p2_f16",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx10,
        Format::Vop3,
        "v_interp_p1_f32",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx10,
        Format::Vop3,
        "v_interp_p2_f32",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx10,
        Format::Vop3,
        "v_interp_mov_f32",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx10,
        Format::Vop3,
        "v_interp_p1ll_f16",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx10,
        Format::Vop3,
        "v_interp_p1lv_f16",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx10,
        Format::Vop3,
        "v_interp_p2_f16",
        "VOP3-encoded VINTRP: attribute operands",
    ),
    (
        Gen::Gfx11,
        Format::Vop1,
        "v_mov_b16",
        "GFX11 16-bit register halves (v20.l)",
    ),
];

struct Probe {
    format: Format,
    ops: u32,
    words: fn(Gen, u32) -> Vec<Vec<u32>>,
}

fn probes(gen: Gen) -> Vec<Probe> {
    let v = vec![
        Probe {
            format: Format::Sop2,
            ops: 0x60,
            words: |_, op| {
                let w = 0x8000_0000 | op << 23;
                vec![vec![w | 20 << 16 | 60 << 8 | 40], vec![w]]
            },
        },
        Probe {
            format: Format::Sop1,
            ops: 0x100,
            words: |_, op| {
                let w = 0xbe80_0000 | op << 8;
                vec![vec![w | 20 << 16 | 40], vec![w]]
            },
        },
        Probe {
            format: Format::Sopc,
            ops: 0x80,
            words: |_, op| {
                let w = 0xbf00_0000 | op << 16;
                vec![vec![w | 60 << 8 | 40], vec![w]]
            },
        },
        Probe {
            format: Format::Sopk,
            ops: 0x1d,
            words: |_, op| {
                let w = 0xb000_0000 | op << 23;
                vec![vec![w | 20 << 16 | 5], vec![w]]
            },
        },
        Probe {
            format: Format::Sopp,
            ops: 0x80,
            words: |_, op| {
                let w = 0xbf80_0000 | op << 16;
                vec![vec![w | 5], vec![w]]
            },
        },
        Probe {
            format: Format::Smem,
            ops: 0x100,
            words: |gen, op| {
                if gen == Gen::Gfx9 {
                    let w = 0xc000_0000 | op << 18;
                    vec![
                        vec![w | 1 << 17 | 20 << 6 | 20, 0x40],
                        vec![w | 20 << 6, 0],
                        vec![w, 0],
                    ]
                } else {
                    let w = 0xf400_0000 | op << 18;
                    let null = if gen == Gen::Gfx11 { 124 } else { 125 };
                    vec![
                        vec![w | 20 << 6 | 20, null << 25 | 0x40],
                        vec![w | 20 << 6, 0],
                        vec![w, 0],
                    ]
                }
            },
        },
        Probe {
            format: Format::Vop1,
            ops: 0x100,
            words: |_, op| {
                let w = 0x7e00_0000 | op << 9;
                vec![vec![w | 20 << 17 | 296], vec![w]]
            },
        },
        Probe {
            format: Format::Vop2,
            ops: 0x3e,
            words: |_, op| {
                let w = op << 25;
                vec![vec![w | 20 << 17 | 60 << 9 | 296], vec![w]]
            },
        },
        Probe {
            format: Format::Vopc,
            ops: 0x100,
            words: |_, op| {
                let w = 0x7c00_0000 | op << 17;
                vec![vec![w | 60 << 9 | 296], vec![w]]
            },
        },
        Probe {
            format: Format::Vop3,
            ops: if gen == Gen::Gfx9 { 0x380 } else { 0x400 },
            words: |gen, op| {
                let p = if gen == Gen::Gfx9 {
                    0xd000_0000
                } else {
                    0xd400_0000
                };
                let mut out = Vec::new();
                for vdst in [20, 0] {
                    for (a, b, c) in [
                        (296, 316, 336),
                        (296, 316, 84),
                        (296, 316, 0),
                        (296, 62, 0),
                        (42, 62, 0),
                        (296, 62, 84),
                        (296, 0, 0),
                        (0, 0, 0),
                    ] {
                        out.push(vec![p | op << 16 | vdst, c << 18 | b << 9 | a]);
                    }
                }
                out
            },
        },
        Probe {
            format: Format::Vop3p,
            ops: 0x80,
            words: |gen, op| {
                let p = if gen == Gen::Gfx9 {
                    0xd380_0000
                } else {
                    0xcc00_0000
                };
                let mut out = Vec::new();
                for (vdst, hi) in [(20, 1 << 14 | 3 << 27), (20, 0), (0, 0)] {
                    for (a, b, c) in [(296, 316, 336), (296, 316, 0), (0, 0, 0)] {
                        let lo_hi = if hi == 0 { 0 } else { 1 << 14 };
                        out.push(vec![
                            p | op << 16 | lo_hi | vdst,
                            (hi & (3 << 27)) | c << 18 | b << 9 | a,
                        ]);
                    }
                }
                out
            },
        },
        Probe {
            format: Format::Ds,
            ops: 0x100,
            words: |gen, op| {
                let mut out = Vec::new();
                for mask in 0..16u32 {
                    for gds in 0..2u32 {
                        for offset in [0, 0x0304] {
                            let w0 = if gen == Gen::Gfx9 {
                                0x36 << 26 | op << 17 | gds << 16
                            } else {
                                0x36 << 26 | op << 18 | gds << 17
                            } | offset;
                            let f = |bit: u32, v: u32| if mask & 1 << bit != 0 { v } else { 0 };
                            out.push(vec![
                                w0,
                                f(0, 20) << 24 | f(1, 60) << 16 | f(2, 40) << 8 | f(3, 80),
                            ]);
                        }
                    }
                }
                out
            },
        },
    ];
    v
}

fn base_name(text: &str) -> String {
    let mn = text.split_whitespace().next().unwrap_or("");
    mn.trim_end_matches("_e32")
        .trim_end_matches("_e64")
        .to_string()
}

#[test]
fn every_opcode_llvm_decodes_is_in_the_tables() {
    let Some(mc) = support::llvm_mc() else { return };
    let mut report = String::new();
    let mut problems = Vec::new();
    let mut known_seen = BTreeSet::new();
    for gen in Gen::ALL {
        let w = (gen != Gen::Gfx9).then_some(64);
        for p in probes(gen) {
            let mut items: Vec<(u32, Vec<u8>)> = Vec::new();
            for op in 0..p.ops {
                for ws in (p.words)(gen, op) {
                    items.push((op, ws.iter().flat_map(|x| x.to_le_bytes()).collect()));
                }
            }
            let bytes: Vec<Vec<u8>> = items.iter().map(|x| x.1.clone()).collect();
            let texts = support::disassemble(&mc, gen.mcpu(), w, &bytes);
            // first text per opcode value LLVM decodes
            let mut decoded: BTreeMap<u32, String> = BTreeMap::new();
            for ((op, _), t) in items.iter().zip(&texts) {
                if let Some(t) = t {
                    decoded.entry(*op).or_insert_with(|| t.clone());
                }
            }
            let table: BTreeSet<u32> = tables::encodings(gen)
                .iter()
                .filter(|d| d.format == p.format)
                .map(|d| d.op as u32)
                .collect();
            let mut missing = 0;
            for (op, text) in &decoded {
                if table.contains(op) {
                    continue;
                }
                let name = base_name(text);
                if let Some(k) = KNOWN_ABSENT
                    .iter()
                    .find(|k| k.0 == gen && k.1 == p.format && k.2 == name)
                {
                    known_seen.insert((gen, p.format, k.2));
                    missing += 1;
                    continue;
                }
                problems.push(format!(
                    "{gen} {:?} {op:#x}: llvm-mc decodes `{text}`, no table entry",
                    p.format
                ));
            }
            for op in table.difference(&decoded.keys().copied().collect()) {
                problems.push(format!(
                    "{gen} {:?} {op:#x}: table entry no probe word decodes (probe too weak)",
                    p.format
                ));
            }
            report.push_str(&format!(
                "{gen} {:?}: llvm-mc decodes {} opcode values, tables have {} ({} known absent)\n",
                p.format,
                decoded.len(),
                table.len(),
                missing
            ));
        }
    }
    println!("{report}");
    for k in KNOWN_ABSENT {
        if !known_seen.contains(&(k.0, k.1, k.2)) {
            problems.push(format!(
                "{} {:?} {}: listed as absent but now in the tables (or no longer decoded): remove it",
                k.0, k.1, k.2
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
