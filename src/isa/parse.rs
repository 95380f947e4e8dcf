//! Parsing LLVM assembly syntax, one instruction per line, into `Inst`.
//!
//! The mnemonic selects candidate encodings (the exact LLVM spelling first; a bare name
//! tries the 32-bit encodings before VOP3, as LLVM does); the first candidate whose
//! operands parse and which encodes wins. Errors carry line and column.

use super::encode;
use super::error::{Error, ErrorKind, Loc, Result};
use super::inst::Inst;
use super::operand::{parse_const, Operand};
use super::reg::parse_reg;
use super::simm16;
use super::tables::{self, EncDesc, Field, Format, ImmKind, Implicit, OpDesc};
use super::target::{Gen, Target, Wave};
use std::collections::BTreeMap;
use std::sync::OnceLock;

fn by_mnemonic(gen: Gen) -> &'static BTreeMap<&'static str, Vec<&'static EncDesc>> {
    static MAPS: [OnceLock<BTreeMap<&'static str, Vec<&'static EncDesc>>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    MAPS[gen as usize].get_or_init(|| {
        let mut m: BTreeMap<&'static str, Vec<&'static EncDesc>> = BTreeMap::new();
        for d in tables::encodings(gen) {
            m.entry(d.mnemonic).or_default().push(d);
        }
        m
    })
}

fn candidates(gen: Gen, mn: &str) -> Vec<&'static EncDesc> {
    if let Some(v) = by_mnemonic(gen).get(mn) {
        return v.clone();
    }
    let (base, want) = if let Some(b) = mn.strip_suffix("_e32") {
        (b, Some(false))
    } else if let Some(b) = mn.strip_suffix("_e64") {
        (b, Some(true))
    } else {
        (mn, None)
    };
    let Some(op) = tables::Opcode::from_name(base) else {
        return Vec::new();
    };
    let mut v: Vec<&EncDesc> = tables::forms(gen, op)
        .filter(|d| want.is_none_or(|w| w == (d.format == Format::Vop3)))
        .collect();
    v.sort_by_key(|d| d.format == Format::Vop3 || d.format == Format::Vop3p);
    v
}

/// Splits `s` at top-level commas; returns (byte offset, text) pieces, trimmed.
fn split_operands(s: &str, base: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push((start, &s[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push((start, &s[start..]));
    out.into_iter()
        .map(|(o, p)| {
            let lead = p.len() - p.trim_start().len();
            (base + o + lead, p.trim())
        })
        .filter(|(_, p)| !p.is_empty())
        .collect()
}

fn is_modifier(w: &str) -> bool {
    super::format::mem::is_modifier(w)
        || matches!(
            w,
            "clamp"
                | "glc"
                | "dlc"
                | "mul:2"
                | "mul:4"
                | "div:2"
                | "row_mirror"
                | "row_half_mirror"
        )
        || w.starts_with("offset:")
        || [
            "dst_sel:",
            "dst_unused:",
            "src0_sel:",
            "src1_sel:",
            "quad_perm:",
            "row_",
            "wave_",
            "bank_mask:",
            "bound_ctrl:",
            "fi:",
            "dpp8:",
        ]
        .iter()
        .any(|p| w.starts_with(p))
        || ["op_sel:", "op_sel_hi:", "neg_lo:", "neg_hi:"]
            .iter()
            .any(|p| w.starts_with(p))
}

fn parse_bits(s: &str) -> Option<u8> {
    let inner = s.strip_prefix('[')?.strip_suffix(']')?;
    let mut v = 0u8;
    for (i, b) in inner.split(',').enumerate() {
        match b.trim() {
            "0" => {}
            "1" => v |= 1 << i,
            _ => return None,
        }
        if i > 3 {
            return None;
        }
    }
    Some(v)
}

struct Src<'a> {
    text: &'a str,
    neg: bool,
    abs: bool,
    sext: bool,
}

fn strip_src_mods(s: &str) -> Src<'_> {
    let mut t = s;
    let mut neg = false;
    let mut abs = false;
    let mut sext = false;
    if let Some(r) = t.strip_prefix("sext(").and_then(|r| r.strip_suffix(')')) {
        sext = true;
        t = r;
    } else if let Some(r) = t.strip_prefix("neg(").and_then(|r| r.strip_suffix(')')) {
        neg = true;
        t = r;
    } else if t.starts_with("-|") || t.starts_with("-abs(") {
        neg = true;
        t = &t[1..];
    } else if t.starts_with("-v")
        || t.starts_with("-s")
        || t.starts_with("-t")
        || t.starts_with("-e")
        || t.starts_with("-m")
    {
        neg = true;
        t = &t[1..];
    }
    if let Some(r) = t.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        abs = true;
        t = r;
    } else if let Some(r) = t.strip_prefix("abs(").and_then(|r| r.strip_suffix(')')) {
        abs = true;
        t = r;
    }
    Src {
        text: t,
        neg,
        abs,
        sext,
    }
}

fn implicit_ok(t: Target, r: Implicit, s: &str) -> bool {
    let wide = t.gen == Gen::Gfx9 || t.wave == Wave::W64;
    match r {
        Implicit::Vcc => s == if wide { "vcc" } else { "vcc_lo" },
        Implicit::Exec => s == if wide { "exec" } else { "exec_lo" },
        Implicit::M0 => s == "m0",
        Implicit::Scc => s == "scc",
    }
}

fn parse_imm(t: Target, kind: ImmKind, s: &str) -> Option<Operand> {
    let v = match kind {
        ImmKind::Waitcnt => simm16::parse_waitcnt(t.gen, s)?,
        ImmKind::Delay => simm16::parse_delay(s)?,
        ImmKind::Lit => return simm16::parse_num(s).map(Operand::Literal),
        ImmKind::GprIdx => simm16::parse_gpr_idx(s)?,
        ImmKind::Hwreg => simm16::parse_hwreg(t.gen, s)?,
        ImmKind::Sendmsg => simm16::parse_sendmsg(t.gen, s)?,
        ImmKind::Depctr => simm16::parse_depctr(s)?,
        _ => simm16::parse_num(s)?,
    };
    let v = match kind {
        ImmKind::Sdec | ImmKind::Udec | ImmKind::Hex | ImmKind::Opt => v & 0xffff,
        _ => v,
    };
    Some(Operand::Imm(v))
}

fn try_form(
    t: Target,
    d: &'static EncDesc,
    ops: &[(usize, &str)],
    mods_in: &[&str],
) -> std::result::Result<Inst, (usize, Error)> {
    if d.format.is_mem() {
        return super::format::mem::parse(t, d, ops, mods_in);
    }
    let mut inst = Inst::new(d.opcode, d.format, &[]);
    let mut it = ops.iter();
    let mut nsrc = 0usize;
    let mut last_col = 0;
    for od in d.operands {
        let Some(&(col, text)) = it.next() else {
            if od.imm == Some(ImmKind::Opt) {
                inst.operands.push(Operand::Imm(0));
                continue;
            }
            return Err((
                last_col,
                Error::new(ErrorKind::OperandCount {
                    expected: d.operands.len(),
                    found: ops.len(),
                }),
            ));
        };
        last_col = col;
        if let Some(r) = od.implicit {
            if d.format == Format::VopcSdwa && !implicit_ok(t, r, text) {
                // an explicit SGPR destination in place of VCC
                match parse_reg(t.gen, text) {
                    Some(reg) if reg.count == t.wave.mask_dwords() && !reg.base.is_vgpr() => {
                        inst.mods.sdwa.sdst = Some(reg);
                        continue;
                    }
                    _ => return Err((col, Error::bad(format!("bad SDWA destination `{text}`")))),
                }
            }
            if !implicit_ok(t, r, text) {
                return Err((col, Error::bad(format!("expected {r:?}, found `{text}`"))));
            }
            continue;
        }
        let o = if od.field == Field::Offset && text == "null" {
            Operand::Imm(0)
        } else if let (Field::Offset, Some(r)) = (od.field, parse_reg(t.gen, text)) {
            // a register offset is one scalar dword (LLVM refuses `exec`, `vcc`, tuples, VGPRs)
            if r.count != 1 || r.base.is_vgpr() {
                return Err((
                    col,
                    Error::bad(format!("`{text}`: an offset register is one scalar dword")),
                ));
            }
            Operand::Reg(r)
        } else if od.field == Field::Offset {
            let v = simm16::parse_num(text)
                .ok_or_else(|| (col, Error::bad(format!("bad offset `{text}`"))))?;
            Operand::Imm(v & 0x1fffff)
        } else if d.opcode == tables::Opcode::SVersion && od.field == Field::Simm16 {
            let v = simm16::parse_version(text)
                .ok_or_else(|| (col, Error::bad(format!("bad version `{text}`"))))?;
            Operand::Imm(v & 0xffff)
        } else if let Some(k) = od.imm {
            parse_imm(t, k, text)
                .ok_or_else(|| (col, Error::bad(format!("bad immediate `{text}`"))))?
        } else {
            parse_value(t, d, od, text, &mut inst).map_err(|e| (col, e))?
        };
        if matches!(od.field, Field::Src0 | Field::Src1 | Field::Src2) {
            nsrc += 1;
        }
        inst.operands.push(o);
    }
    if let Some(&(col, _)) = it.next() {
        return Err((
            col,
            Error::new(ErrorKind::OperandCount {
                expected: d.operands.len(),
                found: ops.len(),
            }),
        ));
    }
    for m in mods_in {
        let mm = &mut inst.mods;
        let bad = || (last_col, Error::bad(format!("modifier `{m}`")));
        match *m {
            "clamp" => mm.clamp = true,
            _ if d.format.is_sdwa() && parse_sdwa_mod(mm, m) => {}
            _ if d.format.is_dpp16() && parse_dpp16_mod(t, mm, m) => {}
            _ if d.format.is_dpp8() && parse_dpp8_mod(mm, m) => {}
            "glc" => mm.glc = true,
            _ if m.starts_with("offset:") => {
                mm.offset = simm16::parse_num(&m["offset:".len()..]).ok_or_else(bad)? & 0x1fffff;
            }
            "dlc" => mm.dlc = true,
            "mul:2" => mm.omod = 1,
            "mul:4" => mm.omod = 2,
            "div:2" => mm.omod = 3,
            _ => {
                let (k, v) = m.split_once(':').ok_or_else(bad)?;
                let b = parse_bits(v).ok_or_else(bad)?;
                let n = v.matches(',').count() + 1;
                match (k, d.format) {
                    ("op_sel", _) if super::print::permlane_op_sel(d) => {
                        if n != 2 {
                            return Err(bad());
                        }
                        mm.op_sel = b;
                    }
                    ("op_sel", Format::Vop3) => {
                        if n != nsrc + 1 {
                            return Err(bad());
                        }
                        let dst = (b >> nsrc) & 1;
                        mm.op_sel = (b & ((1 << nsrc) - 1)) | dst << 3;
                    }
                    ("op_sel", Format::Vop3p) => mm.op_sel = b,
                    ("op_sel_hi", Format::Vop3p) if d.opcode.is_mix() => mm.op_sel_hi = b,
                    ("op_sel_hi", Format::Vop3p) => mm.op_sel_hi = b | (!0u8 << nsrc) & 7,
                    ("neg_lo", Format::Vop3p) => mm.neg = b,
                    ("neg_hi", Format::Vop3p) => mm.neg_hi = b,
                    _ => return Err(bad()),
                }
                if n != nsrc && d.format == Format::Vop3p {
                    return Err(bad());
                }
            }
        }
    }
    if d.format == Format::Vop3p
        && !d.opcode.is_mix()
        && !mods_in.iter().any(|m| m.starts_with("op_sel_hi:"))
    {
        inst.mods.op_sel_hi = 7;
    }
    // the encoder is the final judge (VGPR-only fields, literal rules, ranges)
    if matches!(d.format, Format::VopdX | Format::VopdY) {
        // a VOPD half is judged with its partner
        inst.verify(t).map_err(|e| (last_col, e))?;
    } else {
        inst.verify(t).map_err(|e| (last_col, e))?;
        encode::encode(&inst, t).map_err(|e| (last_col, e))?;
    }
    Ok(inst)
}

fn parse_value(
    t: Target,
    d: &EncDesc,
    od: &OpDesc,
    text: &str,
    inst: &mut Inst,
) -> Result<Operand> {
    let src_i = match od.field {
        Field::Src0 => Some(0u8),
        Field::Src1 => Some(1),
        Field::Src2 => Some(2),
        _ => None,
    };
    let s = strip_src_mods(text);
    let f = d.format;
    let src_i = if (f.is_sdwa() || f.is_dpp16()) && !f.is_vop3() {
        match od.field {
            Field::Src0 => Some(0u8),
            Field::Vsrc1 => Some(1),
            _ => None,
        }
    } else {
        src_i.filter(|_| f.is_vop3() || (f == Format::Vop3p && d.opcode.is_mix()))
    };
    let mix = f == Format::Vop3p && d.opcode.is_mix();
    if s.neg || s.abs || s.sext {
        let i = src_i.ok_or_else(|| Error::bad("modifier not allowed here"))?;
        if s.neg {
            inst.mods.neg |= 1 << i;
        }
        if s.abs && mix {
            inst.mods.neg_hi |= 1 << i;
        } else if s.abs {
            inst.mods.abs |= 1 << i;
        }
        if s.sext && f.is_sdwa() {
            inst.mods.sdwa.sext |= 1 << i;
        } else if s.sext {
            // VOP3 prints a neg bit on an integer source as sext()
            inst.mods.neg |= 1 << i;
        }
    }
    if let Some(r) = parse_reg(t.gen, s.text) {
        let want = od.dwords(t.wave);
        let special = (235..=254).contains(&r.base.0);
        if r.count != want && !special {
            return Err(Error::bad(format!(
                "`{}` is {} dword(s), operand needs {want}",
                s.text, r.count
            )));
        }
        return Ok(Operand::Reg(r));
    }
    if od.field == Field::K {
        return simm16::parse_num(s.text)
            .map(Operand::Literal)
            .ok_or_else(|| Error::bad(format!("`{text}`")));
    }
    parse_const(s.text, od.ty).ok_or_else(|| Error::bad(format!("unknown operand `{text}`")))
}

/// Parses one line; `Ok(None)` for blank/comment/directive lines. `line` is 1-based.
pub fn parse_line(src: &str, line: u32, t: Target) -> Result<Option<Inst>> {
    let code = src.split(';').next().unwrap_or("");
    let code = code.split("//").next().unwrap_or("");
    let trimmed = code.trim_end();
    let lead = trimmed.len() - trimmed.trim_start().len();
    let body = trimmed.trim_start();
    if body.is_empty() || body.starts_with('.') || body.ends_with(':') {
        return Ok(None);
    }
    let at = |col: usize| Loc::Text {
        line,
        col: col as u32 + 1,
    };
    if let Some(sep) = body.find("::") {
        // VOPD: X half :: Y half
        let xs = body[..sep].trim_end();
        let yraw = &body[sep + 2..];
        let ylead = lead + sep + 2 + (yraw.len() - yraw.trim_start().len());
        let x = parse_body(xs, lead, line, t, Some(Format::VopdX))?;
        let y = parse_body(yraw.trim(), ylead, line, t, Some(Format::VopdY))?;
        let mut inst = x;
        inst.operands.extend(y.operands.iter().copied());
        inst.op_y = Some(y.op);
        inst.verify(t).map_err(|e| e.at(at(lead)))?;
        encode::encode(&inst, t).map_err(|e| e.at(at(lead)))?;
        return Ok(Some(inst));
    }
    parse_body(body, lead, line, t, None).map(Some)
}

/// One instruction (or one VOPD half when `only` names its format); `lead` is the column
/// offset of `body` in the line.
fn parse_body(body: &str, lead: usize, line: u32, t: Target, only: Option<Format>) -> Result<Inst> {
    let at = |col: usize| Loc::Text {
        line,
        col: col as u32 + 1,
    };
    let (mn, rest, rest_at) = match body.find(char::is_whitespace) {
        Some(i) => (&body[..i], &body[i..], lead + i),
        None => (body, "", lead + body.len()),
    };
    let mut ops = split_operands(rest, rest_at);
    // trailing modifiers live in the last operand, separated by spaces
    let mut mods: Vec<&str> = Vec::new();
    if let Some(last) = ops.last_mut() {
        let words: Vec<&str> = last.1.split_whitespace().collect();
        let mut keep = words.len();
        while keep > 0 && is_modifier(words[keep - 1]) {
            keep -= 1;
        }
        mods = words[keep..].to_vec();
        if keep == 0 {
            ops.pop();
        } else if keep < words.len() {
            let cut = last.1.find(words[keep]).unwrap_or(last.1.len());
            last.1 = last.1[..cut].trim_end();
        }
    }
    let vopd = |f: Format| matches!(f, Format::VopdX | Format::VopdY);
    let cands: Vec<_> = candidates(t.gen, mn)
        .into_iter()
        .filter(|d| match only {
            Some(f) => d.format == f,
            None => !vopd(d.format),
        })
        .collect();
    if cands.is_empty() {
        let base = mn.trim_end_matches("_e32").trim_end_matches("_e64");
        let known = tables::Opcode::from_name(base).is_some();
        let kind = if known {
            ErrorKind::NotOnTarget(mn.into())
        } else {
            ErrorKind::UnknownMnemonic(mn.into())
        };
        return Err(Error::new(kind).at(at(lead)));
    }
    let mut first_err = None;
    for d in cands {
        match try_form(t, d, &ops, &mods) {
            Ok(i) => return Ok(i),
            Err((col, e)) => {
                if first_err.is_none() {
                    first_err = Some(e.at(at(col)));
                }
            }
        }
    }
    Err(first_err.unwrap())
}

/// Parses a whole file of instructions.
pub fn parse(src: &str, t: Target) -> Result<Vec<(u32, Inst)>> {
    let mut out = Vec::new();
    for (i, l) in src.lines().enumerate() {
        let n = i as u32 + 1;
        if let Some(inst) = parse_line(l, n, t)? {
            out.push((n, inst));
        }
    }
    Ok(out)
}

fn parse_sdwa_mod(m: &mut super::inst::Mods, w: &str) -> bool {
    use super::print::{sdwa_sel_index, sdwa_unused_index};
    let Some((k, v)) = w.split_once(':') else {
        return false;
    };
    let r = match k {
        "dst_sel" => sdwa_sel_index(v).map(|x| m.sdwa.dst_sel = x),
        "dst_unused" => sdwa_unused_index(v).map(|x| m.sdwa.dst_unused = x),
        "src0_sel" => sdwa_sel_index(v).map(|x| m.sdwa.src0_sel = x),
        "src1_sel" => sdwa_sel_index(v).map(|x| m.sdwa.src1_sel = x),
        _ => None,
    };
    r.is_some()
}

fn parse_dpp16_mod(t: Target, m: &mut super::inst::Mods, w: &str) -> bool {
    let num = |v: &str| simm16::parse_num(v);
    if let Some(v) = w.strip_prefix("row_mask:") {
        return num(v)
            .filter(|&x| x < 16)
            .map(|x| m.dpp.row_mask = x as u8)
            .is_some();
    }
    if let Some(v) = w.strip_prefix("bank_mask:") {
        return num(v)
            .filter(|&x| x < 16)
            .map(|x| m.dpp.bank_mask = x as u8)
            .is_some();
    }
    if let Some(v) = w.strip_prefix("bound_ctrl:") {
        // LLVM accepts bound_ctrl:0 as the old spelling of the same bit
        m.dpp.bound_ctrl = v == "1" || v == "0";
        return m.dpp.bound_ctrl;
    }
    if let Some(v) = w.strip_prefix("fi:") {
        m.dpp.fi = v == "1";
        return v == "1" || v == "0";
    }
    // a DPP control: the inverse of the printer, over the whole control space
    match (0..0x170u16).find(|&c| super::print::dpp_ctrl_text(t.gen, c).as_deref() == Some(w)) {
        Some(c) => {
            m.dpp.ctrl = c;
            true
        }
        None => false,
    }
}

fn parse_dpp8_mod(m: &mut super::inst::Mods, w: &str) -> bool {
    if let Some(v) = w.strip_prefix("fi:") {
        m.dpp.fi = v == "1";
        return v == "1" || v == "0";
    }
    let Some(inner) = w.strip_prefix("dpp8:[").and_then(|r| r.strip_suffix(']')) else {
        return false;
    };
    let sel: Vec<u32> = inner
        .split(',')
        .filter_map(|x| x.trim().parse().ok())
        .filter(|&x| x < 8)
        .collect();
    if sel.len() != 8 {
        return false;
    }
    m.dpp.sel8 = sel
        .iter()
        .enumerate()
        .fold(0, |a, (i, &x)| a | x << (3 * i));
    true
}
