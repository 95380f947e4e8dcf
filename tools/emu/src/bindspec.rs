//! Images and samplers written as text, one parser for every runner that binds them:
//! `gcnc run --bind SET:BINDING=image:SPEC=FILE` and the draw description's image
//! descriptors (docs/draw.md) both read them here.
//!
//! - image: `DIM:FORMAT:W[xH[xD]][:LEVELS][+SAMPLER]`, DIM one of 1d 2d 3d cube cubearray
//!   1darray 2darray, FORMAT a short name (`rgba8`, `r32f`, ... — [`SHORT_FORMATS`]) or an
//!   AMD texel format name (`16_16_UNORM`), sizes 1..=16384, LEVELS 1..=15 (default 1), a
//!   cube's depth a multiple of 6 (slices);
//! - sampler: `nearest|linear[/repeat|/mirror|/clamp|/border][/mipnearest|/miplinear]
//!   [/transparent|/black|/white][/COMPARE]`, COMPARE one of never less equal lequal
//!   greater notequal gequal always; default clamp to edge, point mip filter.
//!
//! Results are the emulator's terms: a [`ImageView`] (T# type, texel format and DST_SEL)
//! and the S# words; every error says which part of the text is wrong.

use crate::image::*;
use crate::pipeline::ImageView;

/// The short format names: (name, AMD texel format, DST_SEL the shader expects).
pub const SHORT_FORMATS: [(&str, &str, [u8; 4]); 17] = [
    ("r8", "8_UNORM", XYZW),
    ("rgba8", "8_8_8_8_UNORM", XYZW),
    ("rgba8_snorm", "8_8_8_8_SNORM", XYZW),
    ("rgba8_srgb", "8_8_8_8_SRGB", XYZW),
    ("rgba8ui", "8_8_8_8_UINT", XYZW),
    ("r32f", "32_FLOAT", XYZW),
    ("r32ui", "32_UINT", XYZW),
    ("r32i", "32_SINT", XYZW),
    ("rg16f", "16_16_FLOAT", XYZW),
    ("rgba16f", "16_16_16_16_FLOAT", XYZW),
    ("rgba32f", "32_32_32_32_FLOAT", XYZW),
    ("rgba32ui", "32_32_32_32_UINT", XYZW),
    // 64-bit integer images: one channel in two dwords
    ("r64ui", "32_32_UINT", XYZW),
    ("r64i", "32_32_SINT", XYZW),
    ("rgb10a2", "2_10_10_10_UNORM", XYZW),
    ("r11g11b10f", "10_11_11_FLOAT", XYZW),
    // R in the high bits: AMD's z
    ("r5g6b5", "5_6_5_UNORM", [6, 5, 4, 1]),
];

const XYZW: [u8; 4] = SWIZZLE_XYZW;

/// A `--bind` texel format: a short name or an AMD name, with the swizzle the shader
/// expects (R5G6B5 has red in AMD's z).
pub fn format_of(name: &str) -> Result<(crate::texformat::TexFormat, [u8; 4]), String> {
    let (amd, sel) = SHORT_FORMATS
        .iter()
        .find(|f| f.0 == name)
        .map_or((name, XYZW), |f| (f.1, f.2));
    crate::texformat::TexFormat::named(amd)
        .map(|f| (f, sel))
        .ok_or_else(|| format!("unknown or unsupported format `{name}`"))
}

/// `DIM:FORMAT:W[xH[xD]][:LEVELS][+SAMPLER]`.
pub fn image_view(spec: &str) -> Result<ImageView, String> {
    let (spec, samp) = match spec.split_once('+') {
        Some((a, s)) => (a, Some(sampler(s)?)),
        None => (spec, None),
    };
    let parts: Vec<&str> = spec.split(':').collect();
    let [dim, fmt, size, rest @ ..] = parts.as_slice() else {
        return Err("expected DIM:FORMAT:SIZE[:LEVELS]".into());
    };
    let ty = match *dim {
        "1d" => TYPE_1D,
        "2d" => TYPE_2D,
        "3d" => TYPE_3D,
        "cube" | "cubearray" => TYPE_CUBE,
        "1darray" => TYPE_1D_ARRAY,
        "2darray" => TYPE_2D_ARRAY,
        d => return Err(format!("unknown image dimension `{d}`")),
    };
    let (fmt, dst_sel) = format_of(fmt)?;
    let mut dims = [1u32; 3];
    let nums: Vec<&str> = size.split('x').collect();
    if nums.len() > 3 {
        return Err(format!("size `{size}`: at most WxHxD"));
    }
    for (k, n) in nums.iter().enumerate() {
        dims[k] = n
            .parse()
            .ok()
            .filter(|&v: &u32| (1..=16384).contains(&v))
            .ok_or_else(|| format!("size `{size}`: `{n}` is not 1..=16384"))?;
    }
    if ty == TYPE_CUBE && dims[2] % 6 != 0 {
        return Err(format!(
            "a cube image has 6 slices per cube, not {}",
            dims[2]
        ));
    }
    let levels = match rest {
        [] => 1,
        [l] => l
            .parse()
            .ok()
            .filter(|&v: &u32| (1..=15).contains(&v))
            .ok_or_else(|| format!("levels `{l}` is not 1..=15"))?,
        _ => return Err("expected DIM:FORMAT:SIZE[:LEVELS]".into()),
    };
    Ok(ImageView {
        ty,
        fmt,
        size: dims,
        levels,
        samples: 1,
        dst_sel,
        sampler: samp,
    })
}

/// `nearest|linear[/ADDRESS][/mipnearest|/miplinear][/BORDER][/COMPARE]` → S# words.
pub fn sampler(spec: &str) -> Result<[u32; 4], String> {
    let mut s = crate::sampler::SamplerDesc {
        mip: 1,
        ..Default::default()
    };
    for (k, w) in spec.split('/').enumerate() {
        match (k, w) {
            (0, "nearest") => {}
            (0, "linear") => {
                s.mag_linear = true;
                s.min_linear = true;
            }
            (0, f) => return Err(format!("sampler filter `{f}`: nearest or linear")),
            (_, "repeat") => s.clamp = [0; 3],
            (_, "mirror") => s.clamp = [1; 3],
            (_, "clamp") => s.clamp = [2; 3],
            (_, "border") => s.clamp = [6; 3],
            (_, "mipnearest") => s.mip = 1,
            (_, "miplinear") => s.mip = 2,
            (_, "transparent") => s.border = 0,
            (_, "black") => s.border = 1,
            (_, "white") => s.border = 2,
            (_, op) => {
                const OPS: [&str; 8] = [
                    "never", "less", "equal", "lequal", "greater", "notequal", "gequal", "always",
                ];
                s.compare = OPS
                    .iter()
                    .position(|&o| o == op)
                    .ok_or_else(|| format!("sampler option `{op}`"))?
                    as u32;
            }
        }
    }
    Ok(s.encode())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_bind_values_parse_into_views() {
        let v = image_view("2darray:rgba8:8x4x3:2+linear/border/white/miplinear").unwrap();
        assert_eq!(
            (v.ty, v.size, v.levels, v.fmt.bytes()),
            (crate::image::TYPE_2D_ARRAY, [8, 4, 3], 2, 4)
        );
        let s = crate::sampler::SamplerDesc::decode(v.sampler.unwrap()).unwrap();
        assert!(s.mag_linear && s.min_linear);
        assert_eq!((s.clamp, s.border, s.mip), ([6; 3], 2, 2));
        let v = image_view("cube:r5g6b5:4x4x6").unwrap();
        assert_eq!((v.dst_sel, v.sampler), ([6, 5, 4, 1], None));
        let v = image_view("1d:16_16_UNORM:5").unwrap();
        assert_eq!(v.size, [5, 1, 1]);
        let s = sampler("nearest/less").unwrap();
        assert_eq!(crate::sampler::SamplerDesc::decode(s).unwrap().compare, 1);
    }

    #[test]
    fn bad_image_bind_values_say_what_is_wrong() {
        for (spec, why) in [
            ("4d:rgba8:4x4", "dimension"),
            ("2d:rgb9:4x4", "format"),
            ("2d:rgba8:0x4", "1..=16384"),
            ("2d:rgba8:4x4x1x1", "at most"),
            ("cube:rgba8:4x4x5", "6 slices"),
            ("2d:rgba8:4x4:99", "levels"),
            ("2d:rgba8", "expected"),
            ("2d:rgba8:4x4+cubic", "filter"),
            ("2d:rgba8:4x4+linear/sideways", "sampler option"),
        ] {
            let e = image_view(spec).unwrap_err();
            assert!(e.contains(why), "{spec}: {e}");
        }
    }
}
