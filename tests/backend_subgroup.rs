//! Subgroup operations compiled from tests/backend/subgroup.ir (clustered reductions of
//! every size, read_invocation, shuffles with variable index / mask / delta, quad
//! broadcast of a variable lane, boolean reductions) run on the emulator for gfx900 wave64 and gfx1030 /
//! gfx1100 in wave32 and wave64; each invocation's outputs are compared with values
//! computed here from the input and the subgroup layout (lanes t % size of subgroup
//! t / size). Results the operations leave undefined (shuffle sources outside the
//! subgroup) are not compared. The same file is disassembled by LLVM in backend_elf.rs.

mod backend_support;

use backend_support::*;
use gcnc::binary::UserData;
use gcnc::isa::{Gen, Wave};
use gcnc_emu::{BufferDesc, Memory};

const CONFIGS: [(Gen, Wave); 5] = [
    (Gen::Gfx9, Wave::W64),
    (Gen::Gfx10, Wave::W32),
    (Gen::Gfx10, Wave::W64),
    (Gen::Gfx11, Wave::W32),
    (Gen::Gfx11, Wave::W64),
];

/// The expected 17 output dwords of invocation `t` (None: undefined, not compared).
fn expect(x: &[u32], t: usize, sz: usize) -> [Option<u32>; 17] {
    let lane = t % sz;
    let sub = t - lane;
    let cluster = |n: usize| {
        let n = n.min(sz);
        &x[t / n * n..t / n * n + n]
    };
    let in_sub = |l: usize| x[sub + l];
    let whole = &x[sub..sub + sz];
    let lt = |v: &u32, k: u32| *v < k;
    let n_lt = |k: u32| whole.iter().filter(|v| lt(v, k)).count();
    [
        Some(cluster(2).iter().fold(0u32, |a, b| a.wrapping_add(*b))),
        cluster(4).iter().min().copied(),
        cluster(8).iter().max().copied(),
        Some(cluster(16).iter().fold(0, |a, b| a ^ b)),
        Some(cluster(32).iter().fold(0u32, |a, b| a.wrapping_add(*b))),
        cluster(64)
            .iter()
            .map(|v| *v as i32)
            .max()
            .map(|v| v as u32),
        Some(in_sub(5)),
        Some(in_sub((lane * 7 + 3) & (sz - 1))),
        (lane >= 1).then(|| in_sub(lane - 1)),
        Some(in_sub((lane & !3) | ((lane + 1) & 3))),
        Some(in_sub(lane ^ ((lane >> 3) & 7))),
        (lane + 9 < sz).then(|| in_sub(lane + 9)),
        Some((n_lt(0xf000_0000) == sz) as u32),
        Some((n_lt(0xf000_0000) > 0) as u32),
        Some((n_lt(0xf000_0000) % 2) as u32),
        Some((n_lt(0x1000_0000) == sz) as u32),
        // shuffle with a uniform index: workgroup id (0) + 9
        Some(in_sub(9)),
    ]
}

#[test]
fn subgroup_lane_ops_on_emulator() {
    const SETS: u64 = 0x1_0000;
    const IN: u64 = 0x10_0000;
    const OUT: u64 = 0x20_0000;
    let ir = std::fs::read_to_string("tests/backend/subgroup.ir").unwrap();
    let input: Vec<u32> = (0..64u32)
        .map(|k| {
            (
                k,
                k.wrapping_mul(2654435761).rotate_left(k % 13) ^ 0x5bd1_e995,
            )
        })
        // the first 32 are small, so an all-lanes vote holds for some subgroups only
        .map(|(k, v)| if k < 32 { v & 0x0fff_ffff } else { v })
        .collect();
    for (g, w) in CONFIGS {
        let c = compile_ir(&ir, g, w);
        let mut d = gcnc_emu::Dispatch::from_elf(&c.elf, Some(w)).unwrap();
        let mut mem = Memory::new();
        mem.map(SETS, 4096);
        mem.map(IN, 4096);
        mem.map(OUT, 64 * 128);
        for (k, v) in input.iter().enumerate() {
            mem.write_u32(IN + 4 * k as u64, *v).unwrap();
        }
        for (k, v) in BufferDesc::raw(g, IN, 256).iter().enumerate() {
            mem.write_u32(SETS + 4 * k as u64, *v).unwrap();
        }
        for (k, v) in BufferDesc::raw(g, OUT, 64 * 128).iter().enumerate() {
            mem.write_u32(SETS + 16 + 4 * k as u64, *v).unwrap();
        }
        assert_eq!(
            c.program.abi.user_sgprs,
            vec![UserData::Entry(2), UserData::Entry(3)]
        );
        d.user_sgprs = vec![SETS as u32, (SETS >> 32) as u32];
        gcnc_emu::run(&d, &mut mem)
            .unwrap_or_else(|e| panic!("{} {w:?}: {e}\n{}", g.mcpu(), c.asm().unwrap()));
        let sz = w.lanes() as usize;
        for t in 0..64usize {
            for (j, want) in expect(&input, t, sz).into_iter().enumerate() {
                let got = mem.read_u32(OUT + 128 * t as u64 + 4 * j as u64).unwrap();
                if let Some(want) = want {
                    assert_eq!(
                        got,
                        want,
                        "{} {w:?} invocation {t} output {j}\n{}",
                        g.mcpu(),
                        c.asm().unwrap()
                    );
                }
            }
        }
    }
}
