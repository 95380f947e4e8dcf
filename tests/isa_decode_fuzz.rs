//! The decoder against LLVM's on arbitrary bits: random words with the fixed prefix of
//! each format this layer owns, all other bits random (don't-care fields, reserved codes,
//! unused modifier bits). For each word llvm-mc-19 either rejects it (we must return an
//! error) or decodes it (we must print the same text with the same length).

mod support;

use gcnc::isa::*;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

/// (mask, value) of the fixed bits of each format on `gen`.
fn prefixes(gen: Gen) -> Vec<(&'static str, u32, u32)> {
    let mut v = vec![
        ("sop1", 0xff80_0000, 0xbe80_0000),
        ("sop2", 0xc000_0000, 0x8000_0000),
        ("sopc", 0xff80_0000, 0xbf00_0000),
        ("sopk", 0xf000_0000, 0xb000_0000),
        ("sopp", 0xff80_0000, 0xbf80_0000),
        ("vop1", 0xfe00_0000, 0x7e00_0000),
        ("vop2", 0x8000_0000, 0x0000_0000),
        ("vopc", 0xfe00_0000, 0x7c00_0000),
    ];
    match gen {
        Gen::Gfx9 => v.extend([
            ("smem", 0xfc00_0000, 0xc000_0000),
            ("vop3", 0xfc00_0000, 0xd000_0000),
        ]),
        _ => v.extend([
            ("smem", 0xfc00_0000, 0xf400_0000),
            ("vop3", 0xfc00_0000, 0xd400_0000),
            ("vop3p", 0xff80_0000, 0xcc00_0000),
        ]),
    }
    if gen == Gen::Gfx11 {
        v.push(("vopd", 0xfc00_0000, 0xc800_0000));
    }
    v
}

#[test]
fn random_words_decode_like_llvm() {
    let Some(mc) = support::llvm_mc() else { return };
    let seed = std::env::var("GCNC_ISA_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9e37_79b9_7f4a_7c15u64);
    let mut r = Rng(seed);
    let mut report = Vec::new();
    let mut bad = Vec::new();
    for gen in Gen::ALL {
        let t = Target::new(gen);
        for (name, mask, value) in prefixes(gen) {
            let items: Vec<Vec<u8>> = (0..400)
                .map(|_| {
                    let w0 = (r.next() & !mask) | value;
                    [w0, r.next(), r.next()]
                        .iter()
                        .flat_map(|w| w.to_le_bytes())
                        .collect()
                })
                .collect();
            let (agree, decoded) = support::decode_like_llvm(&mc, t, name, &items, &mut bad);
            report.push(format!(
                "{gen} {name}: {agree}/{} agree ({decoded} valid)",
                items.len()
            ));
        }
    }
    println!("{}", report.join("\n"));
    assert!(
        bad.is_empty(),
        "decoder disagrees with llvm-mc:\n{}",
        bad.join("\n")
    );
}
