//! Times the middle end on a synthetic large shader (N loads/adds in a loop nest).
use gcnc::ir::*;
use std::time::Instant;

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5000);
    let mut m = Module::new(Stage::Compute);
    let f32t = m.types.scalar(Scalar::F32);
    let arr = m.types.array(f32t, None, 4);
    let st = m.types.structure(vec![Member {
        ty: arr,
        offset: Some(0),
    }]);
    let mut v = Variable::new(st, Mode::Ssbo);
    v.binding = Some((0, 0));
    let buf = m.add_global(v);
    let main = m.add_function("main", vec![], ValType::NONE);
    m.entry = Some(main);
    let mut b = Builder::new(&mut m, main);
    let id = b.intrinsic(
        Intrinsic::LoadGlobalInvocationId,
        ValType::new(32, 3),
        &[],
        &[],
    );
    let x = b.channel(id, 0);
    let mut acc = b.const_f32(0.0);
    for k in 0..n {
        let d = b.deref_var(buf);
        let d = b.deref_struct(d, 0);
        let c = b.const_u32(k % 64);
        let idx = b.alu2(AluOp::Iadd, x, c);
        let d = b.deref_array(d, idx);
        let l = b.load(d);
        acc = b.alu2(AluOp::Fadd, acc, l);
        if k % 100 == 99 {
            let z = b.const_f32(0.0);
            let cond = b.alu2(AluOp::Flt, acc, z);
            b.push_if(cond);
            b.store(d, acc);
            b.push_else();
            b.pop_if();
        }
    }
    let d = b.deref_var(buf);
    let d = b.deref_struct(d, 0);
    let d = b.deref_array(d, x);
    b.store(d, acc);
    let count = m.functions[main].insts.len();
    let t = Instant::now();
    gcnc::passes::run_pipeline(&mut m).unwrap();
    let dt = t.elapsed();
    let after = m.functions[m.entry.unwrap()].insts_in_order().len();
    println!("{} insts in, {} out, pipeline {:?}", count, after, dt);
}
