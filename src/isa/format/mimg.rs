//! MIMG (image), 64 bits + NSA address dwords (GFX10/GFX11). Per generation:
//! - GFX9: w0 `111100 slc[25] op[24:18] lwe[17] tfe[16] a16[15] da[14] glc[13] unorm[12]
//!   dmask[11:8]`; w1 `d16[31] ssamp[25:21] srsrc[20:16] vdata[15:8] vaddr[7:0]`;
//! - GFX10: w0 `111100 slc[25] op[24:18] lwe[17] tfe[16] r128[15] glc[13] unorm[12]
//!   dmask[11:8] dlc[7] dim[5:3] nsa[2:1] op7[0]`; w1 `d16[31] a16[30] ssamp[25:21] ...`;
//!   nsa = number of extra dwords, each holding four more address VGPRs;
//! - GFX11: w0 `111100 op[25:18] d16[17] a16[16] r128[15] glc[14] dlc[13] slc[12]
//!   dmask[11:8] unorm[7] dim[4:2] nsa[0]`; w1 `ssamp[30:26] lwe[22] tfe[21] srsrc ...`;
//!   one extra NSA dword: up to 5 address operands, the fifth a tuple of every address
//!   from the fifth on when there are more (partial NSA, [`addr_operands`]).
//!   GFX9 does not encode the address size; LLVM decodes the size the table records and
//!   accepts larger ranges, so `check` does too.
//!
//! Data size: popcount(dmask) (gather4 and GFX11 image_msaa_load: 4), halved rounding up
//! with d16, plus one with tfe (LLVM does not count lwe; a compare-swap with tfe is half
//! its data plus one). Address size (GFX10+): the table's per-dimension count (with or without a16);
//! an NSA instruction holds one `Vaddr` operand per address, except GFX11's fifth, which
//! may be a tuple ([`addr_operands`] is the one rule for every layer).

use super::mem::{flag, layout, scode, sreg, vnum, vreg, want_s, want_v, MemMods};
use super::sop2::lookup;
use super::{word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::operand::Operand;
use crate::isa::tables::{EncDesc, Field, Format, MemFlags, OpDesc};
use crate::isa::target::{Gen, Target};

pub const PREFIX: u32 = 0b111100 << 26;

pub fn is_mimg(w0: u32) -> bool {
    w0 & 0xfc00_0000 == PREFIX
}

/// The `dim:SQ_RSRC_IMG_*` names by hardware code.
pub const DIMS: [&str; 8] = [
    "1D",
    "2D",
    "3D",
    "CUBE",
    "1D_ARRAY",
    "2D_ARRAY",
    "2D_MSAA",
    "2D_MSAA_ARRAY",
];

pub fn parse_dim(s: &str) -> Option<u8> {
    let s = s.strip_prefix("SQ_RSRC_IMG_")?;
    DIMS.iter().position(|&d| d == s).map(|i| i as u8)
}

/// gather4 (and GFX11 image_msaa_load) return four values for the one dmask bit set.
pub fn is_gather(gen: Gen, d: &EncDesc) -> bool {
    d.mnemonic.starts_with("image_gather4")
        || (gen == Gen::Gfx11 && d.mnemonic == "image_msaa_load")
}

/// Data VGPRs for the modifiers.
pub fn data_size(gen: Gen, d: &EncDesc, m: &MemMods) -> u8 {
    let n = if is_gather(gen, d) {
        4
    } else {
        (m.dmask.count_ones() as u8).max(1)
    };
    let n = if m.d16 && !d.mem.contains(MemFlags::RTN) {
        n.div_ceil(2)
    } else {
        n
    };
    // with tfe LLVM sizes a compare-swap by its returned half
    if m.tfe && d.mnemonic.contains("cmpswap") {
        return n / 2 + 1;
    }
    n + m.tfe as u8
}

/// Address VGPRs (GFX10+).
pub fn addr_size(d: &EncDesc, m: &MemMods) -> Option<u8> {
    d.addr.map(|a| a[m.a16 as usize][m.dim as usize & 7])
}

/// The most address operands an NSA form names: 13 on GFX10.3 (three extra dwords of four),
/// 5 on GFX11 (one extra dword); GFX9 has only the contiguous tuple.
pub fn nsa_max(gen: Gen) -> usize {
    match gen {
        Gen::Gfx9 => 1,
        Gen::Gfx10 => 13,
        Gen::Gfx11 => 5,
    }
}

/// The VGPR count of each of `k` address operands holding `n` addresses, or `None` when
/// `gen` encodes no such split. One operand is the contiguous tuple (every generation);
/// GFX10.3's NSA names every address on its own (up to 13); GFX11's names at most five,
/// and with more than five addresses the fifth operand is the tuple of the fifth address
/// and every one after it (partial NSA). llvm-mc-19 accepts exactly these
/// (`tests/isa_mimg_nsa.rs`).
pub fn addr_operands(gen: Gen, n: u8, k: usize) -> Option<Vec<u8>> {
    let n = n as usize;
    if k == 1 {
        return Some(vec![n as u8]);
    }
    if k == 0 || k > nsa_max(gen) || k > n {
        return None;
    }
    if k == n {
        return Some(vec![1; n]);
    }
    (gen == Gen::Gfx11 && k == nsa_max(gen)).then(|| {
        let mut v = vec![1; k - 1];
        v.push((n - k + 1) as u8);
        v
    })
}

/// The number of address operands of the NSA form for `n` addresses (the most the
/// generation names, the last a tuple of the rest on GFX11), or `None` where the
/// contiguous tuple is the only form (GFX9, a single address).
pub fn nsa_operands(gen: Gen, n: usize) -> Option<usize> {
    let max = nsa_max(gen);
    match gen {
        _ if n < 2 || max == 1 => None,
        Gen::Gfx11 => Some(n.min(max)),
        _ => (n <= max).then_some(n),
    }
}

/// Joins the NSA address operands of `inst` into the contiguous tuple when they are
/// consecutive VGPRs: the same addresses without the NSA dwords (4 to 12 bytes less), so
/// the NSA form is only encoded where it saves the copies that would gather the addresses.
/// Returns whether it changed `inst`.
pub fn join_consecutive_addresses(inst: &mut Inst, d: &EncDesc) -> bool {
    let lay = layout(inst, d);
    let at: Vec<usize> = (0..lay.len().min(inst.operands.len()))
        .filter(|&k| lay[k].field == Field::Vaddr)
        .collect();
    if at.len() < 2 {
        return false;
    }
    let mut regs = Vec::new();
    for &k in &at {
        match inst.operands[k] {
            Operand::Reg(r) if r.base.is_vgpr() => regs.push(r),
            _ => return false,
        }
    }
    let consecutive = regs
        .windows(2)
        .all(|p| p[1].base.0 == p[0].base.0 + p[0].count as u16);
    let total: u32 = regs.iter().map(|r| r.count as u32).sum();
    if !consecutive || total > 16 {
        return false;
    }
    let joined = Operand::Reg(crate::isa::reg::Reg {
        base: regs[0].base,
        count: total as u8,
    });
    inst.operands[at[0]] = joined;
    for &k in at[1..].iter().rev() {
        inst.operands.remove(k);
    }
    true
}

pub fn check(inst: &Inst, d: &EncDesc, t: Target, lay: &[&OpDesc]) -> Result<()> {
    let m = &inst.mods.mem;
    let nv = lay.iter().filter(|o| o.field == Field::Vaddr).count();
    let mut va = 0;
    for (od, o) in lay.iter().zip(&inst.operands) {
        match od.field {
            Field::Vdst | Field::Vdata => want_v(o, data_size(t.gen, d, m), "vdata")?,
            // GFX9 does not encode the address size: LLVM decodes the table's size and
            // assembles any larger range (the hardware reads what the opcode needs)
            Field::Vaddr if t.gen == Gen::Gfx9 => {
                want_v(o, 0, "vaddr")?;
                if o.reg().is_some_and(|r| r.count < od.size) {
                    return Err(Error::bad(format!(
                        "vaddr needs at least {} VGPRs",
                        od.size
                    )));
                }
            }
            Field::Vaddr => {
                let n = addr_size(d, m).ok_or_else(|| Error::bad("address size"))?;
                let sizes = addr_operands(t.gen, n, nv)
                    .ok_or_else(|| Error::bad(format!("{n} addresses in {nv} address operands")))?;
                want_v(o, sizes[va], "vaddr")?;
                va += 1;
            }
            Field::Srsrc => want_s(o, od.size, 4, "srsrc")?,
            Field::Ssamp => want_s(o, 4, 4, "ssamp")?,
            _ => return Err(Error::bad("operand")),
        }
    }
    flag(nv <= nsa_max(t.gen), "this many addresses", d)?;
    if d.mem.contains(MemFlags::RTN) {
        let ok = if d.mnemonic.contains("cmpswap") {
            matches!(m.dmask, 3 | 15)
        } else {
            matches!(m.dmask, 1 | 3)
        };
        flag(ok, "this dmask", d)?;
    }
    let gfx9 = t.gen == Gen::Gfx9;
    let no_d16 = ["pck", "atomic", "get_resinfo", "get_lod"];
    flag(
        !m.d16 || !no_d16.iter().any(|x| d.mnemonic.contains(x)),
        "d16",
        d,
    )?;
    flag(!m.da || gfx9, "da", d)?;
    flag(m.dim == 0 || !gfx9, "dim", d)?;
    flag(!inst.mods.dlc || !gfx9, "dlc", d)?;
    flag(!(gfx9 && m.r128), "r128", d)?;
    let rest = MemMods {
        dmask: m.dmask,
        dim: m.dim,
        unorm: m.unorm,
        slc: m.slc,
        r128: m.r128,
        a16: m.a16,
        tfe: m.tfe,
        lwe: m.lwe,
        d16: m.d16,
        da: m.da,
        ..Default::default()
    };
    flag(*m == rest, "these modifiers", d)
}

struct Bits {
    slc: (usize, u32),
    lwe: (usize, u32),
    tfe: (usize, u32),
    r128: Option<(usize, u32)>,
    a16: (usize, u32),
    da: Option<(usize, u32)>,
    glc: (usize, u32),
    unorm: (usize, u32),
    dlc: Option<(usize, u32)>,
    d16: (usize, u32),
}

fn bits(gen: Gen) -> Bits {
    match gen {
        Gen::Gfx9 => Bits {
            slc: (0, 25),
            lwe: (0, 17),
            tfe: (0, 16),
            r128: None,
            a16: (0, 15),
            da: Some((0, 14)),
            glc: (0, 13),
            unorm: (0, 12),
            dlc: None,
            d16: (1, 31),
        },
        Gen::Gfx10 => Bits {
            slc: (0, 25),
            lwe: (0, 17),
            tfe: (0, 16),
            r128: Some((0, 15)),
            a16: (1, 30),
            da: None,
            glc: (0, 13),
            unorm: (0, 12),
            dlc: Some((0, 7)),
            d16: (1, 31),
        },
        Gen::Gfx11 => Bits {
            slc: (0, 12),
            lwe: (1, 22),
            tfe: (1, 21),
            r128: Some((0, 15)),
            a16: (0, 16),
            da: None,
            glc: (0, 14),
            unorm: (0, 7),
            dlc: Some((0, 13)),
            d16: (0, 17),
        },
    }
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let gen = cx.t.gen;
    let b = bits(gen);
    let m = &inst.mods.mem;
    let op = d.op as u32;
    let mut w = [PREFIX | (m.dmask as u32) << 8, 0u32];
    match gen {
        Gen::Gfx10 => w[0] |= (op & 0x7f) << 18 | op >> 7 | (m.dim as u32) << 3,
        Gen::Gfx11 => w[0] |= op << 18 | (m.dim as u32) << 2,
        Gen::Gfx9 => w[0] |= op << 18,
    }
    let mut set = |at: (usize, u32), on: bool| w[at.0] |= (on as u32) << at.1;
    set(b.slc, m.slc);
    set(b.lwe, m.lwe);
    set(b.tfe, m.tfe);
    set(b.a16, m.a16);
    set(b.glc, inst.mods.glc);
    set(b.unorm, m.unorm);
    set(b.d16, m.d16);
    if let Some(x) = b.r128 {
        set(x, m.r128);
    }
    if let Some(x) = b.da {
        set(x, m.da);
    }
    if let Some(x) = b.dlc {
        set(x, inst.mods.dlc);
    }
    let lay = layout(inst, d);
    let mut addrs = Vec::new();
    for (od, o) in lay.iter().zip(&inst.operands) {
        match od.field {
            Field::Vdst | Field::Vdata => w[1] |= vnum(o) << 8,
            Field::Vaddr => addrs.push(vnum(o)),
            Field::Srsrc => w[1] |= scode(gen, o) >> 2 << 16,
            _ => w[1] |= scode(gen, o) >> 2 << if gen == Gen::Gfx11 { 26 } else { 21 },
        }
    }
    w[1] |= addrs[0];
    let extra: Vec<u32> = addrs[1..]
        .chunks(4)
        .map(|c| c.iter().enumerate().fold(0, |a, (i, v)| a | v << (8 * i)))
        .collect();
    match gen {
        Gen::Gfx10 => w[0] |= (extra.len() as u32) << 1,
        Gen::Gfx11 => w[0] |= !extra.is_empty() as u32,
        Gen::Gfx9 => {}
    }
    cx.words.extend_from_slice(&w);
    cx.words.extend_from_slice(&extra);
    Ok(())
}

pub fn decode(cx: &Dec, ws: &[u32]) -> Result<(Inst, usize)> {
    let gen = cx.gen();
    let w = [word(ws, 0)?, word(ws, 1)?];
    let b = bits(gen);
    let op = match gen {
        Gen::Gfx10 => (w[0] >> 18) & 0x7f | (w[0] & 1) << 7,
        Gen::Gfx11 => (w[0] >> 18) & 0xff,
        Gen::Gfx9 => (w[0] >> 18) & 0x7f,
    };
    let d = lookup(cx, Format::Mimg, op)?;
    // LLVM rejects a sampler field on instructions without a sampler, and GFX9's unused
    // low byte
    let ssamp_at = if gen == Gen::Gfx11 { 26 } else { 21 };
    if !d.explicit().any(|o| o.field == Field::Ssamp) && (w[1] >> ssamp_at) & 0x1f != 0 {
        return Err(Error::invalid(format!("{}: sampler field set", d.mnemonic)));
    }
    if gen == Gen::Gfx9 && w[0] & 1 != 0 {
        return Err(Error::invalid("MIMG reserved bits set"));
    }
    let get = |at: (usize, u32)| (w[at.0] >> at.1) & 1 == 1;
    let mut inst = Inst::new(d.opcode, d.format, &[]);
    let m = &mut inst.mods.mem;
    m.dmask = ((w[0] >> 8) & 0xf) as u8;
    m.slc = get(b.slc);
    m.lwe = get(b.lwe);
    m.tfe = get(b.tfe);
    m.a16 = get(b.a16);
    m.unorm = get(b.unorm);
    m.d16 = get(b.d16);
    m.r128 = b.r128.is_some_and(get);
    m.da = b.da.is_some_and(get);
    inst.mods.glc = get(b.glc);
    inst.mods.dlc = b.dlc.is_some_and(get);
    let (dim, extra) = match gen {
        Gen::Gfx10 => ((w[0] >> 3) & 7, ((w[0] >> 1) & 3) as usize),
        Gen::Gfx11 => ((w[0] >> 2) & 7, (w[0] & 1) as usize),
        Gen::Gfx9 => (0, 0),
    };
    m.dim = dim as u8;
    let m = *m;
    let naddr = if gen == Gen::Gfx9 {
        d.explicit()
            .find(|o| o.field == Field::Vaddr)
            .map_or(1, |o| o.size)
    } else {
        addr_size(d, &m).ok_or_else(|| Error::invalid("MIMG address size"))?
    };
    let mut addrs = Vec::new();
    if extra > 0 {
        let mut regs = vec![w[1] & 0xff];
        for i in 0..extra {
            let x = word(ws, 2 + i)?;
            regs.extend((0..4).map(|k| (x >> (8 * k)) & 0xff));
        }
        // as many operands as the extra dwords can name (GFX11: the fifth a tuple of the
        // rest); an extra dword no address needs is not an encoding
        let k = (naddr as usize).min(nsa_max(gen));
        let sizes = addr_operands(gen, naddr, k)
            .filter(|_| k <= regs.len() && k > 1 + 4 * (extra - 1))
            .ok_or_else(|| Error::invalid("NSA address count does not match the dimension"))?;
        for (r, n) in regs.iter().zip(sizes) {
            addrs.push(vreg(*r, n)?);
        }
    } else {
        addrs.push(vreg(w[1] & 0xff, naddr)?);
    }
    let mut ops = Vec::new();
    for od in d.explicit() {
        match od.field {
            Field::Vdst | Field::Vdata => {
                ops.push(vreg((w[1] >> 8) & 0xff, data_size(gen, d, &m))?)
            }
            Field::Vaddr => ops.extend(addrs.iter().copied()),
            Field::Srsrc => ops.push(sreg(gen, ((w[1] >> 16) & 0x1f) << 2, od.size)?),
            _ => {
                let at = if gen == Gen::Gfx11 { 26 } else { 21 };
                ops.push(sreg(gen, ((w[1] >> at) & 0x1f) << 2, 4)?)
            }
        }
    }
    inst.operands = ops.into_iter().collect();
    super::mem::check(&inst, d, cx.t).map_err(|e| Error::invalid(e.to_string()))?;
    Ok((inst, 2 + extra))
}

/// `dmask:0xf dim:SQ_RSRC_IMG_2D unorm glc slc dlc r128 a16 tfe lwe da d16`.
pub fn print_mods(inst: &Inst, t: Target, s: &mut String) {
    let m = &inst.mods.mem;
    if m.dmask != 0 {
        s.push_str(&format!(" dmask:{:#x}", m.dmask));
    }
    if t.gen != Gen::Gfx9 {
        s.push_str(&format!(" dim:SQ_RSRC_IMG_{}", DIMS[m.dim as usize & 7]));
    }
    for (on, w) in [
        (m.unorm, " unorm"),
        (inst.mods.glc, " glc"),
        (m.slc, " slc"),
        (inst.mods.dlc, " dlc"),
        (m.r128, " r128"),
        (m.a16, " a16"),
        (m.tfe, " tfe"),
        (m.lwe, " lwe"),
        (m.da, " da"),
        (m.d16, " d16"),
    ] {
        if on {
            s.push_str(w);
        }
    }
}
