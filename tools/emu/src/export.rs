//! Exports (`exp`) and the messages a graphics wave sends: the `Exports` sink a graphics
//! launch passes in `Env`, which the draw runner (`draw`) reads after the wave ends.
//!
//! Design: an `exp` is performed at issue, like memory operations: the VGPRs of its
//! enabled slots are read for the lanes of EXEC and recorded with the target, the flags
//! and EXEC in one `Export`. The sink keeps them in program order; it does not interpret
//! formats (the runner does, with SPI_SHADER_COL_FORMAT / the position and parameter
//! rules). The export is then pending on `expcnt` with its source VGPRs as sources:
//! hardware reads them after issue, so overwriting one before `s_waitcnt expcnt` is an
//! error whatever `Checks::war` says (`track.rs`).
//!
//! Rules checked here (each a `Graphics` error): no export in a compute dispatch (no
//! sink); after a `done` export of a kind (pixel: mrt/mrtz/null/dual-source; position;
//! primitive) no further export of that kind; `compr` only where the target takes it;
//! NGG position and primitive exports only after `s_sendmsg GS_ALLOC_REQ` (when the sink
//! is for an NGG wave). Messages (`s_sendmsg`) are recorded with M0.
//!
//! Invariant: `Export::data[lane]` holds the slot values of lanes in `exec` only; slots
//! that are `off` (or all slots of lanes outside EXEC) are 0.

use crate::error::{Error, ErrorKind, Result};
use crate::track::Counter;
use crate::wave::Wave;
use gcnc::isa::{Gen, Inst, Operand};

/// What an export target is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Mrt(u8),
    Mrtz,
    Null,
    Pos(u8),
    Prim,
    DualSrc(u8),
    Param(u8),
}

impl Target {
    /// The target of encoding `v` on `gen` (None: not a target there).
    pub fn decode(gen: Gen, v: u32) -> Option<Target> {
        Some(match v {
            0..=7 => Target::Mrt(v as u8),
            8 => Target::Mrtz,
            9 if gen != Gen::Gfx11 => Target::Null,
            12..=15 => Target::Pos(v as u8 - 12),
            16 if gen != Gen::Gfx9 => Target::Pos(4),
            20 if gen != Gen::Gfx9 => Target::Prim,
            21 | 22 if gen == Gen::Gfx11 => Target::DualSrc(v as u8 - 21),
            32..=63 if gen != Gen::Gfx11 => Target::Param(v as u8 - 32),
            _ => return None,
        })
    }

    /// The kind whose `done` ends further exports of that kind.
    fn kind(self) -> usize {
        match self {
            Target::Mrt(_) | Target::Mrtz | Target::Null | Target::DualSrc(_) => 0,
            Target::Pos(_) => 1,
            Target::Prim => 2,
            Target::Param(_) => 3,
        }
    }
}

/// One executed `exp`.
#[derive(Clone, Debug, PartialEq)]
pub struct Export {
    pub target: Target,
    /// Enabled slots (bit i = slot i holds a VGPR).
    pub en: u8,
    /// GFX9/GFX10: slots hold two f16/16-bit values each (slots 0/1 = vsrc0 lo/hi,
    /// 2/3 = vsrc1 lo/hi; `data` keeps the raw VGPRs in slots 0 and 2).
    pub compr: bool,
    pub done: bool,
    /// GFX9/GFX10: EXEC is the pixel valid mask.
    pub vm: bool,
    pub exec: u64,
    /// Per lane (all lanes of the wave): the four slots.
    pub data: Vec<[u32; 4]>,
    pub pc: u64,
}

/// One `s_sendmsg`: the message immediate and M0 at that point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    pub simm16: u32,
    pub m0: Option<u32>,
    pub pc: u64,
}

/// `GS_ALLOC_REQ`'s message id (GFX10/GFX11).
pub const MSG_GS_ALLOC_REQ: u32 = 9;

/// The exports and messages of one graphics wave.
#[derive(Clone, Debug, Default)]
pub struct Exports {
    pub list: Vec<Export>,
    pub messages: Vec<Message>,
    /// An NGG wave: position/primitive exports need `GS_ALLOC_REQ` first.
    pub ngg: bool,
    done: [bool; 4],
}

impl Exports {
    pub fn new(ngg: bool) -> Exports {
        Exports {
            ngg,
            ..Default::default()
        }
    }

    /// Whether a `done` export of the pixel kind (mrt/mrtz/null) was made.
    pub fn pixel_done(&self) -> bool {
        self.done[0]
    }

    /// Whether a `done` position export was made.
    pub fn pos_done(&self) -> bool {
        self.done[1]
    }

    /// The (vertices, primitives) of the `GS_ALLOC_REQ` message, if sent: M0 holds the
    /// vertex count in bits 11:0 and the primitive count in bits 23:12.
    pub fn gs_alloc(&self) -> Option<(u32, u32)> {
        self.messages
            .iter()
            .find(|m| m.simm16 & 0xff == MSG_GS_ALLOC_REQ)
            .and_then(|m| m.m0)
            .map(|m0| (m0 & 0xfff, (m0 >> 12) & 0xfff))
    }

    /// The exports to `t`, in program order.
    pub fn to(&self, t: Target) -> impl Iterator<Item = &Export> {
        self.list.iter().filter(move |e| e.target == t)
    }
}

fn graphics(what: String) -> Error {
    Error::new(ErrorKind::Graphics(what))
}

/// Executes an `exp`.
pub fn exec(w: &mut Wave, inst: &Inst, sink: Option<&mut Exports>) -> Result<()> {
    let Some(sink) = sink else {
        return Err(graphics(
            "export in a compute dispatch (no export targets)".into(),
        ));
    };
    let Some(Operand::Imm(tgt)) = inst.operands.first() else {
        return Err(Error::unsupported("export without a target"));
    };
    let gen = w.t.gen;
    let target = Target::decode(gen, *tgt)
        .ok_or_else(|| graphics(format!("export target {tgt} does not exist on {gen}")))?;
    let m = &inst.mods.mem;
    if m.compr && matches!(target, Target::Pos(_) | Target::Prim | Target::Param(_)) {
        return Err(graphics(format!(
            "compressed export to {target:?}, which takes 32-bit channels"
        )));
    }
    if sink.done[target.kind()] {
        return Err(graphics(format!(
            "export to {target:?} after the final (done) export of its kind"
        )));
    }
    if sink.ngg && matches!(target, Target::Pos(_) | Target::Prim) && sink.gs_alloc().is_none() {
        return Err(graphics(format!(
            "NGG export to {target:?} before s_sendmsg GS_ALLOC_REQ"
        )));
    }
    let exec = w.regs.exec();
    // GFX11 dual-source blending: a pixel's two sources sit in its lane pair, so the data
    // of every pair with a live lane is read (the dead lane's too)
    let read = if matches!(target, Target::DualSrc(_)) {
        let even = 0x5555_5555_5555_5555u64;
        exec | (exec & even) << 1 | (exec & !even) >> 1
    } else {
        exec
    };
    let mut en = 0u8;
    let mut regs = [None; 4];
    for (k, o) in inst.operands[1..].iter().enumerate().take(4) {
        if let Operand::Reg(r) = o {
            en |= 1 << k;
            regs[k] = Some(r.base.0 - 256);
        }
    }
    for v in regs.iter().flatten() {
        w.regs.check_v(*v, read)?;
    }
    let mut data = vec![[0u32; 4]; w.lanes() as usize];
    for (lane, d) in data.iter_mut().enumerate() {
        if read >> lane & 1 == 0 {
            continue;
        }
        for k in 0..4 {
            if let Some(v) = regs[k] {
                d[k] = w.regs.v(v, lane as u32);
            }
        }
    }
    if m.done {
        sink.done[target.kind()] = true;
    }
    sink.list.push(Export {
        target,
        en,
        compr: m.compr,
        done: m.done,
        vm: m.vm,
        exec,
        data,
        pc: w.cur_pc,
    });
    let mut srcs: Vec<(u16, u16)> = regs.iter().flatten().map(|&v| (v + 256, 1)).collect();
    srcs.dedup();
    w.track.issue(
        &[(Counter::Exp, false)],
        w.cur_pc,
        w.cur_text.clone(),
        vec![],
        srcs,
    );
    Ok(())
}
