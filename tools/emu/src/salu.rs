//! Scalar ALU and program control: SOP1, SOP2, SOPC, SOPK, SOPP.
//!
//! Dispatch is by `Opcode` (the generated enum); operands are found by their table field
//! (`Sdst`, `Ssrc0`, `Ssrc1`, `Simm16`), sized by the operand descriptor, so one arm
//! serves every generation that has the instruction. SCC follows the ISA documents: carry
//! / borrow for unsigned add/sub, signed overflow for signed add/sub, "result ≠ 0" for
//! logic, shifts and bit-field ops, the comparison result for compares and min/max.

use crate::error::{Error, ErrorKind, Result};
use crate::track::Counter;
use crate::wave::{Env, Status, Wave};
use gcnc::isa::{simm16, EncDesc, Field, Gen, Inst, Opcode as O, Operand};

struct Ops<'a> {
    inst: &'a Inst,
    d: &'a EncDesc,
}

impl<'a> Ops<'a> {
    fn get(&self, f: Field) -> Result<&'a Operand> {
        self.inst
            .get(self.d, f)
            .ok_or_else(|| Error::unsupported(format!("missing {f:?} operand")))
    }
    fn size(&self, f: Field) -> u8 {
        self.d
            .explicit()
            .find(|o| o.field == f)
            .map(|o| o.size.max(1))
            .unwrap_or(1)
    }
}

fn imm16(o: &Operand) -> u32 {
    match *o {
        Operand::Imm(v) => v & 0xffff,
        _ => 0,
    }
}

pub fn exec(w: &mut Wave, inst: &Inst, d: &EncDesc, env: &mut Env) -> Result<()> {
    let ops = Ops { inst, d };
    let name = inst.op.name();
    let signed = name.contains("_i32") || name.contains("_i64");
    // sources
    let src = |w: &Wave, f: Field| -> Result<u64> {
        let o = ops.get(f)?;
        w.s_read(o, ops.size(f), false, signed)
    };
    macro_rules! s0 {
        () => {
            src(w, Field::Ssrc0)?
        };
    }
    macro_rules! s1 {
        () => {
            src(w, Field::Ssrc1)?
        };
    }
    macro_rules! dst {
        ($v:expr) => {{
            let v: u64 = $v;
            let o = ops.get(Field::Sdst)?;
            w.s_write(o, v)?;
        }};
    }
    macro_rules! dst_scc {
        ($v:expr) => {{
            let v: u64 = $v;
            dst!(v);
            w.regs.set_scc(v != 0);
        }};
    }
    macro_rules! cmp {
        ($ty:ty, $op:tt) => {{
            let a = s0!() as $ty;
            let b = s1!() as $ty;
            w.regs.set_scc(a $op b);
        }};
    }
    macro_rules! cmpk {
        ($signed:expr, $op:tt) => {{
            let a = w.s_read(ops.get(Field::Sdst)?, 1, false, false)? as u32;
            let k = imm16(ops.get(Field::Simm16)?);
            let r = if $signed {
                (a as i32) $op (k as u16 as i16 as i32)
            } else {
                a $op k
            };
            w.regs.set_scc(r);
        }};
    }
    let lanes_mask = w.regs.lane_mask();
    let m64 = |b: u32| -> u64 {
        if b >= 64 {
            u64::MAX
        } else {
            (1u64 << b) - 1
        }
    };
    match inst.op {
        // ---- moves and selects
        O::SMovB32 | O::SMovB64 => dst!(s0!()),
        O::SCmovB32 | O::SCmovB64 => {
            if w.regs.scc()? {
                dst!(s0!())
            }
        }
        O::SCselectB32 | O::SCselectB64 => {
            let (a, b) = (s0!(), s1!());
            dst!(if w.regs.scc()? { a } else { b })
        }
        O::SMovkI32 => dst!(imm16(ops.get(Field::Simm16)?) as u16 as i16 as i32 as u32 as u64),
        O::SCmovkI32 => {
            if w.regs.scc()? {
                dst!(imm16(ops.get(Field::Simm16)?) as u16 as i16 as i32 as u32 as u64)
            }
        }
        // ---- integer arithmetic
        O::SAddU32 => {
            let r = s0!() + s1!();
            dst!(r & 0xffff_ffff);
            w.regs.set_scc(r >> 32 != 0);
        }
        O::SSubU32 => {
            let (a, b) = (s0!() as u32, s1!() as u32);
            dst!(a.wrapping_sub(b) as u64);
            w.regs.set_scc(b > a);
        }
        O::SAddI32 => {
            let (a, b) = (s0!() as i32, s1!() as i32);
            let (r, o) = a.overflowing_add(b);
            dst!(r as u32 as u64);
            w.regs.set_scc(o);
        }
        O::SSubI32 => {
            let (a, b) = (s0!() as i32, s1!() as i32);
            let (r, o) = a.overflowing_sub(b);
            dst!(r as u32 as u64);
            w.regs.set_scc(o);
        }
        O::SAddcU32 => {
            let c = w.regs.scc()? as u64;
            let r = s0!() + s1!() + c;
            dst!(r & 0xffff_ffff);
            w.regs.set_scc(r >> 32 != 0);
        }
        O::SSubbU32 => {
            let c = w.regs.scc()? as u64;
            let (a, b) = (s0!(), s1!());
            dst!(a.wrapping_sub(b).wrapping_sub(c) & 0xffff_ffff);
            w.regs.set_scc(b + c > a);
        }
        O::SAbsdiffI32 => {
            let (a, b) = (s0!() as i32 as i64, s1!() as i32 as i64);
            dst_scc!((a - b).unsigned_abs() as u32 as u64)
        }
        O::SAbsI32 => dst_scc!((s0!() as i32).unsigned_abs() as u64),
        O::SMinI32 | O::SMaxI32 => {
            let (a, b) = (s0!() as i32, s1!() as i32);
            let pick_a = if inst.op == O::SMinI32 { a < b } else { a > b };
            dst!(if pick_a { a } else { b } as u32 as u64);
            w.regs.set_scc(pick_a);
        }
        O::SMinU32 | O::SMaxU32 => {
            let (a, b) = (s0!() as u32, s1!() as u32);
            let pick_a = if inst.op == O::SMinU32 { a < b } else { a > b };
            dst!(if pick_a { a } else { b } as u64);
            w.regs.set_scc(pick_a);
        }
        O::SMulI32 => dst!((s0!() as u32).wrapping_mul(s1!() as u32) as u64),
        O::SMulHiU32 => dst!((s0!() as u32 as u64 * s1!() as u32 as u64) >> 32),
        O::SMulHiI32 => {
            dst!(((s0!() as i32 as i64 * s1!() as i32 as i64) >> 32) as u32 as u64)
        }
        O::SAddkI32 => {
            let a = w.s_read(ops.get(Field::Sdst)?, 1, false, true)? as i32;
            let k = imm16(ops.get(Field::Simm16)?) as u16 as i16 as i32;
            let (r, o) = a.overflowing_add(k);
            dst!(r as u32 as u64);
            w.regs.set_scc(o);
        }
        O::SMulkI32 => {
            let a = w.s_read(ops.get(Field::Sdst)?, 1, false, true)? as i32;
            let k = imm16(ops.get(Field::Simm16)?) as u16 as i16 as i32;
            dst!(a.wrapping_mul(k) as u32 as u64);
        }
        O::SLshl1AddU32 | O::SLshl2AddU32 | O::SLshl3AddU32 | O::SLshl4AddU32 => {
            let n = match inst.op {
                O::SLshl1AddU32 => 1,
                O::SLshl2AddU32 => 2,
                O::SLshl3AddU32 => 3,
                _ => 4,
            };
            let r = (s0!() << n) + s1!();
            dst!(r & 0xffff_ffff);
            w.regs.set_scc(r >> 32 != 0);
        }
        // ---- logic
        O::SAndB32 | O::SAndB64 => dst_scc!(s0!() & s1!()),
        O::SOrB32 | O::SOrB64 => dst_scc!(s0!() | s1!()),
        O::SXorB32 | O::SXorB64 => dst_scc!(s0!() ^ s1!()),
        O::SNandB32 | O::SNandB64 | O::SNorB32 | O::SNorB64 | O::SXnorB32 | O::SXnorB64 => {
            let full = if ops.size(Field::Sdst) == 2 {
                u64::MAX
            } else {
                0xffff_ffff
            };
            let (a, b) = (s0!(), s1!());
            let r = match inst.op {
                O::SNandB32 | O::SNandB64 => !(a & b),
                O::SNorB32 | O::SNorB64 => !(a | b),
                _ => !(a ^ b),
            };
            dst_scc!(r & full)
        }
        O::SAndn2B32 | O::SAndn2B64 | O::SAndNot1B32 | O::SAndNot1B64 => {
            let full = if ops.size(Field::Sdst) == 2 {
                u64::MAX
            } else {
                0xffff_ffff
            };
            dst_scc!(s0!() & !s1!() & full)
        }
        O::SOrn2B32 | O::SOrn2B64 | O::SOrNot1B32 | O::SOrNot1B64 => {
            let full = if ops.size(Field::Sdst) == 2 {
                u64::MAX
            } else {
                0xffff_ffff
            };
            dst_scc!((s0!() | !s1!()) & full)
        }
        O::SNotB32 => dst_scc!(!s0!() & 0xffff_ffff),
        O::SNotB64 => dst_scc!(!s0!()),
        // ---- shifts and bit fields
        O::SLshlB32 => dst_scc!((s0!() << (s1!() & 31)) & 0xffff_ffff),
        O::SLshlB64 => dst_scc!(s0!() << (s1!() & 63)),
        O::SLshrB32 => dst_scc!((s0!() as u32 >> (s1!() & 31)) as u64),
        O::SLshrB64 => dst_scc!(s0!() >> (s1!() & 63)),
        O::SAshrI32 => dst_scc!(((s0!() as i32) >> (s1!() & 31)) as u32 as u64),
        O::SAshrI64 => dst_scc!(((s0!() as i64) >> (s1!() & 63)) as u64),
        O::SBfeU32 | O::SBfeI32 => {
            let (a, b) = (s0!() as u32, s1!() as u32);
            let (off, width) = (b & 31, (b >> 16) & 0x7f);
            let r = if width == 0 {
                0
            } else if inst.op == O::SBfeU32 {
                ((a >> off) as u64 & m64(width)) as u32
            } else {
                let w_ = width.min(32 - off);
                (((a << (32 - off - w_)) as i32) >> (32 - w_)) as u32
            };
            dst_scc!(r as u64)
        }
        O::SBfeU64 | O::SBfeI64 => {
            let (a, b) = (s0!(), s1!() as u32);
            let (off, width) = (b & 63, (b >> 16) & 0x7f);
            let r = if width == 0 {
                0
            } else if inst.op == O::SBfeU64 {
                (a >> off) & m64(width)
            } else {
                let w_ = width.min(64 - off);
                (((a << (64 - off - w_)) as i64) >> (64 - w_)) as u64
            };
            dst_scc!(r)
        }
        O::SBfmB32 => dst!((m64(s0!() as u32 & 31) << (s1!() & 31)) & 0xffff_ffff),
        O::SBfmB64 => dst!(m64(s0!() as u32 & 63) << (s1!() & 63)),
        O::SBrevB32 => dst!((s0!() as u32).reverse_bits() as u64),
        O::SBrevB64 => dst!(s0!().reverse_bits()),
        O::SBcnt0I32B32 => dst_scc!((s0!() as u32).count_zeros() as u64),
        O::SBcnt0I32B64 => dst_scc!(s0!().count_zeros() as u64),
        O::SBcnt1I32B32 => dst_scc!((s0!() as u32).count_ones() as u64),
        O::SBcnt1I32B64 => dst_scc!(s0!().count_ones() as u64),
        O::SFf1I32B32 | O::SCtzI32B32 => {
            let a = s0!() as u32;
            dst!(if a == 0 { u32::MAX } else { a.trailing_zeros() } as u64)
        }
        O::SFf1I32B64 | O::SCtzI32B64 => {
            let a = s0!();
            dst!(if a == 0 { u32::MAX } else { a.trailing_zeros() } as u64)
        }
        O::SFf0I32B32 => {
            let a = s0!() as u32;
            dst!(if a == u32::MAX {
                u32::MAX
            } else {
                a.trailing_ones()
            } as u64)
        }
        O::SFf0I32B64 => {
            let a = s0!();
            dst!(if a == u64::MAX {
                u32::MAX
            } else {
                a.trailing_ones()
            } as u64)
        }
        O::SFlbitI32B32 | O::SClzI32U32 => {
            let a = s0!() as u32;
            dst!(if a == 0 { u32::MAX } else { a.leading_zeros() } as u64)
        }
        O::SFlbitI32B64 | O::SClzI32U64 => {
            let a = s0!();
            dst!(if a == 0 { u32::MAX } else { a.leading_zeros() } as u64)
        }
        O::SFlbitI32 | O::SClsI32 => {
            let a = s0!() as u32;
            let n = if a >> 31 == 1 {
                a.leading_ones()
            } else {
                a.leading_zeros()
            };
            dst!(if n == 32 { u32::MAX } else { n } as u64)
        }
        O::SFlbitI32I64 | O::SClsI32I64 => {
            let a = s0!();
            let n = if a >> 63 == 1 {
                a.leading_ones()
            } else {
                a.leading_zeros()
            };
            dst!(if n == 64 { u32::MAX } else { n } as u64)
        }
        O::SSextI32I8 => dst!(s0!() as u8 as i8 as i32 as u32 as u64),
        O::SSextI32I16 => dst!(s0!() as u16 as i16 as i32 as u32 as u64),
        O::SBitset0B32 | O::SBitset1B32 | O::SBitset0B64 | O::SBitset1B64 => {
            let wide = matches!(inst.op, O::SBitset0B64 | O::SBitset1B64);
            let cur = w.s_read(
                ops.get(Field::Sdst)?,
                if wide { 2 } else { 1 },
                false,
                false,
            )?;
            let bit = s0!() & if wide { 63 } else { 31 };
            let r = if matches!(inst.op, O::SBitset0B32 | O::SBitset0B64) {
                cur & !(1 << bit)
            } else {
                cur | 1 << bit
            };
            dst!(r)
        }
        O::SBitreplicateB64B32 => {
            let a = s0!() as u32;
            let mut r = 0u64;
            for i in 0..32 {
                if a >> i & 1 == 1 {
                    r |= 3 << (2 * i);
                }
            }
            dst!(r)
        }
        O::SQuadmaskB32 | O::SQuadmaskB64 => {
            let a = s0!();
            let mut r = 0u64;
            for i in 0..16 {
                if a >> (4 * i) & 0xf != 0 {
                    r |= 1 << i;
                }
            }
            dst_scc!(r)
        }
        O::SWqmB32 | O::SWqmB64 => {
            let a = s0!();
            let mut r = 0u64;
            for i in 0..16 {
                if a >> (4 * i) & 0xf != 0 {
                    r |= 0xf << (4 * i);
                }
            }
            let full = if ops.size(Field::Sdst) == 2 {
                u64::MAX
            } else {
                0xffff_ffff
            };
            dst_scc!(r & full)
        }
        O::SPackLlB32B16 => dst!((s0!() & 0xffff) | (s1!() & 0xffff) << 16),
        O::SPackLhB32B16 => dst!((s0!() & 0xffff) | (s1!() & 0xffff_0000)),
        O::SPackHhB32B16 => dst!((s0!() >> 16 & 0xffff) | (s1!() & 0xffff_0000)),
        O::SPackHlB32B16 => dst!((s0!() >> 16 & 0xffff) | (s1!() & 0xffff) << 16),
        // ---- compares
        O::SCmpEqI32 | O::SCmpEqU32 => cmp!(u32, ==),
        O::SCmpLgI32 | O::SCmpLgU32 => cmp!(u32, !=),
        O::SCmpGtI32 => cmp!(i32, >),
        O::SCmpGeI32 => cmp!(i32, >=),
        O::SCmpLtI32 => cmp!(i32, <),
        O::SCmpLeI32 => cmp!(i32, <=),
        O::SCmpGtU32 => cmp!(u32, >),
        O::SCmpGeU32 => cmp!(u32, >=),
        O::SCmpLtU32 => cmp!(u32, <),
        O::SCmpLeU32 => cmp!(u32, <=),
        O::SCmpEqU64 => cmp!(u64, ==),
        O::SCmpLgU64 => cmp!(u64, !=),
        O::SBitcmp0B32 => {
            let (a, b) = (s0!(), s1!());
            w.regs.set_scc(a >> (b & 31) & 1 == 0)
        }
        O::SBitcmp1B32 => {
            let (a, b) = (s0!(), s1!());
            w.regs.set_scc(a >> (b & 31) & 1 == 1)
        }
        O::SBitcmp0B64 => {
            let (a, b) = (s0!(), s1!());
            w.regs.set_scc(a >> (b & 63) & 1 == 0)
        }
        O::SBitcmp1B64 => {
            let (a, b) = (s0!(), s1!());
            w.regs.set_scc(a >> (b & 63) & 1 == 1)
        }
        O::SCmpkEqI32 => cmpk!(true, ==),
        O::SCmpkLgI32 => cmpk!(true, !=),
        O::SCmpkGtI32 => cmpk!(true, >),
        O::SCmpkGeI32 => cmpk!(true, >=),
        O::SCmpkLtI32 => cmpk!(true, <),
        O::SCmpkLeI32 => cmpk!(true, <=),
        O::SCmpkEqU32 => cmpk!(false, ==),
        O::SCmpkLgU32 => cmpk!(false, !=),
        O::SCmpkGtU32 => cmpk!(false, >),
        O::SCmpkGeU32 => cmpk!(false, >=),
        O::SCmpkLtU32 => cmpk!(false, <),
        O::SCmpkLeU32 => cmpk!(false, <=),
        // ---- exec manipulation
        _ if name.contains("_saveexec_") || name.contains("_wrexec_") => {
            let a = s0!() & lanes_mask;
            let e = w.regs.exec();
            let base = name.split("_saveexec_").next().unwrap_or(name);
            let base = base.split("_wrexec_").next().unwrap_or(base);
            let r = match base {
                "s_and" => a & e,
                "s_or" => a | e,
                "s_xor" => a ^ e,
                "s_andn2" | "s_and_not1" => a & !e,
                "s_orn2" | "s_or_not1" => a | !e,
                "s_nand" => !(a & e),
                "s_nor" => !(a | e),
                "s_xnor" => !(a ^ e),
                "s_andn1" | "s_and_not0" => !a & e,
                "s_orn1" | "s_or_not0" => !a | e,
                _ => return Err(Error::unimpl(name)),
            } & lanes_mask;
            if name.contains("_saveexec_") {
                dst!(e);
            } else {
                dst!(r);
            }
            w.regs.set_exec(r);
            w.regs.set_scc(r != 0);
        }
        // ---- relative addressing through M0
        O::SMovrelsB32 | O::SMovrelsB64 => {
            let m0 = w.regs.s(124)?;
            let Operand::Reg(r) = *ops.get(Field::Ssrc0)? else {
                return Err(Error::unsupported("s_movrels source must be an SGPR"));
            };
            let n = r.base.0 as u32 + m0;
            let lo = w.regs.s(n as u16)? as u64;
            let v = if inst.op == O::SMovrelsB64 {
                lo | (w.regs.s(n as u16 + 1)? as u64) << 32
            } else {
                lo
            };
            dst!(v)
        }
        O::SMovreldB32 | O::SMovreldB64 => {
            let m0 = w.regs.s(124)?;
            let v = s0!();
            let Operand::Reg(r) = *ops.get(Field::Sdst)? else {
                return Err(Error::unsupported("s_movreld destination must be an SGPR"));
            };
            let n = (r.base.0 as u32 + m0) as u16;
            w.regs.set_s(n, v as u32)?;
            if inst.op == O::SMovreldB64 {
                w.regs.set_s(n + 1, (v >> 32) as u32)?;
            }
        }
        // ---- program counter
        O::SGetpcB64 => dst!(env.prog.base + w.cur_pc + 4),
        O::SSetpcB64 => {
            let a = s0!();
            w.next_pc = Some(a.wrapping_sub(env.prog.base));
        }
        O::SSwappcB64 => {
            let a = s0!();
            dst!(env.prog.base + w.cur_pc + 4);
            w.next_pc = Some(a.wrapping_sub(env.prog.base));
        }
        O::SCallB64 => {
            let k = imm16(ops.get(Field::Simm16)?);
            dst!(env.prog.base + w.cur_pc + 4);
            w.branch_rel(k);
        }
        O::SBranch => w.branch_rel(imm16(ops.get(Field::Simm16)?)),
        O::SCbranchScc0 | O::SCbranchScc1 => {
            let want = inst.op == O::SCbranchScc1;
            if w.regs.scc()? == want {
                w.branch_rel(imm16(ops.get(Field::Simm16)?));
            }
        }
        O::SCbranchVccz | O::SCbranchVccnz => {
            let vcc = w.read_mask(106)?;
            if (vcc == 0) == (inst.op == O::SCbranchVccz) {
                w.branch_rel(imm16(ops.get(Field::Simm16)?));
            }
        }
        O::SCbranchExecz | O::SCbranchExecnz => {
            let e = w.regs.exec();
            if (e == 0) == (inst.op == O::SCbranchExecz) {
                w.branch_rel(imm16(ops.get(Field::Simm16)?));
            }
        }
        O::SEndpgm => w.status = Status::Ended,
        O::STrap => {
            return Err(Error::new(ErrorKind::Trap(imm16(ops.get(Field::Simm16)?))));
        }
        // ---- waits and no-ops
        O::SWaitcnt => {
            let v = imm16(ops.get(Field::Simm16)?);
            waitcnt(w, v);
        }
        O::SWaitcntVscnt | O::SWaitcntVmcnt | O::SWaitcntLgkmcnt | O::SWaitcntExpcnt => {
            let reg = ops.get(Field::Sdst)?;
            let k = imm16(ops.get(Field::Simm16)?);
            let n = match reg {
                Operand::Reg(r) if r.base.0 == 125 => k,
                o => (w.s_read(o, 1, false, false)? as u32).min(k),
            };
            let c = match inst.op {
                O::SWaitcntVscnt => Counter::Vs,
                O::SWaitcntVmcnt => Counter::Vm,
                O::SWaitcntLgkmcnt => Counter::Lgkm,
                _ => Counter::Exp,
            };
            w.track.wait(c, n as usize);
        }
        O::SNop
        | O::SSleep
        | O::SSetprio
        | O::SDelayAlu
        | O::SClause
        | O::SWaitcntDepctr
        | O::SSetInstPrefetchDistance
        | O::SInstPrefetch
        | O::SIncperflevel
        | O::SDecperflevel
        | O::STtracedataImm
        | O::SSetkill
        | O::SVersion
        | O::SWaitEvent => {}
        // debugger branches: never taken (no debugger attached)
        O::SCbranchCdbgsys
        | O::SCbranchCdbguser
        | O::SCbranchCdbgsysOrUser
        | O::SCbranchCdbgsysAndUser => {}
        O::SSendmsg | O::SSendmsghalt => {
            // compute shaders only send housekeeping messages (e.g. GFX11 DEALLOC_VGPRS);
            // a graphics wave's messages (NGG GS_ALLOC_REQ with its counts in M0) go to
            // its export sink; they count on lgkmcnt like any message
            if let Some(sink) = env.exports.as_deref_mut() {
                let m0 = w.regs.s(124).ok();
                sink.messages.push(crate::export::Message {
                    simm16: imm16(ops.get(Field::Simm16)?),
                    m0,
                    pc: w.cur_pc,
                });
            }
            w.track.issue(
                &[(Counter::Lgkm, true)],
                w.cur_pc,
                w.cur_text.clone(),
                vec![],
                vec![],
            );
            if inst.op == O::SSendmsghalt {
                w.status = Status::Ended;
            }
        }
        O::SRoundMode => {
            let k = imm16(ops.get(Field::Simm16)?);
            w.mode = (w.mode & !0xf) | (k & 0xf);
        }
        O::SDenormMode => {
            let k = imm16(ops.get(Field::Simm16)?);
            w.mode = (w.mode & !0xf0) | (k & 0xf) << 4;
        }
        O::SGetregB32 | O::SSetregB32 | O::SSetregImm32B32 => hwreg(w, &ops)?,
        _ => {
            if inst.op.props().contains(gcnc::isa::Props::BARRIER) {
                crate::ds::check_barrier(w)?;
                let exec = w.regs.exec();
                if env.checks.barriers && w.launched != 0 && exec != w.launched {
                    return Err(Error::new(ErrorKind::DivergentBarrier(format!(
                        "s_barrier with EXEC {exec:#x} while the wave's invocations are {:#x}",
                        w.launched
                    ))));
                }
                w.barriers += 1;
                w.barrier_pc = w.cur_pc;
                w.status = Status::AtBarrier;
                return Ok(());
            }
            return Err(Error::unimpl(name));
        }
    }
    Ok(())
}

/// Applies an `s_waitcnt` immediate: the per-generation field layout is the ISA layer's
/// (`simm16::print_waitcnt`), read back from its text so the layout lives in one place.
pub fn waitcnt(w: &mut Wave, v: u32) {
    let text = simm16::print_waitcnt(w.t.gen, v);
    for part in text.split_whitespace() {
        let Some((name, rest)) = part.split_once('(') else {
            continue;
        };
        let Ok(n) = rest.trim_end_matches(')').parse::<usize>() else {
            continue;
        };
        let c = match name {
            "vmcnt" => Counter::Vm,
            "lgkmcnt" => Counter::Lgkm,
            "expcnt" => Counter::Exp,
            _ => continue,
        };
        w.track.wait(c, n);
    }
}

/// s_getreg / s_setreg: only HW_REG_MODE (id 1) is modelled.
fn hwreg(w: &mut Wave, ops: &Ops) -> Result<()> {
    let h = imm16(ops.get(Field::Simm16)?);
    let (id, off, size) = (h & 0x3f, (h >> 6) & 0x1f, ((h >> 11) & 0x1f) + 1);
    // GFX10.3 FLAT_SCR_LO / FLAT_SCR_HI (ids 20, 21), whole-register writes only
    if (id == 20 || id == 21) && w.t.gen == Gen::Gfx10 && ops.inst.op == O::SSetregB32 {
        if off != 0 || size != 32 {
            return Err(Error::unsupported("partial FLAT_SCR setreg"));
        }
        let v = w.s_read(ops.get(Field::Sdst)?, 1, false, false)? as u32;
        w.flat_scr[(id - 20) as usize] = Some(v);
        return Ok(());
    }
    if id != 1 {
        return Err(Error::unsupported(format!("hardware register id {id}")));
    }
    let mask = (if size >= 32 {
        u32::MAX
    } else {
        (1u32 << size) - 1
    }) << off;
    match ops.inst.op {
        O::SGetregB32 => {
            let v = (w.mode & mask) >> off;
            w.s_write(ops.get(Field::Sdst)?, v as u64)?;
        }
        O::SSetregB32 => {
            let v = w.s_read(ops.get(Field::Sdst)?, 1, false, false)? as u32;
            w.mode = (w.mode & !mask) | ((v << off) & mask);
        }
        _ => {
            let v = match *ops.get(Field::Imm32)? {
                Operand::Literal(v) | Operand::Imm(v) => v,
                _ => 0,
            };
            w.mode = (w.mode & !mask) | ((v << off) & mask);
        }
    }
    let _ = Gen::Gfx9;
    Ok(())
}
