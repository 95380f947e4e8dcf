//! The IR text form: parse → verify → print is a fixed point, and malformed text or IR
//! gets a located error.

use gcnc::ir::{self, parse_module, print_module, verify_module};

const SAMPLE: &str = r#"shader compute local_size=8,4,1
struct $0 { mat4x4<f32, row_major, stride=16> @0, [f32, 4, stride=16] @64 }
struct $1 { vec4<f32> @0, $0 @16, [$0, stride=128] @144 }
var @0 ssbo $1 set=0 binding=1 non_writable "data"
var @1 shared [u32, 64]
var @2 uniform image<2d, f32, fmt=1> set=0 binding=2

entry fn main() {
  var @3 function [f32, 4] "tmp"
  block_0:
    32x3 %0 = load_local_invocation_id
    32x1 %1 = swizzle %0.x
    32x1 %2 = const 0
    32x1 %3 = const 0x3f800000 ; 1.0
    32x1 %4 = deref_var @0 : ssbo $1
    32x1 %5 = deref_struct %4.2 : ssbo [$0, stride=128]
    32x1 %6 = deref_array %5[%1] : ssbo $0
    32x1 %7 = deref_struct %6.0 : ssbo mat4x4<f32, row_major, stride=16>
    32x1 %8 = deref_array %7[%2] : ssbo vec4<f32, stride=16>
    32x4 %9 = load_deref %8
    1x1 %10 = ult %1, %2
  if %10 {
    block_1:
      32x1 %11 = fadd %3, %3
  } else {
    block_2:
  }
  block_3:
    32x1 %12 = phi block_1: %11, block_2: %3
  loop {
    block_4:
      32x1 %13 = phi block_3: %2, block_7: %17
      1x1 %14 = uge %13, %1
    if %14 {
      block_5:
        break
    } else {
      block_6:
    }
    block_7:
      32x1 %15 = deref_var @3 : function [f32, 4]
      32x1 %16 = deref_array %15[%13] : function f32
      store_deref %16, %12 write_mask=0x1
      32x1 %17 = iadd %13, %3
  }
  block_8:
    barrier exec_scope=2 mem_scope=2 semantics=0x108
    32x1 %18 = deref_var @1 : shared [u32, 64]
    32x1 %19 = deref_array %18[%1] : shared u32
    32x1 %20 = deref_atomic %19, %2 op=umax
}
"#;

#[test]
fn sample_round_trips_exactly() {
    let m = parse_module(SAMPLE).unwrap_or_else(|e| panic!("{}", e));
    verify_module(&m).unwrap_or_else(|e| panic!("{}", e));
    let printed = print_module(&m);
    assert_eq!(printed, SAMPLE);
    let again = print_module(&parse_module(&printed).unwrap());
    assert_eq!(again, printed);
}

#[test]
fn parse_errors_carry_line_and_column() {
    let bad = SAMPLE.replace("fadd %3, %3", "fadd %3, %99");
    let e = parse_module(&bad).unwrap_err();
    assert_eq!((e.line, e.col), (24, 27), "{}", e);
    assert!(e.msg.contains("%99"), "{}", e);

    let bad = SAMPLE.replace("load_deref %8", "frobnicate %8");
    let e = parse_module(&bad).unwrap_err();
    assert_eq!((e.line, e.col), (20, 15));
    assert!(e.msg.contains("unknown operation"), "{}", e);

    let e = parse_module("shader compute\nentry fn f() {\n  block_0:\n    32x7 %0 = undef\n}\n")
        .unwrap_err();
    assert_eq!((e.line, e.col), (4, 5), "{}", e);
}

#[test]
fn verifier_names_the_instruction() {
    // Type error: fadd of 32-bit and 1-bit values.
    let bad = SAMPLE.replace("fadd %3, %3", "fadd %3, %10");
    let m = parse_module(&bad).unwrap();
    let e = verify_module(&m).unwrap_err();
    assert!(e.inst.contains("fadd"), "{}", e);
    // Dominance: use in block_2 of a value defined in block_1.
    let bad = SAMPLE.replace(
        "    block_2:\n  }",
        "    block_2:\n      32x1 %30 = fmul %11, %11\n  }",
    );
    let m = parse_module(&bad).unwrap();
    let e = verify_module(&m).unwrap_err();
    assert!(e.msg.contains("dominate"), "{}", e);
    // Phi sources must match predecessors.
    let bad = SAMPLE.replace("phi block_1: %11, block_2: %3", "phi block_1: %11");
    let m = parse_module(&bad).unwrap();
    let e = verify_module(&m).unwrap_err();
    assert!(e.msg.contains("predecessors"), "{}", e);
    // Deref result type must follow the parent's layout.
    let bad = SAMPLE.replace(
        "deref_array %7[%2] : ssbo vec4<f32, stride=16>",
        "deref_array %7[%2] : ssbo vec4<f32>",
    );
    let m = parse_module(&bad).unwrap();
    let e = verify_module(&m).unwrap_err();
    assert!(e.msg.contains("element type"), "{}", e);
}

#[test]
fn types_intern_with_layout_and_bare_twins() {
    let mut t = ir::TypeArena::new();
    let f32t = t.scalar(ir::Scalar::F32);
    let a16 = t.array(f32t, Some(4), 16);
    let a4 = t.array(f32t, Some(4), 4);
    let a16b = t.array(f32t, Some(4), 16);
    assert_eq!(a16, a16b);
    assert_ne!(a16, a4);
    assert_eq!(t.bare(a16), t.bare(a4));
    assert_eq!(t.bare(t.bare(a16)), t.bare(a16));
}

#[test]
fn every_operation_prints_and_parses_back() {
    use gcnc::ir::*;
    let mut m = Module::new(Stage::Fragment);
    m.exec_flags = ExecFlags::all();
    let f32t = m.types.scalar(Scalar::F32);
    let img = m.types.intern(TypeKind::Image(ImageType {
        dim: Dim::Cube,
        sampled_type: Scalar::sint(32),
        depth: true,
        arrayed: true,
        ms: false,
        sampled: true,
        format: 7,
    }));
    let si = m.types.intern(TypeKind::SampledImage(img));
    let p = m.types.pointer(f32t, Mode::Global);
    let mut v = Variable::new(si, Mode::Uniform);
    v.binding = Some((1, 2));
    v.flags = VarFlags::all();
    v.name = Some("a \"quoted\" name".into());
    let tex_var = m.add_global(v);
    let mut o = Variable::new(p, Mode::Output);
    o.location = Some(3);
    o.component = 1;
    o.index = 1;
    o.builtin = Some(Builtin::SampleMask);
    m.add_global(o);
    let main = m.add_function("main", vec![], ValType::NONE);
    m.entry = Some(main);
    let mut b = Builder::new(&mut m, main);
    let c = b.const_bits(
        ValType::new(32, 4),
        &[1, 0xdead_beef, u32::MAX as u64, 4097],
    );
    let s = b.const_u32(1);
    for &op in Intrinsic::ALL {
        let srcs: Vec<Value> = (0..op.num_srcs()).map(|_| s).collect();
        let idx: Vec<u32> = (0..op.indices().len() as u32).map(|k| k + 1).collect();
        b.intrinsic(op, ValType::new(32, 2), &srcs, &idx);
    }
    for &op in AluOp::ALL {
        let n = if op.num_srcs() == 0 { 3 } else { op.num_srcs() };
        let srcs: SmallVec<[Value; 3]> = (0..n).map(|_| c).collect();
        b.push(InstKind::Alu { op, srcs }, ValType::new(16, 4));
    }
    let d = b.deref_var(tex_var);
    for &op in TexOp::ALL {
        let srcs = TexSrc::ALL
            .iter()
            .map(|&t| (t, if t == TexSrc::Texture { d } else { c }))
            .collect();
        b.tex(
            Tex {
                op,
                dim: Dim::D3,
                arrayed: true,
                shadow: true,
                component: 2,
                srcs,
                sparse: false,
            },
            ValType::new(32, 4),
        );
    }
    // a sparse read: the texel and then its residency code
    b.tex(
        Tex {
            op: TexOp::Fetch,
            dim: Dim::D2,
            arrayed: false,
            shadow: false,
            component: 0,
            srcs: [(TexSrc::Texture, d), (TexSrc::Coord, c)]
                .into_iter()
                .collect(),
            sparse: true,
        },
        ValType::new(32, 5),
    );
    let big = b.const_bits(ValType::new(64, 16), &[u64::MAX; 16]);
    b.swizzle(big, &[15, 0, 8]);
    b.swizzle(c, &[3, 2, 1, 0]);
    let text = print_module(&m);
    let again = print_module(&parse_module(&text).unwrap_or_else(|e| panic!("{}\n{}", e, text)));
    assert_eq!(again, text);
}
