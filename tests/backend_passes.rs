//! Post-allocation passes as specifications: instruction list in → instruction list out
//! (parallel-copy sequentialisation, waitcnt insertion, hazard resolution), per generation.

mod backend_support;

use backend_support::*;
use gcnc::amdgpu::mir::{Arg, MInst, Pseudo};
use gcnc::amdgpu::passes::{insert_waitcnt, lower_to_hw, resolve_hazards};
use gcnc::isa::{Gen, Reg, Target, Wave};

fn t(gen: Gen) -> Target {
    Target::new(gen)
}

fn check(
    pass: fn(&mut gcnc::amdgpu::mir::Program) -> Result<u32, gcnc::amdgpu::Error>,
    gen: Gen,
    input: &str,
    want: &str,
) {
    let mut p = program_from_asm(t(gen), input);
    pass(&mut p).unwrap();
    let got = asm_of(&p);
    let norm = |s: &str| {
        s.lines()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(norm(&got), norm(want), "{}:\n{got}", gen.mcpu());
}

fn copy(p: &mut gcnc::amdgpu::mir::Program, defs: &[Reg], ops: &[Arg]) {
    let d: Vec<Arg> = defs.iter().map(|r| Arg::Reg(*r)).collect();
    p.blocks[0]
        .insts
        .push(MInst::pseudo(Pseudo::ParallelCopy, &d, ops));
}

fn lowered(gen: Gen, defs: &[Reg], ops: &[Arg]) -> String {
    let mut p = program_from_asm(t(gen), "");
    p.new_block(0);
    copy(&mut p, defs, ops);
    lower_to_hw(&mut p).unwrap();
    asm_of(&p)
}

#[test]
fn parallel_copy_swaps_and_orders() {
    // a two-cycle of VGPRs is one swap
    assert_eq!(
        lowered(
            Gen::Gfx10,
            &[Reg::v(0, 1), Reg::v(1, 1)],
            &[Arg::Reg(Reg::v(1, 1)), Arg::Reg(Reg::v(0, 1))]
        ),
        "v_swap_b32 v0, v1\n"
    );
    // a chain is ordered so nothing is read after being overwritten
    assert_eq!(
        lowered(
            Gen::Gfx9,
            &[Reg::v(1, 1), Reg::v(2, 1)],
            &[Arg::Reg(Reg::v(0, 1)), Arg::Reg(Reg::v(1, 1))]
        ),
        "v_mov_b32_e32 v2, v1\nv_mov_b32_e32 v1, v0\n"
    );
    // an SGPR two-cycle: three xors
    assert_eq!(
        lowered(
            Gen::Gfx11,
            &[Reg::s(4, 1), Reg::s(5, 1)],
            &[Arg::Reg(Reg::s(5, 1)), Arg::Reg(Reg::s(4, 1))]
        ),
        "s_xor_b32 s4, s4, s5\ns_xor_b32 s5, s5, s4\ns_xor_b32 s4, s4, s5\n"
    );
    // a 3-cycle with a fan-out read of the swapped register and a constant
    let out = lowered(
        Gen::Gfx10,
        &[
            Reg::v(0, 1),
            Reg::v(1, 1),
            Reg::v(2, 1),
            Reg::v(3, 1),
            Reg::v(4, 1),
        ],
        &[
            Arg::Reg(Reg::v(1, 1)),
            Arg::Reg(Reg::v(2, 1)),
            Arg::Reg(Reg::v(0, 1)),
            Arg::Reg(Reg::v(1, 1)),
            Arg::Const(7),
        ],
    );
    // simulate the sequence and check the parallel semantics
    let mut v: Vec<u32> = (100..108).collect();
    for l in out.lines() {
        let w: Vec<&str> = l
            .split(|c| c == ' ' || c == ',')
            .filter(|s| !s.is_empty())
            .collect();
        let r = |s: &str| s.trim_start_matches('v').parse::<usize>().unwrap();
        match w[0] {
            "v_swap_b32" => v.swap(r(w[1]), r(w[2])),
            "v_mov_b32_e32" if w[2].starts_with('v') => v[r(w[1])] = v[r(w[2])],
            "v_mov_b32_e32" => v[r(w[1])] = w[2].parse().unwrap(),
            o => panic!("{o}"),
        }
    }
    assert_eq!(&v[..5], &[101, 102, 100, 101, 7], "{out}");
    // a tuple copy from SGPRs to VGPRs is per dword
    assert_eq!(
        lowered(Gen::Gfx9, &[Reg::v(2, 2)], &[Arg::Reg(Reg::s(6, 2))]),
        "v_mov_b32_e32 v2, s6\nv_mov_b32_e32 v3, s7\n"
    );
}

#[test]
fn waitcnt_smem_is_out_of_order() {
    // two loads, a use of the first: SMEM may complete out of order, so wait for 0
    check(
        insert_waitcnt,
        Gen::Gfx9,
        "s_load_dword s4, s[0:1], 0x0\ns_load_dword s5, s[0:1], 0x4\ns_add_u32 s6, s4, 1\ns_add_u32 s7, s5, 1",
        "s_load_dword s4, s[0:1], 0x0\ns_load_dword s5, s[0:1], 0x4\ns_waitcnt lgkmcnt(0)\ns_add_u32 s6, s4, 1\ns_add_u32 s7, s5, 1",
    );
    // no use, no wait; an overwrite of the address waits (WAR); per-generation encoding
    check(
        insert_waitcnt,
        Gen::Gfx11,
        "s_load_b64 s[4:5], s[0:1], 0x10\ns_mov_b32 s0, 0\ns_mov_b32 s6, s4",
        "s_load_b64 s[4:5], s[0:1], 0x10\ns_waitcnt lgkmcnt(0)\ns_mov_b32 s0, 0\ns_mov_b32 s6, s4",
    );
    // a VALU use of a loaded SGPR; overwriting a loaded register (WAW) also waits
    check(
        insert_waitcnt,
        Gen::Gfx10,
        "s_buffer_load_dword s8, s[0:3], null\nv_add_nc_u32_e32 v0, s9, v0\nv_mov_b32_e32 v1, s8",
        "s_buffer_load_dword s8, s[0:3], null\nv_add_nc_u32_e32 v0, s9, v0\ns_waitcnt lgkmcnt(0)\nv_mov_b32_e32 v1, s8",
    );
}

#[test]
fn hazards_per_generation() {
    // GFX10 SMEMtoVectorWriteHazard: VALU writes an SGPR an SMEM reads
    check(
        resolve_hazards,
        Gen::Gfx10,
        "s_load_dword s4, s[0:1], null\nv_cmp_lt_u32_e64 s0, v0, 32",
        "s_load_dword s4, s[0:1], null\ns_mov_b32 null, 0\nv_cmp_lt_u32_e64 s0, v0, 32",
    );
    // any SALU in between resolves it
    check(
        resolve_hazards,
        Gen::Gfx10,
        "s_load_dword s4, s[0:1], null\ns_mov_b32 s7, 0\nv_cmp_lt_u32_e64 s0, v0, 32",
        "s_load_dword s4, s[0:1], null\ns_mov_b32 s7, 0\nv_cmp_lt_u32_e64 s0, v0, 32",
    );
    // GFX9 has no such rule
    check(
        resolve_hazards,
        Gen::Gfx9,
        "s_load_dword s4, s[0:1], 0x0\nv_cmp_lt_u32_e64 s[0:1], v0, 32",
        "s_load_dword s4, s[0:1], 0x0\nv_cmp_lt_u32_e64 s[0:1], v0, 32",
    );
    // GFX11 VALUTransUseHazard: a transcendental result read within 5 VALU
    let mut p = program_from_asm(
        t(Gen::Gfx11),
        "v_sqrt_f32_e32 v1, v0\nv_add_f32_e32 v2, v1, v0",
    );
    resolve_hazards(&mut p).unwrap();
    let names: Vec<&str> = p.blocks[0]
        .insts
        .iter()
        .map(|i| i.opcode().unwrap().name())
        .collect();
    assert_eq!(names, ["v_sqrt_f32", "s_waitcnt_depctr", "v_add_f32"]);
    // ... not once 6 VALU separate them
    let mut p = program_from_asm(
        t(Gen::Gfx11),
        "v_sqrt_f32_e32 v1, v0\nv_mov_b32_e32 v3, 0\nv_mov_b32_e32 v3, 0\nv_mov_b32_e32 v3, 0\nv_mov_b32_e32 v3, 0\nv_mov_b32_e32 v3, 0\nv_mov_b32_e32 v3, 0\nv_add_f32_e32 v2, v1, v0",
    );
    resolve_hazards(&mut p).unwrap();
    assert!(p.blocks[0]
        .insts
        .iter()
        .all(|i| i.opcode().unwrap().name() != "s_waitcnt_depctr"));
    // GFX11 wave64 VALUMaskWriteHazard: VALU reads s[4:5] as a mask, SALU writes it, SALU reads it
    let mut p = program_from_asm(
        Target::with_wave(Gen::Gfx11, Wave::W64).unwrap(),
        "v_cndmask_b32_e64 v0, v1, v2, s[4:5]\ns_mov_b64 s[4:5], 0\ns_mov_b64 s[6:7], s[4:5]",
    );
    resolve_hazards(&mut p).unwrap();
    let names: Vec<&str> = p.blocks[0]
        .insts
        .iter()
        .map(|i| i.opcode().unwrap().name())
        .collect();
    assert_eq!(
        names,
        [
            "v_cndmask_b32",
            "s_mov_b64",
            "s_waitcnt_depctr",
            "s_mov_b64"
        ]
    );
}

#[test]
fn gfx9_vcc_write_before_div_fmas() {
    let scale = "v_div_scale_f64 v[0:1], vcc, v[2:3], v[4:5], v[2:3]";
    let fmas = "v_div_fmas_f64 v[6:7], v[0:1], v[8:9], v[10:11]";
    let mov = "v_mov_b32_e32 v12, 0";
    // adjacent: 4 wait states missing
    check(
        resolve_hazards,
        Gen::Gfx9,
        &format!("{scale}\n{fmas}"),
        &format!("{scale}\ns_nop 3\n{fmas}"),
    );
    // two instructions between: two wait states missing
    check(
        resolve_hazards,
        Gen::Gfx9,
        &format!("{scale}\n{mov}\n{mov}\n{fmas}"),
        &format!("{scale}\n{mov}\n{mov}\ns_nop 1\n{fmas}"),
    );
    // four between, or a VALU that writes another SGPR pair: nothing to do
    check(
        resolve_hazards,
        Gen::Gfx9,
        &format!("{scale}\n{mov}\n{mov}\n{mov}\n{mov}\n{fmas}"),
        &format!("{scale}\n{mov}\n{mov}\n{mov}\n{mov}\n{fmas}"),
    );
    let other = "v_div_scale_f64 v[0:1], s[4:5], v[2:3], v[4:5], v[2:3]";
    check(
        resolve_hazards,
        Gen::Gfx9,
        &format!("{other}\n{fmas}"),
        &format!("{other}\n{fmas}"),
    );
    // an implicit VCC write (VOPC e32) counts too
    let cmp = "v_cmp_lt_f32_e32 vcc, v0, v1";
    check(
        resolve_hazards,
        Gen::Gfx9,
        &format!("{cmp}\n{mov}\n{fmas}"),
        &format!("{cmp}\n{mov}\ns_nop 2\n{fmas}"),
    );
    // GFX10.3 has no such rule
    check(
        resolve_hazards,
        Gen::Gfx10,
        "v_div_scale_f64 v[0:1], vcc_lo, v[2:3], v[4:5], v[2:3]\nv_div_fmas_f64 v[6:7], v[0:1], v[8:9], v[10:11]",
        "v_div_scale_f64 v[0:1], vcc_lo, v[2:3], v[4:5], v[2:3]\nv_div_fmas_f64 v[6:7], v[0:1], v[8:9], v[10:11]",
    );
}

#[test]
fn gfx9_dpp_and_lane_select_wait_states() {
    // a VALU result read as a DPP source one instruction later: 2 wait states
    check(
        resolve_hazards,
        Gen::Gfx9,
        "v_mov_b32_e32 v1, 0\nv_add_u32_dpp v1, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf",
        "v_mov_b32_e32 v1, 0\ns_nop 1\nv_add_u32_dpp v1, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf",
    );
    // one unrelated instruction in between leaves one wait state to add
    check(
        resolve_hazards,
        Gen::Gfx9,
        "v_mov_b32_e32 v1, 0\ns_mov_b32 s4, 0\nv_mov_b32_dpp v2, v1 row_shr:1 row_mask:0xf bank_mask:0xf",
        "v_mov_b32_e32 v1, 0\ns_mov_b32 s4, 0\ns_nop 0\nv_mov_b32_dpp v2, v1 row_shr:1 row_mask:0xf bank_mask:0xf",
    );
    // a VALU writing another register, or only src1, needs nothing
    check(
        resolve_hazards,
        Gen::Gfx9,
        "v_mov_b32_e32 v3, 0\nv_mov_b32_e32 v4, 0\nv_mov_b32_e32 v5, 0\nv_mov_b32_e32 v2, 0\nv_add_u32_dpp v2, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf",
        "v_mov_b32_e32 v3, 0\nv_mov_b32_e32 v4, 0\nv_mov_b32_e32 v5, 0\nv_mov_b32_e32 v2, 0\nv_add_u32_dpp v2, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf",
    );
    // a VALU-written SGPR as v_readlane lane select: 4 wait states; a constant needs none
    check(
        resolve_hazards,
        Gen::Gfx9,
        "v_readfirstlane_b32 s4, v0\nv_readlane_b32 s5, v1, s4\nv_readlane_b32 s6, v1, 63",
        "v_readfirstlane_b32 s4, v0\ns_nop 3\nv_readlane_b32 s5, v1, s4\nv_readlane_b32 s6, v1, 63",
    );
    // GFX10 has none of these rules
    check(
        resolve_hazards,
        Gen::Gfx10,
        "v_mov_b32_e32 v1, 0\nv_add_nc_u32_dpp v1, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf",
        "v_mov_b32_e32 v1, 0\nv_add_nc_u32_dpp v1, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf",
    );
}

/// A block ending in `store` (a one-block program from assembly) followed by a block that
/// holds `next`; returns each block's instruction names after hazard resolution.
fn store_then_block(gen: Gen, store: &str, next: &str) -> Vec<Vec<&'static str>> {
    let mut p = program_from_asm(t(gen), store);
    let tail = program_from_asm(t(gen), next);
    let b = p.new_block(0);
    p.block_mut(b).insts = tail.blocks[0].insts.clone();
    p.add_edge(gcnc::amdgpu::mir::BlockId(0), b, true);
    resolve_hazards(&mut p).unwrap();
    p.blocks
        .iter()
        .map(|b| b.insts.iter().map(|i| i.opcode().unwrap().name()).collect())
        .collect()
}

#[test]
fn open_hazards_are_resolved_before_a_successor_unless_it_ends_the_program() {
    let store = "buffer_store_dwordx4 v[0:3], v4, s[0:3], 0 offen";
    // GFX9 VMEMStoreData: the successor might write v0..v3 at once
    assert_eq!(
        store_then_block(Gen::Gfx9, store, "v_mov_b32_e32 v0, 0\ns_endpgm"),
        [
            vec!["buffer_store_dwordx4", "s_nop"],
            vec!["v_mov_b32", "s_endpgm"]
        ]
    );
    // ... but nothing follows a lone s_endpgm
    assert_eq!(
        store_then_block(Gen::Gfx9, store, "s_endpgm"),
        [vec!["buffer_store_dwordx4"], vec!["s_endpgm"]]
    );
    // GFX10 VMEMtoScalarWrite (the store read s[0:3]) likewise
    let store = "buffer_store_dword v0, v4, s[0:3], 0 offen";
    assert_eq!(
        store_then_block(Gen::Gfx10, store, "s_mov_b32 s0, 0\ns_endpgm"),
        [
            vec!["buffer_store_dword", "s_waitcnt_depctr"],
            vec!["s_mov_b32", "s_endpgm"]
        ]
    );
    assert_eq!(
        store_then_block(Gen::Gfx10, store, "s_endpgm"),
        [vec!["buffer_store_dword"], vec!["s_endpgm"]]
    );
}
