//! The vertex-fetch prolog of a vertex shader compiled alone (docs/link.md "Graphics
//! parts"): fetches every vertex attribute into the VGPRs the main part expects
//! (`isel/graphics/parts.rs`: location order from `first_input_vgpr`), with the pipeline's
//! vertex-input state, then branches to the main part.
//!
//! Code, in order:
//! 1. NGG (GFX10.3, GFX11): the wave is launched with max(vertices, primitives) lanes and
//!    only the vertex lanes have a VertexID, so EXEC is saved and set to the first
//!    s3[7:0] lanes with SALU only (`s_bfm` of the count; a full wave, whose count the
//!    6-bit width field cannot hold, by `s_cmp_eq` + `s_cmov` of all ones);
//! 2. `s_getpc_b64` + the vertex-buffer table's low half (a user SGPR) form the table's
//!    address; `s_load_dwordx4` of each binding's V# (binding `b` at `16·b`);
//! 3. each element index the bindings need, into a VGPR (below): VertexID + BaseVertex
//!    (`v_add_u32`), or InstanceID / divisor + BaseInstance (VK_EXT_vertex_attribute_divisor;
//!    divisor 1: one add; 0: `v_mov_b32` of BaseInstance; a power of two: a shift; else the
//!    exact multiply-high by the divisor's magic number of `isel::divide` — the multiplier
//!    in a scratch SGPR, the 33-bit scheme's correction in a temporary VGPR);
//! 4. `s_waitcnt lgkmcnt(0)`, then per attribute the typed buffer loads of its format's
//!    fetch plan (`amdgpu::vertex_format`: one `tbuffer_load_format_*` `idxen` of the
//!    channels read, or one single-channel load per channel for 3-component 8/16-bit and
//!    B,G,R-ordered formats; the attribute's offset plus the channel's as the immediate)
//!    and a `v_mov_b32` of the default (0, 0, 1.0 or integer 1) into each channel the
//!    shader reads beyond the format's; `s_waitcnt vmcnt(0)`;
//! 5. NGG: EXEC restored; GFX10+: `s_waitcnt_depctr` with vm_vsrc(0) (the main part's
//!    SALU may overwrite the V# SGPRs the loads read: VMEMtoScalarWriteHazard), on GFX11
//!    also va_vdst(0) (the main part may read VGPRs right after the SALU EXEC write);
//! 6. `s_branch` to the main part (REL16; removed by the link's fall-through).
//!
//! Scratch SGPRs start at the first multiple of 4 above every SGPR the main part's launch
//! fills. The indices need no VGPR of their own: each lives in the destination of the last
//! load that reads it (a load may overwrite its own address), a division's temporary in
//! another attribute VGPR (above every input only when there is none), so the prolog never
//! raises the vertex stage's VGPR count. It writes SCC and, on NGG, EXEC (restored);
//! never VCC or M0.

use super::code::{inst_with, int, sreg, v, PartCode};
use super::{Part, PartError};
use crate::amdgpu::vertex_format::VertexFormat;
use crate::isa::{BufferError, CodeBuffer, Format, Gen, Opcode, Operand, Reg, Target, Wave};

/// One attribute the prolog fetches.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FetchedAttribute {
    pub location: u32,
    /// The main part's VGPRs: `first..first + count`.
    pub first: u16,
    pub count: u8,
    pub binding: u32,
    pub offset: u32,
    /// The attribute's format.
    pub format: VertexFormat,
    /// The binding advances per instance.
    pub per_instance: bool,
    /// Per-instance bindings: instances per element (0 = every instance reads element
    /// BaseInstance); 1 for per-vertex bindings.
    pub divisor: u32,
}

/// The element index a binding is read at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Index {
    /// VertexID + BaseVertex.
    Vertex,
    /// InstanceID / divisor + BaseInstance (divisor 0: BaseInstance).
    Instance(u32),
}

impl FetchedAttribute {
    fn index(&self) -> Index {
        if self.per_instance {
            Index::Instance(self.divisor)
        } else {
            Index::Vertex
        }
    }
}

/// Everything the vertex-fetch prolog depends on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VsPrologKey {
    pub target: Target,
    pub attributes: Vec<FetchedAttribute>,
    /// VGPRs of VertexID and InstanceID at launch.
    pub vertex_id: u16,
    pub instance_id: u16,
    /// SGPRs of the vertex-buffer table's low half, BaseVertex, BaseInstance.
    pub vb_table: u16,
    pub base_vertex: u16,
    pub base_instance: u16,
    /// SGPRs the launch fills (system + user): scratch SGPRs go above.
    pub launch_sgprs: u16,
    /// Symbol of the main part.
    pub next: String,
}

impl VsPrologKey {
    /// Stable text of the key.
    pub fn canonical(&self) -> String {
        let attrs: Vec<String> = self
            .attributes
            .iter()
            .map(|a| {
                format!(
                    "{}:v{}+{}:b{}@{}:{}{}",
                    a.location,
                    a.first,
                    a.count,
                    a.binding,
                    a.offset,
                    a.format.name(),
                    match a.index() {
                        Index::Vertex => String::new(),
                        Index::Instance(1) => ":inst".into(),
                        Index::Instance(d) => format!(":inst/{d}"),
                    }
                )
            })
            .collect();
        format!(
            "vs_prolog;target={};wave={};attrs=[{}];vid=v{};iid=v{};vb=s{};bv=s{};bi=s{};launch={};next={}",
            self.target.mcpu(),
            self.target.wave.lanes(),
            attrs.join(","),
            self.vertex_id,
            self.instance_id,
            self.vb_table,
            self.base_vertex,
            self.base_instance,
            self.launch_sgprs,
            self.next
        )
    }

    /// Runs the generator.
    pub fn build(&self, symbol: &str) -> Result<Part, PartError> {
        let t = self.target;
        let gen = t.gen;
        let enc = |e: BufferError| PartError::Encode(e.to_string());
        let ngg = crate::amdgpu::abi_graphics::vertex_is_ngg(gen);
        let w64 = t.wave == Wave::W64;
        let mut buf = CodeBuffer::new(t);
        // scratch SGPRs: [save exec (2)] [count] [table pair] then V#s, 4-aligned
        let base = self.launch_sgprs.next_multiple_of(4);
        let save = base;
        let count = base + 2;
        let table = base + 4;
        let mut bindings: Vec<(u32, Index)> = self
            .attributes
            .iter()
            .map(|a| (a.binding, a.index()))
            .collect();
        bindings.sort();
        bindings.dedup();
        if bindings.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(PartError::Unsatisfiable(
                "a vertex binding is read at two rates (per vertex, per instance, divisors)".into(),
            ));
        }
        let desc_at = |k: usize| table + 4 + 4 * k as u16;
        // after the V#s: the magic multiplier of a division
        let magic = desc_at(bindings.len());
        let mut indices: Vec<Index> = bindings.iter().map(|b| b.1).collect();
        indices.sort();
        indices.dedup();
        let scheme = |i: &Index| match *i {
            Index::Instance(d) if d >= 2 => Some(crate::amdgpu::isel::divide::divisor_magic(d)),
            _ => None,
        };
        use crate::amdgpu::isel::divide::Magic;
        // a multiplier SGPR; the 33-bit scheme's temporary VGPR
        let divides = indices
            .iter()
            .any(|i| scheme(i).is_some_and(|m| !matches!(m, Magic::Shift(_))));
        let corrects = indices.iter().any(|i| {
            scheme(i).is_some_and(|m| matches!(m, Magic::AtLeast | Magic::MulHiAdd { .. }))
        });
        let sgprs = magic as u32 + divides as u32;
        let vmax = self
            .attributes
            .iter()
            .map(|a| a.first + a.count as u16)
            .chain([self.vertex_id + 1, self.instance_id + 1])
            .max()
            .unwrap_or(0);
        // every attribute's fetch plan, in emission order
        let mut plans = Vec::new();
        for a in &self.attributes {
            if !(1..=4).contains(&a.count) || a.offset + a.format.bytes() > 4096 {
                return Err(PartError::Unsatisfiable(format!(
                    "vertex attribute {}: {} at offset {} cannot feed {} channels",
                    a.location,
                    a.format.name(),
                    a.offset,
                    a.count
                )));
            }
            let fetch = a
                .format
                .fetch(gen, a.count as u32)
                .map_err(|e| PartError::Unsatisfiable(e.to_string()))?;
            plans.push((a, fetch));
        }
        // Each index lives in the destination of the last load that reads it (a load may
        // overwrite its own address VGPR; nothing else writes that VGPR before it), a
        // division's temporary in another attribute VGPR: the prolog needs no VGPR above
        // the main part's inputs. Without a free attribute VGPR the temporary goes above.
        let mut index_at: Vec<(Index, u16)> = Vec::new();
        for (a, fetch) in plans.iter().rev() {
            let last = fetch.loads.last().map(|l| a.first + l.dst as u16);
            if let (Some(r), false) = (last, index_at.iter().any(|x| x.0 == a.index())) {
                index_at.push((a.index(), r));
            }
        }
        let index_vgpr = |i: Index| index_at.iter().find(|x| x.0 == i).map(|x| x.1);
        let temp = self
            .attributes
            .iter()
            .flat_map(|a| a.first..a.first + a.count as u16)
            .find(|r| index_at.iter().all(|x| x.1 != *r))
            .unwrap_or(vmax);
        let vgprs = vmax as u32 + (corrects && temp == vmax) as u32;
        let exec = Operand::Reg(Reg::exec(t.wave));
        let (mov, bfm, cmov) = if w64 {
            (Opcode::SMovB64, Opcode::SBfmB64, Opcode::SCmovB64)
        } else {
            (Opcode::SMovB32, Opcode::SBfmB32, Opcode::SCmovB32)
        };
        if ngg {
            let save_reg = sreg(save, if w64 { 2 } else { 1 });
            buf.op(mov, Format::Sop1, &[save_reg, exec]).map_err(enc)?;
            // s3[7:0]: the wave's vertices
            buf.op(
                Opcode::SBfeU32,
                Format::Sop2,
                &[sreg(count, 1), sreg(3, 1), int(8 << 16)],
            )
            .map_err(enc)?;
            buf.op(bfm, Format::Sop2, &[exec, sreg(count, 1), int(0)])
                .map_err(enc)?;
            buf.op(
                Opcode::SCmpEqU32,
                Format::Sopc,
                &[sreg(count, 1), int(t.wave.lanes())],
            )
            .map_err(enc)?;
            buf.op(cmov, Format::Sop1, &[exec, int(u32::MAX)])
                .map_err(enc)?;
        }
        buf.s_getpc(table).map_err(enc)?;
        buf.s_mov(table, self.vb_table).map_err(enc)?;
        for (k, &(b, _)) in bindings.iter().enumerate() {
            let ops = [sreg(desc_at(k), 4), sreg(table, 2), Operand::Imm(16 * b)];
            inst_with(
                &mut buf,
                gen,
                Opcode::SLoadDwordx4,
                Format::Smem,
                &ops,
                |_| {},
            )
            .map_err(enc)?;
        }
        for &i in &indices {
            if let Some(r) = index_vgpr(i) {
                self.index(&mut buf, i, r, temp, magic).map_err(enc)?;
            }
        }
        buf.wait_lgkm().map_err(enc)?;
        for (a, fetch) in &plans {
            let k = bindings
                .iter()
                .position(|b| b.0 == a.binding)
                .expect("listed");
            // None only for an attribute without loads (then unused)
            let index = index_vgpr(a.index()).unwrap_or(0);
            for l in &fetch.loads {
                let ops = [
                    Operand::Reg(Reg::v(a.first + l.dst as u16, l.channels as u8)),
                    v(index),
                    sreg(desc_at(k), 4),
                    int(0),
                ];
                inst_with(&mut buf, gen, l.opcode(), Format::Mtbuf, &ops, |m| {
                    m.mem.idxen = true;
                    m.mem.offset = (a.offset + l.offset) as i32;
                    m.mem.format = l.format;
                })
                .map_err(enc)?;
            }
            for &(k, bits) in &fetch.constants {
                buf.op(
                    Opcode::VMovB32,
                    Format::Vop1,
                    &[v(a.first + k as u16), int(bits)],
                )
                .map_err(enc)?;
            }
        }
        buf.waitcnt("vmcnt(0)").map_err(enc)?;
        if ngg {
            let save_reg = sreg(save, if w64 { 2 } else { 1 });
            buf.op(mov, Format::Sop1, &[exec, save_reg]).map_err(enc)?;
        }
        if gen.is_gfx10_plus() {
            let depctr = if gen == Gen::Gfx11 { 0x0fe3 } else { 0xffe3 };
            buf.op(
                Opcode::SWaitcntDepctr,
                Format::Sopp,
                &[Operand::Imm(depctr)],
            )
            .map_err(enc)?;
        }
        buf.branch_to_symbol(&self.next).map_err(enc)?;
        let code = buf.finish().map_err(enc)?;
        let inputs = self
            .attributes
            .iter()
            .map(|a| {
                format!(
                    "location {} -> v{}..v{}",
                    a.location,
                    a.first,
                    a.first + a.count as u16 - 1
                )
            })
            .collect();
        Ok(Part {
            kind: "vs_prolog",
            symbol: symbol.to_string(),
            next: Some(self.next.clone()),
            code: code.bytes,
            relocations: code.relocations,
            sgprs,
            vgprs,
            interface: vec![
                ("outputs", inputs),
                (
                    "clobbers",
                    [format!("s{base}..s{}", sgprs - 1)]
                        .into_iter()
                        .chain((vgprs > vmax as u32).then(|| format!("v{vmax}")))
                        .chain(["scc".to_string()])
                        .collect(),
                ),
                ("exit", vec!["exec = launch exec".into()]),
            ],
            target: t,
            loads: bindings.len() as u32,
        })
    }

    /// Computes the element index `i` into `v[dst]`: VertexID + BaseVertex, or
    /// InstanceID / divisor + BaseInstance — a shift for a power of two, else a multiply
    /// by the divisor's magic number (`isel::divide::divisor_magic`, in `s[magic]`: VOP3
    /// takes no literal on GFX9), with `v[temp]` for the 33-bit multiplier's correction.
    fn index(
        &self,
        buf: &mut CodeBuffer,
        i: Index,
        dst: u16,
        temp: u16,
        magic: u16,
    ) -> Result<(), BufferError> {
        use crate::amdgpu::isel::divide::{divisor_magic, mul_hi_add, Magic};
        let gen = self.target.gen;
        let op = |buf: &mut CodeBuffer, op: Opcode, f: Format, ops: &[Operand]| {
            inst_with(buf, gen, op, f, ops, |_| {})
        };
        let (d, s) = (v(dst), sreg(self.base_instance, 1));
        let id = v(self.instance_id);
        let divisor = match i {
            Index::Vertex => {
                let ops = [d, sreg(self.base_vertex, 1), v(self.vertex_id)];
                return op(buf, Opcode::VAddU32, Format::Vop2, &ops);
            }
            Index::Instance(0) => return op(buf, Opcode::VMovB32, Format::Vop1, &[d, s]),
            Index::Instance(x) => x,
        };
        let shr = |buf: &mut CodeBuffer, r: Operand, k: u32, x: Operand| {
            op(buf, Opcode::VLshrrevB32, Format::Vop2, &[r, int(k), x])
        };
        let mul_hi = |buf: &mut CodeBuffer, m: u32| {
            buf.op(Opcode::SMovB32, Format::Sop1, &[sreg(magic, 1), int(m)])?;
            op(
                buf,
                Opcode::VMulHiU32,
                Format::Vop3,
                &[d, sreg(magic, 1), id],
            )
        };
        let quotient = match divisor_magic(divisor) {
            Magic::One => id,
            Magic::Shift(k) => {
                shr(buf, d, k, id)?;
                d
            }
            Magic::MulHi { m, shift } => {
                mul_hi(buf, m)?;
                if shift > 0 {
                    shr(buf, d, shift, d)?;
                }
                d
            }
            Magic::AtLeast | Magic::MulHiAdd { .. } => {
                let (m, shift) = mul_hi_add(divisor);
                // ((id - t) / 2 + t) >> shift, t = mulhi(id, m)
                mul_hi(buf, m)?;
                let t = v(temp);
                op(buf, Opcode::VSubU32, Format::Vop2, &[t, id, d])?;
                shr(buf, t, 1, t)?;
                op(buf, Opcode::VAddU32, Format::Vop2, &[d, t, d])?;
                shr(buf, d, shift, d)?;
                d
            }
        };
        op(buf, Opcode::VAddU32, Format::Vop2, &[d, s, quotient])
    }
}
