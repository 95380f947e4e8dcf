//! MTBUF (typed buffer), 64 bits: MUBUF's address and flag layout (see `mubuf.rs`) plus a
//! format field. Word 0 prefix 111010; per generation:
//! - GFX9: op[18:15], dfmt[22:19], nfmt[25:23] (the 7-bit `format` = dfmt | nfmt << 4);
//!   slc and tfe in word 1 [22]/[23];
//! - GFX10: op[18:16] + op bit 3 at w1[21], format[25:19];
//! - GFX11: op[18:15], format[25:19].
//! LLVM prints the format symbolically (`format:[BUF_FMT_32_FLOAT]`), omits the default
//! (1), and prints unnamed values as numbers; the texts come from isa_tables/buf_formats.txt.

use super::mubuf::{check_common, decode_common, encode_common, print_flags};
use super::sop2::lookup;
use super::{word, Dec, Enc};
use crate::isa::error::{Error, Result};
use crate::isa::inst::Inst;
use crate::isa::tables::{BufData, BufNum, EncDesc, Format, OpDesc, BUF_FORMATS, BUF_FORMAT_CODES};
use crate::isa::target::{Gen, Target};

pub const PREFIX: u32 = 0b111010 << 26;

pub fn is_mtbuf(w0: u32) -> bool {
    w0 & 0xfc00_0000 == PREFIX
}

fn text(gen: Gen, v: u8) -> &'static str {
    BUF_FORMATS[gen as usize][v as usize & 127]
}

/// The format code of a (data, numeric) format pair on `gen`, if the generation has it
/// (from isa_tables/buf_formats.txt, typed by build.rs).
pub fn format_code(gen: Gen, data: BufData, num: BufNum) -> Option<u8> {
    BUF_FORMAT_CODES[gen as usize][data as usize][num as usize]
}

/// The (data, numeric) pair of a format code on `gen` (`None`: invalid or reserved).
pub fn format_of(gen: Gen, code: u8) -> Option<(BufData, BufNum)> {
    BufData::ALL.iter().find_map(|&d| {
        BufNum::ALL
            .iter()
            .find(|&&n| format_code(gen, d, n) == Some(code))
            .map(|&n| (d, n))
    })
}

/// Parses the text after `format:` (a symbolic `[...]` or a number).
pub fn parse_format(gen: Gen, s: &str) -> Option<u8> {
    if let Some(i) = BUF_FORMATS[gen as usize].iter().position(|&x| x == s) {
        return Some(i as u8);
    }
    let v: u8 = s.parse().ok()?;
    (v < 128).then_some(v)
}

pub fn check(inst: &Inst, d: &EncDesc, t: Target, lay: &[&OpDesc]) -> Result<()> {
    check_common(inst, d, t, lay, true)?;
    let f = inst.mods.mem.format;
    if f >= 128 || text(t.gen, f) == "!" || inst.mods.mem.lds {
        return Err(Error::bad(format!("buffer format {f}")));
    }
    Ok(())
}

pub fn encode(cx: &mut Enc, d: &EncDesc, inst: &Inst) -> Result<()> {
    let op = d.op as u32;
    let f = inst.mods.mem.format as u32;
    let mut w = [PREFIX | f << 19, 0];
    match cx.t.gen {
        Gen::Gfx10 => {
            w[0] |= (op & 7) << 16;
            w[1] |= (op >> 3) << 21;
        }
        _ => w[0] |= op << 15,
    }
    encode_common(cx, d, inst, true, &mut w);
    cx.words.extend_from_slice(&w);
    Ok(())
}

pub fn decode(cx: &Dec, w: &[u32]) -> Result<(Inst, usize)> {
    let w = [word(w, 0)?, word(w, 1)?];
    let op = match cx.gen() {
        Gen::Gfx10 => (w[0] >> 16) & 7 | ((w[1] >> 21) & 1) << 3,
        _ => (w[0] >> 15) & 0xf,
    };
    let d = lookup(cx, Format::Mtbuf, op)?;
    let mut inst = decode_common(cx, d, w, true)?;
    inst.mods.mem.format = ((w[0] >> 19) & 0x7f) as u8;
    super::mem::check(&inst, d, cx.t).map_err(|e| Error::invalid(e.to_string()))?;
    Ok((inst, 2))
}

pub fn print_mods(inst: &Inst, t: Target, s: &mut String) {
    let f = text(t.gen, inst.mods.mem.format);
    if f != "-" {
        s.push_str(" format:");
        s.push_str(f);
    }
    print_flags(inst, s)
}
