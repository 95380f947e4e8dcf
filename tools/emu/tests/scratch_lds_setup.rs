//! The emulator's checks for LDS across `s_barrier` and for the PAL scratch setup, on
//! programs assembled by llvm-mc-19:
//! - an `s_barrier` reached while the wave's own `ds_write` is still outstanding is a
//!   missing `s_waitcnt lgkmcnt(0)` (the emulator performs LDS writes at issue, so only
//!   this check can tell that another wave might not see it); with the wait it runs;
//! - with the PAL scratch setup (`Dispatch::pal_scratch`), a GFX9/GFX10.3 scratch access
//!   before FLAT_SCRATCH holds ring base + wave offset is an error, a wrong value is an
//!   error, and the prologue the backend emits (global table via `s_getpc_b64`, ring base
//!   bits 47:0 plus the wave offset SGPR, written to FLAT_SCRATCH) runs and keeps each
//!   lane's data private; GFX11 (architected flat scratch) needs no setup.

mod support;

use gcnc::isa::Gen;
use gcnc_emu::{ErrorKind, Memory};
use support::*;

const CONFIGS: [(Gen, bool); 5] = [
    (Gen::Gfx9, true),
    (Gen::Gfx10, false),
    (Gen::Gfx10, true),
    (Gen::Gfx11, false),
    (Gen::Gfx11, true),
];

fn lds_program(gen: Gen, wait: bool) -> String {
    let st = if gen == Gen::Gfx11 {
        "ds_store_b32"
    } else {
        "ds_write_b32"
    };
    format!(
        "v_lshlrev_b32_e32 v1, 2, v0\n{st} v1, v0\n{}s_barrier\ns_endpgm\n",
        if wait { "s_waitcnt lgkmcnt(0)\n" } else { "" }
    )
}

#[test]
fn barrier_with_an_outstanding_lds_write_is_a_missing_wait() {
    if !llvm() {
        return;
    }
    for (gen, w64) in CONFIGS {
        let t = target(gen, w64);
        let threads = 2 * t.wave.lanes();
        for wait in [false, true] {
            let code = llvm_asm(t, &lds_program(gen, wait));
            let mut mem = Memory::new();
            let r = run_cfg(t, code, threads, &[], &mut mem, |d| {
                d.lds_bytes = 4 * threads
            });
            match (wait, r) {
                (true, r) => {
                    r.unwrap_or_else(|e| panic!("{gen} w64={w64}: {e}"));
                }
                (false, Ok(_)) => panic!("{gen} w64={w64}: barrier without wait accepted"),
                (false, Err(e)) => match &e.kind {
                    ErrorKind::MissingWait {
                        counter, pending, ..
                    } => {
                        assert_eq!(*counter, "lgkmcnt", "{gen}: {e}");
                        assert!(pending.starts_with("ds_"), "{gen}: {e}");
                    }
                    _ => panic!("{gen} w64={w64}: wrong error {e}"),
                },
            }
        }
    }
}

/// Lane l stores `l + 0x100` at scratch offset 4 and loads it back into v3; with
/// `setup` the GFX9/GFX10.3 prologue runs first (user SGPR 0 = global table low half,
/// s2 = the scratch wave offset).
fn scratch_program(gen: Gen, setup: Option<u32>) -> String {
    let (st, ld) = if gen == Gen::Gfx11 {
        ("scratch_store_b32", "scratch_load_b32")
    } else {
        ("scratch_store_dword", "scratch_load_dword")
    };
    let prologue = match (gen, setup) {
        (Gen::Gfx11, _) | (_, None) => String::new(),
        (_, Some(extra)) => {
            let write = if gen == Gen::Gfx9 {
                "s_add_u32 flat_scratch_lo, s4, s2\ns_addc_u32 flat_scratch_hi, s5, 0\n".to_string()
            } else {
                "s_add_u32 s4, s4, s2\ns_addc_u32 s5, s5, 0\n\
                 s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s4\n\
                 s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s5\n"
                    .to_string()
            };
            format!(
                "s_getpc_b64 s[6:7]\ns_mov_b32 s6, s0\ns_load_dwordx2 s[4:5], s[6:7], 0x10\n\
                 s_waitcnt lgkmcnt(0)\ns_and_b32 s5, s5, 0xffff\ns_add_u32 s2, s2, {extra}\n{write}"
            )
        }
    };
    format!(
        "{prologue}v_mov_b32_e32 v1, 4\nv_add_{}u32_e32 v2, 0x100, v0\n{st} v1, v2, off\n\
         {ld} v3, v1, off\ns_waitcnt vmcnt(0)\ns_endpgm\n",
        if gen == Gen::Gfx9 { "" } else { "nc_" }
    )
}

fn run_scratch(gen: Gen, w64: bool, setup: Option<u32>) -> gcnc_emu::Result<Vec<u32>> {
    let t = target(gen, w64);
    let threads = t.wave.lanes();
    let code = llvm_asm(t, &scratch_program(gen, setup));
    let mut mem = Memory::new();
    let waves = run_cfg(t, code, threads, &[0x1000_0000, 0], &mut mem, |d| {
        d.scratch_bytes = 16;
        d.pal_scratch = true;
        assert_eq!(d.global_table_lo(), 0x1000_0000);
    })?;
    Ok(lanes(&waves[0], 3))
}

#[test]
fn pal_scratch_setup_is_required_and_checked() {
    if !llvm() {
        return;
    }
    for (gen, w64) in CONFIGS {
        let want: Vec<u32> = (0..target(gen, w64).wave.lanes())
            .map(|l| l + 0x100)
            .collect();
        let got = run_scratch(gen, w64, Some(0)).unwrap_or_else(|e| panic!("{gen}: {e}"));
        assert_eq!(got, want, "{gen} w64={w64}");
        if gen == Gen::Gfx11 {
            // architected flat scratch: no setup at all
            assert_eq!(run_scratch(gen, w64, None).unwrap(), want);
            continue;
        }
        for setup in [None, Some(16)] {
            match run_scratch(gen, w64, setup) {
                Err(e) if matches!(e.kind, ErrorKind::ScratchSetup(_)) => {}
                other => panic!("{gen} w64={w64} setup={setup:?}: {other:?}"),
            }
        }
    }
}
