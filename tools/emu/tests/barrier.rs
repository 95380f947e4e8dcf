//! `s_barrier` end to end, programs assembled by llvm-mc-19: four waves exchange values
//! through LDS across a barrier (and the same program without it reads stale LDS, so the
//! barrier is what makes it correct); a wave that ends before the others reach the barrier
//! does not hold them on the hardware, and the strict check reports it (Vulkan requires
//! every invocation to execute the barrier); a wave that never reaches the barrier ends the run in the
//! instruction-budget error instead of a hang.
//!
//! Every program staggers its waves: wave `w` spins `8 * w` loop iterations before writing
//! its LDS slot, so under one-instruction round-robin interleaving wave 0 reaches the read
//! of wave 1's slot long before wave 1 has written it.

mod support;

use gcnc::isa::Gen;
use gcnc_emu::{ErrorKind, Memory, Result};
use support::*;

const OUT: u64 = 0x20_0000;
const WAVES: u32 = 4;
/// Value thread `tid` writes to its LDS slot.
const TAG: u32 = 0x10000;

/// gfx900 wave64; gfx1030 and gfx1100 in wave32 and wave64.
const CONFIGS: [(Gen, bool); 5] = [
    (Gen::Gfx9, true),
    (Gen::Gfx10, false),
    (Gen::Gfx10, true),
    (Gen::Gfx11, false),
    (Gen::Gfx11, true),
];

/// How the program treats the barrier and the odd wave out.
#[derive(Clone, Copy, PartialEq)]
enum Variant {
    /// All waves take part and synchronise.
    Barrier,
    /// The same program with the `s_barrier` removed (the waitcnts stay).
    NoBarrier,
    /// Wave 3 ends (`s_endpgm`) right away, before any wave reaches the barrier.
    EndsEarly,
    /// Wave 3 ends after its delay loop, while the others already wait at the barrier.
    EndsWhileWaiting,
    /// Wave 3 spins forever and never reaches the barrier.
    NeverArrives,
    /// The release waits for vmcnt only: the LDS store may still be in flight at the
    /// barrier.
    NoLdsWait,
}

/// The exchange program. s[0:1] = output address. Each taking-part wave `w` (of `n`
/// participants: 3 when wave 3 drops out, else 4) spins `8 * w` iterations, writes
/// `TAG | tid` to LDS slot `tid`, waits, meets the barrier, reads the slot of the same
/// lane in wave `(w + 1) % n` and stores it to `out[tid]`.
fn program(gen: Gen, w64: bool, v: Variant) -> String {
    let lanes = if w64 { 64 } else { 32 };
    let shift = if w64 { 6 } else { 5 };
    let n = match v {
        Variant::Barrier | Variant::NoBarrier | Variant::NoLdsWait => 4,
        _ => 3,
    };
    let (st, ld, gst, add) = match gen {
        Gen::Gfx9 => (
            "ds_write_b32",
            "ds_read_b32",
            "global_store_dword",
            "v_add_u32_e32",
        ),
        Gen::Gfx10 => (
            "ds_write_b32",
            "ds_read_b32",
            "global_store_dword",
            "v_add_nc_u32_e32",
        ),
        Gen::Gfx11 => (
            "ds_store_b32",
            "ds_load_b32",
            "global_store_b32",
            "v_add_nc_u32_e32",
        ),
    };
    // what LLVM emits around a workgroup-scope barrier: on GFX10+ stores are counted
    // by vscnt (release) and the acquire side invalidates the GL0 cache
    let (mut release, acquire) = if gen == Gen::Gfx9 {
        ("s_waitcnt vmcnt(0) lgkmcnt(0)\n", "")
    } else {
        (
            "s_waitcnt vmcnt(0) lgkmcnt(0)\n  s_waitcnt_vscnt null, 0x0\n",
            "buffer_gl0_inv\n",
        )
    };
    if v == Variant::NoLdsWait {
        release = "s_waitcnt vmcnt(0)\n";
    }
    let barrier = if v == Variant::NoBarrier {
        ""
    } else {
        "s_barrier\n"
    };
    let early = match v {
        Variant::EndsEarly => "s_cmp_eq_u32 s2, 3\n  s_cbranch_scc1 done\n",
        Variant::NeverArrives => "s_cmp_eq_u32 s2, 3\n  s_cbranch_scc1 forever\n",
        _ => "",
    };
    let late = if v == Variant::EndsWhileWaiting {
        "s_cmp_eq_u32 s2, 3\n  s_cbranch_scc1 done\n"
    } else {
        ""
    };
    format!(
        "  v_readfirstlane_b32 s2, v0\n\
           s_lshr_b32 s2, s2, {shift}\n\
           {early}\
           s_lshl_b32 s3, s2, 3\n\
           s_cmp_eq_u32 s3, 0\n\
           s_cbranch_scc1 write\n\
         delay:\n\
           s_sub_u32 s3, s3, 1\n\
           s_cmp_lg_u32 s3, 0\n\
           s_cbranch_scc1 delay\n\
         write:\n\
           {late}\
           v_lshlrev_b32_e32 v1, 2, v0\n\
           v_or_b32_e32 v2, {TAG:#x}, v0\n\
           {st} v1, v2\n\
           {release}\
           {barrier}\
           {acquire}\
           s_add_u32 s4, s2, 1\n\
           s_cmp_eq_u32 s4, {n}\n\
           s_cselect_b32 s4, 0, s4\n\
           s_sub_u32 s5, s4, s2\n\
           s_mul_i32 s5, s5, {lanes}\n\
           {add} v3, s5, v0\n\
           v_lshlrev_b32_e32 v3, 2, v3\n\
           {ld} v4, v3\n\
           s_waitcnt lgkmcnt(0)\n\
           {gst} v1, v4, s[0:1]\n\
         done:\n\
           s_endpgm\n\
         forever:\n\
           s_branch forever\n"
    )
}

/// Runs `v` on a 4-wave workgroup; returns the run's result and `out[]` per thread
/// (`u32::MAX` where nothing was stored).
fn exchange(gen: Gen, w64: bool, v: Variant) -> (Result<()>, Vec<u32>) {
    exchange_checked(gen, w64, v, true)
}

/// [`exchange`] with the divergent-barrier check (`Checks::barriers`) on or off.
fn exchange_checked(gen: Gen, w64: bool, v: Variant, barriers: bool) -> (Result<()>, Vec<u32>) {
    let t = target(gen, w64);
    let lanes = t.wave.lanes();
    let threads = WAVES * lanes;
    let code = llvm_asm(t, &program(gen, w64, v));
    let mut mem = Memory::new();
    mem.map(OUT, 4 * threads as u64);
    for i in 0..threads {
        mem.write_u32(OUT + 4 * i as u64, u32::MAX).unwrap();
    }
    let r = run_cfg(t, code, threads, &[OUT as u32, 0], &mut mem, |d| {
        d.lds_bytes = 4 * threads;
        d.budget = 20_000;
        d.checks.barriers = barriers;
    })
    .map(|_| ());
    let out = (0..threads)
        .map(|i| mem.read_u32(OUT + 4 * i as u64).unwrap())
        .collect();
    (r, out)
}

/// What a participating thread `tid` of wave `w` stores after a correct exchange among
/// `n` waves.
fn expected(lanes: u32, n: u32, tid: u32) -> u32 {
    let (w, lane) = (tid / lanes, tid % lanes);
    TAG | ((w + 1) % n * lanes + lane)
}

#[test]
fn barrier_orders_lds_exchange_between_waves() {
    if !llvm() {
        return;
    }
    for (gen, w64) in CONFIGS {
        let lanes = if w64 { 64 } else { 32 };
        let (r, out) = exchange(gen, w64, Variant::Barrier);
        r.unwrap_or_else(|e| panic!("{gen} w64={w64}: {e}"));
        for (tid, &got) in out.iter().enumerate() {
            assert_eq!(
                got,
                expected(lanes, WAVES, tid as u32),
                "{gen} w64={w64}: thread {tid}"
            );
        }
    }
}

#[test]
fn lds_access_outstanding_at_the_barrier_is_reported() {
    if !llvm() {
        return;
    }
    for (gen, w64) in CONFIGS {
        let (r, _) = exchange(gen, w64, Variant::NoLdsWait);
        let e = r.expect_err("LDS store outstanding at s_barrier");
        match &e.kind {
            gcnc_emu::ErrorKind::MissingWait {
                reg,
                counter,
                pending,
                ..
            } => {
                assert_eq!(*counter, "lgkmcnt", "{gen}");
                assert!(reg.contains("s_barrier"), "{gen}: {e}");
                assert!(pending.starts_with("ds_"), "{gen}: {e}");
            }
            k => panic!("{gen} w64={w64}: {k}"),
        }
        assert!(e.inst.as_deref().unwrap_or("").contains("s_barrier"), "{e}");
    }
}

#[test]
fn without_the_barrier_a_wave_reads_stale_lds() {
    if !llvm() {
        return;
    }
    for (gen, w64) in CONFIGS {
        let lanes = if w64 { 64 } else { 32 };
        let (r, out) = exchange(gen, w64, Variant::NoBarrier);
        // the run itself is legal code; what goes wrong is the data: wave 0 reads wave
        // 1's slot while wave 1 is still in its delay loop (LDS starts zeroed)
        r.unwrap_or_else(|e| panic!("{gen} w64={w64}: {e}"));
        for lane in 0..lanes {
            assert_eq!(out[lane as usize], 0, "{gen} w64={w64}: wave 0 lane {lane}");
        }
        // wave 3 reads wave 0's slot, written long before: correct even without it
        for tid in 3 * lanes..4 * lanes {
            assert_eq!(out[tid as usize], expected(lanes, WAVES, tid));
        }
    }
}

/// The hardware's rule, with the strict check off: an ended wave drops out of the barrier.
/// With it on (the default), the barrier the ended wave skipped is reported.
#[test]
fn a_wave_that_ends_does_not_hold_the_barrier() {
    if !llvm() {
        return;
    }
    for v in [Variant::EndsEarly, Variant::EndsWhileWaiting] {
        for (gen, w64) in CONFIGS {
            let lanes = if w64 { 64 } else { 32 };
            let (r, _) = exchange(gen, w64, v);
            let e = r.expect_err("a wave skipped the barrier");
            assert!(
                matches!(&e.kind, ErrorKind::DivergentBarrier(m) if m.starts_with("wave 3 ended without reaching it")),
                "{gen} w64={w64}: {e}"
            );
            assert_eq!(e.inst.as_deref(), Some("s_barrier"), "{e}");
            let (r, out) = exchange_checked(gen, w64, v, false);
            r.unwrap_or_else(|e| panic!("{gen} w64={w64}: {e}"));
            for (tid, &got) in out.iter().enumerate() {
                let tid = tid as u32;
                let want = if tid < 3 * lanes {
                    expected(lanes, 3, tid)
                } else {
                    u32::MAX
                };
                assert_eq!(got, want, "{gen} w64={w64}: thread {tid}");
            }
        }
    }
}

#[test]
fn a_wave_that_never_arrives_ends_in_the_budget_error() {
    if !llvm() {
        return;
    }
    for (gen, w64) in CONFIGS {
        let (r, out) = exchange(gen, w64, Variant::NeverArrives);
        let e = r.expect_err("waves wait forever");
        assert_eq!(e.kind, ErrorKind::Budget(20_000), "{gen} w64={w64}: {e}");
        assert!(
            out.iter().all(|&x| x == u32::MAX),
            "{gen} w64={w64}: nothing passes the barrier"
        );
    }
}
