//! The machine-IR clean-up passes as specifications: a small program in, the program the
//! pass leaves out, as `mir::print` text (`passes::optimize_selected` on machine SSA:
//! copy folding, SCC reuse, source-modifier folding, dead-code elimination;
//! `thread_branches`, `drop_short_exec_branches` and `simplify_exec_writes` after
//! allocation).

use gcnc::amdgpu::mir::{
    print::print_program, verify::verify, Arg, BlockId, MInst, Op, Program, Pseudo, RegClass, Temp,
};
use gcnc::amdgpu::passes::{
    cluster_scalar_loads, coalesce_phi_copies, drop_short_exec_branches, eliminate_dead_code,
    hoist_loop_invariants, merge_buffer_stores, number_values, optimize_selected,
    simplify_exec_writes, thread_branches,
};
use gcnc::isa::{Format, Gen, Opcode, PhysReg, Reg, Target};

fn target() -> Target {
    Target::new(Gen::Gfx11)
}

/// A one-block program that starts with `%0:s2 = p_startpgm` (precoloured to s[0:1]) and
/// `%1:s1 = s_load_b32 %0, 0`; `body` appends the rest.
fn program(body: impl FnOnce(&mut Program, Temp, Temp)) -> Program {
    let mut p = Program::new(target());
    let b = p.new_block(0);
    let ptr = p.new_temp(RegClass::S2);
    let x = p.new_temp(RegClass::S1);
    p.precolored.insert(ptr, PhysReg::sgpr(0));
    let ins = &mut p.block_mut(b).insts;
    ins.push(MInst::pseudo(Pseudo::StartPgm, &[Arg::Temp(ptr)], &[]));
    ins.push(MInst::hw(
        Opcode::SLoadB32,
        Format::Smem,
        &[Arg::Temp(x)],
        &[Arg::Temp(ptr), Arg::Imm(0)],
    ));
    body(&mut p, ptr, x);
    verify(&p, false).unwrap();
    p
}

fn push(p: &mut Program, b: u32, op: Opcode, fmt: Format, defs: &[Arg], ops: &[Arg]) {
    p.block_mut(BlockId(b))
        .insts
        .push(MInst::hw(op, fmt, defs, ops));
}

/// The instruction lines of the printed program (no header, precolouring or block lines).
fn insts(p: &Program) -> String {
    print_program(p)
        .lines()
        .filter(|l| l.starts_with("  ") && !l.trim_start().starts_with("precolored"))
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn identities_and_moves_are_folded_and_their_dead_results_removed() {
    let mut p = program(|p, _, x| {
        let [a, b, c, d] = [RegClass::S1, RegClass::S1, RegClass::V1, RegClass::V1]
            .map(|rc| Arg::Temp(p.new_temp(rc)));
        let x = Arg::Temp(x);
        // a = x * 1; b = a + 0; c = v_mov b (a real move: SGPR → VGPR); d = 0 + c
        push(
            p,
            0,
            Opcode::SMulI32,
            Format::Sop2,
            &[a],
            &[x, Arg::Const(1)],
        );
        push(
            p,
            0,
            Opcode::SAddU32,
            Format::Sop2,
            &[b],
            &[a, Arg::Const(0)],
        );
        push(p, 0, Opcode::VMovB32, Format::Vop1, &[c], &[b]);
        push(
            p,
            0,
            Opcode::VAddNcU32,
            Format::Vop2,
            &[d],
            &[Arg::Const(0), c],
        );
        push(
            p,
            0,
            Opcode::VMovB32,
            Format::Vop1,
            &[Arg::Reg(Reg::v(1, 1))],
            &[d],
        );
    });
    optimize_selected(&mut p);
    verify(&p, false).unwrap();
    assert_eq!(
        insts(&p),
        "%0:s2 = p_startpgm
%1:s1 = s_load_b32 %0:s2, imm:0x0
%4:v1 = v_mov_b32 %1:s1
v1 = v_mov_b32 %4:v1"
    );
}

#[test]
fn an_scc_writer_whose_carry_is_read_stays() {
    let mut p = program(|p, _, x| {
        let [lo, hi] = [0, 1].map(|_| Arg::Temp(p.new_temp(RegClass::S1)));
        let x = Arg::Temp(x);
        // lo = x + 0 is a copy of x, but s_addc_u32 reads its carry
        push(
            p,
            0,
            Opcode::SAddU32,
            Format::Sop2,
            &[lo],
            &[x, Arg::Const(0)],
        );
        push(
            p,
            0,
            Opcode::SAddcU32,
            Format::Sop2,
            &[hi],
            &[x, Arg::Const(0)],
        );
        push(
            p,
            0,
            Opcode::SMovB32,
            Format::Sop1,
            &[Arg::Reg(Reg::s(8, 1))],
            &[hi],
        );
        push(
            p,
            0,
            Opcode::SMovB32,
            Format::Sop1,
            &[Arg::Reg(Reg::s(9, 1))],
            &[lo],
        );
    });
    optimize_selected(&mut p);
    assert_eq!(
        insts(&p),
        "%0:s2 = p_startpgm
%1:s1 = s_load_b32 %0:s2, imm:0x0
%2:s1 = s_add_u32 %1:s1, 0
%3:s1 = s_addc_u32 %1:s1, 0
s8 = s_mov_b32 %3:s1
s9 = s_mov_b32 %1:s1"
    );
}

#[test]
fn dead_values_go_memory_accesses_stay() {
    let mut p = program(|p, ptr, x| {
        let [v, w] = [0, 1].map(|_| Arg::Temp(p.new_temp(RegClass::V1)));
        let q = Arg::Temp(p.new_temp(RegClass::S4));
        let l = Arg::Temp(p.new_temp(RegClass::V1));
        let x = Arg::Temp(x);
        // v and w feed nothing; the buffer load's result is unused but the load stays
        push(p, 0, Opcode::VMovB32, Format::Vop1, &[v], &[x]);
        push(p, 0, Opcode::VXorB32, Format::Vop2, &[w], &[x, v]);
        push(
            p,
            0,
            Opcode::SLoadB128,
            Format::Smem,
            &[q],
            &[Arg::Temp(ptr), Arg::Imm(16)],
        );
        let mut load = MInst::hw(
            Opcode::BufferLoadB32,
            Format::Mubuf,
            &[l],
            &[Arg::Off, q, Arg::Const(0)],
        );
        load.mods.offset = 4;
        p.block_mut(BlockId(0)).insts.push(load);
    });
    // v, w, then x, which only they read
    assert_eq!(eliminate_dead_code(&mut p), 3);
    let text = insts(&p);
    assert!(
        !text.contains("v_mov") && !text.contains("v_xor") && !text.contains("s_load_b32"),
        "{text}"
    );
    assert!(
        text.contains("s_load_b128") && text.contains("buffer_load_b32"),
        "{text}"
    );
}

/// `s_cmp_lt_u32 x, 5` sets SCC; the bool made from it and tested again before a branch
/// is read from SCC directly.
fn branch_on_bool(test: Opcode) -> Program {
    program(|p, _, x| {
        let c = Arg::Temp(p.new_temp(RegClass::S1));
        let then_b = p.new_block(0);
        let else_b = p.new_block(0);
        p.add_edge(BlockId(0), then_b, true);
        p.add_edge(BlockId(0), else_b, true);
        push(
            p,
            0,
            Opcode::SCmpLtU32,
            Format::Sopc,
            &[],
            &[Arg::Temp(x), Arg::Const(5)],
        );
        push(
            p,
            0,
            Opcode::SCselectB32,
            Format::Sop2,
            &[c],
            &[Arg::Const(1), Arg::Const(0)],
        );
        push(p, 0, test, Format::Sopc, &[], &[c, Arg::Const(0)]);
        push(
            p,
            0,
            Opcode::SCbranchScc0,
            Format::Sopp,
            &[],
            &[Arg::Label(else_b)],
        );
        push(p, 2, Opcode::SEndpgm, Format::Sopp, &[], &[Arg::Imm(0)]);
    })
}

#[test]
fn a_bool_scc_already_holds_is_not_compared_again() {
    let mut p = branch_on_bool(Opcode::SCmpLgU32);
    optimize_selected(&mut p);
    verify(&p, false).unwrap();
    assert_eq!(
        insts(&p),
        "%0:s2 = p_startpgm
%1:s1 = s_load_b32 %0:s2, imm:0x0
s_cmp_lt_u32 %1:s1, 5
s_cbranch_scc0 BB2
s_endpgm imm:0x0"
    );
    // `c == 0` before the branch: the branch is inverted instead
    let mut p = branch_on_bool(Opcode::SCmpEqU32);
    optimize_selected(&mut p);
    assert!(
        insts(&p).contains("s_cmp_lt_u32 %1:s1, 5\ns_cbranch_scc1 BB2"),
        "{}",
        insts(&p)
    );
    // another SCC writer in between: the compare stays
    let mut p = branch_on_bool(Opcode::SCmpLgU32);
    let b = &mut p.block_mut(BlockId(0)).insts;
    let t = Arg::Reg(Reg::s(9, 1));
    b.insert(
        4,
        MInst::hw(Opcode::SAddU32, Format::Sop2, &[t], &[t, Arg::Const(1)]),
    );
    optimize_selected(&mut p);
    assert!(
        insts(&p).contains("s_cmp_lg_u32 %2:s1, 0\ns_cbranch_scc0 BB2"),
        "{}",
        insts(&p)
    );
    // any instruction in between (allocation may put copies there): the compare stays
    let mut p = branch_on_bool(Opcode::SCmpLgU32);
    let b = &mut p.block_mut(BlockId(0)).insts;
    let v = Arg::Reg(Reg::v(3, 1));
    b.insert(
        4,
        MInst::hw(Opcode::VMovB32, Format::Vop1, &[v], &[Arg::Const(7)]),
    );
    optimize_selected(&mut p);
    assert!(
        insts(&p).contains("s_cmp_lg_u32 %2:s1, 0\ns_cbranch_scc0 BB2"),
        "{}",
        insts(&p)
    );
}

/// After allocation:
/// ```text
/// BB0: s_cmp_eq_u32 s0, 0 ; s_cbranch_scc1 BB1 ; s_branch BB3
/// BB1: (empty)
/// BB2: v_mov_b32 v0, 1 ; s_branch BB5
/// BB3: s_branch BB5
/// BB4: v_mov_b32 v1, 2          (nothing reaches it)
/// BB5: s_endpgm
/// ```
#[test]
fn branches_to_the_next_instruction_or_over_a_branch_go() {
    let mut p = Program::new(target());
    for _ in 0..6 {
        p.new_block(0);
    }
    let l = |b: u32| Arg::Label(BlockId(b));
    let s0 = Arg::Reg(Reg::s(0, 1));
    push(
        &mut p,
        0,
        Opcode::SCmpEqU32,
        Format::Sopc,
        &[],
        &[s0, Arg::Const(0)],
    );
    push(&mut p, 0, Opcode::SCbranchScc1, Format::Sopp, &[], &[l(1)]);
    push(&mut p, 0, Opcode::SBranch, Format::Sopp, &[], &[l(3)]);
    let v = |n| Arg::Reg(Reg::v(n, 1));
    push(
        &mut p,
        2,
        Opcode::VMovB32,
        Format::Vop1,
        &[v(0)],
        &[Arg::Const(1)],
    );
    push(&mut p, 2, Opcode::SBranch, Format::Sopp, &[], &[l(5)]);
    push(&mut p, 3, Opcode::SBranch, Format::Sopp, &[], &[l(5)]);
    push(
        &mut p,
        4,
        Opcode::VMovB32,
        Format::Vop1,
        &[v(1)],
        &[Arg::Const(2)],
    );
    push(
        &mut p,
        5,
        Opcode::SEndpgm,
        Format::Sopp,
        &[],
        &[Arg::Imm(0)],
    );
    for (a, b) in [(0, 1), (0, 3), (1, 2), (2, 5), (3, 5), (4, 5)] {
        p.add_edge(BlockId(a), BlockId(b), false);
    }
    assert_eq!(thread_branches(&mut p), 3);
    verify(&p, true).unwrap();
    assert_eq!(
        insts(&p),
        "s_cmp_eq_u32 s0, 0
s_cbranch_scc0 BB5
v0 = v_mov_b32 1
s_endpgm imm:0x0"
    );
    // the linear CFG follows the code: BB0 jumps to BB5 or falls through the (now empty)
    // BB1..BB4 to it; BB4's v_mov is gone (nothing reached it)
    let succs: Vec<Vec<u32>> = p
        .blocks
        .iter()
        .map(|b| b.linear_succs.iter().map(|s| s.0).collect())
        .collect();
    assert_eq!(
        succs,
        [vec![1, 5], vec![2], vec![3], vec![4], vec![5], vec![]]
    );
}

/// The arm of a uniform `if` that only leaves the loop: a conditional branch over a block
/// holding nothing but `s_branch EXIT`, whose other side is the very next block, becomes
/// one inverted conditional branch to `EXIT`.
/// ```text
/// BB0: s_cmp_eq_u32 s0, 0 ; s_cbranch_scc0 BB2
/// BB1: s_branch BB3                  (reached from BB0 only)
/// BB2: v_mov_b32 v0, 1
/// BB3: s_endpgm
/// ```
#[test]
fn a_conditional_branch_over_a_lone_exit_branch_is_inverted() {
    let mut p = Program::new(target());
    for _ in 0..4 {
        p.new_block(0);
    }
    let l = |b: u32| Arg::Label(BlockId(b));
    let s0 = Arg::Reg(Reg::s(0, 1));
    push(
        &mut p,
        0,
        Opcode::SCmpEqU32,
        Format::Sopc,
        &[],
        &[s0, Arg::Const(0)],
    );
    push(&mut p, 0, Opcode::SCbranchScc0, Format::Sopp, &[], &[l(2)]);
    push(&mut p, 1, Opcode::SBranch, Format::Sopp, &[], &[l(3)]);
    push(
        &mut p,
        2,
        Opcode::VMovB32,
        Format::Vop1,
        &[Arg::Reg(Reg::v(0, 1))],
        &[Arg::Const(1)],
    );
    push(
        &mut p,
        3,
        Opcode::SEndpgm,
        Format::Sopp,
        &[],
        &[Arg::Imm(0)],
    );
    for (a, b) in [(0, 1), (0, 2), (1, 3), (2, 3)] {
        p.add_edge(BlockId(a), BlockId(b), false);
    }
    assert_eq!(thread_branches(&mut p), 1);
    verify(&p, true).unwrap();
    assert_eq!(
        insts(&p),
        "s_cmp_eq_u32 s0, 0
s_cbranch_scc1 BB3
v0 = v_mov_b32 1
s_endpgm imm:0x0"
    );
}

/// The same shape, where the lone `s_branch` block is also the target of an earlier
/// branch: that branch is threaded to `EXIT` first, so the block ends up reached from the
/// conditional branch over it only, and goes too.
#[test]
fn a_lone_exit_branch_other_jumps_reach_is_threaded_then_dropped() {
    let mut p = Program::new(target());
    for _ in 0..5 {
        p.new_block(0);
    }
    let l = |b: u32| Arg::Label(BlockId(b));
    let s0 = Arg::Reg(Reg::s(0, 1));
    push(
        &mut p,
        0,
        Opcode::SCmpEqU32,
        Format::Sopc,
        &[],
        &[s0, Arg::Const(0)],
    );
    push(&mut p, 0, Opcode::SCbranchScc1, Format::Sopp, &[], &[l(2)]);
    push(
        &mut p,
        1,
        Opcode::SCmpEqU32,
        Format::Sopc,
        &[],
        &[s0, Arg::Const(1)],
    );
    push(&mut p, 1, Opcode::SCbranchScc0, Format::Sopp, &[], &[l(3)]);
    push(&mut p, 2, Opcode::SBranch, Format::Sopp, &[], &[l(4)]);
    push(
        &mut p,
        3,
        Opcode::VMovB32,
        Format::Vop1,
        &[Arg::Reg(Reg::v(0, 1))],
        &[Arg::Const(1)],
    );
    push(
        &mut p,
        4,
        Opcode::SEndpgm,
        Format::Sopp,
        &[],
        &[Arg::Imm(0)],
    );
    for (a, b) in [(0, 1), (0, 2), (1, 2), (1, 3), (2, 4), (3, 4)] {
        p.add_edge(BlockId(a), BlockId(b), false);
    }
    assert_eq!(thread_branches(&mut p), 1);
    verify(&p, true).unwrap();
    assert_eq!(
        insts(&p),
        "s_cmp_eq_u32 s0, 0
s_cbranch_scc1 BB4
s_cmp_eq_u32 s0, 1
s_cbranch_scc1 BB4
v0 = v_mov_b32 1
s_endpgm imm:0x0"
    );
}

/// A loop (block 1, its own successor) whose counter is the phi web `%w`: set from `%x`
/// before the loop, `%s = %w + 1` in the body then copied back. `extra` adds to the body
/// between the increment and the copy.
fn counter_loop(extra: impl FnOnce(&mut Program, Arg, Arg)) -> Program {
    let mut p = program(|p, _, x| {
        let b1 = p.new_block(1);
        let b2 = p.new_block(0);
        p.add_edge(BlockId(0), b1, true);
        p.add_edge(b1, b1, true);
        p.add_edge(b1, b2, true);
        let w = p.new_temp(RegClass::S1);
        p.multi_def.insert(w);
        let (w, s) = (Arg::Temp(w), Arg::Temp(p.new_temp(RegClass::S1)));
        p.block_mut(BlockId(0)).insts.push(MInst::pseudo(
            Pseudo::ParallelCopy,
            &[w],
            &[Arg::Temp(x)],
        ));
        push(
            p,
            1,
            Opcode::SAddU32,
            Format::Sop2,
            &[s],
            &[w, Arg::Const(1)],
        );
        extra(p, w, s);
        p.block_mut(b1)
            .insts
            .push(MInst::pseudo(Pseudo::ParallelCopy, &[w], &[s]));
        push(p, 2, Opcode::SEndpgm, Format::Sopp, &[], &[Arg::Imm(0)]);
    });
    coalesce_phi_copies(&mut p);
    verify(&p, false).unwrap();
    p
}

#[test]
fn a_value_copied_into_its_phi_web_is_computed_there() {
    // the increment writes the counter itself and the copy goes; so does the copy of
    // the initial value, which the load now writes into the web
    let p = counter_loop(|_, _, _| {});
    assert_eq!(
        insts(&p),
        "%0:s2 = p_startpgm\n%2:s1 = s_load_b32 %0:s2, imm:0x0\n\
         %2:s1 = s_add_u32 %2:s1, 1\ns_endpgm imm:0x0"
    );
    // the old counter read after the increment: both values live, the copy stays
    let p = counter_loop(|p, w, _| {
        let y = Arg::Temp(p.new_temp(RegClass::S1));
        push(p, 1, Opcode::SMulI32, Format::Sop2, &[y], &[w, w]);
    });
    assert!(
        insts(&p).contains("%2:s1 = p_parallelcopy %3:s1"),
        "{}",
        insts(&p)
    );
    // the new value read after the loop too: the copy stays
    let p = counter_loop(|p, _, s| {
        let y = Arg::Temp(p.new_temp(RegClass::S1));
        push(p, 2, Opcode::SMulI32, Format::Sop2, &[y], &[s, s]);
    });
    assert!(
        insts(&p).contains("%2:s1 = p_parallelcopy %3:s1"),
        "{}",
        insts(&p)
    );
}

/// `x + c` addresses of MUBUF and one-address DS accesses fold into the immediate offset
/// (chains too) while the field holds the sum; the adds then die. A sum past the field,
/// an SGPR base and a two-address DS form keep their address.
#[test]
fn constant_address_adds_fold_into_the_offset_field() {
    let mut p = program(|p, ptr, x| {
        let [base, a4, a12, far, lds, lds2, s8] =
            [0; 7].map(|_| Arg::Temp(p.new_temp(RegClass::V1)));
        let q = Arg::Temp(p.new_temp(RegClass::S4));
        let perm = Arg::Temp(p.new_temp(RegClass::V1));
        let x = Arg::Temp(x);
        let add = |p: &mut Program, d: Arg, k: u32, s: Arg| {
            push(
                p,
                0,
                Opcode::VAddNcU32,
                Format::Vop2,
                &[d],
                &[Arg::Const(k), s],
            );
        };
        push(p, 0, Opcode::VMovB32, Format::Vop1, &[base], &[x]);
        push(
            p,
            0,
            Opcode::SLoadB128,
            Format::Smem,
            &[q],
            &[Arg::Temp(ptr), Arg::Imm(16)],
        );
        // base + 4, then (base + 4) + 8
        add(p, a4, 4, base);
        add(p, a12, 8, a4);
        // base + 4000 with offset 200: 4200 does not fit 12 bits
        add(p, far, 4000, base);
        // x (an SGPR) + 8 into a VGPR: the access needs the VGPR
        add(p, s8, 8, x);
        add(p, lds, 16, base);
        add(p, lds2, 32, base);
        let store = |p: &mut Program, va: Arg, off: i32| {
            let mut m = MInst::hw(
                Opcode::BufferStoreB32,
                Format::Mubuf,
                &[],
                &[base, va, q, Arg::Const(0)],
            );
            m.mods.mem.offen = true;
            m.mods.mem.offset = off;
            p.block_mut(BlockId(0)).insts.push(m);
        };
        store(p, a12, 0);
        store(p, a4, 20);
        store(p, far, 200);
        store(p, s8, 0);
        let ds = |p: &mut Program, op: Opcode, defs: &[Arg], ops: &[Arg]| {
            let mut m = MInst::hw(op, Format::Ds, defs, ops);
            m.mods.mem.offset = 2;
            p.block_mut(BlockId(0)).insts.push(m);
        };
        ds(p, Opcode::DsStoreB32, &[], &[lds, base]);
        ds(p, Opcode::DsStore2addrB32, &[], &[lds2, base, base]);
        // the lane address of a permute takes the offset too
        ds(p, Opcode::DsBpermuteB32, &[perm], &[lds2, base]);
        store(p, perm, 0);
    });
    optimize_selected(&mut p);
    verify(&p, false).unwrap();
    let text = insts(&p);
    let t = |n: u32| Arg::Temp(Temp(n));
    // (address operand, offset field) of each access, in order
    let accesses: Vec<(Arg, i32)> = p.blocks[0]
        .insts
        .iter()
        .filter_map(|i| match i.op {
            Op::Hw(_, Format::Mubuf) => Some((i.ops[1], i.mods.mem.offset)),
            Op::Hw(_, Format::Ds) => Some((i.ops[0], i.mods.mem.offset)),
            _ => None,
        })
        .collect();
    // %2 is `base`, %5 `far`, %7 `lds2`, %8 `s8`
    assert_eq!(
        accesses,
        vec![
            (t(2), 12),
            (t(2), 24),
            (t(5), 200),
            (t(8), 0),
            (t(2), 18),
            (t(7), 2),
            (t(2), 34),
            (t(10), 0),
        ],
        "{text}"
    );
    // the adds only folded accesses read are gone: +4, +8 and +16
    let adds = text.lines().filter(|l| l.contains("v_add_nc_u32")).count();
    assert_eq!(adds, 3, "{text}");
}

/// Read-only scalar loads whose operands the loop does not define move to the end of the
/// block before the loop: a push-constant load and a pointer load from the ABI pointer, a
/// descriptor load and the UBO read through that descriptor (invariant once the descriptor
/// moved). A UBO read through a descriptor made from the loop counter, and a load through
/// a pointer that is not an ABI input, stay.
#[test]
fn loop_invariant_scalar_loads_move_before_the_loop() {
    let mut p = counter_loop(|p, w, _| {
        let ptr = Arg::Temp(Temp(0));
        let t = |p: &mut Program, rc| Arg::Temp(p.new_temp(rc));
        let (pc, desc, ubo, desc_w, at_w) = (
            t(p, RegClass::S1),
            t(p, RegClass::S4),
            t(p, RegClass::S1),
            t(p, RegClass::S4),
            t(p, RegClass::S1),
        );
        let (other_ptr, other) = (t(p, RegClass::S2), t(p, RegClass::S1));
        push(
            p,
            1,
            Opcode::SLoadB32,
            Format::Smem,
            &[pc],
            &[ptr, Arg::Imm(8)],
        );
        push(
            p,
            1,
            Opcode::SLoadB128,
            Format::Smem,
            &[desc],
            &[ptr, Arg::Imm(16)],
        );
        push(
            p,
            1,
            Opcode::SBufferLoadB32,
            Format::Smem,
            &[ubo],
            &[desc, Arg::Imm(4)],
        );
        p.block_mut(BlockId(1)).insts.push(MInst::pseudo(
            Pseudo::CreateVector,
            &[desc_w],
            &[w, w, w, w],
        ));
        push(
            p,
            1,
            Opcode::SBufferLoadB32,
            Format::Smem,
            &[at_w],
            &[desc_w, Arg::Imm(0)],
        );
        push(
            p,
            1,
            Opcode::SLoadB64,
            Format::Smem,
            &[other_ptr],
            &[ptr, Arg::Imm(32)],
        );
        push(
            p,
            1,
            Opcode::SLoadB32,
            Format::Smem,
            &[other],
            &[other_ptr, Arg::Imm(0)],
        );
    });
    assert_eq!(hoist_loop_invariants(&mut p), 4);
    verify(&p, false).unwrap();
    let blocks: Vec<String> = print_program(&p)
        .split("\nBB")
        .skip(1)
        .map(|b| {
            b.lines()
                .skip(1)
                .map(str::trim)
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    assert_eq!(
        blocks[..2],
        [
            "%0:s2 = p_startpgm
%2:s1 = s_load_b32 %0:s2, imm:0x0
%4:s1 = s_load_b32 %0:s2, imm:0x8
%5:s4 = s_load_b128 %0:s2, imm:0x10
%6:s1 = s_buffer_load_b32 %5:s4, imm:0x4
%9:s2 = s_load_b64 %0:s2, imm:0x20",
            "%3:s1 = s_add_u32 %2:s1, 1
%7:s4 = p_create_vector %2:s1, %2:s1, %2:s1, %2:s1
%8:s1 = s_buffer_load_b32 %7:s4, imm:0x0
%10:s1 = s_load_b32 %9:s2, imm:0x0
%2:s1 = p_parallelcopy %3:s1"
        ]
    );
}

/// Scalar loads move up to the loads before them, so that one wait covers them: a
/// descriptor load passes the VALU work in front of it; a load whose address is made where
/// SCC is live (between `s_cmp` and the `s_cselect` reading it) stays after the reader; no
/// load passes a store, but the next load joins the one after the store.
#[test]
fn scalar_loads_move_up_together_but_not_past_stores_or_into_live_scc() {
    let mut p = program(|p, ptr, x| {
        let t = |p: &mut Program, rc| Arg::Temp(p.new_temp(rc));
        let (ptr, x) = (Arg::Temp(ptr), Arg::Temp(x));
        let (a, d, w, c, e) = (
            t(p, RegClass::V1),
            t(p, RegClass::S4),
            t(p, RegClass::S2),
            t(p, RegClass::S1),
            t(p, RegClass::S1),
        );
        let (f, g, h) = (t(p, RegClass::S1), t(p, RegClass::V1), t(p, RegClass::S1));
        push(p, 0, Opcode::VMovB32, Format::Vop1, &[a], &[x]);
        push(
            p,
            0,
            Opcode::SLoadB128,
            Format::Smem,
            &[d],
            &[ptr, Arg::Imm(16)],
        );
        push(
            p,
            0,
            Opcode::SCmpLgU32,
            Format::Sopc,
            &[],
            &[x, Arg::Const(0)],
        );
        push(p, 0, Opcode::SMovB64, Format::Sop1, &[w], &[ptr]);
        push(
            p,
            0,
            Opcode::SCselectB32,
            Format::Sop2,
            &[c],
            &[Arg::Const(1), Arg::Const(0)],
        );
        push(
            p,
            0,
            Opcode::SLoadB32,
            Format::Smem,
            &[e],
            &[w, Arg::Imm(0)],
        );
        push(p, 0, Opcode::DsStoreB32, Format::Ds, &[], &[a, a]);
        push(
            p,
            0,
            Opcode::SLoadB32,
            Format::Smem,
            &[f],
            &[ptr, Arg::Imm(32)],
        );
        push(p, 0, Opcode::VMovB32, Format::Vop1, &[g], &[f]);
        push(
            p,
            0,
            Opcode::SLoadB32,
            Format::Smem,
            &[h],
            &[ptr, Arg::Imm(36)],
        );
    });
    assert_eq!(cluster_scalar_loads(&mut p), 2);
    verify(&p, false).unwrap();
    assert_eq!(
        insts(&p),
        "%0:s2 = p_startpgm
%1:s1 = s_load_b32 %0:s2, imm:0x0
%3:s4 = s_load_b128 %0:s2, imm:0x10
%2:v1 = v_mov_b32 %1:s1
s_cmp_lg_u32 %1:s1, 0
%4:s2 = s_mov_b64 %0:s2
%5:s1 = s_cselect_b32 1, 0
%6:s1 = s_load_b32 %4:s2, imm:0x0
ds_store_b32 %2:v1, %2:v1
%7:s1 = s_load_b32 %0:s2, imm:0x20
%9:s1 = s_load_b32 %0:s2, imm:0x24
%8:v1 = v_mov_b32 %7:s1"
    );
}

/// A value computed again in its block is computed once: the second copy of an SGPR into
/// a VGPR goes and its readers read the first, which makes two tuples identical, so the
/// second tuple goes too. An SCC writer stays (its SCC may be read), and so does a copy
/// after exec changed (the first copy only holds the lanes active before).
#[test]
fn a_value_computed_twice_in_a_block_is_computed_once() {
    let mut p = program(|p, _, x| {
        let t = |p: &mut Program, rc| Arg::Temp(p.new_temp(rc));
        let x = Arg::Temp(x);
        let (a, b, c, d) = (
            t(p, RegClass::V1),
            t(p, RegClass::V1),
            t(p, RegClass::V2),
            t(p, RegClass::V2),
        );
        let (e, f, g) = (t(p, RegClass::S1), t(p, RegClass::S1), t(p, RegClass::V1));
        push(p, 0, Opcode::VMovB32, Format::Vop1, &[a], &[x]);
        push(p, 0, Opcode::VMovB32, Format::Vop1, &[b], &[x]);
        let vec = |p: &mut Program, d, srcs: &[Arg]| {
            p.block_mut(BlockId(0))
                .insts
                .push(MInst::pseudo(Pseudo::CreateVector, &[d], srcs))
        };
        vec(p, c, &[a, b]);
        vec(p, d, &[a, a]);
        push(
            p,
            0,
            Opcode::SAddU32,
            Format::Sop2,
            &[e],
            &[x, Arg::Const(1)],
        );
        push(
            p,
            0,
            Opcode::SAddU32,
            Format::Sop2,
            &[f],
            &[x, Arg::Const(1)],
        );
        let exec = p.exec();
        push(p, 0, Opcode::SMovB32, Format::Sop1, &[exec], &[x]);
        push(p, 0, Opcode::VMovB32, Format::Vop1, &[g], &[x]);
        push(p, 0, Opcode::DsStoreB64, Format::Ds, &[], &[b, d]);
        push(p, 0, Opcode::DsStoreB32, Format::Ds, &[], &[g, g]);
    });
    assert_eq!(number_values(&mut p), 2);
    verify(&p, false).unwrap();
    assert_eq!(
        insts(&p),
        "%0:s2 = p_startpgm
%1:s1 = s_load_b32 %0:s2, imm:0x0
%2:v1 = v_mov_b32 %1:s1
%4:v2 = p_create_vector %2:v1, %2:v1
%6:s1 = s_add_u32 %1:s1, 1
%7:s1 = s_add_u32 %1:s1, 1
exec_lo = s_mov_b32 %1:s1
%8:v1 = v_mov_b32 %1:s1
ds_store_b64 %2:v1, %4:v2
ds_store_b32 %8:v1, %8:v1"
    );
}

/// One-dword buffer stores to consecutive offsets of one address become one store of four
/// dwords, in offset order whatever their program order, where the last of the four was
/// (not after the fifth dword's store, which stays a store of its own), and a store after
/// a memory access (an LDS store here) joins nothing before it.
#[test]
fn consecutive_dword_buffer_stores_become_one_wide_store() {
    let mut p = program(|p, ptr, x| {
        let t = |p: &mut Program, rc| Arg::Temp(p.new_temp(rc));
        let (ptr, x) = (Arg::Temp(ptr), Arg::Temp(x));
        let (res, v) = (t(p, RegClass::S4), t(p, RegClass::V1));
        push(
            p,
            0,
            Opcode::SLoadB128,
            Format::Smem,
            &[res],
            &[ptr, Arg::Imm(16)],
        );
        push(p, 0, Opcode::VMovB32, Format::Vop1, &[v], &[x]);
        let d: Vec<Arg> = (0..5).map(|_| t(p, RegClass::V1)).collect();
        for (k, &di) in d[..4].iter().enumerate() {
            push(
                p,
                0,
                Opcode::VMovB32,
                Format::Vop1,
                &[di],
                &[Arg::Const(k as u32 + 1)],
            );
        }
        let store = |p: &mut Program, data: Arg, offset: i32| {
            let op = Opcode::BufferStoreDword.on(Gen::Gfx11).unwrap();
            let mut st = MInst::hw(op, Format::Mubuf, &[], &[data, v, res, Arg::Const(0)]);
            st.mods.mem.offen = true;
            st.mods.mem.offset = offset;
            p.block_mut(BlockId(0)).insts.push(st);
        };
        store(p, d[2], 8);
        store(p, d[0], 0);
        store(p, d[1], 4);
        push(
            p,
            0,
            Opcode::VMovB32,
            Format::Vop1,
            &[d[4]],
            &[Arg::Const(5)],
        );
        store(p, d[3], 12);
        store(p, d[4], 16);
        push(p, 0, Opcode::DsStoreB32, Format::Ds, &[], &[v, v]);
        store(p, d[0], 20);
    });
    assert_eq!(merge_buffer_stores(&mut p), 3);
    verify(&p, false).unwrap();
    assert_eq!(
        insts(&p),
        "%0:s2 = p_startpgm
%1:s1 = s_load_b32 %0:s2, imm:0x0
%2:s4 = s_load_b128 %0:s2, imm:0x10
%3:v1 = v_mov_b32 %1:s1
%4:v1 = v_mov_b32 1
%5:v1 = v_mov_b32 2
%6:v1 = v_mov_b32 3
%7:v1 = v_mov_b32 4
%8:v1 = v_mov_b32 5
%9:v4 = p_create_vector %4:v1, %5:v1, %6:v1, %7:v1
buffer_store_b128 %9:v4, %3:v1, %2:s4, 0
buffer_store_b32 %8:v1, %3:v1, %2:s4, 0
ds_store_b32 %3:v1, %3:v1
buffer_store_b32 %4:v1, %3:v1, %2:s4, 0"
    );
    // the MIR text omits the memory modifiers: the stores' offsets, in program order
    let offsets: Vec<(bool, i32)> = p.blocks[0]
        .insts
        .iter()
        .filter(|i| matches!(i.op, Op::Hw(_, Format::Mubuf)))
        .map(|i| (i.mods.mem.offen, i.mods.mem.offset))
        .collect();
    assert_eq!(offsets, [(true, 0), (true, 16), (true, 20)]);
}

/// Two VGPR values `a = v_mov x`, `b = v_cvt_f32_u32 x` after the program's prologue.
fn two_vgprs(p: &mut Program, x: Temp) -> (Arg, Arg) {
    let [a, b] = [0, 1].map(|_| Arg::Temp(p.new_temp(RegClass::V1)));
    push(p, 0, Opcode::VMovB32, Format::Vop1, &[a], &[Arg::Temp(x)]);
    push(
        p,
        0,
        Opcode::VCvtF32U32,
        Format::Vop1,
        &[b],
        &[Arg::Temp(x)],
    );
    (a, b)
}

/// Stores `v` to v`k` (a fixed register keeps it live).
fn keep(p: &mut Program, k: u16, v: Arg) {
    push(
        p,
        0,
        Opcode::VMovB32,
        Format::Vop1,
        &[Arg::Reg(Reg::v(k, 1))],
        &[v],
    );
}

#[test]
fn float_negation_and_absolute_value_become_source_modifiers() {
    let mut p = program(|p, _, x| {
        let (a, b) = two_vgprs(p, x);
        let [n, m, s, f] = [0, 1, 2, 3].map(|_| Arg::Temp(p.new_temp(RegClass::V1)));
        // n = -a; m = |n| (= |a|, the chain composes); s = n + b (VOP2, promoted: the xor
        // dies); f = fma(m, b, n) (VOP3 already)
        let sign = Arg::Const(0x8000_0000);
        push(p, 0, Opcode::VXorB32, Format::Vop2, &[n], &[sign, a]);
        push(
            p,
            0,
            Opcode::VAndB32,
            Format::Vop2,
            &[m],
            &[Arg::Const(0x7fff_ffff), n],
        );
        push(p, 0, Opcode::VAddF32, Format::Vop2, &[s], &[n, b]);
        push(p, 0, Opcode::VFmaF32, Format::Vop3, &[f], &[m, b, n]);
        keep(p, 1, s);
        keep(p, 2, f);
    });
    optimize_selected(&mut p);
    verify(&p, false).unwrap();
    assert_eq!(
        insts(&p),
        "%0:s2 = p_startpgm
%1:s1 = s_load_b32 %0:s2, imm:0x0
%2:v1 = v_mov_b32 %1:s1
%3:v1 = v_cvt_f32_u32 %1:s1
%6:v1 = v_add_f32_e64 %2:v1, %3:v1 neg:1
%7:v1 = v_fma_f32 %2:v1, %3:v1, %2:v1 neg:4 abs:1
v1 = v_mov_b32 %6:v1
v2 = v_mov_b32 %7:v1"
    );
}

#[test]
fn a_set_sign_bit_is_minus_absolute_value_for_float_readers() {
    let mut p = program(|p, _, x| {
        let (a, b) = two_vgprs(p, x);
        let [n, s, m, i] = [0, 1, 2, 3].map(|_| Arg::Temp(p.new_temp(RegClass::V1)));
        // n = a | sign (= -|a|, how selection writes fneg(fabs)); s = n * b (VOP2, n's
        // float readers all fold: promoted, the or dies); m = n ^ sign (= |a|);
        // i = max(m, b) (VOP3 already: reads |a|); o = b | sign read by j = o | a, an
        // integer source that takes no modifier: o stays
        push(
            p,
            0,
            Opcode::VOrB32,
            Format::Vop2,
            &[n],
            &[Arg::Const(0x8000_0000), a],
        );
        push(p, 0, Opcode::VMulF32, Format::Vop2, &[s], &[n, b]);
        push(
            p,
            0,
            Opcode::VXorB32,
            Format::Vop2,
            &[m],
            &[Arg::Const(0x8000_0000), n],
        );
        push(p, 0, Opcode::VMaxF32, Format::Vop3, &[i], &[m, b]);
        keep(p, 1, s);
        keep(p, 2, i);
        let j = Arg::Temp(p.new_temp(RegClass::V1));
        let o = Arg::Temp(p.new_temp(RegClass::V1));
        push(
            p,
            0,
            Opcode::VOrB32,
            Format::Vop2,
            &[o],
            &[Arg::Const(0x8000_0000), b],
        );
        push(p, 0, Opcode::VOrB32, Format::Vop2, &[j], &[o, a]);
        keep(p, 3, j);
    });
    optimize_selected(&mut p);
    verify(&p, false).unwrap();
    assert_eq!(
        insts(&p),
        "%0:s2 = p_startpgm
%1:s1 = s_load_b32 %0:s2, imm:0x0
%2:v1 = v_mov_b32 %1:s1
%3:v1 = v_cvt_f32_u32 %1:s1
%5:v1 = v_mul_f32_e64 %2:v1, %3:v1 neg:1 abs:1
%7:v1 = v_max_f32_e64 %2:v1, %3:v1 abs:1
v1 = v_mov_b32 %5:v1
v2 = v_mov_b32 %7:v1
%9:v1 = v_or_b32 0x80000000, %3:v1
%8:v1 = v_or_b32 %9:v1, %2:v1
v3 = v_mov_b32 %8:v1"
    );
}

#[test]
fn a_sign_operation_an_integer_op_reads_stays_and_vop2_readers_are_not_promoted() {
    let mut p = program(|p, _, x| {
        let (a, b) = two_vgprs(p, x);
        let [n, s, f, i] = [0, 1, 2, 3].map(|_| Arg::Temp(p.new_temp(RegClass::V1)));
        // n = -a is also read by an integer add: it stays, so promoting the VOP2 float add
        // would save nothing; the VOP3 fma still reads a with neg; a 16-bit sign mask is
        // not an f32 negation
        let h = Arg::Temp(p.new_temp(RegClass::V1));
        let g = Arg::Temp(p.new_temp(RegClass::V1));
        push(
            p,
            0,
            Opcode::VXorB32,
            Format::Vop2,
            &[n],
            &[Arg::Const(0x8000_0000), a],
        );
        push(p, 0, Opcode::VAddF32, Format::Vop2, &[s], &[n, b]);
        push(p, 0, Opcode::VFmaF32, Format::Vop3, &[f], &[b, b, n]);
        push(p, 0, Opcode::VAddNcU32, Format::Vop2, &[i], &[n, b]);
        push(
            p,
            0,
            Opcode::VXorB32,
            Format::Vop2,
            &[h],
            &[Arg::Const(0x8000), b],
        );
        push(p, 0, Opcode::VMulF32, Format::Vop3, &[g], &[h, b]);
        for (k, v) in [s, f, i, g].into_iter().enumerate() {
            keep(p, k as u16 + 1, v);
        }
    });
    optimize_selected(&mut p);
    verify(&p, false).unwrap();
    assert_eq!(
        insts(&p),
        "%0:s2 = p_startpgm
%1:s1 = s_load_b32 %0:s2, imm:0x0
%2:v1 = v_mov_b32 %1:s1
%3:v1 = v_cvt_f32_u32 %1:s1
%4:v1 = v_xor_b32 0x80000000, %2:v1
%5:v1 = v_add_f32 %4:v1, %3:v1
%6:v1 = v_fma_f32 %3:v1, %3:v1, %2:v1 neg:4
%7:v1 = v_add_nc_u32 %4:v1, %3:v1
%8:v1 = v_xor_b32 0x8000, %3:v1
%9:v1 = v_mul_f32_e64 %8:v1, %3:v1
v1 = v_mov_b32 %5:v1
v2 = v_mov_b32 %6:v1
v3 = v_mov_b32 %7:v1
v4 = v_mov_b32 %9:v1"
    );
}

#[test]
fn a_clamp_to_zero_one_becomes_the_producers_clamp_bit() {
    let mut p = program(|p, _, x| {
        let (a, b) = two_vgprs(p, x);
        let [s, c, m, d] = [0, 1, 2, 3].map(|_| Arg::Temp(p.new_temp(RegClass::V1)));
        let (zero, one) = (Arg::Const(0), Arg::Const(0x3f80_0000));
        // c = sat(a + b): the add clamps; d = sat(m) where m = a * b is read again: stays
        push(p, 0, Opcode::VAddF32, Format::Vop2, &[s], &[a, b]);
        push(p, 0, Opcode::VMed3F32, Format::Vop3, &[c], &[s, zero, one]);
        push(p, 0, Opcode::VMulF32, Format::Vop2, &[m], &[a, b]);
        push(p, 0, Opcode::VMed3F32, Format::Vop3, &[d], &[m, zero, one]);
        keep(p, 1, c);
        keep(p, 2, d);
        keep(p, 3, m);
    });
    optimize_selected(&mut p);
    verify(&p, false).unwrap();
    assert_eq!(
        insts(&p),
        "%0:s2 = p_startpgm
%1:s1 = s_load_b32 %0:s2, imm:0x0
%2:v1 = v_mov_b32 %1:s1
%3:v1 = v_cvt_f32_u32 %1:s1
%5:v1 = v_add_f32_e64 %2:v1, %3:v1 clamp
%6:v1 = v_mul_f32 %2:v1, %3:v1
%7:v1 = v_med3_f32 %6:v1, 0, 0x3f800000
v1 = v_mov_b32 %5:v1
v2 = v_mov_b32 %7:v1
v3 = v_mov_b32 %6:v1"
    );
}

/// A divergent `if` whose arm breaks out of a loop, after allocation (wave32 on GFX10+,
/// wave64 on GFX9, lane masks in s[0..] as wide as the wave's):
/// ```text
/// BB0: s1 = s_and_saveexec s0 ; s_cbranch_execz BB2
/// BB1: ARM ; s2 = s_or s2, exec ; exec = s_mov 0             (the break)
/// BB2: s3 = s_andn2 s1, s0 ; exec = s_or exec, s3            (the merge)
///      v1 = v_mov_b32 2 ; s_endpgm
/// ```
fn break_under_divergent_if(gen: Gen, arm: &[(Opcode, Format, Arg, Arg)]) -> Program {
    let t = Target::new(gen);
    let mut p = Program::new(t);
    for _ in 0..3 {
        p.new_block(0);
    }
    let w = t.wave.mask_dwords();
    let s = |n: u16| Arg::Reg(Reg::s(n * w as u16, w));
    let lane = |o: Opcode| o.for_wave(t.wave).and_then(|o| o.on(gen)).unwrap();
    let exec = p.exec();
    let l2 = Arg::Label(BlockId(2));
    push(
        &mut p,
        0,
        lane(Opcode::SAndSaveexecB32),
        Format::Sop1,
        &[s(1)],
        &[s(0)],
    );
    push(&mut p, 0, Opcode::SCbranchExecz, Format::Sopp, &[], &[l2]);
    for &(o, f, d, a) in arm {
        push(&mut p, 1, o, f, &[d], &[a]);
    }
    push(
        &mut p,
        1,
        lane(Opcode::SOrB32),
        Format::Sop2,
        &[s(2)],
        &[s(2), exec],
    );
    push(
        &mut p,
        1,
        lane(Opcode::SMovB32),
        Format::Sop1,
        &[exec],
        &[Arg::Const(0)],
    );
    push(
        &mut p,
        2,
        lane(Opcode::SAndn2B32),
        Format::Sop2,
        &[s(3)],
        &[s(1), s(0)],
    );
    push(
        &mut p,
        2,
        lane(Opcode::SOrB32),
        Format::Sop2,
        &[exec],
        &[exec, s(3)],
    );
    let v1 = Arg::Reg(Reg::v(1, 1));
    push(
        &mut p,
        2,
        Opcode::VMovB32,
        Format::Vop1,
        &[v1],
        &[Arg::Const(2)],
    );
    push(
        &mut p,
        2,
        Opcode::SEndpgm,
        Format::Sopp,
        &[],
        &[Arg::Imm(0)],
    );
    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        p.add_edge(BlockId(a), BlockId(b), false);
    }
    p
}

fn v_movs(n: u16) -> Vec<(Opcode, Format, Arg, Arg)> {
    (0..n)
        .map(|k| {
            (
                Opcode::VMovB32,
                Format::Vop1,
                Arg::Reg(Reg::v(k, 1)),
                Arg::Const(k as u32),
            )
        })
        .collect()
}

/// The arm `v0 = v_mov_b32 0` costs 1 VALU + 2 SALU, 5 estimated cycles on GFX10+: less
/// than the skip, so the `s_cbranch_execz` goes and BB1 falls into BB2 alone. There exec
/// is known empty (BB1 cleared it), so `exec |= s3` is `exec = s3`; the clearing write is
/// then read by nobody and goes too.
#[test]
fn a_short_divergent_arm_is_not_skipped_and_the_break_join_writes_exec_once() {
    for gen in [Gen::Gfx10, Gen::Gfx11] {
        let mut p = break_under_divergent_if(gen, &v_movs(1));
        assert_eq!(drop_short_exec_branches(&mut p), 1);
        // BB0 now only falls through
        assert_eq!(p.blocks[0].linear_succs, [BlockId(1)]);
        assert_eq!(simplify_exec_writes(&mut p), 2);
        verify(&p, true).unwrap();
        let andn2 = if gen == Gen::Gfx11 {
            "s_and_not1_b32"
        } else {
            "s_andn2_b32"
        };
        assert_eq!(
            insts(&p),
            format!(
                "s1 = s_and_saveexec_b32 s0
v0 = v_mov_b32 0
s2 = s_or_b32 s2, exec_lo
s3 = {andn2} s1, s0
exec_lo = s_mov_b32 s3
v1 = v_mov_b32 2
s_endpgm imm:0x0"
            )
        );
    }
}

/// ACO's cost limit, 16 estimated cycles (GFX10+: 2 per SALU, 1 per VALU; GFX9: 4 per
/// instruction), and what may not run with an empty exec (here a readfirstlane, which
/// then reads lane 0) keep the skip. The join is then still entered with exec 0 on both
/// edges (the skip is taken only when exec is 0), so it still loses its `s_or`.
#[test]
fn a_long_or_lane_reading_arm_stays_skipped_and_its_join_only_loses_the_or() {
    let cases = [
        (Gen::Gfx10, 12, 1),
        (Gen::Gfx10, 13, 0),
        (Gen::Gfx9, 2, 1),
        (Gen::Gfx9, 3, 0),
    ];
    for (gen, n, dropped) in cases {
        let mut p = break_under_divergent_if(gen, &v_movs(n));
        assert_eq!(
            drop_short_exec_branches(&mut p),
            dropped,
            "{gen:?}, {n} v_mov"
        );
    }
    let v0 = Arg::Reg(Reg::v(0, 1));
    let rfl = [(
        Opcode::VReadfirstlaneB32,
        Format::Vop1,
        Arg::Reg(Reg::s(4, 1)),
        v0,
    )];
    let mut p = break_under_divergent_if(Gen::Gfx10, &rfl);
    assert_eq!(drop_short_exec_branches(&mut p), 0);
    assert_eq!(simplify_exec_writes(&mut p), 2);
    verify(&p, true).unwrap();
    assert_eq!(
        insts(&p),
        "s1 = s_and_saveexec_b32 s0
s_cbranch_execz BB2
s4 = v_readfirstlane_b32 v0
s2 = s_or_b32 s2, exec_lo
s3 = s_andn2_b32 s1, s0
exec_lo = s_mov_b32 s3
v1 = v_mov_b32 2
s_endpgm imm:0x0"
    );
}

/// Where exec is not known to be empty the join keeps its `s_or`, and a clearing write
/// something still reads (the join's `s_or`) stays: here BB0 reaches BB2 by a plain
/// branch with its lanes active.
#[test]
fn a_join_reached_with_active_lanes_keeps_its_or() {
    let mut p = break_under_divergent_if(Gen::Gfx10, &v_movs(13));
    let last = p.blocks[0].insts.len() - 1;
    p.blocks[0].insts[last] = MInst::hw(
        Opcode::SCbranchScc1,
        Format::Sopp,
        &[],
        &[Arg::Label(BlockId(2))],
    );
    let before = insts(&p);
    assert_eq!(simplify_exec_writes(&mut p), 0);
    assert_eq!(insts(&p), before);
}
