//! Decoding: bytes → `Inst` + length. `classify` picks the format from the first dword's
//! fixed bits (per generation), the format file does the rest. Reserved or unknown opcodes
//! and register codes are `InvalidEncoding` errors carrying the byte offset.

use super::error::{Error, ErrorKind, Loc, Result};
use super::format::{self, Dec};
use super::inst::Inst;
use super::tables::Format;
use super::target::{Gen, Target};

/// The format of the instruction starting with `w0`, if it is one this layer decodes.
pub fn classify(gen: Gen, w0: u32) -> Option<Format> {
    if w0 >> 30 == 0b10 {
        return Some(match w0 >> 23 {
            0x17d => Format::Sop1,
            0x17e => Format::Sopc,
            0x17f => Format::Sopp,
            _ if w0 >> 28 == 0b1011 => Format::Sopk,
            _ => Format::Sop2,
        });
    }
    if w0 >> 31 == 0 {
        return Some(match w0 >> 25 {
            0x3f => Format::Vop1,
            0x3e => Format::Vopc,
            _ => Format::Vop2,
        });
    }
    if gen == Gen::Gfx11 && w0 >> 26 == 0b110010 {
        return Some(Format::VopdX);
    }
    if format::smem::is_smem(gen, w0) {
        return Some(Format::Smem);
    }
    // memory, export and interpolation formats (prefixes differ per generation)
    if format::ds::is_ds(w0) {
        return Some(Format::Ds);
    }
    if format::mubuf::is_mubuf(w0) {
        return Some(Format::Mubuf);
    }
    if format::mtbuf::is_mtbuf(w0) {
        return Some(Format::Mtbuf);
    }
    if format::flat::is_flat(w0) {
        return format::flat::format_of(gen, w0);
    }
    if format::mimg::is_mimg(w0) {
        return Some(Format::Mimg);
    }
    if format::exp::is_exp(gen, w0) {
        return Some(Format::Exp);
    }
    if format::vintrp::prefix(gen).is_some_and(|p| w0 & 0xfc00_0000 == p) {
        return Some(Format::Vintrp);
    }
    if gen == Gen::Gfx11 && w0 & 0xff00_0000 == format::ldsdir::PREFIX {
        return Some(Format::Ldsdir);
    }
    if gen == Gen::Gfx11 && w0 & 0xff00_0000 == format::vinterp::PREFIX {
        return Some(Format::Vinterp);
    }
    if w0 & 0xff80_0000 == format::vop3p::prefix(gen) {
        return Some(Format::Vop3p);
    }
    if w0 & 0xfc00_0000 == format::vop3::prefix(gen) {
        return Some(Format::Vop3);
    }
    None
}

/// Decodes the instruction at the start of `w` (dwords). Returns it and its length in dwords.
pub fn decode_words(w: &[u32], t: Target) -> Result<(Inst, usize)> {
    let (inst, len) = decode_fields(w, t)?;
    if inst.op_y.is_none() {
        format::check_unused(inst.desc(t.gen)?, w)?;
    }
    Ok((inst, len))
}

fn decode_fields(w: &[u32], t: Target) -> Result<(Inst, usize)> {
    let w0 = *w.first().ok_or(Error::new(ErrorKind::Truncated {
        needed: 4,
        available: 0,
    }))?;
    let format = classify(t.gen, w0);
    let cx = Dec {
        t,
        valu: format.is_some_and(Format::is_valu),
        packed: format == Some(Format::Vop3p),
    };
    match format {
        Some(Format::Sop1) => format::sop1::decode(&cx, w),
        Some(Format::Sop2) => format::sop2::decode(&cx, w),
        Some(Format::Sopc) => format::sopc::decode(&cx, w),
        Some(Format::Sopk) => format::sopk::decode(&cx, w),
        Some(Format::Sopp) => format::sopp::decode(&cx, w),
        Some(Format::Smem) => format::smem::decode(&cx, w),
        Some(Format::Vop1) => format::vop1::decode(&cx, w),
        Some(Format::Vop2) => format::vop2::decode(&cx, w),
        Some(Format::Vopc) => format::vopc::decode(&cx, w),
        Some(Format::Vop3) => format::vop3::decode(&cx, w),
        Some(Format::Vop3p) => format::vop3p::decode(&cx, w),
        Some(Format::Ds) => format::ds::decode(&cx, w),
        Some(Format::Mubuf) => format::mubuf::decode(&cx, w),
        Some(Format::Mtbuf) => format::mtbuf::decode(&cx, w),
        Some(Format::Flat | Format::Global | Format::Scratch) => format::flat::decode(&cx, w),
        Some(Format::Mimg) => format::mimg::decode(&cx, w),
        Some(Format::Exp) => format::exp::decode(&cx, w),
        Some(Format::Vintrp) => format::vintrp::decode(&cx, w),
        Some(Format::Ldsdir) => format::ldsdir::decode(&cx, w),
        Some(Format::Vinterp) => format::vinterp::decode(&cx, w),
        Some(Format::VopdX) => format::vopd::decode(&cx, w),
        // classify() only names base formats; SDWA/DPP are found by the base decoders
        Some(_) | None => Err(Error::invalid(format!("no known format for {w0:#010x}"))),
    }
}

/// Decodes the instruction at byte `offset` of `bytes`; returns it and its length in bytes.
pub fn decode(bytes: &[u8], offset: usize, t: Target) -> Result<(Inst, usize)> {
    let rest = bytes.get(offset..).unwrap_or(&[]);
    if rest.len() % 4 != 0 && rest.len() < 4 {
        return Err(Error::new(ErrorKind::Truncated {
            needed: 4,
            available: rest.len(),
        })
        .at(Loc::Byte(offset)));
    }
    // at most 5 dwords (MIMG with three NSA dwords) are ever needed
    let n = (rest.len() / 4).min(5);
    let mut w = [0u32; 5];
    for (i, c) in rest.chunks_exact(4).take(n).enumerate() {
        w[i] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    decode_words(&w[..n], t)
        .map(|(i, len)| (i, len * 4))
        .map_err(|e| e.at(Loc::Byte(offset)))
}

/// Decodes a whole code buffer; stops at the first error.
pub fn decode_all(bytes: &[u8], t: Target) -> Result<Vec<(usize, Inst)>> {
    let mut out = Vec::new();
    let mut off = 0;
    while off < bytes.len() {
        let (inst, len) = decode(bytes, off, t)?;
        out.push((off, inst));
        off += len;
    }
    Ok(out)
}
