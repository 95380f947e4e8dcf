//! Translation of the instructions inside blocks (everything but terminators and phis):
//! memory, composites, arithmetic, conversions, matrices, barriers and atomics. Images are
//! in [`super::image`], subgroup operations in [`super::subgroup`], GLSL.std.450 in
//! [`super::glsl`].
//!
//! Every ALU instruction is type-checked against the op table before it is built
//! ([`Fx::alu`]) and its result against the SPIR-V result type, so malformed operands are
//! an `ErrorKind::BadType` instead of a builder panic or ill-typed IR.

use super::alu_map::{spirv_alu, AluMap};
use super::module::{Def, SType};
use super::parse::{Inst, NewOp};
use super::{Error, ErrorKind, Fx, Val};
use crate::ir::ops::alu_result_type;
use crate::ir::{
    AluOp, AtomicOp, Intrinsic, Mode, ValType, Value, ACCESS_ATOMIC, ACCESS_NONTEMPORAL,
    ACCESS_VOLATILE,
};
use rspirv::dr::Operand;
use rspirv::spirv::Op;

impl<'a, 'm> Fx<'a, 'm> {
    /// A type-checked ALU instruction.
    pub(super) fn alu(&mut self, i: &Inst, op: AluOp, srcs: &[Value]) -> Result<Value, Error> {
        let tys: Vec<ValType> = srcs.iter().map(|&s| self.b.ty(s)).collect();
        match alu_result_type(op, &tys, 0) {
            Some(t) if !t.is_none() && t.is_valid() => Ok(self.b.alu(op, srcs)),
            _ => Err(i.err(
                ErrorKind::BadType,
                format!("operands {:?} are ill-typed for {}", tys, op.name()),
            )),
        }
    }

    pub(super) fn conv(&mut self, i: &Inst, op: AluOp, bits: u8, v: Value) -> Result<Value, Error> {
        if !matches!(bits, 1 | 8 | 16 | 32 | 64)
            || self.b.ty(v).bits == 1 && !matches!(op, AluOp::B2f | AluOp::B2i)
        {
            return Err(i.err(ErrorKind::BadType, "conversion between unsupported types"));
        }
        Ok(self.b.conv(op, bits, v))
    }

    /// `s` repeated `n` times (a scalar broadcast to a vector).
    /// A non-scalar `s` or an illegal `n` returns `s` unchanged, for the checked ALU op
    /// that consumes it to reject.
    pub(super) fn splat(&mut self, s: Value, n: u8) -> Value {
        let t = self.b.ty(s);
        if n == 1 || t.comps != 1 || !ValType::new(t.bits, n).is_valid() {
            return s;
        }
        let v = vec![s; n as usize];
        self.b.vec(&v)
    }

    /// A float constant of `bits` bits, broadcast to `comps` components.
    pub(super) fn fconst(&mut self, t: ValType, v: f64) -> Value {
        let c = crate::passes::fold_constants::from_f(t.bits, v);
        self.b.const_int(t, c)
    }

    /// Result SPIR-V type's value type, checked against `v`.
    fn check_result(&self, i: &Inst, v: Value) -> Result<(), Error> {
        let want = self.spv.val_type(i.result_ty()?);
        if want != Some(self.b.ty(v)) {
            return Err(i.err(
                ErrorKind::BadType,
                format!(
                    "result type does not match the operands ({:?} vs {})",
                    want,
                    self.b.ty(v)
                ),
            ));
        }
        Ok(())
    }

    pub(super) fn result_vt(&self, i: &Inst) -> Result<ValType, Error> {
        let t = i.result_ty()?;
        self.spv
            .val_type(t)
            .ok_or_else(|| i.err(ErrorKind::BadType, "result must be a scalar or vector"))
    }

    pub(super) fn scalar_lit_const(&self, i: &Inst, k: usize) -> Result<u64, Error> {
        let id = i.id_op(k)?;
        self.spv.const_u64(i, id)
    }

    /// Instructions newer than rspirv's grammar ([`NewOp`]).
    ///
    /// SPV_VALVE_mixed_float_dot_product's `a.x*b.x + a.y*b.y + acc` on f16vec2 inputs:
    /// the extension leaves rounding to the implementation. The inputs widen to f32
    /// exactly, two fused multiply-adds accumulate (each f16 product is exact in f32, so
    /// only the adds round), and a 16-bit accumulator's result narrows at the end.
    fn new_inst(&mut self, i: &Inst, n: NewOp) -> Result<(), Error> {
        match n {
            NewOp::FDot2MixAcc32Valve | NewOp::FDot2MixAcc16Valve => {
                i.exact(3)?;
                let a = self.value(i, 0)?;
                let b = self.value(i, 1)?;
                let acc = self.value(i, 2)?;
                let acc_bits = if n == NewOp::FDot2MixAcc32Valve {
                    32
                } else {
                    16
                };
                let half2 = ValType::new(16, 2);
                if self.b.ty(a) != half2
                    || self.b.ty(b) != half2
                    || self.b.ty(acc) != ValType::new(acc_bits, 1)
                {
                    return Err(i.err(
                        ErrorKind::BadType,
                        format!("operands must be two 16-bit 2-vectors and a {acc_bits}-bit float"),
                    ));
                }
                let mut sum = if acc_bits == 32 {
                    acc
                } else {
                    self.conv(i, AluOp::F2f, 32, acc)?
                };
                for c in 0..2 {
                    let x = self.b.channel(a, c);
                    let y = self.b.channel(b, c);
                    let x = self.conv(i, AluOp::F2f, 32, x)?;
                    let y = self.conv(i, AluOp::F2f, 32, y)?;
                    sum = self.alu(i, AluOp::Ffma, &[x, y, sum])?;
                }
                let r = if acc_bits == 32 {
                    sum
                } else {
                    self.conv(i, AluOp::F2f, 16, sum)?
                };
                self.check_result(i, r)?;
                self.set(i, Val::V(r))
            }
        }
    }

    /// Translates one non-terminator instruction. A result decorated `NoContraction`
    /// (GLSL `precise`) marks every ALU instruction its translation emits `exact`, so no
    /// later pass fuses them.
    pub(super) fn inst(&mut self, i: &Inst) -> Result<(), Error> {
        let precise = i.id.is_some_and(|id| {
            self.spv
                .has_deco(id, rspirv::spirv::Decoration::NoContraction)
        });
        if !precise {
            return self.inst_body(i);
        }
        let first = self.b.f().insts.len();
        self.inst_body(i)?;
        let f = self.b.f();
        for k in first..f.insts.len() {
            let d = &mut f.insts[Value::new(k)];
            d.exact = matches!(d.kind, crate::ir::InstKind::Alu { .. });
        }
        Ok(())
    }

    fn inst_body(&mut self, i: &Inst) -> Result<(), Error> {
        if let Some(n) = i.new_op {
            return self.new_inst(i, n);
        }
        if let Some(m) = spirv_alu(i.op) {
            return self.alu_inst(i, m);
        }
        match i.op {
            Op::Variable => {
                let ty = i.result_ty()?;
                let pointee = match self.spv.stype(i, ty)? {
                    SType::Pointer {
                        sc: rspirv::spirv::StorageClass::Function,
                        pointee,
                    } => *pointee,
                    _ => {
                        return Err(i.err(
                            ErrorKind::BadType,
                            "function variable must have a Function pointer type",
                        ))
                    }
                };
                let name = self.spv.names.get(&i.result_id()?).cloned();
                let var = self.local_var(i, pointee, name)?;
                let d = self.b.deref_var(var);
                if i.ops.len() > 1 {
                    let init = i.id_op(1)?;
                    let v = self.val(i, init)?;
                    self.store_tree(i, &Val::Ptr(d), pointee, v)?;
                }
                self.set(i, Val::Ptr(d))
            }
            Op::Load => {
                i.need(1)?;
                let (p, pointee) = self.ptr(i, i.id_op(0)?)?;
                if pointee != i.result_ty()? {
                    return Err(i.err(
                        ErrorKind::BadType,
                        "load result type differs from the pointee type",
                    ));
                }
                let access = mem_access(i, 1);
                let v = self.load_tree(i, &p, pointee, access)?;
                self.set(i, v)
            }
            Op::Store => {
                i.need(2)?;
                let (p, pointee) = self.ptr(i, i.id_op(0)?)?;
                let vid = i.id_op(1)?;
                if self.type_of(i, vid)? != pointee {
                    return Err(i.err(
                        ErrorKind::BadType,
                        "stored object type differs from the pointee type",
                    ));
                }
                let v = self.val(i, vid)?;
                let access = mem_access(i, 2);
                self.store_tree_access(i, &p, pointee, v, access)
            }
            Op::CopyMemory => {
                i.need(2)?;
                let (dst, dt) = self.ptr(i, i.id_op(0)?)?;
                let (src, st) = self.ptr(i, i.id_op(1)?)?;
                if dt != st {
                    return Err(i.err(ErrorKind::BadType, "OpCopyMemory between different types"));
                }
                let v = self.load_tree(i, &src, st, 0)?;
                self.store_tree(i, &dst, dt, v)
            }
            Op::AccessChain
            | Op::InBoundsAccessChain
            | Op::PtrAccessChain
            | Op::InBoundsPtrAccessChain => self.access_chain(i),
            Op::ArrayLength => {
                i.exact(2)?;
                let (p, pointee) = self.ptr(i, i.id_op(0)?)?;
                let m = i.lit(1)?;
                let Val::Ptr(d) = p else {
                    return Err(i.err(ErrorKind::BadType, "OpArrayLength of a non-block pointer"));
                };
                match self.spv.stype(i, pointee)? {
                    SType::Struct { members }
                        if (m as usize) < members.len()
                            && matches!(
                                self.spv.def(members[m as usize]),
                                Def::Type(SType::RuntimeArray { .. })
                            ) => {}
                    _ => {
                        return Err(i.err(
                            ErrorKind::BadType,
                            "OpArrayLength member is not a runtime array",
                        ))
                    }
                }
                let e = self.d_struct(i, d, m)?;
                let v = self
                    .b
                    .intrinsic(Intrinsic::ArrayLengthDeref, ValType::U32, &[e], &[]);
                self.check_result(i, v)?;
                self.set(i, Val::V(v))
            }
            Op::FunctionCall => {
                i.need(1)?;
                let fid = i.id_op(0)?;
                let spv = self.spv;
                let f = spv
                    .funcs
                    .get(&fid)
                    .ok_or_else(|| super::module::bad_id(i, fid, "a function"))?;
                if f.ret_ty != i.result_ty()? {
                    return Err(i.err(
                        ErrorKind::BadType,
                        "call result type differs from the function's",
                    ));
                }
                let mut args = Vec::new();
                for k in 1..i.ops.len() {
                    let a = i.id_op(k)?;
                    let pt = f.params.get(k - 1).map(|p| p.1);
                    if pt.is_some() && Some(self.type_of(i, a)?) != pt {
                        return Err(i.err(
                            ErrorKind::BadType,
                            format!("argument {} type differs from the parameter", k - 1),
                        ));
                    }
                    args.push(self.val(i, a)?);
                }
                if let Some(v) = self.inline_function(f, &args, false)? {
                    self.set(i, v)?;
                }
                Ok(())
            }
            Op::CompositeConstruct => self.composite_construct(i),
            Op::CompositeExtract => {
                i.need(2)?;
                let mut v = self.val(i, i.id_op(0)?)?;
                for k in 1..i.ops.len() {
                    let idx = i.lit(k)?;
                    v = self.extract(i, v, idx, k + 1 == i.ops.len())?;
                }
                self.set(i, v)
            }
            Op::CompositeInsert => {
                i.need(3)?;
                let obj = self.val(i, i.id_op(0)?)?;
                let comp = self.val(i, i.id_op(1)?)?;
                let path: Vec<u32> = (2..i.ops.len())
                    .map(|k| i.lit(k))
                    .collect::<Result<_, _>>()?;
                let v = self.insert(i, comp, &path, obj)?;
                self.set(i, v)
            }
            Op::VectorShuffle => {
                i.need(2)?;
                let a = self.value(i, 0)?;
                let b = self.value(i, 1)?;
                let (ta, tb) = (self.b.ty(a), self.b.ty(b));
                if ta.bits != tb.bits {
                    return Err(i.err(
                        ErrorKind::BadType,
                        "shuffle of vectors of different component types",
                    ));
                }
                let mut comps = Vec::new();
                for k in 2..i.ops.len() {
                    let s = i.lit(k)?;
                    let c = if s == u32::MAX {
                        self.b.undef(ta.with_comps(1))
                    } else if s < ta.comps as u32 {
                        self.b.channel(a, s as u8)
                    } else if s < (ta.comps + tb.comps) as u32 {
                        self.b.channel(b, (s - ta.comps as u32) as u8)
                    } else {
                        return Err(i.err(
                            ErrorKind::BadOperands,
                            format!("shuffle index {} out of range", s),
                        ));
                    };
                    comps.push(c);
                }
                if !ValType::new(ta.bits, comps.len() as u8).is_valid() {
                    return Err(i.err(ErrorKind::BadType, "shuffle result size"));
                }
                let v = self.vec_checked(i, &comps)?;
                self.check_result(i, v)?;
                self.set(i, Val::V(v))
            }
            Op::VectorExtractDynamic => {
                i.exact(2)?;
                let v = self.value(i, 0)?;
                let idx = self.value(i, 1)?;
                let n = self.b.ty(v).comps;
                let mut r = self.b.channel(v, 0);
                for k in 1..n {
                    let kc = self.b.const_int(self.b.ty(idx), k as u64);
                    let eq = self.alu(i, AluOp::Ieq, &[idx, kc])?;
                    let ck = self.b.channel(v, k);
                    r = self.b.alu3(AluOp::Bcsel, eq, ck, r);
                }
                self.check_result(i, r)?;
                self.set(i, Val::V(r))
            }
            Op::VectorInsertDynamic => {
                i.exact(3)?;
                let v = self.value(i, 0)?;
                let c = self.value(i, 1)?;
                let idx = self.value(i, 2)?;
                let t = self.b.ty(v);
                if self.b.ty(c) != t.with_comps(1) {
                    return Err(i.err(ErrorKind::BadType, "inserted component type"));
                }
                let mut comps = Vec::new();
                for k in 0..t.comps {
                    let kc = self.b.const_int(self.b.ty(idx), k as u64);
                    let eq = self.alu(i, AluOp::Ieq, &[idx, kc])?;
                    let ck = self.b.channel(v, k);
                    comps.push(self.b.alu3(AluOp::Bcsel, eq, c, ck));
                }
                let r = self.b.vec(&comps);
                self.set(i, Val::V(r))
            }
            Op::CopyObject | Op::CopyLogical => {
                i.exact(1)?;
                let id = i.id_op(0)?;
                if i.op == Op::CopyObject && self.type_of(i, id)? != i.result_ty()? {
                    return Err(i.err(ErrorKind::BadType, "OpCopyObject changes the type"));
                }
                // OpCopyLogical copies between types differing only in decorations; values
                // carry no layout, so the value is the same.
                let v = self.val(i, id)?;
                self.set(i, v)
            }
            Op::Undef => {
                let ty = i.result_ty()?;
                let c = self.spv.null_of(i, ty)?;
                let u = undef_like(&c);
                let v = self.materialize_const(i, &u, ty)?;
                self.set(i, v)
            }
            Op::Transpose => {
                i.exact(1)?;
                let cols = self.columns(i, 0)?;
                let rows = self.b.ty(cols[0]).comps;
                let mut out = Vec::new();
                for r in 0..rows {
                    let comps: Vec<Value> = cols.iter().map(|&c| self.b.channel(c, r)).collect();
                    out.push(Val::V(self.vec_checked(i, &comps)?));
                }
                self.set(i, Val::C(out))
            }
            Op::VectorTimesScalar => {
                i.exact(2)?;
                let v = self.value(i, 0)?;
                let s = self.value(i, 1)?;
                let n = self.b.ty(v).comps;
                let sv = self.splat(s, n);
                let r = self.alu(i, AluOp::Fmul, &[v, sv])?;
                self.check_result(i, r)?;
                self.set(i, Val::V(r))
            }
            Op::MatrixTimesScalar => {
                i.exact(2)?;
                let cols = self.columns(i, 0)?;
                let s = self.value(i, 1)?;
                let mut out = Vec::new();
                for c in cols {
                    let n = self.b.ty(c).comps;
                    let sv = self.splat(s, n);
                    out.push(Val::V(self.alu(i, AluOp::Fmul, &[c, sv])?));
                }
                self.set(i, Val::C(out))
            }
            Op::VectorTimesMatrix => {
                i.exact(2)?;
                let v = self.value(i, 0)?;
                let cols = self.columns(i, 1)?;
                let mut comps = Vec::new();
                for c in cols {
                    comps.push(self.alu(i, AluOp::Fdot, &[v, c])?);
                }
                let r = self.vec_checked(i, &comps)?;
                self.check_result(i, r)?;
                self.set(i, Val::V(r))
            }
            Op::MatrixTimesVector => {
                i.exact(2)?;
                let cols = self.columns(i, 0)?;
                let v = self.value(i, 1)?;
                let r = self.mat_vec(i, &cols, v)?;
                self.check_result(i, r)?;
                self.set(i, Val::V(r))
            }
            Op::MatrixTimesMatrix => {
                i.exact(2)?;
                let a = self.columns(i, 0)?;
                let bc = self.columns(i, 1)?;
                let mut out = Vec::new();
                for c in bc {
                    out.push(Val::V(self.mat_vec(i, &a, c)?));
                }
                self.set(i, Val::C(out))
            }
            Op::OuterProduct => {
                i.exact(2)?;
                let c = self.value(i, 0)?;
                let r = self.value(i, 1)?;
                let n = self.b.ty(c).comps;
                let mut out = Vec::new();
                for k in 0..self.b.ty(r).comps {
                    let rk = self.b.channel(r, k);
                    let s = self.splat(rk, n);
                    out.push(Val::V(self.alu(i, AluOp::Fmul, &[c, s])?));
                }
                self.set(i, Val::C(out))
            }
            Op::Dot => {
                i.exact(2)?;
                let a = self.value(i, 0)?;
                let b = self.value(i, 1)?;
                let r = self.alu(i, AluOp::Fdot, &[a, b])?;
                self.check_result(i, r)?;
                self.set(i, Val::V(r))
            }
            Op::Any | Op::All => {
                i.exact(1)?;
                let v = self.value(i, 0)?;
                let op = if i.op == Op::Any {
                    AluOp::Bany
                } else {
                    AluOp::Ball
                };
                let r = self.alu(i, op, &[v])?;
                self.set(i, Val::V(r))
            }
            Op::Fwidth | Op::FwidthFine | Op::FwidthCoarse => {
                i.exact(1)?;
                let v = self.value(i, 0)?;
                let (x, y) = match i.op {
                    Op::Fwidth => (AluOp::Fddx, AluOp::Fddy),
                    Op::FwidthFine => (AluOp::FddxFine, AluOp::FddyFine),
                    _ => (AluOp::FddxCoarse, AluOp::FddyCoarse),
                };
                let dx = self.alu(i, x, &[v])?;
                let dy = self.alu(i, y, &[v])?;
                let ax = self.alu(i, AluOp::Fabs, &[dx])?;
                let ay = self.alu(i, AluOp::Fabs, &[dy])?;
                let r = self.alu(i, AluOp::Fadd, &[ax, ay])?;
                self.set(i, Val::V(r))
            }
            Op::IAddCarry | Op::ISubBorrow | Op::UMulExtended | Op::SMulExtended => {
                i.exact(2)?;
                let a = self.value(i, 0)?;
                let b = self.value(i, 1)?;
                let (lo, hi) = match i.op {
                    Op::IAddCarry => (AluOp::Iadd, AluOp::UaddCarry),
                    Op::ISubBorrow => (AluOp::Isub, AluOp::UsubBorrow),
                    Op::UMulExtended => (AluOp::Imul, AluOp::UmulHigh),
                    _ => (AluOp::Imul, AluOp::ImulHigh),
                };
                let l = self.alu(i, lo, &[a, b])?;
                let h = self.alu(i, hi, &[a, b])?;
                self.set(i, Val::C(vec![Val::V(l), Val::V(h)]))
            }
            Op::BitFieldInsert => {
                i.exact(4)?;
                let base = self.value(i, 0)?;
                let ins = self.value(i, 1)?;
                let n = self.b.ty(base).comps;
                let off = self.value(i, 2)?;
                let cnt = self.value(i, 3)?;
                let off = self.splat(off, n);
                let cnt = self.splat(cnt, n);
                let r = self.alu(i, AluOp::BitfieldInsert, &[base, ins, off, cnt])?;
                self.set(i, Val::V(r))
            }
            Op::BitFieldSExtract | Op::BitFieldUExtract => {
                i.exact(3)?;
                let base = self.value(i, 0)?;
                let n = self.b.ty(base).comps;
                let off = self.value(i, 1)?;
                let cnt = self.value(i, 2)?;
                let off = self.splat(off, n);
                let cnt = self.splat(cnt, n);
                let op = if i.op == Op::BitFieldSExtract {
                    AluOp::IbitfieldExtract
                } else {
                    AluOp::UbitfieldExtract
                };
                let r = self.alu(i, op, &[base, off, cnt])?;
                self.set(i, Val::V(r))
            }
            Op::ConvertUToPtr => {
                i.exact(1)?;
                let v = self.value(i, 0)?;
                let v = match self.b.ty(v).bits {
                    64 => v,
                    _ => self.conv(i, AluOp::U2u, 64, v)?,
                };
                self.set(i, Val::V(v))
            }
            Op::ConvertPtrToU => {
                i.exact(1)?;
                let id = i.id_op(0)?;
                // A pointer loaded from memory is its address already; a deref chain's value
                // is the address it computes (lower_explicit_io makes it one).
                let d = match self.val(i, id)? {
                    Val::V(raw) if self.b.ty(raw) == ValType::U64 => raw,
                    _ => match self.ptr(i, id)?.0 {
                        Val::Ptr(d) => d,
                        _ => return Err(i.err(ErrorKind::BadType, "pointer expected")),
                    },
                };
                let want = self.result_vt(i)?;
                let v = if want.bits == 64 {
                    d
                } else {
                    self.conv(i, AluOp::U2u, want.bits, d)?
                };
                self.set(i, Val::V(v))
            }
            Op::ExtInst => self.ext_inst(i),
            Op::ControlBarrier => {
                i.exact(3)?;
                let ex = self.scalar_lit_const(i, 0)? as u32;
                let mem = self.scalar_lit_const(i, 1)? as u32;
                let sem = self.scalar_lit_const(i, 2)? as u32;
                self.b.intrinsic(
                    Intrinsic::Barrier,
                    ValType::NONE,
                    &[],
                    &[ex, mem, sem, sem_modes(sem)],
                );
                Ok(())
            }
            Op::MemoryBarrier => {
                i.exact(2)?;
                let mem = self.scalar_lit_const(i, 0)? as u32;
                let sem = self.scalar_lit_const(i, 1)? as u32;
                // Execution scope Invocation (4): no execution barrier.
                self.b.intrinsic(
                    Intrinsic::Barrier,
                    ValType::NONE,
                    &[],
                    &[4, mem, sem, sem_modes(sem)],
                );
                Ok(())
            }
            Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicCompareExchange
            | Op::AtomicIIncrement
            | Op::AtomicIDecrement
            | Op::AtomicIAdd
            | Op::AtomicISub
            | Op::AtomicSMin
            | Op::AtomicUMin
            | Op::AtomicSMax
            | Op::AtomicUMax
            | Op::AtomicAnd
            | Op::AtomicOr
            | Op::AtomicXor
            | Op::AtomicFAddEXT
            | Op::AtomicFMinEXT
            | Op::AtomicFMaxEXT => self.atomic(i),
            Op::DemoteToHelperInvocation => {
                self.b.intrinsic(Intrinsic::Demote, ValType::NONE, &[], &[]);
                Ok(())
            }
            Op::IsHelperInvocationEXT => {
                let v = self
                    .b
                    .intrinsic(Intrinsic::IsHelperInvocation, ValType::B1, &[], &[]);
                self.set(i, Val::V(v))
            }
            Op::SampledImage
            | Op::Image
            | Op::ImageSampleImplicitLod
            | Op::ImageSampleExplicitLod
            | Op::ImageSampleDrefImplicitLod
            | Op::ImageSampleDrefExplicitLod
            | Op::ImageSampleProjImplicitLod
            | Op::ImageSampleProjExplicitLod
            | Op::ImageSampleProjDrefImplicitLod
            | Op::ImageSampleProjDrefExplicitLod
            | Op::ImageFetch
            | Op::ImageGather
            | Op::ImageDrefGather
            | Op::ImageRead
            | Op::ImageWrite
            | Op::ImageQuerySizeLod
            | Op::ImageQuerySize
            | Op::ImageQueryLod
            | Op::ImageQueryLevels
            | Op::ImageQuerySamples
            | Op::ImageTexelPointer
            | Op::ImageSparseSampleImplicitLod
            | Op::ImageSparseSampleExplicitLod
            | Op::ImageSparseSampleDrefImplicitLod
            | Op::ImageSparseSampleDrefExplicitLod
            | Op::ImageSparseFetch
            | Op::ImageSparseGather
            | Op::ImageSparseDrefGather
            | Op::ImageSparseRead
            | Op::ImageSparseTexelsResident => self.image_inst(i),
            Op::GroupNonUniformElect
            | Op::GroupNonUniformAll
            | Op::GroupNonUniformAny
            | Op::GroupNonUniformAllEqual
            | Op::GroupNonUniformBroadcast
            | Op::GroupNonUniformBroadcastFirst
            | Op::GroupNonUniformBallot
            | Op::GroupNonUniformInverseBallot
            | Op::GroupNonUniformBallotBitExtract
            | Op::GroupNonUniformBallotBitCount
            | Op::GroupNonUniformBallotFindLSB
            | Op::GroupNonUniformBallotFindMSB
            | Op::GroupNonUniformShuffle
            | Op::GroupNonUniformShuffleXor
            | Op::GroupNonUniformShuffleUp
            | Op::GroupNonUniformShuffleDown
            | Op::GroupNonUniformIAdd
            | Op::GroupNonUniformFAdd
            | Op::GroupNonUniformIMul
            | Op::GroupNonUniformFMul
            | Op::GroupNonUniformSMin
            | Op::GroupNonUniformUMin
            | Op::GroupNonUniformFMin
            | Op::GroupNonUniformSMax
            | Op::GroupNonUniformUMax
            | Op::GroupNonUniformFMax
            | Op::GroupNonUniformBitwiseAnd
            | Op::GroupNonUniformBitwiseOr
            | Op::GroupNonUniformBitwiseXor
            | Op::GroupNonUniformLogicalAnd
            | Op::GroupNonUniformLogicalOr
            | Op::GroupNonUniformLogicalXor
            | Op::GroupNonUniformQuadBroadcast
            | Op::GroupNonUniformQuadSwap => self.subgroup(i),
            Op::Nop | Op::Line | Op::NoLine | Op::Name => Ok(()),
            _ => Err(i.err(ErrorKind::Unsupported, "instruction is not supported")),
        }
    }

    fn alu_inst(&mut self, i: &Inst, m: AluMap) -> Result<(), Error> {
        match m {
            AluMap::Op(op, swap) => {
                let n = op.num_srcs();
                i.exact(n)?;
                // Select over composites: leaf by leaf.
                if op == AluOp::Bcsel {
                    let c = self.value(i, 0)?;
                    let a = self.val(i, i.id_op(1)?)?;
                    let b = self.val(i, i.id_op(2)?)?;
                    let v = self.select_tree(i, c, a, b)?;
                    return self.set(i, v);
                }
                let mut srcs = Vec::with_capacity(n);
                for k in 0..n {
                    srcs.push(self.value(i, k)?);
                }
                if swap {
                    srcs.swap(0, 1);
                }
                let v = self.alu(i, op, &srcs)?;
                self.check_result(i, v)?;
                self.set(i, Val::V(v))
            }
            AluMap::Conv(op) => {
                let want = self.result_vt(i)?;
                i.exact(1)?;
                let s = self.value(i, 0)?;
                if self.b.ty(s).comps != want.comps {
                    return Err(i.err(ErrorKind::BadType, "conversion changes the component count"));
                }
                // FPRoundingMode on a float conversion picks the rounding (RTE 0, RTZ 1).
                let rounding = self
                    .spv
                    .deco(i.result_id()?, rspirv::spirv::Decoration::FPRoundingMode);
                let op = match (op, rounding.and_then(|a| a.first().copied())) {
                    (_, None) => op,
                    (AluOp::F2f, Some(0)) => AluOp::F2fRtne,
                    (AluOp::F2f, Some(1)) => AluOp::F2fRtz,
                    (_, Some(m)) => {
                        return Err(i.err(
                            ErrorKind::Unsupported,
                            format!("FPRoundingMode {} on this conversion", m),
                        ))
                    }
                };
                let v = self.conv(i, op, want.bits, s)?;
                self.set(i, Val::V(v))
            }
            AluMap::Bitcast => {
                let want = self.result_vt(i)?;
                i.exact(1)?;
                let id = i.id_op(0)?;
                let s = match self.val(i, id)? {
                    Val::V(v) | Val::Ptr(v) => v,
                    _ => return Err(i.err(ErrorKind::BadType, "bitcast of a composite")),
                };
                let v = self.bitcast(i, s, want)?;
                self.set(i, Val::V(v))
            }
        }
    }

    fn select_tree(&mut self, i: &Inst, c: Value, a: Val, b: Val) -> Result<Val, Error> {
        match (a, b) {
            (Val::V(x), Val::V(y)) => {
                let t = self.b.ty(x);
                let ct = self.b.ty(c);
                if ct.bits != 1 {
                    return Err(i.err(ErrorKind::BadType, "select condition must be bool"));
                }
                let c = if ct.comps == 1 && t.comps > 1 {
                    self.splat(c, t.comps)
                } else {
                    c
                };
                Ok(Val::V(self.alu(i, AluOp::Bcsel, &[c, x, y])?))
            }
            (Val::C(xs), Val::C(ys)) if xs.len() == ys.len() => {
                if self.b.ty(c).comps != 1 {
                    return Err(i.err(
                        ErrorKind::BadType,
                        "composite select needs a scalar condition",
                    ));
                }
                let mut out = Vec::new();
                for (x, y) in xs.into_iter().zip(ys) {
                    out.push(self.select_tree(i, c, x, y)?);
                }
                Ok(Val::C(out))
            }
            _ => Err(i.err(
                ErrorKind::BadType,
                "select of mismatched or unsupported objects",
            )),
        }
    }

    /// Splits a value into 32-bit words (for bitcasts between shapes).
    fn split_words(&mut self, i: &Inst, v: Value) -> Result<Vec<Value>, Error> {
        let t = self.b.ty(v);
        let comps: Vec<Value> = (0..t.comps).map(|k| self.b.channel(v, k)).collect();
        let mut out = Vec::new();
        match t.bits {
            64 => {
                for c in comps {
                    let w = self.b.alu1(AluOp::Unpack64_2x32, c);
                    out.push(self.b.channel(w, 0));
                    out.push(self.b.channel(w, 1));
                }
            }
            32 => out = comps,
            16 if comps.len() % 2 == 0 => {
                for p in comps.chunks(2) {
                    let v2 = self.b.vec(p);
                    out.push(self.b.alu1(AluOp::Pack32_2x16, v2));
                }
            }
            8 if comps.len() % 4 == 0 => {
                for p in comps.chunks(4) {
                    let v4 = self.b.vec(p);
                    out.push(self.b.alu1(AluOp::Pack32_4x8, v4));
                }
            }
            _ => return Err(i.err(ErrorKind::Unsupported, "bitcast between these shapes")),
        }
        Ok(out)
    }

    fn bitcast(&mut self, i: &Inst, s: Value, want: ValType) -> Result<Value, Error> {
        let t = self.b.ty(s);
        if t == want {
            return Ok(s);
        }
        if t.bits as u32 * t.comps as u32 != want.bits as u32 * want.comps as u32 || t.bits == 1 {
            return Err(i.err(
                ErrorKind::BadType,
                format!("bitcast from {} to {} changes the size", t, want),
            ));
        }
        let words = self.split_words(i, s)?;
        let mut comps = Vec::new();
        match want.bits {
            64 => {
                for p in words.chunks(2) {
                    let v2 = self.b.vec(p);
                    comps.push(self.b.alu1(AluOp::Pack64_2x32, v2));
                }
            }
            32 => comps = words,
            16 => {
                for w in words {
                    let u = self.b.alu1(AluOp::Unpack32_2x16, w);
                    comps.push(self.b.channel(u, 0));
                    comps.push(self.b.channel(u, 1));
                }
            }
            8 => {
                for w in words {
                    let u = self.b.alu1(AluOp::Unpack32_4x8, w);
                    for k in 0..4 {
                        comps.push(self.b.channel(u, k));
                    }
                }
            }
            _ => return Err(i.err(ErrorKind::Unsupported, "bitcast to this type")),
        }
        if comps.len() != want.comps as usize {
            return Err(i.err(ErrorKind::Unsupported, "bitcast between these shapes"));
        }
        Ok(self.b.vec(&comps))
    }

    /// Columns of the matrix operand `k`.
    fn columns(&mut self, i: &Inst, k: usize) -> Result<Vec<Value>, Error> {
        let id = i.id_op(k)?;
        match self.val(i, id)? {
            Val::C(cols) if !cols.is_empty() => cols
                .into_iter()
                .map(|c| match c {
                    Val::V(v) => Ok(v),
                    _ => Err(i.err(ErrorKind::BadType, "matrix column is not a vector")),
                })
                .collect(),
            _ => Err(i.err(
                ErrorKind::BadType,
                format!("operand %{} is not a matrix", id),
            )),
        }
    }

    fn mat_vec(&mut self, i: &Inst, cols: &[Value], v: Value) -> Result<Value, Error> {
        if self.b.ty(v).comps as usize != cols.len() {
            return Err(i.err(ErrorKind::BadType, "matrix/vector size mismatch"));
        }
        let mut acc: Option<Value> = None;
        for (k, &c) in cols.iter().enumerate() {
            let n = self.b.ty(c).comps;
            let vk = self.b.channel(v, k as u8);
            let s = self.splat(vk, n);
            let p = self.alu(i, AluOp::Fmul, &[c, s])?;
            acc = Some(match acc {
                Some(a) => self.alu(i, AluOp::Fadd, &[a, p])?,
                None => p,
            });
        }
        Ok(acc.expect("matrix has columns"))
    }

    fn composite_construct(&mut self, i: &Inst) -> Result<(), Error> {
        let ty = i.result_ty()?;
        let st = self.spv.stype(i, ty)?.clone();
        let mut parts = Vec::new();
        for k in 0..i.ops.len() {
            let id = i.id_op(k)?;
            parts.push(self.val(i, id)?);
        }
        if let SType::Vector { n, .. } = st {
            let mut comps = Vec::new();
            for p in parts {
                let Val::V(v) = p else {
                    return Err(i.err(
                        ErrorKind::BadType,
                        "vector constituent is not a scalar or vector",
                    ));
                };
                for c in 0..self.b.ty(v).comps {
                    comps.push(self.b.channel(v, c));
                }
            }
            if comps.len() != n as usize {
                return Err(i.err(
                    ErrorKind::BadOperands,
                    format!("{} components for a {}-vector", comps.len(), n),
                ));
            }
            let v = self.vec_checked(i, &comps)?;
            if self.spv.val_type(ty) != Some(self.b.ty(v)) {
                return Err(i.err(
                    ErrorKind::BadType,
                    "constituent types differ from the vector's",
                ));
            }
            return self.set(i, Val::V(v));
        }
        let n = match &st {
            SType::Matrix { n, .. } => *n as usize,
            SType::Array { len, .. } => *len as usize,
            SType::Struct { members } => members.len(),
            _ => {
                return Err(i.err(
                    ErrorKind::BadType,
                    "OpCompositeConstruct of a non-composite",
                ))
            }
        };
        if parts.len() != n {
            return Err(i.err(
                ErrorKind::BadOperands,
                format!("{} constituents for {}", parts.len(), n),
            ));
        }
        self.set(i, Val::C(parts))
    }

    fn extract(&mut self, i: &Inst, v: Val, idx: u32, last: bool) -> Result<Val, Error> {
        match v {
            Val::C(mut parts) => {
                if idx as usize >= parts.len() {
                    return Err(i.err(
                        ErrorKind::BadOperands,
                        format!("index {} out of range", idx),
                    ));
                }
                Ok(parts.swap_remove(idx as usize))
            }
            Val::V(x) if last && (idx as u8) < self.b.ty(x).comps && idx < 16 => {
                Ok(Val::V(self.b.channel(x, idx as u8)))
            }
            _ => Err(i.err(
                ErrorKind::BadOperands,
                "index into a scalar or out of range",
            )),
        }
    }

    fn insert(&mut self, i: &Inst, comp: Val, path: &[u32], obj: Val) -> Result<Val, Error> {
        let Some((&first, rest)) = path.split_first() else {
            return Ok(obj);
        };
        match comp {
            Val::C(mut parts) => {
                let k = first as usize;
                if k >= parts.len() {
                    return Err(i.err(
                        ErrorKind::BadOperands,
                        format!("index {} out of range", first),
                    ));
                }
                let inner = std::mem::replace(&mut parts[k], Val::C(vec![]));
                parts[k] = self.insert(i, inner, rest, obj)?;
                Ok(Val::C(parts))
            }
            Val::V(v) if rest.is_empty() => {
                let t = self.b.ty(v);
                let Val::V(o) = obj else {
                    return Err(i.err(ErrorKind::BadType, "inserting a composite into a vector"));
                };
                if first >= t.comps as u32 || self.b.ty(o) != t.with_comps(1) {
                    return Err(i.err(ErrorKind::BadOperands, "vector insert index or type"));
                }
                let comps: Vec<Value> = (0..t.comps)
                    .map(|c| {
                        if c as u32 == first {
                            o
                        } else {
                            self.b.channel(v, c)
                        }
                    })
                    .collect();
                Ok(Val::V(self.b.vec(&comps)))
            }
            _ => Err(i.err(
                ErrorKind::BadOperands,
                "insert path does not match the composite",
            )),
        }
    }

    fn access_chain(&mut self, i: &Inst) -> Result<(), Error> {
        i.need(1)?;
        let base_id = i.id_op(0)?;
        let (base, mut ty) = self.ptr(i, base_id)?;
        let ptr_chain = matches!(i.op, Op::PtrAccessChain | Op::InBoundsPtrAccessChain);
        let mut k = 1;
        let mut cur = match base {
            Val::Ptr(d) => Some(d),
            Val::Split(_) => None,
            _ => return Err(i.err(ErrorKind::BadType, "access chain base is not a pointer")),
        };
        if ptr_chain {
            let d = cur.ok_or_else(|| {
                i.err(
                    ErrorKind::Unsupported,
                    "OpPtrAccessChain on an interface block",
                )
            })?;
            let idx = self.index(i, k)?;
            let bt = self.type_of(i, base_id)?;
            let stride = self
                .spv
                .deco(bt, rspirv::spirv::Decoration::ArrayStride)
                .and_then(|a| a.first().copied())
                .unwrap_or(0);
            self.deref_ty(i, d)?;
            cur = Some(self.b.deref_ptr_as_array(d, idx, stride));
            k += 1;
        }
        while k < i.ops.len() {
            let st = self.spv.stype(i, ty)?.clone();
            match st {
                SType::Struct { members } => {
                    let id = i.id_op(k)?;
                    let m = self.spv.const_u64(i, id)? as usize;
                    if m >= members.len() {
                        return Err(i.err(
                            ErrorKind::BadOperands,
                            format!("struct member {} out of range", m),
                        ));
                    }
                    cur = Some(match cur {
                        Some(d) => self.d_struct(i, d, m as u32)?,
                        None => {
                            let Val::Split(vars) = &base else {
                                unreachable!()
                            };
                            self.b.deref_var(vars[m])
                        }
                    });
                    ty = members[m];
                }
                SType::Array { elem, .. }
                | SType::RuntimeArray { elem }
                | SType::Matrix { col: elem, .. }
                | SType::Vector { elem, .. } => {
                    let d =
                        cur.ok_or_else(|| i.err(ErrorKind::BadType, "indexing a split block"))?;
                    // A constant index past a known length is invalid SPIR-V (and would
                    // become an out-of-range swizzle once promoted to SSA).
                    let len = match st {
                        SType::Array { len, .. } => Some(len as u64),
                        SType::Matrix { n, .. } | SType::Vector { n, .. } => Some(n as u64),
                        _ => None,
                    };
                    if let (Some(len), Some((super::CVal::S(c), _))) =
                        (len, self.spv.constant(i.id_op(k)?))
                    {
                        if *c >= len {
                            return Err(i.err(
                                ErrorKind::BadOperands,
                                format!("constant index {} out of range (length {})", c, len),
                            ));
                        }
                    }
                    let idx = self.index(i, k)?;
                    cur = Some(self.d_array(i, d, idx)?);
                    ty = elem;
                }
                _ => return Err(i.err(ErrorKind::BadOperands, "too many access chain indices")),
            }
            k += 1;
        }
        let rt = i.result_ty()?;
        match self.spv.stype(i, rt)? {
            SType::Pointer { pointee, .. } if *pointee == ty => {}
            _ => {
                return Err(i.err(
                    ErrorKind::BadType,
                    "access chain result type does not match the indexed type",
                ))
            }
        }
        let v = match cur {
            Some(d) => Val::Ptr(d),
            None => base,
        };
        self.set(i, v)
    }

    /// Access-chain index operand `k` as a scalar integer value.
    fn index(&mut self, i: &Inst, k: usize) -> Result<Value, Error> {
        let id = i.id_op(k)?;
        let t = self.type_of(i, id)?;
        if !matches!(self.spv.def(t), Def::Type(SType::Int { .. })) {
            return Err(i.err(ErrorKind::BadType, "index must be a scalar integer"));
        }
        self.value(i, k)
    }

    fn atomic(&mut self, i: &Inst) -> Result<(), Error> {
        i.need(3)?;
        let (p, pointee) = self.ptr(i, i.id_op(0)?)?;
        let vt = self
            .spv
            .val_type(pointee)
            .filter(|t| t.comps == 1 && t.bits >= 32)
            .ok_or_else(|| i.err(ErrorKind::BadType, "atomic on a non-scalar or narrow type"))?;
        let is_store = i.op == Op::AtomicStore;
        if !is_store && self.result_vt(i)? != vt {
            return Err(i.err(
                ErrorKind::BadType,
                "atomic result type differs from the pointee",
            ));
        }
        let val_at = |op: Op| {
            if op == Op::AtomicCompareExchange {
                5
            } else {
                3
            }
        };
        let (aop, data): (Option<AtomicOp>, Option<Value>) = match i.op {
            Op::AtomicLoad => (None, None),
            Op::AtomicStore => {
                i.exact(4)?;
                (None, Some(self.value(i, 3)?))
            }
            Op::AtomicIIncrement | Op::AtomicIDecrement => {
                i.exact(3)?;
                let one = if i.op == Op::AtomicIIncrement {
                    1
                } else {
                    vt.mask()
                };
                (Some(AtomicOp::Add), Some(self.b.const_int(vt, one)))
            }
            Op::AtomicCompareExchange => {
                i.exact(6)?;
                (None, Some(self.value(i, 4)?))
            }
            op => {
                i.exact(4)?;
                let v = self.value(i, val_at(op) as usize)?;
                let a = match op {
                    Op::AtomicExchange => AtomicOp::Xchg,
                    Op::AtomicIAdd => AtomicOp::Add,
                    Op::AtomicISub => AtomicOp::Add,
                    Op::AtomicSMin => AtomicOp::Imin,
                    Op::AtomicUMin => AtomicOp::Umin,
                    Op::AtomicSMax => AtomicOp::Imax,
                    Op::AtomicUMax => AtomicOp::Umax,
                    Op::AtomicAnd => AtomicOp::And,
                    Op::AtomicOr => AtomicOp::Or,
                    Op::AtomicXor => AtomicOp::Xor,
                    Op::AtomicFAddEXT => AtomicOp::Fadd,
                    Op::AtomicFMinEXT => AtomicOp::Fmin,
                    _ => AtomicOp::Fmax,
                };
                let v = if op == Op::AtomicISub {
                    self.alu(i, AluOp::Ineg, &[v])?
                } else {
                    v
                };
                (Some(a), Some(v))
            }
        };
        if let Some(d) = data {
            if self.b.ty(d) != vt {
                return Err(i.err(
                    ErrorKind::BadType,
                    "atomic operand type differs from the pointee",
                ));
            }
        }
        const ATOMIC_ACCESS: u32 = ACCESS_ATOMIC;
        if let Val::Ptr(dr) = p {
            let (_, mode) = self.deref_ty(i, dr)?;
            if i.op != Op::AtomicLoad
                && matches!(
                    mode,
                    Mode::Input | Mode::Ubo | Mode::PushConst | Mode::Uniform | Mode::Output
                )
            {
                return Err(i.err(
                    ErrorKind::BadOperands,
                    format!("atomic on {} memory", mode.name()),
                ));
            }
        }
        let r = match p {
            Val::Ptr(dr) => match (i.op, aop) {
                (Op::AtomicLoad, _) => Some(self.d_load(i, dr, ATOMIC_ACCESS)?),
                (Op::AtomicStore, _) => {
                    self.b.store_masked(dr, data.unwrap(), 1, ATOMIC_ACCESS);
                    None
                }
                (Op::AtomicCompareExchange, _) => {
                    let cmp = self.value(i, 5)?;
                    Some(self.b.intrinsic(
                        Intrinsic::DerefAtomicSwap,
                        vt,
                        &[dr, cmp, data.unwrap()],
                        &[0],
                    ))
                }
                (_, Some(a)) => Some(self.b.intrinsic(
                    Intrinsic::DerefAtomic,
                    vt,
                    &[dr, data.unwrap()],
                    &[a as u32, 0],
                )),
                _ => unreachable!(),
            },
            Val::Texel {
                image,
                coord,
                sample,
            } => match (i.op, aop) {
                (Op::AtomicLoad, _) => {
                    let lod = self.b.const_u32(0);
                    let v4 = self.b.intrinsic(
                        Intrinsic::ImageDerefLoad,
                        vt.with_comps(4),
                        &[image, coord, sample, lod],
                        &[ATOMIC_ACCESS],
                    );
                    Some(self.b.channel(v4, 0))
                }
                (Op::AtomicStore, _) => {
                    let lod = self.b.const_u32(0);
                    let d = data.unwrap();
                    let d4 = self.splat(d, 4);
                    self.b.intrinsic(
                        Intrinsic::ImageDerefStore,
                        ValType::NONE,
                        &[image, coord, sample, d4, lod],
                        &[ATOMIC_ACCESS],
                    );
                    None
                }
                (Op::AtomicCompareExchange, _) => {
                    let cmp = self.value(i, 5)?;
                    Some(self.b.intrinsic(
                        Intrinsic::ImageDerefAtomicSwap,
                        vt,
                        &[image, coord, sample, cmp, data.unwrap()],
                        &[],
                    ))
                }
                (_, Some(a)) => Some(self.b.intrinsic(
                    Intrinsic::ImageDerefAtomic,
                    vt,
                    &[image, coord, sample, data.unwrap()],
                    &[a as u32],
                )),
                _ => unreachable!(),
            },
            _ => return Err(i.err(ErrorKind::BadType, "atomic on a non-pointer")),
        };
        if let Some(r) = r {
            self.set(i, Val::V(r))?;
        }
        Ok(())
    }
}

impl Inst {
    pub(super) fn result_vt(&self, fx: &Fx) -> Result<ValType, Error> {
        fx.result_vt(self)
    }
}

/// The access bits of an OpLoad/OpStore's optional MemoryAccess operand at `k`.
fn mem_access(i: &Inst, k: usize) -> u32 {
    match i.ops.get(k) {
        Some(Operand::MemoryAccess(m)) => {
            let b = m.bits();
            let mut a = 0;
            if b & 0x1 != 0 {
                a |= ACCESS_VOLATILE;
            }
            if b & 0x4 != 0 {
                a |= ACCESS_NONTEMPORAL;
            }
            a
        }
        _ => 0,
    }
}

/// Variable modes a barrier's memory semantics cover, as a bit mask over [`Mode`].
fn sem_modes(sem: u32) -> u32 {
    let mut m = 0;
    if sem & 0x40 != 0 {
        m |= 1 << Mode::Ssbo as u32 | 1 << Mode::Global as u32;
    }
    if sem & 0x100 != 0 {
        m |= 1 << Mode::Shared as u32;
    }
    if sem & 0x800 != 0 {
        m |= 1 << Mode::Uniform as u32;
    }
    m
}

fn undef_like(c: &super::CVal) -> super::CVal {
    match c {
        super::CVal::C(v) => super::CVal::C(v.iter().map(undef_like).collect()),
        _ => super::CVal::Undef,
    }
}
