//! Cross-lane data movement on every generation: DPP16 controls (quad_perm, row_shr,
//! row_mirror / row_half_mirror, GFX9 wave_shr / row_bcast, GFX10+ row_share / row_xmask),
//! row masks, bound_ctrl and inactive source lanes, `v_permlanex16_b32`,
//! `v_permlane64_b32` and `ds_bpermute_b32` (whole wave on GFX9; each 32-lane half in
//! GFX10+ wave64). Every expected lane value is computed here from the lane index with
//! plain Rust, independently of the emulator's lane-mapping code. (Kept apart from
//! semantics.rs, whose cases look at lane 0 only.)

mod support;

use gcnc::isa::Gen;
use gcnc_emu::Memory;
use support::*;

const OLD: u32 = 0xdead;

/// v1 = 3·lane + 1 and v2 = OLD in every lane, then `body`; returns the final wave.
fn lanes_after(gen: Gen, w64: bool, body: &str) -> gcnc_emu::wave::Wave {
    let t = target(gen, w64);
    let n = if w64 { 64 } else { 32 };
    let src = format!(
        "v_mul_u32_u24 v1, 3, v0\nv_add_nc_u32 v1, 1, v1\nv_mov_b32 v2, 0xdead\ns_nop 4\n{body}\ns_endpgm\n"
    );
    let src = if gen == Gen::Gfx9 {
        src.replace("v_add_nc_u32", "v_add_u32")
    } else {
        src
    };
    let mut mem = Memory::new();
    let mut w = run(t, ours(t, &src), n, &[], &mut mem)
        .unwrap_or_else(|e| panic!("{gen} w{n}: {body}: {e}"));
    w.remove(0)
}

fn val(lane: u32) -> u32 {
    3 * lane + 1
}

fn check(gen: Gen, w64: bool, body: &str, want: impl Fn(u32) -> u32) {
    let w = lanes_after(gen, w64, body);
    let n = if w64 { 64 } else { 32 };
    for lane in 0..n {
        assert_eq!(
            w.regs.v(2, lane),
            want(lane),
            "{gen} w{n} `{body}` lane {lane}"
        );
    }
}

fn configs() -> Vec<(Gen, bool)> {
    vec![
        (Gen::Gfx9, true),
        (Gen::Gfx10, false),
        (Gen::Gfx10, true),
        (Gen::Gfx11, false),
        (Gen::Gfx11, true),
    ]
}

#[test]
fn dpp_row_controls_and_bound_ctrl() {
    for (gen, w64) in configs() {
        // quad_perm [2,3,0,1]: lane reads its quad's lane (j + 2) % 4
        check(
            gen,
            w64,
            "v_mov_b32_dpp v2, v1 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf",
            |l| val((l & !3) | ((l + 2) & 3)),
        );
        // row_shr:3 without bound_ctrl: the first 3 lanes of each row keep their value
        check(
            gen,
            w64,
            "v_mov_b32_dpp v2, v1 row_shr:3 row_mask:0xf bank_mask:0xf",
            |l| if l % 16 >= 3 { val(l - 3) } else { OLD },
        );
        // ... and with bound_ctrl they are written with 0
        check(
            gen,
            w64,
            "v_mov_b32_dpp v2, v1 row_shr:3 row_mask:0xf bank_mask:0xf bound_ctrl:1",
            |l| if l % 16 >= 3 { val(l - 3) } else { 0 },
        );
        check(
            gen,
            w64,
            "v_mov_b32_dpp v2, v1 row_mirror row_mask:0xf bank_mask:0xf",
            |l| val((l & !15) + 15 - l % 16),
        );
        check(
            gen,
            w64,
            "v_mov_b32_dpp v2, v1 row_half_mirror row_mask:0xf bank_mask:0xf",
            |l| val((l & !7) + 7 - l % 8),
        );
        // row_mask 0xa: only rows 1 and 3 execute; bank_mask 0x5: banks 0 and 2
        check(
            gen,
            w64,
            "v_mov_b32_dpp v2, v1 row_shl:1 row_mask:0xa bank_mask:0x5",
            |l| {
                let (row, bank) = (l / 16, l % 16 / 4);
                if row % 2 == 1 && bank % 2 == 0 && l % 16 < 15 {
                    val(l + 1)
                } else {
                    OLD
                }
            },
        );
        // a VOP2 DPP op: v2 = v1[lane-1] + v1 where the source exists
        let add = if gen == Gen::Gfx9 {
            "v_add_u32_dpp"
        } else {
            "v_add_nc_u32_dpp"
        };
        check(
            gen,
            w64,
            &format!("{add} v2, v1, v1 row_shr:1 row_mask:0xf bank_mask:0xf"),
            |l| {
                if l % 16 >= 1 {
                    val(l - 1) + val(l)
                } else {
                    OLD
                }
            },
        );
        if gen == Gen::Gfx9 {
            check(
                gen,
                w64,
                "v_mov_b32_dpp v2, v1 wave_shr:1 row_mask:0xf bank_mask:0xf",
                |l| if l >= 1 { val(l - 1) } else { OLD },
            );
            // row_bcast:15 to rows 1 and 3, row_bcast:31 to rows 2 and 3
            check(
                gen,
                w64,
                "v_mov_b32_dpp v2, v1 row_bcast:15 row_mask:0xa bank_mask:0xf",
                |l| {
                    if (l / 16) % 2 == 1 {
                        val(l / 16 * 16 - 1)
                    } else {
                        OLD
                    }
                },
            );
            check(
                gen,
                w64,
                "v_mov_b32_dpp v2, v1 row_bcast:31 row_mask:0xc bank_mask:0xf",
                |l| if l >= 32 { val(31) } else { OLD },
            );
        } else {
            check(
                gen,
                w64,
                "v_mov_b32_dpp v2, v1 row_share:5 row_mask:0xf bank_mask:0xf",
                |l| val((l & !15) + 5),
            );
            check(
                gen,
                w64,
                "v_mov_b32_dpp v2, v1 row_xmask:6 row_mask:0xf bank_mask:0xf",
                |l| val((l & !15) | ((l % 16) ^ 6)),
            );
        }
    }
}

#[test]
fn dpp_inactive_source_lanes() {
    for (gen, w64) in configs() {
        // exec = even lanes; quad_perm [1,0,3,2] reads odd (inactive) lanes: without
        // bound_ctrl nothing is written, with it the active lanes get 0
        let (lo, hi) = (0x5555_5555u32, 0x5555_5555u32);
        let set = if w64 {
            format!("s_mov_b32 exec_lo, {lo:#x}\ns_mov_b32 exec_hi, {hi:#x}")
        } else {
            format!("s_mov_b32 exec_lo, {lo:#x}")
        };
        check(
            gen,
            w64,
            &format!("{set}\nv_mov_b32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf"),
            |_| OLD,
        );
        check(
            gen,
            w64,
            &format!(
                "{set}\nv_mov_b32_dpp v2, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1"
            ),
            |l| if l % 2 == 0 { 0 } else { OLD },
        );
    }
}

#[test]
fn permlanes() {
    for (gen, w64) in configs() {
        if gen == Gen::Gfx9 {
            continue;
        }
        // v_permlanex16: lane i reads lane sel[i % 16] of the other row of its half
        let sel: [u32; 16] = [7, 3, 15, 0, 1, 2, 9, 9, 4, 5, 6, 8, 10, 11, 12, 14];
        let lo = (0..8).fold(0u32, |a, k| a | sel[k] << (4 * k));
        let hi = (0..8).fold(0u32, |a, k| a | sel[k + 8] << (4 * k));
        check(
            gen,
            w64,
            &format!(
                "s_mov_b32 s4, {lo:#x}\ns_mov_b32 s5, {hi:#x}\nv_permlanex16_b32 v2, v1, s4, s5"
            ),
            |l| val((l / 16 ^ 1) * 16 + sel[(l % 16) as usize]),
        );
        if gen == Gen::Gfx11 && w64 {
            check(gen, w64, "v_permlane64_b32 v2, v1", |l| val(l ^ 32));
        }
    }
}

#[test]
fn ds_bpermute_reach() {
    for (gen, w64) in configs() {
        let n: u32 = if w64 { 64 } else { 32 };
        // every lane asks for lane (5·lane + 3) % n: address = 4 · that
        let body = format!(
            "v_mul_u32_u24 v3, 5, v0\nv_add_{a}u32 v3, 3, v3\nv_and_b32 v3, {m}, v3\n\
             v_lshlrev_b32 v3, 2, v3\nds_bpermute_b32 v2, v3, v1\ns_waitcnt lgkmcnt(0)",
            a = if gen == Gen::Gfx9 { "" } else { "nc_" },
            m = n - 1
        );
        check(gen, w64, &body, |l| {
            let want = (5 * l + 3) % n;
            // GFX10+ wave64: only the lane's own half is reachable (index bits [4:0])
            let from = if w64 && gen != Gen::Gfx9 {
                (l & 32) | (want & 31)
            } else {
                want
            };
            val(from)
        });
    }
}
