//! LDS instructions (DS format) on the workgroup's `Lds`.
//!
//! Address = ADDR VGPR + `offset` (bytes); the two-address forms use offset0/offset1
//! (low/high byte of the offset) scaled by the element size, ×64 for the stride64 forms.
//! Accesses outside the workgroup's LDS allocation are errors (`LdsOutOfRange`) under
//! `Checks::lds_bounds` (on by default); without it they read 0 and drop writes, as the
//! hardware's LDS range check does. Returning ops write VDST. Every DS op is pending on
//! lgkmcnt, in order with other DS ops. Names of GFX9/10 (`ds_read_b32`, `ds_write2_b32`,
//! `ds_wrxchg_rtn_b32`, `ds_cmpst_b32`) and GFX11 (`ds_load_b32`, `ds_store_2addr_b32`,
//! `ds_storexchg_rtn_b32`, `ds_cmpstore_b32`) map to the same semantics; note the compare
//! operand order differs: GFX9/10 cmpst has DATA0 = compare, GFX11 cmpstore DATA1 = compare.
//! d16 loads fill one half of VDST and keep the other; d16_hi stores write the high half.
//! GDS, ds_swizzle (not in the ISA tables), ds_append/consume and the addtid / gws / bvh
//! forms are not modelled (an `Unimplemented` / `Unsupported` error).

use crate::atomic;
use crate::error::ErrorKind;
use crate::error::{Error, Result};
use crate::track::Counter;
use crate::wave::{Env, Wave};
use gcnc::isa::format::mem;
use gcnc::isa::{EncDesc, Field, Gen, Inst, Operand};

fn vreg(o: Option<Operand>) -> Option<(u16, u8)> {
    match o {
        Some(Operand::Reg(r)) if r.base.is_vgpr() => Some((r.base.0 - 256, r.count)),
        _ => None,
    }
}

fn read_v(w: &Wave, r: Option<(u16, u8)>, lane: u32) -> u64 {
    match r {
        Some((n, c)) => {
            let lo = w.regs.v(n, lane) as u64;
            if c >= 2 {
                lo | (w.regs.v(n + 1, lane) as u64) << 32
            } else {
                lo
            }
        }
        None => 0,
    }
}

fn lds_read(env: &Env, addr: u32, bytes: u32) -> u64 {
    let mut v = 0u64;
    for k in 0..bytes {
        let a = addr.wrapping_add(k) as usize;
        let b = env.lds.bytes.get(a).copied().unwrap_or(0) as u64;
        v |= b << (8 * k);
    }
    v
}

/// Whether `bytes` at `addr` are inside the allocation; an error for an access outside
/// it under `Checks::lds_bounds`.
pub fn lds_in_range(env: &Env, addr: u32, bytes: u32, write: bool) -> Result<bool> {
    let size = env.lds.bytes.len() as u64;
    if addr as u64 + bytes as u64 <= size {
        return Ok(true);
    }
    if env.checks.lds_bounds {
        return Err(Error::new(ErrorKind::LdsOutOfRange {
            addr: addr as u64,
            size: bytes,
            lds_bytes: size,
            write,
        }));
    }
    Ok(false)
}

fn lds_write(env: &mut Env, addr: u32, bytes: u32, v: u64) -> Result<()> {
    // an access partly outside the allocation is dropped whole
    if !lds_in_range(env, addr, bytes, true)? {
        return Ok(());
    }
    for k in 0..bytes {
        env.lds.bytes[(addr + k) as usize] = (v >> (8 * k)) as u8;
    }
    Ok(())
}

fn lds_read_checked(env: &Env, addr: u32, bytes: u32) -> Result<u64> {
    Ok(if lds_in_range(env, addr, bytes, false)? {
        lds_read(env, addr, bytes)
    } else {
        0
    })
}

fn size_of(suffix: &str) -> Option<(u32, bool)> {
    Some(match suffix {
        "b32" => (4, false),
        "b64" => (8, false),
        "b96" => (12, false),
        "b128" => (16, false),
        "u8" | "b8" => (1, false),
        "i8" => (1, true),
        "u16" | "b16" => (2, false),
        "i16" => (2, true),
        _ => return None,
    })
}

pub fn exec(w: &mut Wave, inst: &Inst, d: &EncDesc, env: &mut Env) -> Result<()> {
    let name = inst.op.name();
    let rest = name.strip_prefix("ds_").unwrap_or(name);
    if inst.mods.mem.gds {
        return Err(Error::unsupported("GDS"));
    }
    let lay = mem::layout(inst, d);
    let get = |f: Field| mem::get(inst, &lay, f);
    let addr = vreg(get(Field::Addr));
    let data0 = vreg(get(Field::Data0));
    let data1 = vreg(get(Field::Data1));
    let vdst = vreg(get(Field::Vdst));
    let exec = w.regs.exec();
    if env.checks.uninit {
        for (n, c) in [addr, data0, data1].into_iter().flatten() {
            for k in 0..c as u16 {
                w.regs.check_v(n + k, exec)?;
            }
        }
    }
    let off = inst.mods.mem.offset as u32 & 0xffff;
    let lanes = w.lanes();
    let mut results: Vec<(u32, Vec<u32>)> = Vec::new();
    if rest == "nop" {
        return Ok(());
    }
    if rest == "bpermute_b32" || rest == "permute_b32" {
        let mut outv = vec![0u32; lanes as usize];
        let mut written = 0u64;
        for lane in 0..lanes {
            if exec >> lane & 1 == 0 {
                continue;
            }
            let a = (read_v(w, addr, lane) as u32).wrapping_add(off);
            // GFX10+ wave64: the permute reaches only the lane's own 32-lane half
            let other = if lanes == 64 && w.t.gen != gcnc::isa::Gen::Gfx9 {
                (lane & 32) | ((a / 4) & 31)
            } else {
                (a / 4) % lanes
            };
            if rest == "bpermute_b32" {
                // pull: read data0 of the addressed lane (0 if that lane is inactive)
                let v = if exec >> other & 1 == 1 {
                    read_v(w, data0, other) as u32
                } else {
                    0
                };
                outv[lane as usize] = v;
                written |= 1 << lane;
            } else {
                // push: write data0 to the addressed lane
                outv[other as usize] = read_v(w, data0, lane) as u32;
                written |= 1 << other;
            }
        }
        for lane in 0..lanes {
            if exec >> lane & 1 == 1 {
                let v = if written >> lane & 1 == 1 {
                    outv[lane as usize]
                } else {
                    0
                };
                results.push((lane, vec![v]));
            }
        }
    } else if rest.contains("d16") {
        let hi = rest.contains("_hi");
        let (size, sext) = crate::vmem::d16_elem(rest).ok_or_else(|| Error::unimpl(name))?;
        let load = rest.starts_with("read") || rest.starts_with("load");
        let dn = vdst.map(|(n, _)| n);
        for lane in 0..lanes {
            if exec >> lane & 1 == 0 {
                continue;
            }
            let a = (read_v(w, addr, lane) as u32).wrapping_add(off);
            if load {
                let mut v = lds_read_checked(env, a, size)? as u32;
                if sext && size == 1 {
                    v = v as u8 as i8 as i16 as u16 as u32;
                }
                let old = dn.map(|n| w.regs.v(n, lane)).unwrap_or(0);
                let new = if hi {
                    (old & 0xffff) | (v & 0xffff) << 16
                } else {
                    (old & 0xffff_0000) | (v & 0xffff)
                };
                results.push((lane, vec![new]));
            } else if hi {
                let v = read_v(w, data0, lane) as u32 >> 16;
                lds_write(env, a, size, v as u64)?;
            } else {
                return Err(Error::unimpl(name));
            }
        }
    } else if rest.starts_with("read") || rest.starts_with("load") {
        let two = rest.starts_with("read2") || rest.starts_with("load_2addr");
        let st64 = rest.contains("st64") || rest.contains("stride64");
        let suffix = rest.rsplit('_').next().unwrap_or("");
        if rest.contains("d16") || rest.contains("addtid") {
            return Err(Error::unimpl(name));
        }
        let (size, sext) = size_of(suffix).ok_or_else(|| Error::unimpl(name))?;
        for lane in 0..lanes {
            if exec >> lane & 1 == 0 {
                continue;
            }
            let base = read_v(w, addr, lane) as u32;
            let mut dw = Vec::new();
            let mut load = |a: u32| -> Result<()> {
                if size >= 4 {
                    for k in 0..size / 4 {
                        dw.push(lds_read_checked(env, a + 4 * k, 4)? as u32);
                    }
                } else {
                    let v = lds_read_checked(env, a, size)? as u32;
                    let v = if sext {
                        ((v << (32 - 8 * size)) as i32 >> (32 - 8 * size)) as u32
                    } else {
                        v
                    };
                    dw.push(v);
                }
                Ok(())
            };
            if two {
                let scale = size * if st64 { 64 } else { 1 };
                load(base.wrapping_add((off & 0xff) * scale))?;
                load(base.wrapping_add((off >> 8) * scale))?;
            } else {
                load(base.wrapping_add(off))?;
            }
            results.push((lane, dw));
        }
    } else if (rest.starts_with("write") || rest.starts_with("store")) && !rest.contains("xchg") {
        let two = rest.starts_with("write2") || rest.starts_with("store_2addr");
        let st64 = rest.contains("st64") || rest.contains("stride64");
        let suffix = rest.rsplit('_').next().unwrap_or("");
        if rest.contains("d16") || rest.contains("addtid") {
            return Err(Error::unimpl(name));
        }
        let (size, _) = size_of(suffix).ok_or_else(|| Error::unimpl(name))?;
        for lane in 0..lanes {
            if exec >> lane & 1 == 0 {
                continue;
            }
            let base = read_v(w, addr, lane) as u32;
            let store = |env: &mut Env, a: u32, data: Option<(u16, u8)>| -> Result<()> {
                let Some((n, _)) = data else { return Ok(()) };
                if size >= 4 {
                    for k in 0..size / 4 {
                        lds_write(env, a + 4 * k, 4, w.regs.v(n + k as u16, lane) as u64)?;
                    }
                } else {
                    lds_write(env, a, size, w.regs.v(n, lane) as u64)?;
                }
                Ok(())
            };
            if two {
                let scale = size * if st64 { 64 } else { 1 };
                store(env, base.wrapping_add((off & 0xff) * scale), data0)?;
                store(env, base.wrapping_add((off >> 8) * scale), data1)?;
            } else {
                store(env, base.wrapping_add(off), data0)?;
            }
        }
    } else if let Some(at) = atomic::parse(rest) {
        let bytes = if at.wide { 8 } else { 4 };
        for lane in 0..lanes {
            if exec >> lane & 1 == 0 {
                continue;
            }
            let a = (read_v(w, addr, lane) as u32).wrapping_add(off);
            let old = lds_read_checked(env, a, bytes)?;
            let (x, y) = (read_v(w, data0, lane), read_v(w, data1, lane));
            // (data, second) per atomic::apply: cmpswap = (new, compare); mskor = (mask, src)
            let (data, second) = match at.op {
                atomic::Op::CmpSwap if w.t.gen == Gen::Gfx11 => (x, y),
                atomic::Op::CmpSwap => (y, x),
                _ => (x, y),
            };
            let new = at.apply(old, data, second);
            lds_write(env, a, bytes, new)?;
            if vdst.is_some() {
                results.push((lane, vec![old as u32, (old >> 32) as u32]));
            }
        }
    } else {
        return Err(Error::unimpl(name));
    }
    if let Some((n, c)) = vdst {
        for (lane, dw) in results {
            for k in 0..c as usize {
                w.regs
                    .set_v(n + k as u16, lane, dw.get(k).copied().unwrap_or(0))?;
            }
        }
    }
    let dsts = vdst
        .map(|(n, c)| vec![(n + 256, c as u16)])
        .unwrap_or_default();
    let srcs = [addr, data0, data1]
        .into_iter()
        .flatten()
        .map(|(n, c)| (n + 256, c as u16))
        .collect();
    w.track.issue(
        &[(Counter::Lgkm, false)],
        w.cur_pc,
        w.cur_text.clone(),
        dsts,
        srcs,
    );
    Ok(())
}

/// `s_barrier` with an LDS access of this wave still outstanding (no `s_waitcnt
/// lgkmcnt(0)` since it issued): another wave released by the barrier could miss its
/// write, or the access could see a later wave's write. The emulator performs LDS
/// accesses at issue, so this check is what catches the missing wait.
pub fn check_barrier(w: &Wave) -> Result<()> {
    match w
        .track
        .pending(Counter::Lgkm)
        .find(|p| p.text.starts_with("ds_"))
    {
        Some(p) => Err(Error::new(ErrorKind::MissingWait {
            reg: "LDS (s_barrier)".into(),
            counter: Counter::Lgkm.name(),
            pending: p.text.clone(),
            pending_pc: p.pc,
            overwrite: false,
        })),
        None => Ok(()),
    }
}
