//! Writer → reader round trips, determinism, register values against the llc samples of
//! pal-abi.md, and the link stage's metadata operations (merge, user-data rewrite, pre-link).

mod binary_support;

/// A named modification of a valid input.
type Edit<T> = Box<dyn Fn(&mut T)>;

use binary_support::*;
use gcnc::binary::merge::{merge_metadata, merge_register, rewrite_user_data, take_prelink};
use gcnc::binary::metadata::KEY_PRELINK;
use gcnc::binary::msgpack::{self, Key, Value};
use gcnc::binary::prelink::{PreLinkMetadata, UserSgpr};
use gcnc::binary::registers::*;
use gcnc::binary::ComputeShaderInfo;
use gcnc::binary::{ElfFile, Error, HwStage, PalMetadata, RelocKind};
use gcnc::isa::{Gen, Target, Wave};

#[test]
fn write_read_write_is_the_identity() {
    for tw in configurations() {
        let target = tw.gen;
        let obj = sample_object(tw);
        let bytes = obj.write().unwrap();
        let elf = ElfFile::parse(&bytes).unwrap();
        assert_eq!(elf.gen(), Some(target));
        assert_eq!(elf.e_flags, target.e_flags());
        assert_eq!(elf.isa_name(), Some(target.isa_name()));
        assert_eq!(elf.text().unwrap().len(), obj.text.len());
        let back = elf.to_code_object().unwrap();
        assert_eq!(back.functions, obj.functions);
        let mut want = obj.relocations.clone();
        want.sort_by_key(|r| r.offset);
        assert_eq!(
            back.relocations, want,
            "addends come back from the REL fields"
        );
        assert_eq!(back.metadata, obj.metadata);
        assert_eq!(
            back.write().unwrap(),
            bytes,
            "{target}: rewrite is byte-identical"
        );
        let md = elf.pal_metadata().unwrap().unwrap();
        assert_eq!(md, pal2_info(tw).to_metadata().unwrap());
    }
}

#[test]
fn output_is_deterministic() {
    for tw in configurations() {
        let a = sample_object(tw).write().unwrap();
        let b = sample_object(tw).write().unwrap();
        assert_eq!(a, b);
        // Relocation input order does not leak into the output.
        let mut obj = sample_object(tw);
        obj.relocations.reverse();
        assert_eq!(obj.write().unwrap(), a);
        // Nor does the order in which a tree was built.
        let md = pal2_info(tw).to_metadata().unwrap();
        let mut rebuilt = msgpack::decode(&md.to_msgpack().unwrap()).unwrap();
        let regs = rebuilt
            .get_mut("amdpal.pipelines")
            .and_then(|p| match p {
                Value::Array(a) => a[0].get_mut(".registers"),
                _ => None,
            })
            .and_then(Value::as_map_mut)
            .unwrap();
        let all: Vec<_> = std::mem::take(regs).into_iter().rev().collect();
        regs.extend(all);
        assert_eq!(msgpack::encode(&rebuilt).unwrap(), md.to_msgpack().unwrap());
    }
}

/// Register values llc-19 produced for the pal-samples (pal-abi.md §2.6, §2.7, §3).
#[test]
fn registers_match_the_llc_samples() {
    // cs_pal2 on gfx1030 and gfx1100: DISPATCH_INITIATOR 0x8000, NUM_THREAD 8/8/1,
    // RSRC1 0x602F0040, RSRC2 0x18C, USER_DATA_0..5 = 0x10000000, 0..4. Our RSRC1 differs
    // only in SGPRS (bits 9:6), which is reserved on GFX10+: llc-19 writes 1, we write 0
    // (pal-abi.md §7 pitfall 3).
    for target in [Gen::Gfx10, Gen::Gfx11] {
        let regs = pal2_info(target_of(target, Wave::W32)).registers().unwrap();
        let llc = [
            (0x2e00, 0x8000),
            (0x2e07, 8),
            (0x2e08, 8),
            (0x2e09, 1),
            (0x2e12, 0x602f_0040),
            (0x2e13, 0x18c),
            (0x2e40, 0x1000_0000),
            (0x2e41, 0),
            (0x2e42, 1),
            (0x2e43, 2),
            (0x2e44, 3),
            (0x2e45, 4),
        ];
        for (reg, want) in llc {
            let mask = if reg == COMPUTE_PGM_RSRC1 { !0x3c0 } else { !0 };
            assert_eq!(regs[&reg] & mask, want & mask, "{target} {reg:#x}");
        }
        assert_eq!(
            regs[&COMPUTE_PGM_RSRC1] & 0x3c0,
            0,
            "SGPRS reserved on GFX10+"
        );
        // The only register llc leaves out is RSRC3 (llc-19 never writes it).
        let extra: Vec<u32> = regs
            .keys()
            .copied()
            .filter(|r| !llc.iter().any(|(l, _)| l == r))
            .collect();
        assert_eq!(extra, [COMPUTE_PGM_RSRC3]);
    }
    // The same inputs with wave64 on gfx1030: VGPRS in 4-granules, no wave32 bit
    // (pal-abi.md §3.5: RSRC1 0x602F0041 for the 7-VGPR sample).
    let mut info = pal2_info(target_of(Gen::Gfx10, Wave::W64));
    info.vgprs = 7;
    let regs = info.registers().unwrap();
    assert_eq!(regs[&COMPUTE_PGM_RSRC1] | 0x40, 0x602f_0041);
    assert!(!regs.contains_key(&COMPUTE_DISPATCH_INITIATOR));
    // cs_gfx900: 5 VGPRs, 15 SGPRs (with VCC and XNACK_MASK), float mode 0xF0 → 0x002F0041,
    // exactly (GFX9 encodes SGPRS as ceil(n/8)-1, like llc).
    let mut info = ComputeShaderInfo::new(Target::new(Gen::Gfx9));
    info.vgprs = 5;
    info.sgprs = 15;
    let regs = info.registers().unwrap();
    assert_eq!(regs[&COMPUTE_PGM_RSRC1], 0x002f_0041);
    assert_eq!(regs[&COMPUTE_PGM_RSRC2], 0);
    assert!(!regs.contains_key(&COMPUTE_PGM_RSRC3), "no RSRC3 on GFX9");
    // cs_lds: 1000 bytes of LDS → 2 granules → RSRC2 0x10000.
    info.lds_bytes = 1000;
    assert_eq!(info.registers().unwrap()[&COMPUTE_PGM_RSRC2], 0x10000);
    // cs_pal3 float mode 0xC0 (LLPC style).
    let mut info = ComputeShaderInfo::new(Target::new(Gen::Gfx11));
    info.float_mode = FloatMode::FLUSH_F32_DENORMS;
    assert_eq!(FloatMode::new(0, 0, 0, 3), FloatMode(0xc0));
    assert_eq!(
        info.registers().unwrap()[&COMPUTE_PGM_RSRC1] >> 12 & 0xff,
        0xc0
    );
}

#[test]
fn register_fields_pack_and_unpack() {
    // VGPR granules per wave size and generation.
    for (target, vgprs, field) in [
        (target_of(Gen::Gfx9, Wave::W64), 1, 0),
        (target_of(Gen::Gfx9, Wave::W64), 4, 0),
        (target_of(Gen::Gfx9, Wave::W64), 5, 1),
        (target_of(Gen::Gfx9, Wave::W64), 256, 63),
        (target_of(Gen::Gfx10, Wave::W32), 8, 0),
        (target_of(Gen::Gfx10, Wave::W32), 9, 1),
        (target_of(Gen::Gfx10, Wave::W32), 256, 31),
        (target_of(Gen::Gfx10, Wave::W64), 9, 2),
        (target_of(Gen::Gfx11, Wave::W32), 24, 2),
        (target_of(Gen::Gfx11, Wave::W64), 24, 5),
    ] {
        let r = Rsrc1::new(target.gen, vgprs, 10, FloatMode::IEEE_DENORMS);
        let v = r.pack(target).unwrap();
        assert_eq!(v & 0x3f, field, "{target} {vgprs} VGPRs");
        let back = Rsrc1::unpack(v, target);
        assert!(back.vgprs >= vgprs && back.vgprs - vgprs < target.vgpr_granule());
        assert_eq!(back.wgp_mode, target.gen.is_gfx10_plus());
        assert_eq!(back.mem_ordered, target.gen.is_gfx10_plus());
    }
    // RSRC2 fields round trip.
    let r2 = Rsrc2 {
        scratch_en: true,
        user_sgprs: 16,
        trap_present: false,
        tgid_en: [true, false, true],
        tg_size_en: true,
        tidig_comp_cnt: 2,
        excp_en_msb: 0,
        lds_bytes: 65536,
        excp_en: 0,
    };
    let v = r2.pack().unwrap();
    assert_eq!(v >> 15 & 0x1ff, 128, "64 KiB = 128 granules");
    assert_eq!(Rsrc2::unpack(v), r2);
    // RSRC3 INST_PREF_SIZE is GFX11 only, in 128-byte units.
    assert_eq!(Gen::Gfx11.info().inst_pref_size(236), 2);
    assert_eq!(Gen::Gfx11.info().inst_pref_size(1 << 20), 63);
    assert_eq!(Gen::Gfx10.info().inst_pref_size(236), 0);
    let r3 = Rsrc3 {
        inst_pref_size: 2,
        ..Default::default()
    };
    assert_eq!(r3.pack(target_of(Gen::Gfx11, Wave::W32)).unwrap(), 0x20);
    assert!(r3.pack(target_of(Gen::Gfx10, Wave::W32)).is_err());
    assert!(Rsrc3::default()
        .pack(target_of(Gen::Gfx9, Wave::W64))
        .is_err());
    // Wave32 bit; NUM_THREAD.
    assert_eq!(
        dispatch_initiator(target_of(Gen::Gfx11, Wave::W32)).unwrap(),
        Some(0x8000)
    );
    assert_eq!(
        dispatch_initiator(target_of(Gen::Gfx9, Wave::W64)).unwrap(),
        None
    );
    assert!(dispatch_initiator(target_of(Gen::Gfx9, Wave::W32)).is_err());
    assert_eq!(
        num_threads([64, 2, 1]).unwrap(),
        [(0x2e07, 64), (0x2e08, 2), (0x2e09, 1)]
    );
    // User-data values.
    for ud in [
        UserData::Entry(0),
        UserData::Entry(127),
        UserData::GlobalTable,
        UserData::PerShaderTable,
        UserData::SpillTable,
        UserData::Workgroup,
        UserData::Special(0x1000_000f),
        UserData::Unused,
    ] {
        assert_eq!(UserData::decode(ud.encode()), Some(ud));
    }
}

#[test]
fn invalid_shader_facts_are_typed_errors() {
    let base = ComputeShaderInfo::new(Target::new(Gen::Gfx10));
    let cases: Vec<(&str, Edit<ComputeShaderInfo>)> = vec![
        (
            "wave32 on gfx900",
            Box::new(|i| {
                i.target = target_of(Gen::Gfx9, Wave::W32);
            }),
        ),
        ("257 VGPRs", Box::new(|i| i.vgprs = 257)),
        ("129 SGPRs", Box::new(|i| i.sgprs = 129)),
        (
            "17 user SGPRs",
            Box::new(|i| i.user_data = vec![UserData::Entry(0); 17]),
        ),
        (
            "global table not in s0",
            Box::new(|i| i.user_data = vec![UserData::Entry(0), UserData::GlobalTable]),
        ),
        (
            "user-data entry 128",
            Box::new(|i| i.user_data = vec![UserData::Entry(128)]),
        ),
        (
            "bad special value",
            Box::new(|i| i.user_data = vec![UserData::Special(7)]),
        ),
        ("TIDIG_COMP_CNT 3", Box::new(|i| i.tidig_comp_cnt = 3)),
        ("LDS over 64 KiB", Box::new(|i| i.lds_bytes = 65537)),
        (
            "workgroup of 2048",
            Box::new(|i| i.workgroup_size = [1024, 2, 1]),
        ),
        (
            "zero-size workgroup",
            Box::new(|i| i.workgroup_size = [0, 1, 1]),
        ),
    ];
    for (what, edit) in cases {
        let mut info = base.clone();
        edit(&mut info);
        match info.to_metadata() {
            Err(Error::InvalidInput { .. }) => {}
            other => panic!("{what}: expected InvalidInput, got {other:?}"),
        }
    }
}

#[test]
fn typed_metadata_round_trips_and_keeps_unknown_keys() {
    let mut md = pal2_info(target_of(Gen::Gfx11, Wave::W32))
        .to_metadata()
        .unwrap();
    md.pipeline.name = Some("demo".into());
    md.pipeline
        .extra
        .insert(Key::str(".api_create_info"), Value::Bin(vec![1, 2, 3]));
    md.pipeline
        .hardware_stages
        .get_mut(&HwStage::Cs)
        .unwrap()
        .extra
        .insert(Key::str(".uses_uavs"), Value::Bool(true));
    md.extra
        .insert(Key::str("gcnc.compiler"), Value::str("gcnc 0.1"));
    let mut pl = PreLinkMetadata::new(HwStage::Cs);
    pl.user_sgprs = vec![
        UserSgpr::GlobalTable,
        UserSgpr::DescriptorSet(0),
        UserSgpr::PushConstant(3),
        UserSgpr::Other("custom".into(), 9),
    ];
    pl.missing_state = vec!["descriptor_layout".into(), "spec_constants".into()];
    md.prelink = Some(pl);
    let bytes = md.to_msgpack().unwrap();
    assert_eq!(PalMetadata::from_msgpack(&bytes).unwrap(), md);
    // Accessors used by the emulator and the link stage.
    assert_eq!(
        md.pipeline.user_data_map(HwStage::Cs).unwrap(),
        pal2_info(target_of(Gen::Gfx11, Wave::W32)).user_data
    );
    assert_eq!(
        md.pipeline.float_mode(HwStage::Cs),
        Some(FloatMode::IEEE_DENORMS)
    );
}

#[test]
fn scratch_size_is_rounded_to_16_and_sets_scratch_en() {
    let mut info = ComputeShaderInfo::new(Target::new(Gen::Gfx9));
    info.scratch_bytes_per_lane = 260;
    let md = info.to_metadata().unwrap();
    assert_eq!(
        md.pipeline.hardware_stages[&HwStage::Cs].scratch_memory_size,
        272
    );
    assert_eq!(md.pipeline.registers[&COMPUTE_PGM_RSRC2] & 1, 1);
}

/// A prolog part's metadata, as the link stage would build it.
fn prolog_tree(target: Target) -> Value {
    let mut info = ComputeShaderInfo::new(target);
    info.vgprs = 9;
    info.sgprs = 20;
    info.user_data = vec![UserData::GlobalTable, UserData::Entry(7)];
    info.tgid_en = [false, false, true];
    info.lds_bytes = 600;
    info.scratch_bytes_per_lane = 16;
    info.workgroup_size = [8, 8, 1];
    info.to_metadata().unwrap().to_value()
}

#[test]
fn merge_takes_maxima_ors_enables_and_drops_prelink() {
    let target = target_of(Gen::Gfx10, Wave::W32);
    let mut main = pal2_info(target).to_metadata().unwrap();
    main.prelink = Some(PreLinkMetadata::new(HwStage::Cs));
    let mut tree = main.to_value();
    let pl = take_prelink(&mut tree.clone()).unwrap();
    assert_eq!(pl, main.prelink.clone());
    merge_metadata(&mut tree, &prolog_tree(target)).unwrap();
    assert!(tree.get(KEY_PRELINK).is_none(), "pre-link section removed");
    let merged = PalMetadata::from_value(&tree).unwrap();
    let regs = &merged.pipeline.registers;
    let r1 = Rsrc1::unpack(regs[&COMPUTE_PGM_RSRC1], target);
    assert_eq!(r1.vgprs, 16, "max(2, 9) VGPRs in 8-granules");
    let r2 = Rsrc2::unpack(regs[&COMPUTE_PGM_RSRC2]);
    assert_eq!(r2.user_sgprs, 6, "max(6, 2)");
    assert_eq!(r2.tgid_en, [true, true, true], "ORed");
    assert!(r2.scratch_en);
    assert_eq!(r2.lds_bytes, 1024, "600 B = 2 granules");
    assert_eq!(
        regs[&(COMPUTE_USER_DATA_0 + 1)],
        0,
        "user data keeps the main tree's"
    );
    let cs = &merged.pipeline.hardware_stages[&HwStage::Cs];
    assert_eq!((cs.vgpr_count, cs.sgpr_count), (9, 20));
    assert_eq!((cs.lds_size, cs.scratch_memory_size), (600, 16));
    assert_eq!(cs.entry_point, "_amdgpu_cs_main");

    // Rewriting the user-data map for the final layout.
    let final_map = [
        UserData::GlobalTable,
        UserData::Entry(3),
        UserData::Entry(9),
    ];
    rewrite_user_data(&mut tree, HwStage::Cs, &final_map).unwrap();
    let md = PalMetadata::from_value(&tree).unwrap();
    assert_eq!(md.pipeline.user_data_map(HwStage::Cs).unwrap(), final_map);
    assert_eq!(
        Rsrc2::unpack(md.pipeline.registers[&COMPUTE_PGM_RSRC2]).user_sgprs,
        3
    );
    assert_eq!(md.pipeline.user_data_limit, 10);
    assert!(!md
        .pipeline
        .registers
        .contains_key(&(COMPUTE_USER_DATA_0 + 5)));
}

#[test]
fn merge_conflicts_are_errors_with_paths() {
    let target = Gen::Gfx11;
    let main = pal2_info(target_of(target, Wave::W32))
        .to_metadata()
        .unwrap()
        .to_value();
    // Different wave size: DISPATCH_INITIATOR present only in one tree is not a conflict
    // by itself, but .wavefront_size is.
    let mut t = main.clone();
    match merge_metadata(&mut t, &prolog_tree(target_of(target, Wave::W64))) {
        Err(Error::Metadata { path, reason }) => {
            assert!(path.ends_with(".wavefront_size"), "{path}: {reason}")
        }
        other => panic!("{other:?}"),
    }
    // Different workgroup size: .threadgroup_dimensions (and NUM_THREAD_X) must be equal.
    let mut other = pal2_info(target_of(target, Wave::W32));
    other.workgroup_size = [64, 1, 1];
    let mut t = main.clone();
    match merge_metadata(&mut t, &other.to_metadata().unwrap().to_value()) {
        Err(Error::Metadata { path, .. }) => {
            assert_eq!(
                path,
                "amdpal.pipelines[0].hardware_stages.cs.threadgroup_dimensions"
            )
        }
        other => panic!("{other:?}"),
    }
    // Different major version.
    let mut v3 = main.clone();
    v3.as_map_mut().unwrap().insert(
        Key::str("amdpal.version"),
        Value::Array(vec![Value::UInt(3), Value::UInt(0)]),
    );
    let mut t = main.clone();
    assert!(matches!(
        merge_metadata(&mut t, &v3),
        Err(Error::Metadata { .. })
    ));
    assert_eq!(
        merge_register(COMPUTE_DISPATCH_INITIATOR, 0x8000, 0x8000).unwrap(),
        0x8000
    );
    match merge_register(COMPUTE_NUM_THREAD_X, 8, 64) {
        Err(Error::Metadata { path, .. }) => assert_eq!(path, "registers.0x2e07"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn relocation_resolution_matches_pal() {
    // REL16: ((S + A) - P - 4) / 4, backward and forward.
    assert_eq!(
        RelocKind::Rel16.resolve(0x118, 0, 0x14).unwrap(),
        64i16.to_le_bytes()
    );
    assert_eq!(
        RelocKind::Rel16.resolve(0x0, 0, 0x100).unwrap(),
        (-65i16).to_le_bytes()
    );
    // Fall-through: branch to the next instruction has simm16 = 0.
    assert_eq!(RelocKind::Rel16.resolve(0x18, 0, 0x14).unwrap(), [0, 0]);
    assert!(
        RelocKind::Rel16.resolve(0x40000, 0, 0).is_err(),
        "out of range"
    );
    assert!(
        RelocKind::Rel16.resolve(0x1a, 0, 0).is_err(),
        "not a dword target"
    );
    assert_eq!(
        RelocKind::Abs32Hi.resolve(0x1_2345_6780, 16, 0).unwrap(),
        1u32.to_le_bytes()
    );
    assert_eq!(
        RelocKind::Abs32Lo.resolve(0x1_2345_6780, 16, 0).unwrap(),
        0x2345_6790u32.to_le_bytes()
    );
    assert_eq!(
        RelocKind::Rel32Lo.resolve(0x1000, 4, 0x100).unwrap(),
        0xf04u32.to_le_bytes()
    );
    assert!(RelocKind::GotPcRel.resolve(0, 0, 0).is_err());
    for k in RelocKind::ALL {
        assert_eq!(RelocKind::from_number(k.number()), Some(k));
    }
    assert_eq!(RelocKind::from_number(12), None);
}

#[test]
fn compute_info_survives_the_metadata_round_trip() {
    for tw in configurations() {
        let mut info = pal2_info(tw);
        let check = |info: &ComputeShaderInfo| {
            let md = info.to_metadata().unwrap();
            let back =
                ComputeShaderInfo::from_metadata(&md, info.target.gen, info.code_bytes).unwrap();
            assert_eq!(&back, info);
            // Through the ELF, as the emulator reads it.
            let mut obj = sample_object(info.target);
            obj.metadata = md.to_value();
            let elf = ElfFile::parse(&obj.write().unwrap()).unwrap();
            let md2 = elf.pal_metadata().unwrap().unwrap();
            let entry = elf.symbol("_amdgpu_cs_main").unwrap();
            assert_eq!(
                ComputeShaderInfo::from_metadata(&md2, info.target.gen, entry.size).unwrap(),
                *info
            );
        };
        check(&info);
        info.vgprs = 77;
        info.sgprs = 40;
        info.lds_bytes = 1000;
        info.scratch_bytes_per_lane = 64;
        info.tgid_en = [true, true, true];
        info.tg_size_en = true;
        info.tidig_comp_cnt = 2;
        info.workgroup_size = [4, 4, 4];
        info.ieee_mode = true;
        info.float_mode = FloatMode::FLUSH_F32_DENORMS;
        info.user_data = vec![UserData::GlobalTable, UserData::Workgroup, UserData::Unused];
        check(&info);
    }
    // Without the hardware-stage map, counts come back as register granules.
    let info = pal2_info(target_of(Gen::Gfx10, Wave::W32));
    let mut md = info.to_metadata().unwrap();
    md.pipeline.hardware_stages.clear();
    let back = ComputeShaderInfo::from_metadata(&md, Gen::Gfx10, 0).unwrap();
    assert_eq!(
        (back.vgprs, back.target.wave, back.workgroup_size),
        (8, Wave::W32, [8, 8, 1])
    );
    // Inconsistent USER_SGPR and USER_DATA registers are an error.
    md.pipeline.registers.remove(&(COMPUTE_USER_DATA_0 + 5));
    assert!(matches!(
        ComputeShaderInfo::from_metadata(&md, Gen::Gfx10, 0),
        Err(Error::Metadata { .. })
    ));
}

#[test]
fn compute_constructor_and_entry_lookup() {
    for tw in configurations() {
        let target = tw.gen;
        let info = pal2_info(tw);
        let obj = gcnc::binary::CodeObject::compute(
            &info,
            sample_text(target),
            MAIN_SIZE + EPILOG_SIZE,
            vec![],
        )
        .unwrap();
        let elf = ElfFile::parse(&obj.write().unwrap()).unwrap();
        let entry = elf.entry(HwStage::Cs).unwrap();
        assert_eq!((entry.value, entry.size), (0, MAIN_SIZE + EPILOG_SIZE));
        assert!(elf.entry(HwStage::Ps).is_none());
        let md = elf.pal_metadata().unwrap().unwrap();
        let back = ComputeShaderInfo::from_metadata(&md, target, entry.size).unwrap();
        assert_eq!(back.code_bytes, MAIN_SIZE + EPILOG_SIZE);
        assert_eq!(back.user_data, info.user_data);
    }
    // Entry size past the text is refused.
    let info = pal2_info(target_of(Gen::Gfx9, Wave::W64));
    assert!(gcnc::binary::CodeObject::compute(&info, vec![0; 8], 12, vec![]).is_err());
}
