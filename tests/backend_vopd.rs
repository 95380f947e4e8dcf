//! `passes::form_vopd` as a specification: allocated GFX11 wave32 code in, the code with
//! VOPD pairs out (assembly text, our printer = LLVM's). One case per pairing rule and
//! per motion rule, pairs formed and pairs refused; every instruction of every result
//! disassembles with llvm-mc-19 to exactly our text. Then the compute corpus compiled for
//! gfx1100 wave32: pairs are formed, and llvm-objdump-19 prints what our printer prints.

mod backend_support;

use backend_support::{asm_of, program_from_asm, support};
use gcnc::amdgpu::passes::form_vopd;
use gcnc::isa::{Gen, Target, Wave};

fn w32() -> Target {
    Target::with_wave(Gen::Gfx11, Wave::W32).unwrap()
}

/// `asm` after the pass, and the pass's statistics.
fn run(t: Target, asm: &str) -> (String, form_vopd::Stats) {
    let mut p = program_from_asm(t, asm);
    let stats = form_vopd(&mut p);
    (asm_of(&p), stats)
}

/// The text, with each line's leading blanks removed.
fn lines(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| format!("{l}\n"))
        .collect()
}

/// `asm` becomes `want` on gfx1100 wave32.
fn pairs(asm: &str, want: &str) {
    let (got, _) = run(w32(), asm);
    assert_eq!(got, lines(want), "from:\n{asm}");
}

/// `asm` is left as it is on gfx1100 wave32.
fn unchanged(asm: &str) {
    pairs(asm, asm);
}

#[test]
fn independent_neighbours_pair() {
    pairs(
        "v_mul_f32_e32 v0, v1, v2
         v_add_f32_e32 v3, v4, v5",
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5",
    );
    // lowered copies are the common case
    pairs(
        "v_mov_b32_e32 v0, v4
         v_mov_b32_e32 v1, s2",
        "v_dual_mov_b32 v0, v4 :: v_dual_mov_b32 v1, s2",
    );
}

#[test]
fn destinations_of_equal_parity_do_not_pair() {
    unchanged(
        "v_mul_f32_e32 v0, v1, v2
         v_add_f32_e32 v2, v4, v5",
    );
}

#[test]
fn sources_in_one_bank_do_not_pair_unless_a_swap_separates_them() {
    // src0: v1 and v5 are both bank 1; mov has one source, nothing to swap
    unchanged(
        "v_mov_b32_e32 v0, v1
         v_mov_b32_e32 v3, v5",
    );
    // vsrc1: v2 and v6 are both bank 2, and an SGPR cannot move into vsrc1
    let (out, stats) = run(
        w32(),
        "v_sub_f32_e32 v0, s0, v2
         v_sub_f32_e32 v3, s1, v6",
    );
    assert_eq!(out.lines().count(), 2, "{out}");
    assert_eq!(
        (stats.pairs, stats.bank_rejects, stats.unpaired_by_banks),
        (0, 1, 1)
    );
    // the same banks with VGPRs only: sub becomes subrev with its sources swapped
    pairs(
        "v_sub_f32_e32 v0, v1, v2
         v_sub_f32_e32 v3, v4, v6",
        "v_dual_sub_f32 v0, v1, v2 :: v_dual_subrev_f32 v3, v6, v4",
    );
    // a commutative operation swaps in place (src0 v1 and v5 were both bank 1)
    pairs(
        "v_mul_f32_e32 v0, v1, v2
         v_add_f32_e32 v3, v5, v6",
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v6, v5",
    );
}

#[test]
fn accumulators_of_equal_parity_do_not_pair() {
    // fmac accumulates into v0, fmamk into v6: both even
    unchanged(
        "v_fmac_f32_e32 v0, v1, v2
         v_fmamk_f32 v3, v4, 0x40400000, v6",
    );
    pairs(
        "v_fmac_f32_e32 v0, v1, v2
         v_fmamk_f32 v3, v4, 0x40400000, v7",
        "v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmamk_f32 v3, v4, 0x40400000, v7",
    );
}

#[test]
fn one_literal_value_and_two_scalar_values_at_most() {
    unchanged(
        "v_mov_b32_e32 v0, 0x1234
         v_mov_b32_e32 v1, 0x5678",
    );
    pairs(
        "v_mov_b32_e32 v0, 0x1234
         v_add_f32_e32 v1, 0x1234, v2",
        "v_dual_mov_b32 v0, 0x1234 :: v_dual_add_f32 v1, 0x1234, v2",
    );
    // vcc (the cndmask lane mask), s1 and s2: three values on the one constant bus
    unchanged(
        "v_cndmask_b32_e32 v0, s1, v2, vcc_lo
         v_mov_b32_e32 v1, s2",
    );
    pairs(
        "v_cndmask_b32_e32 v0, s1, v2, vcc_lo
         v_mov_b32_e32 v1, s1",
        "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v1, s1",
    );
}

#[test]
fn y_only_operations_pair_only_with_an_x_capable_one() {
    unchanged(
        "v_add_nc_u32_e32 v0, v1, v2
         v_lshlrev_b32_e32 v3, 2, v5",
    );
    pairs(
        "v_add_nc_u32_e32 v0, v1, v2
         v_mov_b32_e32 v3, v4",
        "v_dual_mov_b32 v3, v4 :: v_dual_add_nc_u32 v0, v1, v2",
    );
}

#[test]
fn unmodified_vop3_forms_that_fit_pair() {
    // cndmask on vcc_lo, an fma accumulating into its destination
    pairs(
        "v_cndmask_b32_e64 v0, v1, v2, vcc_lo
         v_fma_f32 v3, v4, v5, v3",
        "v_dual_cndmask_b32 v0, v1, v2 :: v_dual_fmac_f32 v3, v4, v5",
    );
    // a lane mask in an SGPR, a modifier, a third source: not VOPD
    unchanged(
        "v_cndmask_b32_e64 v0, v1, v2, s4
         v_mov_b32_e32 v1, v6",
    );
    unchanged(
        "v_add_f32_e64 v0, -v1, v2
         v_mov_b32_e32 v1, v6",
    );
    unchanged(
        "v_fma_f32 v0, v1, v2, v4
         v_mov_b32_e32 v1, v6",
    );
}

#[test]
fn a_half_never_reads_the_other_halfs_result() {
    // v3 = v0 + v5 needs the v0 just computed
    unchanged(
        "v_mul_f32_e32 v0, v1, v2
         v_add_f32_e32 v3, v0, v5",
    );
    // the first overwrites a source of the second: no pair
    unchanged(
        "v_mul_f32_e32 v5, v1, v2
         v_add_f32_e32 v2, v4, v5",
    );
    // the second overwrites a source of the first: both read before either writes
    pairs(
        "v_mul_f32_e32 v0, v1, v2
         v_add_f32_e32 v1, v4, v5",
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v1, v4, v5",
    );
}

#[test]
fn the_second_half_moves_up_across_what_it_does_not_touch() {
    // an SALU op, a load into other registers, a VALU op that cannot pair (v_mul_lo_u32)
    pairs(
        "v_mul_f32_e32 v0, v1, v2
         s_add_u32 s8, s8, 4
         global_load_b32 v10, v12, s[0:1]
         v_mul_lo_u32 v20, v21, v22
         v_add_f32_e32 v3, v4, v5",
        "v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5
         s_add_u32 s8, s8, 4
         global_load_b32 v10, v12, s[0:1]
         v_mul_lo_u32 v20, v21, v22",
    );
}

#[test]
fn the_second_half_does_not_move_across_a_dependency_or_a_barrier() {
    // a load into its source, a store of its destination, an instruction writing its
    // source
    for mid in [
        "global_load_b32 v4, v12, s[0:1]",
        "global_store_b32 v12, v3, s[0:1]",
        "v_mul_lo_u32 v5, v8, v9",
        "v_readfirstlane_b32 s0, v3",
    ] {
        unchanged(&format!(
            "v_mul_f32_e32 v0, v1, v2
             {mid}
             v_add_f32_e32 v3, v4, v5"
        ));
    }
    // exec writes, waits, barriers, branches
    for mid in [
        "s_mov_b32 exec_lo, s4",
        "s_and_saveexec_b32 s4, s5",
        "v_cmpx_eq_u32_e32 0, v9",
        "s_waitcnt vmcnt(0)",
        "s_barrier",
    ] {
        unchanged(&format!(
            "v_mul_f32_e32 v0, v1, v2
             {mid}
             v_add_f32_e32 v3, v4, v5"
        ));
    }
    // a cndmask does not move above a vcc write
    unchanged(
        "v_mul_f32_e32 v0, v1, v2
         v_cmp_eq_u32_e32 vcc_lo, v8, v9
         v_cndmask_b32_e32 v3, v4, v5, vcc_lo",
    );
}

#[test]
fn only_gfx11_wave32_pairs() {
    let asm = "v_mul_f32_e32 v0, v1, v2\nv_add_f32_e32 v3, v4, v5\n";
    for t in [
        Target::with_wave(Gen::Gfx11, Wave::W64).unwrap(),
        Target::with_wave(Gen::Gfx10, Wave::W32).unwrap(),
    ] {
        let (out, stats) = run(t, asm);
        assert_eq!(out, asm, "{t:?}");
        assert_eq!(stats, form_vopd::Stats::default());
    }
}

#[test]
fn pairs_are_taken_first_come_and_deterministically() {
    // four independent movs: (1st, 2nd) and (3rd, 4th)
    let asm = "v_mov_b32_e32 v0, v4
               v_mov_b32_e32 v1, v5
               v_mov_b32_e32 v2, v6
               v_mov_b32_e32 v3, v7";
    let want = "v_dual_mov_b32 v0, v4 :: v_dual_mov_b32 v1, v5
                v_dual_mov_b32 v2, v6 :: v_dual_mov_b32 v3, v7";
    pairs(asm, want);
    assert_eq!(run(w32(), asm), run(w32(), asm));
}

/// Every pair the cases above form, encoded by us and disassembled by llvm-mc-19, prints
/// as our printer prints it.
#[test]
fn formed_pairs_disassemble_with_llvm_to_our_text() {
    let Some(mc) = support::llvm_mc() else { return };
    let cases = [
        "v_mul_f32_e32 v0, v1, v2\nv_add_f32_e32 v3, v4, v5",
        "v_sub_f32_e32 v0, v1, v2\nv_sub_f32_e32 v3, v4, v6",
        "v_fmac_f32_e32 v0, v1, v2\nv_fmamk_f32 v3, v4, 0x40400000, v7",
        "v_mov_b32_e32 v0, 0x1234\nv_add_f32_e32 v1, 0x1234, v2",
        "v_cndmask_b32_e32 v0, s1, v2, vcc_lo\nv_mov_b32_e32 v1, s1",
        "v_add_nc_u32_e32 v0, v1, v2\nv_mov_b32_e32 v3, v4",
        "v_cndmask_b32_e64 v0, v1, v2, vcc_lo\nv_fma_f32 v3, v4, v5, v3",
        "v_mov_b32_e32 v255, v1\nv_lshlrev_b32_e32 v254, 3, v2",
    ];
    let t = w32();
    let (mut bytes, mut texts) = (Vec::new(), Vec::new());
    for asm in cases {
        let mut p = program_from_asm(t, asm);
        assert_eq!(form_vopd(&mut p).pairs, 1, "{asm}");
        let i = &p.blocks[0].insts[0];
        let inst = gcnc::amdgpu::emit::to_inst(&p, i).unwrap();
        bytes.push(gcnc::isa::encode(&inst, t).unwrap());
        texts.push(gcnc::isa::print(&inst, t).unwrap());
    }
    let llvm = support::disassemble(&mc, "gfx1100", Some(32), &bytes);
    for (ours, theirs) in texts.iter().zip(&llvm) {
        assert_eq!(Some(ours), theirs.as_ref());
    }
}

/// The compute corpus for gfx1100 wave32: pairs are formed, and each compiled ELF
/// disassembles with llvm-objdump-19 to exactly our printer's text.
#[test]
fn corpus_pairs_disassemble_with_objdump_to_our_text() {
    let (Some(objdump), Some(readelf)) = (
        backend_support::oracle("llvm-objdump-19"),
        backend_support::oracle("llvm-readelf-19"),
    ) else {
        return;
    };
    let mut dir: Vec<_> = std::fs::read_dir("tests/shaders/compute")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    dir.sort();
    let mut pairs = 0;
    for path in dir {
        let bytes = std::fs::read(&path).unwrap();
        let words = gcnc::front::spirv::words_from_bytes(&bytes).unwrap();
        let o = gcnc::Options::new(w32());
        let Ok(c) = gcnc::compile_spirv(&words, &o) else {
            continue;
        };
        let asm = c.asm().unwrap();
        pairs += asm.matches(" :: ").count();
        let name = path.file_stem().unwrap().to_string_lossy();
        backend_support::objdump_agrees(&objdump, &readelf, &name, Gen::Gfx11, Wave::W32, &c);
    }
    assert!(pairs >= 100, "only {pairs} VOPD pairs in the corpus");
}
