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
            // LLVM prints some encodings it considers invalid with a /*Invalid ...*/ marker
            // instead of rejecting them; we reject those: count them as rejected
            let llvm: Vec<Option<(String, usize)>> =
                support::disassemble_prefix(&mc, gen.mcpu(), &items)
                    .into_iter()
                    .map(|l| {
                        l.filter(|(text, _)| {
                            !text.to_lowercase().contains("/*invalid")
                                && !text.to_lowercase().contains("/* invalid")
                        })
                    })
                    .collect();
            let ours: Vec<_> = items
                .iter()
                .map(|bytes| {
                    decode(bytes, 0, t).and_then(|(i, len)| print(&i, t).map(|s| (s, len)))
                })
                // our printer marks invalid s_delay_alu fields as LLVM does: count as rejected
                .map(|r| {
                    r.and_then(|(s, len)| {
                        if s.contains("/* invalid") {
                            Err(Error::invalid(s))
                        } else {
                            Ok((s, len))
                        }
                    })
                })
                .collect();
            // our length, confirmed by LLVM: the bytes cut to our length must still decode
            // to the same text and nothing else (a literal we missed would swallow the
            // padding; an extra dword would decode as a second instruction)
            let cut: Vec<Vec<u8>> = items
                .iter()
                .zip(&ours)
                .map(|(b, o)| match o {
                    Ok((_, len)) => b[..*len].to_vec(),
                    Err(_) => vec![0, 0, 0x80, 0xbf], // s_nop 0: a placeholder LLVM decodes
                })
                .collect();
            let confirm = support::disassemble(&mc, gen.mcpu(), None, &cut);
            let (mut agree, mut decoded) = (0, 0);
            for (k, (bytes, l)) in items.iter().zip(&llvm).enumerate() {
                let ours = &ours[k];
                // GFX11 true16 forms (`v39.h`) are not in our tables (docs/isa.md)
                if l.as_ref()
                    .is_some_and(|(text, _)| text.contains(".h") || text.contains(".l"))
                {
                    continue;
                }
                let same = match (ours, l) {
                    (Err(_), None) => true,
                    // LLVM can reject a valid instruction because of the bytes after it (it
                    // tries longer encodings first); on exactly our bytes it must agree
                    (Ok((s, _)), None) => confirm[k].as_deref() == Some(s.as_str()),
                    (Ok((s, _)), Some((text, _))) => {
                        s == text && confirm[k].as_deref() == Some(s.as_str())
                    }
                    _ => false,
                };
                if same {
                    agree += 1;
                    decoded += l.is_some() as usize;
                } else if bad.len() < 40 {
                    let w: Vec<String> = bytes
                        .chunks(4)
                        .map(|c| format!("{:08x}", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                        .collect();
                    bad.push(format!(
                        "{gen} {name} {}: ours {:?}, llvm {l:?}, llvm on our length {:?}",
                        w.join(" "),
                        ours.clone().map_err(|e| e.to_string()),
                        confirm[k]
                    ));
                }
            }
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
