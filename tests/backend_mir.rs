//! Machine IR printer and verifier, and register allocation, as specifications.

mod backend_support;

use gcnc::amdgpu::mir::{
    print::print_program, verify::verify, Arg, MInst, Program, Pseudo, RegClass,
};
use gcnc::amdgpu::regalloc::{allocate, Budget};
use gcnc::isa::{Format, Gen, Opcode, PhysReg, Reg, Target};

fn op(n: &str) -> Opcode {
    Opcode::from_name(n).unwrap()
}

/// s_load of a pointer pair into a 4-dword tuple, an add of two of its dwords into a
/// VGPR, end.
fn small(t: Target) -> Program {
    let mut p = Program::new(t);
    let b = p.new_block(0);
    let ptr = p.new_temp(RegClass::S2);
    let q = p.new_temp(RegClass::S4);
    let parts: Vec<_> = (0..4).map(|_| p.new_temp(RegClass::S1)).collect();
    let v = p.new_temp(RegClass::V1);
    p.precolored.insert(ptr, PhysReg::sgpr(0));
    let ins = &mut p.blocks[b.0 as usize].insts;
    ins.push(MInst::pseudo(Pseudo::StartPgm, &[Arg::Temp(ptr)], &[]));
    ins.push(MInst::hw(
        op("s_load_dwordx4"),
        Format::Smem,
        &[Arg::Temp(q)],
        &[Arg::Temp(ptr), Arg::Imm(16)],
    ));
    let d: Vec<Arg> = parts.iter().map(|t| Arg::Temp(*t)).collect();
    ins.push(MInst::pseudo(Pseudo::SplitVector, &d, &[Arg::Temp(q)]));
    ins.push(MInst::hw(
        op("v_add_f32"),
        Format::Vop3,
        &[Arg::Temp(v)],
        &[Arg::Temp(parts[1]), Arg::Temp(parts[3])],
    ));
    ins.push(MInst::hw(op("s_endpgm"), Format::Sopp, &[], &[Arg::Imm(0)]));
    p
}

#[test]
fn printer_text() {
    let p = small(Target::new(Gen::Gfx10));
    assert_eq!(
        print_program(&p),
        "program gfx1030 wave32\n  precolored %0:s2 = s[0:1]\nBB0: ; loop_depth 0, logical preds [] succs [], linear preds [] succs []\n  %0:s2 = p_startpgm\n  %1:s4 = s_load_dwordx4 %0:s2, imm:0x10\n  %2:s1, %3:s1, %4:s1, %5:s1 = p_split_vector %1:s4\n  %6:v1 = v_add_f32_e64 %3:s1, %5:s1\n  s_endpgm imm:0x0\n"
    );
}

#[test]
fn verifier_rejects_broken_programs() {
    let t = Target::new(Gen::Gfx10);
    assert!(verify(&small(t), false).is_ok());
    // wrong tuple size for the field
    let mut p = small(t);
    let bad = p.new_temp(RegClass::S2);
    p.blocks[0].insts[1].defs[0] = Arg::Temp(bad);
    let e = verify(&p, false).unwrap_err().to_string();
    assert!(e.contains("2 dwords"), "{e}");
    // a VGPR where the table allows only SGPRs
    let mut p = small(t);
    let v = p.new_temp(RegClass::V2);
    p.blocks[0].insts[1].ops[0] = Arg::Temp(v);
    assert!(verify(&p, false).is_err());
    // two definitions of an SSA temp
    let mut p = small(t);
    let i = p.blocks[0].insts[3].clone();
    p.blocks[0].insts.insert(3, i);
    assert!(verify(&p, false)
        .unwrap_err()
        .to_string()
        .contains("defined 2 times"));
    // a use without a definition
    let mut p = small(t);
    let u = p.new_temp(RegClass::V1);
    p.blocks[0].insts[3].ops[0] = Arg::Temp(u);
    assert!(verify(&p, false)
        .unwrap_err()
        .to_string()
        .contains("never defined"));
    // a temp after allocation
    assert!(verify(&small(t), true).is_err());
    // an edge missing on one side
    let mut p = small(t);
    let b1 = p.new_block(0);
    p.blocks[0].linear_succs.push(b1);
    assert!(verify(&p, false)
        .unwrap_err()
        .to_string()
        .contains("missing from its preds"));
}

fn reg(a: &Arg) -> Reg {
    match a {
        Arg::Reg(r) => *r,
        o => panic!("{o:?}"),
    }
}

#[test]
fn allocation_respects_tuples_and_early_clobber() {
    let mut p = small(Target::new(Gen::Gfx9));
    allocate(&mut p, Budget::full(Gen::Gfx9)).unwrap();
    verify(&p, true).unwrap();
    let q = reg(&p.blocks[0].insts[1].defs[0]);
    // 4-dword SGPR tuples are 4-aligned and never overlap the address they load from
    assert_eq!(q.base.0 % 4, 0);
    assert!(q.base.0 >= 2, "early clobber: {q:?}");
    // the pointer stays where the hardware put it
    assert_eq!(reg(&p.blocks[0].insts[1].ops[0]), Reg::s(0, 2));
}

#[test]
fn phi_webs_and_pressure() {
    // %w is defined in two blocks (a phi web) and must keep one register across both
    let t = Target::new(Gen::Gfx11);
    let mut p = Program::new(t);
    let b0 = p.new_block(0);
    let b1 = p.new_block(0);
    let b2 = p.new_block(0);
    p.add_edge(b0, b1, true);
    p.add_edge(b0, b2, true);
    p.add_edge(b1, b2, true);
    let w = p.new_temp(RegClass::V1);
    let x = p.new_temp(RegClass::V1);
    p.multi_def.insert(w);
    let mov = |d, s| MInst::hw(op("v_mov_b32"), Format::Vop1, &[Arg::Temp(d)], &[s]);
    p.blocks[0].insts.push(mov(w, Arg::Const(1)));
    p.blocks[0].insts.push(mov(x, Arg::Const(5)));
    p.blocks[1].insts.push(MInst::pseudo(
        Pseudo::ParallelCopy,
        &[Arg::Temp(w)],
        &[Arg::Temp(x)],
    ));
    let y = p.new_temp(RegClass::V1);
    p.blocks[2].insts.push(mov(y, Arg::Temp(w)));
    verify(&p, false).unwrap();
    let mut q = p.clone();
    let u = allocate(&mut q, Budget::full(Gen::Gfx11)).unwrap();
    let w0 = reg(&q.blocks[0].insts[0].defs[0]);
    let w1 = reg(&q.blocks[1].insts[0].defs[0]);
    let x0 = reg(&q.blocks[0].insts[1].defs[0]);
    assert_eq!(w0, w1);
    assert_ne!(w0, x0, "x is live while w is");
    assert_eq!(u.vgprs, 2);
    // with one VGPR the two live values do not fit: the web is spilled (each definition
    // stores, the copy into it stores its source, its use reloads) and one VGPR holds
    // whatever is live at each point
    let mut q = p.clone();
    let u = allocate(
        &mut q,
        Budget {
            sgprs: 106,
            vgprs: 1,
        },
    )
    .unwrap();
    verify(&q, true).unwrap();
    assert_eq!((u.vgprs, u.spilled_vgprs), (1, 1), "{u:?}");
}

/// Registers of an allocated program's instruction `k` in block 0: (defs, ops).
fn regs_of(p: &Program, k: usize) -> (Vec<Reg>, Vec<Reg>) {
    let i = &p.blocks[0].insts[k];
    (
        i.defs.iter().map(reg).collect(),
        i.ops.iter().map(reg).collect(),
    )
}

/// `%a`, `%b` = constants; `%v:v2 = p_create_vector %a, %b`; `%lo, %hi = p_split_vector
/// %v`; `%c = p_parallelcopy %lo`; `%s = v_add_f64 %v, %v` (the whole still live after
/// the split); `%u = v_add_u32 %c, %hi`; `%y`, defined between `%a` and `%b`, is read
/// last.
fn tuple_program() -> Program {
    let mut p = Program::new(Target::new(Gen::Gfx10));
    p.new_block(0);
    let [a, b, lo, hi, c, u, y, z] = [(); 8].map(|_| p.new_temp(RegClass::V1));
    let v = p.new_temp(RegClass::V2);
    let s = p.new_temp(RegClass::V2);
    let t = Arg::Temp;
    let mov = |d, c| MInst::hw(op("v_mov_b32"), Format::Vop1, &[t(d)], &[Arg::Const(c)]);
    let ins = &mut p.blocks[0].insts;
    ins.push(mov(a, 1));
    // a value defined between the pieces and live past the vector: it must not take
    // the vector's window
    ins.push(mov(y, 3));
    ins.push(mov(b, 2));
    ins.push(MInst::pseudo(Pseudo::CreateVector, &[t(v)], &[t(a), t(b)]));
    ins.push(MInst::pseudo(Pseudo::SplitVector, &[t(lo), t(hi)], &[t(v)]));
    ins.push(MInst::pseudo(Pseudo::ParallelCopy, &[t(c)], &[t(lo)]));
    ins.push(MInst::hw(
        op("v_add_f64"),
        Format::Vop3,
        &[t(s)],
        &[t(v), t(v)],
    ));
    ins.push(MInst::hw(
        op("v_add_nc_u32"),
        Format::Vop2,
        &[t(u)],
        &[t(c), t(hi)],
    ));
    ins.push(MInst::hw(
        op("v_add_nc_u32"),
        Format::Vop2,
        &[t(z)],
        &[t(u), t(y)],
    ));
    ins.push(MInst::hw(op("s_endpgm"), Format::Sopp, &[], &[Arg::Imm(0)]));
    p
}

#[test]
fn affinities_place_values_where_their_copies_go() {
    let mut p = tuple_program();
    verify(&p, false).unwrap();
    allocate(&mut p, Budget::full(Gen::Gfx10)).unwrap();
    verify(&p, true).unwrap();
    // the pieces are computed in the pair the vector needs: the create is no copy
    let (v, pieces) = regs_of(&p, 3);
    assert_eq!(
        pieces,
        vec![Reg::v(v[0].base.0 - 256, 1), Reg::v(v[0].base.0 - 255, 1)]
    );
    // a split of a tuple that stays live reads the tuple's own registers, and so does
    // a copy of a piece: neither is a move
    let (parts, whole) = regs_of(&p, 4);
    assert_eq!(parts, pieces);
    assert_eq!(whole, v);
    let (c, lo) = regs_of(&p, 5);
    assert_eq!(c, lo);
}
