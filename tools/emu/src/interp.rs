//! Attribute interpolation in pixel waves: GFX9/GFX10.3 VINTRP (`v_interp_p1_f32`,
//! `v_interp_p2_f32`, `v_interp_mov_f32`), GFX11 LDSDIR `lds_param_load` and VINTERP
//! (`v_interp_p10_f32`, `v_interp_p2_f32`).
//!
//! The attribute data of the wave's primitives sits in the LDS, written by the pixel
//! launch (`draw`) before the wave runs. The layout is the emulator's (the hardware's
//! parameter cache is not visible to a shader beyond what these instructions read):
//! - M0 = `{lds_param_offset[31:16], new_prim_mask[15:1], -[0]}`: the byte offset of
//!   the wave's first primitive block, and one bit per quad 1..15 saying "this quad
//!   starts the next primitive" (quad 0 always uses the first). A lane's primitive is
//!   the number of set bits among quads 1..=its quad.
//! - Primitive `p`'s block is at `lds_param_offset + p · Wave::param_bytes`; attribute
//!   `a` within it at `a · 48`: three 4-channel vectors P0, P10, P20 (channel `c` of
//!   vector `k` at `(4k + c) · 4`), where P10 = attr(v1) − attr(v0), P20 = attr(v2) −
//!   attr(v0) and P0 = attr(v0) (flat shading: P10 = P20 = 0, P0 = the provoking vertex).
//! - Passthrough (SPI_PS_INPUT_CNTL FLAT_SHADE with OFFSET bit 5, how RADV programs the
//!   `pervertexEXT` inputs of VK_KHR_fragment_shader_barycentric): P0, P10, P20 are the
//!   *raw* values of the primitive's three vertices, no differences — ACO reads vertex v
//!   with `v_interp_mov_f32` parameter (v + 2) mod 3 (P10 = 0, P20 = 1, P0 = 2) on
//!   GFX9/10.3, and on GFX11 with `lds_param_load` (lanes 0/1/2 of a quad = P0/P10/P20)
//!   then a DPP quad_perm(v, v, v, v) broadcast. Which vertex is which: the hardware's
//!   parameter cache keeps a primitive's vertices in a per-primitive cyclic rotation of
//!   the API order; SPI_PS_INPUT_CNTL.ROTATE_PC_PTR (GFX10.3+) restores the API order,
//!   which is why RADV exposes VK_KHR_fragment_shader_barycentric from GFX10.3 only. The
//!   emulator is stricter than "some rotation": without ROTATE_PC_PTR it rotates
//!   primitive p's vertices by p mod 3, so code relying on an order the hardware does not
//!   promise reads wrong vertices (`draw/pixel.rs`). Sources: ACO's
//!   `emit_interp_mov_instr` and RADV's SPI_PS_INPUT_CNTL for explicit/per-vertex inputs
//!   (Mesa, facts only).
//!
//! Semantics (f32, each a single fused multiply-add):
//! - `v_interp_p1_f32 D, I, attr.c`: D = P10·I + P0; `v_interp_p2_f32 D, J, attr.c`:
//!   D = P20·J + D; `v_interp_mov_f32 D, pN, attr.c`: D = P10 / P20 / P0 (param 0/1/2).
//! - `lds_param_load D, attr.c`: per quad, lane 0 ← P0, lane 1 ← P10, lane 2 ← P20,
//!   lane 3 ← 0, for the lanes of EXEC; it completes asynchronously on `expcnt` (its D is
//!   pending there until a wait: `s_waitcnt_expcnt` or a VINTERP `wait_exp`).
//! - `v_interp_p10_f32 D, A, I, B`: D = A[quad lane 1]·I + B[quad lane 0];
//!   `v_interp_p2_f32 D, A, J, B`: D = A[quad lane 2]·J + B. `neg` negates sources,
//!   `clamp` clamps to [0, 1]. `wait_exp:N` first waits until at most N `expcnt`
//!   operations are outstanding (applied in `wave.rs` before the register checks).
//!   The quad lanes read must hold values: an interpolation whose quad neighbours were
//!   not in EXEC at the `lds_param_load` (no WQM) reads never-written lanes (an error).
//!
//! The f16 VINTERP forms and LDSDIR `lds_direct_load` are `Unimplemented`.

use crate::error::{Error, Result};
use crate::track::Counter;
use crate::wave::{Env, Wave};
use gcnc::isa::{Inst, Opcode, Operand};

/// Bytes of one attribute in a primitive block (P0, P10, P20 × 4 channels).
pub const ATTR_BYTES: u32 = 48;

fn vgpr(o: &Operand) -> Result<u16> {
    match o {
        Operand::Reg(r) if r.base.is_vgpr() => Ok(r.base.0 - 256),
        _ => Err(Error::unsupported("interpolation operand is not a VGPR")),
    }
}

fn imm(o: Option<&Operand>) -> Result<u32> {
    match o {
        Some(Operand::Imm(v)) => Ok(*v),
        _ => Err(Error::unsupported(
            "interpolation operand is not an immediate",
        )),
    }
}

/// The primitive of each quad under M0's `new_prim_mask`.
pub fn quad_prim(m0: u32, quad: u32) -> u32 {
    let upto = if quad >= 15 {
        0xffff
    } else {
        (2u32 << quad) - 1
    };
    (m0 & 0xfffe & upto).count_ones()
}

/// Reads P0 / P10 / P20 (`k` = 0 / 1 / 2) of `attr_chan` (attr·4 + chan) for `lane`.
fn param(w: &Wave, env: &Env, m0: u32, attr_chan: u32, k: u32, lane: u32) -> Result<u32> {
    if w.param_bytes == 0 {
        return Err(Error::new(crate::error::ErrorKind::Graphics(
            "interpolation in a wave without attribute data (not a pixel wave)".into(),
        )));
    }
    let (attr, chan) = (attr_chan / 4, attr_chan % 4);
    let prim = quad_prim(m0, lane / 4);
    let addr = (m0 >> 16) + prim * w.param_bytes + attr * ATTR_BYTES + (4 * k + chan) * 4;
    if attr * ATTR_BYTES >= w.param_bytes {
        return Err(Error::new(crate::error::ErrorKind::Graphics(format!(
            "attribute {attr} is beyond the {} attributes delivered to the pixel shader",
            w.param_bytes / ATTR_BYTES
        ))));
    }
    env.lds.read_u32(addr).ok_or_else(|| {
        Error::new(crate::error::ErrorKind::LdsOutOfRange {
            addr: addr as u64,
            size: 4,
            lds_bytes: env.lds.bytes.len() as u64,
            write: false,
        })
    })
}

fn fma(a: u32, b: u32, c: u32) -> u32 {
    f32::from_bits(a)
        .mul_add(f32::from_bits(b), f32::from_bits(c))
        .to_bits()
}

/// Executes a VINTRP, LDSDIR or VINTERP instruction.
pub fn exec(w: &mut Wave, inst: &Inst, env: &mut Env) -> Result<()> {
    let exec = w.regs.exec();
    let lanes = w.lanes();
    match inst.op {
        Opcode::VInterpP1F32 | Opcode::VInterpP2F32 | Opcode::VInterpMovF32
            if inst.format == gcnc::isa::Format::Vintrp =>
        {
            let m0 = w.regs.s(124)?;
            let d = vgpr(&inst.operands[0])?;
            let attr = imm(inst.operands.get(2))?;
            let (src, p2) = match inst.op {
                Opcode::VInterpMovF32 => (None, false),
                op => (Some(vgpr(&inst.operands[1])?), op == Opcode::VInterpP2F32),
            };
            if let Some(s) = src {
                w.regs.check_v(s, exec)?;
            }
            if p2 {
                w.regs.check_v(d, exec)?;
            }
            let mut out = Vec::new();
            for lane in (0..lanes).filter(|l| exec >> l & 1 == 1) {
                let v = match (inst.op, src) {
                    (Opcode::VInterpMovF32, _) => {
                        let k = match imm(inst.operands.get(1))? {
                            0 => 1,
                            1 => 2,
                            2 => 0,
                            p => {
                                return Err(Error::unsupported(format!(
                                    "v_interp_mov_f32 parameter {p}"
                                )))
                            }
                        };
                        param(w, env, m0, attr, k, lane)?
                    }
                    (_, Some(s)) if p2 => fma(
                        param(w, env, m0, attr, 2, lane)?,
                        w.regs.v(s, lane),
                        w.regs.v(d, lane),
                    ),
                    (_, Some(s)) => fma(
                        param(w, env, m0, attr, 1, lane)?,
                        w.regs.v(s, lane),
                        param(w, env, m0, attr, 0, lane)?,
                    ),
                    _ => unreachable!("VINTRP p1/p2 always have a source"),
                };
                out.push((lane, v));
            }
            for (lane, v) in out {
                w.regs.set_v(d, lane, v)?;
            }
        }
        Opcode::LdsParamLoad => {
            let m0 = w.regs.s(124)?;
            let d = vgpr(&inst.operands[0])?;
            let attr = imm(inst.operands.get(1))?;
            let mut out = Vec::new();
            for lane in (0..lanes).filter(|l| exec >> l & 1 == 1) {
                let v = match lane % 4 {
                    3 => 0,
                    k => param(w, env, m0, attr, k, lane)?,
                };
                out.push((lane, v));
            }
            for (lane, v) in out {
                w.regs.set_v(d, lane, v)?;
            }
            w.track.issue(
                &[(Counter::Exp, false)],
                w.cur_pc,
                w.cur_text.clone(),
                vec![(d + 256, 1)],
                vec![],
            );
        }
        Opcode::VInterpP10F32 | Opcode::VInterpP2F32 => {
            let [d, a, s, b] = [0, 1, 2, 3].map(|i| vgpr(&inst.operands[i]));
            let (d, a, s, b) = (d?, a?, s?, b?);
            let p10 = inst.op == Opcode::VInterpP10F32;
            // the quad lanes each source is read from
            let mut quads = 0u64;
            for q in 0..lanes / 4 {
                if exec >> (4 * q) & 0xf != 0 {
                    quads |= 0xf << (4 * q);
                }
            }
            let pick = |base: u64, k: u32| -> u64 {
                let mut m = 0;
                for q in 0..lanes / 4 {
                    if base >> (4 * q) & 0xf != 0 {
                        m |= 1 << (4 * q + k);
                    }
                }
                m
            };
            w.regs.check_v(a, pick(quads, if p10 { 1 } else { 2 }))?;
            w.regs.check_v(s, exec)?;
            w.regs.check_v(b, if p10 { pick(quads, 0) } else { exec })?;
            let neg = inst.mods.neg;
            let sign = |v: u32, i: u8| {
                if neg >> i & 1 == 1 {
                    v ^ 0x8000_0000
                } else {
                    v
                }
            };
            let mut out = Vec::new();
            for lane in (0..lanes).filter(|l| exec >> l & 1 == 1) {
                let q = lane & !3;
                let av = w.regs.v(a, q + if p10 { 1 } else { 2 });
                let bv = w.regs.v(b, if p10 { q } else { lane });
                let mut r = fma(sign(av, 0), sign(w.regs.v(s, lane), 1), sign(bv, 2));
                if inst.mods.clamp {
                    // max(0) maps NaN to 0, as the hardware's clamp does
                    r = f32::from_bits(r).max(0.0).clamp(0.0, 1.0).to_bits();
                }
                out.push((lane, r));
            }
            for (lane, v) in out {
                w.regs.set_v(d, lane, v)?;
            }
        }
        _ => {
            return Err(Error::unimpl(format!(
                "{} (interpolation form not modelled)",
                inst.op.name()
            )))
        }
    }
    Ok(())
}
