//! The builder builds what a SPIR-V translator needs, and the result verifies and prints.

use gcnc::ir::*;

#[test]
fn builder_builds_structured_code_with_dead_code_after_jumps() {
    let mut m = Module::new(Stage::Compute);
    m.local_size = [64, 1, 1];
    let f32t = m.types.scalar(Scalar::F32);
    let arr = m.types.array(f32t, None, 4);
    let blk = m.types.structure(vec![Member {
        ty: arr,
        offset: Some(0),
    }]);
    let mut v = Variable::new(blk, Mode::Ssbo);
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
    let d = b.deref_var(buf);
    let d = b.deref_struct(d, 0);
    let d = b.deref_array(d, x);
    let val = b.load(d);
    let zero = b.const_f32(0.0);
    let neg = b.alu2(AluOp::Flt, val, zero);
    b.push_if(neg);
    b.ret(None);
    // Dead code after the return is swallowed, including nested control flow.
    let junk = b.const_u32(7);
    b.push_if(neg);
    let _ = b.alu2(AluOp::Iadd, junk, junk);
    b.pop_if();
    b.push_else();
    let two = b.const_f32(2.0);
    let doubled = b.alu2(AluOp::Fmul, val, two);
    b.pop_if();
    let merge = b.current_block();
    let _ = merge;
    let out = b.alu1(AluOp::Fabs, val);
    // A loop counting to 4 with a header phi.
    let z = b.const_u32(0);
    let pre = b.current_block();
    let header = b.push_loop();
    let i = b.phi(ValType::U32);
    let four = b.const_u32(4);
    let done = b.alu2(AluOp::Uge, i, four);
    b.push_if(done);
    b.jump(JumpKind::Break);
    b.pop_if();
    let one = b.const_u32(1);
    let next = b.alu2(AluOp::Iadd, i, one);
    let latch = b.current_block();
    b.pop_loop();
    b.add_phi_src(i, pre, z);
    b.add_phi_src(i, latch, next);
    let _ = header;
    b.store(d, out);
    let _ = doubled;

    verify_module(&m).unwrap_or_else(|e| panic!("{}\n{}", e, print_module(&m)));
    let text = print_module(&m);
    let expected = r#"shader compute local_size=64,1,1
struct $0 { [f32, stride=4] @0 }
var @0 ssbo $0 set=0 binding=0

entry fn main() {
  block_0:
    32x3 %0 = load_global_invocation_id
    32x1 %1 = swizzle %0.x
    32x1 %2 = deref_var @0 : ssbo $0
    32x1 %3 = deref_struct %2.0 : ssbo [f32, stride=4]
    32x1 %4 = deref_array %3[%1] : ssbo f32
    32x1 %5 = load_deref %4
    32x1 %6 = const 0
    1x1 %7 = flt %5, %6
  if %7 {
    block_1:
      return
  } else {
    block_2:
      32x1 %8 = const 0x40000000 ; 2.0
      32x1 %9 = fmul %5, %8
  }
  block_3:
    32x1 %10 = fabs %5
    32x1 %11 = const 0
  loop {
    block_4:
      32x1 %12 = phi block_3: %11, block_7: %16
      32x1 %13 = const 4
      1x1 %14 = uge %12, %13
    if %14 {
      block_5:
        break
    } else {
      block_6:
    }
    block_7:
      32x1 %15 = const 1
      32x1 %16 = iadd %12, %15
  }
  block_8:
    store_deref %4, %10 write_mask=0x1
}
"#;
    assert_eq!(text, expected, "{}", text);
    let e = verify_module(&parse_module(&text).unwrap());
    assert!(e.is_ok());
}

#[test]
fn verifier_rejects_a_phi_source_defined_after_the_loop() {
    let text = "shader compute local_size=1,1,1

entry fn main() {
  block_0:
  loop {
    block_1:
      32x1 %0 = phi block_0: %3, block_1: %0
  }
  block_2:
    32x1 %3 = const 0
}
";
    let m = parse_module(text).unwrap();
    let e = verify_module(&m).unwrap_err();
    assert!(e.msg.contains("dominate"), "{}", e);
}
