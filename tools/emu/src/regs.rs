//! The register file of one wave: 128 scalar slots in the source-operand numbering
//! (s0..s105, vcc 106/107, ttmp 108..123, m0 124, null 125, exec 126/127), SCC, and
//! `nvgpr` VGPRs of `lanes` lanes each.
//!
//! Every register carries a "written" flag — per lane for VGPRs — so a read of something
//! never written is reported (`ErrorKind::UninitRead`). Writes to `null` are dropped and
//! reads of it give 0. EXEC is always considered written (the dispatcher sets it).

use crate::error::{Error, ErrorKind, Result};
use gcnc::isa::reg::RegDisplay;
use gcnc::isa::{Gen, PhysReg, Reg};

pub const SGPR_SLOTS: usize = 128;

#[derive(Clone, Debug)]
pub struct Regs {
    pub gen: Gen,
    pub lanes: u32,
    sgpr: [u32; SGPR_SLOTS],
    sgpr_init: u128,
    scc: bool,
    scc_init: bool,
    nvgpr: usize,
    vgpr: Vec<u32>,
    vgpr_init: Vec<u64>,
}

pub fn reg_name(gen: Gen, base: u16, count: u8) -> String {
    RegDisplay {
        gen,
        reg: Reg {
            base: PhysReg(base),
            count,
        },
    }
    .to_string()
}

impl Regs {
    pub fn new(gen: Gen, lanes: u32, nvgpr: usize) -> Regs {
        let mut r = Regs {
            gen,
            lanes,
            sgpr: [0; SGPR_SLOTS],
            sgpr_init: 0,
            scc: false,
            scc_init: false,
            nvgpr,
            vgpr: vec![0; nvgpr * 64],
            vgpr_init: vec![0; nvgpr],
        };
        r.sgpr_init |= 1 << PhysReg::NULL.0;
        r.sgpr_init |= 1 << PhysReg::EXEC_LO.0 | 1 << PhysReg::EXEC_HI.0;
        r
    }

    pub fn nvgpr(&self) -> usize {
        self.nvgpr
    }

    pub fn lane_mask(&self) -> u64 {
        if self.lanes == 64 {
            u64::MAX
        } else {
            (1u64 << self.lanes) - 1
        }
    }

    pub fn exec(&self) -> u64 {
        let v = self.sgpr[126] as u64 | (self.sgpr[127] as u64) << 32;
        v & self.lane_mask()
    }

    pub fn set_exec(&mut self, v: u64) {
        self.sgpr[126] = v as u32;
        if self.lanes == 64 {
            self.sgpr[127] = (v >> 32) as u32;
        }
    }

    /// Reads a scalar slot, checking it was written.
    pub fn s(&self, n: u16) -> Result<u32> {
        let i = n as usize;
        if i >= SGPR_SLOTS {
            return Err(Error::unsupported(format!("scalar source code {n}")));
        }
        if n == PhysReg::NULL.0 {
            return Ok(0);
        }
        if self.sgpr_init >> i & 1 == 0 {
            return Err(Error::new(ErrorKind::UninitRead {
                reg: reg_name(self.gen, n, 1),
                lanes: 0,
            }));
        }
        Ok(self.sgpr[i])
    }

    /// Reads without the written check (dumps, the dispatcher).
    pub fn s_raw(&self, n: u16) -> u32 {
        self.sgpr.get(n as usize).copied().unwrap_or(0)
    }

    pub fn s_written(&self, n: u16) -> bool {
        (n as usize) < SGPR_SLOTS && self.sgpr_init >> n & 1 == 1
    }

    pub fn set_s(&mut self, n: u16, v: u32) -> Result<()> {
        let i = n as usize;
        if n == PhysReg::NULL.0 {
            return Ok(());
        }
        if i >= SGPR_SLOTS {
            return Err(Error::unsupported(format!("scalar destination code {n}")));
        }
        self.sgpr[i] = v;
        self.sgpr_init |= 1 << i;
        Ok(())
    }

    pub fn scc(&self) -> Result<bool> {
        if !self.scc_init {
            return Err(Error::new(ErrorKind::UninitRead {
                reg: "scc".into(),
                lanes: 0,
            }));
        }
        Ok(self.scc)
    }
    pub fn scc_raw(&self) -> bool {
        self.scc
    }
    pub fn set_scc(&mut self, v: bool) {
        self.scc = v;
        self.scc_init = true;
    }

    fn vidx(&self, v: u16) -> Result<usize> {
        let i = v as usize;
        if i >= self.nvgpr {
            return Err(Error::unsupported(format!(
                "v{v} is beyond the {} VGPRs allocated to the wave",
                self.nvgpr
            )));
        }
        Ok(i)
    }

    /// Reads VGPR `v` (index from 0) in `lane`; `mask` lanes must have been written.
    pub fn v(&self, v: u16, lane: u32) -> u32 {
        self.vgpr
            .get(v as usize * 64 + lane as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Checks that lanes `mask` of `v` were written.
    pub fn check_v(&self, v: u16, mask: u64) -> Result<()> {
        let i = self.vidx(v)?;
        let missing = mask & !self.vgpr_init[i];
        if missing != 0 {
            return Err(Error::new(ErrorKind::UninitRead {
                reg: format!("v{v}"),
                lanes: missing,
            }));
        }
        Ok(())
    }

    pub fn v_written(&self, v: u16) -> u64 {
        self.vgpr_init.get(v as usize).copied().unwrap_or(0)
    }

    pub fn set_v(&mut self, v: u16, lane: u32, val: u32) -> Result<()> {
        let i = self.vidx(v)?;
        self.vgpr[i * 64 + lane as usize] = val;
        self.vgpr_init[i] |= 1 << lane;
        Ok(())
    }

    /// All lanes of VGPR `v` and its written mask (VOPD's read-before-write).
    pub fn column(&self, v: u16) -> (Vec<u32>, u64) {
        let i = v as usize;
        if i >= self.nvgpr {
            return (vec![0; 64], 0);
        }
        (self.vgpr[i * 64..i * 64 + 64].to_vec(), self.vgpr_init[i])
    }

    pub fn set_column(&mut self, v: u16, c: (Vec<u32>, u64)) {
        let i = v as usize;
        if i < self.nvgpr {
            self.vgpr[i * 64..i * 64 + 64].copy_from_slice(&c.0);
            self.vgpr_init[i] = c.1;
        }
    }

    /// A readable dump: written SGPRs, SCC, EXEC, and written VGPRs (lanes of EXEC).
    pub fn dump(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "  exec={:#018x} scc={} vcc={}\n",
            self.exec(),
            if self.scc_init {
                (self.scc as u8).to_string()
            } else {
                "?".into()
            },
            if self.s_written(106) {
                format!("{:#010x}{:08x}", self.sgpr[107], self.sgpr[106])
            } else {
                "?".into()
            }
        ));
        let mut line = String::from(" ");
        let mut count = 0;
        for n in 0..SGPR_SLOTS as u16 {
            if n == PhysReg::NULL.0 || n == 126 || n == 127 || !self.s_written(n) {
                continue;
            }
            line.push_str(&format!(
                " {}={:#x}",
                reg_name(self.gen, n, 1),
                self.sgpr[n as usize]
            ));
            count += 1;
            if count % 8 == 0 {
                s.push_str(&line);
                s.push('\n');
                line = String::from(" ");
            }
        }
        if count % 8 != 0 {
            s.push_str(&line);
            s.push('\n');
        }
        let exec = self.exec();
        for v in 0..self.nvgpr as u16 {
            let w = self.vgpr_init[v as usize];
            if w == 0 {
                continue;
            }
            let lanes: Vec<String> = (0..self.lanes.min(8))
                .map(|l| {
                    if w >> l & 1 == 1 {
                        format!("{:#x}", self.v(v, l))
                    } else {
                        "?".into()
                    }
                })
                .collect();
            s.push_str(&format!(
                "  v{v}: {}{} (written lanes {w:#x}, exec {exec:#x})\n",
                lanes.join(" "),
                if self.lanes > 8 { " …" } else { "" }
            ));
        }
        s
    }
}
