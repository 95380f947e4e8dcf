//! Properties of the memory, export and interpolation instructions, as later passes
//! (waitcnt, hazards, WQM, the emulator) query them: one line per (generation, mnemonic)
//! with the flags that must be set and those that must not.

use gcnc::isa::*;

fn p(gen: Gen, name: &str) -> Props {
    let op = Opcode::from_name(name).unwrap_or_else(|| panic!("no {name}"));
    assert!(
        tables::forms(gen, op).next().is_some(),
        "{name} not on {gen}"
    );
    op.props_on(gen)
}

#[test]
fn memory_properties() {
    use Props as P;
    let cases: &[(Gen, &str, Props, Props)] = &[
        // (gen, instruction, must have, must not have)
        (
            Gen::Gfx9,
            "ds_read_b32",
            P::LDS | P::LGKM_CNT | P::READS_M0,
            P::VMEM | P::VM_CNT,
        ),
        (Gen::Gfx10, "ds_read_b32", P::LDS | P::LGKM_CNT, P::READS_M0),
        // ds_nop touches no LDS address, so it needs no M0 bound even on GFX9
        (Gen::Gfx9, "ds_nop", P::LDS, P::READS_M0),
        (Gen::Gfx11, "ds_load_b32", P::LDS | P::LGKM_CNT, P::READS_M0),
        (
            Gen::Gfx11,
            "ds_gws_init",
            P::READS_M0 | P::LGKM_CNT,
            P::VM_CNT,
        ),
        (
            Gen::Gfx9,
            "buffer_load_dword",
            P::VMEM | P::VM_CNT,
            P::VS_CNT | P::LGKM_CNT,
        ),
        (
            Gen::Gfx9,
            "buffer_store_dword",
            P::VMEM | P::VM_CNT,
            P::VS_CNT,
        ),
        (
            Gen::Gfx10,
            "buffer_store_dword",
            P::VMEM | P::VS_CNT,
            P::VM_CNT,
        ),
        (
            Gen::Gfx11,
            "buffer_store_b32",
            P::VMEM | P::VS_CNT,
            P::VM_CNT,
        ),
        (
            Gen::Gfx10,
            "buffer_atomic_add",
            P::VMEM | P::VS_CNT | P::VM_CNT | P::ATOMIC,
            P::LGKM_CNT,
        ),
        (
            Gen::Gfx9,
            "buffer_atomic_add",
            P::VM_CNT | P::ATOMIC,
            P::VS_CNT,
        ),
        (
            Gen::Gfx10,
            "global_store_dword",
            P::VS_CNT,
            P::ATOMIC | P::VM_CNT,
        ),
        (
            Gen::Gfx10,
            "tbuffer_load_format_x",
            P::VMEM | P::VM_CNT,
            P::VS_CNT,
        ),
        (
            Gen::Gfx9,
            "flat_load_dword",
            P::VMEM | P::VM_CNT | P::LGKM_CNT,
            P::VS_CNT,
        ),
        (
            Gen::Gfx11,
            "global_load_b32",
            P::VMEM | P::VM_CNT,
            P::LGKM_CNT | P::VS_CNT,
        ),
        (
            Gen::Gfx11,
            "scratch_store_b32",
            P::VMEM | P::VS_CNT,
            P::VM_CNT,
        ),
        (
            Gen::Gfx10,
            "image_sample",
            P::VMEM | P::VM_CNT | P::NEEDS_WQM,
            P::VS_CNT,
        ),
        (Gen::Gfx11, "image_gather4", P::VMEM | P::NEEDS_WQM, P::LDS),
        (Gen::Gfx11, "image_load", P::VMEM | P::VM_CNT, P::NEEDS_WQM),
        (
            Gen::Gfx10,
            "image_store",
            P::VMEM | P::VS_CNT,
            P::NEEDS_WQM | P::VM_CNT,
        ),
        (Gen::Gfx9, "exp", P::EXPORT | P::EXP_CNT, P::VMEM | P::VALU),
        (Gen::Gfx11, "exp", P::EXPORT | P::EXP_CNT, P::VMEM),
        (
            Gen::Gfx9,
            "v_interp_p1_f32",
            P::VALU | P::READS_M0 | P::NEEDS_WQM,
            P::LDS,
        ),
        (
            Gen::Gfx10,
            "v_interp_mov_f32",
            P::VALU | P::READS_M0 | P::NEEDS_WQM,
            P::VMEM,
        ),
        (
            Gen::Gfx11,
            "lds_param_load",
            P::LDS | P::READS_M0 | P::EXP_CNT | P::NEEDS_WQM,
            P::VALU,
        ),
        (
            Gen::Gfx11,
            "lds_direct_load",
            P::LDS | P::READS_M0 | P::EXP_CNT,
            P::VALU,
        ),
        (
            Gen::Gfx11,
            "v_interp_p10_f32",
            P::VALU | P::NEEDS_WQM,
            P::READS_M0,
        ),
    ];
    for &(gen, name, have, not) in cases {
        let got = p(gen, name);
        assert!(
            got.contains(have),
            "{gen} {name}: {got:?} lacks {:?}",
            have - got
        );
        assert!(
            !got.intersects(not),
            "{gen} {name}: {got:?} has {:?}",
            got & not
        );
    }
}

/// Every memory, export and interpolation encoding in the tables has its unit and counter:
/// a new mnemonic from the sweep cannot slip through without properties.
#[test]
fn every_memory_instruction_has_a_unit_and_a_counter() {
    use Props as P;
    let mut missing = Vec::new();
    for gen in Gen::ALL {
        for d in tables::encodings(gen).iter().filter(|d| d.format.is_mem()) {
            let p = d.opcode.props_on(gen);
            let unit = match d.format {
                Format::Ds => P::LDS,
                Format::Exp => P::EXPORT,
                Format::Vintrp | Format::Vinterp => P::VALU,
                Format::Ldsdir => P::LDS,
                _ => P::VMEM,
            };
            let counted = p.intersects(P::LGKM_CNT | P::VM_CNT | P::VS_CNT | P::EXP_CNT);
            let valu = unit == P::VALU;
            if !p.contains(unit) || (!counted && !valu) {
                missing.push(format!("{gen} {} {p:?}", d.mnemonic));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
