//! Subgroup cases. Each expectation takes the subgroup size from [`Env`] and computes the
//! result for it, so the same case checks lavapipe (8 lanes) and AMD code (32 or 64 lanes):
//! the workgroups (128 invocations) are a multiple of every such size, and subgroup `s`
//! holds the invocations `s*size .. (s+1)*size` of the workgroup in order (the mapping
//! `subgroup_basic` itself checks).

use super::*;

const N: usize = 256;
const WG: usize = 128;

fn inputs_with(seed: u64, out_words: usize, gen: impl Fn(&mut Rng, usize) -> u32) -> Inputs {
    let mut r = Rng::new(seed);
    let d: Vec<u32> = (0..N).map(|i| gen(&mut r, i)).collect();
    Inputs {
        groups: [(N / WG) as u32, 1, 1],
        resources: vec![sb(0, to_bytes(&d)), sb(1, vec![0; N * out_words * 4])],
        push: vec![],
        spec: vec![],
    }
}

/// Calls `f(subgroup values, lane, global index)` for every invocation, in order.
fn per_lane<T>(d: &[u32], env: &Env, mut f: impl FnMut(&[u32], usize, usize) -> T) -> Vec<T> {
    let sz = env.subgroup_size as usize;
    let mut out = Vec::with_capacity(d.len());
    for (s, sub) in d.chunks(sz).enumerate() {
        for lane in 0..sub.len() {
            out.push(f(sub, lane, s * sz + lane));
        }
    }
    out
}

fn basic_inputs() -> Inputs {
    Inputs {
        groups: [2, 1, 1],
        resources: vec![sb(0, vec![0; N * 16])],
        push: vec![],
        spec: vec![],
    }
}

fn basic_expect(_: &Inputs, env: &Env) -> Vec<Expect> {
    let sz = env.subgroup_size;
    let mut o = Vec::new();
    for i in 0..N as u32 {
        let l = i % WG as u32;
        o.extend([
            sz,
            l % sz,
            l / sz,
            WG as u32 / sz + if l.is_multiple_of(sz) { 1000 } else { 0 },
        ]);
    }
    vec![exact(0, to_bytes(&o))]
}

fn ballot_inputs() -> Inputs {
    inputs_with(50, 7, |r, _| r.u32() & r.u32())
}

fn ballot_expect(inp: &Inputs, env: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let o = per_lane(&d, env, |sub, lane, gi| {
        let base = gi - lane;
        let p: Vec<bool> = (0..sub.len())
            .map(|j| sub[j] & 1 == 1 || (base + j) % 8 == 5)
            .collect();
        let mask: u64 = p
            .iter()
            .enumerate()
            .filter(|(_, b)| **b)
            .map(|(j, _)| 1u64 << j)
            .fold(0, |a, b| a | b);
        let count = mask.count_ones();
        let incl = (mask & (u64::MAX >> (63 - lane))).count_ones();
        let excl = (mask & ((1u64 << lane) - 1)).count_ones();
        let lsb = mask.trailing_zeros();
        let msb = 63 - mask.leading_zeros();
        [
            count,
            incl,
            excl,
            lsb,
            msb + if p[lane ^ 1] { 100 } else { 0 },
            mask as u32,
            (mask >> 32) as u32,
        ]
    });
    vec![exact(1, to_bytes(&o.concat()))]
}

fn vote_inputs() -> Inputs {
    inputs_with(51, 3, |r, i| match (i / 8) % 4 {
        0 => r.range(0, 511) as u32,
        1 => r.range(0, 999) as u32,
        2 => r.u32(),
        _ => {
            if i % 5 == 0 {
                7
            } else {
                r.range(0, 2000) as u32
            }
        }
    })
}

fn vote_expect(inp: &Inputs, env: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let o = per_lane(&d, env, |sub, _, _| {
        [
            sub.iter().all(|x| *x < 1000) as u32,
            sub.contains(&7) as u32,
            sub.iter().all(|x| x / 512 == sub[0] / 512) as u32,
        ]
    });
    vec![exact(1, to_bytes(&o.concat()))]
}

fn broadcast_inputs() -> Inputs {
    inputs_with(52, 4, |r, _| r.u32() >> 1)
}

fn broadcast_expect(inp: &Inputs, env: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let o = per_lane(&d, env, |sub, lane, _| {
        let x = sub[lane];
        let even = x & 1 == 0;
        let first = sub
            .iter()
            .find(|v| (*v & 1 == 0) == even)
            .copied()
            .unwrap_or(x);
        [
            sub[3],
            sub[0],
            if even { first * 2 } else { first + 1 },
            // bitCount(gl_SubgroupEqMask.x): the lane's bit is in .x only below lane 32
            lane as u32 + if lane < 32 { 256 } else { 0 },
        ]
    });
    vec![exact(1, to_bytes(&o.concat()))]
}

fn shuffle_inputs() -> Inputs {
    inputs_with(53, 5, |r, _| r.u32())
}

fn shuffle_expect(inp: &Inputs, env: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let sz = env.subgroup_size as usize;
    let o = per_lane(&d, env, |sub, lane, _| {
        [
            sub[(lane * 5 + 3) % sz],
            sub[lane ^ 1],
            sub[lane ^ 6],
            if lane >= 2 { sub[lane - 2] } else { 0xffff },
            if lane + 3 < sz { sub[lane + 3] } else { 0xeeee },
        ]
    });
    vec![exact(1, to_bytes(&o.concat()))]
}

fn reduce_inputs() -> Inputs {
    let mut inp = inputs_with(54, 7, |r, _| r.u32());
    inp.resources.push(sb(2, vec![0; N * 4]));
    inp
}

fn reduce_expect(inp: &Inputs, env: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let o = per_lane(&d, env, |sub, _, _| {
        [
            sub.iter().fold(0u32, |a, b| a.wrapping_add(*b)),
            *sub.iter().min().unwrap_or(&0),
            *sub.iter().max().unwrap_or(&0),
            sub.iter().fold(u32::MAX, |a, b| a & b),
            sub.iter().fold(0, |a, b| a | b),
            sub.iter().fold(0, |a, b| a ^ b),
            sub.iter().map(|v| *v as i32).min().unwrap_or(0) as u32,
        ]
    });
    let f = per_lane(&d, env, |sub, _, _| {
        sub.iter().map(|v| (v & 255) as f32 - 100.0).sum::<f32>()
    });
    vec![exact(1, to_bytes(&o.concat())), exact(2, to_bytes(&f))]
}

fn scan_inputs() -> Inputs {
    inputs_with(55, 6, |r, _| r.u32())
}

fn scan_expect(inp: &Inputs, env: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let o = per_lane(&d, env, |sub, lane, _| {
        let (before, upto) = (&sub[..lane], &sub[..=lane]);
        [
            upto.iter().fold(0u32, |a, b| a.wrapping_add(*b)),
            before.iter().fold(0u32, |a, b| a.wrapping_add(*b)),
            *upto.iter().max().unwrap_or(&0),
            before.iter().fold(u32::MAX, |a, b| a.min(*b)),
            upto.iter().fold(0, |a, b| a | b),
            before.iter().fold(0, |a, b| a ^ b),
        ]
    });
    vec![exact(1, to_bytes(&o.concat()))]
}

fn divergent_inputs() -> Inputs {
    inputs_with(56, 2, |r, _| r.u32() >> 2)
}

fn divergent_expect(inp: &Inputs, env: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let o = per_lane(&d, env, |sub, lane, _| {
        let taken = |v: u32| v.is_multiple_of(3);
        let mine = taken(sub[lane]);
        let same: Vec<(usize, u32)> = sub
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, v)| taken(*v) == mine)
            .collect();
        if mine {
            [
                same.iter().fold(0u32, |a, (_, v)| a.wrapping_add(*v)),
                same.iter().filter(|(j, _)| *j <= lane).count() as u32,
            ]
        } else {
            [
                same.iter().map(|(_, v)| *v).max().unwrap_or(0),
                same.iter()
                    .filter(|(j, _)| *j < lane)
                    .map(|(_, v)| v & 15)
                    .sum(),
            ]
        }
    });
    vec![exact(1, to_bytes(&o.concat()))]
}

fn ops_inputs() -> Inputs {
    inputs_with(57, 24, |r, _| r.u32())
}

fn ops_expect(inp: &Inputs, env: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let sz = env.subgroup_size as usize;
    let f = |v: u32| ((v & 15) as i32 - 7) as f32;
    let g = |v: u32| match v & 3 {
        0 => 0.5f32,
        1 => -1.0,
        2 => 2.0,
        _ => 1.0,
    };
    let o = per_lane(&d, env, |sub, lane, i| {
        let (before, upto) = (&sub[..lane], &sub[..=lane]);
        let w = (i / WG) as u32;
        let x = sub[lane];
        let imul = |it: &mut dyn Iterator<Item = u32>| it.fold(1u32, |a, b| a.wrapping_mul(b));
        let odd: Vec<u32> = sub.iter().copied().filter(|v| v & 1 != 0).collect();
        let even_upto = upto.iter().filter(|v| *v & 1 == 0).count() as u32;
        let even_min = sub.iter().filter(|v| *v & 1 == 0).map(|v| v & 255).min();
        [
            imul(&mut sub.iter().map(|v| (v & 6) | 1)),
            sub.iter().map(|v| *v as i32).max().unwrap() as u32,
            imul(&mut upto.iter().map(|v| ((v >> 4) & 2) | 1)),
            sub.iter().map(|v| g(*v)).product::<f32>().to_bits(),
            sub.iter()
                .map(|v| f(*v))
                .fold(f32::INFINITY, f32::min)
                .to_bits(),
            sub.iter()
                .map(|v| f(*v))
                .fold(f32::NEG_INFINITY, f32::max)
                .to_bits(),
            upto.iter().map(|v| f(*v)).sum::<f32>().to_bits(),
            before
                .iter()
                .map(|v| f(*v))
                .fold(f32::NEG_INFINITY, f32::max)
                .to_bits(),
            upto.iter().map(|v| *v as i32).min().unwrap() as u32,
            before.iter().fold(u32::MAX, |a, b| a & b),
            before.iter().map(|v| *v as i32).fold(i32::MIN, i32::max) as u32,
            imul(&mut before.iter().map(|v| (v & 2) | 1)),
            5 * sz as u32 + if sz % 2 == 1 { 7000 } else { 0 },
            3 * lane as u32 + (w + 1) * (lane as u32 + 1) * 1000,
            w + 7 + (w + 9) * 100,
            if x & 1 != 0 {
                9 * odd.len() as u32
            } else {
                2 * even_upto + 1000 * even_min.unwrap_or(0)
            },
            sub[lane ^ (sz / 2)],
            sub[lane ^ 2],
            sub[lane ^ 4],
            sub[(lane & !3) + 2],
            sub[lane ^ 1],
            sub[lane ^ 2],
            sub[lane ^ 3],
            before.iter().map(|v| g(*v)).product::<f32>().to_bits()
                ^ upto.iter().map(|v| *v as i32).max().unwrap() as u32,
        ]
    });
    vec![exact(1, to_bytes(&o.concat()))]
}

// The values subgroup_widths.comp and subgroup_widths_clustered.comp derive from each
// input word: its low u16, a small-integer f16, an f16 of 0.5 / -1 / 2 / 1, a u64, and an
// f16's bits as the shaders store them.
fn widths_h(v: u32) -> u16 {
    v as u16
}

fn widths_f(v: u32) -> f32 {
    ((v & 15) as i32 - 7) as f32
}

fn widths_g(v: u32) -> f32 {
    match v & 3 {
        0 => 0.5,
        1 => -1.0,
        2 => 2.0,
        _ => 1.0,
    }
}

fn widths_l(v: u32) -> u64 {
    ((v ^ 0x9e37_79b9) as u64) << 32 | v.wrapping_mul(2_654_435_761) as u64
}

fn widths_hb(v: f32) -> u32 {
    f32_to_f16(v) as u32
}

fn widths_inputs() -> Inputs {
    inputs_with(58, 58, |r, _| r.u32())
}

/// `subgroup_widths`: every result computed at its own width (wrapping 8/16/64-bit
/// integers, f16 and f64 values that are exact in any order).
fn widths_expect(inp: &Inputs, env: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let sz = env.subgroup_size as usize;
    let (h, f, g, hb, l) = (widths_h, widths_f, widths_g, widths_hb, widths_l);
    let sh = |v: u32| (v >> 16) as u16 as i16;
    let b = |v: u32| (v >> 8) as u8;
    let sb = |v: u32| (v >> 24) as u8 as i8;
    let fd = |v: u32| ((v & 255) as i32 - 100) as f64 * 0.25;
    let o = per_lane(&d, env, |sub, lane, i| {
        let (before, upto) = (&sub[..lane], &sub[..=lane]);
        let w = (i / WG) as u32;
        let all_eq = |it: &mut dyn Iterator<Item = u64>| {
            let v: Vec<u64> = it.collect();
            v.iter().all(|x| *x == v[0]) as u32
        };
        let mut r = vec![
            h(sub[lane ^ 1]) as u32,
            h(sub[lane ^ 5]) as u32,
            hb(f(sub[lane ^ (sz / 2)])),
            sh(sub[(lane * 5 + 3) % sz]) as i32 as u32,
            if lane >= 2 {
                b(sub[lane - 2]) as u32
            } else {
                0xffff
            },
            if lane + 3 < sz {
                sb(sub[lane + 3]) as i32 as u32
            } else {
                0xeeee
            },
            h(sub[3]) as u32,
            sh(sub[0]) as i32 as u32,
            hb(f(sub[(lane & !3) + 1])),
            b(sub[lane ^ 3]) as u32,
            sub.iter().fold(0u16, |a, v| a.wrapping_add(h(*v))) as u32,
            sub.iter().map(|v| sh(*v)).min().unwrap() as i32 as u32,
            sub.iter().map(|v| h(*v)).max().unwrap() as u32,
            sub.iter().map(|v| sb(*v)).max().unwrap() as i32 as u32,
            sub.iter().map(|v| b(*v)).min().unwrap() as u32,
            hb(sub.iter().map(|v| f(*v)).sum()),
            hb(upto.iter().map(|v| f(*v)).sum()),
            before.iter().map(|v| sh(*v)).fold(i16::MAX, i16::min) as i32 as u32,
            sub.iter().fold(0u16, |a, v| a ^ h(*v)) as u32
                | (sub.iter().fold(0u8, |a, v| a | b(*v)) as u32) << 16
                | (sub.iter().fold(0xffu8, |a, v| a & b(*v)) as u32) << 24,
            upto.iter().map(|v| sb(*v)).max().unwrap() as i32 as u32,
            before.iter().fold(0u8, |a, v| a.wrapping_add(b(*v))) as u32,
            sub.iter().fold(1u16, |a, v| a.wrapping_mul(h(*v) | 1)) as u32,
            1 | all_eq(&mut sub.iter().map(|v| h(*v) as u64)) << 1
                | 1 << 2
                | all_eq(&mut sub.iter().map(|v| f(*v).to_bits() as u64)) << 3
                | 1 << 4
                | all_eq(&mut sub.iter().map(|v| l(*v))) << 5
                | 1 << 6
                | all_eq(&mut sub.iter().map(|v| fd(*v).to_bits())) << 7
                | 1 << 8,
        ];
        let pairs: [u64; 16] = [
            l(sub[lane ^ 3]),
            l(sub[(lane * 3 + 1) % sz]),
            sub.iter().fold(0u64, |a, v| a.wrapping_add(l(*v))),
            sub.iter().map(|v| l(*v) as i64).min().unwrap() as u64,
            upto.iter().fold(0u64, |a, v| a.wrapping_add(l(*v))),
            before.iter().map(|v| l(*v)).max().unwrap_or(0),
            sub.iter().map(|v| fd(*v)).sum::<f64>().to_bits(),
            sub.iter().fold(0u64, |a, v| a ^ l(*v)),
            l(sub[5]),
            l(sub[lane ^ 1]),
            sub.iter()
                .map(|v| fd(*v))
                .fold(f64::NEG_INFINITY, f64::max)
                .to_bits(),
            upto.iter().map(|v| l(*v) as i64).min().unwrap() as u64,
            before
                .iter()
                .map(|v| fd(*v))
                .fold(0.0, |a, x| a + x)
                .to_bits(),
            sub.iter().map(|v| g(*v) as f64).product::<f64>().to_bits(),
            sub.iter().map(|v| l(*v)).min().unwrap(),
            sub.iter()
                .fold(u64::MAX, |a, v| a & (l(*v) | 0xffff_0000_ffff_0000)),
        ];
        for p in pairs {
            r.extend([p as u32, (p >> 32) as u32]);
        }
        r.push(((w + 3) as u16).wrapping_mul(sz as u16) as u32);
        let m = ((w + 1) as u64) << 40;
        r.extend([m as u32, (m >> 32) as u32]);
        r
    });
    vec![exact(1, to_bytes(&o.concat()))]
}

fn widths_clustered_inputs() -> Inputs {
    inputs_with(59, 7, |r, _| r.u32())
}

/// `subgroup_widths_clustered`: clustered reductions at 8, 16 and 64 bits (wrapping
/// integers; f16 values exact in any order).
fn widths_clustered_expect(inp: &Inputs, env: &Env) -> Vec<Expect> {
    let d = from_bytes::<u32>(data(inp, 0));
    let (h, f, g, hb, l) = (widths_h, widths_f, widths_g, widths_hb, widths_l);
    let o = per_lane(&d, env, |sub, lane, _| {
        let cluster = |n: usize| &sub[lane / n * n..lane / n * n + n];
        let mut r = vec![
            hb(cluster(4).iter().map(|v| g(*v)).product()),
            cluster(8).iter().fold(0u16, |a, v| a.wrapping_add(h(*v))) as u32,
            hb(cluster(8)
                .iter()
                .map(|v| f(*v))
                .fold(f32::NEG_INFINITY, f32::max)),
        ];
        let pairs = [
            cluster(4)
                .iter()
                .fold(1u64, |a, v| a.wrapping_mul(l(*v) | 1)),
            cluster(8).iter().map(|v| l(*v) as i64).max().unwrap() as u64,
        ];
        for p in pairs {
            r.extend([p as u32, (p >> 32) as u32]);
        }
        r
    });
    vec![exact(1, to_bytes(&o.concat()))]
}

pub fn cases() -> Vec<Case> {
    vec![
        case!("subgroup_basic", basic_inputs, basic_expect),
        case!("subgroup_ballot", ballot_inputs, ballot_expect),
        case!("subgroup_vote", vote_inputs, vote_expect),
        case!("subgroup_broadcast", broadcast_inputs, broadcast_expect),
        case!("subgroup_shuffle", shuffle_inputs, shuffle_expect),
        case!("subgroup_reduce", reduce_inputs, reduce_expect),
        case!("subgroup_scan", scan_inputs, scan_expect),
        case!("subgroup_divergent", divergent_inputs, divergent_expect),
        case!("subgroup_ops", ops_inputs, ops_expect),
        case!("subgroup_widths", widths_inputs, widths_expect),
        case!(
            "subgroup_widths_clustered",
            widths_clustered_inputs,
            widths_clustered_expect
        ),
    ]
}
