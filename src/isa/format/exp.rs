//! EXP (export), 64 bits. Word 0: prefix (GFX9 110001, GFX10/GFX11 111110), `en[3:0]
//! tgt[9:4] compr[10] done[11] vm[12]` (GFX11: no compr/vm, row_en[13]); word 1: four
//! VGPR numbers vsrc0..vsrc3.
//!
//! The `Inst` holds the target (immediate) and the four printed source slots, each a VGPR
//! or `off`; the enable mask is which slots are not `off`. With `compr` (GFX9/GFX10) two
//! slots share one field (slots 0/1 ← vsrc0, slots 2/3 ← vsrc1), as LLVM prints it. The
//! encoder is literal (enable bit i = slot i); the parser, like LLVM's assembler, takes a
//! compressed export's registers from slots 0 and 2 and enables both halves of each.

use super::mem::{flag, vnum, vreg};
use super::sop2::lookup;
use super::{word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Format};
use crate::isa::target::{Gen, Target};

fn prefix(gen: Gen) -> u32 {
    match gen {
        Gen::Gfx9 => 0b110001 << 26,
        _ => 0b111110 << 26,
    }
}

pub fn is_exp(gen: Gen, w0: u32) -> bool {
    w0 & 0xfc00_0000 == prefix(gen)
}

/// Target names per generation, LLVM's spelling; None = `invalid_target_N`.
fn name(gen: Gen, v: u32) -> Option<String> {
    Some(match v {
        0..=7 => format!("mrt{v}"),
        8 => "mrtz".into(),
        9 if gen != Gen::Gfx11 => "null".into(),
        12..=15 => format!("pos{}", v - 12),
        16 if gen != Gen::Gfx9 => "pos4".into(),
        20 if gen != Gen::Gfx9 => "prim".into(),
        21 | 22 if gen == Gen::Gfx11 => format!("dual_src_blend{}", v - 21),
        32..=63 if gen != Gen::Gfx11 => format!("param{}", v - 32),
        _ => return None,
    })
}

pub fn target_text(gen: Gen, v: u32) -> String {
    name(gen, v).unwrap_or_else(|| format!("invalid_target_{v}"))
}

pub fn parse_target(gen: Gen, s: &str) -> Option<u32> {
    if !(s.starts_with("mrt")
        || s.starts_with("pos")
        || s.starts_with("param")
        || s.starts_with("prim")
        || s.starts_with("null")
        || s.starts_with("dual_src_blend")
        || s.starts_with("invalid_target_"))
    {
        return None;
    }
    (0..64).find(|&v| target_text(gen, v) == s)
}

pub fn check(inst: &Inst, d: &EncDesc, t: Target) -> Result<()> {
    let Some(Operand::Imm(tgt)) = inst.operands.first() else {
        return Err(Error::bad("export target"));
    };
    if *tgt >= 64 {
        return Err(Error::range("export target"));
    }
    let m = &inst.mods.mem;
    let slots = &inst.operands[1..];
    for o in slots {
        match o {
            Operand::Off => {}
            Operand::Reg(r) if r.base.is_vgpr() && r.count == 1 => {}
            _ => return Err(Error::bad("export source must be a VGPR or off")),
        }
    }
    if m.compr {
        for p in [0, 2] {
            if let (Operand::Reg(a), Operand::Reg(b)) = (slots[p], slots[p + 1]) {
                if a != b {
                    return Err(Error::bad(
                        "compressed export: paired slots share a register",
                    ));
                }
            }
        }
    }
    let gfx11 = t.gen == Gen::Gfx11;
    flag(!m.compr || !gfx11, "compr", d)?;
    flag(!m.vm || !gfx11, "vm", d)?;
    flag(!m.row_en || gfx11, "row_en", d)?;
    let rest = super::mem::MemMods {
        done: m.done,
        vm: m.vm,
        compr: m.compr,
        row_en: m.row_en,
        ..Default::default()
    };
    flag(
        *m == rest && !inst.mods.glc && !inst.mods.dlc,
        "these modifiers",
        d,
    )
}

pub fn encode(cx: &mut Enc, _d: &EncDesc, inst: &Inst) -> Result<()> {
    let m = &inst.mods.mem;
    let Operand::Imm(tgt) = inst.operands[0] else {
        unreachable!()
    };
    let mut w0 = prefix(cx.t.gen) | tgt << 4 | (m.done as u32) << 11;
    w0 |= (m.compr as u32) << 10 | (m.vm as u32) << 12 | (m.row_en as u32) << 13;
    let mut w1 = 0;
    for (i, o) in inst.operands[1..].iter().enumerate() {
        if *o == Operand::Off {
            continue;
        }
        w0 |= 1 << i;
        let field = if m.compr { i / 2 } else { i };
        w1 |= vnum(o) << (8 * field);
    }
    cx.words.push(w0);
    cx.words.push(w1);
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let (w0, w1) = (word(w, 0)?, word(w, 1)?);
    let d = lookup(cx, Format::Exp, 0)?;
    let gfx11 = cx.gen() == Gen::Gfx11;
    let compr = !gfx11 && (w0 >> 10) & 1 == 1;
    let mut ops = vec![Operand::Imm((w0 >> 4) & 0x3f)];
    for i in 0..4 {
        let field = if compr { i / 2 } else { i };
        ops.push(if (w0 >> i) & 1 == 1 {
            vreg((w1 >> (8 * field)) & 0xff, 1)?
        } else {
            Operand::Off
        });
    }
    let mut inst = Inst::new(d.opcode, d.format, &ops);
    let m = &mut inst.mods.mem;
    m.compr = compr;
    m.done = (w0 >> 11) & 1 == 1;
    m.vm = !gfx11 && (w0 >> 12) & 1 == 1;
    m.row_en = gfx11 && (w0 >> 13) & 1 == 1;
    super::mem::check(&inst, d, cx.t).map_err(|e| Error::invalid(e.to_string()))?;
    Ok((inst, 2))
}

pub fn print_mods(inst: &Inst, s: &mut String) {
    let m = &inst.mods.mem;
    for (on, t) in [
        (m.done, " done"),
        (m.compr, " compr"),
        (m.vm, " vm"),
        (m.row_en, " row_en"),
    ] {
        if on {
            s.push_str(t);
        }
    }
}
