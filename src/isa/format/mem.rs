//! What the memory, export and interpolation formats share: their modifiers (`MemMods`),
//! the operand layout of an `Inst` (which table operand each `Inst` operand fills), and
//! the printer and parser (LLVM syntax) driven by the format files' hooks.
//!
//! Invariants: an `Inst` of a memory format holds the table's explicit operands in order,
//! except that (a) a returning atomic of FLAT/GLOBAL/SCRATCH without `glc` has no `vdst`,
//! and (b) a GFX10+ MIMG NSA instruction holds one `Vaddr` operand per address VGPR. An
//! address LLVM prints as `off` is `Operand::Off`. Register sizes that depend on modifiers
//! (tfe, d16, dmask, saddr, offen+idxen, MIMG dim/a16) are checked by the format's `check`.

use super::super::error::{Error, Result};
use super::super::inst::Inst;
use super::super::operand::{inline_text, parse_const, Operand};
use super::super::reg::{encode_code, parse_reg, Reg, RegDisplay};
use super::super::tables::{EncDesc, Field, Format, OpDesc, ValTy};
use super::super::target::{Gen, Target};
use super::{ds, exp, flat, ldsdir, mimg, mtbuf, mubuf, vinterp, vintrp};

pub use crate::isa::inst::MemMods;

/// The table operand each `Inst` operand fills (see the module invariants).
pub fn layout(inst: &Inst, d: &EncDesc) -> Vec<&'static OpDesc> {
    let ex: Vec<&'static OpDesc> = d.explicit().collect();
    match d.format {
        Format::Flat | Format::Global | Format::Scratch
            if d.mem.contains(super::super::tables::MemFlags::RTN) && !inst.mods.glc =>
        {
            ex.into_iter().filter(|o| o.field != Field::Vdst).collect()
        }
        Format::Mimg => {
            let k = (inst.operands.len() + 1).saturating_sub(ex.len()).max(1);
            let mut v = Vec::new();
            for o in ex {
                if o.field == Field::Vaddr {
                    v.extend(std::iter::repeat_n(o, k));
                } else {
                    v.push(o);
                }
            }
            v
        }
        Format::Mubuf | Format::Flat | Format::Global | Format::Scratch if inst.mods.mem.lds => ex
            .into_iter()
            .filter(|o| !matches!(o.field, Field::Vdst | Field::Vdata))
            .collect(),
        _ => ex,
    }
}

/// The operand in `field` (first one) under the instruction's layout.
pub fn get(inst: &Inst, lay: &[&OpDesc], field: Field) -> Option<Operand> {
    lay.iter()
        .position(|o| o.field == field)
        .and_then(|i| inst.operands.get(i).copied())
}

/// Checks `inst` against the format's rules (count, kinds, register sizes, modifiers).
pub fn check(inst: &Inst, d: &EncDesc, t: Target) -> Result<()> {
    let lay = layout(inst, d);
    if lay.len() != inst.operands.len() {
        return Err(Error::new(super::super::error::ErrorKind::OperandCount {
            expected: lay.len(),
            found: inst.operands.len(),
        }));
    }
    for (od, o) in lay.iter().zip(&inst.operands) {
        if od.imm.is_some() != matches!(o, Operand::Imm(_)) {
            return Err(Error::bad(format!("{:?}: wrong operand kind", od.field)));
        }
        if matches!(
            o,
            Operand::Label(_) | Operand::Symbol(_) | Operand::Literal(_)
        ) {
            return Err(Error::bad(format!("{:?}: no literals here", od.field)));
        }
    }
    let m = &inst.mods;
    if m.offset != 0 || m.sdwa != Default::default() || m.dpp != Default::default() {
        return Err(Error::bad(
            "SMEM/SDWA/DPP modifiers on a memory instruction",
        ));
    }
    if m.abs != 0 || m.neg_hi != 0 || m.omod != 0 || m.op_sel_hi != 0 {
        return Err(Error::bad("VOP3 modifiers on a memory instruction"));
    }
    if d.format != Format::Vinterp && (m.neg != 0 || m.clamp || m.op_sel != 0) {
        return Err(Error::bad("VOP3 modifiers on a memory instruction"));
    }
    let mm = &inst.mods.mem;
    if mm.wait != 0 && !matches!(d.format, Format::Ldsdir | Format::Vinterp) {
        return Err(Error::bad("wait_* modifier"));
    }
    match d.format {
        Format::Ds => ds::check(inst, d, t),
        Format::Mubuf => mubuf::check(inst, d, t, &lay),
        Format::Mtbuf => mtbuf::check(inst, d, t, &lay),
        Format::Flat | Format::Global | Format::Scratch => flat::check(inst, d, t, &lay),
        Format::Mimg => mimg::check(inst, d, t, &lay),
        Format::Exp => exp::check(inst, d, t),
        Format::Vintrp => vintrp::check(inst, d, t),
        Format::Ldsdir => ldsdir::check(inst, d, t),
        Format::Vinterp => vinterp::check(inst, d, t),
        _ => unreachable!(),
    }
}

/// Requires a VGPR range of `n` dwords (`n == 0`: any size).
pub fn want_v(o: &Operand, n: u8, what: &str) -> Result<()> {
    match o {
        Operand::Reg(r) if r.base.is_vgpr() && (n == 0 || r.count == n) => {
            if r.base.0 as u32 + r.count as u32 > 512 {
                return Err(Error::range(format!("{what}: runs off the VGPR file")));
            }
            Ok(())
        }
        _ => Err(Error::bad(format!(
            "{what} needs {} VGPR(s), got {o:?}",
            if n == 0 { "some".into() } else { n.to_string() }
        ))),
    }
}

/// Requires an SGPR range of `n` dwords, aligned to `align`.
pub fn want_s(o: &Operand, n: u8, align: u16, what: &str) -> Result<()> {
    match o {
        Operand::Reg(r)
            if !r.base.is_vgpr()
                && r.count == n
                && r.base.0 < 128
                && (r.base.0 + n as u16) <= 128
                && (r.base.0 % align == 0 || r.base.0 >= 106) =>
        {
            Ok(())
        }
        _ => Err(Error::bad(format!(
            "{what} needs an aligned SGPR range of {n}, got {o:?}"
        ))),
    }
}

pub fn flag(ok: bool, what: &str, d: &EncDesc) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::bad(format!("{} does not accept {what}", d.mnemonic)))
    }
}

/// VGPR number of a register operand (`Off` encodes as 0).
pub fn vnum(o: &Operand) -> u32 {
    match o {
        Operand::Reg(r) if r.base.is_vgpr() => (r.base.0 - 256) as u32,
        _ => 0,
    }
}

/// Scalar source code of a register or inline constant operand.
pub fn scode(gen: Gen, o: &Operand) -> u32 {
    match o {
        Operand::Reg(r) => encode_code(gen, r.base) as u32,
        Operand::Inline(c) => *c as u32,
        _ => 0,
    }
}

/// A VGPR range operand.
pub fn vreg(n: u32, count: u8) -> Result<Operand> {
    if n + count as u32 > 256 {
        return Err(Error::invalid("VGPR range runs off the register file"));
    }
    Ok(Operand::Reg(Reg::v(n as u16, count)))
}

/// An SGPR range from a scalar code (descriptor fields count in units of 4 SGPRs).
pub fn sreg(gen: Gen, code: u32, count: u8) -> Result<Operand> {
    let base = super::super::reg::decode_code(gen, code as u16)
        .ok_or_else(|| Error::invalid(format!("scalar register code {code}")))?;
    if base.0 >= 128 || base.0 as u32 + count as u32 > 128 {
        return Err(Error::invalid("scalar range runs off the SGPR file"));
    }
    // a range of SGPRs may not run into VCC (106/107): LLVM has no name for it and
    // refuses the word (RADV's ACO emits `srsrc` 104 on GFX10.3/GFX11 in rare code)
    if base.0 < 106 && base.0 as u32 + count as u32 > 106 {
        return Err(Error::invalid("scalar range runs from the SGPRs into vcc"));
    }
    Ok(Operand::Reg(Reg { base, count }))
}

/// A scalar source (soffset): an SGPR, a special register or an inline constant.
pub fn ssrc(gen: Gen, code: u32) -> Result<Operand> {
    match code {
        128..=208 | 240..=248 => Ok(Operand::Inline(code as u8)),
        _ => sreg(gen, code, 1),
    }
}

// ------------------------------------------------------------------ printing

fn operand_text(t: Target, d: &EncDesc, od: &OpDesc, o: &Operand) -> Result<String> {
    Ok(match *o {
        Operand::Reg(r) => RegDisplay { gen: t.gen, reg: r }.to_string(),
        Operand::Off => "off".into(),
        Operand::Inline(c) => inline_text(c, ValTy::B32),
        Operand::Imm(v) => match od.field {
            Field::Tgt => exp::target_text(t.gen, v),
            Field::Attr => format!("attr{}.{}", v >> 2, ['x', 'y', 'z', 'w'][v as usize & 3]),
            Field::Param => ["p10", "p20", "p0"]
                .get(v as usize)
                .map_or_else(|| format!("invalid_param_{v}"), |s| s.to_string()),
            _ => return Err(Error::bad(format!("{} immediate", d.mnemonic))),
        },
        _ => return Err(Error::bad("operand kind")),
    })
}

/// LLVM's text for a memory/export/interpolation instruction.
pub fn print(inst: &Inst, d: &EncDesc, t: Target) -> Result<String> {
    let lay = layout(inst, d);
    let nsa =
        d.format == Format::Mimg && lay.iter().filter(|o| o.field == Field::Vaddr).count() > 1;
    let mut s = String::from(d.mnemonic);
    if nsa && d.explicit().any(|o| o.field == Field::Ssamp) {
        // LLVM's NSA sampler mnemonics carry a second space
        s.push(' ');
    }
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < lay.len() {
        let od = lay[i];
        if nsa && od.field == Field::Vaddr {
            let mut v = Vec::new();
            while i < lay.len() && lay[i].field == Field::Vaddr {
                v.push(operand_text(t, d, lay[i], &inst.operands[i])?);
                i += 1;
            }
            parts.push(format!("[{}]", v.join(", ")));
            continue;
        }
        let mut text = operand_text(t, d, od, &inst.operands[i])?;
        if d.format == Format::Vinterp {
            let k = match od.field {
                Field::Src0 => 0,
                Field::Src1 => 1,
                Field::Src2 => 2,
                _ => 9,
            };
            if k < 3 && inst.mods.neg >> k & 1 == 1 {
                text = format!("-{text}");
            }
        }
        parts.push(text);
        i += 1;
    }
    if d.format == Format::Exp {
        // `exp mrt0 v1, ...`: the target is followed by a space, not a comma
        s.push(' ');
        s.push_str(&parts[0]);
        if parts.len() > 1 {
            s.push(' ');
            s.push_str(&parts[1..].join(", "));
        }
    } else if !parts.is_empty() {
        s.push(' ');
        s.push_str(&parts.join(", "));
    }
    let mut m = String::new();
    match d.format {
        Format::Ds => ds::print_mods(inst, d, &mut m),
        Format::Mubuf => mubuf::print_mods(inst, t, &mut m),
        Format::Mtbuf => mtbuf::print_mods(inst, t, &mut m),
        Format::Flat | Format::Global | Format::Scratch => flat::print_mods(inst, t, &mut m),
        Format::Mimg => mimg::print_mods(inst, t, &mut m),
        Format::Exp => exp::print_mods(inst, &mut m),
        Format::Ldsdir | Format::Vinterp => vinterp::print_mods(inst, d, &mut m),
        _ => {}
    }
    s.push_str(&m);
    Ok(s)
}

// ------------------------------------------------------------------ parsing

/// Words that end an operand list (the modifiers of these formats).
pub fn is_modifier(w: &str) -> bool {
    matches!(
        w,
        "gds"
            | "slc"
            | "lds"
            | "tfe"
            | "lwe"
            | "offen"
            | "idxen"
            | "unorm"
            | "r128"
            | "a16"
            | "d16"
            | "da"
            | "done"
            | "vm"
            | "compr"
            | "row_en"
    ) || [
        "offset:",
        "offset0:",
        "offset1:",
        "format:",
        "dmask:",
        "dim:",
        "wait_exp:",
        "wait_vdst:",
    ]
    .iter()
    .any(|p| w.starts_with(p))
}

fn num(s: &str) -> Option<i64> {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = if let Some(h) = s.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok()?
    } else {
        s.parse().ok()?
    };
    Some(if neg { -v } else { v })
}

fn parse_operand(t: Target, s: &str, out: &mut Vec<Operand>, inst: &mut Inst) -> Result<()> {
    if s == "off" {
        out.push(Operand::Off);
        return Ok(());
    }
    if let Some(inner) = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        for p in inner.split(',') {
            let r = parse_reg(t.gen, p.trim())
                .ok_or_else(|| Error::bad(format!("address register `{p}`")))?;
            out.push(Operand::Reg(r));
        }
        return Ok(());
    }
    if let Some(v) = exp::parse_target(t.gen, s) {
        out.push(Operand::Imm(v));
        return Ok(());
    }
    if let Some(rest) = s.strip_prefix("attr") {
        let (a, c) = rest
            .split_once('.')
            .ok_or_else(|| Error::bad(format!("`{s}`")))?;
        let a: u32 = a.parse().map_err(|_| Error::bad(format!("`{s}`")))?;
        let c = ["x", "y", "z", "w"]
            .iter()
            .position(|&x| x == c)
            .ok_or_else(|| Error::bad(format!("`{s}`")))?;
        if a >= 64 {
            return Err(Error::range(format!("`{s}`")));
        }
        out.push(Operand::Imm(a << 2 | c as u32));
        return Ok(());
    }
    if let Some(p) = ["p10", "p20", "p0"].iter().position(|&x| x == s) {
        out.push(Operand::Imm(p as u32));
        return Ok(());
    }
    if let Some(n) = s.strip_prefix("invalid_param_") {
        let n: u32 = n
            .parse()
            .ok()
            .filter(|&n| n < 256)
            .ok_or_else(|| Error::bad(format!("`{s}`")))?;
        out.push(Operand::Imm(n));
        return Ok(());
    }
    let (neg, body) = match s.strip_prefix('-') {
        Some(r) if r.starts_with('v') => (true, r),
        _ => (false, s),
    };
    if let Some(r) = parse_reg(t.gen, body) {
        if neg {
            inst.mods.neg |= 1 << out.len().saturating_sub(1);
        }
        out.push(Operand::Reg(r));
        return Ok(());
    }
    match parse_const(s, ValTy::B32) {
        Some(o @ Operand::Inline(_)) => {
            out.push(o);
            Ok(())
        }
        _ => Err(Error::bad(format!("unknown operand `{s}`"))),
    }
}

fn parse_mod(t: Target, d: &EncDesc, w: &str, inst: &mut Inst) -> Result<()> {
    let bad = || Error::bad(format!("modifier `{w}`"));
    let m = &mut inst.mods.mem;
    match w {
        "gds" => m.gds = true,
        "slc" => m.slc = true,
        "lds" => m.lds = true,
        "tfe" => m.tfe = true,
        "lwe" => m.lwe = true,
        "offen" => m.offen = true,
        "idxen" => m.idxen = true,
        "unorm" => m.unorm = true,
        "r128" => m.r128 = true,
        "a16" => m.a16 = true,
        "d16" => m.d16 = true,
        "da" => m.da = true,
        "done" => m.done = true,
        "vm" => m.vm = true,
        "compr" => m.compr = true,
        "row_en" => m.row_en = true,
        "glc" => inst.mods.glc = true,
        "dlc" => inst.mods.dlc = true,
        "clamp" => inst.mods.clamp = true,
        _ => {
            let (k, v) = w.split_once(':').ok_or_else(bad)?;
            match k {
                "offset" if d.mem.contains(super::super::tables::MemFlags::SWIZZLE) => {
                    m.offset = ds::parse_swizzle(v).ok_or_else(bad)? as i32
                }
                "offset" => m.offset = num(v).ok_or_else(bad)? as i32,
                "offset0" => m.offset = m.offset & !0xff | num(v).ok_or_else(bad)? as i32 & 0xff,
                "offset1" => {
                    m.offset = m.offset & 0xff | (num(v).ok_or_else(bad)? as i32 & 0xff) << 8
                }
                "dmask" => {
                    m.dmask = num(v).filter(|&x| (0..16).contains(&x)).ok_or_else(bad)? as u8
                }
                "dim" => m.dim = mimg::parse_dim(v).ok_or_else(bad)?,
                "format" => m.format = mtbuf::parse_format(t.gen, v).ok_or_else(bad)?,
                "wait_exp" | "wait_vdst" => {
                    m.wait = num(v).filter(|&x| (0..16).contains(&x)).ok_or_else(bad)? as u8
                }
                "op_sel" if d.format == Format::Vinterp => {
                    let inner = v
                        .strip_prefix('[')
                        .and_then(|r| r.strip_suffix(']'))
                        .ok_or_else(bad)?;
                    let bits: Vec<&str> = inner.split(',').collect();
                    if bits.len() != 4 {
                        return Err(bad());
                    }
                    let mut x = 0u8;
                    for (i, b) in bits.iter().enumerate() {
                        match *b {
                            "0" => {}
                            "1" => x |= 1 << i,
                            _ => return Err(bad()),
                        }
                    }
                    inst.mods.op_sel = x;
                }
                _ => return Err(bad()),
            }
        }
    }
    Ok(())
}

/// Parses the operands and modifiers of one candidate encoding; the verifier and the
/// encoder are the final judges.
pub fn parse(
    t: Target,
    d: &'static EncDesc,
    ops: &[(usize, &str)],
    mods: &[&str],
) -> std::result::Result<Inst, (usize, Error)> {
    let mut inst = Inst::new(d.opcode, d.format, &[]);
    let mut out = Vec::new();
    let mut last = 0;
    for &(col, text) in ops {
        last = col;
        // `exp mrt0 v1, ...`: target and first source are separated by a space
        let pieces: Vec<&str> = if d.format == Format::Exp {
            text.split_whitespace().collect()
        } else {
            vec![text]
        };
        for p in pieces {
            parse_operand(t, p, &mut out, &mut inst).map_err(|e| (col, e))?;
        }
    }
    inst.operands = out.into_iter().collect();
    for w in mods {
        parse_mod(t, d, w, &mut inst).map_err(|e| (last, e))?;
    }
    if d.format == Format::Exp && inst.mods.mem.compr && inst.operands.len() == 5 {
        // LLVM's assembler reads a compressed export's registers from the first and third
        // slots and enables both channels of each
        let (a, b) = (inst.operands[1], inst.operands[3]);
        inst.operands[2] = a;
        inst.operands[4] = b;
    }
    super::super::encode::encode(&inst, t).map_err(|e| (last, e))?;
    Ok(inst)
}
