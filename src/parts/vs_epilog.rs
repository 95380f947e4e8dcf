//! The parameter-export epilog of a vertex shader compiled alone (docs/link.md "Graphics
//! parts"): the main part branches here with its position, point size, clip/cull
//! distances and output locations in VGPRs (`isel/graphics/parts.rs`); the epilog exports
//! the position and, of the outputs, those the pipeline's fragment shader reads, in the
//! fragment shader's attribute order (parameter `p` is the p-th exported one, which the
//! link writes into `SPI_PS_INPUT_CNTL`).
//!
//! GFX9 / GFX10.3: `exp pos0` (`pos1` the misc vector: x the point size, y the primitive
//! shading rate in the hardware's encoding, z gl_Layer | gl_ViewportIndex << 16 — one
//! `v_lshl_or_b32` into a scratch VGPR when the viewport index is written, Mesa's
//! `ac_nir_export_position` layout for GFX9+; then the distances four to an export; the
//! last position export `done`), then `exp paramN`. GFX11 (no parameter
//! exports): the attribute ring as Mesa writes it on GFX11 (docs/abi.md "The GFX11
//! attribute ring: facts and sources") — `s_getpc_b64` + the global table's low half (a
//! user SGPR the main part kept live to its branch) form the table's address,
//! `s_load_b128` the ring's V# at `ATTR_RING_GIT_OFFSET` (the driver's: swizzled, 16-byte
//! elements, index stride 32, STRIDE 0), whose dword 1 gets STRIDE = 16 × max(1,
//! parameters) ORed in; the subgroup's place is bits 14:0 of the NGG system SGPR s5 (also
//! kept live by the main part) in 512-byte units, the soffset; the vertex index is the
//! thread's index in the subgroup (`v_mbcnt`: subgroups are one wave); each parameter is
//! copied into four consecutive scratch VGPRs (unwritten channels 0) and stored with
//! `buffer_store_b128 … idxen offset:16·p`. Then `s_waitcnt_vscnt null, 0` before the
//! position exports, so the ring holds every attribute before pixel waves can start.
//! Then `s_endpgm`.
//!
//! NGG with `primitive_id_lds`: that parameter's x is the primitive id, loaded with
//! `ds_read_b32` from LDS byte `4 · lane`, where the main part's prologue stored the id of
//! the primitive the vertex provokes (`isel/ngg.rs`); GFX9 has it in a VGPR like any
//! parameter channel (v2 of the hardware VS, kept by the main part).
//!
//! Scratch registers start above every register of the key.

use super::code::{export, inst_with, int, sreg, target, v, PartCode};
use super::{Part, PartError};
use crate::amdgpu::abi_graphics::{
    attr_ring_stride, ATTR_RING_ELEMENT_BYTES, ATTR_RING_GIT_OFFSET, ATTR_RING_OFFSET_MASK,
    ATTR_RING_OFFSET_SHIFT,
};
use crate::isa::{BufferError, CodeBuffer, Format, Gen, Opcode, Operand, Reg, Target, Wave};

/// Everything the parameter-export epilog depends on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VsEpilogKey {
    pub target: Target,
    /// The position's VGPRs.
    pub pos: [u16; 4],
    /// The point size's VGPR.
    pub point_size: Option<u16>,
    /// The primitive shading rate's VGPR, already in the hardware's encoding (GFX10.3+).
    pub shading_rate: Option<u16>,
    /// gl_Layer's VGPR (the raw layer).
    pub layer: Option<u16>,
    /// gl_ViewportIndex's VGPR (the raw viewport index).
    pub viewport: Option<u16>,
    /// Clip then cull distances' VGPRs.
    pub distances: Vec<u16>,
    /// The parameters in export order (the fragment shader's attribute order): each
    /// channel's VGPR or none.
    pub params: Vec<[Option<u16>; 4]>,
    /// GFX11 with parameters: the SGPR holding the global table's low half.
    pub global_table: Option<u16>,
    /// GFX11 with parameters: the SGPR holding the NGG system SGPR s5 (the subgroup's
    /// attribute-ring offset).
    pub attr_offset: Option<u16>,
    /// NGG: the parameter (its x channel; the others unwritten) that is the primitive id
    /// the main part's prologue stored to LDS at byte `4 · vertex` (`isel/ngg.rs`).
    pub primitive_id_lds: Option<usize>,
}

fn regs(r: &[Option<u16>]) -> String {
    r.iter()
        .map(|x| x.map_or("-".to_string(), |n| format!("v{n}")))
        .collect::<Vec<_>>()
        .join(" ")
}

impl VsEpilogKey {
    /// Whether the misc position export (pos1) is written: point size, shading rate,
    /// layer or viewport index.
    pub fn writes_misc(&self) -> bool {
        self.point_size.is_some()
            || self.shading_rate.is_some()
            || self.layer.is_some()
            || self.viewport.is_some()
    }

    /// Stable text of the key.
    pub fn canonical(&self) -> String {
        let some = |r: &[u16]| r.iter().map(|&n| Some(n)).collect::<Vec<_>>();
        format!(
            "vs_epilog;target={};wave={};pos={};psize={};dist=[{}];params=[{}];git={}",
            self.target.mcpu(),
            self.target.wave.lanes(),
            regs(&some(&self.pos)),
            regs(&[self.point_size]),
            regs(&some(&self.distances)),
            self.params
                .iter()
                .map(|p| regs(p))
                .collect::<Vec<_>>()
                .join(","),
            self.global_table.map_or("-".into(), |s| format!("s{s}")),
        ) + &self
            .attr_offset
            .map_or(String::new(), |s| format!(";attr=s{s}"))
            + &self
                .primitive_id_lds
                .map_or(String::new(), |p| format!(";primid_lds=param{p}"))
            + &self
                .shading_rate
                .map_or(String::new(), |r| format!(";vrs=v{r}"))
            + &self.layer.map_or(String::new(), |r| format!(";layer=v{r}"))
            + &self
                .viewport
                .map_or(String::new(), |r| format!(";viewport=v{r}"))
    }

    /// Runs the generator.
    pub fn build(&self, symbol: &str) -> Result<Part, PartError> {
        let gen = self.target.gen;
        let enc = |e: BufferError| PartError::Encode(e.to_string());
        let mut buf = CodeBuffer::new(self.target);
        let vmax = self
            .pos
            .iter()
            .chain(self.point_size.iter())
            .chain(self.shading_rate.iter())
            .chain(self.layer.iter())
            .chain(self.viewport.iter())
            .chain(&self.distances)
            .chain(self.params.iter().flatten().flatten())
            .copied()
            .max()
            .unwrap_or(0);
        let mut vgprs = vmax as u32 + 1;
        let mut sgprs = 0u32;
        let mut clobbers = Vec::new();
        let ring = gen == Gen::Gfx11 && !self.params.is_empty();
        // scratch VGPRs: the lane index, the primitive id loaded from LDS, the ring data
        let lane = vmax + 1;
        let pid = vmax + 2;
        let mut params = self.params.clone();
        if let Some(k) = self.primitive_id_lds {
            let p = params.get_mut(k).ok_or_else(|| {
                PartError::Unsatisfiable(format!(
                    "the primitive id is parameter {k} of {}",
                    self.params.len()
                ))
            })?;
            p[0] = Some(pid);
        }
        if ring || self.primitive_id_lds.is_some() {
            let mbcnt = [v(lane), int(u32::MAX), int(0)];
            inst_with(
                &mut buf,
                gen,
                Opcode::VMbcntLoU32B32,
                Format::Vop3,
                &mbcnt,
                |_| {},
            )
            .map_err(enc)?;
            if self.target.wave == Wave::W64 {
                let hi = [v(lane), int(u32::MAX), v(lane)];
                inst_with(
                    &mut buf,
                    gen,
                    Opcode::VMbcntHiU32B32,
                    Format::Vop3,
                    &hi,
                    |_| {},
                )
                .map_err(enc)?;
            }
            vgprs = pid as u32 + 1;
            clobbers.push(format!("v{lane}..v{pid}"));
        }
        if self.primitive_id_lds.is_some() {
            // NGG: the id the prologue stored at this vertex's LDS slot (4 · lane)
            let shl = [v(pid), int(2), v(lane)];
            buf.op(Opcode::VLshlrevB32, Format::Vop2, &shl)
                .map_err(enc)?;
            inst_with(
                &mut buf,
                gen,
                Opcode::DsReadB32,
                Format::Ds,
                &[v(pid), v(pid)],
                |_| {},
            )
            .map_err(enc)?;
            buf.wait_lgkm().map_err(enc)?;
        }
        if ring {
            let unsat = |what: &str| {
                PartError::Unsatisfiable(format!(
                    "GFX11 parameters need {what} (the attribute ring)"
                ))
            };
            let git = self
                .global_table
                .ok_or_else(|| unsat("the global table's SGPR"))?;
            let attr = self
                .attr_offset
                .ok_or_else(|| unsat("the subgroup's ring offset SGPR (s5)"))?;
            // s[t:t+1] the table address, s[r:r+3] the ring's V#, s[o] the soffset
            let t = (git.max(attr) + 1).next_multiple_of(4);
            let (r, o) = (t + 4, t + 8);
            sgprs = o as u32 + 1;
            let data = pid + 1;
            vgprs = data as u32 + 4 * params.len() as u32;
            clobbers.push(format!("s{t}..s{o}"));
            clobbers.push(format!("v{data}..v{}", vgprs - 1));
            buf.s_getpc(t).map_err(enc)?;
            buf.s_mov(t, git).map_err(enc)?;
            inst_with(
                &mut buf,
                gen,
                Opcode::SLoadDwordx4,
                Format::Smem,
                &[sreg(r, 4), sreg(t, 2), Operand::Imm(ATTR_RING_GIT_OFFSET)],
                |_| {},
            )
            .map_err(enc)?;
            // soffset = s5[14:0] << 9 (512-byte units)
            let sop2 = |buf: &mut CodeBuffer, op: Opcode, d: u16, a: Operand, b: u32| {
                buf.op(op, Format::Sop2, &[sreg(d, 1), a, int(b)])
            };
            sop2(
                &mut buf,
                Opcode::SAndB32,
                o,
                sreg(attr, 1),
                ATTR_RING_OFFSET_MASK,
            )
            .map_err(enc)?;
            sop2(
                &mut buf,
                Opcode::SLshlB32,
                o,
                sreg(o, 1),
                ATTR_RING_OFFSET_SHIFT,
            )
            .map_err(enc)?;
            for (p, chans) in params.iter().enumerate() {
                let d = data + 4 * p as u16;
                for (c, r) in chans.iter().enumerate() {
                    let s = r.map_or(int(0), v);
                    inst_with(
                        &mut buf,
                        gen,
                        Opcode::VMovB32,
                        Format::Vop1,
                        &[v(d + c as u16), s],
                        |_| {},
                    )
                    .map_err(enc)?;
                }
            }
            buf.wait_lgkm().map_err(enc)?;
            // the V#'s STRIDE (dword 1, bits 29:16): one element per parameter
            let stride = attr_ring_stride(params.len()) << 16;
            sop2(&mut buf, Opcode::SOrB32, r + 1, sreg(r + 1, 1), stride).map_err(enc)?;
            for p in 0..params.len() {
                let d = data + 4 * p as u16;
                let ops = [Operand::Reg(Reg::v(d, 4)), v(lane), sreg(r, 4), sreg(o, 1)];
                inst_with(
                    &mut buf,
                    gen,
                    Opcode::BufferStoreDwordx4,
                    Format::Mubuf,
                    &ops,
                    |m| {
                        m.mem.idxen = true;
                        m.mem.offset = (p as u32 * ATTR_RING_ELEMENT_BYTES) as i32;
                    },
                )
                .map_err(enc)?;
            }
            buf.op(
                Opcode::SWaitcntVscnt,
                Format::Sopk,
                &[Operand::Reg(Reg::null()), Operand::Imm(0)],
            )
            .map_err(enc)?;
        }
        // the position exports, the last one `done`
        let off = Operand::Off;
        // the misc vector's z: layer | viewport << 16 (GFX9+), in a scratch VGPR above
        // every other one when the viewport index is written
        let misc_z = match (self.layer, self.viewport) {
            (l, None) => l.map(v),
            (l, Some(vp)) => {
                let z = vgprs as u16;
                vgprs += 1;
                clobbers.push(format!("v{z}"));
                match l {
                    Some(l) => inst_with(
                        &mut buf,
                        gen,
                        Opcode::VLshlOrB32,
                        Format::Vop3,
                        &[v(z), v(vp), int(16), v(l)],
                        |_| {},
                    ),
                    None => buf.op(Opcode::VLshlrevB32, Format::Vop2, &[v(z), int(16), v(vp)]),
                }
                .map_err(enc)?;
                Some(v(z))
            }
        };
        let mut pos: Vec<[Operand; 4]> = vec![self.pos.map(v)];
        if self.writes_misc() {
            // the misc vector: x the point size, y the shading rate, z layer and viewport
            let r = |x: Option<u16>| x.map_or(off, v);
            pos.push([
                r(self.point_size),
                r(self.shading_rate),
                misc_z.unwrap_or(off),
                off,
            ]);
        }
        for chunk in self.distances.chunks(4) {
            let mut e = [off; 4];
            for (k, &r) in chunk.iter().enumerate() {
                e[k] = v(r);
            }
            pos.push(e);
        }
        let n = pos.len();
        for (k, e) in pos.into_iter().enumerate() {
            export(
                &mut buf,
                gen,
                target::POS0 + k as u32,
                e,
                k + 1 == n,
                false,
                false,
            )
            .map_err(enc)?;
        }
        if !ring {
            for (p, chans) in params.iter().enumerate() {
                let e = chans.map(|r| r.map_or(off, v));
                export(
                    &mut buf,
                    gen,
                    target::PARAM0 + p as u32,
                    e,
                    false,
                    false,
                    false,
                )
                .map_err(enc)?;
            }
        }
        buf.op(Opcode::SEndpgm, Format::Sopp, &[Operand::Imm(0)])
            .map_err(enc)?;
        let code = buf.finish().map_err(enc)?;
        let mut inputs = vec![format!("pos {}", regs(&self.pos.map(Some)))];
        if self.point_size.is_some() {
            inputs.push(format!("point_size {}", regs(&[self.point_size])));
        }
        if self.shading_rate.is_some() {
            inputs.push(format!("shading_rate {}", regs(&[self.shading_rate])));
        }
        if self.layer.is_some() {
            inputs.push(format!("layer {}", regs(&[self.layer])));
        }
        if self.viewport.is_some() {
            inputs.push(format!("viewport {}", regs(&[self.viewport])));
        }
        for (p, chans) in self.params.iter().enumerate() {
            inputs.push(format!("param{p} {}", regs(chans)));
        }
        if let (true, Some(s)) = (ring, self.global_table) {
            inputs.push(format!("global_table s{s}"));
        }
        if let (true, Some(s)) = (ring, self.attr_offset) {
            inputs.push(format!("attr_offset s{s}"));
        }
        if let Some(p) = self.primitive_id_lds {
            inputs.push(format!("param{p}.x primitive id from LDS"));
        }
        Ok(Part {
            kind: "vs_epilog",
            symbol: symbol.to_string(),
            next: None,
            code: code.bytes,
            relocations: code.relocations,
            sgprs,
            vgprs,
            interface: vec![
                ("inputs", inputs),
                ("clobbers", clobbers),
                ("exit", vec![Opcode::SEndpgm.name().into()]),
            ],
            target: self.target,
            loads: ring as u32,
        })
    }
}
