//! Every table entry on every generation, checked against LLVM: representative instances
//! (registers; inline constant; literal; modifiers where the encoding has them) are printed
//! by us and assembled by llvm-mc-19 (one process per generation), and the bytes must be
//! identical; LLVM's bytes decoded by us must give back the same `Inst`; and llvm-mc's
//! disassembly of our bytes must be exactly our text. Prints per-generation coverage.

mod support;

use gcnc::isa::*;

/// Representative instances of an encoding (empty when its operands cannot be built).
pub fn instances(d: &EncDesc, t: Target) -> Vec<Inst> {
    let mut out = Vec::new();
    if matches!(d.format, Format::VopdX | Format::VopdY) {
        for variant in 0..3 {
            if let Some(i) = vopd_instance(d, t, variant) {
                if i.verify(t).is_ok() && !out.contains(&i) {
                    out.push(i);
                }
            }
        }
        return out;
    }
    for variant in 0..4 {
        if let Some(i) = instance(d, t, variant) {
            if i.verify(t).is_ok() && !out.contains(&i) {
                out.push(i);
            }
        }
    }
    out
}

/// A VOPD pair exercising `d` as its X or Y half, the other half a v_dual_mov_b32.
fn vopd_instance(d: &EncDesc, t: Target, variant: u32) -> Option<Inst> {
    let mov = Opcode::from_name("v_dual_mov_b32")?;
    let half = |d: &EncDesc, x: bool| -> Vec<Operand> {
        // X: v2 / v4 / v9, Y: v3 / v5 / v10 (opposite parity, different banks)
        let (dst, s0, s1) = if x { (2, 4, 9) } else { (3, 5, 10) };
        d.explicit()
            .map(|od| match od.field {
                Field::Vdst => Operand::Reg(Reg::v(dst, 1)),
                Field::Vsrc1 => Operand::Reg(Reg::v(s1, 1)),
                Field::K => Operand::Literal(0x4248),
                _ => match variant {
                    1 => Operand::Inline(242),
                    2 if x => Operand::Literal(0x4248),
                    _ => Operand::Reg(Reg::v(s0, 1)),
                },
            })
            .collect()
    };
    let dmov_x = tables::form(t.gen, mov, Format::VopdX)?;
    let dmov_y = tables::form(t.gen, mov, Format::VopdY)?;
    let (dx, dy) = if d.format == Format::VopdX {
        (d, dmov_y)
    } else {
        (dmov_x, d)
    };
    let mut ops = half(dx, true);
    ops.extend(half(dy, false));
    let mut inst = Inst::new(dx.opcode, Format::VopdX, &ops);
    inst.op_y = Some(dy.opcode);
    Some(inst)
}

fn instance(d: &EncDesc, t: Target, variant: u32) -> Option<Inst> {
    use gcnc::isa::tables::{ALLOW_INLINE, ALLOW_LITERAL, ALLOW_VGPR};
    if d.format.is_mem() {
        return support::mem::instance(d, t, variant);
    }
    let mut ops = Vec::new();
    let (mut s_next, mut v_next) = (8u16, 1u16);
    let vop3ish = matches!(d.format, Format::Vop3 | Format::Vop3p);
    let lit_ok = !(vop3ish && t.gen == Gen::Gfx9);
    let mut used_const = false;
    for od in d.explicit() {
        if od.field == Field::K {
            ops.push(Operand::Literal(0x4248)); // fits the f16 forms too
            continue;
        }
        if let Some(k) = od.imm {
            ops.push(match k {
                ImmKind::Depctr => Operand::Imm([0x0f9f, 0xff83, 0x0000, 0xff9e][variant as usize]),
                ImmKind::Hwreg => Operand::Imm([0xf801, 0x1841, 0x0805, 0x003f][variant as usize]),
                ImmKind::Sendmsg => Operand::Imm([0x1, 0x22, 0x3, 0x80][variant as usize]),
                ImmKind::GprIdx => Operand::Imm(if variant == 1 { 9 } else { 3 }),
                ImmKind::Waitcnt => Operand::Imm(if variant == 0 {
                    0
                } else {
                    gcnc::isa::simm16::parse_waitcnt(t.gen, "vmcnt(1) lgkmcnt(2)").unwrap()
                }),
                ImmKind::Delay => Operand::Imm(if variant == 0 { 0x91 } else { 0x5 }),
                ImmKind::Lit => Operand::Literal(0x12345678),
                ImmKind::Imm if od.field == Field::Sdata => Operand::Imm(1),
                ImmKind::Imm if od.field == Field::Ssrc1 => Operand::Imm(3),
                // SMEM offset: immediate, SGPR (variant 1), SGPR + offset: (2), negative (3)
                ImmKind::Imm => match variant {
                    1 | 2 => Operand::Reg(Reg::s(5, 1)),
                    3 if !d.mnemonic.starts_with("s_buffer_") => Operand::Imm(0x1fffc0),
                    _ => Operand::Imm(0x40),
                },
                ImmKind::Opt => Operand::Imm(if variant == 1 { 3 } else { 0 }),
                _ => Operand::Imm(if variant == 1 { 0x1234 } else { 5 }),
            });
            continue;
        }
        let n = od.dwords(t.wave);
        if od.field == Field::K {
            ops.push(Operand::Literal(0x4248));
            continue;
        }
        let is_src = matches!(
            od.field,
            Field::Src0 | Field::Src1 | Field::Src2 | Field::Ssrc0 | Field::Ssrc1
        );
        let scalar_field = matches!(
            od.field,
            Field::Sdst | Field::Ssrc0 | Field::Ssrc1 | Field::Sdata | Field::Sbase
        );
        // one source per instance holds a constant: variant 1 inline, variant 2 literal
        if is_src && !used_const && variant == 1 && od.allow & ALLOW_INLINE != 0 {
            used_const = true;
            ops.push(Operand::Inline(if od.ty == ValTy::I16 { 133 } else { 242 }));
            continue;
        }
        if is_src && !used_const && variant == 2 && lit_ok && od.allow & ALLOW_LITERAL != 0 {
            used_const = true;
            let v = if matches!(od.ty, ValTy::I16 | ValTy::F16) {
                0x5678
            } else {
                0x12345678
            };
            ops.push(Operand::Literal(v));
            continue;
        }
        if od.allow & gcnc::isa::tables::NULL_ONLY != 0 {
            ops.push(Operand::Reg(Reg::null()));
            continue;
        }
        let sgpr = scalar_field
            || od.sgpr
            || (od.size == 0 && is_src)
            || (is_src && od.allow & ALLOW_VGPR == 0);
        if sgpr {
            let align = if n >= 4 { 4 } else { n as u16 };
            s_next = s_next.div_ceil(align) * align;
            ops.push(Operand::Reg(Reg::s(s_next, n)));
            s_next += n as u16;
        } else {
            ops.push(Operand::Reg(Reg::v(v_next, n)));
            v_next += n as u16;
        }
    }
    let smem_offset = d.format == Format::Smem && d.slot(Field::Offset).is_some();
    if (variant == 1 || variant == 2) && !used_const && !smem_offset {
        return None;
    }
    let mut inst = Inst::new(d.opcode, d.format, &ops);
    if smem_offset && variant == 2 {
        inst.mods.offset = 0x40;
    }
    if variant == 3 {
        let m = &mut inst.mods;
        let nsrc = d
            .explicit()
            .filter(|o| matches!(o.field, Field::Src0 | Field::Src1 | Field::Src2))
            .count();
        let gen = t.gen;
        let sdst_reg = Reg::s(40, t.wave.mask_dwords());
        let f = d.format;
        if f.is_sdwa() {
            m.sdwa.dst_sel = 5;
            m.sdwa.dst_unused = 2;
            m.sdwa.src0_sel = 1;
            if d.slot(Field::Vsrc1).is_some() {
                m.sdwa.src1_sel = 4;
            }
            if f == Format::VopcSdwa {
                m.sdwa.dst_sel = 6;
                m.sdwa.dst_unused = 0;
                if d.operands.iter().any(|o| o.implicit.is_some()) {
                    m.sdwa.sdst = Some(sdst_reg);
                }
            }
            m.sdwa.sext = d.sext_mask & 1;
            m.neg = d.neg_mask & 2;
            m.abs = d.abs_mask & 2;
            if m.sdwa.sext == 0 {
                m.neg |= d.neg_mask & 1;
            }
            m.clamp = d.mods.contains(ModSet::CLAMP);
            if d.mods.contains(ModSet::OMOD) {
                m.omod = 1;
            }
        }
        if f.is_dpp16() {
            m.dpp.ctrl = 0x111;
            m.dpp.row_mask = 5;
            m.dpp.bank_mask = 0xa;
            m.dpp.bound_ctrl = true;
            m.dpp.fi = gen != Gen::Gfx9;
        }
        if f.is_dpp8() {
            m.dpp.sel8 = 0x053977;
            m.dpp.fi = true;
        }
        if f.is_dpp16() && !f.is_vop3() {
            m.neg = d.neg_mask & 1;
            m.abs = d.abs_mask & 2;
        }
        let vop3_mods = f.is_vop3();
        match d.format {
            _ if vop3_mods => {
                m.abs = d.abs_mask & d.abs_mask.wrapping_neg(); // lowest source with abs
                let negs = d.neg_mask | d.sext_mask;
                let other = negs & !m.abs;
                m.neg = if other != 0 {
                    other & other.wrapping_neg()
                } else {
                    negs & negs.wrapping_neg()
                };
                m.clamp = d.mods.contains(ModSet::CLAMP);
                if d.mods.contains(ModSet::OMOD) {
                    m.omod = 1;
                }
            }
            Format::Vop3p => {
                if d.mods.contains(ModSet::NEG) {
                    m.neg = 1;
                }
                if d.mods.contains(ModSet::OP_SEL) && nsrc > 1 {
                    m.op_sel = 2;
                    m.op_sel_hi = 6;
                }
                m.clamp = d.mods.contains(ModSet::CLAMP);
            }
            Format::Smem if d.mods.contains(ModSet::GLC) => m.glc = true,
            _ if f.is_sdwa() || f.is_dpp16() || f.is_dpp8() => {}
            _ => return None,
        }
        if *m == Mods::default()
            || (d.format == Format::Vop3p && *m == Inst::new(d.opcode, d.format, &[]).mods)
        {
            return None;
        }
    }
    Some(inst)
}

#[test]
fn every_table_entry_matches_llvm() {
    let Some(mc) = support::llvm_mc() else { return };
    let mut failures = Vec::new();
    let mut report = String::new();
    let mut known_now = std::collections::BTreeSet::new();
    for gen in Gen::ALL {
        for t in [
            Target::new(gen),
            Target {
                gen,
                wave: Wave::W64,
            },
        ] {
            if gen == Gen::Gfx9 && t.wave == Wave::W32 {
                continue;
            }
            let encs = tables::encodings(gen);
            let mut items: Vec<(usize, Inst, String, Vec<u8>)> = Vec::new();
            let mut unbuildable = 0;
            for (i, d) in encs.iter().enumerate() {
                let insts = instances(d, t);
                if insts.is_empty() {
                    unbuildable += 1;
                }
                for inst in insts {
                    let text = print(&inst, t).unwrap();
                    let bytes = encode(&inst, t).unwrap();
                    items.push((i, inst, text, bytes));
                }
            }
            let wave = (gen != Gen::Gfx9).then_some(if t.wave == Wave::W64 { 64 } else { 32 });
            let lines: Vec<String> = items
                .iter()
                .map(|x| support::assembler_text(&x.1, &x.2, t))
                .collect();
            let asm = support::assemble(&mc, gen.mcpu(), wave, &lines);
            let dis = support::disassemble(
                &mc,
                gen.mcpu(),
                wave,
                &items.iter().map(|x| x.3.clone()).collect::<Vec<_>>(),
            );
            let mut bad_enc = std::collections::BTreeSet::new();
            let encs_ref = encs;
            for ((i, inst, text, bytes), (a, dtext)) in items.iter().zip(asm.iter().zip(&dis)) {
                let mut fail = |why: String| {
                    bad_enc.insert(*i);
                    failures.push(format!("{gen} w{:?}: `{text}`: {why}", t.wave));
                };
                match a {
                    Err(e) => fail(format!("llvm-mc rejects our text: {e}")),
                    Ok(b) if b != bytes => {
                        fail(format!("bytes differ: ours {bytes:02x?} llvm {b:02x?}"))
                    }
                    Ok(b) => match decode(b, 0, t) {
                        Ok((back, len)) if back == *inst && len == b.len() => {}
                        other => fail(format!("decoding LLVM's bytes gives {other:?}")),
                    },
                }
                if dtext.as_deref() != Some(text.as_str()) {
                    fail(format!("llvm-mc disassembles our bytes as {dtext:?}"));
                }
            }
            for &i in &bad_enc {
                let d = &encs_ref[i];
                known_now.insert(format!(
                    "{gen} wave{} {:?} {:#x} {}",
                    t.wave.lanes(),
                    d.format,
                    d.op,
                    d.mnemonic
                ));
            }
            let verified = encs.len() - unbuildable - bad_enc.len();
            report.push_str(&format!(
                "{gen} wave{}: {} table entries, {} instances, {} entries verified against LLVM, {} not buildable, {} failing\n",
                t.wave.lanes(),
                encs.len(),
                items.len(),
                verified,
                unbuildable,
                bad_enc.len()
            ));
        }
    }
    println!("{report}");
    // Known gaps are listed, one encoding per line, in isa_tables/llvm_mismatches.txt (rewrite with
    // GCNC_BLESS=1). A new mismatch fails; so does a listed one that now passes.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/isa_tables/llvm_mismatches.txt"
    );
    let listed: std::collections::BTreeSet<String> = std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::to_string)
        .collect();
    if std::env::var("GCNC_BLESS").as_deref() == Ok("1") {
        let mut text = String::from("# Encodings whose representative instances do not yet match llvm-mc-19 (see docs/isa.md).\n");
        for k in &known_now {
            text.push_str(k);
            text.push('\n');
        }
        std::fs::write(path, text).unwrap();
        return;
    }
    let new: Vec<&String> = known_now.difference(&listed).collect();
    let fixed: Vec<&String> = listed.difference(&known_now).collect();
    for f in failures
        .iter()
        .filter(|f| std::env::var("ISA_SHOW").map_or(true, |s| f.contains(&s)))
        .take(if std::env::var("ISA_SHOW").is_ok() {
            usize::MAX
        } else {
            40
        })
    {
        println!("{f}");
    }
    assert!(new.is_empty(), "new mismatches against LLVM: {new:#?}");
    assert!(
        fixed.is_empty(),
        "now passing, remove from {path}: {fixed:#?}"
    );
}
