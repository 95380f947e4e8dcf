//! Bad input: every corrupt or truncated ELF, msgpack payload or metadata tree is a typed
//! error that says where, and nothing panics; bad writer input is refused up front.

mod binary_support;

/// A named modification of a valid input.
type Edit<T> = Box<dyn Fn(&mut T)>;

use binary_support::*;
use gcnc::binary::metadata::PalMetadata;
use gcnc::binary::msgpack::{self, Key, Value};
use gcnc::binary::{CodeObject, ElfFile, Error, FuncSymbol, RelocKind, Relocation};
use gcnc::isa::{Gen, Wave};

fn sample() -> Vec<u8> {
    sample_object(target_of(Gen::Gfx10, Wave::W32))
        .write()
        .unwrap()
}

fn put_u16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_le_bytes());
}
fn put_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn put_u64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

/// Layout facts of the valid sample, read back with the reader itself.
struct Layout {
    shoff: usize,
    text: usize,
    rel: usize,
    note: usize,
    symtab: usize,
    metadata_payload: usize,
}

fn layout(bytes: &[u8]) -> Layout {
    let elf = ElfFile::parse(bytes).unwrap();
    let off = |name: &str| elf.section_by_name(name).unwrap().offset as usize;
    Layout {
        shoff: u64::from_le_bytes(bytes[40..48].try_into().unwrap()) as usize,
        text: off(".text"),
        rel: off(".rel.text"),
        note: off(".note"),
        symtab: off(".symtab"),
        metadata_payload: elf.notes.iter().find(|n| n.ty == 32).unwrap().desc_offset as usize,
    }
}

#[test]
fn every_truncation_is_a_truncated_error() {
    for tw in configurations() {
        let target = tw.gen;
        let bytes = sample_object(tw).write().unwrap();
        for len in 0..bytes.len() {
            match ElfFile::parse(&bytes[..len]) {
                Err(Error::Truncated { len: l, .. }) => assert_eq!(l, len as u64),
                other => panic!("{target}: truncated to {len}: {other:?}"),
            }
        }
        assert!(ElfFile::parse(&bytes).is_ok());
    }
}

/// xorshift64*: a fixed-seed generator, so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Uses everything the reader offers on a possibly-corrupt file; must not panic.
fn exercise(bytes: &[u8]) -> bool {
    match ElfFile::parse(bytes) {
        Ok(elf) => {
            let _ = elf.pal_metadata();
            let _ = elf.isa_name();
            for s in &elf.sections {
                let _ = elf.section_data(s.index);
            }
            if let Ok(obj) = elf.to_code_object() {
                let _ = obj.write();
            }
            true
        }
        Err(e) => {
            let _ = e.to_string();
            false
        }
    }
}

#[test]
fn random_byte_flips_never_panic() {
    let good = sample();
    let l = layout(&good);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut rejected = 0;
    for round in 0..4000 {
        let mut b = good.clone();
        let flips = 1 + rng.below(4);
        for _ in 0..flips {
            // Half the rounds aim at the structured parts (headers, tables, notes), where
            // a flip is most likely to matter; the rest hit anywhere.
            let at = if round % 2 == 0 {
                match rng.below(4) {
                    0 => rng.below(64),
                    1 => l.shoff + rng.below(b.len() - l.shoff),
                    2 => l.rel + rng.below(l.note - l.rel),
                    _ => l.note + rng.below(l.symtab - l.note),
                }
            } else {
                rng.below(b.len())
            };
            b[at] = rng.next() as u8;
        }
        if !exercise(&b) {
            rejected += 1;
        }
    }
    assert!(
        rejected > 500,
        "only {rejected} corrupt files were rejected"
    );
    // Pure noise, short and long.
    for len in [0, 3, 64, 65, 200, 4096] {
        for _ in 0..50 {
            let mut b: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
            if len >= 20 {
                b[..4].copy_from_slice(b"\x7fELF");
                b[4] = 2;
                b[5] = 1;
                put_u16(&mut b, 18, 224);
            }
            exercise(&b);
        }
    }
}

#[test]
fn random_msgpack_corruption_never_panics() {
    let md = pal2_info(target_of(Gen::Gfx11, Wave::W32))
        .to_metadata()
        .unwrap()
        .to_msgpack()
        .unwrap();
    let mut rng = Rng(42);
    for len in 0..md.len() {
        assert!(
            msgpack::decode(&md[..len]).is_err(),
            "prefix of {len} bytes"
        );
    }
    for _ in 0..5000 {
        let mut b = md.clone();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(b.len());
            b[at] = rng.next() as u8;
        }
        if let Ok(v) = msgpack::decode(&b) {
            let _ = PalMetadata::from_value(&v);
        }
    }
}

fn expect_err(bytes: &[u8]) -> Error {
    match ElfFile::parse(bytes) {
        Err(e) => e,
        Ok(_) => panic!("corrupt file was accepted"),
    }
}

#[test]
fn header_corruption_is_reported_at_its_field() {
    let good = sample();
    let l = layout(&good);
    let mut b = good.clone();
    b[1] = b'X';
    assert_eq!(expect_err(&b), Error::BadMagic);

    let mut b = good.clone();
    b[4] = 1;
    assert!(matches!(expect_err(&b), Error::BadHeader { offset: 4, .. }));
    let mut b = good.clone();
    b[5] = 2;
    assert!(matches!(expect_err(&b), Error::BadHeader { offset: 5, .. }));

    let mut b = good.clone();
    put_u16(&mut b, 18, 62);
    assert_eq!(expect_err(&b), Error::WrongMachine { found: 62 });

    let mut b = good.clone();
    put_u16(&mut b, 58, 40);
    assert!(matches!(
        expect_err(&b),
        Error::BadHeader { offset: 58, .. }
    ));
    let mut b = good.clone();
    put_u16(&mut b, 62, 99);
    assert!(matches!(
        expect_err(&b),
        Error::BadHeader { offset: 62, .. }
    ));
    let mut b = good.clone();
    put_u16(&mut b, 62, 2); // .text is not a string table
    assert!(matches!(
        expect_err(&b),
        Error::BadHeader { offset: 62, .. }
    ));

    let mut b = good.clone();
    put_u64(&mut b, 40, u64::MAX - 10);
    assert!(matches!(
        expect_err(&b),
        Error::Truncated {
            what: "section header table",
            ..
        }
    ));
    let _ = l;
}

#[test]
fn section_corruption_names_the_section_header() {
    let good = sample();
    let l = layout(&good);
    let sh = |i: usize| l.shoff + i * 64;

    // .text (index 2) data outside the file; then a size that overflows.
    for (field, value) in [(24, 0x10_0000u64), (32, u64::MAX)] {
        let mut b = good.clone();
        put_u64(&mut b, sh(2) + field, value);
        match expect_err(&b) {
            Error::BadSection { index, offset, .. } => {
                assert_eq!((index, offset), (2, sh(2) as u64))
            }
            other => panic!("{other:?}"),
        }
    }
    // Alignment that is not a power of two.
    let mut b = good.clone();
    put_u64(&mut b, sh(2) + 48, 100);
    assert!(matches!(expect_err(&b), Error::BadSection { index: 2, .. }));
    // Section name offset outside .strtab.
    let mut b = good.clone();
    put_u32(&mut b, sh(2), 0xffff);
    assert!(matches!(expect_err(&b), Error::BadSection { index: 2, .. }));
    // Symbol table with a bad entry size (index 5).
    let mut b = good.clone();
    put_u64(&mut b, sh(5) + 56, 0);
    assert!(matches!(expect_err(&b), Error::BadSection { index: 5, .. }));
    // .rel.text (index 3) linked to something that is not the symbol table.
    let mut b = good.clone();
    put_u32(&mut b, sh(3) + 40, 2);
    assert!(matches!(expect_err(&b), Error::BadSection { index: 3, .. }));
    // .rel.text relocating section 77.
    let mut b = good.clone();
    put_u32(&mut b, sh(3) + 44, 77);
    assert!(matches!(expect_err(&b), Error::BadSection { index: 3, .. }));
}

#[test]
fn symbol_and_relocation_corruption_names_the_record() {
    let good = sample();
    let l = layout(&good);
    let sym1 = l.symtab + 24;

    let mut b = good.clone();
    put_u32(&mut b, sym1, 0xffff);
    assert_eq!(
        match expect_err(&b) {
            Error::BadSymbol { index, offset, .. } => (index, offset),
            other => panic!("{other:?}"),
        },
        (1, sym1 as u64)
    );
    let mut b = good.clone();
    put_u16(&mut b, sym1 + 6, 77);
    assert!(matches!(expect_err(&b), Error::BadSymbol { index: 1, .. }));
    let mut b = good.clone();
    put_u64(&mut b, sym1 + 16, 0x10_0000); // size past the end of .text
    assert!(matches!(expect_err(&b), Error::BadSymbol { index: 1, .. }));

    // Relocation 0: symbol index out of range, unknown type, field outside .text.
    for (at, value) in [
        (l.rel + 8, 99u64 << 32 | 1),
        (l.rel + 8, 3u64 << 32 | 12),
        (l.rel, 0xfffe),
    ] {
        let mut b = good.clone();
        put_u64(&mut b, at, value);
        match expect_err(&b) {
            Error::BadRelocation {
                section,
                index,
                offset,
                ..
            } => assert_eq!((section, index, offset), (3, 0, l.rel as u64)),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn note_and_msgpack_corruption_give_offsets() {
    let good = sample();
    let l = layout(&good);
    // Descriptor size past the end of .note: the first note's header is named.
    let mut b = good.clone();
    put_u32(&mut b, l.note + 4, 0x7fff_ffff);
    assert_eq!(
        match expect_err(&b) {
            Error::BadNote { offset, .. } => offset,
            other => panic!("{other:?}"),
        },
        l.note as u64
    );
    // A reserved msgpack marker as the first payload byte: the file offset of that byte.
    let mut b = good.clone();
    b[l.metadata_payload] = 0xc1;
    match expect_err(&b) {
        Error::Msgpack { offset, reason } => {
            assert_eq!(offset, l.metadata_payload as u64);
            assert!(reason.contains("reserved marker"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    // A map that claims more entries than the payload holds.
    let mut b = good.clone();
    b[l.metadata_payload] = 0xdf; // map32 ...
    put_u32(&mut b, l.metadata_payload + 1, 0x7fff_ffff);
    assert!(matches!(expect_err(&b), Error::Msgpack { .. }));
    // The text itself is never interpreted.
    let mut b = good.clone();
    b[l.text + 0x10] ^= 0xff;
    assert!(ElfFile::parse(&b).is_ok());
}

fn pipeline(v: &mut Value) -> &mut Value {
    match v.get_mut("amdpal.pipelines").unwrap() {
        Value::Array(a) => &mut a[0],
        _ => unreachable!(),
    }
}

#[test]
fn malformed_metadata_trees_are_errors_with_paths() {
    let good = pal2_info(target_of(Gen::Gfx9, Wave::W64))
        .to_metadata()
        .unwrap()
        .to_value();
    let cases: Vec<(&str, Edit<Value>)> = vec![
        (
            "amdpal.version",
            Box::new(|v| {
                v.as_map_mut().unwrap().insert(
                    Key::str("amdpal.version"),
                    Value::Array(vec![Value::UInt(9), Value::UInt(0)]),
                );
            }),
        ),
        (
            "amdpal.pipelines",
            Box::new(|v| {
                let p = v.get("amdpal.pipelines").unwrap().as_array().unwrap()[0].clone();
                v.as_map_mut().unwrap().insert(
                    Key::str("amdpal.pipelines"),
                    Value::Array(vec![p.clone(), p]),
                );
            }),
        ),
        (
            "amdpal.pipelines[0].registers.0x2e12",
            Box::new(|v| {
                let regs = pipeline(v).get_mut(".registers").unwrap();
                regs.as_map_mut()
                    .unwrap()
                    .insert(Key::UInt(0x2e12), Value::str("x"));
            }),
        ),
        (
            "amdpal.pipelines[0].registers.0x2e13",
            Box::new(|v| {
                let regs = pipeline(v).get_mut(".registers").unwrap();
                regs.as_map_mut()
                    .unwrap()
                    .insert(Key::UInt(0x2e13), Value::UInt(1 << 40));
            }),
        ),
        (
            "amdpal.pipelines[0].hardware_stages.cs.wavefront_size",
            Box::new(|v| {
                let cs = pipeline(v)
                    .get_mut(".hardware_stages")
                    .unwrap()
                    .get_mut(".cs")
                    .unwrap();
                cs.as_map_mut()
                    .unwrap()
                    .insert(Key::str(".wavefront_size"), Value::UInt(48));
            }),
        ),
        (
            "amdpal.pipelines[0].hardware_stages.xs",
            Box::new(|v| {
                let hw = pipeline(v).get_mut(".hardware_stages").unwrap();
                hw.as_map_mut()
                    .unwrap()
                    .insert(Key::str(".xs"), Value::map());
            }),
        ),
        (
            "amdpal.pipelines[0].type",
            Box::new(|v| {
                pipeline(v)
                    .as_map_mut()
                    .unwrap()
                    .insert(Key::str(".type"), Value::UInt(1));
            }),
        ),
        (
            "gcnc.prelink.version",
            Box::new(|v| {
                v.as_map_mut()
                    .unwrap()
                    .insert(Key::str("gcnc.prelink"), Value::map());
            }),
        ),
    ];
    for (want_path, edit) in cases {
        let mut v = good.clone();
        edit(&mut v);
        match PalMetadata::from_value(&v) {
            Err(Error::Metadata { path, .. }) => assert_eq!(path, want_path),
            other => panic!("{want_path}: {other:?}"),
        }
    }
}

#[test]
fn the_writer_refuses_inconsistent_objects() {
    let good = sample_object(target_of(Gen::Gfx11, Wave::W32));
    let cases: Vec<(&str, Edit<CodeObject>)> = vec![
        ("text not whole dwords", Box::new(|o| o.text.push(0))),
        (
            "entry not 256-aligned",
            Box::new(|o| {
                o.functions.push(FuncSymbol {
                    name: "_amdgpu_ps_main".into(),
                    offset: 0x20,
                    size: 4,
                })
            }),
        ),
        (
            "symbol past .text",
            Box::new(|o| o.functions[1].size = 0x10_000),
        ),
        (
            "symbol offset overflow",
            Box::new(|o| o.functions[1].offset = u64::MAX),
        ),
        (
            "duplicate symbol",
            Box::new(|o| {
                let f = o.functions[0].clone();
                o.functions.push(f)
            }),
        ),
        ("empty name", Box::new(|o| o.functions[1].name.clear())),
        (
            "metadata entry point undefined",
            Box::new(|o| o.functions[0].name = "main".into()),
        ),
        (
            "NUL in name",
            Box::new(|o| o.relocations[0].symbol = "a\0b".into()),
        ),
        (
            "relocation past .text",
            Box::new(|o| o.relocations[0].offset = 0x10_000),
        ),
        (
            "two relocations at one offset",
            Box::new(|o| {
                let r = o.relocations[1].clone();
                o.relocations.push(r)
            }),
        ),
        (
            "negative REL16 addend",
            Box::new(|o| o.relocations[0].addend = -4),
        ),
        (
            "ABS32 addend over i32",
            Box::new(|o| o.relocations[1].addend = 1 << 40),
        ),
        (
            "R_AMDGPU_NONE",
            Box::new(|o| o.relocations[0].kind = RelocKind::None),
        ),
        (
            "placeholder not zero",
            Box::new(|o| {
                // LLVM's 0xFFFF REL16 placeholder means A = 65535 to PAL: refuse it.
                o.text[0x14] = 0xff;
                o.text[0x15] = 0xff;
            }),
        ),
    ];
    for (what, edit) in cases {
        let mut o = good.clone();
        edit(&mut o);
        match o.write() {
            Err(Error::InvalidInput { .. }) => {}
            other => panic!("{what}: expected InvalidInput, got {other:?}"),
        }
    }
    // A non-entry part may sit at any dword offset, and a placeholder equal to the addend
    // is accepted.
    let mut o = good.clone();
    o.relocations.push(Relocation {
        offset: 0x1c,
        kind: RelocKind::Abs32,
        symbol: "x".into(),
        addend: 0xBFB0_0000u32 as i32 as i64, // the s_endpgm word already there
    });
    assert!(o.write().is_ok(), "field already holding the addend");
}
