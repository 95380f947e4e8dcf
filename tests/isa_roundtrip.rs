//! Round-trip properties over random instructions (seeded xorshift, no dependency):
//! decode(encode(i)) == i and parse(print(i)) == i, on every generation and wave size.

mod support;

use gcnc::isa::*;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_inst(r: &mut Rng, d: &EncDesc, t: Target) -> Option<Inst> {
    if d.format.is_mem() {
        // the memory formats' representative forms with random registers, offsets and
        // bits (a seed of their own, so the random stream of the other formats is unchanged)
        thread_local!(static NEXT: std::cell::Cell<u32> = const { std::cell::Cell::new(0) });
        let v = NEXT.with(|c| {
            c.set(c.get() + 1);
            c.get()
        });
        return support::mem::random(d, t, 0x9e37_79b9_7f4a_7c15 ^ (v as u64) << 17);
    }
    match d.format {
        Format::VopdY => return None, // generated as partners of X halves
        Format::VopdX => return random_vopd(r, d, t),
        _ => {}
    }
    random_single(r, d, t)
}

/// A VOPD pair: `d` as X, a random Y; retried until the pairing rules hold.
fn random_vopd(r: &mut Rng, dx: &EncDesc, t: Target) -> Option<Inst> {
    let ys: Vec<&EncDesc> = tables::encodings(t.gen)
        .iter()
        .filter(|e| e.format == Format::VopdY)
        .collect();
    for _ in 0..50 {
        let dy = ys[r.below(ys.len() as u64) as usize];
        let mut ops = Vec::new();
        let lit = 0x4000 + r.below(0x1000) as u32;
        for (d, parity) in [(dx, 0u16), (dy, 1u16)] {
            for od in d.explicit() {
                ops.push(match od.field {
                    Field::Vdst => Operand::Reg(Reg::v(2 * r.below(120) as u16 + parity, 1)),
                    Field::K => Operand::Literal(lit),
                    Field::Vsrc1 => Operand::Reg(Reg::v(r.below(256) as u16, 1)),
                    _ => match r.below(4) {
                        0 => Operand::Inline(242),
                        1 => Operand::Literal(lit),
                        2 => Operand::Reg(Reg::s(r.below(100) as u16, 1)),
                        _ => Operand::Reg(Reg::v(r.below(256) as u16, 1)),
                    },
                });
            }
        }
        let mut inst = Inst::new(dx.opcode, Format::VopdX, &ops);
        inst.op_y = Some(dy.opcode);
        if inst.verify(t).is_ok() {
            return Some(inst);
        }
    }
    None
}

fn random_single(r: &mut Rng, d: &EncDesc, t: Target) -> Option<Inst> {
    let mut ops = Vec::new();
    let mut lit: Option<u32> = None;
    let lit_ok = !(matches!(d.format, Format::Vop3 | Format::Vop3p) && t.gen == Gen::Gfx9);
    for od in d.explicit() {
        if let Some(k) = od.imm {
            ops.push(match k {
                ImmKind::GprIdx => Operand::Imm(r.below(16) as u32),
                ImmKind::Hwreg => Operand::Imm(r.below(0x10000) as u32),
                // several values print alike (LLVM ignores unused fields); keep canonical ones
                ImmKind::Sendmsg => {
                    let v = r.below(if od.field == Field::Ssrc0 { 256 } else { 1024 }) as u32;
                    let text = gcnc::isa::simm16::print_sendmsg(t.gen, v);
                    Operand::Imm(gcnc::isa::simm16::parse_sendmsg(t.gen, &text).unwrap_or(v))
                }
                ImmKind::Depctr => {
                    Operand::Imm(r.below(0x10000) as u32 & if r.below(2) == 0 { !0x60 } else { !0 })
                }
                ImmKind::Waitcnt => Operand::Imm(gcnc::isa::simm16::parse_waitcnt(
                    t.gen,
                    &format!("vmcnt({}) lgkmcnt({})", r.below(16), r.below(16)),
                )?),
                ImmKind::Delay => Operand::Imm(0x91),
                ImmKind::Lit => Operand::Literal(r.next() as u32),
                ImmKind::Imm if od.field == Field::Offset => match r.below(3) {
                    0 => Operand::Imm((r.below(0x100000) as u32) & !3),
                    _ => Operand::Reg(Reg::s(r.below(100) as u16, 1)),
                },
                ImmKind::Imm => Operand::Imm(r.below(4) as u32),
                ImmKind::Opt => Operand::Imm(r.below(3) as u32),
                _ => Operand::Imm(r.below(0x10000) as u32),
            });
            continue;
        }
        let n = od.dwords(t.wave);
        let src = matches!(
            od.field,
            Field::Src0 | Field::Src1 | Field::Src2 | Field::Ssrc0 | Field::Ssrc1
        );
        let scalar = matches!(
            od.field,
            Field::Sdst | Field::Ssrc0 | Field::Ssrc1 | Field::Sdata | Field::Sbase
        ) || od.sgpr
            || od.size == 0;
        if od.field == Field::K {
            let v = *lit.get_or_insert(r.next() as u32 | 0x100000);
            ops.push(Operand::Literal(v));
            continue;
        }
        if od.allow & gcnc::isa::tables::NULL_ONLY != 0 {
            ops.push(Operand::Reg(Reg::null()));
            continue;
        }
        let choice = if src { r.below(4) } else { 0 };
        let o = match choice {
            1 => Operand::Inline(if od.ty == ValTy::I16 {
                128 + r.below(65) as u8
            } else {
                [128, 140, 200, 240, 242, 247][r.below(6) as usize]
            }),
            2 if lit_ok => {
                let big = 0x12345 + r.below(1000) as u32 * 4096;
                let v = *lit.get_or_insert(if matches!(od.ty, ValTy::F16 | ValTy::I16) {
                    big & 0xffff
                } else {
                    big
                });
                Operand::Literal(v)
            }
            _ if scalar || (src && choice == 3 && !matches!(od.field, Field::Vsrc1)) => {
                let align = if n >= 4 { 4 } else { n as u16 };
                let limit = if t.gen == Gen::Gfx9 { 100 } else { 104 };
                Operand::Reg(Reg::s(
                    r.below(((limit - n as u16) / align) as u64) as u16 * align,
                    n,
                ))
            }
            _ => Operand::Reg(Reg::v(r.below((256 - n as u16) as u64) as u16, n)),
        };
        ops.push(o);
    }
    let mut inst = Inst::new(d.opcode, d.format, &ops);
    let m = &mut inst.mods;
    if d.mods.contains(ModSet::CLAMP) {
        m.clamp = r.below(2) == 1;
    }
    if d.mods.contains(ModSet::OMOD) {
        m.omod = r.below(4) as u8;
    }
    let f = d.format;
    if f.is_vop3() || f.is_sdwa() || f.is_dpp16() {
        m.abs = r.below(8) as u8 & d.abs_mask;
        m.neg = r.below(8) as u8 & (d.neg_mask | if f.is_vop3() { d.sext_mask } else { 0 });
    } else if d.mods.contains(ModSet::NEG) {
        m.neg = r.below(8) as u8;
    }
    if f == Format::Vop3p {
        let srcs = d.explicit().fold(0u8, |a, o| match o.field {
            Field::Src0 => a | 1,
            Field::Src1 => a | 2,
            Field::Src2 => a | 4,
            _ => a,
        });
        m.neg &= srcs;
        if d.mods.contains(ModSet::NEG_HI) {
            m.neg_hi = r.below(8) as u8 & srcs;
        }
        if d.mods.contains(ModSet::OP_SEL) {
            m.op_sel = r.below(8) as u8 & srcs;
            m.op_sel_hi = (r.below(8) as u8 & srcs) | if d.opcode.is_mix() { 0 } else { !srcs & 7 };
        }
    }
    if f.is_sdwa() {
        m.sdwa.sext = r.below(4) as u8 & d.sext_mask & !m.neg;
        m.sdwa.src0_sel = r.below(7) as u8;
        let sel = r.below(7) as u8;
        // VOP1 has no src1: its src1_sel stays the default
        if d.slot(Field::Vsrc1).is_some() {
            m.sdwa.src1_sel = sel;
        }
        if f != Format::VopcSdwa {
            m.sdwa.dst_sel = r.below(7) as u8;
            m.sdwa.dst_unused = r.below(3) as u8;
        } else if d.operands.iter().any(|o| o.implicit.is_some()) && r.below(2) == 1 {
            m.sdwa.sdst = Some(Reg::s(2 * r.below(50) as u16, t.wave.mask_dwords()));
        }
    }
    if f.is_dpp16() {
        m.dpp.ctrl = [
            0x1b, 0xe4, 0x101, 0x11f, 0x121, 0x140, 0x141, 0x142, 0x150, 0x16f,
        ][r.below(10) as usize];
        m.dpp.row_mask = r.below(16) as u8;
        m.dpp.bank_mask = r.below(16) as u8;
        m.dpp.bound_ctrl = r.below(2) == 1;
        m.dpp.fi = t.gen != Gen::Gfx9 && r.below(2) == 1;
    }
    if f.is_dpp8() {
        m.dpp.sel8 = r.below(1 << 24) as u32;
        m.dpp.fi = r.below(2) == 1;
    }
    if d.format == Format::Smem {
        m.glc = d.mods.contains(ModSet::GLC) && r.below(2) == 1;
        m.dlc = d.mods.contains(ModSet::DLC) && r.below(2) == 1;
        if matches!(d.slot(Field::Offset).map(|i| ops[i]), Some(Operand::Reg(_))) && r.below(2) == 1
        {
            m.offset = (r.below(0x100000) as u32) & !3;
        }
    }
    inst.verify(t).ok()?;
    Some(inst)
}

#[test]
fn decode_encode_and_parse_print_are_identity() {
    let mut r = Rng(0x9e3779b97f4a7c15);
    let mut checked = 0;
    for gen in Gen::ALL {
        for wave in [Wave::W32, Wave::W64] {
            let Ok(t) = Target::with_wave(gen, wave) else {
                continue;
            };
            for d in tables::encodings(gen) {
                for _ in 0..4 {
                    let Some(inst) = random_inst(&mut r, d, t) else {
                        continue;
                    };
                    let bytes = encode(&inst, t).unwrap();
                    let (back, len) =
                        decode(&bytes, 0, t).unwrap_or_else(|e| panic!("{inst:?}: {e}"));
                    assert_eq!(len, bytes.len());
                    assert_eq!(back, inst, "decode(encode) on {gen} for {}", d.mnemonic);
                    let text = print(&inst, t).unwrap();
                    // the text must parse back to an instruction with the same encoding
                    // (LLVM-style parsing may pick the shorter of two equal encodings)
                    let parsed = parse_line(&text, 1, t)
                        .unwrap_or_else(|e| panic!("`{text}`: {e}"))
                        .unwrap();
                    assert_eq!(print(&parsed, t).unwrap(), text, "parse(print) on {gen}");
                    checked += 1;
                }
            }
        }
    }
    println!("{checked} random instructions round-tripped");
    assert!(checked > 5000);
}

#[test]
fn truncated_and_invalid_bytes_are_errors() {
    let t = Target::new(Gen::Gfx11);
    // VOP3 needs 8 bytes
    let e = decode(&[0x00, 0x00, 0x13, 0xd6], 0, t).unwrap_err();
    assert!(
        matches!(e.kind, ErrorKind::Truncated { .. }) && e.loc == Loc::Byte(0),
        "{e}"
    );
    // literal missing
    let e = decode(&[0xff, 0x02, 0x04, 0x06], 0, t).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Truncated { .. }), "{e}");
    let e = decode(&[0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff], 4, t).unwrap_err();
    assert_eq!(e.loc, Loc::Byte(4), "{e}");
}

/// The same random instructions, checked against LLVM both ways: llvm-mc's disassembly of
/// our bytes must be our text, and llvm-mc's assembly of our text must be our bytes (one
/// llvm-mc process per direction, generation and wave size).
#[test]
fn random_instructions_disassemble_like_llvm() {
    let Some(mc) = support::llvm_mc() else { return };
    let seed = std::env::var("GCNC_ISA_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x51ed2701f3a5c9b7u64);
    let mut r = Rng(seed);
    let mut checked = 0;
    for gen in Gen::ALL {
        for wave in [Wave::W32, Wave::W64] {
            let Ok(t) = Target::with_wave(gen, wave) else {
                continue;
            };
            let mut insts = Vec::new();
            for d in tables::encodings(gen) {
                for _ in 0..3 {
                    if let Some(i) = random_inst(&mut r, d, t) {
                        insts.push(i);
                    }
                }
            }
            let bytes: Vec<Vec<u8>> = insts.iter().map(|i| encode(i, t).unwrap()).collect();
            let w = (gen != Gen::Gfx9).then_some(wave.lanes());
            let llvm = support::disassemble(&mc, gen.mcpu(), w, &bytes);
            let texts: Vec<String> = insts.iter().map(|i| print(i, t).unwrap()).collect();
            let asm_texts: Vec<String> = insts
                .iter()
                .zip(&texts)
                .map(|(i, s)| support::assembler_text(i, s, t))
                .collect();
            let asm = support::assemble(&mc, gen.mcpu(), w, &asm_texts);
            let mut bad = Vec::new();
            for ((ours, l), (b, a)) in texts.iter().zip(&llvm).zip(bytes.iter().zip(&asm)) {
                if l.as_deref() != Some(ours.as_str()) {
                    bad.push(format!("ours `{ours}` llvm {l:?}"));
                }
                match a {
                    Ok(a) if a == b => {}
                    other => bad.push(format!(
                        "`{ours}`: ours {b:02x?}, llvm-mc assembles {other:02x?}"
                    )),
                }
            }
            assert!(
                bad.is_empty(),
                "{gen} wave{}: {} of {} differ:\n{}",
                wave.lanes(),
                bad.len(),
                insts.len(),
                bad[..bad.len().min(25)].join("\n")
            );
            checked += insts.len();
        }
    }
    println!("{checked} random instructions match llvm-mc");
}
