//! Pseudo instructions → real instructions, after register allocation.
//!
//! - `p_startpgm` disappears (the hardware already wrote its registers).
//! - `p_parallelcopy`, `p_create_vector`, `p_split_vector` become one parallel copy of
//!   dwords, sequentialised: a move is emitted once no pending move still reads its
//!   destination; when only cycles remain, one pair is exchanged (`v_swap_b32` for VGPRs,
//!   three `s_xor_b32` for SGPRs — which clobber SCC, so copies are only placed where SCC
//!   is dead: before a block's branch compare) and the cycle's other reads are renamed.
//!   Identity moves vanish. Constants are written last-possible like any move.
//! - `p_start_linear_vgpr` disappears; `p_spill` / `p_reload` of SGPRs become
//!   `v_writelane_b32` / `v_readlane_b32`, one lane per dword (they ignore exec).
//!
//! Invariant: the result contains only `Op::Hw` instructions on physical registers.

use crate::amdgpu::mir::{Arg, MInst, Op, Program, Pseudo};
use crate::amdgpu::Error;
use crate::isa::{Format, Opcode, PhysReg, Reg};

/// One dword move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    Reg(PhysReg),
    Const(u32),
}

fn op(gen: crate::isa::Gen, o: Opcode) -> Result<Opcode, Error> {
    o.on(gen)
        .ok_or_else(|| Error::Verify(format!("{} missing on {}", o.name(), gen.mcpu())))
}

fn dwords(a: &Arg) -> Result<Vec<Src>, Error> {
    match *a {
        Arg::Reg(r) => Ok((0..r.count as u16)
            .map(|k| Src::Reg(PhysReg(r.base.0 + k)))
            .collect()),
        Arg::Const(c) => Ok(vec![Src::Const(c)]),
        _ => Err(Error::Verify(format!(
            "copy operand {a:?} after allocation"
        ))),
    }
}

fn r1(p: PhysReg) -> Arg {
    Arg::Reg(Reg { base: p, count: 1 })
}

/// Sequentialises `moves` (dst, src) into real instructions appended to `out`.
pub fn sequentialise(
    gen: crate::isa::Gen,
    mut moves: Vec<(PhysReg, Src)>,
    out: &mut Vec<MInst>,
) -> Result<usize, Error> {
    let mov = |d: PhysReg, s: Src| -> Result<MInst, Error> {
        let sa = match s {
            Src::Reg(r) => r1(r),
            Src::Const(c) => Arg::Const(c),
        };
        Ok(if d.is_vgpr() {
            MInst::hw(op(gen, Opcode::VMovB32)?, Format::Vop1, &[r1(d)], &[sa])
        } else {
            MInst::hw(op(gen, Opcode::SMovB32)?, Format::Sop1, &[r1(d)], &[sa])
        })
    };
    moves.retain(|(d, s)| *s != Src::Reg(*d));
    let mut emitted = 0;
    while !moves.is_empty() {
        let ready = (0..moves.len()).find(|&k| {
            let d = moves[k].0;
            !moves.iter().any(|(_, s)| *s == Src::Reg(d))
        });
        if let Some(k) = ready {
            let (d, s) = moves.remove(k);
            out.push(mov(d, s)?);
            emitted += 1;
            continue;
        }
        // every remaining destination is read by another move: a cycle. Swap the first
        // move's destination with its source, then redirect reads.
        let (d, s) = moves.remove(0);
        let Src::Reg(s) = s else {
            unreachable!("constants never form cycles")
        };
        if d.is_vgpr() != s.is_vgpr() {
            return Err(Error::Verify("copy cycle across register files".into()));
        }
        if d.is_vgpr() {
            out.push(MInst::hw(
                op(gen, Opcode::VSwapB32)?,
                Format::Vop1,
                &[r1(d)],
                &[r1(s)],
            ));
        } else {
            let x = op(gen, Opcode::SXorB32)?;
            out.push(MInst::hw(x, Format::Sop2, &[r1(d)], &[r1(d), r1(s)]));
            out.push(MInst::hw(x, Format::Sop2, &[r1(s)], &[r1(s), r1(d)]));
            out.push(MInst::hw(x, Format::Sop2, &[r1(d)], &[r1(d), r1(s)]));
        }
        emitted += 1;
        // d now holds old s (done) and s holds old d: exchange the two in pending reads
        for m in &mut moves {
            if m.1 == Src::Reg(d) {
                m.1 = Src::Reg(s);
            } else if m.1 == Src::Reg(s) {
                m.1 = Src::Reg(d);
            }
        }
        moves.retain(|(d, s)| *s != Src::Reg(*d));
    }
    Ok(emitted)
}

/// `p_spill` / `p_reload` of an SGPR value: one `v_writelane_b32` / `v_readlane_b32`
/// per dword, lane `slot + k` of the linear VGPR. Both ignore exec, so the slot is
/// written and read whatever lanes are active.
fn lower_lane_spill(gen: crate::isa::Gen, i: &MInst, out: &mut Vec<MInst>) -> Result<(), Error> {
    let spill = i.op == Op::Pseudo(Pseudo::Spill);
    let (value, lane) = if spill {
        (i.ops[1], i.ops[2])
    } else {
        (i.defs[0], i.ops[1])
    };
    let (Arg::Reg(v), Arg::Reg(s), Arg::Imm(lane)) = (i.ops[0], value, lane) else {
        return Err(Error::Verify(format!(
            "spill operands {i:?} after allocation"
        )));
    };
    for k in 0..s.count as u16 {
        let sk = r1(PhysReg(s.base.0 + k));
        let l = Arg::Const(lane + k as u32);
        out.push(if spill {
            MInst::hw(
                op(gen, Opcode::VWritelaneB32)?,
                Format::Vop3,
                &[r1(v.base)],
                &[sk, l],
            )
        } else {
            MInst::hw(
                op(gen, Opcode::VReadlaneB32)?,
                Format::Vop3,
                &[sk],
                &[r1(v.base), l],
            )
        });
    }
    Ok(())
}

/// Lowers every pseudo instruction of `p`; returns the number of copy instructions
/// emitted (RADV's "Copies").
pub fn lower_to_hw(p: &mut Program) -> Result<u32, Error> {
    let gen = p.target.gen;
    let mut copies = 0;
    for b in &mut p.blocks {
        let mut out = Vec::with_capacity(b.insts.len());
        for i in std::mem::take(&mut b.insts) {
            let Op::Pseudo(ps) = i.op else {
                out.push(i);
                continue;
            };
            let (dsts, srcs): (Vec<&Arg>, Vec<&Arg>) = match ps {
                Pseudo::StartPgm | Pseudo::StartLinearVgpr => continue,
                // emission writes it (it needs the data's distance from the code)
                Pseudo::ConstDataAddr => {
                    out.push(i);
                    continue;
                }
                Pseudo::Spill | Pseudo::Reload => {
                    lower_lane_spill(gen, &i, &mut out)?;
                    continue;
                }
                Pseudo::ParallelCopy => (i.defs.iter().collect(), i.ops.iter().collect()),
                Pseudo::CreateVector => (i.defs.iter().collect(), i.ops.iter().collect()),
                Pseudo::SplitVector => (i.defs.iter().collect(), i.ops.iter().collect()),
            };
            let mut d = Vec::new();
            for a in dsts {
                for s in dwords(a)? {
                    let Src::Reg(r) = s else { unreachable!() };
                    d.push(r);
                }
            }
            let mut s = Vec::new();
            for a in srcs {
                s.extend(dwords(a)?);
            }
            if d.len() != s.len() {
                // a constant copied into a tuple: only 0 or -1 style splats are produced
                if s.len() == 1 {
                    s = vec![s[0]; d.len()];
                } else {
                    return Err(Error::Verify("copy size mismatch".into()));
                }
            }
            let moves = d.into_iter().zip(s).collect();
            copies += sequentialise(gen, moves, &mut out)? as u32;
        }
        b.insts = out;
    }
    Ok(copies)
}
