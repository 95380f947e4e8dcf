//! The structured 16-bit immediates of SOPP/SOPK: `s_waitcnt` counters and `s_delay_alu`
//! fields, printed and parsed in LLVM's syntax. Per-generation counter layouts live here.
//! `hwreg(...)` and `sendmsg(...)` use the names the sweep recorded in
//! `isa_tables/<gen>_symbols.txt`; s_waitcnt_depctr's fields are below. `Waitcnt` is the
//! typed view of an `s_waitcnt` immediate for the emulator and the waitcnt pass.

use super::error::{Error, Result};
use super::target::Gen;

/// A named counter or field of a structured immediate.
struct Cnt {
    name: &'static str,
    /// (shift, width) pieces, low bits first.
    parts: &'static [(u32, u32)],
}

const fn cnt(name: &'static str, parts: &'static [(u32, u32)]) -> Cnt {
    Cnt { name, parts }
}

/// The `s_waitcnt` counters per generation, in the order of [`Waitcnt`]'s fields.
const WAITCNT_GFX9: [Cnt; 3] = [
    cnt("vmcnt", &[(0, 4), (14, 2)]),
    cnt("expcnt", &[(4, 3)]),
    cnt("lgkmcnt", &[(8, 4)]),
];
const WAITCNT_GFX10: [Cnt; 3] = [
    cnt("vmcnt", &[(0, 4), (14, 2)]),
    cnt("expcnt", &[(4, 3)]),
    cnt("lgkmcnt", &[(8, 6)]),
];
const WAITCNT_GFX11: [Cnt; 3] = [
    cnt("vmcnt", &[(10, 6)]),
    cnt("expcnt", &[(0, 3)]),
    cnt("lgkmcnt", &[(4, 6)]),
];

fn counters(gen: Gen) -> &'static [Cnt] {
    match gen {
        Gen::Gfx9 => &WAITCNT_GFX9,
        Gen::Gfx10 => &WAITCNT_GFX10,
        Gen::Gfx11 => &WAITCNT_GFX11,
    }
}

/// The field's value in `v` and its maximum.
fn get(c: &Cnt, v: u32) -> (u32, u32) {
    let (mut x, mut max, mut at) = (0, 0, 0);
    for &(s, w) in c.parts {
        x |= ((v >> s) & ((1 << w) - 1)) << at;
        max |= ((1 << w) - 1) << at;
        at += w;
    }
    (x, max)
}

/// `v` with the field replaced by `x` (bits of `x` above the field's width dropped).
fn set(c: &Cnt, v: u32, x: u32) -> u32 {
    let mut v = v;
    let mut at = 0;
    for &(s, w) in c.parts {
        let m = (1 << w) - 1;
        v = (v & !(m << s)) | (((x >> at) & m) << s);
        at += w;
    }
    v
}

/// The counters of an `s_waitcnt` immediate: wait until each outstanding count is at most
/// its value. A counter at its generation's maximum (`Waitcnt::none(gen)`) does not wait.
/// GFX10+ `vscnt` has its own instruction (`s_waitcnt_vscnt`, a plain SOPK immediate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Waitcnt {
    pub vmcnt: u32,
    pub expcnt: u32,
    pub lgkmcnt: u32,
}

impl Waitcnt {
    /// Every counter at its maximum on `gen`: waits for nothing.
    pub fn none(gen: Gen) -> Waitcnt {
        let [vm, exp, lgkm] = Waitcnt::max_fields(gen);
        Waitcnt {
            vmcnt: vm,
            expcnt: exp,
            lgkmcnt: lgkm,
        }
    }

    /// Largest encodable value of (vmcnt, expcnt, lgkmcnt) on `gen`.
    pub fn max_fields(gen: Gen) -> [u32; 3] {
        let cs = counters(gen);
        [0, 1, 2].map(|i| get(&cs[i], 0xffff).1)
    }

    /// The fields of `simm16` on `gen`; bits outside the counters are ignored (as the
    /// hardware and LLVM's printer do).
    pub fn decode(gen: Gen, simm16: u16) -> Waitcnt {
        let cs = counters(gen);
        let v = simm16 as u32;
        Waitcnt {
            vmcnt: get(&cs[0], v).0,
            expcnt: get(&cs[1], v).0,
            lgkmcnt: get(&cs[2], v).0,
        }
    }

    /// The `s_waitcnt` immediate on `gen`, with the bits outside the counters zero (what
    /// LLVM's assembler emits). A field above its maximum is a range error.
    pub fn encode(self, gen: Gen) -> Result<u16> {
        let cs = counters(gen);
        let mut v = 0;
        for (c, x) in cs.iter().zip([self.vmcnt, self.expcnt, self.lgkmcnt]) {
            let max = get(c, 0xffff).1;
            if x > max {
                return Err(Error::range(format!(
                    "{} {x} exceeds {max} on {gen}",
                    c.name
                )));
            }
            v = set(c, v, x);
        }
        Ok(v as u16)
    }

    /// Per counter, the smaller (stricter) of the two waits.
    pub fn min(self, o: Waitcnt) -> Waitcnt {
        Waitcnt {
            vmcnt: self.vmcnt.min(o.vmcnt),
            expcnt: self.expcnt.min(o.expcnt),
            lgkmcnt: self.lgkmcnt.min(o.lgkmcnt),
        }
    }
}

/// `vmcnt(0) expcnt(0) lgkmcnt(0)`: counters not at their maximum, or all when all are.
pub fn print_waitcnt(gen: Gen, v: u32) -> String {
    print_fields(counters(gen), v)
}

/// `name(x)` for each field of `v` not at its maximum, or for all when all are (LLVM's
/// printing rule for s_waitcnt and s_waitcnt_depctr).
fn print_fields(fields: &[Cnt], v: u32) -> String {
    let all_max = fields.iter().all(|c| {
        let (x, m) = get(c, v);
        x == m
    });
    let mut out = Vec::new();
    for c in fields {
        let (x, m) = get(c, v);
        if x != m || all_max {
            out.push(format!("{}({})", c.name, x));
        }
    }
    out.join(" ")
}

/// Parses `name(N)` fields (separated where `sep` holds) over `v`, which holds the
/// defaults; None on an unknown name or a value above the field's maximum.
fn parse_fields(fields: &[Cnt], s: &str, sep: impl Fn(char) -> bool, mut v: u32) -> Option<u32> {
    for part in s.split(sep).filter(|p| !p.is_empty()) {
        let (name, rest) = part.split_once('(')?;
        let n = parse_num(rest.strip_suffix(')')?)?;
        let c = fields.iter().find(|c| c.name == name)?;
        if n > get(c, 0xffff).1 {
            return None;
        }
        v = set(c, v, n);
    }
    Some(v)
}

/// Parses `vmcnt(N) expcnt(N) lgkmcnt(N)` (any subset, separated by spaces, `&` or `,`) or
/// a plain number.
pub fn parse_waitcnt(gen: Gen, s: &str) -> Option<u32> {
    if let Some(v) = parse_num(s) {
        return Some(v);
    }
    let cs = counters(gen);
    // every counter at its maximum; bits outside the counters are zero in LLVM's default
    let v = cs.iter().fold(0u32, |m, c| set(c, m, get(c, 0xffff).1));
    parse_fields(cs, s, |c| c == ' ' || c == '&' || c == ',', v)
}

const INSTID: [&str; 12] = [
    "NO_DEP",
    "VALU_DEP_1",
    "VALU_DEP_2",
    "VALU_DEP_3",
    "VALU_DEP_4",
    "TRANS32_DEP_1",
    "TRANS32_DEP_2",
    "TRANS32_DEP_3",
    "FMA_ACCUM_CYCLE_1",
    "SALU_CYCLE_1",
    "SALU_CYCLE_2",
    "SALU_CYCLE_3",
];
const INSTSKIP: [&str; 6] = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"];

/// `instid0(..) | instskip(..) | instid1(..)`: zero fields omitted, bits above 10 ignored,
/// out-of-range fields printed with LLVM's `/* invalid ... value */` marker.
pub fn print_delay(v: u32) -> String {
    let (id0, skip, id1) = (
        (v & 0xf) as usize,
        ((v >> 4) & 7) as usize,
        ((v >> 7) & 0xf) as usize,
    );
    let id = |i: usize| {
        INSTID
            .get(i)
            .copied()
            .unwrap_or("/* invalid instid value */")
    };
    let mut parts = Vec::new();
    if id0 != 0 {
        parts.push(format!("instid0({})", id(id0)));
    }
    if skip != 0 {
        parts.push(format!(
            "instskip({})",
            INSTSKIP
                .get(skip)
                .copied()
                .unwrap_or("/* invalid instskip value */")
        ));
    }
    if id1 != 0 {
        parts.push(format!("instid1({})", id(id1)));
    }
    if parts.is_empty() {
        "0".into()
    } else {
        parts.join(" | ")
    }
}

pub fn parse_delay(s: &str) -> Option<u32> {
    if let Some(v) = parse_num(s) {
        return Some(v);
    }
    let mut v = 0;
    for part in s.split('|').map(str::trim) {
        let (name, rest) = part.split_once('(')?;
        let arg = rest.strip_suffix(')')?;
        match name {
            "instid0" => v |= INSTID.iter().position(|&n| n == arg)? as u32,
            "instskip" => v |= (INSTSKIP.iter().position(|&n| n == arg)? as u32) << 4,
            "instid1" => v |= (INSTID.iter().position(|&n| n == arg)? as u32) << 7,
            _ => return None,
        }
    }
    Some(v)
}

/// Decimal or 0x-hex, optionally negative (two's complement in 32 bits).
pub fn parse_num(s: &str) -> Option<u32> {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = if let Some(h) = s.strip_prefix("0x") {
        u32::from_str_radix(h, 16).ok()?
    } else if !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()) {
        s.parse().ok()?
    } else {
        return None;
    };
    Some(if neg { v.wrapping_neg() } else { v })
}

const GPR_IDX: [&str; 4] = ["SRC0", "SRC1", "SRC2", "DST"];

/// `gpr_idx(SRC0,DST)` for the 4-bit VGPR-indexing mode mask; None above 15 (LLVM prints hex).
pub fn print_gpr_idx(v: u32) -> Option<String> {
    if v > 15 {
        return None;
    }
    let names: Vec<&str> = (0..4)
        .filter(|i| v >> i & 1 == 1)
        .map(|i| GPR_IDX[i])
        .collect();
    Some(format!("gpr_idx({})", names.join(",")))
}

pub fn parse_gpr_idx(s: &str) -> Option<u32> {
    if let Some(v) = parse_num(s) {
        return Some(v);
    }
    let inner = s.strip_prefix("gpr_idx(")?.strip_suffix(')')?;
    let mut v = 0;
    for n in inner.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        v |= 1 << GPR_IDX.iter().position(|&g| g == n)?;
    }
    Some(v)
}

/// `hwreg(HW_REG_MODE)` / `hwreg(HW_REG_MODE, 1, 4)` / `hwreg(63, 0, 1)`: id [5:0],
/// offset [10:6], size-1 [15:11].
pub fn print_hwreg(gen: Gen, v: u32) -> String {
    let (id, off, size) = (v & 63, (v >> 6) & 31, ((v >> 11) & 31) + 1);
    let names = super::tables::hwreg_names(gen);
    let name = match names.binary_search_by_key(&(id as u16), |e| e.0) {
        Ok(i) => names[i].1.to_string(),
        Err(_) => id.to_string(),
    };
    if off == 0 && size == 32 {
        format!("hwreg({name})")
    } else {
        format!("hwreg({name}, {off}, {size})")
    }
}

/// The `hwreg(NAME)` immediate of a whole hardware register (offset 0, 32 bits), or `None`
/// where `gen` has no such register.
pub fn hwreg_whole(gen: Gen, r: super::tables::Hwreg) -> Option<u32> {
    r.value(gen).map(|id| id as u32 | 31 << 11)
}

pub fn parse_hwreg(gen: Gen, s: &str) -> Option<u32> {
    if let Some(v) = parse_num(s) {
        return Some(v);
    }
    let inner = s.strip_prefix("hwreg(")?.strip_suffix(')')?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    let id = match super::tables::hwreg_names(gen)
        .iter()
        .find(|e| e.1 == parts[0])
    {
        Some(e) => e.0 as u32,
        None => parse_num(parts[0]).filter(|&v| v < 64)?,
    };
    let (off, size) = match parts.len() {
        1 => (0, 32),
        3 => (parse_num(parts[1])?, parse_num(parts[2])?),
        _ => return None,
    };
    if off > 31 || !(1..=32).contains(&size) {
        return None;
    }
    Some(id | off << 6 | (size - 1) << 11)
}

/// The `sendmsg(...)` text LLVM prints for `v`, or the plain number.
pub fn print_sendmsg(gen: Gen, v: u32) -> String {
    let t = super::tables::sendmsg_texts(gen);
    // values above 10 bits: LLVM still names a known message from the low bits, but
    // prints the number for the numeric sendmsg(id, op, stream) forms
    match t.binary_search_by_key(&((v & 0x3ff) as u16), |e| e.0) {
        Ok(i) if v < 1024 || t[i].1.contains("MSG_") => t[i].1.to_string(),
        _ => v.to_string(),
    }
}

pub fn parse_sendmsg(gen: Gen, s: &str) -> Option<u32> {
    if let Some(v) = parse_num(s) {
        return Some(v);
    }
    let norm: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let norm = norm
        .replace(" ,", ",")
        .replace(",", ", ")
        .replace(",  ", ", ");
    super::tables::sendmsg_texts(gen)
        .iter()
        .find(|e| e.1 == norm)
        .map(|e| e.0 as u32)
}

/// `s_version`: a version number in bits 7:0 plus the W64 (13), W32 (14) and MDP (15)
/// flags, printed `(5|UC_VERSION_W64_BIT)|UC_VERSION_MDP_BIT`; other bits set: hex.
pub fn print_version(v: u32) -> String {
    if v & 0x1f00 != 0 {
        return format!("{v:#x}");
    }
    let mut s = (v & 0xff).to_string();
    let mut first = true;
    for (bit, name) in [
        (13, "UC_VERSION_W64_BIT"),
        (14, "UC_VERSION_W32_BIT"),
        (15, "UC_VERSION_MDP_BIT"),
    ] {
        if v >> bit & 1 == 1 {
            s = if first {
                format!("{s}|{name}")
            } else {
                format!("({s})|{name}")
            };
            first = false;
        }
    }
    s
}

pub fn parse_version(s: &str) -> Option<u32> {
    let mut v = 0;
    for part in s.split('|') {
        let p = part.trim().trim_matches(|c| c == '(' || c == ')');
        v |= match p {
            "UC_VERSION_W64_BIT" => 1 << 13,
            "UC_VERSION_W32_BIT" => 1 << 14,
            "UC_VERSION_MDP_BIT" => 1 << 15,
            n => parse_num(n)?,
        };
    }
    Some(v)
}

/// s_waitcnt_depctr fields (GFX10.3/GFX11), in LLVM's print order.
const DEPCTR: [Cnt; 7] = [
    cnt("depctr_hold_cnt", &[(7, 1)]),
    cnt("depctr_sa_sdst", &[(0, 1)]),
    cnt("depctr_va_vdst", &[(12, 4)]),
    cnt("depctr_va_sdst", &[(9, 3)]),
    cnt("depctr_va_ssrc", &[(8, 1)]),
    cnt("depctr_va_vcc", &[(1, 1)]),
    cnt("depctr_vm_vsrc", &[(2, 3)]),
];

/// Fields not at their maximum, or all when all are; hex when the unused bits 5/6 are set.
pub fn print_depctr(v: u32) -> String {
    if v & 0x60 != 0 || v > 0xffff {
        return format!("{v:#x}");
    }
    print_fields(&DEPCTR, v)
}

pub fn parse_depctr(s: &str) -> Option<u32> {
    if let Some(v) = parse_num(s) {
        return Some(v);
    }
    // fields not named keep their maximum; the unused bits stay zero
    let v = DEPCTR.iter().fold(0u32, |m, c| set(c, m, get(c, 0xffff).1));
    parse_fields(&DEPCTR, s, char::is_whitespace, v)
}
