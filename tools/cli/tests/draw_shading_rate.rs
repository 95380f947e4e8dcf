//! gl_PrimitiveShadingRateEXT (SPIR-V `PrimitiveShadingRateKHR`) written by a vertex
//! shader (tests/shaders/draw/vs_prim_rate.vert: a rate per vertex covering every valid
//! combination of the Vulkan flags; vs_prim_rate_const.vert: a constant 2x1 with
//! gl_PointSize beside it), on the configurations with variable-rate shading (gfx1030,
//! gfx1100; GFX9 has none and refuses the builtin).
//!
//! - A draw description has no fragment-shading-rate state, so Vulkan's combiners keep
//!   the pipeline's 1x1 rate and the primitive rate is ignored: the image is byte-equal
//!   to the same draw without the rate (vs_color.vert), and equal to lavapipe's.
//! - The export and registers, read with LLVM's tools (not gcnc's decoder): the rate is
//!   `pos1.y` (`exp pos1 <psize|off>, vR, off, off done`), in the generation's encoding
//!   as RADV lowers it (horizontal 2 → X = 1: bit 2 on GFX10.3, bit 4 on GFX11);
//!   PA_CL_VS_OUT_CNTL (41479) sets USE_VTX_VRS_RATE (bit 28), VS_OUT_MISC_VEC_ENA (21)
//!   and VS_OUT_MISC_SIDE_BUS_ENA (24), and SPI_SHADER_POS_FORMAT (41411) has two
//!   4-component position exports (Mesa's src/amd/registers and ac_nir export facts;
//!   docs/abi.md "Graphics").
//! - The emulator reads the rate strictly (the unit tests of `gcnc_emu::draw::vertex`).

mod draw_support;

use draw_support::{compare_outputs, gcnc, gcnc_draw, oracle_output, pal_register};
use gcnc_emu::draw::Desc;
use std::path::{Path, PathBuf};

/// The configurations with variable-rate shading.
const VRS_CONFIGS: [(&str, u32); 4] = [
    ("gfx1030", 32),
    ("gfx1030", 64),
    ("gfx1100", 32),
    ("gfx1100", 64),
];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/shaders/draw")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gcnc-draw-vrs-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// color_rgba8.json (nine vertices, three triangles) with `vs` as its vertex shader,
/// written into `dir`.
fn description(dir: &Path, vs: &str) -> PathBuf {
    let c = corpus();
    let text = std::fs::read_to_string(c.join("color_rgba8.json")).unwrap();
    let abs = |f: &str| c.join(f).to_string_lossy().into_owned();
    let text = text
        .replace("\"vs_color.spv\"", &format!("{:?}", abs(vs)))
        .replace("\"fs_color.spv\"", &format!("{:?}", abs("fs_color.spv")));
    let path = dir.join(vs.replace(".spv", ".json"));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_primitive_shading_rate_is_ignored_without_shading_rate_state() {
    let dir = tmp("image");
    let plain = description(&dir, "vs_color.spv");
    for vs in ["vs_prim_rate.spv", "vs_prim_rate_const.spv"] {
        let desc = description(&dir, vs);
        let lavapipe = vkref::oracle::lavapipe().is_some().then(|| {
            let d = Desc::load(&desc).unwrap();
            let want = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{vs}: lavapipe: {e}"));
            (d, want)
        });
        for (target, wave) in VRS_CONFIGS {
            let at = format!("{vs} on {target} w{wave}");
            let (out, base) = (
                dir.join(format!("{vs}-{target}-{wave}")),
                dir.join(format!("plain-{target}-{wave}")),
            );
            gcnc_draw(&desc, target, wave, &out).unwrap_or_else(|e| panic!("{at}: {e}"));
            gcnc_draw(&plain, target, wave, &base).unwrap_or_else(|e| panic!("{at}: {e}"));
            let read = |d: &Path| std::fs::read(d.join("color_0.raw")).unwrap();
            assert_eq!(read(&out), read(&base), "{at}: the rate changed the image");
            if let Some((d, want)) = &lavapipe {
                compare_outputs(d, &out, want).unwrap_or_else(|e| panic!("{at}: {e}"));
            }
        }
    }
}

#[test]
fn gfx9_refuses_the_primitive_shading_rate_naming_it() {
    let dir = tmp("gfx9");
    let desc = description(&dir, "vs_prim_rate.spv");
    let e = gcnc_draw(&desc, "gfx900", 64, &dir.join("out")).unwrap_err();
    assert!(
        e.contains("unsupported") && e.contains("gl_PrimitiveShadingRateEXT") && e.contains("GFX9"),
        "{e}"
    );
}

#[test]
fn the_rate_is_pos1_y_in_each_generations_encoding_and_pa_cl_vs_out_cntl_enables_it() {
    let dir = tmp("elf");
    let c = corpus();
    let (pa_cl_vs_out_cntl, spi_shader_pos_format) = (0xa207, 0xa1c3);
    for (target, wave) in VRS_CONFIGS {
        let at = format!("{target} w{wave}");
        let compile = |vs: &str| {
            let elf = dir.join(format!("{vs}-{target}-{wave}.elf"));
            gcnc(&[
                "compile".as_ref(),
                c.join(vs).as_os_str(),
                c.join("fs_color.spv").as_os_str(),
                "--target".as_ref(),
                target.as_ref(),
                "--wave".as_ref(),
                wave.to_string().as_ref(),
                "-o".as_ref(),
                elf.as_os_str(),
            ])
            .unwrap_or_else(|e| panic!("{at}: {e}"));
            elf.to_string_lossy().into_owned()
        };
        let elf = compile("vs_prim_rate_const.spv");
        let asm = oracle_output(
            "llvm-objdump-19",
            &["-d", &format!("--mcpu={target}"), &elf],
        );
        let lines: Vec<&str> = asm.lines().map(str::trim).collect();
        let exp = lines
            .iter()
            .position(|l| l.starts_with("exp pos1 "))
            .unwrap_or_else(|| panic!("{at}: no exp pos1:\n{asm}"));
        let ops: Vec<&str> = lines[exp]["exp pos1 ".len()..]
            .split("//")
            .next()
            .unwrap()
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .collect();
        assert!(
            ops.len() == 5 && ops[0].starts_with('v') && ops[2..] == ["off", "off", "done"],
            "{at}: pos1 is (point size, rate, off, off) and the last position export: {}",
            lines[exp]
        );
        // the rate register's last write before the export: horizontal 2 is X = 1 (a
        // plain move, or either half of a GFX11 wave32 dual-issue pair)
        let dst = format!("{}, ", ops[1]);
        let value = lines[..exp]
            .iter()
            .rev()
            .flat_map(|l| l.split("//").next().unwrap_or("").split("::"))
            .find_map(|half| {
                let half = half.trim();
                half.strip_prefix("v_mov_b32_e32 ")
                    .or_else(|| half.strip_prefix("v_dual_mov_b32 "))
                    .and_then(|rest| rest.strip_prefix(dst.as_str()))
            })
            .and_then(|v| v.split_whitespace().next())
            .unwrap_or_else(|| panic!("{at}: no constant written to {}:\n{asm}", ops[1]));
        let want = if target == "gfx1100" { "16" } else { "4" };
        assert_eq!(value, want, "{at}: the 2x1 rate in the hardware's encoding");
        let notes = oracle_output("llvm-readelf-19", &["--notes", &elf]);
        let cntl = pal_register(&notes, pa_cl_vs_out_cntl).expect("PA_CL_VS_OUT_CNTL");
        let bits = 1 << 28 | 1 << 24 | 1 << 21 | 1 << 16;
        assert_eq!(cntl & bits, bits, "{at}: PA_CL_VS_OUT_CNTL {cntl:#x}");
        assert_eq!(
            pal_register(&notes, spi_shader_pos_format),
            Some(0x44),
            "{at}"
        );
        // without the rate, and without the point size, no misc vector at all
        let notes = oracle_output("llvm-readelf-19", &["--notes", &compile("vs_color.spv")]);
        let cntl = pal_register(&notes, pa_cl_vs_out_cntl).expect("PA_CL_VS_OUT_CNTL");
        assert_eq!(
            cntl & bits,
            0,
            "{at}: PA_CL_VS_OUT_CNTL {cntl:#x} without the rate"
        );
        assert_eq!(
            pal_register(&notes, spi_shader_pos_format),
            Some(0x4),
            "{at}"
        );
    }
}
