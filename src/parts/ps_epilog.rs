//! The colour-export epilog of a fragment shader compiled alone (docs/link.md "Graphics
//! parts"): the main part branches here with every colour channel and the depth in VGPRs
//! (`isel/graphics/parts.rs`); the epilog converts and exports them for the pipeline's
//! attachments.
//!
//! Per colour output, by export format (`SPI_SHADER_COL_FORMAT`):
//! - `32_R`: red; `32_GR`: red, green; `32_AR`: red, alpha; `32_ABGR`: all four, as they are;
//! - `FP16_ABGR`, `UNORM16_ABGR`, `SNORM16_ABGR`, `UINT16_ABGR`, `SINT16_ABGR`: two channels
//!   per VGPR (`v_cvt_pkrtz_f16_f32`, `v_cvt_pknorm_u16_f32`, `v_cvt_pknorm_i16_f32`,
//!   `v_cvt_pk_u16_u32`, `v_cvt_pk_i16_i32`) into scratch VGPRs, exported compressed (`compr`,
//!   slots 0 and 2) on GFX9/GFX10.3 and in slots 0 and 1 on GFX11; a pair with neither
//!   channel written is `off`, an unwritten channel of a written pair is 0.
//!
//! Then `mrtz` with the depth; with nothing to export, the null export (GFX11: `mrt0` with
//! no channel, its format ZERO). The last export is `done` (and `vm` on GFX9/GFX10.3: the
//! valid mask is EXEC, the surviving pixels, as the main part left it). Write masks are
//! not part of the key: the colour block applies them, and a masked channel can still
//! feed blending, so every channel is exported. Scratch VGPRs start above every VGPR of
//! the key; the epilog writes no SGPR.

use super::code::{export, int, target, v};
use super::{Part, PartError};
use crate::amdgpu::abi_graphics::ColorFormat;
use crate::isa::{BufferError, CodeBuffer, Format, Gen, Opcode, Operand, Target};

/// Everything the colour-export epilog depends on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PsEpilogKey {
    pub target: Target,
    /// Per colour output: (MRT, export format, the VGPR of each channel or none).
    pub colors: Vec<(u32, ColorFormat, [Option<u16>; 4])>,
    /// The depth's VGPR (`mrtz`).
    pub depth: Option<u16>,
}

/// The `SPI_SHADER_COL_FORMAT` name of a format (the key's text).
pub fn format_name(f: ColorFormat) -> &'static str {
    match f {
        ColorFormat::R32 => "32_R",
        ColorFormat::Gr32 => "32_GR",
        ColorFormat::Ar32 => "32_AR",
        ColorFormat::Abgr32 => "32_ABGR",
        ColorFormat::Fp16Abgr => "FP16_ABGR",
        ColorFormat::Unorm16Abgr => "UNORM16_ABGR",
        ColorFormat::Snorm16Abgr => "SNORM16_ABGR",
        ColorFormat::Uint16Abgr => "UINT16_ABGR",
        ColorFormat::Sint16Abgr => "SINT16_ABGR",
    }
}

/// The format of a `SPI_SHADER_COL_FORMAT` name ([`format_name`]'s inverse).
pub fn format_from_name(name: &str) -> Option<ColorFormat> {
    ColorFormat::ALL
        .into_iter()
        .find(|&f| format_name(f) == name)
}

fn reg_list(r: &[Option<u16>]) -> String {
    r.iter()
        .map(|x| x.map_or("-".to_string(), |n| format!("v{n}")))
        .collect::<Vec<_>>()
        .join(" ")
}

impl PsEpilogKey {
    /// Stable text of the key.
    pub fn canonical(&self) -> String {
        let colors: Vec<String> = self
            .colors
            .iter()
            .map(|(mrt, f, r)| format!("mrt{mrt}:{}:{}", format_name(*f), reg_list(r)))
            .collect();
        format!(
            "ps_epilog;target={};wave={};colors=[{}];depth={}",
            self.target.mcpu(),
            self.target.wave.lanes(),
            colors.join(","),
            reg_list(&[self.depth])
        )
    }

    /// Runs the generator.
    pub fn build(&self, symbol: &str) -> Result<Part, PartError> {
        let gen = self.target.gen;
        let enc = |e: BufferError| PartError::Encode(e.to_string());
        let used = self
            .colors
            .iter()
            .flat_map(|c| c.2.iter().flatten())
            .chain(self.depth.iter())
            .copied()
            .max();
        let mut scratch = used.map_or(0, |m| m + 1);
        let first_scratch = scratch;
        let mut buf = CodeBuffer::new(self.target);
        let mut exports: Vec<(u32, [Operand; 4], bool)> = Vec::new();
        let src = |r: Option<u16>| r.map_or(Operand::Off, v);
        for &(mrt, f, r) in &self.colors {
            if mrt >= 8 {
                return Err(PartError::Unsatisfiable(format!("colour output {mrt}")));
            }
            let off = Operand::Off;
            let tgt = target::MRT0 + mrt;
            match f.pack_op() {
                None => {
                    let srcs = match f {
                        ColorFormat::R32 => [src(r[0]), off, off, off],
                        ColorFormat::Gr32 => [src(r[0]), src(r[1]), off, off],
                        ColorFormat::Ar32 => {
                            let mut s = [src(r[0]), off, off, off];
                            s[ColorFormat::ar32_alpha_slot(gen)] = src(r[3]);
                            s
                        }
                        _ => r.map(src),
                    };
                    exports.push((tgt, srcs, false));
                }
                Some(op) => {
                    let mut halves = [off; 2];
                    for (h, pair) in r.chunks(2).enumerate() {
                        if pair.iter().all(Option::is_none) {
                            continue;
                        }
                        let ch = |x: Option<u16>| x.map_or(int(0), v);
                        let d = scratch;
                        scratch += 1;
                        // the 4-byte VOP2 form where the generation has one
                        let vop2 = op.on(gen).is_some_and(|o| {
                            crate::isa::tables::form(gen, o, Format::Vop2).is_some()
                        });
                        super::code::inst_with(
                            &mut buf,
                            gen,
                            op,
                            if vop2 { Format::Vop2 } else { Format::Vop3 },
                            &[v(d), ch(pair[0]), ch(pair[1])],
                            |_| {},
                        )
                        .map_err(enc)?;
                        halves[h] = v(d);
                    }
                    if gen == Gen::Gfx11 {
                        exports.push((tgt, [halves[0], halves[1], off, off], false));
                    } else {
                        exports.push((tgt, [halves[0], halves[0], halves[1], halves[1]], true));
                    }
                }
            }
        }
        if let Some(d) = self.depth {
            let off = Operand::Off;
            exports.push((target::MRTZ, [v(d), off, off, off], false));
        }
        if exports.is_empty() {
            // GFX11 has no null target: mrt0 with no channel (its format is ZERO)
            let tgt = if gen == Gen::Gfx11 {
                target::MRT0
            } else {
                target::NULL
            };
            exports.push((tgt, [Operand::Off; 4], false));
        }
        let n = exports.len();
        for (k, (tgt, srcs, compr)) in exports.into_iter().enumerate() {
            let last = k + 1 == n;
            export(
                &mut buf,
                gen,
                tgt,
                srcs,
                last,
                last && gen != Gen::Gfx11,
                compr,
            )
            .map_err(enc)?;
        }
        buf.op(Opcode::SEndpgm, Format::Sopp, &[Operand::Imm(0)])
            .map_err(enc)?;
        let code = buf.finish().map_err(enc)?;
        let mut inputs: Vec<String> = Vec::new();
        for (mrt, f, r) in &self.colors {
            inputs.push(format!("mrt{mrt} {} {}", format_name(*f), reg_list(r)));
        }
        if self.depth.is_some() {
            inputs.push(format!("depth {}", reg_list(&[self.depth])));
        }
        Ok(Part {
            kind: "ps_epilog",
            symbol: symbol.to_string(),
            next: None,
            code: code.bytes,
            relocations: code.relocations,
            sgprs: 0,
            vgprs: scratch as u32,
            interface: vec![
                ("inputs", inputs),
                (
                    "clobbers",
                    (first_scratch..scratch).map(|r| format!("v{r}")).collect(),
                ),
                ("exit", vec![Opcode::SEndpgm.name().into()]),
            ],
            target: self.target,
            loads: 0,
        })
    }
}
