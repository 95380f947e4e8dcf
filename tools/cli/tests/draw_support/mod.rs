//! Hand-written vertex + pixel pipelines for the draw tests, assembled by llvm-mc-19 and
//! packed into PAL ELFs by gcnc's ELF writer: the emulator's graphics launch
//! (docs/draw.md) proven on its own, before the compiler emits graphics code.
//!
//! The pipeline: the vertex shader fetches a vec4 position (offset 0) and a vec4 colour
//! (offset 16) of binding 0 through the vertex buffer table (user SGPRs: GlobalTable,
//! VertexBufferTable, BaseVertex, BaseInstance), exports the position and the colour as parameter 0
//! (GFX11: attribute 0 in the attribute ring, a swizzled store at the subgroup's place
//! from s5, docs/abi.md); the pixel shader interpolates the colour
//! perspective-correctly (or flat, or linearly: `Ps::interp`) and exports it to mrt0 as
//! 32_ABGR, or as FP16_ABGR (`Ps::fp16`); `Ps::fragcoord` instead exports
//! (FragCoord.x / 40, FragCoord.y / 32, FrontFacing, 1).
#![allow(dead_code)]

/// How the colour reaches the pixel shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interp {
    Smooth,
    Flat,
    Linear,
}

/// The pipeline variant (mostly the pixel shader's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ps {
    pub fp16: bool,
    pub interp: Interp,
    pub fragcoord: bool,
    /// The vertex shader adds the xy of a per-instance vec4 (binding 1, fetched at
    /// InstanceID + BaseInstance) to the position.
    pub instanced: bool,
    /// The pixel shader also exports the colour's red channel as its depth (`mrtz`,
    /// SPI_SHADER_Z_FORMAT 32_R).
    pub depth: bool,
}

impl Ps {
    pub const SMOOTH: Ps = Ps {
        fp16: false,
        interp: Interp::Smooth,
        fragcoord: false,
        instanced: false,
        depth: false,
    };

    pub fn fp16(fp16: bool) -> Ps {
        Ps { fp16, ..Ps::SMOOTH }
    }
}

use gcnc::binary::metadata::{ApiShader, ApiStage, HardwareStage, PipelineMetadata};
use gcnc::binary::{CodeObject, FuncSymbol, HwStage, PalMetadata};
use gcnc::isa::{Gen, Target, Wave};
use std::collections::BTreeMap;

#[path = "../../../emu/tests/support/mod.rs"]
pub mod emu_support;

fn vertex_asm(t: Target, instanced: bool) -> String {
    let w64 = t.wave == Wave::W64;
    let pick = |a: &'static str, b: &'static str| if instanced { a } else { b };
    let (n, exec, vcc) = if w64 {
        ("64", "exec", "vcc")
    } else {
        ("32", "exec_lo", "vcc_lo")
    };
    let save = if w64 { "s[16:17]" } else { "s16" };
    match t.gen {
        Gen::Gfx9 => format!(
            "s_getpc_b64 s[4:5]\n\
             s_mov_b32 s4, s1\n\
             s_load_dwordx4 s[8:11], s[4:5], 0x0\n\
             {}\
             s_waitcnt lgkmcnt(0)\n\
             v_add_u32_e32 v4, s2, v0\n\
             buffer_load_dwordx4 v[5:8], v4, s[8:11], 0 idxen\n\
             buffer_load_dwordx4 v[9:12], v4, s[8:11], 0 idxen offset:16\n\
             {}\
             s_waitcnt vmcnt(0)\n\
             {}\
             exp param0 v9, v10, v11, v12\n\
             exp pos0 v5, v6, v7, v8 done\n\
             s_endpgm\n",
            pick("s_load_dwordx4 s[12:15], s[4:5], 0x10\n", ""),
            pick(
                "v_add_u32_e32 v13, s3, v1\nbuffer_load_dwordx4 v[14:17], v13, s[12:15], 0 idxen\n",
                ""
            ),
            pick("v_add_f32_e32 v5, v5, v14\nv_add_f32_e32 v6, v6, v15\n", ""),
        ),
        _ => {
            let gfx11 = t.gen == Gen::Gfx11;
            let (load4, bload4) = if gfx11 {
                ("s_load_b128", "buffer_load_b128")
            } else {
                ("s_load_dwordx4", "buffer_load_dwordx4")
            };
            let mbcnt_hi = if w64 {
                "v_mbcnt_hi_u32_b32 v20, -1, v20\n"
            } else {
                ""
            };
            let prim = if gfx11 {
                "v_mov_b32_e32 v21, v0\n"
            } else {
                "v_and_b32_e32 v21, 0xffff, v0\n\
                 v_lshrrev_b32_e32 v22, 16, v0\n\
                 v_lshl_or_b32 v21, v22, 10, v21\n\
                 v_lshl_or_b32 v21, v1, 20, v21\n"
            };
            let params = if gfx11 {
                // the ring's V# with STRIDE 16 (one parameter), the subgroup's place from s5
                "s_mov_b32 s4, s8\n\
                 s_load_b128 s[24:27], s[4:5], 0xb0\n\
                 s_waitcnt lgkmcnt(0)\n\
                 s_or_b32 s25, s25, 0x100000\n\
                 buffer_store_b128 v[28:31], v20, s[24:27], s28 idxen\n"
            } else {
                "exp param0 v28, v29, v30, v31\n"
            };
            // s5 (the subgroup's ring place, 512-byte units in bits 14:0) before
            // s_getpc_b64 overwrites it
            let ring_off = if gfx11 {
                "s_and_b32 s28, s5, 0x7fff\ns_lshl_b32 s28, s28, 9\n"
            } else {
                ""
            };
            let inst_desc = if instanced {
                format!("{load4} s[32:35], s[4:5], 0x10\n")
            } else {
                String::new()
            };
            let inst_fetch = if instanced {
                format!(
                    "v_add_nc_u32_e32 v13, s11, v8\n{bload4} v[36:39], v13, s[32:35], 0 idxen\n"
                )
            } else {
                String::new()
            };
            let inst_add = pick(
                "v_add_f32_e32 v24, v24, v36\nv_add_f32_e32 v25, v25, v37\n",
                "",
            );
            format!(
                "{ring_off}\
                 s_bfe_u32 s12, s3, 0x80008\n\
                 s_and_b32 s13, s3, 0xff\n\
                 s_lshl_b32 s14, s12, 12\n\
                 s_or_b32 m0, s14, s13\n\
                 s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)\n\
                 v_mbcnt_lo_u32_b32 v20, -1, 0\n\
                 {mbcnt_hi}\
                 s_mov_b{n} {save}, {exec}\n\
                 v_cmp_gt_u32_e32 {vcc}, s12, v20\n\
                 s_and_b{n} {exec}, {exec}, {vcc}\n\
                 s_cbranch_execz skip_prim\n\
                 {prim}\
                 exp prim v21, off, off, off done\n\
                 skip_prim:\n\
                 s_mov_b{n} {exec}, {save}\n\
                 v_cmp_gt_u32_e32 {vcc}, s13, v20\n\
                 s_and_b{n} {exec}, {exec}, {vcc}\n\
                 s_cbranch_execz end\n\
                 s_getpc_b64 s[4:5]\n\
                 s_mov_b32 s4, s9\n\
                 {load4} s[20:23], s[4:5], 0x0\n\
                 {inst_desc}\
                 s_waitcnt lgkmcnt(0)\n\
                 v_add_nc_u32_e32 v4, s10, v5\n\
                 {bload4} v[24:27], v4, s[20:23], 0 idxen\n\
                 {bload4} v[28:31], v4, s[20:23], 0 idxen offset:16\n\
                 {inst_fetch}\
                 s_waitcnt vmcnt(0)\n\
                 {inst_add}\
                 {params}\
                 exp pos0 v24, v25, v26, v27 done\n\
                 end:\n\
                 s_endpgm\n"
            )
        }
    }
}

fn pixel_asm(t: Target, ps: Ps) -> String {
    let gfx11 = t.gen == Gen::Gfx11;
    let vm = if gfx11 { "" } else { " vm" };
    if ps.fragcoord {
        // v2 = POS_X, v3 = POS_Y, v4 = FRONT_FACE (after PERSP_CENTER's v0, v1)
        return format!(
            "v_mul_f32_e32 v10, 0x3ccccccd, v2\n\
             v_mul_f32_e32 v11, 0x3d000000, v3\n\
             v_mov_b32_e32 v12, 1.0\n\
             exp mrt0 v10, v11, v4, v12 done{vm}\n\
             s_endpgm\n"
        );
    }
    let fp16 = ps.fp16;
    let mut s = String::from("s_mov_b32 m0, s0\n");
    let out = if gfx11 {
        // the wave starts with EXEC = covered lanes: the loads run in whole-quad mode so
        // v_interp_p10/p2 find P0/P10/P20 in every quad
        let (mov, wqm, exec, save) = if t.wave == Wave::W64 {
            ("s_mov_b64", "s_wqm_b64", "exec", "s[20:21]")
        } else {
            ("s_mov_b32", "s_wqm_b32", "exec_lo", "s20")
        };
        s += &format!("{mov} {save}, {exec}\n{wqm} {exec}, {exec}\n");
        for (c, ch) in "xyzw".chars().enumerate() {
            s += &format!("lds_param_load v{}, attr0.{ch} wait_vdst:0\n", 2 + c);
        }
        s += &format!("{mov} {exec}, {save}\n");
        for c in 0..4 {
            s += &format!(
                "v_interp_p10_f32 v{d}, v{p}, v0, v{p} wait_exp:{w}\n",
                d = 6 + c,
                p = 2 + c,
                w = 3 - c
            );
        }
        for c in 0..4 {
            s += &format!(
                "v_interp_p2_f32 v{d}, v{p}, v1, v{d} wait_exp:7\n",
                d = 6 + c,
                p = 2 + c
            );
        }
        6
    } else {
        s += "s_nop 0\n";
        for (c, ch) in "xyzw".chars().enumerate() {
            s += &format!(
                "v_interp_p1_f32_e32 v{d}, v0, attr0.{ch}\nv_interp_p2_f32_e32 v{d}, v1, attr0.{ch}\n",
                d = 2 + c
            );
        }
        2
    };
    if ps.depth {
        s += &format!("exp mrtz v{out}, off, off, off\n");
    }
    if fp16 {
        let cvt = if gfx11 {
            "v_cvt_pk_rtz_f16_f32"
        } else {
            "v_cvt_pkrtz_f16_f32"
        };
        s += &format!(
            "{cvt} v20, v{}, v{}\n{cvt} v21, v{}, v{}\n",
            out,
            out + 1,
            out + 2,
            out + 3
        );
        if gfx11 {
            s += "exp mrt0 v20, v21, off, off done\n";
        } else {
            s += "exp mrt0 v20, v20, v21, v21 done compr vm\n";
        }
    } else {
        s += &format!(
            "exp mrt0 v{}, v{}, v{}, v{} done{vm}\n",
            out,
            out + 1,
            out + 2,
            out + 3
        );
    }
    s + "s_endpgm\n"
}

fn stage(entry: String, t: Target) -> HardwareStage {
    HardwareStage {
        entry_point: entry,
        scratch_memory_size: 0,
        lds_size: 0,
        sgpr_count: 40,
        vgpr_count: 40,
        wavefront_size: Some(t.wave),
        threadgroup_dimensions: None,
        extra: BTreeMap::new(),
    }
}

/// A VS+PS pipeline ELF for `t` (both stages in `t`'s wave size).
pub fn pipeline_elf(t: Target, variant: Ps) -> Vec<u8> {
    let vs = vertex_asm(t, variant.instanced);
    let ps = pixel_asm(t, variant);
    pipeline_elf_from(t, variant, &vs, &ps)
}

/// The vertex shader text `vertex_asm` writes (to derive broken variants from).
pub fn vertex_text(t: Target) -> String {
    vertex_asm(t, false)
}

/// The pixel shader text `pixel_asm` writes.
pub fn pixel_text(t: Target) -> String {
    pixel_asm(t, Ps::SMOOTH)
}

/// A pipeline ELF of `variant`'s registers around the given shader texts.
pub fn pipeline_elf_from(t: Target, variant: Ps, vs_text: &str, ps_text: &str) -> Vec<u8> {
    let fp16 = variant.fp16;
    let vs = emu_support::llvm_asm(t, vs_text);
    let ps = emu_support::llvm_asm(t, ps_text);
    let ps_off = vs.len().next_multiple_of(256);
    let mut text = vs.clone();
    text.resize(ps_off, 0);
    text.extend(&ps);
    text.resize(text.len().next_multiple_of(256), 0);
    let vs_stage = if t.gen == Gen::Gfx9 {
        HwStage::Vs
    } else {
        HwStage::Gs
    };
    let w32 = t.wave == Wave::W32;
    let mut registers = BTreeMap::new();
    let ud = vs_stage.user_data_base();
    // user SGPRs: GlobalTable, VertexBufferTable, BaseVertex, BaseInstance
    let user_data = [0x1000_0000u32, 0x1000_000f, 0x1000_0003, 0x1000_0004];
    for (i, v) in user_data.iter().enumerate() {
        registers.insert(ud + i as u32, *v);
    }
    registers.insert(vs_stage.rsrc1(), 0xc0 << 12);
    registers.insert(vs_stage.rsrc2(), (user_data.len() as u32) << 1);
    registers.insert(HwStage::Ps.rsrc1(), 0xc0 << 12);
    registers.insert(HwStage::Ps.rsrc2(), 0);
    // SPI_PS_INPUT_ENA/ADDR: PERSP_CENTER (I, J in v0, v1), or LINEAR_CENTER alone, or
    // PERSP_CENTER + POS_X + POS_Y + FRONT_FACE
    let inputs = match (variant.fragcoord, variant.interp) {
        (true, _) => 1 << 1 | 1 << 8 | 1 << 9 | 1 << 12,
        (false, Interp::Linear) => 1 << 5,
        _ => 1 << 1,
    };
    registers.insert(0xa1b3, inputs);
    registers.insert(0xa1b4, inputs);
    registers.insert(0xa1b6, 1 | (w32 as u32) << 15); // SPI_PS_IN_CONTROL: NUM_INTERP 1
                                                      // SPI_PS_INPUT_CNTL_0: parameter 0, FLAT_SHADE
    let flat = (variant.interp == Interp::Flat) as u32;
    registers.insert(0xa191, flat << 10);
    registers.insert(0xa1c5, if fp16 { 4 } else { 9 }); // SPI_SHADER_COL_FORMAT
    registers.insert(0xa08f, 0xf); // CB_SHADER_MASK: MRT0 RGBA
    registers.insert(0xa08e, 0xf); // CB_TARGET_MASK: MRT0 RGBA (a case may narrow it)
    if variant.depth {
        registers.insert(0xa1c4, 1); // SPI_SHADER_Z_FORMAT: 32_R
        registers.insert(0xa203, 1); // DB_SHADER_CONTROL: Z_EXPORT_ENABLE
    }
    if t.gen != Gen::Gfx9 {
        // VGT_SHADER_STAGES_EN: NGG, GS_W32_EN; GFX11 passthrough (PRIMGEN_PASSTHRU_EN:
        // v0 is the `exp prim` value), GFX10.3 not (v0 = i0 | i1 << 16, v1 = i2)
        let passthrough = (t.gen == Gen::Gfx11) as u32;
        registers.insert(0xa2d5, (w32 as u32) << 22 | passthrough << 25);
    }
    let shader = |m: Vec<HwStage>| ApiShader {
        api_shader_hash: [1, 2],
        hardware_mapping: m,
        extra: BTreeMap::new(),
    };
    let md = PalMetadata {
        version: Some((2, 6)),
        pipeline: PipelineMetadata {
            name: None,
            pipeline_type: if t.gen == Gen::Gfx9 { "VsPs" } else { "Ngg" }.into(),
            api: "Vulkan".into(),
            internal_pipeline_hash: [3, 4],
            shaders: BTreeMap::from([
                (ApiStage::Vertex, shader(vec![vs_stage])),
                (ApiStage::Pixel, shader(vec![HwStage::Ps])),
            ]),
            hardware_stages: BTreeMap::from([
                (vs_stage, stage(vs_stage.entry_symbol(), t)),
                (HwStage::Ps, stage(HwStage::Ps.entry_symbol(), t)),
            ]),
            registers,
            user_data_limit: 0,
            spill_threshold: 0xffff,
            extra: BTreeMap::new(),
        },
        prelink: None,
        extra: BTreeMap::new(),
    };
    let obj = CodeObject {
        gen: t.gen,
        text,
        functions: vec![
            FuncSymbol {
                name: vs_stage.entry_symbol(),
                offset: 0,
                size: vs.len() as u64,
            },
            FuncSymbol {
                name: HwStage::Ps.entry_symbol(),
                offset: ps_off as u64,
                size: ps.len() as u64,
            },
        ],
        relocations: vec![],
        metadata: md.to_value(),
    };
    obj.validate().expect("valid code object");
    obj.write().expect("ELF")
}

pub const VS_GLSL: &str = "#version 450
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
layout(location = 0) out vec4 vcol;
void main() { gl_Position = pos; vcol = col; }
";

pub const FS_GLSL: &str = "#version 450
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() { o = vcol; }
";

/// The GLSL pair of a `Ps` variant.
pub fn glsl_pair(ps: Ps) -> (String, String) {
    let q = match ps.interp {
        Interp::Smooth => "",
        Interp::Flat => "flat ",
        Interp::Linear => "noperspective ",
    };
    let vs = VS_GLSL.replace(
        "layout(location = 0) out",
        &format!("layout(location = 0) {q}out"),
    );
    let fs = if ps.depth {
        FS_GLSL.replace("o = vcol;", "o = vcol; gl_FragDepth = vcol.r;")
    } else if ps.fragcoord {
        "#version 450
layout(location = 0) in vec4 vcol;
layout(location = 0) out vec4 o;
void main() { o = vec4(gl_FragCoord.x / 40.0, gl_FragCoord.y / 32.0, gl_FrontFacing ? 1.0 : 0.0, 1.0); }
"
        .to_string()
    } else {
        FS_GLSL.replace(
            "layout(location = 0) in",
            &format!("layout(location = 0) {q}in"),
        )
    };
    (vs, fs)
}

/// Compiles GLSL with glslangValidator (None when it is missing and not required).
pub fn glsl(
    dir: &std::path::Path,
    name: &str,
    stage: &str,
    src: &str,
) -> Option<std::path::PathBuf> {
    let s = dir.join(format!("{name}.{stage}"));
    std::fs::write(&s, src).unwrap();
    let out = dir.join(format!("{name}.{stage}.spv"));
    match std::process::Command::new("glslangValidator")
        .args(["-V", "-o"])
        .arg(&out)
        .arg(&s)
        .output()
    {
        Ok(o) if o.status.success() => Some(out),
        Ok(o) => panic!("glslangValidator: {}", String::from_utf8_lossy(&o.stdout)),
        Err(_) if std::env::var("GCNC_REQUIRE_ORACLES").as_deref() == Ok("1") => {
            panic!("glslangValidator required but missing")
        }
        Err(_) => None,
    }
}

/// Interleaved vertices: position (x, y, z, w) then colour (r, g, b, a).
pub fn triangles() -> Vec<f32> {
    let v =
        |x: f32, y: f32, w: f32, c: [f32; 4]| [x * w, y * w, 0.5 * w, w, c[0], c[1], c[2], c[3]];
    let r = [1.0, 0.0, 0.0, 1.0];
    let g = [0.0, 1.0, 0.0, 1.0];
    let b = [0.0, 0.0, 1.0, 1.0];
    let wh = [1.0, 1.0, 1.0, 0.5];
    [
        // a big triangle with perspective (w differs per vertex)
        v(-0.9, -0.9, 1.0, r),
        v(0.9, -0.7, 2.5, g),
        v(-0.6, 0.95, 1.5, b),
        // a small one sharing an edge direction, clockwise
        v(0.2, 0.1, 1.0, wh),
        v(0.9, 0.9, 1.0, r),
        v(0.85, 0.2, 1.0, b),
        // thin sliver
        v(-1.0, 0.5, 1.0, g),
        v(1.0, 0.52, 1.0, b),
        v(0.0, 0.6, 1.0, r),
    ]
    .concat()
}

/// The draw description (JSON) of `triangles()` in a `w`×`h` framebuffer.
pub fn desc_json(vs: &str, fs: &str, w: u32, h: u32) -> String {
    case_json(
        vs,
        fs,
        w,
        h,
        &triangles(),
        "triangle_list",
        r#""color_attachments": [{"format": "R8G8B8A8_UNORM", "clear": [0.1, 0.2, 0.3, 1.0]}]"#,
    )
}

/// A vertex of `triangles()`'s layout: (x, y, z) in NDC scaled by w, and a colour.
pub fn vertex(x: f32, y: f32, z: f32, w: f32, c: [f32; 4]) -> [f32; 8] {
    [x * w, y * w, z * w, w, c[0], c[1], c[2], c[3]]
}

/// A draw description of `verts` (8 floats each) with `state` (JSON fields: attachments,
/// rasterization, ...).
pub fn case_json(
    vs: &str,
    fs: &str,
    w: u32,
    h: u32,
    verts: &[f32],
    topology: &str,
    state: &str,
) -> String {
    let data: Vec<String> = verts.iter().map(|x| format!("{x}")).collect();
    let count = verts.len() / 8;
    let draw = if state.contains("index_buffer") {
        String::new()
    } else {
        format!(r#""draw": {{"vertex_count": {count}}},"#)
    };
    format!(
        r#"{{
  "vertex": {{"spv": "{vs}"}},
  "fragment": {{"spv": "{fs}"}},
  "vertex_buffers": [{{"binding": 0, "stride": 32, "f32": [{}]}}],
  "attributes": [
    {{"location": 0, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 0}},
    {{"location": 1, "binding": 0, "format": "R32G32B32A32_SFLOAT", "offset": 16}}
  ],
  "topology": "{topology}",
  {draw}
  "viewport": {{"width": {w}, "height": {h}}},
  {state}
}}"#,
        data.join(", ")
    )
}

/// Compares an emulated attachment of `width`-pixel rows with lavapipe's, within the
/// tolerances of docs/draw.md: UNORM, SNORM and SRGB channels of up to 10 bits within 1
/// of their integer value, integer channels equal, float and 16-bit normalized channels
/// (depth too, as `R32_SFLOAT`) within 2^-10 · max(1, |value|). The error names the first
/// pixel off.
pub fn compare_attachment(
    f: gcnc_emu::draw::desc::ColorFormat,
    width: u32,
    got: &[u8],
    want: &[u8],
) -> Result<(), String> {
    use gcnc::amdgpu::attachment_format::Num;
    use gcnc_emu::draw::output::{decode, raw};
    if got.len() != want.len() {
        return Err(format!("{} bytes, lavapipe {}", got.len(), want.len()));
    }
    let bpp = f.bytes();
    for (i, (g, w)) in got.chunks(bpp).zip(want.chunks(bpp)).enumerate() {
        let (x, y) = (i as u32 % width, i as u32 / width);
        let (a, b) = (decode(f, g), decode(f, w));
        for (k, &(_, bits)) in f.channels().iter().enumerate() {
            let (ra, rb) = (raw(f, g, k).unwrap(), raw(f, w, k).unwrap());
            let sx = |v: u32| ((v << (32 - bits)) as i32 >> (32 - bits)) as i64;
            let same = match f.num() {
                Num::Unorm | Num::Srgb if bits <= 10 => ra.abs_diff(rb) <= 1,
                Num::Snorm if bits <= 10 => (sx(ra) - sx(rb)).abs() <= 1,
                Num::Uint | Num::Sint => ra == rb,
                _ => {
                    let tol = 2f32.powi(-10) * a[k].abs().max(b[k].abs()).max(1.0);
                    // NaN compares unequal to everything: both NaN is equal here
                    (a[k].is_nan() && b[k].is_nan()) || (a[k] - b[k]).abs() <= tol
                }
            };
            if !same {
                return Err(format!(
                    "pixel ({x}, {y}) channel {k}: {a:?} vs lavapipe {b:?} (raw {ra:#x} vs {rb:#x})"
                ));
            }
        }
    }
    Ok(())
}

/// The configurations compiled draws run on: gfx900 wave64 (hardware VS), gfx1030 and
/// gfx1100 wave32 and wave64 (NGG vertex stage).
pub const DRAW_CONFIGS: [(&str, u32); 5] = [
    ("gfx900", 64),
    ("gfx1030", 32),
    ("gfx1030", 64),
    ("gfx1100", 32),
    ("gfx1100", 64),
];

/// The target of a draw configuration (`DRAW_CONFIGS`' names).
pub fn config_target(gen: &str, wave: u32) -> Target {
    let gen = match gen {
        "gfx900" => Gen::Gfx9,
        "gfx1030" => Gen::Gfx10,
        _ => Gen::Gfx11,
    };
    let mut t = Target::new(gen);
    t.wave = Wave::from_lanes(wave as u64).unwrap();
    t
}

/// Whether lavapipe is installed; without it a test has no oracle and returns early, which
/// is a failure when GCNC_REQUIRE_ORACLES is set.
pub fn lavapipe_required() -> bool {
    let found = vkref::oracle::lavapipe().is_some();
    assert!(
        found || std::env::var("GCNC_REQUIRE_ORACLES").is_err(),
        "lavapipe is required"
    );
    found
}

/// Fails with every failure a sweep collected, naming where its outputs are.
pub fn assert_no_failures(failures: &[String], outputs: &std::path::Path) {
    assert!(
        failures.is_empty(),
        "{} failures (outputs in {}):\n{}",
        failures.len(),
        outputs.display(),
        failures.join("\n")
    );
}

/// Draws each description `dir/NAME.json` of `cases` (NAME, colours) with lavapipe, which
/// must draw more than `colours` distinct colours in colour attachment 0 (the clear
/// colour included), then as [`draw_whole_and_unlinked`] says, outputs under a
/// temporary directory named by `tag`; fails with every failure. Returns early without
/// lavapipe ([`lavapipe_required`]).
pub fn draws_as_lavapipe(dir: &std::path::Path, tag: &str, cases: &[(&str, usize)]) {
    if !lavapipe_required() {
        return;
    }
    let tmp = std::env::temp_dir().join(format!("gcnc-draw-{tag}-{}", std::process::id()));
    let mut failures = Vec::new();
    for &(name, colours) in cases {
        let path = dir.join(format!("{name}.json"));
        let d = gcnc_emu::draw::Desc::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = vkref::draw::run_draw(&d).unwrap_or_else(|e| panic!("{name}: lavapipe: {e}"));
        let bpp = d.desc.color_attachments[0].format.bytes();
        let distinct: std::collections::BTreeSet<&[u8]> = want.color[0].chunks(bpp).collect();
        assert!(
            distinct.len() > colours,
            "{name}: lavapipe drew {} colours",
            distinct.len()
        );
        draw_whole_and_unlinked(name, &path, &d, &want, &tmp, &mut failures);
    }
    assert_no_failures(&failures, &tmp);
}

/// Draws description `path` (loaded as `d`; lavapipe drew `want`) on every configuration
/// of [`DRAW_CONFIGS`], whole pipeline and `--unlinked`, with outputs under `tmp`: each
/// must equal `want`, and the two colour attachments 0 must be byte-identical. Failures
/// go to `failures`, named by `name` and the configuration.
pub fn draw_whole_and_unlinked(
    name: &str,
    path: &std::path::Path,
    d: &gcnc_emu::draw::Draw,
    want: &vkref::draw::Attachments,
    tmp: &std::path::Path,
    failures: &mut Vec<String>,
) {
    let colour = |dir: &std::path::Path| std::fs::read(dir.join("color_0.raw")).unwrap();
    for (target, wave) in DRAW_CONFIGS {
        let cfg = format!("{name} on {target} w{wave}");
        let w = tmp.join(format!("{name}-{target}-w{wave}-whole"));
        let u = tmp.join(format!("{name}-{target}-w{wave}-unlinked"));
        let run = gcnc_draw(path, target, wave, &w)
            .and_then(|()| compare_outputs(d, &w, want))
            .and_then(|()| gcnc_draw_with(path, target, wave, &u, &["--unlinked"]))
            .and_then(|()| compare_outputs(d, &u, want));
        match run {
            Err(e) => failures.push(format!("{cfg}: {e}")),
            Ok(()) if colour(&w) != colour(&u) => {
                failures.push(format!("{cfg}: whole and unlinked images differ"))
            }
            Ok(()) => {}
        }
    }
}

/// Runs `gcnc draw` on one configuration: the attachments, or the error it printed.
pub fn gcnc_draw(
    desc: &std::path::Path,
    target: &str,
    wave: u32,
    out: &std::path::Path,
) -> Result<(), String> {
    gcnc_draw_with(desc, target, wave, out, &[])
}

/// [`gcnc_draw`] with more arguments (`--unlinked`).
pub fn gcnc_draw_with(
    desc: &std::path::Path,
    target: &str,
    wave: u32,
    out: &std::path::Path,
    extra: &[&str],
) -> Result<(), String> {
    let wave = wave.to_string();
    let mut args: Vec<&std::ffi::OsStr> = vec!["draw".as_ref(), desc.as_os_str()];
    args.extend(["--target", target, "--wave", &wave, "--out"].map(std::ffi::OsStr::new));
    args.push(out.as_os_str());
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    gcnc(&args)
}

/// Runs the `gcnc` binary; its stderr on failure.
pub fn gcnc(args: &[impl AsRef<std::ffi::OsStr>]) -> Result<(), String> {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gcnc"))
        .args(args)
        .output()
        .unwrap();
    if o.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&o.stderr).into_owned())
    }
}

/// Compares the attachments (and depth) `gcnc draw` wrote into `out` with lavapipe's.
pub fn compare_outputs(
    d: &gcnc_emu::draw::Draw,
    out: &std::path::Path,
    want: &vkref::draw::Attachments,
) -> Result<(), String> {
    use gcnc_emu::draw::desc::ColorFormat;
    let read = |name: &str| std::fs::read(out.join(name)).map_err(|e| format!("{name}: {e}"));
    for (i, a) in d.desc.color_attachments.iter().enumerate() {
        compare_attachment(
            a.format,
            d.width,
            &read(&format!("color_{i}.raw"))?,
            &want.color[i],
        )
        .map_err(|e| format!("colour attachment {i} ({:?}): {e}", a.format))?;
    }
    if let Some(z) = &want.depth {
        compare_attachment(ColorFormat::R32_SFLOAT, d.width, &read("depth.raw")?, z)
            .map_err(|e| format!("depth: {e}"))?;
    }
    Ok(())
}

/// The standard output of an LLVM oracle (llvm-objdump-19, llvm-readelf-19), which the
/// test needs: missing or failing, it fails the test.
pub fn oracle_output(name: &str, args: &[&str]) -> String {
    let o = std::process::Command::new(name)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{name} (an oracle this test needs): {e}"));
    assert!(
        o.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// The value of PAL metadata register `reg` in `llvm-readelf-19 --notes` output (which
/// prints the registers in decimal).
/// The PAL metadata notes (llvm-readelf-19 --notes) of the pipeline `gcnc compile VS FS
/// --state DESC --target TARGET` builds for draw description `desc`, written to `elf`.
pub fn pipeline_notes(desc: &std::path::Path, target: &str, elf: &std::path::Path) -> String {
    let d = gcnc_emu::draw::Desc::load(desc).unwrap_or_else(|e| panic!("{e}"));
    let args = [
        "compile".as_ref(),
        d.vertex_spv.as_os_str(),
        d.fragment_spv.as_os_str(),
        "--target".as_ref(),
        target.as_ref(),
        "--state".as_ref(),
        desc.as_os_str(),
        "-o".as_ref(),
        elf.as_os_str(),
    ];
    gcnc(&args).unwrap_or_else(|e| panic!("{} on {target}: {e}", desc.display()));
    oracle_output("llvm-readelf-19", &["--notes", elf.to_str().unwrap()])
}

pub fn pal_register(notes: &str, reg: u32) -> Option<u32> {
    notes.lines().find_map(|l| {
        let (k, v) = l.trim().split_once(':')?;
        (k.trim() == reg.to_string()).then(|| v.trim().parse().unwrap())
    })
}
