//! Encoding: `Inst` → dwords, by table lookup and bit packing (no strings on this path).
//!
//! `encode` verifies the instruction against the table in debug builds (release builds
//! check only its shape: the parser verifies untrusted text itself), dispatches on the
//! format, and reports fields left for the code buffer as `Fixup`s (offsets relative to the
//! start of this instruction).

use super::error::Result;
use super::format::{self, Enc};
use super::inst::Inst;
use super::tables::Format;
use super::target::Target;

/// What a fixup patches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FixupKind {
    /// SOPP simm16: signed dword offset from the end of the branch to the target.
    Branch16,
    /// A 32-bit literal dword: absolute value of a symbol.
    Abs32,
}

/// A field the code buffer fills in once `target` (a label or symbol id) is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fixup {
    /// Byte offset of the field from the start of the instruction (Branch16: the low half
    /// of the first dword).
    pub offset: usize,
    pub kind: FixupKind,
    pub target: u32,
}

/// Appends the encoding of `inst` to `words`; fixups go to `fixups`.
pub fn encode_into(
    inst: &Inst,
    t: Target,
    words: &mut Vec<u32>,
    fixups: &mut Vec<Fixup>,
) -> Result<()> {
    // The full LLVM-legality check runs in debug builds (and always in the parser);
    // release builds trust the compiler's own instructions and only check the shape.
    let d = if cfg!(debug_assertions) {
        inst.verify(t)?
    } else {
        let d = inst.desc(t.gen)?;
        if d.format.is_mem() {
            // the memory formats' operand layout depends on modifiers: their check is the
            // shape check
            format::mem::check(inst, d, t)?;
        } else if inst.operands.len() != d.n_explicit() && inst.op_y.is_none() {
            return Err(super::error::Error::new(
                super::error::ErrorKind::OperandCount {
                    expected: d.n_explicit(),
                    found: inst.operands.len(),
                },
            ));
        }
        d
    };
    let start = words.len();
    let mut local = Vec::new();
    let mut cx = Enc {
        t,
        words,
        fixups: &mut local,
        literal: None,
    };
    // fixup offsets are computed from cx.words.len(); rebase to the instruction start
    let r = match d.format {
        Format::Sop1 => format::sop1::encode(&mut cx, d, inst),
        Format::Sop2 => format::sop2::encode(&mut cx, d, inst),
        Format::Sopc => format::sopc::encode(&mut cx, d, inst),
        Format::Sopk => format::sopk::encode(&mut cx, d, inst),
        Format::Sopp => format::sopp::encode(&mut cx, d, inst),
        Format::Smem => format::smem::encode(&mut cx, d, inst),
        Format::Vop1 => format::vop1::encode(&mut cx, d, inst),
        Format::Vop2 => format::vop2::encode(&mut cx, d, inst),
        Format::Vopc => format::vopc::encode(&mut cx, d, inst),
        Format::Vop3 => format::vop3::encode(&mut cx, d, inst),
        Format::Vop3p => format::vop3p::encode(&mut cx, d, inst),
        Format::Ds => format::ds::encode(&mut cx, d, inst),
        Format::Mubuf => format::mubuf::encode(&mut cx, d, inst),
        Format::Mtbuf => format::mtbuf::encode(&mut cx, d, inst),
        Format::Flat | Format::Global | Format::Scratch => format::flat::encode(&mut cx, d, inst),
        Format::Mimg => format::mimg::encode(&mut cx, d, inst),
        Format::Exp => format::exp::encode(&mut cx, d, inst),
        Format::Vintrp => format::vintrp::encode(&mut cx, d, inst),
        Format::Ldsdir => format::ldsdir::encode(&mut cx, d, inst),
        Format::Vinterp => format::vinterp::encode(&mut cx, d, inst),
        Format::Vop1Sdwa | Format::Vop2Sdwa | Format::VopcSdwa => {
            format::sdwa::encode(&mut cx, d, inst)
        }
        Format::Vop1Dpp | Format::Vop2Dpp | Format::VopcDpp => {
            format::dpp::encode(&mut cx, d, inst)
        }
        Format::Vop1Dpp8 | Format::Vop2Dpp8 | Format::VopcDpp8 => {
            format::dpp::encode(&mut cx, d, inst)
        }
        Format::Vop3Dpp | Format::Vop3Dpp8 => format::dpp::encode_vop3(&mut cx, d, inst),
        Format::VopdX => format::vopd::encode(&mut cx, d, inst),
        Format::VopdY => Err(super::error::Error::bad(
            "a VOPD Y half is encoded with its X half",
        )),
    };
    if r.is_err() {
        words.truncate(start);
        return r;
    }
    words[start] |= d.fixed[0];
    if d.fixed[1] != 0 {
        words[start + 1] |= d.fixed[1];
    }
    for mut f in local {
        f.offset -= start * 4;
        fixups.push(f);
    }
    Ok(())
}

/// Encodes one instruction to little-endian bytes.
pub fn encode(inst: &Inst, t: Target) -> Result<Vec<u8>> {
    let mut w = Vec::with_capacity(3);
    let mut f = Vec::new();
    encode_into(inst, t, &mut w, &mut f)?;
    Ok(w.iter().flat_map(|x| x.to_le_bytes()).collect())
}
