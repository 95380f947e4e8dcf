//! Shared memory (LDS) and scratch through the whole backend, on gfx900 wave64 and
//! gfx1030/gfx1100 in wave32 and wave64:
//! - `tests/backend/lds.ir` and `tests/backend/scratch.ir` run on the emulator (strict
//!   checks, the PAL ELF's own metadata for LDS/scratch sizes and the scratch setup) and
//!   every thread's eight output dwords match a Rust expectation;
//! - llvm-objdump-19's disassembly of the ELF shows the addressing the selector promises:
//!   DS offsets folded into the instruction (`offset:16`, `offset:528`, `offset0:4
//!   offset1:5`), and the scratch forms per generation (`off, off` on GFX10.3/GFX11, an
//!   SGPR offset on GFX9, a VGPR offset with `offset:64`), plus the FLAT_SCRATCH prologue
//!   (GFX9 `flat_scratch_lo`, GFX10.3 `hwreg(HW_REG_FLAT_SCR_LO)`, none on GFX11);
//! - metadata and statistics carry the sizes;
//! - the `amdgpu::scratch` API splits values wider than four dwords and reserves aligned
//!   slots.

mod backend_support;

use backend_support::*;
use gcnc::amdgpu::mir::{Arg, Op, Program, Pseudo, RegClass};
use gcnc::amdgpu::scratch;
use gcnc::binary::UserData;
use gcnc::isa::{Gen, Target, Wave};
use gcnc_emu::Dispatch;

fn ir(name: &str) -> String {
    std::fs::read_to_string(format!("tests/backend/{name}")).unwrap()
}

/// Runs one workgroup of `text` with set 0 binding 0 = an output buffer; returns 8 dwords
/// per thread.
fn run_out(text: &str, gen: Gen, wave: Wave) -> Vec<[u32; 8]> {
    run_output(text, gen, wave, 8)
        .into_iter()
        .map(|v| v.try_into().unwrap())
        .collect()
}

#[test]
fn lds_on_emulator() {
    let text = ir("lds.ir");
    // sum of (l + 1) over the 128 threads
    let counter = (1..=128u32).sum::<u32>();
    for (g, w) in CONFIGS {
        let out = run_out(&text, g, w);
        for (l, o) in out.iter().enumerate() {
            let l = l as u32;
            let m = l ^ 127;
            let p = l & !1;
            assert_eq!(
                *o,
                [m, m, 4 * m, 16 * m, m, p, p + 1, counter],
                "{} {w:?} thread {l}",
                g.mcpu()
            );
        }
    }
}

#[test]
fn scratch_on_emulator() {
    let text = ir("scratch.ir");
    for (g, w) in CONFIGS {
        let out = run_out(&text, g, w);
        for (l, o) in out.iter().enumerate() {
            let l = l as u32;
            assert_eq!(
                *o,
                [l, l + 1, l + 2, l + 3, 7 * l, l ^ 0x55, l + 100, l],
                "{} {w:?} thread {l}",
                g.mcpu()
            );
        }
    }
}

#[test]
fn sizes_in_metadata_and_statistics() {
    for (g, w) in CONFIGS {
        let c = compile_ir(&ir("lds.ir"), g, w);
        assert_eq!(c.stats.lds_size, 2576);
        assert_eq!(c.stats.scratch_size, 0);
        let d = Dispatch::from_elf(&c.elf, Some(w)).unwrap();
        // RSRC2 LDS_SIZE is in 512-byte granules; the metadata keeps the bytes
        assert_eq!(d.lds_bytes, 2576);
        let c = compile_ir(&ir("scratch.ir"), g, w);
        assert_eq!(c.stats.scratch_size, 6016);
        assert_eq!(c.stats.lds_size, 0);
        let d = Dispatch::from_elf(&c.elf, Some(w)).unwrap();
        assert_eq!(d.scratch_bytes, 6016);
        let git = c.program.abi.user_sgprs.first() == Some(&UserData::GlobalTable);
        assert_eq!(
            git,
            g != Gen::Gfx11,
            "{}: GlobalTable in user SGPR 0",
            g.mcpu()
        );
    }
}

/// llvm-objdump-19's instruction texts of a compiled shader.
fn llvm_disassembly(text: &str, g: Gen, w: Wave) -> Option<Vec<String>> {
    let objdump = oracle("llvm-objdump-19")?;
    let c = compile_ir(text, g, w);
    let path = temp_path(&format!("memory-{}-{w:?}-{}.elf", g.mcpu(), text.len()));
    std::fs::write(&path, &c.elf).unwrap();
    let mut args = vec!["-d".to_string(), format!("--mcpu={}", g.mcpu())];
    if w == Wave::W64 && g != Gen::Gfx9 {
        args.push("--mattr=+wavefrontsize64".into());
    }
    args.push(path.to_str().unwrap().into());
    let a: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
    let (ok, out) = run_status(&objdump, &a);
    assert!(ok, "objdump failed:\n{out}");
    Some(
        out.lines()
            .filter_map(|l| {
                // instruction lines carry the encoding after `//`
                let (inst, _) = l.split_once("//")?;
                let t = inst.trim();
                t.starts_with(|c: char| c.is_ascii_lowercase())
                    .then(|| t.to_string())
            })
            .collect(),
    )
}

/// Whether some line starts with `op` and ends with `tail` (register numbers between
/// are the allocator's business).
fn has(lines: &[String], op: &str, tail: &str) -> bool {
    lines
        .iter()
        .any(|l| l.starts_with(&format!("{op} ")) && l.ends_with(tail))
}

#[test]
fn ds_offsets_are_folded() {
    for (g, w) in CONFIGS {
        let Some(d) = llvm_disassembly(&ir("lds.ir"), g, w) else {
            return;
        };
        let n = |gfx9_10: &'static str, gfx11: &'static str| {
            if g == Gen::Gfx11 {
                gfx11
            } else {
                gfx9_10
            }
        };
        let want = [
            (n("ds_write_b32", "ds_store_b32"), " offset:16"),
            (n("ds_write_b128", "ds_store_b128"), " offset:528"),
            (n("ds_read_b32", "ds_load_b32"), " offset:16"),
            (n("ds_read_b128", "ds_load_b128"), " offset:528"),
            (
                n("ds_read2_b32", "ds_load_2addr_b32"),
                " offset0:4 offset1:5",
            ),
            ("ds_add_rtn_u32", ""),
            ("s_barrier", ""),
        ];
        for (op, tail) in want {
            assert!(
                has(&d, op, tail) || (tail.is_empty() && d.iter().any(|l| l == op)),
                "{} {w:?}: no `{op} …{tail}` in\n{}",
                g.mcpu(),
                d.join("\n")
            );
        }
    }
}

#[test]
fn scratch_addressing_per_generation() {
    for (g, w) in CONFIGS {
        let Some(d) = llvm_disassembly(&ir("scratch.ir"), g, w) else {
            return;
        };
        let text = d.join("\n");
        let (st4, st1) = if g == Gen::Gfx11 {
            ("scratch_store_b128", "scratch_store_b32")
        } else {
            ("scratch_store_dwordx4", "scratch_store_dword")
        };
        // constant offset 0: no address register on GFX10.3/GFX11, an SGPR on GFX9
        let const_form = if g == Gen::Gfx9 {
            d.iter()
                .any(|l| l.starts_with(&format!("{st4} off, v[")) && !l.ends_with(", off"))
        } else {
            d.iter()
                .any(|l| l.starts_with(&format!("{st4} off, v[")) && l.ends_with("], off"))
        };
        assert!(
            const_form,
            "{} {w:?}: constant-offset form in\n{text}",
            g.mcpu()
        );
        // per-lane offset with the base in the immediate
        assert!(
            d.iter()
                .any(|l| l.starts_with(&format!("{st1} v")) && l.ends_with(", off offset:64")),
            "{} {w:?}: VGPR-offset form in\n{text}",
            g.mcpu()
        );
        // 6000 is beyond every immediate: an SGPR offset
        assert!(
            has(&d, "s_movk_i32", "0x1770") || has(&d, "s_mov_b32", "0x1770"),
            "{} {w:?}: large constant in an SGPR in\n{text}",
            g.mcpu()
        );
        let prologue = match g {
            Gen::Gfx9 => d
                .iter()
                .any(|l| l.starts_with("s_add_u32 flat_scratch_lo,")),
            Gen::Gfx10 => d
                .iter()
                .any(|l| l.starts_with("s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO)")),
            Gen::Gfx11 => !text.contains("flat_scratch") && !text.contains("FLAT_SCR"),
        };
        assert!(
            prologue,
            "{} {w:?}: FLAT_SCRATCH setup in\n{text}",
            g.mcpu()
        );
    }
}

#[test]
fn scratch_api_splits_wide_values_and_aligns_slots() {
    for gen in [Gen::Gfx9, Gen::Gfx10, Gen::Gfx11] {
        let mut p = Program::new(Target::new(gen));
        assert_eq!(scratch::reserve(&mut p, 6), 0);
        assert_eq!(scratch::reserve(&mut p, 24), 8);
        assert_eq!(p.scratch_bytes, 32);
        let v6 = p.new_temp(RegClass::v(6));
        let addr = p.new_temp(RegClass::V1);
        let st = scratch::store(&mut p, v6, scratch::Addr::Vgpr(addr, 8));
        // split, then a 4-dword and a 2-dword store at +0 and +16
        assert_eq!(st[0].op, Op::Pseudo(Pseudo::SplitVector));
        let stores: Vec<_> = st[1..]
            .iter()
            .map(|i| (i.opcode().unwrap().name(), i.mods.mem.offset))
            .collect();
        let (x4, x2) = if gen == Gen::Gfx11 {
            ("scratch_store_b128", "scratch_store_b64")
        } else {
            ("scratch_store_dwordx4", "scratch_store_dwordx2")
        };
        assert_eq!(stores, [(x4, 8), (x2, 24)], "{gen}");
        let ld = scratch::load(&mut p, v6, scratch::Addr::Vgpr(addr, 8));
        assert_eq!(ld.len(), 3);
        assert_eq!(ld[2].op, Op::Pseudo(Pseudo::CreateVector));
        assert_eq!(ld[2].defs[0], Arg::Temp(v6));
        // a constant offset: no address register on GFX10.3/GFX11, an SGPR on GFX9
        let v1 = p.new_temp(RegClass::V1);
        let c = scratch::load(&mut p, v1, scratch::Addr::Const(40));
        match gen {
            Gen::Gfx9 => {
                assert_eq!(c.len(), 2);
                assert_eq!(c[0].opcode().unwrap().name(), "s_mov_b32");
            }
            _ => {
                assert_eq!(c.len(), 1);
                assert_eq!(c[0].ops.as_slice(), [Arg::Off, Arg::Off]);
                assert_eq!(c[0].mods.mem.offset, 40);
            }
        }
    }
}
