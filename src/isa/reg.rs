//! Registers: one numbering for every register file, shared by all generations.
//!
//! `PhysReg` is the 9-bit source-operand code of GFX9/GFX10 (0..=105 SGPRs, 106/107
//! vcc_lo/hi, 108..=123 ttmp, 124 m0, 125 null, 126/127 exec_lo/hi, 235.. special sources,
//! 256.. VGPRs). GFX11 swaps m0 and null in the encoding; `encode_code`/`decode_code` do
//! the per-generation translation so the rest of the compiler never sees it. A `Reg` is
//! a range: first register plus a size in dwords.

use super::target::{Gen, Wave};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PhysReg(pub u16);

impl PhysReg {
    pub const VCC_LO: PhysReg = PhysReg(106);
    pub const VCC_HI: PhysReg = PhysReg(107);
    pub const M0: PhysReg = PhysReg(124);
    pub const NULL: PhysReg = PhysReg(125);
    pub const EXEC_LO: PhysReg = PhysReg(126);
    pub const EXEC_HI: PhysReg = PhysReg(127);
    pub const SCC: PhysReg = PhysReg(253);

    pub fn sgpr(n: u16) -> PhysReg {
        PhysReg(n)
    }
    pub fn vgpr(n: u16) -> PhysReg {
        PhysReg(256 + n)
    }
    pub fn is_vgpr(self) -> bool {
        self.0 >= 256
    }
    pub fn is_sgpr(self) -> bool {
        self.0 < 106
    }
}

/// A register range: `count` consecutive dwords from `base`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Reg {
    pub base: PhysReg,
    pub count: u8,
}

impl Reg {
    pub fn s(n: u16, count: u8) -> Reg {
        Reg {
            base: PhysReg(n),
            count,
        }
    }
    pub fn v(n: u16, count: u8) -> Reg {
        Reg {
            base: PhysReg::vgpr(n),
            count,
        }
    }
    pub fn vcc(wave: Wave) -> Reg {
        Reg {
            base: PhysReg::VCC_LO,
            count: wave.mask_dwords(),
        }
    }
    pub fn exec(wave: Wave) -> Reg {
        Reg {
            base: PhysReg::EXEC_LO,
            count: wave.mask_dwords(),
        }
    }
    pub fn m0() -> Reg {
        Reg {
            base: PhysReg::M0,
            count: 1,
        }
    }
    pub fn null() -> Reg {
        Reg {
            base: PhysReg::NULL,
            count: 1,
        }
    }
}

/// Encoded 9-bit (or 8-bit) operand code of `r` on `gen`.
pub fn encode_code(gen: Gen, r: PhysReg) -> u16 {
    if gen == Gen::Gfx11 {
        match r.0 {
            124 => return 125,
            125 => return 124,
            _ => {}
        }
    }
    r.0
}

/// `PhysReg` for an encoded register code on `gen` (codes 0..=127, 235..=239, 251..=254,
/// 256..=511); None for constants, literals and reserved codes.
pub fn decode_code(gen: Gen, code: u16) -> Option<PhysReg> {
    let c = match code {
        124 if gen == Gen::Gfx11 => 125,
        125 if gen == Gen::Gfx11 => 124,
        c @ (0..=127 | 235..=239 | 251..=254 | 256..=511) => c,
        _ => return None,
    };
    Some(PhysReg(c))
}

fn special(gen: Gen, code: u16) -> Option<&'static str> {
    Some(match code {
        102 if gen == Gen::Gfx9 => "flat_scratch_lo",
        103 if gen == Gen::Gfx9 => "flat_scratch_hi",
        104 if gen == Gen::Gfx9 => "xnack_mask_lo",
        105 if gen == Gen::Gfx9 => "xnack_mask_hi",
        106 => "vcc_lo",
        107 => "vcc_hi",
        124 => "m0",
        125 => "null",
        126 => "exec_lo",
        127 => "exec_hi",
        235 => "src_shared_base",
        236 => "src_shared_limit",
        237 => "src_private_base",
        238 => "src_private_limit",
        239 => "src_pops_exiting_wave_id",
        251 => "src_vccz",
        252 => "src_execz",
        253 => "src_scc",
        254 => "src_lds_direct",
        _ => return None,
    })
}

/// Prints a register range as LLVM does.
pub struct RegDisplay {
    pub gen: Gen,
    pub reg: Reg,
}

impl fmt::Display for RegDisplay {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let Reg { base, count } = self.reg;
        let n = base.0;
        let last = n + count as u16 - 1;
        if base.is_vgpr() {
            return if count == 1 {
                write!(f, "v{}", n - 256)
            } else {
                write!(f, "v[{}:{}]", n - 256, last - 256)
            };
        }
        let gfx9_special = self.gen == Gen::Gfx9 && (102..=105).contains(&n);
        if n < 106 && !gfx9_special {
            return if count == 1 {
                write!(f, "s{n}")
            } else {
                write!(f, "s[{n}:{last}]")
            };
        }
        if (108..=123).contains(&n) {
            let t = n - 108;
            return if count == 1 {
                write!(f, "ttmp{t}")
            } else {
                write!(f, "ttmp[{}:{}]", t, t + count as u16 - 1)
            };
        }
        if count == 2 {
            let pair = match n {
                102 => Some("flat_scratch"),
                104 => Some("xnack_mask"),
                106 => Some("vcc"),
                126 => Some("exec"),
                235..=238 => special(self.gen, n),
                _ => None,
            };
            if let Some(p) = pair {
                return f.write_str(p);
            }
        }
        match special(self.gen, n) {
            Some(s) => f.write_str(s),
            None => write!(f, "/*invalid register {n}*/"),
        }
    }
}

/// Parses a register name; returns the range. `wave` is unused for names that carry their
/// own size (`vcc` is always 2 dwords, `vcc_lo` 1).
pub fn parse_reg(gen: Gen, s: &str) -> Option<Reg> {
    fn range(s: &str) -> Option<(u16, u16)> {
        let inner = s.strip_prefix('[')?.strip_suffix(']')?;
        let (a, b) = inner.split_once(':')?;
        let a: u16 = a.trim().parse().ok()?;
        let b: u16 = b.trim().parse().ok()?;
        (b >= a && b - a < 32).then_some((a, b))
    }
    let num = |rest: &str, limit: u16| -> Option<(u16, u8)> {
        if let Some((a, b)) = range(rest) {
            (b < limit).then_some((a, (b - a + 1) as u8))
        } else if !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_digit()) {
            let n: u16 = rest.parse().ok()?;
            (n < limit).then_some((n, 1))
        } else {
            None
        }
    };
    let sgpr_limit = gen.info().sgprs;
    if let Some(rest) = s.strip_prefix('v') {
        if let Some((n, c)) = num(rest, 256) {
            return Some(Reg::v(n, c));
        }
    }
    if let Some(rest) = s.strip_prefix("ttmp") {
        if let Some((n, c)) = num(rest, 16) {
            return Some(Reg {
                base: PhysReg(108 + n),
                count: c,
            });
        }
    }
    if let Some(rest) = s.strip_prefix('s') {
        if let Some((n, c)) = num(rest, sgpr_limit) {
            return Some(Reg::s(n, c));
        }
    }
    let pairs: &[(&str, u16)] = &[
        ("vcc", 106),
        ("exec", 126),
        ("flat_scratch", 102),
        ("xnack_mask", 104),
    ];
    for &(name, code) in pairs {
        if s == name && (code >= 106 || gen == Gen::Gfx9) {
            return Some(Reg {
                base: PhysReg(code),
                count: 2,
            });
        }
    }
    for code in (102..=127).chain(235..=239).chain(251..=254) {
        if special(gen, code) == Some(s) {
            return Some(Reg {
                base: PhysReg(code),
                count: 1,
            });
        }
    }
    // LLVM also accepts the names without the src_ prefix
    for code in 235..=238 {
        if special(gen, code).and_then(|n| n.strip_prefix("src_")) == Some(s) {
            return Some(Reg {
                base: PhysReg(code),
                count: 1,
            });
        }
    }
    if s == "scc" {
        return Some(Reg {
            base: PhysReg::SCC,
            count: 1,
        });
    }
    None
}
