//! Random structured programs (locals, constant- and dynamically-indexed local arrays,
//! buffer loads/stores, nested ifs, counted loops, integer ALU) are run by the reference
//! interpreter before and after the deref-level pipeline; the buffer contents they leave
//! must match. Deterministic seeds, so a failure reproduces.

use gcnc::ir::interp::{self, Invocation};
use gcnc::ir::*;
use gcnc::passes;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

struct Gen<'a, 'm> {
    b: &'a mut Builder<'m>,
    r: Rng,
    vals: Vec<Value>,
    locals: Vec<Var>,
    arr: Var,
    vec: Var,
    helper: Func,
    buf: Var,
    budget: i32,
}

impl Gen<'_, '_> {
    fn pick(&mut self) -> Value {
        let k = self.r.below(self.vals.len() as u64) as usize;
        self.vals[k]
    }
    fn buf_elem(&mut self, idx: Value) -> Value {
        let d = self.b.deref_var(self.buf);
        let d = self.b.deref_struct(d, 0);
        let three = self.b.const_u32(15);
        let i = self.b.alu2(AluOp::Iand, idx, three);
        self.b.deref_array(d, i)
    }
    fn stmt(&mut self, depth: u32) {
        self.budget -= 1;
        match self.r.below(if depth < 3 { 14 } else { 10 }) {
            0 | 1 => {
                let ops = [
                    AluOp::Iadd,
                    AluOp::Isub,
                    AluOp::Imul,
                    AluOp::Iand,
                    AluOp::Ior,
                    AluOp::Ixor,
                    AluOp::Ishl,
                    AluOp::Ushr,
                    AluOp::Umin,
                    AluOp::Umax,
                    AluOp::Fadd,
                    AluOp::Fsub,
                    AluOp::Fmul,
                    AluOp::Fdiv,
                    AluOp::Fmin,
                ];
                let op = ops[self.r.below(ops.len() as u64) as usize];
                let (a, c) = (self.pick(), self.pick());
                let v = self.b.alu2(op, a, c);
                self.vals.push(v);
            }
            2 => {
                // Small integers, and the float constants algebraic rules look for.
                let specials = [0x3f80_0000u32, 0x8000_0000, 0xbf80_0000, 0x4000_0000];
                let c = if self.r.below(3) == 0 {
                    specials[self.r.below(4) as usize]
                } else {
                    self.r.below(64) as u32
                };
                let v = self.b.const_u32(c);
                self.vals.push(v);
            }
            3 | 4 | 8 | 9 => {
                let l = self.locals[self.r.below(self.locals.len() as u64) as usize];
                let d = self.b.deref_var(l);
                if self.r.below(2) == 0 {
                    let v = self.pick();
                    self.b.store(d, v);
                } else {
                    let v = self.b.load(d);
                    self.vals.push(v);
                }
            }
            5 => {
                // Local array: constant or masked dynamic index.
                let d = self.b.deref_var(self.arr);
                let idx = if self.r.below(2) == 0 {
                    let c = self.r.below(4) as u32;
                    self.b.const_u32(c)
                } else {
                    let v = self.pick();
                    let m = self.b.const_u32(3);
                    self.b.alu2(AluOp::Iand, v, m)
                };
                let e = self.b.deref_array(d, idx);
                if self.r.below(2) == 0 {
                    let v = self.pick();
                    self.b.store(e, v);
                } else {
                    let v = self.b.load(e);
                    self.vals.push(v);
                }
            }
            6 => {
                match self.r.below(3) {
                    0 => {
                        let i = self.pick();
                        let e = self.buf_elem(i);
                        let v = self.b.load(e);
                        self.vals.push(v);
                    }
                    1 => {
                        // A call of the helper (early returns, inlined).
                        let (a, c) = (self.pick(), self.pick());
                        let v = self.b.call(self.helper, &[a, c]);
                        self.vals.push(v);
                    }
                    _ => {
                        // A vec4 local: component stores, whole loads, swizzles.
                        let d = self.b.deref_var(self.vec);
                        let comp = self.r.below(4) as u32;
                        let ci = self.b.const_u32(comp);
                        if self.r.below(2) == 0 {
                            let e = self.b.deref_array(d, ci);
                            let v = self.pick();
                            self.b.store(e, v);
                        } else {
                            let w = self.b.load(d);
                            let v = self.b.channel(w, comp as u8);
                            self.vals.push(v);
                        }
                    }
                }
            }
            7 => {
                let i = self.pick();
                let e = self.buf_elem(i);
                let v = self.pick();
                self.b.store(e, v);
            }
            10 | 11 => {
                let (a, c) = (self.pick(), self.pick());
                let cmp =
                    [AluOp::Ult, AluOp::Uge, AluOp::Ieq, AluOp::Ine][self.r.below(4) as usize];
                let cond = self.b.alu2(cmp, a, c);
                let keep = self.vals.len();
                self.b.push_if(cond);
                self.block(depth + 1);
                self.vals.truncate(keep);
                self.b.push_else();
                self.block(depth + 1);
                self.vals.truncate(keep);
                self.b.pop_if();
            }
            _ => {
                // for (i = 0; i < N; i++) { … } with the counter in a local.
                let n = self.r.below(4) as u32;
                let u32t = self.b.module.types.scalar(Scalar::U32);
                let ctr = self.b.local(u32t, None);
                let d = self.b.deref_var(ctr);
                let z = self.b.const_u32(0);
                self.b.store(d, z);
                let keep = self.vals.len();
                self.b.push_loop();
                let d = self.b.deref_var(ctr);
                let i = self.b.load(d);
                let lim = self.b.const_u32(n);
                let done = self.b.alu2(AluOp::Uge, i, lim);
                self.b.push_if(done);
                self.b.jump(JumpKind::Break);
                self.b.push_else();
                self.b.pop_if();
                self.vals.push(i);
                self.block(depth + 1);
                let d = self.b.deref_var(ctr);
                let i = self.b.load(d);
                let one = self.b.const_u32(1);
                let next = self.b.alu2(AluOp::Iadd, i, one);
                self.b.store(d, next);
                self.b.pop_loop();
                self.vals.truncate(keep);
            }
        }
    }
    fn block(&mut self, depth: u32) {
        let n = 1 + self.r.below(5);
        for _ in 0..n {
            if self.budget <= 0 {
                return;
            }
            self.stmt(depth);
        }
    }
}

fn program(seed: u64) -> Module {
    let mut m = Module::new(Stage::Compute);
    m.local_size = [8, 1, 1];
    let u32t = m.types.scalar(Scalar::U32);
    let arr = m.types.array(u32t, Some(16), 4);
    let st = m.types.structure(vec![Member {
        ty: arr,
        offset: Some(0),
    }]);
    let mut v = Variable::new(st, Mode::Ssbo);
    v.binding = Some((0, 0));
    let buf = m.add_global(v);
    let helper = m.add_function("helper", vec![ValType::U32, ValType::U32], ValType::U32);
    {
        // helper(a, b): if (a < b) return a * 3; for-ish early exit; return a ^ b.
        let mut hb = Builder::new(&mut m, helper);
        let a = hb.intrinsic(Intrinsic::LoadParam, ValType::U32, &[], &[0]);
        let c = hb.intrinsic(Intrinsic::LoadParam, ValType::U32, &[], &[1]);
        let lt = hb.alu2(AluOp::Ult, a, c);
        hb.push_if(lt);
        let three = hb.const_u32(3);
        let r = hb.alu2(AluOp::Imul, a, three);
        hb.ret(Some(r));
        hb.push_else();
        hb.pop_if();
        hb.push_loop();
        let e = hb.alu2(AluOp::Ieq, a, c);
        hb.push_if(e);
        let one = hb.const_u32(1);
        hb.ret(Some(one));
        hb.push_else();
        hb.pop_if();
        hb.jump(JumpKind::Break);
        hb.pop_loop();
        let x = hb.alu2(AluOp::Ixor, a, c);
        hb.ret(Some(x));
    }
    let main = m.add_function("main", vec![], ValType::NONE);
    m.entry = Some(main);
    let larr_ty = m.types.array(u32t, Some(4), 0);
    let vec4 = m.types.vector(Scalar::U32, 4);
    let mut b = Builder::new(&mut m, main);
    let lvec = b.local(vec4, None);
    {
        let d = b.deref_var(lvec);
        let z4 = b.const_int(ValType::new(32, 4), 0);
        b.store(d, z4);
    }
    let locals: Vec<Var> = (0..2).map(|_| b.local(u32t, None)).collect();
    let larr = b.local(larr_ty, None);
    // Locals start defined (reads before writes would be undef and may legally differ).
    let z = b.const_u32(0);
    for &l in &locals {
        let d = b.deref_var(l);
        b.store(d, z);
    }
    for k in 0..4 {
        let d = b.deref_var(larr);
        let i = b.const_u32(k);
        let e = b.deref_array(d, i);
        b.store(e, z);
    }
    let id = b.intrinsic(
        Intrinsic::LoadLocalInvocationId,
        ValType::new(32, 3),
        &[],
        &[],
    );
    let x = b.channel(id, 0);
    let seven = b.const_u32(7);
    let mut g = Gen {
        b: &mut b,
        r: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
        vals: vec![x, seven],
        locals,
        arr: larr,
        vec: lvec,
        helper,
        buf,
        budget: 60,
    };
    g.block(0);
    // Make the final values observable.
    for k in 0..3 {
        let v = g.pick();
        let i = g.b.const_u32(k);
        let e = g.buf_elem(i);
        g.b.store(e, v);
    }
    m
}

#[test]
fn random_programs_keep_their_meaning() {
    use passes::*;
    let opt: [Pass; 5] = [
        ("copy_prop", copy_prop::run),
        ("fold_constants", fold_constants::run),
        ("simplify_algebraic", simplify_algebraic::run),
        ("cse", cse::run),
        ("dce", dce::run),
    ];
    let mut seq: Vec<Pass> = vec![("inline", inline::run), ("mem2reg", mem2reg::run)];
    seq.extend(opt);
    seq.push(("unroll_loops", unroll_loops::run));
    seq.extend(opt);
    seq.push(("mem2reg", mem2reg::run));
    seq.extend(opt);
    seq.push(("if_to_select", if_to_select::run));
    seq.extend(opt);
    let invs: Vec<Invocation> = (0..3)
        .map(|k| Invocation {
            local_id: [k * 3, 0, 0],
            workgroup_id: [0, 0, 0],
        })
        .collect();
    let mut failures = Vec::new();
    let mut ran = 0;
    for seed in 1..=300u64 {
        let mut m = program(seed);
        verify_module(&m).unwrap_or_else(|e| panic!("seed {}: generator: {}", seed, e));
        let reference: Vec<_> = invs.iter().map(|&i| interp::run(&m, i)).collect();
        if reference.iter().any(|r| r.is_err()) {
            continue;
        }
        ran += 1;
        let original = print_module(&m);
        // The whole pipeline (explicit addressing, access shaping) keeps the buffer bytes.
        let mut lowered = m.clone();
        match passes::run_pipeline(&mut lowered) {
            Err(e) => failures.push(format!("seed {}: {}\n{}", seed, e, original)),
            Ok(()) => {
                let now: Vec<_> = invs.iter().map(|&i| interp::run(&lowered, i)).collect();
                let same = now.iter().zip(&reference).all(|(a, b)| match (a, b) {
                    (Ok(a), Ok(b)) => a.buffers == b.buffers,
                    _ => false,
                });
                if !same {
                    failures.push(format!(
                        "seed {}: buffer bytes changed by the pipeline\n--- before\n{}\n--- after\n{}",
                        seed,
                        original,
                        print_module(&lowered)
                    ));
                }
            }
        }
        for p in &seq {
            if let Err(e) = run_pass(&mut m, *p) {
                failures.push(format!("seed {}: {}\n{}", seed, e, original));
                break;
            }
            let now: Vec<_> = invs.iter().map(|&i| interp::run(&m, i)).collect();
            if now != reference {
                failures.push(format!(
                    "seed {}: behaviour changed by {}\n--- before\n{}\n--- after\n{}",
                    seed,
                    p.0,
                    original,
                    print_module(&m)
                ));
                break;
            }
        }
        if failures.len() > 2 {
            break;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(ran >= 250, "only {} programs were interpretable", ran);
}
