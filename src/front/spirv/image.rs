//! Images and samplers: sampling, fetches, gathers, storage-image access, queries.
//!
//! An image, sampler or combined image-sampler value is the deref of its variable (an
//! access chain into an array of descriptors is a deref chain), so texture instructions
//! name their descriptors by deref, as NIR does. Sampling becomes one `tex` instruction
//! with named sources; storage images become `image_deref_*` intrinsics. Projective
//! sampling divides the coordinate (and the depth reference) by the last coordinate
//! component here.
//!
//! Sparse-residency reads (`OpImageSparse*`) are the same `tex` (marked `sparse`) or
//! `image_deref_load` (access `ACCESS_SPARSE`) with one more 32-bit component after the
//! texel's, the residency code; the SPIR-V result struct `{code, texel}` is taken apart
//! from it. `OpImageSparseTexelsResident` is `code == 0`.

use super::module::{Def, SType};
use super::parse::Inst;
use super::{Error, ErrorKind, Fx, Val};
use crate::ir::{
    AluOp, Dim, ImageType, InstKind, Intrinsic, Tex, TexOp, TexSrc, TypeKind, ValType, Value,
    ACCESS_SPARSE,
};
use rspirv::dr::Operand;
use rspirv::spirv::Op;

/// Image operand values found after the fixed operands.
#[derive(Default)]
struct ImgOps {
    bias: Option<Value>,
    lod: Option<Value>,
    grad: Option<(Value, Value)>,
    offset: Option<Value>,
    sample: Option<Value>,
    min_lod: Option<Value>,
}

impl<'a, 'm> Fx<'a, 'm> {
    /// The image type behind a deref (of an image or a sampled image).
    fn image_type(&self, i: &Inst, d: Value) -> Result<ImageType, Error> {
        let ty = match self.b.fr().kind(d) {
            InstKind::Deref(dr) => dr.ty,
            _ => return Err(i.err(ErrorKind::BadType, "image operand is not a descriptor")),
        };
        match self.b.module.types.kind(ty) {
            TypeKind::Image(it) => Ok(*it),
            TypeKind::SampledImage(im) => match self.b.module.types.kind(*im) {
                TypeKind::Image(it) => Ok(*it),
                _ => Err(i.err(ErrorKind::BadType, "sampled image of a non-image")),
            },
            _ => Err(i.err(ErrorKind::BadType, "operand is not an image")),
        }
    }

    /// (texture deref, sampler deref) of operand `k`.
    fn tex_operand(&mut self, i: &Inst, k: usize) -> Result<(Value, Option<Value>), Error> {
        let id = i.id_op(k)?;
        match self.val(i, id)? {
            Val::Sampled { image, sampler } => Ok((image, Some(sampler))),
            Val::Ptr(d) => {
                let is_combined = matches!(self.b.fr().kind(d), InstKind::Deref(dr) if matches!(self.b.module.types.kind(dr.ty), TypeKind::SampledImage(_)));
                Ok((d, if is_combined { Some(d) } else { None }))
            }
            _ => Err(i.err(ErrorKind::BadType, format!("%{} is not an image", id))),
        }
    }

    fn image_ops(&mut self, i: &Inst, from: usize) -> Result<ImgOps, Error> {
        let mut o = ImgOps::default();
        let Some(op) = i.ops.get(from) else {
            return Ok(o);
        };
        let Operand::ImageOperands(bits) = op else {
            return Err(i.err(ErrorKind::BadOperands, "image operands mask expected"));
        };
        let bits = bits.bits();
        let mut k = from + 1;
        let mut next = |s: &mut Self| -> Result<Value, Error> {
            let v = s.value(i, k)?;
            k += 1;
            Ok(v)
        };
        if bits & 0x1 != 0 {
            o.bias = Some(next(self)?);
        }
        if bits & 0x2 != 0 {
            o.lod = Some(next(self)?);
        }
        if bits & 0x4 != 0 {
            let a = next(self)?;
            let b = next(self)?;
            o.grad = Some((a, b));
        }
        if bits & 0x8 != 0 || bits & 0x10 != 0 {
            o.offset = Some(next(self)?);
            if bits & 0x18 == 0x18 {
                return Err(i.err(ErrorKind::BadOperands, "both ConstOffset and Offset"));
            }
        }
        if bits & 0x20 != 0 || bits & 0x10000 != 0 {
            return Err(i.err(ErrorKind::Unsupported, "ConstOffsets image operand"));
        }
        if bits & 0x40 != 0 {
            o.sample = Some(next(self)?);
        }
        if bits & 0x80 != 0 {
            o.min_lod = Some(next(self)?);
        }
        // MakeTexelAvailable / MakeTexelVisible carry a scope id; the other flags none.
        if bits & 0x100 != 0 {
            next(self)?;
        }
        if bits & 0x200 != 0 {
            next(self)?;
        }
        if bits & !0x7fff & !0x10000 != 0 {
            return Err(i.err(
                ErrorKind::Unsupported,
                format!("image operands {:#x}", bits),
            ));
        }
        if k != i.ops.len() {
            return Err(i.err(
                ErrorKind::BadOperands,
                "image operand count does not match the mask",
            ));
        }
        Ok(o)
    }

    /// The texel type of `i`'s result: the result type itself, or for a sparse read
    /// (`sparse`) the texel member of its struct `{u32 residency code, texel}`.
    fn texel_result(&self, i: &Inst, sparse: bool) -> Result<ValType, Error> {
        let id = i.result_ty()?;
        let texel =
            if sparse {
                match self.spv.def(id) {
                    Def::Type(SType::Struct { members })
                        if members.len() == 2
                            && self.spv.val_type(members[0]) == Some(ValType::U32) =>
                    {
                        members[1]
                    }
                    _ => return Err(i.err(
                        ErrorKind::BadType,
                        "a sparse read returns a struct of a 32-bit residency code and the texel",
                    )),
                }
            } else {
                id
            };
        match self.spv.val_type(texel) {
            // the residency code is a 32-bit component beside the texel's
            Some(t) if sparse && t.bits != 32 => Err(i.err(
                ErrorKind::Unsupported,
                format!("sparse reads of {}-bit texels", t.bits),
            )),
            Some(t) if t.comps <= 4 => Ok(t),
            _ => Err(i.err(ErrorKind::BadType, "result must be a scalar or vector")),
        }
    }

    /// Sets `i`'s value from `v`: its first `texel.comps` components are the texel and,
    /// when `sparse`, its last one the residency code, taken apart into the struct
    /// `{code, texel}` of a sparse read.
    fn set_texel(&mut self, i: &Inst, v: Value, texel: ValType, sparse: bool) -> Result<(), Error> {
        let n = self.b.ty(v).comps;
        let t = if !sparse && texel.comps == n {
            v
        } else {
            let sw: Vec<u8> = (0..texel.comps).collect();
            self.b.swizzle(v, &sw)
        };
        if !sparse {
            return self.set(i, Val::V(t));
        }
        let code = self.b.channel(v, n - 1);
        self.set(i, Val::C(vec![Val::V(code), Val::V(t)]))
    }

    fn float_coord(&self, i: &Inst, c: Value) -> Result<(), Error> {
        if self.b.ty(c).bits != 32 {
            return Err(i.err(ErrorKind::BadType, "coordinate must be 32-bit"));
        }
        Ok(())
    }

    pub(super) fn image_inst(&mut self, i: &Inst) -> Result<(), Error> {
        match i.op {
            Op::SampledImage => {
                i.exact(2)?;
                let (image, _) = self.tex_operand(i, 0)?;
                let sid = i.id_op(1)?;
                let Val::Ptr(sampler) = self.val(i, sid)? else {
                    return Err(i.err(ErrorKind::BadType, "sampler operand"));
                };
                self.set(i, Val::Sampled { image, sampler })
            }
            Op::Image => {
                i.exact(1)?;
                let (image, _) = self.tex_operand(i, 0)?;
                self.set(i, Val::Ptr(image))
            }
            Op::ImageTexelPointer => {
                i.exact(3)?;
                let (p, _) = self.ptr(i, i.id_op(0)?)?;
                let Val::Ptr(image) = p else {
                    return Err(i.err(ErrorKind::BadType, "texel pointer of a non-image"));
                };
                self.image_type(i, image)?;
                let coord = self.value(i, 1)?;
                let sample = self.value(i, 2)?;
                self.set(
                    i,
                    Val::Texel {
                        image,
                        coord,
                        sample,
                    },
                )
            }
            Op::ImageSparseTexelsResident => {
                i.exact(1)?;
                let code = self.value(i, 0)?;
                if self.b.ty(code) != ValType::U32 {
                    return Err(i.err(
                        ErrorKind::BadType,
                        "residency code must be a 32-bit integer",
                    ));
                }
                let zero = self.b.const_u32(0);
                let v = self.alu(i, AluOp::Ieq, &[code, zero])?;
                self.set(i, Val::V(v))
            }
            Op::ImageRead | Op::ImageSparseRead => {
                i.need(2)?;
                let sparse = i.op == Op::ImageSparseRead;
                let (image, _) = self.tex_operand(i, 0)?;
                let it = self.image_type(i, image)?;
                let coord = self.value(i, 1)?;
                let o = self.image_ops(i, 2)?;
                let rt = self.texel_result(i, sparse)?;
                let sample = match o.sample {
                    Some(s) => s,
                    None => self.b.const_u32(0),
                };
                let lod = match o.lod {
                    Some(l) => l,
                    None => self.b.const_u32(0),
                };
                let _ = it;
                let r4 = self.b.intrinsic(
                    Intrinsic::ImageDerefLoad,
                    rt.with_comps(4 + sparse as u8),
                    &[image, coord, sample, lod],
                    &[if sparse { ACCESS_SPARSE } else { 0 }],
                );
                self.set_texel(i, r4, rt, sparse)
            }
            Op::ImageWrite => {
                i.need(3)?;
                let (image, _) = self.tex_operand(i, 0)?;
                self.image_type(i, image)?;
                let coord = self.value(i, 1)?;
                let texel = self.value(i, 2)?;
                let o = self.image_ops(i, 3)?;
                let t = self.b.ty(texel);
                let texel = if t.comps < 4 {
                    let mut comps: Vec<Value> =
                        (0..t.comps).map(|c| self.b.channel(texel, c)).collect();
                    while comps.len() < 4 {
                        comps.push(self.b.const_int(t.with_comps(1), 0));
                    }
                    self.b.vec(&comps)
                } else {
                    texel
                };
                let sample = match o.sample {
                    Some(s) => s,
                    None => self.b.const_u32(0),
                };
                let lod = match o.lod {
                    Some(l) => l,
                    None => self.b.const_u32(0),
                };
                self.b.intrinsic(
                    Intrinsic::ImageDerefStore,
                    ValType::NONE,
                    &[image, coord, sample, texel, lod],
                    &[0],
                );
                Ok(())
            }
            Op::ImageQuerySizeLod
            | Op::ImageQuerySize
            | Op::ImageQueryLevels
            | Op::ImageQuerySamples => {
                let (image, _) = self.tex_operand(i, 0)?;
                let it = self.image_type(i, image)?;
                let rt = self
                    .spv
                    .val_type(i.result_ty()?)
                    .ok_or_else(|| i.err(ErrorKind::BadType, "result"))?;
                let lod = if i.op == Op::ImageQuerySizeLod {
                    i.exact(2)?;
                    Some(self.value(i, 1)?)
                } else {
                    i.exact(1)?;
                    None
                };
                let v = if !it.sampled && i.op != Op::ImageQueryLevels {
                    if i.op == Op::ImageQuerySamples {
                        self.b
                            .intrinsic(Intrinsic::ImageDerefSamples, rt, &[image], &[])
                    } else {
                        let l = match lod {
                            Some(l) => l,
                            None => self.b.const_u32(0),
                        };
                        self.b
                            .intrinsic(Intrinsic::ImageDerefSize, rt, &[image, l], &[])
                    }
                } else {
                    let op = match i.op {
                        Op::ImageQueryLevels => TexOp::Levels,
                        Op::ImageQuerySamples => TexOp::Samples,
                        _ => TexOp::Size,
                    };
                    let mut srcs: crate::ir::SmallVec<[(TexSrc, Value); 4]> =
                        [(TexSrc::Texture, image)].into_iter().collect();
                    if op == TexOp::Size {
                        let l = match lod {
                            Some(l) => l,
                            None => self.b.const_u32(0),
                        };
                        srcs.push((TexSrc::Lod, l));
                    }
                    self.b.tex(
                        Tex {
                            op,
                            dim: it.dim,
                            arrayed: it.arrayed,
                            shadow: false,
                            component: 0,
                            sparse: false,
                            srcs,
                        },
                        rt,
                    )
                };
                self.set(i, Val::V(v))
            }
            _ => self.sample(i),
        }
    }

    fn sample(&mut self, i: &Inst) -> Result<(), Error> {
        i.need(2)?;
        // a sparse opcode reads as its plain twin (same operands), marked sparse
        let (op, sparse) = match i.op {
            Op::ImageSparseSampleImplicitLod => (Op::ImageSampleImplicitLod, true),
            Op::ImageSparseSampleExplicitLod => (Op::ImageSampleExplicitLod, true),
            Op::ImageSparseSampleDrefImplicitLod => (Op::ImageSampleDrefImplicitLod, true),
            Op::ImageSparseSampleDrefExplicitLod => (Op::ImageSampleDrefExplicitLod, true),
            Op::ImageSparseFetch => (Op::ImageFetch, true),
            Op::ImageSparseGather => (Op::ImageGather, true),
            Op::ImageSparseDrefGather => (Op::ImageDrefGather, true),
            op => (op, false),
        };
        let (texture, sampler) = self.tex_operand(i, 0)?;
        let it = self.image_type(i, texture)?;
        let mut coord = self.value(i, 1)?;
        let rt = self.texel_result(i, sparse)?;
        let dref = matches!(
            op,
            Op::ImageSampleDrefImplicitLod
                | Op::ImageSampleDrefExplicitLod
                | Op::ImageSampleProjDrefImplicitLod
                | Op::ImageSampleProjDrefExplicitLod
                | Op::ImageDrefGather
        );
        let proj = matches!(
            op,
            Op::ImageSampleProjImplicitLod
                | Op::ImageSampleProjExplicitLod
                | Op::ImageSampleProjDrefImplicitLod
                | Op::ImageSampleProjDrefExplicitLod
        );
        let mut k = 2;
        let mut comparator = None;
        let mut component = 0u8;
        if dref {
            comparator = Some(self.value(i, k)?);
            k += 1;
        } else if op == Op::ImageGather {
            let c = self.scalar_const_id(i, k)?;
            if c > 3 {
                return Err(i.err(ErrorKind::BadOperands, "gather component out of range"));
            }
            component = c as u8;
            k += 1;
        }
        let o = self.image_ops(i, k)?;
        let needs_sampler = op != Op::ImageFetch;
        if needs_sampler && sampler.is_none() {
            return Err(i.err(ErrorKind::BadType, "sampling needs a sampled image"));
        }
        if proj {
            self.float_coord(i, coord)?;
            let n = self.b.ty(coord).comps;
            let q = self.b.channel(coord, n - 1);
            let rcp = self.alu(i, AluOp::Frcp, &[q])?;
            let want = it.dim.coord_components() + it.arrayed as u8;
            if n < want + 1 {
                return Err(i.err(ErrorKind::BadType, "projective coordinate too short"));
            }
            let sw: Vec<u8> = (0..want).collect();
            let c = self.b.swizzle(coord, &sw);
            let r = self.splat(rcp, want);
            coord = self.alu(i, AluOp::Fmul, &[c, r])?;
            if let Some(cmp) = comparator {
                comparator = Some(self.alu(i, AluOp::Fmul, &[cmp, rcp])?);
            }
        }
        if !proj {
            // SPIR-V allows extra coordinate components (glslang passes the depth reference
            // along in a shadow lookup's coordinate); the IR's coord has exactly the
            // components the image needs.
            let mut want = it.dim.coord_components();
            if it.arrayed && op != Op::ImageQueryLod {
                want += 1;
            }
            let have = self.b.ty(coord).comps;
            if have < want {
                return Err(i.err(
                    ErrorKind::BadType,
                    format!(
                        "coordinate has {} components, the image needs {}",
                        have, want
                    ),
                ));
            }
            if have > want {
                let sw: Vec<u8> = (0..want).collect();
                coord = self.b.swizzle(coord, &sw);
            }
        }
        let top = match op {
            Op::ImageFetch => {
                if o.sample.is_some() {
                    TexOp::FetchMs
                } else {
                    TexOp::Fetch
                }
            }
            Op::ImageGather | Op::ImageDrefGather => TexOp::Gather,
            Op::ImageQueryLod => TexOp::QueryLod,
            _ if o.grad.is_some() => TexOp::SampleGrad,
            _ if o.lod.is_some() => TexOp::SampleLod,
            _ if o.bias.is_some() => TexOp::SampleBias,
            Op::ImageSampleExplicitLod
            | Op::ImageSampleDrefExplicitLod
            | Op::ImageSampleProjExplicitLod
            | Op::ImageSampleProjDrefExplicitLod => {
                return Err(i.err(
                    ErrorKind::BadOperands,
                    "explicit-lod sampling without Lod or Grad",
                ));
            }
            _ => TexOp::Sample,
        };
        if it.dim == Dim::Buffer && top != TexOp::Fetch {
            return Err(i.err(ErrorKind::BadType, "only fetches from buffer images"));
        }
        let mut srcs: crate::ir::SmallVec<[(TexSrc, Value); 4]> = crate::ir::SmallVec::new();
        srcs.push((TexSrc::Texture, texture));
        if let Some(s) = sampler.filter(|_| needs_sampler) {
            srcs.push((TexSrc::Sampler, s));
        }
        srcs.push((TexSrc::Coord, coord));
        if let Some(c) = comparator {
            srcs.push((TexSrc::Comparator, c));
        }
        if let Some(b) = o.bias {
            srcs.push((TexSrc::Bias, b));
        }
        if let Some(l) = o.lod {
            srcs.push((TexSrc::Lod, l));
        }
        if let Some((dx, dy)) = o.grad {
            srcs.push((TexSrc::Ddx, dx));
            srcs.push((TexSrc::Ddy, dy));
        }
        if let Some(off) = o.offset {
            srcs.push((TexSrc::Offset, off));
        }
        if let Some(s) = o.sample {
            srcs.push((TexSrc::MsIndex, s));
        }
        if let Some(m) = o.min_lod {
            srcs.push((TexSrc::MinLod, m));
        }
        if sparse && it.dim == Dim::Buffer {
            return Err(i.err(ErrorKind::Unsupported, "sparse fetches from texel buffers"));
        }
        let v = self.b.tex(
            Tex {
                op: top,
                dim: it.dim,
                arrayed: it.arrayed,
                shadow: comparator.is_some(),
                component,
                sparse,
                srcs,
            },
            rt.with_comps(rt.comps + sparse as u8),
        );
        self.set_texel(i, v, rt, sparse)
    }

    fn scalar_const_id(&self, i: &Inst, k: usize) -> Result<u64, Error> {
        let id = i.id_op(k)?;
        self.spv.const_u64(i, id)
    }
}
