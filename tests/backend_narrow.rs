//! tests/backend/narrow.ir (8/16-bit values, f16, packing built-ins, frexp, narrow stores)
//! compiled for every configuration and run on the emulator with its strict checks; every
//! lane's 128-byte output record is compared with values computed here in Rust.

mod backend_support;

use backend_support::*;
use gcnc::binary::UserData;
use gcnc_emu::{BufferDesc, Dispatch, Memory};

const PUSH: u64 = 0x1_0000;
const SETS: u64 = 0x2_0000;
const OUT: u64 = 0x10_0000;

/// f32 → f16 bits, round to nearest even; only zero and the normal f16 range occur here.
fn f16_bits(x: f32) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x == 0.0 {
        return sign;
    }
    let a = x.abs() as f64;
    let mut e = ((a.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    assert!((-14..=15).contains(&e), "outside the normal f16 range: {x}");
    let mut q = ((a / 2f64.powi(e) - 1.0) * 1024.0).round_ties_even() as u16;
    if q == 1024 {
        e += 1;
        q = 0;
    }
    sign | ((e + 15) as u16) << 10 | q
}

/// f16 bits → value (normal numbers and zero).
fn f16_value(h: u16) -> f32 {
    let e = (h >> 10 & 0x1f) as i32;
    let v = if e == 0 && h & 0x3ff == 0 {
        0.0
    } else {
        (1.0 + (h & 0x3ff) as f64 / 1024.0) * 2f64.powi(e - 15)
    };
    (if h & 0x8000 != 0 { -v } else { v }) as f32
}

fn within_1ulp(got: u32, want: f64) -> bool {
    let g = f32::from_bits(got) as f64;
    let w = want as f32;
    let ulp = (w.next_up() - w) as f64;
    (g - want).abs() <= ulp
}

/// The first 16 dwords lane `t` writes; dwords 12 and 13 (unpacks) are compared within
/// 1 ULP instead and left 0 here.
fn expect(t: u32, p: u32) -> [u32; 16] {
    let x16 = t.wrapping_mul(1237).wrapping_add(p) as u16;
    let xs = x16 as i16;
    let y16 = (3 * t + 1) as u16;
    let ys = y16 as i16;
    let a = p as u16 as i16;
    let hz = {
        let hy = y16 as f32 + 0.5;
        f16_value(f16_bits(hy * hy))
    };
    let f = t as f32;
    let lo = f16_bits(f * f32::from_bits(0x3dcc_cccd));
    let hi = f16_bits(-f);
    let g = f * (1.0 / 64.0);
    let snorm8 = |v: f32| ((v.clamp(-1.0, 1.0) * 127.0).round_ties_even() as i32 as u8) as u32;
    let unorm16 = |v: f32| (v.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u32;
    let v = f.mul_add(0.75, f32::from_bits(0x3dcc_cccd));
    let e = ((v.to_bits() >> 23) & 0xff) as i32 - 126;
    let mant = v / 2f32.powi(e);
    [
        (xs >> (y16 & 15)) as i32 as u32,
        (x16 / (y16 | 1)) as u32,
        (xs < ys) as u32 + 2 * (x16 < y16) as u32,
        xs.min(ys) as i32 as u32,
        a.wrapping_mul(3).wrapping_add(a >> 2) as i32 as u32,
        if a < -5 { 111 } else { 222 },
        hz.to_bits(),
        (hz < 1000.0) as u32,
        lo as u32 | (hi as u32) << 16,
        (f16_value(lo) + f16_value(hi)).to_bits(),
        snorm8(g) | snorm8(-2.0 * g) << 8 | snorm8(0.3) << 16 | snorm8(-1.5) << 24,
        unorm16(g) | unorm16(f32::from_bits(0x3f33_3333)) << 16,
        0,
        0,
        mant.to_bits(),
        e as u32,
    ]
}

#[test]
fn narrow_values_on_emulator() {
    let ir = std::fs::read_to_string("tests/backend/narrow.ir").unwrap();
    for p in [0u32, 0xfff0, 40000, 7, 0x8765_4321] {
        for (g, w) in CONFIGS {
            let c = compile_ir(&ir, g, w);
            let mut d = Dispatch::from_elf(&c.elf, Some(w)).unwrap();
            let mut mem = Memory::new();
            mem.map(PUSH, 4096);
            mem.map(SETS, 4096);
            mem.map(OUT, 8192);
            mem.write_u32(PUSH, p).unwrap();
            for k in 0..2048u64 {
                mem.write_u32(OUT + 4 * k, 0xaaaa_aaaa).unwrap();
            }
            for (k, v) in BufferDesc::raw(g, OUT, 8192).iter().enumerate() {
                mem.write_u32(SETS + 4 * k as u64, *v).unwrap();
            }
            d.user_sgprs = c
                .program
                .abi
                .user_sgprs
                .iter()
                .map(|u| match *u {
                    UserData::Entry(0) => PUSH as u32,
                    UserData::Entry(2) => SETS as u32,
                    UserData::Entry(_) => 0,
                    ref other => panic!("unexpected user data {other:?}"),
                })
                .collect();
            gcnc_emu::run(&d, &mut mem)
                .unwrap_or_else(|e| panic!("{} {w:?}: {e}\n{}", g.mcpu(), c.asm().unwrap()));
            for t in 0..64u32 {
                let base = OUT + 128 * t as u64;
                let rd = |k: u64| mem.read_u32(base + 4 * k).unwrap();
                let want = expect(t, p);
                let at = |k: usize| format!("{} {w:?} p={p:#x} lane {t} dword {k}", g.mcpu());
                for k in (0..12).chain(14..16) {
                    assert_eq!(rd(k as u64), want[k], "{}\n{}", at(k), c.asm().unwrap());
                }
                let wv = t.wrapping_mul(0x0103_0507);
                let q = (wv >> 8) as u8 as i8 as f64;
                assert!(within_1ulp(rd(12), (q / 127.0).max(-1.0)), "{}", at(12));
                assert!(
                    within_1ulp(rd(13), (wv >> 16) as f64 / 65535.0),
                    "{}",
                    at(13)
                );
                let x16 = t.wrapping_mul(1237).wrapping_add(p) & 0xffff;
                let y16 = 3 * t + 1;
                assert_eq!(rd(16), x16 | y16 << 16, "{}", at(16));
                let x8 = x16 & 0xff;
                assert_eq!(
                    rd(17),
                    0xaa | x8 << 8 | (x8 ^ 0xf0) << 16 | 0xaa << 24,
                    "{}",
                    at(17)
                );
                // 16-bit push constant at byte 2, 8-bit at byte 1, quantizeToF16
                let lo = f16_bits(t as f32 * f32::from_bits(0x3dcc_cccd));
                assert_eq!(rd(18), (p >> 16) as u16 as i16 as i32 as u32, "{}", at(18));
                assert_eq!(rd(19), 0, "{}: t·1e-7 is an f16 denormal → +0", at(19));
                assert_eq!(rd(20), f16_value(lo).to_bits(), "{}", at(20));
                assert_eq!(rd(21), (p >> 8) & 0xff, "{}", at(21));
            }
        }
    }
}
