//! Lane-level data movement of the VALU encodings that carry it: DPP16 / DPP8 source
//! lane selection, and SDWA sub-dword source selects and destination merges.
//!
//! DPP16 `dpp_ctrl` (facts from the ISA manuals / LLVM's DPP enums): 0x00–0xFF quad_perm;
//! 0x101–0x10F row_shl:n; 0x111–0x11F row_shr:n; 0x121–0x12F row_ror:n; GFX9 only 0x130
//! wave_shl:1, 0x134 wave_rol:1, 0x138 wave_shr:1, 0x13C wave_ror:1, 0x142 row_bcast:15,
//! 0x143 row_bcast:31; 0x140 row_mirror; 0x141 row_half_mirror; GFX10+ 0x150–0x15F
//! row_share:n, 0x160–0x16F row_xmask:n. A lane whose source is outside the row/wave, or
//! an inactive lane when fetch-inactive (`fi`, GFX10+) is off, reads 0 if bound_ctrl is
//! set and is otherwise not written. row_mask / bank_mask disable whole rows (16 lanes) /
//! banks (lanes 4b..4b+3 of every row). DPP8: lane L reads lane (L & ~7) | sel[L & 7];
//! an inactive source without `fi` reads 0.

use gcnc::isa::{Gen, Inst};

/// Per lane: the lane src0 comes from (None: 0), and the mask of lanes that execute.
pub fn dpp_map(gen: Gen, inst: &Inst, exec: u64, lanes: u32) -> (Vec<Option<u32>>, u64) {
    let p = &inst.mods.dpp;
    let fi = p.fi && gen != Gen::Gfx9;
    let mut map = vec![None; lanes as usize];
    let mut live = 0u64;
    for lane in 0..lanes {
        if exec >> lane & 1 == 0 {
            continue;
        }
        if inst.format.is_dpp8() {
            let s = (lane & !7) | ((p.sel8 >> (3 * (lane & 7))) & 7);
            let active = exec >> s & 1 == 1 || fi;
            map[lane as usize] = active.then_some(s);
            live |= 1 << lane;
            continue;
        }
        let row = lane / 16;
        let bank = (lane % 16) / 4;
        if p.row_mask >> row & 1 == 0 || p.bank_mask >> bank & 1 == 0 {
            continue;
        }
        let base = lane & !15;
        let i = lane & 15;
        let c = p.ctrl as u32;
        let src: Option<u32> = match c {
            0x00..=0xff => Some((lane & !3) | ((c >> (2 * (lane & 3))) & 3)),
            0x101..=0x10f => {
                let n = c & 0xf;
                (i + n < 16).then_some(lane + n)
            }
            0x111..=0x11f => {
                let n = c & 0xf;
                (i >= n).then(|| lane - n)
            }
            0x121..=0x12f => Some(base + (i + 16 - (c & 0xf)) % 16),
            0x130 if gen == Gen::Gfx9 => (lane + 1 < lanes).then_some(lane + 1),
            0x134 if gen == Gen::Gfx9 => Some((lane + 1) % lanes),
            0x138 if gen == Gen::Gfx9 => lane.checked_sub(1),
            0x13c if gen == Gen::Gfx9 => Some((lane + lanes - 1) % lanes),
            0x140 => Some(base + 15 - i),
            0x141 => Some((lane & !7) + 7 - (lane & 7)),
            0x142 if gen == Gen::Gfx9 => (row > 0).then(|| row * 16 - 1),
            0x143 if gen == Gen::Gfx9 => (row >= 2).then_some(31),
            0x150..=0x15f if gen != Gen::Gfx9 => Some(base + (c & 0xf)),
            0x160..=0x16f if gen != Gen::Gfx9 => Some(base + (i ^ (c & 0xf))),
            _ => None,
        };
        let src = src.filter(|&s| s < lanes && (exec >> s & 1 == 1 || fi));
        match src {
            Some(s) => {
                map[lane as usize] = Some(s);
                live |= 1 << lane;
            }
            None if p.bound_ctrl => {
                live |= 1 << lane;
            }
            None => {}
        }
    }
    (map, live)
}

/// SDWA source select: 0..=3 byte n, 4/5 word n, 6 dword; `sext` sign-extends the part.
pub fn sdwa_select(v: u32, sel: u8, sext: bool) -> u32 {
    let (shift, bits) = match sel {
        0..=3 => (8 * sel as u32, 8),
        4 | 5 => (16 * (sel as u32 - 4), 16),
        _ => return v,
    };
    let x = (v >> shift) & ((1 << bits) - 1);
    if sext {
        (((x << (32 - bits)) as i32) >> (32 - bits)) as u32
    } else {
        x
    }
}

/// SDWA destination: the result's low bits go into the selected part; the rest is zero
/// (UNUSED_PAD), the sign of the part (UNUSED_SEXT) or the old value (UNUSED_PRESERVE).
pub fn sdwa_dst(old: u32, r: u32, sel: u8, unused: u8) -> u32 {
    let (shift, bits) = match sel {
        0..=3 => (8 * sel as u32, 8),
        4 | 5 => (16 * (sel as u32 - 4), 16),
        _ => return r,
    };
    let m = ((1u64 << bits) - 1) as u32;
    let part = (r & m) << shift;
    let field = m << shift;
    match unused {
        2 => (old & !field) | part,
        1 => {
            let sign = r >> (bits - 1) & 1 == 1;
            let above = if shift + bits >= 32 {
                0
            } else {
                u32::MAX << (shift + bits)
            };
            part | if sign { above } else { 0 }
        }
        _ => part,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdwa_selects_and_merges() {
        assert_eq!(sdwa_select(0x8070_6050, 1, false), 0x60);
        assert_eq!(sdwa_select(0x8070_6050, 3, true), 0xffff_ff80);
        assert_eq!(sdwa_select(0x8070_6050, 5, false), 0x8070);
        assert_eq!(sdwa_dst(0xaaaa_aaaa, 0x1234, 5, 0), 0x1234_0000);
        assert_eq!(sdwa_dst(0xaaaa_aaaa, 0x1234, 4, 2), 0xaaaa_1234);
        assert_eq!(sdwa_dst(0, 0x80, 0, 1), 0xffff_ff80);
    }
}
