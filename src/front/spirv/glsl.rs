//! GLSL.std.450 extended instructions.
//!
//! Instructions with an IR op map onto it; the rest expand into ALU sequences the way
//! NIR's `vtn_glsl450` does: exp/log through exp2/log2, hyperbolics through exp, the
//! inverse trigonometric functions through a range-reduced odd polynomial for atan (NIR's
//! coefficients; asin and acos through atan, as Vulkan defines their precision; checked
//! against libm in tests/front_semantics.rs), determinant and inverse by cofactors.
//! `NonSemantic.*` instructions are dropped.

use super::module::Def;
use super::parse::Inst;
use super::{Error, ErrorKind, Fx, Val};
use crate::ir::{AluOp, Intrinsic, ValType, Value};
use std::f64::consts::{FRAC_PI_2, LN_2, LOG2_E, PI};

impl<'a, 'm> Fx<'a, 'm> {
    pub(super) fn ext_inst(&mut self, i: &Inst) -> Result<(), Error> {
        i.need(2)?;
        let set = i.id_op(0)?;
        match self.spv.def(set) {
            Def::ExtGlsl => {}
            Def::ExtNonSemantic => return Ok(()),
            _ => return Err(super::module::bad_id(i, set, "an extended instruction set")),
        }
        let n = i.lit(1)?;
        let args = i.ops.len() - 2;
        let a = |s: &mut Self, k: usize| s.value(i, k + 2);
        use AluOp as A;
        let simple = |n: u32| -> Option<(AluOp, usize)> {
            Some(match n {
                1 | 2 => (A::FroundEven, 1),
                3 => (A::Ftrunc, 1),
                4 => (A::Fabs, 1),
                5 => (A::Iabs, 1),
                6 => (A::Fsign, 1),
                7 => (A::Isign, 1),
                8 => (A::Ffloor, 1),
                9 => (A::Fceil, 1),
                10 => (A::Ffract, 1),
                13 => (A::Fsin, 1),
                14 => (A::Fcos, 1),
                26 => (A::Fpow, 2),
                29 => (A::Fexp2, 1),
                30 => (A::Flog2, 1),
                31 => (A::Fsqrt, 1),
                32 => (A::Frsq, 1),
                37 | 79 => (A::Fmin, 2),
                38 => (A::Umin, 2),
                39 => (A::Imin, 2),
                40 | 80 => (A::Fmax, 2),
                41 => (A::Umax, 2),
                42 => (A::Imax, 2),
                46 => (A::Flrp, 3),
                50 => (A::Ffma, 3),
                54 => (A::PackSnorm4x8, 1),
                55 => (A::PackUnorm4x8, 1),
                56 => (A::PackSnorm2x16, 1),
                57 => (A::PackUnorm2x16, 1),
                58 => (A::PackHalf2x16, 1),
                59 => (A::Pack64_2x32, 1),
                60 => (A::UnpackSnorm2x16, 1),
                61 => (A::UnpackUnorm2x16, 1),
                62 => (A::UnpackHalf2x16, 1),
                63 => (A::UnpackSnorm4x8, 1),
                64 => (A::UnpackUnorm4x8, 1),
                65 => (A::Unpack64_2x32, 1),
                _ => return None,
            })
        };
        if let Some((op, k)) = simple(n) {
            if args != k {
                return Err(i.err(
                    ErrorKind::BadOperands,
                    format!("GLSL.std.450 {} takes {} operands", n, k),
                ));
            }
            let srcs: Vec<Value> = (0..k).map(|j| a(self, j)).collect::<Result<_, _>>()?;
            let v = self.alu(i, op, &srcs)?;
            return self.finish(i, v);
        }
        let need = |k: usize| -> Result<(), Error> {
            if args != k {
                Err(i.err(
                    ErrorKind::BadOperands,
                    format!("GLSL.std.450 {} takes {} operands", n, k),
                ))
            } else {
                Ok(())
            }
        };
        let v = match n {
            11 | 12 => {
                need(1)?;
                let x = a(self, 0)?;
                let f = if n == 11 { PI / 180.0 } else { 180.0 / PI };
                let c = self.fconst(self.b.ty(x), f);
                self.alu(i, A::Fmul, &[x, c])?
            }
            15 => {
                need(1)?;
                let x = a(self, 0)?;
                let s = self.alu(i, A::Fsin, &[x])?;
                let c = self.alu(i, A::Fcos, &[x])?;
                self.alu(i, A::Fdiv, &[s, c])?
            }
            16 | 17 => {
                need(1)?;
                let x = a(self, 0)?;
                let s = self.asin(i, x)?;
                if n == 16 {
                    s
                } else {
                    let h = self.fconst(self.b.ty(x), FRAC_PI_2);
                    self.alu(i, A::Fsub, &[h, s])?
                }
            }
            18 => {
                need(1)?;
                let x = a(self, 0)?;
                self.atan(i, x)?
            }
            25 => {
                need(2)?;
                let y = a(self, 0)?;
                let x = a(self, 1)?;
                self.atan2(i, y, x)?
            }
            19..=21 => {
                need(1)?;
                let x = a(self, 0)?;
                let t = self.b.ty(x);
                let x = if n == 21 {
                    let lo = self.fconst(t, -10.0);
                    let hi = self.fconst(t, 10.0);
                    let m = self.alu(i, A::Fmax, &[x, lo])?;
                    self.alu(i, A::Fmin, &[m, hi])?
                } else {
                    x
                };
                let ep = self.exp(i, x)?;
                let nx = self.alu(i, A::Fneg, &[x])?;
                let en = self.exp(i, nx)?;
                match n {
                    19 | 20 => {
                        let op = if n == 19 { A::Fsub } else { A::Fadd };
                        let d = self.alu(i, op, &[ep, en])?;
                        let h = self.fconst(t, 0.5);
                        self.alu(i, A::Fmul, &[d, h])?
                    }
                    _ => {
                        let num = self.alu(i, A::Fsub, &[ep, en])?;
                        let den = self.alu(i, A::Fadd, &[ep, en])?;
                        self.alu(i, A::Fdiv, &[num, den])?
                    }
                }
            }
            22 | 23 => {
                need(1)?;
                let x = a(self, 0)?;
                let t = self.b.ty(x);
                let one = self.fconst(t, 1.0);
                let xx = self.alu(i, A::Fmul, &[x, x])?;
                if n == 22 {
                    let ax = self.alu(i, A::Fabs, &[x])?;
                    let s = self.alu(i, A::Fadd, &[xx, one])?;
                    let r = self.alu(i, A::Fsqrt, &[s])?;
                    let sum = self.alu(i, A::Fadd, &[ax, r])?;
                    let l = self.log(i, sum)?;
                    let sg = self.alu(i, A::Fsign, &[x])?;
                    self.alu(i, A::Fmul, &[sg, l])?
                } else {
                    let s = self.alu(i, A::Fsub, &[xx, one])?;
                    let r = self.alu(i, A::Fsqrt, &[s])?;
                    let sum = self.alu(i, A::Fadd, &[x, r])?;
                    self.log(i, sum)?
                }
            }
            24 => {
                need(1)?;
                let x = a(self, 0)?;
                let t = self.b.ty(x);
                let one = self.fconst(t, 1.0);
                let p = self.alu(i, A::Fadd, &[one, x])?;
                let m = self.alu(i, A::Fsub, &[one, x])?;
                let q = self.alu(i, A::Fdiv, &[p, m])?;
                let l = self.log(i, q)?;
                let h = self.fconst(t, 0.5);
                self.alu(i, A::Fmul, &[l, h])?
            }
            27 => {
                need(1)?;
                let x = a(self, 0)?;
                self.exp(i, x)?
            }
            28 => {
                need(1)?;
                let x = a(self, 0)?;
                self.log(i, x)?
            }
            33 => {
                need(1)?;
                let m = self.matrix_arg(i, 2)?;
                self.determinant(i, &m)?
            }
            34 => {
                need(1)?;
                let m = self.matrix_arg(i, 2)?;
                let inv = self.inverse(i, &m)?;
                return self.set(i, Val::C(inv.into_iter().map(Val::V).collect()));
            }
            35 | 36 => {
                need(if n == 35 { 2 } else { 1 })?;
                let x = a(self, 0)?;
                let whole = self.alu(i, A::Ftrunc, &[x])?;
                let frac = self.alu(i, A::Fsub, &[x, whole])?;
                if n == 36 {
                    return self.set(i, Val::C(vec![Val::V(frac), Val::V(whole)]));
                }
                self.store_out(i, 3, whole)?;
                frac
            }
            51 | 52 => {
                need(if n == 51 { 2 } else { 1 })?;
                let x = a(self, 0)?;
                let sig = self.alu(i, A::FfrexpSig, &[x])?;
                let exp = self.conv(i, A::FfrexpExp, 32, x)?;
                if n == 52 {
                    return self.set(i, Val::C(vec![Val::V(sig), Val::V(exp)]));
                }
                self.store_out(i, 3, exp)?;
                sig
            }
            53 => {
                need(2)?;
                let x = a(self, 0)?;
                let e = a(self, 1)?;
                self.alu(i, A::Fldexp, &[x, e])?
            }
            43..=45 | 81 => {
                need(3)?;
                let x = a(self, 0)?;
                let lo = a(self, 1)?;
                let hi = a(self, 2)?;
                let (mx, mn) = match n {
                    43 | 81 => (A::Fmax, A::Fmin),
                    44 => (A::Umax, A::Umin),
                    _ => (A::Imax, A::Imin),
                };
                let m = self.alu(i, mx, &[x, lo])?;
                self.alu(i, mn, &[m, hi])?
            }
            48 => {
                need(2)?;
                let edge = a(self, 0)?;
                let x = a(self, 1)?;
                let t = self.b.ty(x);
                let edge = self.match_comps(edge, t.comps);
                let lt = self.alu(i, A::Flt, &[x, edge])?;
                let z = self.fconst(t, 0.0);
                let o = self.fconst(t, 1.0);
                self.alu(i, A::Bcsel, &[lt, z, o])?
            }
            49 => {
                need(3)?;
                let e0 = a(self, 0)?;
                let e1 = a(self, 1)?;
                let x = a(self, 2)?;
                let t = self.b.ty(x);
                let e0 = self.match_comps(e0, t.comps);
                let e1 = self.match_comps(e1, t.comps);
                let num = self.alu(i, A::Fsub, &[x, e0])?;
                let den = self.alu(i, A::Fsub, &[e1, e0])?;
                let q = self.alu(i, A::Fdiv, &[num, den])?;
                let s = self.alu(i, A::Fsat, &[q])?;
                let two = self.fconst(t, 2.0);
                let three = self.fconst(t, 3.0);
                let ts = self.alu(i, A::Fmul, &[two, s])?;
                let d = self.alu(i, A::Fsub, &[three, ts])?;
                let ss = self.alu(i, A::Fmul, &[s, s])?;
                self.alu(i, A::Fmul, &[ss, d])?
            }
            66 => {
                need(1)?;
                let x = a(self, 0)?;
                self.length(i, x)?
            }
            67 => {
                need(2)?;
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                let d = self.alu(i, A::Fsub, &[x, y])?;
                self.length(i, d)?
            }
            68 => {
                need(2)?;
                let x = a(self, 0)?;
                let y = a(self, 1)?;
                if self.b.ty(x).comps != 3 {
                    return Err(i.err(ErrorKind::BadType, "cross needs 3-vectors"));
                }
                let x1 = self.b.swizzle(x, &[1, 2, 0]);
                let y2 = self.b.swizzle(y, &[2, 0, 1]);
                let x2 = self.b.swizzle(x, &[2, 0, 1]);
                let y1 = self.b.swizzle(y, &[1, 2, 0]);
                let p = self.alu(i, A::Fmul, &[x1, y2])?;
                let q = self.alu(i, A::Fmul, &[x2, y1])?;
                self.alu(i, A::Fsub, &[p, q])?
            }
            69 => {
                need(1)?;
                let x = a(self, 0)?;
                let t = self.b.ty(x);
                if t.comps == 1 {
                    self.alu(i, A::Fsign, &[x])?
                } else {
                    let d = self.alu(i, A::Fdot, &[x, x])?;
                    let r = self.alu(i, A::Frsq, &[d])?;
                    let r = self.splat(r, t.comps);
                    self.alu(i, A::Fmul, &[x, r])?
                }
            }
            70 => {
                need(3)?;
                let nn = a(self, 0)?;
                let ii = a(self, 1)?;
                let nref = a(self, 2)?;
                let d = self.dot(i, nref, ii)?;
                let z = self.fconst(self.b.ty(d), 0.0);
                let lt = self.alu(i, A::Flt, &[d, z])?;
                let neg = self.alu(i, A::Fneg, &[nn])?;
                let lt = self.match_comps(lt, self.b.ty(nn).comps);
                self.alu(i, A::Bcsel, &[lt, nn, neg])?
            }
            71 => {
                need(2)?;
                let ii = a(self, 0)?;
                let nn = a(self, 1)?;
                let t = self.b.ty(ii);
                let d = self.dot(i, nn, ii)?;
                let two = self.fconst(t.with_comps(1), 2.0);
                let d2 = self.alu(i, A::Fmul, &[d, two])?;
                let d2 = self.splat(d2, t.comps);
                let s = self.alu(i, A::Fmul, &[d2, nn])?;
                self.alu(i, A::Fsub, &[ii, s])?
            }
            72 => {
                need(3)?;
                let ii = a(self, 0)?;
                let nn = a(self, 1)?;
                let eta = a(self, 2)?;
                let t = self.b.ty(ii);
                let st = t.with_comps(1);
                let eta = if self.b.ty(eta).bits != st.bits {
                    self.conv(i, A::F2f, st.bits, eta)?
                } else {
                    eta
                };
                let d = self.dot(i, nn, ii)?;
                let one = self.fconst(st, 1.0);
                let dd = self.alu(i, A::Fmul, &[d, d])?;
                let omd = self.alu(i, A::Fsub, &[one, dd])?;
                let ee = self.alu(i, A::Fmul, &[eta, eta])?;
                let p = self.alu(i, A::Fmul, &[ee, omd])?;
                let k = self.alu(i, A::Fsub, &[one, p])?;
                let sq = self.alu(i, A::Fsqrt, &[k])?;
                let ed = self.alu(i, A::Fmul, &[eta, d])?;
                let f = self.alu(i, A::Fadd, &[ed, sq])?;
                let fv = self.splat(f, t.comps);
                let ev = self.splat(eta, t.comps);
                let a1 = self.alu(i, A::Fmul, &[ev, ii])?;
                let a2 = self.alu(i, A::Fmul, &[fv, nn])?;
                let r = self.alu(i, A::Fsub, &[a1, a2])?;
                let z = self.fconst(st, 0.0);
                let neg = self.alu(i, A::Flt, &[k, z])?;
                let zv = self.fconst(t, 0.0);
                let negv = self.splat(neg, t.comps);
                self.alu(i, A::Bcsel, &[negv, zv, r])?
            }
            73..=75 => {
                need(1)?;
                let x = a(self, 0)?;
                let op = match n {
                    73 => A::FindLsb,
                    74 => A::IfindMsb,
                    _ => A::UfindMsb,
                };
                let bits = self.b.ty(x).bits;
                self.conv(i, op, bits, x)?
            }
            76..=78 => {
                need(if n == 76 { 1 } else { 2 })?;
                let pid = i.id_op(2)?;
                let (p, _) = self.ptr(i, pid)?;
                let Val::Ptr(d) = p else {
                    return Err(i.err(ErrorKind::BadType, "interpolant must be an input variable"));
                };
                let rt = self
                    .spv
                    .val_type(i.result_ty()?)
                    .ok_or_else(|| i.err(ErrorKind::BadType, "result"))?;
                match n {
                    76 => self
                        .b
                        .intrinsic(Intrinsic::InterpDerefAtCentroid, rt, &[d], &[]),
                    77 => {
                        let s = a(self, 1)?;
                        self.b
                            .intrinsic(Intrinsic::InterpDerefAtSample, rt, &[d, s], &[])
                    }
                    _ => {
                        let o = a(self, 1)?;
                        self.b
                            .intrinsic(Intrinsic::InterpDerefAtOffset, rt, &[d, o], &[])
                    }
                }
            }
            _ => {
                return Err(i.err(
                    ErrorKind::Unsupported,
                    format!("GLSL.std.450 instruction {}", n),
                ))
            }
        };
        self.finish(i, v)
    }

    fn finish(&mut self, i: &Inst, v: Value) -> Result<(), Error> {
        let want = self.spv.val_type(i.result_ty()?);
        if want != Some(self.b.ty(v)) {
            return Err(i.err(
                ErrorKind::BadType,
                "result type does not match the operands",
            ));
        }
        self.set(i, Val::V(v))
    }

    fn store_out(&mut self, i: &Inst, k: usize, v: Value) -> Result<(), Error> {
        let id = i.id_op(k)?;
        let (p, pointee) = self.ptr(i, id)?;
        self.store_tree(i, &p, pointee, Val::V(v))
    }

    fn match_comps(&mut self, v: Value, n: u8) -> Value {
        if self.b.ty(v).comps == 1 && n > 1 {
            self.splat(v, n)
        } else {
            v
        }
    }

    fn dot(&mut self, i: &Inst, a: Value, b: Value) -> Result<Value, Error> {
        if self.b.ty(a).comps == 1 {
            self.alu(i, AluOp::Fmul, &[a, b])
        } else {
            self.alu(i, AluOp::Fdot, &[a, b])
        }
    }

    fn length(&mut self, i: &Inst, x: Value) -> Result<Value, Error> {
        if self.b.ty(x).comps == 1 {
            return self.alu(i, AluOp::Fabs, &[x]);
        }
        let d = self.alu(i, AluOp::Fdot, &[x, x])?;
        self.alu(i, AluOp::Fsqrt, &[d])
    }

    fn exp(&mut self, i: &Inst, x: Value) -> Result<Value, Error> {
        let c = self.fconst(self.b.ty(x), LOG2_E);
        let m = self.alu(i, AluOp::Fmul, &[x, c])?;
        self.alu(i, AluOp::Fexp2, &[m])
    }

    fn log(&mut self, i: &Inst, x: Value) -> Result<Value, Error> {
        let l = self.alu(i, AluOp::Flog2, &[x])?;
        let c = self.fconst(self.b.ty(x), LN_2);
        self.alu(i, AluOp::Fmul, &[l, c])
    }

    /// asin(x) = atan(x / √(1 − x²)), which is how Vulkan states its precision; |x| = 1
    /// gives ±∞ inside and ±π/2 out.
    fn asin(&mut self, i: &Inst, x: Value) -> Result<Value, Error> {
        let t = self.b.ty(x);
        let one = self.fconst(t, 1.0);
        let xx = self.alu(i, AluOp::Fmul, &[x, x])?;
        let om = self.alu(i, AluOp::Fsub, &[one, xx])?;
        let r = self.alu(i, AluOp::Frsq, &[om])?;
        let q = self.alu(i, AluOp::Fmul, &[x, r])?;
        self.atan(i, q)
    }

    /// atan(x): reduce to [0, 1] with 1/|x|, odd polynomial, undo the reduction.
    fn atan(&mut self, i: &Inst, x: Value) -> Result<Value, Error> {
        let t = self.b.ty(x);
        let ax = self.alu(i, AluOp::Fabs, &[x])?;
        let one = self.fconst(t, 1.0);
        let big = self.alu(i, AluOp::Flt, &[one, ax])?;
        let inv = self.alu(i, AluOp::Frcp, &[ax])?;
        let r = self.alu(i, AluOp::Bcsel, &[big, inv, ax])?;
        let r2 = self.alu(i, AluOp::Fmul, &[r, r])?;
        let coeffs = [
            -0.0121323213173444,
            0.0536813784310406,
            -0.1173503194786851,
            0.1938924977115610,
            -0.3326756418091246,
            0.9999793128310355,
        ];
        let mut acc = self.fconst(t, coeffs[0]);
        for &c in &coeffs[1..] {
            let cc = self.fconst(t, c);
            acc = self.alu(i, AluOp::Ffma, &[acc, r2, cc])?;
        }
        let p = self.alu(i, AluOp::Fmul, &[acc, r])?;
        let h = self.fconst(t, FRAC_PI_2);
        let q = self.alu(i, AluOp::Fsub, &[h, p])?;
        let res = self.alu(i, AluOp::Bcsel, &[big, q, p])?;
        let s = self.alu(i, AluOp::Fsign, &[x])?;
        self.alu(i, AluOp::Fmul, &[s, res])
    }

    /// atan2(y, x) = atan(y/x) moved into the quadrant of (x, y).
    fn atan2(&mut self, i: &Inst, y: Value, x: Value) -> Result<Value, Error> {
        let t = self.b.ty(x);
        let q = self.alu(i, AluOp::Fdiv, &[y, x])?;
        let a = self.atan(i, q)?;
        let z = self.fconst(t, 0.0);
        let xneg = self.alu(i, AluOp::Flt, &[x, z])?;
        let yneg = self.alu(i, AluOp::Flt, &[y, z])?;
        let pi = self.fconst(t, PI);
        let npi = self.fconst(t, -PI);
        let adj = self.alu(i, AluOp::Bcsel, &[yneg, npi, pi])?;
        let adj = self.alu(i, AluOp::Bcsel, &[xneg, adj, z])?;
        let r = self.alu(i, AluOp::Fadd, &[a, adj])?;
        // x == 0: ±π/2 by the sign of y.
        let xz = self.alu(i, AluOp::Feq, &[x, z])?;
        let h = self.fconst(t, FRAC_PI_2);
        let sy = self.alu(i, AluOp::Fsign, &[y])?;
        let hs = self.alu(i, AluOp::Fmul, &[h, sy])?;
        self.alu(i, AluOp::Bcsel, &[xz, hs, r])
    }

    /// A matrix operand as scalar entries m[col][row].
    fn matrix_arg(&mut self, i: &Inst, k: usize) -> Result<Vec<Vec<Value>>, Error> {
        let id = i.id_op(k)?;
        let Val::C(cols) = self.val(i, id)? else {
            return Err(i.err(ErrorKind::BadType, "matrix operand expected"));
        };
        let n = cols.len();
        let mut m = Vec::new();
        for c in cols {
            let Val::V(v) = c else {
                return Err(i.err(ErrorKind::BadType, "matrix operand expected"));
            };
            if self.b.ty(v).comps as usize != n {
                return Err(i.err(ErrorKind::BadType, "square matrix expected"));
            }
            m.push((0..n as u8).map(|r| self.b.channel(v, r)).collect());
        }
        if !(2..=4).contains(&n) {
            return Err(i.err(ErrorKind::BadType, "square matrix expected"));
        }
        Ok(m)
    }

    fn minor(m: &[Vec<Value>], skip_c: usize, skip_r: usize) -> Vec<Vec<Value>> {
        m.iter()
            .enumerate()
            .filter(|(c, _)| *c != skip_c)
            .map(|(_, col)| {
                col.iter()
                    .enumerate()
                    .filter(|(r, _)| *r != skip_r)
                    .map(|(_, &v)| v)
                    .collect()
            })
            .collect()
    }

    fn determinant(&mut self, i: &Inst, m: &[Vec<Value>]) -> Result<Value, Error> {
        if m.len() == 1 {
            return Ok(m[0][0]);
        }
        if m.len() == 2 {
            let a = self.alu(i, AluOp::Fmul, &[m[0][0], m[1][1]])?;
            let b = self.alu(i, AluOp::Fmul, &[m[1][0], m[0][1]])?;
            return self.alu(i, AluOp::Fsub, &[a, b]);
        }
        let mut acc: Option<Value> = None;
        for c in 0..m.len() {
            let sub = Self::minor(m, c, 0);
            let d = self.determinant(i, &sub)?;
            let t = self.alu(i, AluOp::Fmul, &[m[c][0], d])?;
            acc = Some(match acc {
                None => t,
                Some(a) if c % 2 == 1 => self.alu(i, AluOp::Fsub, &[a, t])?,
                Some(a) => self.alu(i, AluOp::Fadd, &[a, t])?,
            });
        }
        Ok(acc.expect("non-empty matrix"))
    }

    fn inverse(&mut self, i: &Inst, m: &[Vec<Value>]) -> Result<Vec<Value>, Error> {
        let n = m.len();
        let det = self.determinant(i, m)?;
        let rd = self.alu(i, AluOp::Frcp, &[det])?;
        let mut cols = Vec::new();
        for c in 0..n {
            let mut col = Vec::new();
            for r in 0..n {
                // inverse[c][r] = cofactor(r, c) / det (the adjugate is the transpose).
                let sub = Self::minor(m, r, c);
                let d = self.determinant(i, &sub)?;
                let d = if (r + c) % 2 == 1 {
                    self.alu(i, AluOp::Fneg, &[d])?
                } else {
                    d
                };
                col.push(self.alu(i, AluOp::Fmul, &[d, rd])?);
            }
            cols.push(self.vec_checked(i, &col)?);
        }
        let _ = ValType::NONE;
        Ok(cols)
    }
}
