//! Non-canonical bytes of the memory, export and interpolation formats, decoded as LLVM
//! decodes them. Each representative instance is encoded, then every bit below the format
//! prefix is flipped in turn (don't-care fields: the vdst of a non-returning atomic, an
//! `off` vaddr, disabled export channels, reserved bits; and fields that change meaning:
//! opcode, modifiers, registers). For every such word llvm-mc-19's disassembly must equal
//! our decode-then-print, or both must reject it.

mod support;

use gcnc::isa::*;

fn prefix_bits(f: Format) -> u32 {
    match f {
        Format::Ldsdir | Format::Vinterp => 8,
        _ => 6,
    }
}

#[test]
fn flipped_bits_decode_like_llvm() {
    let Some(mc) = support::llvm_mc() else { return };
    let mut report = String::new();
    let mut all_bad = Vec::new();
    for gen in Gen::ALL {
        let t = Target::new(gen);
        let mut items: Vec<Vec<u8>> = Vec::new();
        for d in tables::encodings(gen).iter().filter(|d| d.format.is_mem()) {
            for variant in 0..2 {
                let Some(inst) = support::mem::instance(d, t, variant) else {
                    continue;
                };
                let bytes = encode(&inst, t).unwrap();
                let nbits = if bytes.len() >= 8 { 64 } else { 32 };
                for bit in 0..nbits {
                    if bit < 32 && bit >= 32 - prefix_bits(d.format) {
                        continue;
                    }
                    // the NSA dword count makes LLVM read past the item; tested elsewhere
                    let nsa = match gen {
                        Gen::Gfx9 => false,
                        Gen::Gfx10 => bit == 1 || bit == 2,
                        Gen::Gfx11 => bit == 0,
                    };
                    if d.format == Format::Mimg && nsa {
                        continue;
                    }
                    // on an NSA instance the dimension fixes how many address bytes LLVM
                    // reads, past the item as well
                    let dim = match gen {
                        Gen::Gfx9 => false,
                        Gen::Gfx10 => (3..6).contains(&bit),
                        Gen::Gfx11 => (2..5).contains(&bit),
                    };
                    if d.format == Format::Mimg && dim && bytes.len() > 8 {
                        continue;
                    }

                    let mut b = bytes.clone();
                    b[bit as usize / 8] ^= 1 << (bit % 8);
                    if !items.contains(&b) {
                        items.push(b);
                    }
                }
            }
        }
        let w = (gen != Gen::Gfx9).then_some(t.wave.lanes());
        let llvm = support::disassemble(&mc, gen.mcpu(), w, &items);
        let mut bad = 0;
        let mut known = 0;
        let mut nsa_known = 0;
        for (b, l) in items.iter().zip(&llvm) {
            // LLVM marks operands it cannot decode inline; that is a rejection
            let l = &l.clone().filter(|s| !s.contains("/*Invalid"));
            let dec = decode(b, 0, t);
            // Known gap: LLVM prints image atomics whose dmask is not 0x1/0x3 (0x3/0xf for
            // compare-swap) with data sizes taken from its internal opcode variants; we
            // reject those. Likewise image_get_lod with an MSAA dimension in NSA form.
            let text = l.as_deref().unwrap_or("");
            let atomic_dmask = text.starts_with("image_atomic")
                && matches!(&dec, Err(e) if e.to_string().contains("dmask"));
            let lod_msaa =
                text.starts_with("image_get_lod ") && text.contains("_MSAA") && b.len() > 8;
            // and GFX10+ compare-swap with tfe, whose address LLVM sizes from another variant
            let cmpswap_tfe = gen != Gen::Gfx9
                && text.starts_with("image_atomic_")
                && text.contains("cmpswap")
                && text.contains(" tfe");
            if atomic_dmask || lod_msaa || cmpswap_tfe {
                known += 1;
                continue;
            }
            // Known gap: an NSA word whose address dwords do not hold the count the opcode
            // and dimension need (after an opcode or dmask flip); LLVM prints what the
            // dwords hold, we reject it.
            if matches!(&dec, Err(e) if e.to_string().contains("NSA address count")) {
                nsa_known += 1;
                continue;
            }
            let ours = dec
                .ok()
                .filter(|(_, len)| *len == b.len())
                .and_then(|(i, _)| print(&i, t).ok());
            if ours != *l {
                bad += 1;
                all_bad.push(format!("{gen} {b:02x?}: ours {ours:?} llvm {l:?}"));
            }
        }
        report.push_str(&format!(
            "{gen}: {} bit-flipped memory/export/interp words, {bad} decoded differently from LLVM, {known} in the known image-atomic gap, {nsa_known} in the NSA-count gap\n",
            items.len()
        ));
    }
    println!("{report}");
    assert!(
        all_bad.is_empty(),
        "{} differ:\n{}",
        all_bad.len(),
        all_bad.join("\n")
    );
}

/// Arbitrary words with each memory format's prefix (and up to four further dwords) never
/// panic the decoder or printer: they decode and print, or return an `isa::Error` with
/// the byte offset.
#[test]
fn random_words_are_decoded_or_rejected() {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 16) as u32
    };
    let mut decoded = 0;
    for gen in Gen::ALL {
        for wave in [Wave::W32, Wave::W64] {
            let Ok(t) = Target::with_wave(gen, wave) else {
                continue;
            };
            // (mask, value) of the fixed bits of each memory/export/interpolation format
            let mut prefixes: Vec<(u32, u32)> = vec![
                (0xfc00_0000, 0xd800_0000), // DS
                (0xfc00_0000, 0xe000_0000), // MUBUF
                (0xfc00_0000, 0xe800_0000), // MTBUF
                (0xfc00_0000, 0xdc00_0000), // FLAT/GLOBAL/SCRATCH
                (0xfc00_0000, 0xf000_0000), // MIMG
            ];
            prefixes.extend(match gen {
                // EXP, VINTRP
                Gen::Gfx9 => vec![(0xfc00_0000, 0xc400_0000), (0xfc00_0000, 0xd400_0000)],
                Gen::Gfx10 => vec![(0xfc00_0000, 0xf800_0000), (0xfc00_0000, 0xc800_0000)],
                // EXP, LDSDIR, VINTERP
                Gen::Gfx11 => vec![
                    (0xfc00_0000, 0xf800_0000),
                    (0xff00_0000, 0xce00_0000),
                    (0xff00_0000, 0xcd00_0000),
                ],
            });
            for &(mask, value) in &prefixes {
                for _ in 0..3000 {
                    let n = 1 + (next() % 5) as usize;
                    let mut bytes = Vec::new();
                    for i in 0..n {
                        let w = if i == 0 {
                            next() & !mask | value
                        } else {
                            next()
                        };
                        bytes.extend_from_slice(&w.to_le_bytes());
                    }
                    match decode(&bytes, 0, t) {
                        Ok((inst, len)) => {
                            assert!(len <= bytes.len());
                            print(&inst, t).unwrap_or_else(|e| {
                                panic!("{gen} {bytes:02x?}: decoded {inst:?} but cannot print: {e}")
                            });
                            decoded += 1;
                        }
                        Err(e) => assert_eq!(e.loc, Loc::Byte(0), "{gen} {bytes:02x?}: {e}"),
                    }
                }
            }
        }
    }
    println!("{decoded} random memory-format words decoded");
    assert!(decoded > 10_000);
}
