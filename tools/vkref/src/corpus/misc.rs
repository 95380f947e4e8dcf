//! Buffer device addresses, register pressure (VGPR and SGPR spilling) and GLSL.std.450
//! math. Transcendental expectations are computed in f64 and compared within the bounds
//! stated in `math_std450.comp`.

use super::*;

// Particle (std430, 32 bytes): pos vec4 @0, id @16, mass @20, padding @24..32.
const PARTS: usize = 128;
const COUNT: u32 = 100;

fn bda_inputs() -> Inputs {
    let mut r = Rng::new(60);
    let mut parts = Vec::new();
    for _ in 0..PARTS {
        let mut p = vec![0x77u8; 32];
        for k in 0..3 {
            put_at(&mut p, 4 * k, r.range(-50, 50) as f32);
        }
        put_at(&mut p, 12, r.range(0, 1000) as f32);
        put_at(&mut p, 16, r.u32());
        put_at(&mut p, 20, r.range(-8, 8) as f32);
        parts.extend(p);
    }
    let mut push = vec![0u8; 24];
    put_at(&mut push, 16, COUNT);
    Inputs {
        groups: [2, 1, 1],
        resources: vec![
            Resource::Address {
                data: parts,
                target: AddressTarget::Push(0),
            },
            Resource::Address {
                data: to_bytes(&[0xdddd_ddddu32; PARTS]),
                target: AddressTarget::Push(8),
            },
        ],
        push,
        spec: vec![],
    }
}

fn bda_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let mut parts = data(inp, 0).to_vec();
    let mut words = from_bytes::<u32>(data(inp, 1));
    for i in 0..COUNT as usize {
        let p = &mut parts[32 * i..32 * i + 32];
        let mass = at::<f32>(p, 20);
        for (k, s) in [1.0f32, 2.0, 3.0].iter().enumerate() {
            let v = at::<f32>(p, 4 * k) + s * mass;
            p[4 * k..4 * k + 4].copy_from_slice(&v.to_le_bytes());
        }
        let id = at::<u32>(p, 16) ^ 0xabcd;
        p[16..20].copy_from_slice(&id.to_le_bytes());
        words[i] = id.wrapping_add(at::<f32>(p, 12) as u32);
    }
    vec![exact(0, parts), exact(1, to_bytes(&words))]
}

const NODES: usize = 512;
const LANES: usize = 128;

fn list_inputs() -> Inputs {
    let mut r = Rng::new(61);
    let mut nodes = Vec::new();
    for j in 0..NODES {
        let target = j + r.range(1, 6) as usize;
        let next = if target < NODES && !r.u32().is_multiple_of(16) {
            target as u32 + 1
        } else {
            0
        };
        nodes.extend([r.u32(), next]);
    }
    Inputs {
        groups: [(LANES / 64) as u32, 1, 1],
        resources: vec![
            Resource::Address {
                data: to_bytes(&nodes),
                target: AddressTarget::Push(0),
            },
            Resource::Address {
                data: vec![0; LANES * 4],
                target: AddressTarget::Push(8),
            },
        ],
        push: vec![0; 16],
        spec: vec![],
    }
}

fn list_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let nodes = from_bytes::<u32>(data(inp, 0));
    let o: Vec<u32> = (0..LANES)
        .map(|i| {
            let (mut cur, mut sum, mut steps) = (i, 0u32, 0u32);
            for _ in 0..12 {
                let (value, next) = (nodes[2 * cur], nodes[2 * cur + 1]);
                sum = sum.wrapping_mul(31).wrapping_add(value);
                if next != 0 {
                    cur = next as usize - 1;
                    steps += 1;
                }
            }
            sum ^ (steps << 24)
        })
        .collect();
    vec![exact(1, to_bytes(&o))]
}

fn spill_vgpr_inputs() -> Inputs {
    let mut r = Rng::new(62);
    let d: Vec<u32> = (0..128).map(|_| r.u32()).collect();
    Inputs {
        groups: [2, 1, 1],
        resources: vec![sb(0, to_bytes(&d)), sb(1, vec![0; 128 * 8])],
        push: vec![],
        spec: vec![],
    }
}

fn spill_vgpr_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    const N: usize = 300;
    let mut o = Vec::new();
    for mut seed in from_bytes::<u32>(data(inp, 0)) {
        let mut v = [0u32; N];
        for x in v.iter_mut() {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            *x = seed ^ (seed >> 15);
        }
        let mut acc = 0u32;
        for r in 0..3 {
            for x in v.iter_mut() {
                acc = (acc ^ *x).wrapping_mul(0x9e37_79b1).wrapping_add(r);
                *x = x.wrapping_add(acc >> 7);
            }
        }
        let x = v
            .iter()
            .enumerate()
            .fold(0u32, |a, (k, x)| a ^ (x << (k & 7)));
        o.extend([acc, x]);
    }
    vec![exact(1, to_bytes(&o))]
}

fn spill_sgpr_inputs() -> Inputs {
    let mut r = Rng::new(63);
    let u: Vec<u32> = (0..128).map(|_| r.u32()).collect();
    let d: Vec<u32> = (0..128).map(|_| r.u32()).collect();
    Inputs {
        groups: [2, 1, 1],
        resources: vec![
            ub(0, to_bytes(&u)),
            sb(1, to_bytes(&d)),
            sb(2, vec![0; 128 * 4]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn spill_sgpr_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    const N: usize = 120;
    // std140 uvec4 u[32]: element k of the flattened array is word k.
    let u = from_bytes::<u32>(data(inp, 0));
    let mut s0 = [0u32; N];
    let mut c = u[0];
    for (k, s) in s0.iter_mut().enumerate() {
        c = c.wrapping_mul(747796405).wrapping_add(u[k]);
        *s = c ^ (c >> 11);
    }
    let o: Vec<u32> = from_bytes::<u32>(data(inp, 1))
        .into_iter()
        .map(|mut acc| {
            let mut s = s0;
            for r in 0..3 {
                for x in s.iter_mut() {
                    acc = acc.wrapping_add(*x) ^ (acc >> 3);
                    *x = x.wrapping_mul(3).wrapping_add(r);
                }
            }
            acc
        })
        .collect();
    vec![exact(2, to_bytes(&o))]
}

fn math_inputs() -> Inputs {
    let mut r = Rng::new(64);
    let mut a = Vec::new();
    for _ in 0..256 {
        let u = |r: &mut Rng| (r.u32() >> 8) as f64 / (1u64 << 24) as f64;
        let ang = (u(&mut r) * 2.0 - 1.0) * std::f64::consts::PI;
        let rr = u(&mut r) * 20.0 - 10.0;
        let p = 10f64.powf(u(&mut r) * 5.0 - 2.0);
        let q = u(&mut r) * 1.98 - 0.99;
        a.extend([ang as f32, rr as f32, p as f32, q as f32]);
    }
    Inputs {
        groups: [4, 1, 1],
        resources: vec![
            sb(0, to_bytes(&a)),
            sb(1, vec![0; 256 * 24]),
            sb(2, vec![0; 256 * 12]),
            sb(3, vec![0; 256 * 24]),
            sb(4, vec![0; 256 * 12]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn math_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let a = from_bytes::<f32>(data(inp, 0));
    let (mut t, mut e, mut g, mut l) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for v in a.chunks(4) {
        let (ang, r, p, q) = (v[0] as f64, v[1] as f64, v[2] as f64, v[3] as f64);
        let f = |x: f64| x as f32;
        t.extend([
            f(ang.sin()),
            f(ang.cos()),
            f(r.atan()),
            f(q.atan2(r)),
            f(q.asin()),
            f((v[3] * 3.0) as f64).tanh(),
        ]);
        let pw = ((v[3].abs() + 0.5) as f64).powf((v[1] * 0.3) as f64);
        e.extend([f(r.exp()), f(r.exp2()), f(pw)]);
        l.extend([f(p.ln()), f(p.log2()), f(((v[3] + 1.0) as f64).ln())]);
        let x3 = [ang, r, p];
        let y3 = [q, r, 1.0];
        let len = x3.iter().map(|x| x * x).sum::<f64>().sqrt();
        let dist = x3
            .iter()
            .zip(&y3)
            .map(|(a, b)| (a - b) * (a - b))
            .sum::<f64>()
            .sqrt();
        let tt = ((r + 2.0) / 5.0).clamp(0.0, 1.0);
        let aq = q.abs();
        g.extend([
            f(len),
            f(dist),
            f(r / len),
            f(tt * tt * (3.0 - 2.0 * tt)),
            f(r * (1.0 - aq) + ang * aq),
            f(p.sqrt() * 0.5 + 1.0 / p.sqrt()),
        ]);
    }
    vec![
        Expect {
            resource: 1,
            bytes: to_bytes(&t),
            check: Check::F32 {
                ulp: 4096,
                abs: 5e-4,
            },
        },
        Expect {
            resource: 2,
            bytes: to_bytes(&e),
            check: Check::F32 { ulp: 64, abs: 0.0 },
        },
        Expect {
            resource: 3,
            bytes: to_bytes(&g),
            check: Check::F32 { ulp: 8, abs: 1e-5 },
        },
        Expect {
            resource: 4,
            bytes: to_bytes(&l),
            check: Check::F32 {
                ulp: 4,
                abs: 4.768_371_6e-7,
            },
        },
    ]
}

fn exact_inputs() -> Inputs {
    let mut r = Rng::new(65);
    let mut a = Vec::new();
    let mut b = Vec::new();
    for _ in 0..256 {
        a.extend([
            r.f32_bits(12, 6),
            r.f32_bits(12, 6),
            r.f32_bits(20, 10),
            r.f32_bits(16, 8),
        ]);
        let ny = loop {
            let v = r.u32() as i32;
            if v != i32::MIN {
                break v;
            }
        };
        b.extend([
            r.range(-20, 20) as i32,
            ny,
            (r.u32() | 1 << (r.u32() % 32)) as i32,
            r.u32() as i32,
        ]);
    }
    Inputs {
        groups: [4, 1, 1],
        resources: vec![
            sb(0, to_bytes(&a)),
            sb(1, to_bytes(&b)),
            sb(2, vec![0; 256 * 32]),
            sb(3, vec![0; 256 * 16]),
        ],
        push: vec![],
        spec: vec![],
    }
}

fn frexp(x: f32) -> (f32, i32) {
    // Normal, non-zero inputs only (the generator makes no others).
    let e = ((x.to_bits() >> 23) & 0xff) as i32 - 126;
    (f32::from_bits((x.to_bits() & 0x807f_ffff) | (126 << 23)), e)
}

fn msb_i(x: i32) -> i32 {
    let u = if x < 0 { !x as u32 } else { x as u32 };
    if u == 0 {
        -1
    } else {
        31 - u.leading_zeros() as i32
    }
}

fn exact_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let a = from_bytes::<f32>(data(inp, 0));
    let b = from_bytes::<i32>(data(inp, 1));
    let (mut o, mut p) = (Vec::new(), Vec::new());
    for (v, n) in a.chunks(4).zip(b.chunks(4)) {
        let (m, ex) = frexp(v[2]);
        o.extend([
            v[0] * v[1] + v[2],
            v[3] * 2f32.powi(n[0]),
            m,
            v[3].abs().fract(),
            (if v[1] < v[0] { 0.0 } else { 1.0 }) + v[2].signum() * 2.0,
            v[3].clamp(-1.5, 2.5),
            v[0].min(v[1].max(v[2])),
            ex as f32,
        ]);
        let lsb = if n[2] == 0 {
            -1
        } else {
            n[2].trailing_zeros() as i32
        };
        p.extend([
            n[1].wrapping_abs().wrapping_add(n[2].min(n[3])),
            n[1].max(n[2]).wrapping_sub(n[3].clamp(-100, 100)),
            msb_i(n[1]) + lsb * 64,
            ((n[2] as u32).max(n[3] as u32) >> 16) as i32,
        ]);
    }
    vec![exact(2, to_bytes(&o)), exact(3, to_bytes(&p))]
}

pub fn cases() -> Vec<Case> {
    vec![
        case!("bda_pointer", bda_inputs, bda_expect),
        case!("bda_linked_list", list_inputs, list_expect),
        case!("spill_vgpr", spill_vgpr_inputs, spill_vgpr_expect),
        case!("spill_sgpr", spill_sgpr_inputs, spill_sgpr_expect),
        case!("math_std450", math_inputs, math_expect),
        case!("math_exact", exact_inputs, exact_expect),
    ]
}
