//! Image loads, stores and samples (nearest and bilinear, 2D and 2D array, R32_FLOAT and
//! R8G8B8A8_UNORM) assembled by llvm-mc-19, against values computed here.

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
