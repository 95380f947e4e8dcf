//! Control-flow cases: nested divergent if/else, loops with break and continue, early
//! return, switch, nested loops, uniform branches, do-while, function calls and loop
//! controls ([[unroll]] / [[dont_unroll]]). The expectations are the same programs written in Rust, one lane at a time.

use super::*;

fn io(seed: u64, n: usize, gen: impl Fn(&mut Rng, usize) -> u32, out_words: usize) -> Inputs {
    let mut r = Rng::new(seed);
    let d: Vec<u32> = (0..n).map(|i| gen(&mut r, i)).collect();
    Inputs {
        groups: [(n / 64) as u32, 1, 1],
        resources: vec![sb(0, to_bytes(&d)), sb(1, vec![0; n * out_words * 4])],
        push: vec![],
        spec: vec![],
    }
}

fn input_u32(inp: &Inputs) -> Vec<u32> {
    from_bytes(data(inp, 0))
}

fn nested_if_inputs() -> Inputs {
    io(
        30,
        256,
        |r, i| {
            if i < 4 {
                [0, 1, 2, 1002][i]
            } else {
                r.range(-2000, 2000) as u32
            }
        },
        1,
    )
}

fn nested_if_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let o: Vec<i32> = input_u32(inp)
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let x = x as i32;
            if x > 0 {
                if x & 1 == 0 {
                    x / 2 + if x > 1000 { 7 } else { -3 }
                } else {
                    3 * x + 1
                }
            } else if x < -500 {
                if i & 3 == 1 {
                    -x ^ 0x55
                } else {
                    -x
                }
            } else {
                let r = x * x;
                if r > 10000 {
                    10000
                } else if r == 0 {
                    -1
                } else {
                    r
                }
            }
        })
        .collect();
    vec![exact(1, to_bytes(&o))]
}

fn loop_inputs() -> Inputs {
    io(31, 256, |r, _| r.range(0, 199) as u32, 2)
}

fn loop_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let mut o = Vec::new();
    for x in input_u32(inp) {
        let x = x as i32;
        let (mut acc, mut k) = (0i32, 0i32);
        while k < 100 {
            if k % 3 != 2 {
                acc += k * x;
                if acc > 5000 {
                    break;
                }
                if (k + x) & 7 != 0 {
                    acc ^= k;
                }
            }
            k += 1;
        }
        o.extend([acc, k]);
    }
    vec![exact(1, to_bytes(&o))]
}

const SENTINEL: u32 = 0xcccc_cccc;

fn early_inputs() -> Inputs {
    let mut inp = io(32, 256, |r, _| r.u32() >> 12, 1);
    inp.resources[1] = sb(1, to_bytes(&[SENTINEL; 256]));
    inp
}

fn early_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let o: Vec<u32> = input_u32(inp)
        .iter()
        .map(|&x| {
            if x & 3 == 0 {
                return SENTINEL;
            }
            let mut v = x.wrapping_mul(3);
            for k in 0..(x & 15) {
                if k == 7 {
                    return v;
                }
                v = v.wrapping_add(k);
            }
            v ^ 0xf0f0
        })
        .collect();
    vec![exact(1, to_bytes(&o))]
}

fn switch_inputs() -> Inputs {
    io(
        33,
        256,
        |r, i| {
            if i % 3 == 0 {
                r.range(0, 200) as u32
            } else {
                r.u32()
            }
        },
        1,
    )
}

fn switch_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let o: Vec<i32> = input_u32(inp)
        .iter()
        .map(|&x| match x % 8 {
            0 => 10,
            1 => 25,
            2 => 5,
            3 | 4 => (x as i32).wrapping_mul(2),
            6 if x > 100 => (x as i32).wrapping_neg(),
            6 => 1000 - x as i32,
            _ => 77,
        })
        .collect();
    vec![exact(1, to_bytes(&o))]
}

fn nested_loops_inputs() -> Inputs {
    io(34, 256, |r, _| r.u32(), 1)
}

fn nested_loops_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let o: Vec<u32> = input_u32(inp)
        .iter()
        .map(|&x| {
            let mut acc = 0u32;
            for a in 0..8u32 {
                if (x >> a) & 1 == 1 {
                    continue;
                }
                for b in 0..12u32 {
                    if b > (x & 7) + a {
                        break;
                    }
                    acc += a * 16 + b;
                    if acc > 300 + (x & 255) {
                        acc += 1000;
                        break;
                    }
                }
                if acc > 2000 {
                    break;
                }
            }
            acc
        })
        .collect();
    vec![exact(1, to_bytes(&o))]
}

fn uniform_inputs() -> Inputs {
    let mut inp = io(35, 256, |r, _| r.u32(), 1);
    inp.push = to_bytes(&[1u32, 13]);
    inp
}

fn uniform_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let (mode, limit) = (at::<u32>(&inp.push, 0), at::<u32>(&inp.push, 4));
    let o: Vec<u32> = input_u32(inp)
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let wg = i as u32 / 64;
            let mut r = if mode == 1 {
                x.wrapping_add(wg)
            } else {
                x.wrapping_mul(2)
            };
            if wg == 2 {
                r ^= 0xffff;
            }
            let s: u32 = (0..64u32.min(limit)).map(|k| k * wg).sum();
            r.wrapping_add(s)
        })
        .collect();
    vec![exact(1, to_bytes(&o))]
}

fn do_while_inputs() -> Inputs {
    io(
        36,
        256,
        |r, i| {
            if i < 2 {
                1 + i as u32
            } else {
                r.range(1, 1000) as u32
            }
        },
        1,
    )
}

fn do_while_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let o: Vec<u32> = input_u32(inp)
        .iter()
        .map(|&x0| {
            let (mut x, mut steps) = (x0, 0u32);
            loop {
                x = if x & 1 == 1 { 3 * x + 1 } else { x / 2 };
                steps += 1;
                if x == 1 || steps >= 200 {
                    break steps;
                }
            }
        })
        .collect();
    vec![exact(1, to_bytes(&o))]
}

fn calls_inputs() -> Inputs {
    let mut r = Rng::new(37);
    let d: Vec<u32> = (0..512)
        .map(|i| {
            if i % 7 == 0 {
                0
            } else {
                r.range(1, 5000) as u32 * if i % 5 == 0 { 6 } else { 1 }
            }
        })
        .collect();
    Inputs {
        groups: [4, 1, 1],
        resources: vec![sb(0, to_bytes(&d)), sb(1, vec![0; 256 * 16])],
        push: vec![],
        spec: vec![],
    }
}

fn calls_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    fn gcd(mut a: u32, mut b: u32) -> u32 {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    }
    let mut o = Vec::new();
    for p in input_u32(inp).chunks(2) {
        let (a, b) = (p[0].min(p[1]), p[0].max(p[1]));
        let v = a as i32 - 50;
        let class = if v < 0 {
            -1
        } else if v == 0 {
            0
        } else if v > 100 {
            2
        } else {
            1
        };
        o.extend([a, b, gcd(a, b), class as u32]);
    }
    vec![exact(1, to_bytes(&o))]
}

fn unroll_control_inputs() -> Inputs {
    io(
        38,
        256,
        |r, i| match i {
            0 => 0,
            1 => u32::MAX,
            _ => r.u32(),
        },
        3,
    )
}

fn unroll_control_expect(inp: &Inputs, _: &Env) -> Vec<Expect> {
    let mut o = Vec::new();
    for x in input_u32(inp) {
        let mut h = x;
        for k in 0..256u32 {
            h = (h ^ k).wrapping_mul(16777619);
        }
        let mut s = 0u32;
        for k in 0..64u32 {
            if (x >> (k & 31)) & 1 != 0 {
                s = s.wrapping_add(k * 3 + (x >> 7));
            } else {
                s ^= k << 5;
            }
        }
        let mut t = x;
        for k in 0..4u32 {
            t = t.wrapping_mul(5).wrapping_add(k);
        }
        o.extend([h, s, t]);
    }
    vec![exact(1, to_bytes(&o))]
}

pub fn cases() -> Vec<Case> {
    vec![
        case!("nested_if", nested_if_inputs, nested_if_expect),
        case!("loop_break_continue", loop_inputs, loop_expect),
        case!("early_return", early_inputs, early_expect),
        case!("switch_case", switch_inputs, switch_expect),
        case!("nested_loops", nested_loops_inputs, nested_loops_expect),
        case!("uniform_branch", uniform_inputs, uniform_expect),
        case!("do_while", do_while_inputs, do_while_expect),
        case!("function_calls", calls_inputs, calls_expect),
        case!(
            "unroll_control",
            unroll_control_inputs,
            unroll_control_expect
        ),
    ]
}
