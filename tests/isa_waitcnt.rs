//! `Waitcnt`: the typed (vmcnt, expcnt, lgkmcnt) view of an `s_waitcnt` immediate, per
//! generation, against llvm-mc-19 both ways: LLVM's assembler encodes
//! `s_waitcnt vmcnt(a) expcnt(b) lgkmcnt(c)` to our `encode`, and LLVM's disassembler
//! prints, for arbitrary immediates, the counters our `decode` gives (a counter LLVM leaves
//! out is at its maximum).

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

#[test]
fn field_maxima_per_generation() {
    assert_eq!(Waitcnt::max_fields(Gen::Gfx9), [63, 7, 15]);
    assert_eq!(Waitcnt::max_fields(Gen::Gfx10), [63, 7, 63]);
    assert_eq!(Waitcnt::max_fields(Gen::Gfx11), [63, 7, 63]);
    for gen in Gen::ALL {
        let none = Waitcnt::none(gen);
        assert_eq!(Waitcnt::decode(gen, none.encode(gen).unwrap()), none);
        let too_big = Waitcnt {
            lgkmcnt: Waitcnt::max_fields(gen)[2] + 1,
            ..none
        };
        assert!(too_big.encode(gen).is_err());
        let w = Waitcnt {
            vmcnt: 0,
            expcnt: 7,
            lgkmcnt: 3,
        };
        assert_eq!(w.min(none), w);
    }
}

#[test]
fn waitcnt_fields_match_llvm() {
    let Some(mc) = support::llvm_mc() else { return };
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    for gen in Gen::ALL {
        let t = Target::new(gen);
        let [vm, exp, lgkm] = Waitcnt::max_fields(gen);
        // assembler: every counter at 0, at its maximum, and random values
        let mut ws = vec![
            Waitcnt {
                vmcnt: 0,
                expcnt: 0,
                lgkmcnt: 0,
            },
            Waitcnt::none(gen),
        ];
        for _ in 0..200 {
            ws.push(Waitcnt {
                vmcnt: r.next() % (vm + 1),
                expcnt: r.next() % (exp + 1),
                lgkmcnt: r.next() % (lgkm + 1),
            });
        }
        let lines: Vec<String> = ws
            .iter()
            .map(|w| {
                format!(
                    "s_waitcnt vmcnt({}) expcnt({}) lgkmcnt({})",
                    w.vmcnt, w.expcnt, w.lgkmcnt
                )
            })
            .collect();
        let asm = support::assemble(&mc, gen.mcpu(), None, &lines);
        for ((w, line), a) in ws.iter().zip(&lines).zip(&asm) {
            let b = a.as_ref().unwrap_or_else(|e| panic!("{gen} `{line}`: {e}"));
            let simm16 = u16::from_le_bytes([b[0], b[1]]);
            assert_eq!(w.encode(gen).unwrap(), simm16, "{gen} `{line}`");
            assert_eq!(Waitcnt::decode(gen, simm16), *w, "{gen} {simm16:#06x}");
        }
        // disassembler: arbitrary immediates, including bits outside the counters
        let op = tables::form(gen, Opcode::from_name("s_waitcnt").unwrap(), Format::Sopp)
            .unwrap()
            .op as u32;
        let imms: Vec<u16> = (0..300).map(|_| r.next() as u16).collect();
        let words: Vec<Vec<u8>> = imms
            .iter()
            .map(|&v| (0xbf80_0000 | op << 16 | v as u32).to_le_bytes().to_vec())
            .collect();
        let texts = support::disassemble(&mc, gen.mcpu(), None, &words);
        for (&v, text) in imms.iter().zip(&texts) {
            let text = text.as_deref().unwrap_or_else(|| panic!("{gen} {v:#06x}"));
            let mut got = Waitcnt::none(gen);
            for part in text.trim_start_matches("s_waitcnt").split_whitespace() {
                let (name, n) = part.trim_end_matches(')').split_once('(').unwrap();
                let n: u32 = n.parse().unwrap();
                match name {
                    "vmcnt" => got.vmcnt = n,
                    "expcnt" => got.expcnt = n,
                    "lgkmcnt" => got.lgkmcnt = n,
                    other => panic!("{gen} `{text}`: unknown counter {other}"),
                }
            }
            assert_eq!(Waitcnt::decode(gen, v), got, "{gen} {v:#06x} `{text}`");
            // the printer agrees with LLVM on the same immediate
            let inst = decode(&words[imms.iter().position(|x| *x == v).unwrap()], 0, t)
                .unwrap()
                .0;
            assert_eq!(print(&inst, t).unwrap(), text);
        }
    }
}
