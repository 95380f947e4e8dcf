//! 64-bit arithmetic and buffer device addresses on the emulator: `tests/backend/wide64.ir`
//! on gfx900 wave64 and gfx1030/gfx1100 in wave32 and wave64 (every strict emulator check
//! on), its GLOBAL stores and atomics compared per lane with Rust's i64/u64/f64 arithmetic.
//! The selection forms it must take (saddr + offset, folded immediates, 64-bit vaddr with
//! `off`, 64-bit push-constant loads, the f64 division sequence) are checked on the
//! disassembly. (`tests/backend_elf.rs` checks the same shader with llvm-objdump-19.)

mod backend_support;

use backend_support::*;
use gcnc::binary::UserData;
use gcnc_emu::{Dispatch, Memory};

const PUSH: u64 = 0x1_0000;
const IN: u64 = 0x10_0000;
const OUT: u64 = 0x20_0000;

fn inputs() -> Vec<u64> {
    // 64 per-lane values (signed and unsigned extremes, small and large) and the uniform one
    let mut v: Vec<u64> = (0..64u64)
        .map(|k| {
            k.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(k as u32 % 61)
                >> (k % 5 * 13)
        })
        .collect();
    v[0] = i64::MIN as u64;
    v[1] = u64::MAX;
    v[2] = 0;
    v[3] = 999;
    v[4] = (-1001i64) as u64;
    v[5] = i64::MAX as u64;
    v.push(0x0000_0123_4567_89ab);
    v
}

/// The 14 values lane `i` stores at `OUT + 128 i`.
fn expect(i: u64, x: u64, u: u64) -> [u64; 14] {
    let (sx, su) = (x as i64, u as i64);
    let f = i as f64;
    let mul = x.wrapping_mul(u);
    let sq = u.wrapping_mul(u);
    [
        mul,
        sq,
        x >> (i & 63),
        (sx >> 7) as u64,
        u << 7,
        sx.min(su) as u64,
        x.max(u),
        x / (u | 1),
        (sx % 1000) as u64,
        imod(sx, -7) as u64,
        (f / 3.0).to_bits(),
        f.sqrt().to_bits(),
        (f.sqrt() + (f / 3.0).floor()).to_bits(),
        if x < u { mul } else { sq },
    ]
}

/// GLSL/SPIR-V `mod` for integers (the sign of the divisor).
fn imod(x: i64, y: i64) -> i64 {
    let r = x.wrapping_rem(y);
    if r != 0 && (r < 0) != (y < 0) {
        r + y
    } else {
        r
    }
}

#[test]
fn wide64_on_emulator() {
    let ir = std::fs::read_to_string("tests/backend/wide64.ir").unwrap();
    let input = inputs();
    let u = input[64];
    for (g, w) in CONFIGS {
        let c = compile_ir(&ir, g, w);
        let mut d = Dispatch::from_elf(&c.elf, Some(w)).unwrap();
        let mut mem = Memory::new();
        mem.map(PUSH, 4096);
        mem.map(IN, 4096);
        mem.map(OUT, 0x7000);
        mem.write(PUSH, &IN.to_le_bytes()).unwrap();
        mem.write(PUSH + 8, &OUT.to_le_bytes()).unwrap();
        for (k, v) in input.iter().enumerate() {
            mem.write(IN + 8 * k as u64, &v.to_le_bytes()).unwrap();
        }
        assert_eq!(
            c.program.abi.user_sgprs,
            vec![UserData::Entry(0), UserData::Entry(1)]
        );
        d.user_sgprs = vec![PUSH as u32, (PUSH >> 32) as u32];
        gcnc_emu::run(&d, &mut mem)
            .unwrap_or_else(|e| panic!("{} {w:?}: {e}\n{}", g.mcpu(), c.asm().unwrap()));
        let rd = |a: u64| {
            let b = mem.read_vec(a, 8).unwrap();
            u64::from_le_bytes(b.try_into().unwrap())
        };
        let mut cas_winners = 0;
        for i in 0..64u64 {
            let x = input[i as usize];
            let want = expect(i, x, u);
            for (k, v) in want.iter().enumerate() {
                let got = rd(OUT + 128 * i + 8 * k as u64);
                assert_eq!(
                    got,
                    *v,
                    "{} {w:?} lane {i} value {k}\n{}",
                    g.mcpu(),
                    c.asm().unwrap()
                );
            }
            // 64-bit vaddr form (sign-extended 32-bit offset)
            assert_eq!(rd(OUT + 0x2000 + 128 * i), x, "{} {w:?} lane {i}", g.mcpu());
            // the compare-swap's returned old value: 0 for the one lane that won
            let old = rd(OUT + 128 * i + 0x5000);
            if old == 0 {
                cas_winners += 1;
            } else {
                assert!(
                    input[..64].contains(&old),
                    "{} {w:?}: cmpswap returned {old:#x}",
                    g.mcpu()
                );
            }
        }
        let sum = input[..64].iter().fold(0u64, |a, b| a.wrapping_add(*b));
        assert_eq!(
            rd(OUT + 0x4000),
            sum,
            "{} {w:?}: 64-bit atomic add",
            g.mcpu()
        );
        assert_eq!(
            mem.read_u32(OUT + 0x4008).unwrap(),
            63,
            "{} {w:?}: 32-bit atomic umax",
            g.mcpu()
        );
        let swapped = rd(OUT + 0x4010);
        assert!(input[..64].contains(&swapped), "{} {w:?}", g.mcpu());
        // lane 2 holds 0, so every lane after the winner may also see 0 and succeed
        assert!(cas_winners >= 1, "{} {w:?}", g.mcpu());
    }
}

#[test]
fn wide64_selection_forms() {
    let ir = std::fs::read_to_string("tests/backend/wide64.ir").unwrap();
    for (g, w) in CONFIGS {
        let asm = compile_ir(&ir, g, w).asm().unwrap();
        let has = |s: &str| asm.lines().any(|l| l.contains(s));
        let (load2, store2) = if g == gcnc::isa::Gen::Gfx11 {
            ("global_load_b64", "global_store_b64")
        } else {
            ("global_load_dwordx2", "global_store_dwordx2")
        };
        let smem2 = if g == gcnc::isa::Gen::Gfx11 {
            "s_load_b128"
        } else {
            "s_load_dwordx4"
        };
        // both pointers come from one 16-byte push-constant load (or two 8-byte ones)
        assert!(
            has(smem2) || has("s_load_dwordx2") || has("s_load_b64"),
            "{asm}"
        );
        // saddr + 32-bit offset, with folded immediates
        assert!(
            asm.lines()
                .any(|l| l.contains(store2) && l.contains(", s[") && l.contains("offset:8")),
            "{} {w:?}\n{asm}",
            g.mcpu()
        );
        // the uniform in[64]: immediate 0x200 on a uniform base
        assert!(
            asm.lines()
                .any(|l| l.contains(load2) && l.contains(", s[") && l.contains("offset:512")),
            "{} {w:?}\n{asm}",
            g.mcpu()
        );
        // 64-bit vaddr with saddr off
        assert!(
            asm.lines().any(|l| l.contains(store2) && l.ends_with("off")
                || l.contains(store2) && l.contains(", off ")),
            "{} {w:?}\n{asm}",
            g.mcpu()
        );
        for op in [
            "v_div_scale_f64",
            "v_div_fmas_f64",
            "v_div_fixup_f64",
            "v_rsq_f64",
        ] {
            assert!(has(op), "{} {w:?}: no {op}\n{asm}", g.mcpu());
        }
    }
}
