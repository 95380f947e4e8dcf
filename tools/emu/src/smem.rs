//! Scalar memory: `s_load_*` (64-bit address in an SGPR pair + byte offset),
//! `s_buffer_load_*` (a V# in four SGPRs; dwords whose byte offset is ≥ num_records read
//! as 0), `s_memtime`/`s_memrealtime` (the wave's executed-instruction count, so runs are
//! deterministic) and the cache-control no-ops. Results are written at issue and recorded
//! as pending on lgkmcnt, out of order (see `track`). Offsets: GFX9 20-bit unsigned,
//! GFX10+ 21-bit signed; the address is aligned down to 4 bytes.

use crate::error::{Error, Result};
use crate::memory::BufferDesc;
use crate::track::Counter;
use crate::wave::{Env, Wave};
use gcnc::isa::{EncDesc, Field, Gen, Inst, Operand};

pub fn exec(w: &mut Wave, inst: &Inst, d: &EncDesc, env: &mut Env) -> Result<()> {
    let name = inst.op.name();
    let get = |f: Field| inst.get(d, f).copied();
    let pending_srcs = |o: Option<Operand>| -> Vec<(u16, u16)> {
        match o {
            Some(Operand::Reg(r)) => vec![(r.base.0, r.count as u16)],
            _ => vec![],
        }
    };
    if name == "s_memtime" || name == "s_memrealtime" {
        let dst = get(Field::Sdata).ok_or_else(|| Error::unsupported("s_memtime dst"))?;
        w.s_write(&dst, w.executed)?;
        let ds = pending_srcs(Some(dst));
        w.track.issue(
            &[(Counter::Lgkm, true)],
            w.cur_pc,
            w.cur_text.clone(),
            ds,
            vec![],
        );
        return Ok(());
    }
    if name.starts_with("s_dcache_") || name == "s_gl1_inv" || name.starts_with("s_atc_probe") {
        w.track.issue(
            &[(Counter::Lgkm, true)],
            w.cur_pc,
            w.cur_text.clone(),
            vec![],
            vec![],
        );
        return Ok(());
    }
    let store = name.starts_with("s_store") || name.starts_with("s_buffer_store");
    let buffer = name.starts_with("s_buffer_load") || name.starts_with("s_buffer_store");
    if !(name.starts_with("s_load") || buffer || store) {
        return Err(Error::unimpl(name));
    }
    let sdata = get(Field::Sdata).ok_or_else(|| Error::unsupported("SMEM sdata"))?;
    let sbase = get(Field::Sbase).ok_or_else(|| Error::unsupported("SMEM sbase"))?;
    let Operand::Reg(dr) = sdata else {
        return Err(Error::unsupported("SMEM sdata must be SGPRs"));
    };
    let Operand::Reg(br) = sbase else {
        return Err(Error::unsupported("SMEM sbase must be SGPRs"));
    };
    // offset: an immediate (GFX9 unsigned, GFX10+ signed 21 bits), or an SGPR plus the
    // `offset:` immediate that may accompany it
    let off: i64 = match get(Field::Offset) {
        Some(Operand::Imm(v)) if w.t.gen == Gen::Gfx9 => v as i64,
        Some(Operand::Imm(v)) => ((v << 11) as i32 >> 11) as i64,
        Some(o @ Operand::Reg(_)) => {
            let sv = w.s_read(&o, 1, false, false)? as u32 as i64;
            let extra = inst.mods.offset;
            let extra = if w.t.gen == Gen::Gfx9 {
                extra as i64
            } else {
                ((extra << 11) as i32 >> 11) as i64
            };
            sv + extra
        }
        _ => 0,
    };
    let n = dr.count as u64;
    if store {
        // address as for loads; data from sdata; out-of-range buffer dwords are dropped
        let (base, limit) = if buffer {
            let mut v = [0u32; 4];
            for (k, x) in v.iter_mut().enumerate() {
                *x = w.regs.s(br.base.0 + k as u16)?;
            }
            let desc = BufferDesc::decode(w.t.gen, v);
            (desc.base, Some(desc.num_records as u64))
        } else {
            let lo = w.regs.s(br.base.0)? as u64;
            let hi = w.regs.s(br.base.0 + 1)? as u64;
            (lo | hi << 32, None)
        };
        let start = (base as i64).wrapping_add(if buffer { 0 } else { off }) as u64;
        let rel = if buffer { (off & !3) as u64 } else { 0 };
        for k in 0..n {
            let o = rel + 4 * k;
            if limit.is_some_and(|l| o + 4 > l) {
                continue;
            }
            let v = w.regs.s(dr.base.0 + k as u16)?;
            env.mem.write_u32((start.wrapping_add(o)) & !3, v)?;
        }
        w.track.issue(
            &[(Counter::Lgkm, true)],
            w.cur_pc,
            w.cur_text.clone(),
            vec![],
            vec![(dr.base.0, dr.count as u16), (br.base.0, br.count as u16)],
        );
        return Ok(());
    }
    let mut vals = Vec::with_capacity(n as usize);
    if buffer {
        let mut v = [0u32; 4];
        for (k, x) in v.iter_mut().enumerate() {
            *x = w.regs.s(br.base.0 + k as u16)?;
        }
        let desc = BufferDesc::decode(w.t.gen, v);
        let start = (off & !3) as u64;
        for k in 0..n {
            // an offset whose dword runs past 2^64 is out of range, as is one past NUM_RECORDS
            let o = start.checked_add(4 * k);
            if let Some(o) = o.filter(|o| {
                o.checked_add(4)
                    .is_some_and(|e| e <= desc.num_records as u64)
            }) {
                vals.push(env.mem.read_u32(desc.base.wrapping_add(o))?);
            } else {
                vals.push(0);
            }
        }
    } else {
        let lo = w.regs.s(br.base.0)? as u64;
        let hi = w.regs.s(br.base.0 + 1)? as u64;
        let addr = ((lo | hi << 32) as i64).wrapping_add(off) as u64 & !3;
        for k in 0..n {
            vals.push(env.mem.read_u32(addr.wrapping_add(4 * k))?);
        }
    }
    for (k, v) in vals.into_iter().enumerate() {
        w.regs.set_s(dr.base.0 + k as u16, v)?;
    }
    w.track.issue(
        &[(Counter::Lgkm, true)],
        w.cur_pc,
        w.cur_text.clone(),
        vec![(dr.base.0, dr.count as u16)],
        vec![(br.base.0, br.count as u16)],
    );
    Ok(())
}
