//! Image instructions assembled by llvm-mc-19 for every generation, against values
//! computed here from the image contents: loads, stores and samples (nearest, bilinear,
//! trilinear), mip levels and resinfo, explicit LOD and derivatives, border colours and
//! mirroring, depth compare, gather4 (with offsets and compare), 32/64-bit atomics, the
//! packed / SRGB / SNORM formats, cube faces and MSAA sample loads.

mod support;

use gcnc::isa::Gen;
use gcnc_emu::image::{ImageDesc, TYPE_2D, TYPE_2D_ARRAY, TYPE_3D};
use gcnc_emu::texformat::TexFormat;
use gcnc_emu::Memory;
use support::*;

const IMG: u64 = 0x40_0000;

/// The dimension modifiers before and after `unorm` (GFX9 `da` goes last).
fn dim(gen: Gen, d: &str) -> (String, String) {
    if gen == Gen::Gfx9 {
        (
            String::new(),
            if d == "2D_ARRAY" {
                " da".into()
            } else {
                String::new()
            },
        )
    } else {
        (format!(" dim:SQ_RSRC_IMG_{d}"), String::new())
    }
}

/// The T# of a one-level linear image.
fn t_sharp(gen: Gen, base: u64, fmt: &str, ty: u32, size: [u32; 3]) -> Vec<u32> {
    let f = TexFormat::named(fmt).unwrap();
    ImageDesc::linear(base, f, ty, size, 1, 1)
        .encode(gen)
        .unwrap()
        .to_vec()
}

/// S#: clamp-to-edge on all axes, the given XY filter.
fn sampler(bilinear: bool) -> [u32; 4] {
    [
        2 | 2 << 3 | 2 << 6,
        0,
        (bilinear as u32) << 20 | (bilinear as u32) << 22,
        0,
    ]
}

#[test]
fn r32f_load_and_sample() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (d2, _) = dim(gen, "2D");
        // v0 = lane: x = lane & 3, y = (lane >> 2) & 3
        let src = format!(
            "  v_and_b32_e32 v4, 3, v0\n\
               v_bfe_u32 v5, v0, 2, 2\n\
               image_load v6, v[4:5], s[0:7] dmask:0x1{d2} unorm\n\
               v_cvt_f32_u32_e32 v8, v4\n\
               v_cvt_f32_u32_e32 v9, v5\n\
               v_add_f32_e32 v10, 1.0, v8\n\
               v_mul_f32_e32 v10, 0.25, v10\n\
               v_add_f32_e32 v11, 0.5, v9\n\
               v_mul_f32_e32 v11, 0.25, v11\n\
               image_sample_lz v12, v[10:11], s[0:7], s[8:11] dmask:0x1{d2}\n\
               image_sample_lz v13, v[10:11], s[0:7], s[12:15] dmask:0x1{d2}\n\
               s_waitcnt vmcnt(0)\n\
               s_endpgm\n"
        );
        let mut mem = Memory::new();
        mem.map(IMG, 64);
        for y in 0..4u32 {
            for x in 0..4u32 {
                mem.write_u32(
                    IMG + 4 * (4 * y + x) as u64,
                    (x as f32 + 10.0 * y as f32).to_bits(),
                )
                .unwrap();
            }
        }
        let mut user = t_sharp(gen, IMG, "32_FLOAT", TYPE_2D, [4, 4, 1]);
        user.extend(sampler(true));
        user.extend(sampler(false));
        let w =
            run(t, llvm_asm(t, &src), 16, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        for lane in 0..16u32 {
            let (x, y) = (lane & 3, lane >> 2);
            let texel = |x: u32| x as f32 + 10.0 * y as f32;
            assert_eq!(f32::from_bits(w[0].regs.v(6, lane)), texel(x), "{gen} load");
            // u = (x+1)/4 is the edge between texels x and x+1: bilinear averages them
            let want = (texel(x) + texel((x + 1).min(3))) / 2.0;
            assert_eq!(
                f32::from_bits(w[0].regs.v(12, lane)),
                want,
                "{gen} bilinear lane {lane}"
            );
            assert_eq!(
                f32::from_bits(w[0].regs.v(13, lane)),
                texel((x + 1).min(3)),
                "{gen} nearest lane {lane}"
            );
        }
    }
}

#[test]
fn tfe_loads_and_samples_return_the_data_then_a_zero_status() {
    // SPIR-V's sparse-residency reads select to TFE: one more dword after the data, the
    // fetch status, 0 = resident (the emulator models no partially resident image). The
    // status registers start at 0x1234 so the test sees them written.
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (d2, _) = dim(gen, "2D");
        let src = format!(
            "  v_and_b32_e32 v4, 3, v0\n\
               v_bfe_u32 v5, v0, 2, 2\n\
               v_mov_b32_e32 v7, 0x1234\n\
               v_mov_b32_e32 v13, 0x1234\n\
               image_load v[6:7], v[4:5], s[0:7] dmask:0x1{d2} unorm tfe\n\
               v_cvt_f32_u32_e32 v8, v4\n\
               v_cvt_f32_u32_e32 v9, v5\n\
               v_add_f32_e32 v10, 0.5, v8\n\
               v_mul_f32_e32 v10, 0.25, v10\n\
               v_add_f32_e32 v11, 0.5, v9\n\
               v_mul_f32_e32 v11, 0.25, v11\n\
               image_sample_lz v[12:13], v[10:11], s[0:7], s[8:11] dmask:0x1{d2} tfe\n\
               s_waitcnt vmcnt(0)\n\
               s_endpgm\n"
        );
        let mut mem = Memory::new();
        mem.map(IMG, 64);
        for k in 0..16u32 {
            mem.write_u32(IMG + 4 * k as u64, (k as f32).to_bits())
                .unwrap();
        }
        let mut user = t_sharp(gen, IMG, "32_FLOAT", TYPE_2D, [4, 4, 1]);
        user.extend(sampler(false));
        let w =
            run(t, llvm_asm(t, &src), 16, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        for lane in 0..16u32 {
            assert_eq!(vf(&w[0], 6, lane), lane as f32, "{gen} load lane {lane}");
            assert_eq!(v(&w[0], 7, lane), 0, "{gen} load status lane {lane}");
            assert_eq!(vf(&w[0], 12, lane), lane as f32, "{gen} sample lane {lane}");
            assert_eq!(v(&w[0], 13, lane), 0, "{gen} sample status lane {lane}");
        }
    }
}

#[test]
fn rgba8_array_store_then_load() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (da, da9) = dim(gen, "2D_ARRAY");
        // lane: x = lane & 1, y = 0, layer = lane >> 1 (2x1 image, 4 layers); store then load back
        let src = format!(
            "  v_and_b32_e32 v4, 1, v0\n\
               v_mov_b32_e32 v5, 0\n\
               v_lshrrev_b32_e32 v6, 1, v0\n\
               v_cvt_f32_u32_e32 v8, v0\n\
               v_mul_f32_e32 v8, 0x3d800000, v8\n\
               v_mov_b32_e32 v9, 0.5\n\
               v_mov_b32_e32 v10, 0\n\
               v_mov_b32_e32 v11, 1.0\n\
               image_store v[8:11], v[4:6], s[0:7] dmask:0xf{da} unorm{da9}\n\
               s_waitcnt vmcnt(0)\n\
               {wait}\
               image_load v[12:15], v[4:6], s[0:7] dmask:0xf{da} unorm{da9}\n\
               s_waitcnt vmcnt(0)\n\
               s_endpgm\n",
            wait = if gen == Gen::Gfx9 {
                ""
            } else {
                "  s_waitcnt_vscnt null, 0x0\n"
            }
        );
        let mut mem = Memory::new();
        mem.map(IMG, 2 * 4 * 4);
        let user = t_sharp(gen, IMG, "8_8_8_8_UNORM", TYPE_2D_ARRAY, [2, 1, 4]);
        let w =
            run(t, llvm_asm(t, &src), 8, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        for lane in 0..8u32 {
            let r = (lane as f32 * 0.0625 * 255.0).round_ties_even() / 255.0;
            let got: Vec<f32> = (12..16)
                .map(|v| f32::from_bits(w[0].regs.v(v, lane)))
                .collect();
            assert_eq!(got, vec![r, 128.0 / 255.0, 0.0, 1.0], "{gen} lane {lane}");
            let word = mem.read_u32(IMG + 4 * lane as u64).unwrap();
            assert_eq!(word >> 24, 255, "{gen}: alpha byte in memory");
        }
    }
}

#[test]
fn r32f_3d_trilinear() {
    if !llvm() {
        return;
    }
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (d3, _) = dim(gen, "3D");
        // sample the exact centre of a 2x2x2 image: the trilinear mean of all 8 texels;
        // and (0.25, 0.25, 0.75) with point filtering: texel (0, 0, 1)
        let src = format!(
            "  v_mov_b32_e32 v4, 0.5\n  v_mov_b32_e32 v5, 0.5\n  v_mov_b32_e32 v6, 0.5\n\
               image_sample_lz v8, v[4:6], s[0:7], s[8:11] dmask:0x1{d3}\n\
               v_mov_b32_e32 v4, 0x3e800000\n  v_mov_b32_e32 v5, 0x3e800000\n  v_mov_b32_e32 v6, 0x3f400000\n\
               image_sample_lz v9, v[4:6], s[0:7], s[12:15] dmask:0x1{d3}\n\
               s_waitcnt vmcnt(0)\n  s_endpgm\n"
        );
        let mut mem = Memory::new();
        mem.map(IMG, 32);
        let texel = |x: u32, y: u32, z: u32| (1 + x + 2 * y + 4 * z) as f32;
        for z in 0..2 {
            for y in 0..2 {
                for x in 0..2 {
                    mem.write_u32(
                        IMG + 4 * (4 * z + 2 * y + x) as u64,
                        texel(x, y, z).to_bits(),
                    )
                    .unwrap();
                }
            }
        }
        let mut user = t_sharp(gen, IMG, "32_FLOAT", TYPE_3D, [2, 2, 2]);
        user.extend(sampler(true));
        user.extend(sampler(false));
        let w =
            run(t, llvm_asm(t, &src), 1, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        let mean = (0..8)
            .map(|i| texel(i & 1, (i >> 1) & 1, i >> 2))
            .sum::<f32>()
            / 8.0;
        assert_eq!(f32::from_bits(w[0].regs.v(8, 0)), mean, "{gen} trilinear");
        assert_eq!(
            f32::from_bits(w[0].regs.v(9, 0)),
            texel(0, 0, 1),
            "{gen} point"
        );
    }
}

// ---- the issue-12 image model: mips, filters, borders, compare, gather, atomics, formats,
// cubes, MSAA. Each program is assembled by llvm-mc-19 for every generation; the expected
// values are computed here from the image contents.

/// `dim:` (GFX10+) after dmask, and GFX9's `da` at the end, for a T# type.
fn dims(gen: Gen, ty: u32) -> (String, &'static str) {
    let name = match ty {
        8 => "1D",
        9 => "2D",
        10 => "3D",
        11 => "CUBE",
        12 => "1D_ARRAY",
        13 => "2D_ARRAY",
        14 => "2D_MSAA",
        _ => "2D_MSAA_ARRAY",
    };
    if gen == Gen::Gfx9 {
        (
            String::new(),
            if matches!(ty, 11 | 12 | 13 | 15) {
                " da"
            } else {
                ""
            },
        )
    } else {
        (format!(" dim:SQ_RSRC_IMG_{name}"), "")
    }
}

/// Maps `img` and writes every texel of every level as `f(level, x, y, slice, sample)`.
fn fill(mem: &mut Memory, img: &ImageDesc, f: impl Fn(u32, u32, u32, u32, u32) -> [u32; 4]) {
    mem.map(img.base, img.bytes().next_multiple_of(256));
    let mut at = img.base;
    for l in 0..img.levels {
        let [w, h, d] = img.extent(l);
        for z in 0..d {
            for y in 0..h {
                for x in 0..w {
                    for s in 0..img.samples {
                        let b = img.fmt.encode(f(l, x, y, z, s));
                        mem.write(at, &b).unwrap();
                        at += b.len() as u64;
                    }
                }
            }
        }
    }
}

fn fmt(name: &str) -> TexFormat {
    TexFormat::named(name).unwrap()
}

fn f32s(x: f32) -> [u32; 4] {
    [x.to_bits(), 0, 0, 1.0f32.to_bits()]
}

/// The wait a store needs before a dependent load on `gen`.
fn vs_wait(gen: Gen) -> &'static str {
    if gen == Gen::Gfx9 {
        ""
    } else {
        "  s_waitcnt_vscnt null, 0x0\n"
    }
}

fn v(w: &gcnc_emu::wave::Wave, reg: u16, lane: u32) -> u32 {
    w.regs.v(reg, lane)
}

fn vf(w: &gcnc_emu::wave::Wave, reg: u16, lane: u32) -> f32 {
    f32::from_bits(v(w, reg, lane))
}

#[test]
fn mip_levels_load_store_and_resinfo() {
    if !llvm() {
        return;
    }
    use gcnc_emu::image::TYPE_2D;
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (d2, _) = dims(gen, TYPE_2D);
        // lane L < 4: store 100 + L at (0, 0) of level L (level 3 does not exist: dropped),
        // load it back, and query the size of level L (lanes 0..3 only for resinfo)
        let src = format!(
            "  v_mov_b32_e32 v1, 0\n  v_mov_b32_e32 v2, 0\n  v_mov_b32_e32 v3, v0\n\
               v_or_b32_e32 v4, 0x64, v0\n\
               image_store_mip v4, v[1:3], s[0:7] dmask:0x1{d2} unorm\n\
               s_waitcnt vmcnt(0)\n{vs}\
               image_load_mip v5, v[1:3], s[0:7] dmask:0x1{d2} unorm\n\
               v_min_u32_e32 v6, 2, v0\n\
               image_get_resinfo v[8:11], v6, s[0:7] dmask:0xf{d2} unorm\n\
               s_waitcnt vmcnt(0)\n  s_endpgm\n",
            vs = vs_wait(gen)
        );
        let img = ImageDesc::linear(IMG, fmt("32_UINT"), TYPE_2D, [4, 4, 1], 3, 1);
        let mut mem = Memory::new();
        fill(&mut mem, &img, |_, _, _, _, _| [7, 0, 0, 1]);
        let user = img.encode(gen).unwrap().to_vec();
        let w =
            run(t, llvm_asm(t, &src), 4, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        let level_at = [0u64, 64, 80];
        for lane in 0..4u32 {
            let want = if lane < 3 { 100 + lane } else { 0 };
            assert_eq!(v(&w[0], 5, lane), want, "{gen} load_mip lane {lane}");
            if lane < 3 {
                let at = IMG + level_at[lane as usize];
                assert_eq!(mem.read_u32(at).unwrap(), 100 + lane, "{gen} memory");
            }
            let l = lane.min(2);
            let size = 4 >> l;
            assert_eq!(
                (0..4).map(|k| v(&w[0], 8 + k, lane)).collect::<Vec<_>>(),
                vec![size, size, 0, 3],
                "{gen} resinfo lane {lane}"
            );
        }
    }
}

#[test]
fn explicit_lod_point_and_linear_mip_filters() {
    if !llvm() {
        return;
    }
    use gcnc_emu::image::TYPE_2D;
    use gcnc_emu::sampler::SamplerDesc;
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (d2, _) = dims(gen, TYPE_2D);
        // level l holds 10 * (l + 1) everywhere; LOD per lane: 0.25, 1.4, 1.0, -1.0, 7.0;
        // image_sample_d: ds/dx = 0.5 is 2 texels per pixel at level 0 → LOD 1
        let src = format!(
            "  v_mov_b32_e32 v1, 0.5\n  v_mov_b32_e32 v2, 0.5\n\
               v_mov_b32_e32 v3, 0x3e800000\n\
               v_cmp_eq_u32_e64 s[20:21], 1, v0\n  v_mov_b32_e32 v4, 0x3fb33333\n  v_cndmask_b32_e64 v3, v3, v4, s[20:21]\n\
               v_cmp_eq_u32_e64 s[20:21], 2, v0\n  v_cndmask_b32_e64 v3, v3, 1.0, s[20:21]\n\
               v_cmp_eq_u32_e64 s[20:21], 3, v0\n  v_cndmask_b32_e64 v3, v3, -1.0, s[20:21]\n\
               v_cmp_eq_u32_e64 s[20:21], 4, v0\n  v_mov_b32_e32 v4, 0x40e00000\n  v_cndmask_b32_e64 v3, v3, v4, s[20:21]\n\
               image_sample_l v10, v[1:3], s[0:7], s[8:11] dmask:0x1{d2}\n\
               image_sample_l v11, v[1:3], s[0:7], s[12:15] dmask:0x1{d2}\n\
               v_mov_b32_e32 v20, 0.5\n  v_mov_b32_e32 v21, 0\n  v_mov_b32_e32 v22, 0\n  v_mov_b32_e32 v23, 0\n\
               v_mov_b32_e32 v24, 0.5\n  v_mov_b32_e32 v25, 0.5\n\
               image_sample_d v12, v[20:25], s[0:7], s[12:15] dmask:0x1{d2}\n\
               s_waitcnt vmcnt(0)\n  s_endpgm\n"
        );
        let img = ImageDesc::linear(IMG, fmt("32_FLOAT"), TYPE_2D, [4, 4, 1], 3, 1);
        let mut mem = Memory::new();
        fill(&mut mem, &img, |l, _, _, _, _| f32s(10.0 * (l + 1) as f32));
        let mut user = img.encode(gen).unwrap().to_vec();
        let linear = SamplerDesc {
            mag_linear: true,
            min_linear: true,
            mip: 2,
            ..SamplerDesc::default()
        };
        let point = SamplerDesc {
            mip: 1,
            ..SamplerDesc::default()
        };
        user.extend(linear.encode());
        user.extend(point.encode());
        let w =
            run(t, llvm_asm(t, &src), 5, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        // trilinear: lerp between the levels around the LOD (clamped to [0, 2])
        let tri = [12.5f32, 10.0 * 2.0 + 0.4 * 10.0, 20.0, 10.0, 30.0];
        // point mip: nearest level
        let pt = [10.0f32, 20.0, 20.0, 10.0, 30.0];
        for lane in 0..5u32 {
            let got = vf(&w[0], 10, lane);
            assert!(
                (got - tri[lane as usize]).abs() < 1e-5,
                "{gen} trilinear lane {lane}: {got}"
            );
            assert_eq!(
                vf(&w[0], 11, lane),
                pt[lane as usize],
                "{gen} point mip lane {lane}"
            );
            assert_eq!(vf(&w[0], 12, lane), 20.0, "{gen} sample_d lane {lane}");
        }
    }
}

#[test]
fn border_colours_and_mirroring() {
    if !llvm() {
        return;
    }
    use gcnc_emu::image::TYPE_2D;
    use gcnc_emu::sampler::SamplerDesc;
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (d2, _) = dims(gen, TYPE_2D);
        // (u, v) = (-0.25, 0.25): outside on x; and (1.25, 0.25): mirrored to texel x = 1
        let src = format!(
            "  v_mov_b32_e32 v1, 0xbe800000\n  v_mov_b32_e32 v2, 0x3e800000\n\
               image_sample_lz v[4:7], v[1:2], s[0:7], s[8:11] dmask:0xf{d2}\n\
               image_sample_lz v[8:11], v[1:2], s[0:7], s[12:15] dmask:0xf{d2}\n\
               v_mov_b32_e32 v1, 0x3fa00000\n\
               image_sample_lz v[12:15], v[1:2], s[0:7], s[16:19] dmask:0xf{d2}\n\
               s_waitcnt vmcnt(0)\n  s_endpgm\n"
        );
        let img = ImageDesc::linear(IMG, fmt("8_8_8_8_UNORM"), TYPE_2D, [2, 2, 1], 1, 1);
        let mut mem = Memory::new();
        let c = |x: u32| (x as f32 * 51.0 / 255.0).to_bits();
        fill(&mut mem, &img, |_, x, y, _, _| {
            [c(x + 1), c(y + 1), 0, 1.0f32.to_bits()]
        });
        let mut user = img.encode(gen).unwrap().to_vec();
        for (clamp, border) in [(6, 2), (6, 0), (1, 0)] {
            user.extend(
                SamplerDesc {
                    clamp: [clamp; 3],
                    border,
                    ..SamplerDesc::default()
                }
                .encode(),
            );
        }
        let w =
            run(t, llvm_asm(t, &src), 1, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        let get = |r: u16| (0..4).map(|k| vf(&w[0], r + k, 0)).collect::<Vec<_>>();
        assert_eq!(get(4), vec![1.0; 4], "{gen} opaque white border");
        assert_eq!(get(8), vec![0.0; 4], "{gen} transparent black border");
        assert_eq!(
            get(12),
            vec![f32::from_bits(c(2)), f32::from_bits(c(1)), 0.0, 1.0],
            "{gen} mirrored"
        );
    }
}

#[test]
fn depth_compare_and_gather4() {
    if !llvm() {
        return;
    }
    use gcnc_emu::image::TYPE_2D;
    use gcnc_emu::sampler::SamplerDesc;
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (d2, _) = dims(gen, TYPE_2D);
        // texel (x, y) = 0.1 + 0.1 x + 0.2 y of a 2x2 image; sample at the centre (0.5, 0.5)
        let src = format!(
            "  v_mov_b32_e32 v1, 0x3e800000\n  v_mov_b32_e32 v2, 0.5\n  v_mov_b32_e32 v3, 0.5\n\
               image_sample_c_lz v10, v[1:3], s[0:7], s[8:11] dmask:0x1{d2}\n\
               image_gather4_lz v[12:15], v[2:3], s[0:7], s[12:15] dmask:0x1{d2}\n\
               v_mov_b32_e32 v4, 1\n  v_mov_b32_e32 v5, 0.5\n  v_mov_b32_e32 v6, 0.5\n\
               image_gather4_lz_o v[16:19], v[4:6], s[0:7], s[12:15] dmask:0x1{d2}\n\
               image_gather4_c_lz v[20:23], v[1:3], s[0:7], s[8:11] dmask:0x1{d2}\n\
               s_waitcnt vmcnt(0)\n  s_endpgm\n"
        );
        let img = ImageDesc::linear(IMG, fmt("32_FLOAT"), TYPE_2D, [2, 2, 1], 1, 1);
        let tex = |x: u32, y: u32| 0.1 + 0.1 * x as f32 + 0.2 * y as f32;
        let mut mem = Memory::new();
        fill(&mut mem, &img, |_, x, y, _, _| f32s(tex(x, y)));
        let mut user = img.encode(gen).unwrap().to_vec();
        // LESS: passes where 0.25 < texel
        let cmp = SamplerDesc {
            compare: 1,
            mag_linear: true,
            min_linear: true,
            ..SamplerDesc::default()
        };
        user.extend(cmp.encode());
        user.extend(SamplerDesc::default().encode());
        let w =
            run(t, llvm_asm(t, &src), 1, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        // taps 0.1 0.2 0.3 0.4 → compare 0 0 1 1 → bilinear mean 0.5
        assert_eq!(vf(&w[0], 10, 0), 0.5, "{gen} sample_c");
        let get = |r: u16| (0..4).map(|k| vf(&w[0], r + k, 0)).collect::<Vec<_>>();
        assert_eq!(
            get(12),
            vec![tex(0, 1), tex(1, 1), tex(1, 0), tex(0, 0)],
            "{gen} gather4"
        );
        // offset (+1, 0), clamp to edge: both columns are x = 1
        assert_eq!(
            get(16),
            vec![tex(1, 1), tex(1, 1), tex(1, 0), tex(1, 0)],
            "{gen} gather4_o"
        );
        assert_eq!(get(20), vec![1.0, 1.0, 0.0, 0.0], "{gen} gather4_c");
    }
}

#[test]
fn image_atomics_32_and_64_bit() {
    if !llvm() {
        return;
    }
    use gcnc_emu::image::{TYPE_1D, TYPE_2D};
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (d1, _) = dims(gen, TYPE_1D);
        let (d2, _) = dims(gen, TYPE_2D);
        // 16 lanes add 1 at x = lane & 3 (returning the old value); lane 0 then does a
        // 64-bit compare-and-swap on s[16:23]'s 1x1 32_32_UINT image
        let src = format!(
            "  v_and_b32_e32 v1, 3, v0\n  v_mov_b32_e32 v2, 1\n\
               image_atomic_add v2, v1, s[0:7] dmask:0x1{d1} unorm glc\n\
               s_waitcnt vmcnt(0)\n\
               v_mov_b32_e32 v4, 0x11111111\n  v_mov_b32_e32 v5, 0x22222222\n\
               v_mov_b32_e32 v6, 5\n  v_mov_b32_e32 v7, 6\n\
               v_mov_b32_e32 v8, 0\n  v_mov_b32_e32 v9, 0\n\
               s_mov_b64 exec, 1\n\
               image_atomic_cmpswap v[4:7], v[8:9], s[16:23] dmask:0xf{d2} unorm glc\n\
               s_waitcnt vmcnt(0)\n  s_endpgm\n"
        );
        let img = ImageDesc::linear(IMG, fmt("32_UINT"), TYPE_1D, [4, 1, 1], 1, 1);
        let wide = ImageDesc::linear(IMG + 0x1000, fmt("32_32_UINT"), TYPE_2D, [1, 1, 1], 1, 1);
        let mut mem = Memory::new();
        fill(&mut mem, &img, |_, _, _, _, _| [0; 4]);
        fill(&mut mem, &wide, |_, _, _, _, _| [5, 6, 0, 1]);
        let mut user = img.encode(gen).unwrap().to_vec();
        user.extend([0; 8]);
        user.extend(wide.encode(gen).unwrap());
        let w =
            run(t, llvm_asm(t, &src), 16, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        for x in 0..4u64 {
            assert_eq!(mem.read_u32(IMG + 4 * x).unwrap(), 4, "{gen} sum at {x}");
            let mut olds: Vec<u32> = (0..16)
                .filter(|l| l & 3 == x as u32)
                .map(|l| v(&w[0], 2, l))
                .collect();
            olds.sort();
            assert_eq!(olds, vec![0, 1, 2, 3], "{gen} returned values at {x}");
        }
        assert_eq!(
            (v(&w[0], 4, 0), v(&w[0], 5, 0)),
            (5, 6),
            "{gen} cmpswap returns the old value"
        );
        assert_eq!(mem.read_u32(IMG + 0x1000).unwrap(), 0x1111_1111);
        assert_eq!(mem.read_u32(IMG + 0x1004).unwrap(), 0x2222_2222);
    }
}

/// The sRGB EOTF of an 8-bit value, as f32 bits.
fn srgb(c: u32) -> u32 {
    let c = c as f64 / 255.0;
    (((c + 0.055) / 1.055).powf(2.4) as f32).to_bits()
}

#[test]
fn formats_store_and_load() {
    if !llvm() {
        return;
    }
    use gcnc_emu::image::TYPE_1D;
    let one = 1.0f32.to_bits();
    let half = 0.5f32.to_bits();
    let quarter = 0.25f32.to_bits();
    // (format, stored components, bytes in memory, components read back)
    let cases: Vec<(&str, [u32; 4], Vec<u8>, [u32; 4])> = vec![
        (
            "16_16_16_16_FLOAT",
            [half, quarter, one, one],
            vec![0x00, 0x38, 0x00, 0x34, 0x00, 0x3c, 0x00, 0x3c],
            [half, quarter, one, one],
        ),
        (
            "10_11_11_FLOAT",
            [half, quarter, one, 0],
            (14u32 << 6 | (13u32 << 6) << 11 | (15u32 << 5) << 22)
                .to_le_bytes()
                .to_vec(),
            [half, quarter, one, one],
        ),
        (
            "8_8_8_8_SRGB",
            [half, 0, one, half],
            vec![188, 0, 255, 128],
            [srgb(188), 0, one, (128.0f32 / 255.0).to_bits()],
        ),
        (
            "2_10_10_10_UINT",
            [1023, 5, 0, 3],
            (1023u32 | 5 << 10 | 3 << 30).to_le_bytes().to_vec(),
            [1023, 5, 0, 3],
        ),
        (
            "5_6_5_UNORM",
            [one, 0, one, 0],
            0xf81fu16.to_le_bytes().to_vec(),
            [one, 0, one, one],
        ),
        (
            "8_8_SNORM",
            [(-1.0f32).to_bits(), half, 0, 0],
            vec![0x81, 64],
            [(-1.0f32).to_bits(), (64.0f32 / 127.0).to_bits(), 0, one],
        ),
    ];
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (d1, _) = dims(gen, TYPE_1D);
        let src = format!(
            "  v_mov_b32_e32 v0, 0\n\
               image_store v[4:7], v0, s[0:7] dmask:0xf{d1} unorm\n\
               s_waitcnt vmcnt(0)\n{vs}\
               image_load v[8:11], v0, s[0:7] dmask:0xf{d1} unorm\n\
               s_waitcnt vmcnt(0)\n  s_endpgm\n",
            vs = vs_wait(gen)
        );
        for (name, store, bytes, back) in &cases {
            let img = ImageDesc::linear(IMG, fmt(name), TYPE_1D, [1, 1, 1], 1, 1);
            let mut mem = Memory::new();
            fill(&mut mem, &img, |_, _, _, _, _| [0; 4]);
            let user = img.encode(gen).unwrap().to_vec();
            // run with the data registers preset: the program stores v[4:7]
            let mut pre = String::new();
            for (k, x) in store.iter().enumerate() {
                pre.push_str(&format!("  v_mov_b32_e32 v{}, {x:#x}\n", 4 + k));
            }
            let code = llvm_asm(t, &format!("{pre}{src}"));
            let mut mem = Memory::new();
            fill(&mut mem, &img, |_, _, _, _, _| [0; 4]);
            let w =
                run(t, code, 1, &user, &mut mem).unwrap_or_else(|e| panic!("{gen} {name}: {e}"));
            assert_eq!(
                &mem.read_vec(IMG, bytes.len()).unwrap(),
                bytes,
                "{gen} {name}: stored bytes"
            );
            assert_eq!(
                (0..4).map(|k| v(&w[0], 8 + k, 0)).collect::<Vec<_>>(),
                back.to_vec(),
                "{gen} {name}: loaded components"
            );
        }
    }
}

#[test]
fn cube_and_cube_array_faces() {
    if !llvm() {
        return;
    }
    use gcnc_emu::image::TYPE_CUBE;
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (dc, da) = dims(gen, TYPE_CUBE);
        // (s, t) = (1.25, 1.75): texel (0, 1) of a 2x2 face; face id: lane 0 → 3, lane 1 →
        // 8 + 2 (cube 1, face 2)
        let src = format!(
            "  v_mov_b32_e32 v1, 0x3fa00000\n  v_mov_b32_e32 v2, 0x3fe00000\n\
               v_mov_b32_e32 v3, 0x40400000\n  v_mov_b32_e32 v4, 0x41200000\n\
               v_cmp_eq_u32_e64 s[20:21], 1, v0\n  v_cndmask_b32_e64 v3, v3, v4, s[20:21]\n\
               image_sample_lz v10, v[1:3], s[0:7], s[8:11] dmask:0x1{dc}{da}\n\
               s_waitcnt vmcnt(0)\n  s_endpgm\n"
        );
        let img = ImageDesc::linear(IMG, fmt("32_FLOAT"), TYPE_CUBE, [2, 2, 12], 1, 1);
        let mut mem = Memory::new();
        fill(&mut mem, &img, |_, x, y, z, _| {
            f32s((10 * z + x + 2 * y) as f32)
        });
        let mut user = img.encode(gen).unwrap().to_vec();
        user.extend(gcnc_emu::sampler::SamplerDesc::default().encode());
        let w =
            run(t, llvm_asm(t, &src), 2, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        assert_eq!(vf(&w[0], 10, 0), 32.0, "{gen} cube face 3");
        assert_eq!(vf(&w[0], 10, 1), 82.0, "{gen} cube 1 face 2");
    }
}

#[test]
fn multisampled_load_reads_the_sample() {
    if !llvm() {
        return;
    }
    use gcnc_emu::image::TYPE_2D_MSAA;
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (dm, _) = dims(gen, TYPE_2D_MSAA);
        // lane: x = lane & 1, y = (lane >> 1) & 1, sample = lane >> 2 (4 samples), plus
        // sample 4 (out of range → 0) for lanes 16..
        let src = format!(
            "  v_and_b32_e32 v1, 1, v0\n  v_bfe_u32 v2, v0, 1, 1\n  v_lshrrev_b32_e32 v3, 2, v0\n\
               image_load v10, v[1:3], s[0:7] dmask:0x1{dm} unorm\n\
               s_waitcnt vmcnt(0)\n  s_endpgm\n"
        );
        let img = ImageDesc::linear(IMG, fmt("32_UINT"), TYPE_2D_MSAA, [2, 2, 1], 1, 4);
        let mut mem = Memory::new();
        fill(&mut mem, &img, |_, x, y, _, s| {
            [100 * s + 10 * y + x, 0, 0, 1]
        });
        let user = img.encode(gen).unwrap().to_vec();
        let w =
            run(t, llvm_asm(t, &src), 20, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        for lane in 0..20u32 {
            let (x, y, s) = (lane & 1, (lane >> 1) & 1, lane >> 2);
            let want = if s < 4 { 100 * s + 10 * y + x } else { 0 };
            assert_eq!(v(&w[0], 10, lane), want, "{gen} lane {lane}");
        }
    }
}

#[test]
fn texel_buffers_format_loads_stores_and_atomics_with_idxen() {
    if !llvm() {
        return;
    }
    const SRC: u64 = 0x50_0000;
    const DST: u64 = 0x60_0000;
    for gen in Gen::ALL {
        let t = target(gen, true);
        // lane i: load rgba8 texel i of s[0:3] as four floats, store its y · 255 as r32ui
        // texel i of s[4:7], then add 1 to texel 16 of s[4:7] (a texel-buffer atomic); the
        // V#s are the ones the pipeline harness writes for texel buffers
        let src = "  buffer_load_format_xyzw v[2:5], v0, s[0:3], 0 idxen\n\
                     s_waitcnt vmcnt(0)\n\
                     v_mul_f32_e32 v6, 0x437f0000, v3\n\
                     v_cvt_u32_f32_e32 v6, v6\n\
                     buffer_store_format_x v6, v0, s[4:7], 0 idxen\n\
                     v_mov_b32_e32 v7, 16\n  v_mov_b32_e32 v8, 1\n\
                     buffer_atomic_add v8, v7, s[4:7], 0 idxen\n\
                     s_waitcnt vmcnt(0)\n  s_endpgm\n";
        let rgba8 = fmt("8_8_8_8_UNORM");
        let r32ui = fmt("32_UINT");
        let mut mem = Memory::new();
        mem.map(SRC, 256);
        mem.map(DST, 256);
        for i in 0..16u32 {
            mem.write(SRC + 4 * i as u64, &[i as u8, 10 * i as u8, 0, 255])
                .unwrap();
        }
        let mut user = gcnc_emu::pipeline::texel_buffer_desc(gen, SRC, 64, &rgba8)
            .unwrap()
            .to_vec();
        user.extend(gcnc_emu::pipeline::texel_buffer_desc(gen, DST, 68, &r32ui).unwrap());
        let w =
            run(t, llvm_asm(t, src), 16, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        for i in 0..16u32 {
            assert_eq!(vf(&w[0], 2, i), i as f32 / 255.0, "{gen} x of texel {i}");
            assert_eq!(vf(&w[0], 5, i), 1.0, "{gen} w of texel {i}");
            assert_eq!(
                mem.read_u32(DST + 4 * i as u64).unwrap(),
                10 * i,
                "{gen} stored {i}"
            );
        }
        assert_eq!(mem.read_u32(DST + 64).unwrap(), 16, "{gen} atomic count");
    }
}

#[test]
fn implicit_lod_comes_from_the_quad_bias_adds_and_get_lod_reports_it() {
    use gcnc_emu::sampler::SamplerDesc;
    for gen in Gen::ALL {
        let t = target(gen, true);
        let (d2, _) = dims(gen, TYPE_2D);
        // quad 0 (lanes 0-3) steps 0.25 per pixel on an 8-texel axis: 2 texels, LOD 1;
        // quad 1 (lanes 4-7) steps 2.0: 16 texels, LOD 4, clamped to the last level 3
        let src = format!(
            "  v_and_b32_e32 v1, 1, v0\n  v_bfe_u32 v2, v0, 1, 1\n\
               v_cvt_f32_u32_e32 v1, v1\n  v_cvt_f32_u32_e32 v2, v2\n\
               v_mov_b32_e32 v3, 2.0\n  v_mov_b32_e32 v4, 0x3e800000\n\
               v_cmp_gt_u32_e64 s[20:21], 4, v0\n  v_cndmask_b32_e64 v3, v3, v4, s[20:21]\n\
               v_mul_f32_e32 v1, v1, v3\n  v_mul_f32_e32 v2, v2, v3\n\
               v_add_f32_e32 v1, 0.5, v1\n  v_add_f32_e32 v2, 0.5, v2\n\
               v_mov_b32_e32 v5, 1.0\n  v_mov_b32_e32 v6, v1\n  v_mov_b32_e32 v7, v2\n\
               image_sample v10, v[1:2], s[0:7], s[8:11] dmask:0x1{d2}\n\
               image_sample_b v11, v[5:7], s[0:7], s[8:11] dmask:0x1{d2}\n\
               image_get_lod v[12:13], v[1:2], s[0:7], s[8:11] dmask:0x3{d2}\n\
               s_waitcnt vmcnt(0)\n  s_endpgm\n"
        );
        let img = ImageDesc::linear(IMG, fmt("32_FLOAT"), TYPE_2D, [8, 8, 1], 4, 1);
        let mut mem = Memory::new();
        fill(&mut mem, &img, |l, _, _, _, _| f32s(10.0 * (l + 1) as f32));
        let mut user = img.encode(gen).unwrap().to_vec();
        let point = SamplerDesc {
            mip: 1,
            ..SamplerDesc::default()
        };
        user.extend(point.encode());
        let w =
            run(t, llvm_asm(t, &src), 8, &user, &mut mem).unwrap_or_else(|e| panic!("{gen}: {e}"));
        for lane in 0..8u32 {
            let q0 = lane < 4;
            let (plain, biased) = if q0 { (20.0, 30.0) } else { (40.0, 40.0) };
            let (lod, raw) = if q0 { (1.0, 1.0) } else { (3.0, 4.0) };
            assert_eq!(vf(&w[0], 10, lane), plain, "{gen} image_sample lane {lane}");
            assert_eq!(
                vf(&w[0], 11, lane),
                biased,
                "{gen} image_sample_b lane {lane}"
            );
            assert_eq!(vf(&w[0], 12, lane), lod, "{gen} get_lod x lane {lane}");
            assert_eq!(vf(&w[0], 13, lane), raw, "{gen} get_lod y lane {lane}");
        }
        // lanes 0-2 of each quad must run: a partial quad is an error, not a guess
        let partial = src.replace(
            "v_mov_b32_e32 v5, 1.0",
            "s_mov_b64 exec, 0xfd\n  v_mov_b32_e32 v5, 1.0",
        );
        let partial = if t.wave == gcnc::isa::Wave::W32 {
            partial.replace("s_mov_b64 exec, 0xfd", "s_mov_b32 exec_lo, 0xfd")
        } else {
            partial
        };
        let e = run(t, llvm_asm(t, &partial), 8, &user, &mut mem).unwrap_err();
        assert!(e.to_string().contains("quad"), "{gen}: {e}");
    }
}
