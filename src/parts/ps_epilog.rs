//! The colour-export epilog of a fragment shader compiled alone (docs/link.md "Graphics
//! parts"): the main part branches here with every colour channel and the depth in VGPRs
//! (`isel/graphics/parts.rs`); the epilog converts and exports them for the pipeline's
//! attachments.
//!
//! In order:
//! 1. Alpha test (GL-style state, radeonsi's epilog): `v_cmpx_<op>_f32 ref, alpha` with
//!    the operands swapped (`alpha < ref` is `ref > alpha`) keeps in EXEC the lanes whose
//!    location-0 alpha passes; `never` clears EXEC; no alpha output, no test (as radeonsi).
//!    Not-equal is the unordered compare (`neq`: NaN passes), the others ordered.
//! 2. Per colour output, by export format (`SPI_SHADER_COL_FORMAT`):
//!    - `32_R`: red; `32_GR`: red, green; `32_AR`: red, alpha; `32_ABGR`: all four, as
//!      they are;
//!    - `FP16_ABGR`, `UNORM16_ABGR`, `SNORM16_ABGR`, `UINT16_ABGR`, `SINT16_ABGR`: two
//!      channels per VGPR (`v_cvt_pkrtz_f16_f32`, `v_cvt_pknorm_u16_f32`,
//!      `v_cvt_pknorm_i16_f32`, `v_cvt_pk_u16_u32`, `v_cvt_pk_i16_i32`) into scratch
//!      VGPRs, exported compressed (`compr`, slots 0 and 2) on GFX9/GFX10.3 and in slots 0
//!      and 1 on GFX11; a pair with neither channel in the key is `off`, a missing channel
//!      of a present pair is 0.
//!
//!    The key holds only the channels the attachment uses (the link drops write-masked
//!    channels a blend cannot read, and whole locations with nothing to write).
//! 3. Dual-source blending: the second source is converted like location 0, with its
//!    format. GFX9/GFX10.3 export it to `mrt1` (RADV's and radeonsi's layout: MRT1 takes
//!    MRT0's format). GFX11 exports both sources through `dual_src_blend0/1`, which take
//!    each pair of lanes (2k, 2k+1) as one pixel's (source 0, source 1): target 0 carries
//!    the even pixel of each pair, target 1 the odd one (the swizzle of Mesa's
//!    `ac_nir_lower_ps` for GFX11). Per exported slot, with `a`/`b` the two sources:
//!    `t = a` and `u = b` read from the other lane of the pair (`v_mov_b32_dpp
//!    quad_perm:[1,0,3,2]`), then `x = even ? a : u`, `y = even ? t : b` (`v_cndmask_b32`
//!    with VCC = 0x55555555, the even lanes). Lanes of a pair whose other pixel is dead
//!    must still run it: the swizzle runs with EXEC = the whole quads of the live lanes
//!    (`s_wqm`), the live mask saved in s[0:1] (s0 in wave32) and restored before the
//!    exports; first, under EXEC = those quads without the live lanes, the sources are
//!    zeroed, so no lane reads a register the main part never wrote there (their values
//!    only reach the dead pixels).
//! 4. `mrtz` with the depth and gl_SampleMask in the channels of their SPI_SHADER_Z_FORMAT
//!    (`MrtzExport::format`; (R, G, B, A) = (depth, stencil, mask, alpha), as Mesa's
//!    `ac_nir_lower_ps_late` places them): 32_R the depth in slot 0; 32_ABGR the depth in
//!    slot 0 and the mask in slot 2; UINT16_ABGR the mask alone, its VGPR exported as is
//!    as the second packed dword (channels B, A: the hardware reads its low 16 bits) —
//!    compressed with the VGPR in slots 2 and 3 on GFX9/GFX10.3, in slot 1 on GFX11.
//!    GFX11 alpha to coverage with such an export adds location 0's alpha (`mrtz_alpha`:
//!    32_AR with the alpha in slot 1, or 32_ABGR slot 3), because GFX11 takes the alpha
//!    for coverage from MRTZ whenever MRTZ is exported (RADV's `alpha_to_coverage_via_mrtz`
//!    in its epilog key). With
//!    nothing to export, the null export (GFX11: `mrt0` with no channel, its format
//!    ZERO).
//!
//! The last export is `done` (and `vm` on GFX9/GFX10.3: the valid mask is EXEC, the
//! surviving pixels, as the main part and the alpha test left it). Scratch VGPRs start
//! above every VGPR of the key; the epilog writes VCC (the alpha test's `v_cmpx` on GFX9,
//! which writes both; the GFX11 swizzle) and, for the GFX11 dual-source swizzle, s0
//! (s[0:1] in wave64) — the main part's SGPRs are dead at the branch.

use super::code::{export, inst_with, int, sreg, target, v};
use super::{Part, PartError};
use crate::amdgpu::abi_graphics::{AlphaTest, ColorFormat, CompareFunc};
use crate::isa::inst::Dpp;
use crate::isa::{BufferError, CodeBuffer, Format, Gen, Opcode, Operand, Reg, Target};

/// Everything the colour-export epilog depends on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PsEpilogKey {
    pub target: Target,
    /// Per colour output: (MRT, export format, the VGPR of each channel or none).
    pub colors: Vec<(u32, ColorFormat, [Option<u16>; 4])>,
    /// The depth's VGPR (`mrtz`).
    pub depth: Option<u16>,
    /// gl_SampleMask's VGPR (`mrtz`).
    pub sample_mask: Option<u16>,
    /// GFX11 alpha to coverage beside a depth or sample-mask export: location 0's alpha
    /// VGPR, also exported in `mrtz` (the hardware then reads the alpha there).
    pub mrtz_alpha: Option<u16>,
    /// Dual-source blending: the second source's VGPRs (exported with MRT 0's format,
    /// which must be in `colors`).
    pub dual_source: Option<[Option<u16>; 4]>,
    /// The alpha test with location 0's alpha VGPR (none: the shader writes no alpha).
    pub alpha_test: Option<(AlphaTest, Option<u16>)>,
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

fn alpha_text(t: &(AlphaTest, Option<u16>)) -> String {
    format!(
        "{}:{:#x}:{}",
        t.0.func.name(),
        t.0.reference,
        reg_list(&[t.1])
    )
}

/// The VOPC compare computing `reference <op> alpha` for `f` (the alpha test with its
/// operands swapped: the literal must be source 0); `None` for never and always.
fn swapped_compare(f: CompareFunc) -> Option<Opcode> {
    Some(match f {
        CompareFunc::Less => Opcode::VCmpxGtF32,
        CompareFunc::Equal => Opcode::VCmpxEqF32,
        CompareFunc::LessOrEqual => Opcode::VCmpxGeF32,
        CompareFunc::Greater => Opcode::VCmpxLtF32,
        CompareFunc::NotEqual => Opcode::VCmpxNeqF32,
        CompareFunc::GreaterOrEqual => Opcode::VCmpxLeF32,
        CompareFunc::Never | CompareFunc::Always => return None,
    })
}

/// One export being built: target, the four slots, `compr`.
type Exp = (u32, [Operand; 4], bool);

/// The encoder's state: the buffer and the next scratch VGPR.
struct Epilog {
    buf: CodeBuffer,
    gen: Gen,
    scratch: u16,
}

fn enc(e: BufferError) -> PartError {
    PartError::Encode(e.to_string())
}

impl Epilog {
    fn scratch(&mut self) -> u16 {
        self.scratch += 1;
        self.scratch - 1
    }

    /// `op` in `format` (the generation's rename) with `ops`.
    fn inst(&mut self, op: Opcode, format: Format, ops: &[Operand]) -> Result<(), PartError> {
        inst_with(&mut self.buf, self.gen, op, format, ops, |_| {}).map_err(enc)
    }

    /// The lane-mask form of a scalar operation (`_b32` in wave32, `_b64` in wave64).
    fn mask_op(&self, b32: Opcode, b64: Opcode) -> Opcode {
        if self.buf.t.wave.mask_dwords() == 1 {
            b32
        } else {
            b64
        }
    }

    fn exec(&self) -> Operand {
        Operand::Reg(Reg::exec(self.buf.t.wave))
    }

    /// The alpha test: EXEC keeps the lanes that pass.
    fn alpha_test(&mut self, t: AlphaTest, alpha: Option<u16>) -> Result<(), PartError> {
        match (t.func, swapped_compare(t.func), alpha) {
            (CompareFunc::Never, _, _) => {
                let mov = self.mask_op(Opcode::SMovB32, Opcode::SMovB64);
                let exec = self.exec();
                self.inst(mov, Format::Sop1, &[exec, int(0)])
            }
            (_, Some(op), Some(a)) => self.inst(op, Format::Vopc, &[int(t.reference), v(a)]),
            _ => Ok(()),
        }
    }

    /// The export of one colour output in format `f` to target `tgt`.
    fn color(&mut self, tgt: u32, f: ColorFormat, r: [Option<u16>; 4]) -> Result<Exp, PartError> {
        let off = Operand::Off;
        let src = |r: Option<u16>| r.map_or(Operand::Off, v);
        let gen = self.gen;
        let Some(op) = f.pack_op() else {
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
            return Ok((tgt, srcs, false));
        };
        let mut halves = [off; 2];
        for (h, pair) in r.chunks(2).enumerate() {
            if pair.iter().all(Option::is_none) {
                continue;
            }
            let ch = |x: Option<u16>| x.map_or(int(0), v);
            let d = self.scratch();
            // the 4-byte VOP2 form where the generation has one and the second channel
            // is a VGPR (VOP2's vsrc1 takes no constant)
            let vop2 = pair[1].is_some()
                && op
                    .on(gen)
                    .is_some_and(|o| crate::isa::tables::form(gen, o, Format::Vop2).is_some());
            let format = if vop2 { Format::Vop2 } else { Format::Vop3 };
            self.inst(op, format, &[v(d), ch(pair[0]), ch(pair[1])])?;
            halves[h] = v(d);
        }
        Ok(if gen == Gen::Gfx11 {
            (tgt, [halves[0], halves[1], off, off], false)
        } else {
            (tgt, [halves[0], halves[0], halves[1], halves[1]], true)
        })
    }

    /// The `mrtz` export of `depth` and `mask` (module doc, step 4).
    fn mrtz(&self, depth: Option<u16>, mask: Option<u16>, alpha: Option<u16>) -> Option<Exp> {
        use crate::amdgpu::abi_graphics::MrtzExport;
        let off = Operand::Off;
        let src = |r: Option<u16>| r.map_or(off, v);
        let f = MrtzExport {
            depth: depth.is_some(),
            sample_mask: mask.is_some(),
            alpha: alpha.is_some(),
        }
        .format()?;
        let mut s = [src(depth), off, src(mask), off];
        if let Some(a) = alpha {
            let slot = match f {
                ColorFormat::Ar32 => ColorFormat::ar32_alpha_slot(self.gen),
                _ => 3,
            };
            s[slot] = v(a);
        }
        Some(match f {
            ColorFormat::Uint16Abgr if self.gen == Gen::Gfx11 => {
                (target::MRTZ, [off, src(mask), off, off], false)
            }
            ColorFormat::Uint16Abgr => (target::MRTZ, [off, off, src(mask), src(mask)], true),
            _ => (target::MRTZ, s, false),
        })
    }

    /// GFX11 dual-source blending: the two sources' exports `a` (MRT 0) and `b` (its
    /// second source) swizzled into the `dual_src_blend0/1` exports (module doc).
    fn dual_source_gfx11(&mut self, a: Exp, b: Exp) -> Result<[Exp; 2], PartError> {
        let wave = self.buf.t.wave;
        let exec = self.exec();
        let live = sreg(0, wave.mask_dwords());
        let slots: Vec<usize> = (0..4)
            .filter(|&k| a.1[k] != Operand::Off || b.1[k] != Operand::Off)
            .collect();
        let mov = self.mask_op(Opcode::SMovB32, Opcode::SMovB64);
        let wqm = self.mask_op(Opcode::SWqmB32, Opcode::SWqmB64);
        let andn2 = self.mask_op(Opcode::SAndn2B32, Opcode::SAndn2B64);
        self.inst(mov, Format::Sop1, &[live, exec])?;
        self.inst(wqm, Format::Sop1, &[exec, exec])?;
        self.inst(andn2, Format::Sop2, &[exec, exec, live])?;
        // the dead lanes of the live quads: sources zeroed (each VGPR once)
        let mut zeroed: Vec<Operand> = Vec::new();
        for &k in &slots {
            for o in [a.1[k], b.1[k]] {
                if o != Operand::Off && !zeroed.contains(&o) {
                    self.inst(Opcode::VMovB32, Format::Vop1, &[o, int(0)])?;
                    zeroed.push(o);
                }
            }
        }
        self.inst(wqm, Format::Sop1, &[exec, live])?;
        // a slot one source leaves off reads 0
        let mut zero = None;
        if slots
            .iter()
            .any(|&k| a.1[k] == Operand::Off || b.1[k] == Operand::Off)
        {
            let z = v(self.scratch());
            self.inst(Opcode::VMovB32, Format::Vop1, &[z, int(0)])?;
            zero = Some(z);
        }
        let even = Operand::Literal(0x5555_5555);
        self.inst(
            Opcode::SMovB32,
            Format::Sop1,
            &[Operand::Reg(Reg::s(106, 1)), even],
        )?;
        if wave.mask_dwords() == 2 {
            self.inst(
                Opcode::SMovB32,
                Format::Sop1,
                &[Operand::Reg(Reg::s(107, 1)), even],
            )?;
        }
        let off = Operand::Off;
        let (mut x, mut y) = ([off; 4], [off; 4]);
        let swap = Dpp {
            ctrl: 0b10_11_00_01, // quad_perm:[1,0,3,2]
            ..Dpp::default()
        };
        for &k in &slots {
            let pa = if a.1[k] == off { zero.unwrap() } else { a.1[k] };
            let pb = if b.1[k] == off { zero.unwrap() } else { b.1[k] };
            let [t, u, xk, yk] = [0; 4].map(|_| v(self.scratch()));
            for (d, s) in [(t, pa), (u, pb)] {
                inst_with(
                    &mut self.buf,
                    self.gen,
                    Opcode::VMovB32,
                    Format::Vop1Dpp,
                    &[d, s],
                    |m| m.dpp = swap,
                )
                .map_err(enc)?;
            }
            // v_cndmask_b32 d, s0, s1, vcc: the even lanes (VCC set) take s1
            self.inst(Opcode::VCndmaskB32, Format::Vop2, &[xk, u, pa])?;
            self.inst(Opcode::VCndmaskB32, Format::Vop2, &[yk, pb, t])?;
            x[k] = xk;
            y[k] = yk;
        }
        self.inst(mov, Format::Sop1, &[exec, live])?;
        Ok([
            (target::DUAL_SRC_BLEND0, x, false),
            (target::DUAL_SRC_BLEND0 + 1, y, false),
        ])
    }
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
            "ps_epilog;target={};wave={};colors=[{}];depth={};sample_mask={};mrtz_alpha={};dual={};alpha_test={}",
            self.target.mcpu(),
            self.target.wave.lanes(),
            colors.join(","),
            reg_list(&[self.depth]),
            reg_list(&[self.sample_mask]),
            reg_list(&[self.mrtz_alpha]),
            self.dual_source.map_or("-".into(), |r| reg_list(&r)),
            self.alpha_test.as_ref().map_or("-".into(), alpha_text),
        )
    }

    /// Runs the generator.
    pub fn build(&self, symbol: &str) -> Result<Part, PartError> {
        let gen = self.target.gen;
        let used = self
            .colors
            .iter()
            .flat_map(|c| c.2.iter().flatten())
            .chain(self.dual_source.iter().flatten().flatten())
            .chain(self.depth.iter())
            .chain(self.sample_mask.iter())
            .chain(self.mrtz_alpha.iter())
            .chain(self.alpha_test.iter().filter_map(|t| t.1.as_ref()))
            .copied()
            .max();
        let first_scratch = used.map_or(0, |m| m + 1);
        let mut e = Epilog {
            buf: CodeBuffer::new(self.target),
            gen,
            scratch: first_scratch,
        };
        if let Some((t, alpha)) = self.alpha_test {
            e.alpha_test(t, alpha)?;
        }
        let mut exports: Vec<Exp> = Vec::new();
        for &(mrt, f, r) in &self.colors {
            if mrt >= 8 {
                return Err(PartError::Unsatisfiable(format!("colour output {mrt}")));
            }
            exports.push(e.color(target::MRT0 + mrt, f, r)?);
        }
        let mut sgprs = 0;
        if let Some(src1) = self.dual_source {
            let Some(&(_, f, _)) = self.colors.iter().find(|c| c.0 == 0) else {
                return Err(PartError::Unsatisfiable(
                    "dual-source blending without colour output 0".into(),
                ));
            };
            if self.colors.iter().any(|c| c.0 != 0) {
                return Err(PartError::Unsatisfiable(
                    "dual-source blending with a colour output other than 0".into(),
                ));
            }
            let second = e.color(target::MRT0 + 1, f, src1)?;
            if gen == Gen::Gfx11 {
                let first = exports.pop().expect("colour output 0");
                exports.extend(e.dual_source_gfx11(first, second)?);
                sgprs = self.target.wave.mask_dwords() as u32;
            } else {
                exports.push(second);
            }
        }
        exports.extend(e.mrtz(self.depth, self.sample_mask, self.mrtz_alpha));
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
                &mut e.buf,
                gen,
                tgt,
                srcs,
                last,
                last && gen != Gen::Gfx11,
                compr,
            )
            .map_err(enc)?;
        }
        e.buf
            .op(Opcode::SEndpgm, Format::Sopp, &[Operand::Imm(0)])
            .map_err(enc)?;
        let scratch = e.scratch;
        let code = e.buf.finish().map_err(enc)?;
        let mut inputs: Vec<String> = Vec::new();
        for (mrt, f, r) in &self.colors {
            inputs.push(format!("mrt{mrt} {} {}", format_name(*f), reg_list(r)));
        }
        if let Some(r) = &self.dual_source {
            inputs.push(format!("dual_source {}", reg_list(r)));
        }
        if self.depth.is_some() {
            inputs.push(format!("depth {}", reg_list(&[self.depth])));
        }
        if self.sample_mask.is_some() {
            inputs.push(format!("sample_mask {}", reg_list(&[self.sample_mask])));
        }
        if self.mrtz_alpha.is_some() {
            inputs.push(format!("mrtz_alpha {}", reg_list(&[self.mrtz_alpha])));
        }
        if let Some(t) = &self.alpha_test {
            inputs.push(format!("alpha_test {}", alpha_text(t)));
        }
        let mut clobbers: Vec<String> = (first_scratch..scratch).map(|r| format!("v{r}")).collect();
        let cmpx = self.alpha_test.is_some() && gen == Gen::Gfx9;
        if cmpx || (self.dual_source.is_some() && gen == Gen::Gfx11) {
            clobbers.push("vcc".into());
        }
        if sgprs > 0 {
            clobbers.push(if sgprs == 1 {
                "s0".into()
            } else {
                "s[0:1]".into()
            });
        }
        Ok(Part {
            kind: "ps_epilog",
            symbol: symbol.to_string(),
            next: None,
            code: code.bytes,
            relocations: code.relocations,
            sgprs,
            vgprs: scratch as u32,
            interface: vec![
                ("inputs", inputs),
                ("clobbers", clobbers),
                ("exit", vec![Opcode::SEndpgm.name().into()]),
            ],
            target: self.target,
            loads: 0,
        })
    }
}
