//! MIMG address operands, every address count on every generation, against llvm-mc-19:
//! the contiguous tuple (all generations), GFX10.3's NSA form naming every address (up to
//! 13), and GFX11's NSA form of at most five operands whose last is a tuple of every address
//! from the fifth on (partial NSA, when there are more than five). For each address count
//! the tables hold, one sampling or load instruction with that count is written in each
//! form and in forms the hardware has no encoding for (GFX11 with six or more single
//! addresses, GFX10.3 with a tuple in its list, a tuple before the last operand, GFX9 with
//! any list). Our parser + encoder must accept exactly what llvm-mc-19 accepts, with its
//! bytes, and our decoder must read LLVM's bytes back to LLVM's text.

mod support;

use gcnc::isa::*;

use gcnc::isa::format::mimg::DIMS;

/// One instruction per address count: (mnemonic, has a sampler, dim) with `n` addresses
/// (no a16), for every count some sampling or load opcode of `gen` has.
fn per_count(gen: Gen) -> Vec<(u8, &'static str, bool, usize)> {
    let mut out: Vec<(u8, &'static str, bool, usize)> = Vec::new();
    for d in tables::encodings(gen) {
        if d.format != Format::Mimg
            || !(d.mnemonic.starts_with("image_sample") || d.mnemonic.starts_with("image_load"))
        {
            continue;
        }
        let Some(addr) = d.addr else { continue };
        let sampler = d.explicit().any(|o| o.field == Field::Ssamp);
        for (dim, &n) in addr[0].iter().enumerate() {
            if n == 0 || out.iter().any(|c| c.0 == n) {
                continue;
            }
            // sampling has no multisampled dimension
            if sampler && dim >= 6 {
                continue;
            }
            out.push((n, d.mnemonic, sampler, dim));
        }
    }
    out.sort();
    out
}

/// `v4, v6, ...`: `k` single VGPRs, none adjacent (so no form is a disguised tuple).
fn singles(k: usize) -> Vec<String> {
    (0..k).map(|i| format!("v{}", 4 + 2 * i)).collect()
}

fn tuple(base: usize, n: usize) -> String {
    if n == 1 {
        format!("v{base}")
    } else {
        format!("v[{base}:{}]", base + n - 1)
    }
}

/// The address texts to try for `n` addresses, each with whether the generation has an
/// encoding for it (the rule under test, stated independently of the encoder).
fn forms(gen: Gen, n: usize) -> Vec<(String, bool)> {
    let mut f = vec![(tuple(4, n), true)];
    if n >= 2 {
        let all = format!("[{}]", singles(n).join(", "));
        let ok = match gen {
            Gen::Gfx9 => false,
            Gen::Gfx10 => n <= 13,
            Gen::Gfx11 => n <= 5,
        };
        f.push((all, ok));
    }
    if n >= 3 {
        // singles and a tuple of at least two last: GFX11's partial NSA exactly when that
        // makes five operands
        let k = if n > 5 { 4 } else { n - 2 };
        let mut v = singles(k);
        v.push(tuple(40, n - k));
        f.push((format!("[{}]", v.join(", ")), gen == Gen::Gfx11 && n > 5));
        // a tuple first: no generation
        let mut v = vec![tuple(40, 2)];
        v.extend(singles(n - 2));
        f.push((format!("[{}]", v.join(", ")), false));
    }
    if n > 5 {
        // fewer than five operands, the tuple last: not an encoding
        let mut v = singles(2);
        v.push(tuple(40, n - 2));
        f.push((format!("[{}]", v.join(", ")), false));
    }
    f
}

fn line(mn: &str, sampler: bool, dim: usize, addr: &str, gen: Gen) -> String {
    let s = if sampler { ", s[16:19]" } else { "" };
    let dim = if gen == Gen::Gfx9 {
        String::new()
    } else {
        format!(" dim:SQ_RSRC_IMG_{}", DIMS[dim])
    };
    let unorm = if sampler { "" } else { " unorm" };
    format!("{mn} v[0:3], {addr}, s[8:15]{s} dmask:0xf{dim}{unorm}")
}

#[test]
fn address_forms_match_llvm() {
    let Some(mc) = support::llvm_mc() else {
        return;
    };
    let mut bad = Vec::new();
    let mut checked = 0;
    for gen in [Gen::Gfx9, Gen::Gfx10, Gen::Gfx11] {
        let t = Target::new(gen);
        let mut lines = Vec::new();
        let mut rule = Vec::new();
        // GFX9 encodes no address count (one tuple whatever the count): one instruction
        let counts = if gen == Gen::Gfx9 {
            vec![(3, "image_sample_l", true, 1)]
        } else {
            per_count(gen)
        };
        if gen != Gen::Gfx9 {
            // every count from 1 to 12 (image_sample_c_d_cl_o on a 3D image) occurs
            let max = counts.iter().map(|c| c.0).max().unwrap();
            assert_eq!(max, 12, "{gen}: the longest address");
            assert_eq!(counts.len(), 12, "{gen}: address counts {counts:?}");
        }
        for &(n, mn, sampler, dim) in &counts {
            for (addr, ok) in forms(gen, n as usize) {
                lines.push(line(mn, sampler, dim, &addr, gen));
                rule.push(ok);
            }
        }
        let theirs = support::assemble(&mc, gen.mcpu(), None, &lines);
        let mut llvm_bytes = Vec::new();
        for ((text, ok), llvm) in lines.iter().zip(&rule).zip(&theirs) {
            checked += 1;
            let ours = parse_line(text, 1, t)
                .map_err(|e| e.to_string())
                .and_then(|i| {
                    let i = i.ok_or("empty")?;
                    encode(&i, t).map_err(|e| e.to_string())
                });
            match (llvm, &ours) {
                (Ok(a), Ok(b)) if a == b => {}
                (Err(_), Err(_)) => {}
                _ => bad.push(format!(
                    "{gen} `{text}`: llvm {llvm:02x?}, gcnc {ours:02x?}"
                )),
            }
            if llvm.is_ok() != *ok {
                bad.push(format!(
                    "{gen} `{text}`: LLVM {} it, the rule says {}",
                    if llvm.is_ok() { "accepts" } else { "rejects" },
                    if *ok { "valid" } else { "invalid" }
                ));
            }
            if let Ok(b) = llvm {
                llvm_bytes.push(b.clone());
            }
        }
        // LLVM's bytes back through our decoder and printer: LLVM's own text
        let texts = support::disassemble(&mc, gen.mcpu(), None, &llvm_bytes);
        for (b, text) in llvm_bytes.iter().zip(texts) {
            let text = text.unwrap_or_else(|| panic!("{gen}: LLVM rejects its own {b:02x?}"));
            match decode(b, 0, t) {
                Ok((i, len)) if len == b.len() && print(&i, t).unwrap() == text => {}
                other => bad.push(format!("{gen} {b:02x?}: LLVM `{text}`, gcnc {other:?}")),
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(checked > 60, "{checked} lines");
}
