//! Images, samplers and texel formats as a test describes them, independent of any
//! driver: the lavapipe runner creates Vulkan objects from them, gcnc's emulator harness
//! writes AMD descriptors for them.
//!
//! Data layout (the one both runners use, and the one `Image::data` holds): mip levels one
//! after another from level 0; in a level, slices (3D depth, or array layers — six per
//! cube, +X −X +Y −Y +Z −Z) one after another; rows of `max(1, width >> level)` texels
//! without padding; texels as Vulkan lays out the format.

use ash::vk;
use gcnc_emu::sampler::SamplerDesc;
use gcnc_emu::texformat::TexFormat;

/// Texel formats the corpus uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TexelFormat {
    Rgba8Unorm,
    Rgba8Snorm,
    Rgba8Srgb,
    Rgba8Uint,
    R8Unorm,
    Rg16Float,
    Rgba16Float,
    R32Float,
    R32Uint,
    R32Sint,
    Rgba32Float,
    Rgba32Uint,
    Rg32Float,
    /// 96-bit texels (sampled only: no storage format).
    Rgb32Float,
    /// 64-bit integer images (Int64ImageEXT): loads, stores and atomics.
    R64Uint,
    R64Sint,
    A2b10g10r10Unorm,
    A2b10g10r10Uint,
    B10g11r11Ufloat,
    R5g6b5Unorm,
    Rgba16Snorm,
    D32Float,
}

impl TexelFormat {
    pub fn vk(self) -> vk::Format {
        use vk::Format as F;
        match self {
            TexelFormat::Rgba8Unorm => F::R8G8B8A8_UNORM,
            TexelFormat::Rgba8Snorm => F::R8G8B8A8_SNORM,
            TexelFormat::Rgba8Srgb => F::R8G8B8A8_SRGB,
            TexelFormat::Rgba8Uint => F::R8G8B8A8_UINT,
            TexelFormat::R8Unorm => F::R8_UNORM,
            TexelFormat::Rg16Float => F::R16G16_SFLOAT,
            TexelFormat::Rgba16Float => F::R16G16B16A16_SFLOAT,
            TexelFormat::R32Float => F::R32_SFLOAT,
            TexelFormat::R32Uint => F::R32_UINT,
            TexelFormat::R32Sint => F::R32_SINT,
            TexelFormat::Rgba32Float => F::R32G32B32A32_SFLOAT,
            TexelFormat::Rgba32Uint => F::R32G32B32A32_UINT,
            TexelFormat::Rg32Float => F::R32G32_SFLOAT,
            TexelFormat::Rgb32Float => F::R32G32B32_SFLOAT,
            TexelFormat::R64Uint => F::R64_UINT,
            TexelFormat::R64Sint => F::R64_SINT,
            TexelFormat::A2b10g10r10Unorm => F::A2B10G10R10_UNORM_PACK32,
            TexelFormat::A2b10g10r10Uint => F::A2B10G10R10_UINT_PACK32,
            TexelFormat::Rgba16Snorm => F::R16G16B16A16_SNORM,
            TexelFormat::B10g11r11Ufloat => F::B10G11R11_UFLOAT_PACK32,
            TexelFormat::R5g6b5Unorm => F::R5G6B5_UNORM_PACK16,
            TexelFormat::D32Float => F::D32_SFLOAT,
        }
    }

    /// Bytes per texel.
    pub fn bytes(self) -> u32 {
        match self {
            TexelFormat::R8Unorm => 1,
            TexelFormat::R5g6b5Unorm => 2,
            TexelFormat::Rgba16Float
            | TexelFormat::Rgba16Snorm
            | TexelFormat::Rg32Float
            | TexelFormat::R64Uint
            | TexelFormat::R64Sint => 8,
            TexelFormat::Rgb32Float => 12,
            TexelFormat::Rgba32Float | TexelFormat::Rgba32Uint => 16,
            _ => 4,
        }
    }

    /// Integer texels (samplers use integer border colours).
    pub fn is_int(self) -> bool {
        matches!(
            self,
            TexelFormat::Rgba8Uint
                | TexelFormat::R32Uint
                | TexelFormat::R32Sint
                | TexelFormat::Rgba32Uint
                | TexelFormat::R64Uint
                | TexelFormat::R64Sint
                | TexelFormat::A2b10g10r10Uint
        )
    }

    pub fn is_depth(self) -> bool {
        self == TexelFormat::D32Float
    }

    /// Every format, R32Float before D32Float (the same AMD format).
    pub const ALL: [TexelFormat; 22] = [
        TexelFormat::Rgba8Unorm,
        TexelFormat::Rgba8Snorm,
        TexelFormat::Rgba8Srgb,
        TexelFormat::Rgba8Uint,
        TexelFormat::R8Unorm,
        TexelFormat::Rg16Float,
        TexelFormat::Rgba16Float,
        TexelFormat::R32Float,
        TexelFormat::R32Uint,
        TexelFormat::R32Sint,
        TexelFormat::Rgba32Float,
        TexelFormat::Rgba32Uint,
        TexelFormat::Rg32Float,
        TexelFormat::Rgb32Float,
        TexelFormat::R64Uint,
        TexelFormat::R64Sint,
        TexelFormat::A2b10g10r10Unorm,
        TexelFormat::A2b10g10r10Uint,
        TexelFormat::B10g11r11Ufloat,
        TexelFormat::R5g6b5Unorm,
        TexelFormat::Rgba16Snorm,
        TexelFormat::D32Float,
    ];

    /// The emulator's texel format of this format and the DST_SEL that shows its
    /// channels as Vulkan does.
    pub fn amd(self) -> (TexFormat, [u8; 4]) {
        let (name, sel) = match self {
            TexelFormat::Rgba8Unorm => ("8_8_8_8_UNORM", [4, 5, 6, 7]),
            TexelFormat::Rgba8Snorm => ("8_8_8_8_SNORM", [4, 5, 6, 7]),
            TexelFormat::Rgba8Srgb => ("8_8_8_8_SRGB", [4, 5, 6, 7]),
            TexelFormat::Rgba8Uint => ("8_8_8_8_UINT", [4, 5, 6, 7]),
            TexelFormat::R8Unorm => ("8_UNORM", [4, 0, 0, 1]),
            TexelFormat::Rg16Float => ("16_16_FLOAT", [4, 5, 0, 1]),
            TexelFormat::Rgba16Float => ("16_16_16_16_FLOAT", [4, 5, 6, 7]),
            TexelFormat::R32Float | TexelFormat::D32Float => ("32_FLOAT", [4, 0, 0, 1]),
            TexelFormat::R32Uint => ("32_UINT", [4, 0, 0, 1]),
            TexelFormat::R32Sint => ("32_SINT", [4, 0, 0, 1]),
            TexelFormat::Rgba32Float => ("32_32_32_32_FLOAT", [4, 5, 6, 7]),
            TexelFormat::Rgba32Uint => ("32_32_32_32_UINT", [4, 5, 6, 7]),
            TexelFormat::Rg32Float => ("32_32_FLOAT", [4, 5, 0, 1]),
            TexelFormat::Rgb32Float => ("32_32_32_FLOAT", [4, 5, 6, 1]),
            TexelFormat::R64Uint => ("32_32_UINT", [4, 5, 0, 1]),
            TexelFormat::R64Sint => ("32_32_SINT", [4, 5, 0, 1]),
            TexelFormat::A2b10g10r10Unorm => ("2_10_10_10_UNORM", [4, 5, 6, 7]),
            TexelFormat::A2b10g10r10Uint => ("2_10_10_10_UINT", [4, 5, 6, 7]),
            TexelFormat::Rgba16Snorm => ("16_16_16_16_SNORM", [4, 5, 6, 7]),
            TexelFormat::B10g11r11Ufloat => ("10_11_11_FLOAT", [4, 5, 6, 1]),
            // R in the high bits: AMD's z
            TexelFormat::R5g6b5Unorm => ("5_6_5_UNORM", [6, 5, 4, 1]),
        };
        (
            TexFormat::named(name).expect("a texel format the emulator names"),
            sel,
        )
    }

    /// The texel `b` (this format's bytes) as the shader reads it, by Vulkan's conversion
    /// rules ("Fixed-Point Data Conversions", "Unsigned 11-Bit/10-Bit Floating-Point
    /// Numbers", the sRGB EOTF): normalized and float channels as reals, integer channels
    /// as their values; components the format lacks read (0, 0, 0, 1). `None` for the
    /// 64-bit and depth formats, which tests read by hand.
    pub fn decode(self, b: &[u8]) -> Option<[f64; 4]> {
        let u32le = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let u16le = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        let unorm = |v: u32, bits: u32| v as f64 / ((1u64 << bits) - 1) as f64;
        let snorm = |v: i64, bits: u32| (v as f64 / ((1i64 << (bits - 1)) - 1) as f64).max(-1.0);
        let f16 = |h: u16| crate::corpus::f16_to_f32(h) as f64;
        Some(match self {
            TexelFormat::Rgba8Unorm => std::array::from_fn(|k| unorm(b[k] as u32, 8)),
            TexelFormat::Rgba8Snorm => std::array::from_fn(|k| snorm(b[k] as i8 as i64, 8)),
            TexelFormat::Rgba8Srgb => std::array::from_fn(|k| {
                let c = unorm(b[k] as u32, 8);
                if k == 3 {
                    c
                } else {
                    srgb_to_linear(c)
                }
            }),
            TexelFormat::Rgba8Uint => std::array::from_fn(|k| b[k] as f64),
            TexelFormat::R8Unorm => [unorm(b[0] as u32, 8), 0.0, 0.0, 1.0],
            TexelFormat::Rg16Float => [f16(u16le(0)), f16(u16le(2)), 0.0, 1.0],
            TexelFormat::Rgba16Float => std::array::from_fn(|k| f16(u16le(2 * k))),
            TexelFormat::Rgba16Snorm => {
                std::array::from_fn(|k| snorm(u16le(2 * k) as i16 as i64, 16))
            }
            TexelFormat::R32Float => [f32::from_bits(u32le(0)) as f64, 0.0, 0.0, 1.0],
            TexelFormat::R32Uint => [u32le(0) as f64, 0.0, 0.0, 1.0],
            TexelFormat::R32Sint => [u32le(0) as i32 as f64, 0.0, 0.0, 1.0],
            TexelFormat::Rgba32Float => {
                std::array::from_fn(|k| f32::from_bits(u32le(4 * k)) as f64)
            }
            TexelFormat::Rgba32Uint => std::array::from_fn(|k| u32le(4 * k) as f64),
            TexelFormat::Rg32Float => [
                f32::from_bits(u32le(0)) as f64,
                f32::from_bits(u32le(4)) as f64,
                0.0,
                1.0,
            ],
            TexelFormat::Rgb32Float => {
                let c = |k: usize| f32::from_bits(u32le(4 * k)) as f64;
                [c(0), c(1), c(2), 1.0]
            }
            TexelFormat::A2b10g10r10Unorm | TexelFormat::A2b10g10r10Uint => {
                let v = u32le(0);
                let c = [v & 0x3ff, (v >> 10) & 0x3ff, (v >> 20) & 0x3ff, v >> 30];
                if self == TexelFormat::A2b10g10r10Uint {
                    c.map(|x| x as f64)
                } else {
                    [
                        unorm(c[0], 10),
                        unorm(c[1], 10),
                        unorm(c[2], 10),
                        unorm(c[3], 2),
                    ]
                }
            }
            TexelFormat::B10g11r11Ufloat => {
                let v = u32le(0);
                [
                    small_float(v & 0x7ff, 6),
                    small_float((v >> 11) & 0x7ff, 6),
                    small_float(v >> 22, 5),
                    1.0,
                ]
            }
            TexelFormat::R5g6b5Unorm => {
                let v = u16le(0) as u32;
                [
                    unorm(v >> 11, 5),
                    unorm((v >> 5) & 0x3f, 6),
                    unorm(v & 0x1f, 5),
                    1.0,
                ]
            }
            TexelFormat::R64Uint | TexelFormat::R64Sint | TexelFormat::D32Float => return None,
        })
    }

    /// The bytes a shader's store of `v` writes in this format (Vulkan's conversions:
    /// normalized values clamped and rounded to nearest, floats rounded to nearest even,
    /// integers truncated to the channel). `None` where [`TexelFormat::decode`] is.
    pub fn encode(self, v: [f64; 4]) -> Option<Vec<u8>> {
        let unorm = |x: f64, bits: u32| {
            let m = ((1u64 << bits) - 1) as f64;
            (x.clamp(0.0, 1.0) * m).round() as u32
        };
        let snorm = |x: f64, bits: u32| {
            let m = ((1i64 << (bits - 1)) - 1) as f64;
            (x.clamp(-1.0, 1.0) * m).round() as i64
        };
        let f16 = |x: f64| crate::corpus::f32_to_f16(x as f32).to_le_bytes();
        Some(match self {
            TexelFormat::Rgba8Unorm => v.iter().map(|&x| unorm(x, 8) as u8).collect(),
            TexelFormat::Rgba8Snorm => v.iter().map(|&x| snorm(x, 8) as i8 as u8).collect(),
            TexelFormat::Rgba8Uint => v.iter().map(|&x| x as u32 as u8).collect(),
            TexelFormat::R8Unorm => vec![unorm(v[0], 8) as u8],
            TexelFormat::Rg16Float => [f16(v[0]), f16(v[1])].concat(),
            TexelFormat::Rgba16Float => v.iter().flat_map(|&x| f16(x)).collect(),
            TexelFormat::Rgba16Snorm => v
                .iter()
                .flat_map(|&x| (snorm(x, 16) as i16).to_le_bytes())
                .collect(),
            TexelFormat::R32Float => (v[0] as f32).to_le_bytes().to_vec(),
            TexelFormat::R32Uint | TexelFormat::R32Sint => {
                (v[0] as i64 as u32).to_le_bytes().to_vec()
            }
            TexelFormat::Rgba32Float => v.iter().flat_map(|&x| (x as f32).to_le_bytes()).collect(),
            TexelFormat::Rg32Float => v[..2]
                .iter()
                .flat_map(|&x| (x as f32).to_le_bytes())
                .collect(),
            TexelFormat::Rgb32Float => v[..3]
                .iter()
                .flat_map(|&x| (x as f32).to_le_bytes())
                .collect(),
            TexelFormat::Rgba32Uint => v
                .iter()
                .flat_map(|&x| (x as i64 as u32).to_le_bytes())
                .collect(),
            TexelFormat::A2b10g10r10Unorm => {
                let c = [
                    unorm(v[0], 10),
                    unorm(v[1], 10),
                    unorm(v[2], 10),
                    unorm(v[3], 2),
                ];
                (c[0] | c[1] << 10 | c[2] << 20 | c[3] << 30)
                    .to_le_bytes()
                    .to_vec()
            }
            TexelFormat::A2b10g10r10Uint => {
                let c = v.map(|x| x as i64 as u32);
                ((c[0] & 0x3ff) | (c[1] & 0x3ff) << 10 | (c[2] & 0x3ff) << 20 | c[3] << 30)
                    .to_le_bytes()
                    .to_vec()
            }
            TexelFormat::R5g6b5Unorm => {
                ((unorm(v[0], 5) << 11 | unorm(v[1], 6) << 5 | unorm(v[2], 5)) as u16)
                    .to_le_bytes()
                    .to_vec()
            }
            _ => return None,
        })
    }

    /// The format whose emulator texel format is `f` (the first of [`TexelFormat::ALL`]).
    pub fn of_amd(f: TexFormat) -> Option<TexelFormat> {
        TexelFormat::ALL.into_iter().find(|t| t.amd().0 == f)
    }
}

/// How an image is viewed (`VkImageViewType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewType {
    D1,
    D2,
    D3,
    Cube,
    D1Array,
    D2Array,
    CubeArray,
}

/// One image with its initial contents (in the module's layout).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub format: TexelFormat,
    pub view: ViewType,
    /// Width, height, and depth (3D) or number of slices (arrays; 6 per cube).
    pub size: [u32; 3],
    pub levels: u32,
    /// Samples per texel (1, or 2, 4, 8 for a multisampled 2D image (array) of one level).
    pub samples: u32,
    pub data: Vec<u8>,
}

impl Image {
    /// An image whose contents are `f(level, x, y, slice)` little-endian texel bytes.
    pub fn from_fn(
        format: TexelFormat,
        view: ViewType,
        size: [u32; 3],
        levels: u32,
        mut f: impl FnMut(u32, u32, u32, u32) -> Vec<u8>,
    ) -> Image {
        Image::build(format, view, size, levels, 1, |l, x, y, z, _| f(l, x, y, z))
    }

    /// A multisampled 2D image (`view` D2 or D2Array, one level) whose sample `s` of texel
    /// (x, y, layer) is `f(x, y, layer, s)`, the samples of a texel together (the emulator's
    /// layout).
    pub fn multisampled(
        format: TexelFormat,
        view: ViewType,
        size: [u32; 3],
        samples: u32,
        mut f: impl FnMut(u32, u32, u32, u32) -> Vec<u8>,
    ) -> Image {
        assert!(matches!(view, ViewType::D2 | ViewType::D2Array) && samples > 1);
        Image::build(format, view, size, 1, samples, |_, x, y, z, s| {
            f(x, y, z, s)
        })
    }

    /// The image whose sample `s` of texel (x, y, slice) of level `l` is
    /// `f(l, x, y, slice, s)`, in the layout of [`Image::texel_offset`].
    fn build(
        format: TexelFormat,
        view: ViewType,
        size: [u32; 3],
        levels: u32,
        samples: u32,
        mut f: impl FnMut(u32, u32, u32, u32, u32) -> Vec<u8>,
    ) -> Image {
        let mut img = Image {
            format,
            view,
            size,
            levels,
            samples,
            data: Vec::new(),
        };
        for l in 0..levels {
            let [w, h, d] = img.extent(l);
            for z in 0..d {
                for y in 0..h {
                    for x in 0..w {
                        for s in 0..samples {
                            let t = f(l, x, y, z, s);
                            assert_eq!(t.len(), format.bytes() as usize, "texel size");
                            img.data.extend(t);
                        }
                    }
                }
            }
        }
        img
    }

    /// Byte offset of sample `s` of texel (x, y, layer) of a multisampled image.
    pub fn sample_offset(&self, x: u32, y: u32, z: u32, s: u32) -> usize {
        self.texel_offset(0, x, y, z) + (s * self.format.bytes()) as usize
    }

    /// Extent of level `l`: width, height, slices.
    pub fn extent(&self, l: u32) -> [u32; 3] {
        let m = |x: u32| (x >> l).max(1);
        let d = if self.view == ViewType::D3 {
            m(self.size[2])
        } else {
            self.size[2]
        };
        [m(self.size[0]), m(self.size[1]), d]
    }

    /// Byte offset of level `l`.
    pub fn level_offset(&self, l: u32) -> usize {
        (0..l).map(|k| self.level_bytes(k)).sum()
    }

    pub fn level_bytes(&self, l: u32) -> usize {
        let [w, h, d] = self.extent(l);
        (w * h * d * self.samples * self.format.bytes()) as usize
    }

    /// Bytes of all levels.
    pub fn bytes(&self) -> usize {
        self.level_offset(self.levels)
    }

    /// Byte offset of texel (x, y, slice) of level `l`.
    pub fn texel_offset(&self, l: u32, x: u32, y: u32, z: u32) -> usize {
        let [w, h, _] = self.extent(l);
        self.level_offset(l) + (((z * h + y) * w + x) * self.samples * self.format.bytes()) as usize
    }

    /// Array layers of the Vulkan image (3D images have one).
    pub fn layers(&self) -> u32 {
        if self.view == ViewType::D3 {
            1
        } else {
            self.size[2]
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    Nearest,
    Linear,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Address {
    Repeat,
    MirroredRepeat,
    ClampToEdge,
    ClampToBorder,
    MirrorClampToEdge,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Border {
    TransparentBlack,
    OpaqueBlack,
    OpaqueWhite,
}

/// Depth compare operations (`VkCompareOp`, reference on the left): the one type the
/// compiler, the emulator and the draw description share; its order is the S#'s
/// `DEPTH_COMPARE_FUNC` field's.
pub use gcnc::amdgpu::abi_graphics::CompareFunc as Compare;

/// Vulkan's name of a comparison.
pub fn vk_compare(c: Compare) -> ash::vk::CompareOp {
    use ash::vk::CompareOp;
    match c {
        Compare::Never => CompareOp::NEVER,
        Compare::Less => CompareOp::LESS,
        Compare::Equal => CompareOp::EQUAL,
        Compare::LessOrEqual => CompareOp::LESS_OR_EQUAL,
        Compare::Greater => CompareOp::GREATER,
        Compare::NotEqual => CompareOp::NOT_EQUAL,
        Compare::GreaterOrEqual => CompareOp::GREATER_OR_EQUAL,
        Compare::Always => CompareOp::ALWAYS,
    }
}

/// A sampler (`VkSamplerCreateInfo` in the terms tests need).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampler {
    pub mag: Filter,
    pub min: Filter,
    pub mip: Filter,
    pub address: [Address; 3],
    pub border: Border,
    pub compare: Option<Compare>,
    pub unnormalized: bool,
    pub min_lod: f32,
    pub max_lod: f32,
}

impl Sampler {
    /// Nearest filtering everywhere, clamp to edge, LOD range [0, 16].
    pub fn nearest() -> Sampler {
        Sampler {
            mag: Filter::Nearest,
            min: Filter::Nearest,
            mip: Filter::Nearest,
            address: [Address::ClampToEdge; 3],
            border: Border::TransparentBlack,
            compare: None,
            unnormalized: false,
            min_lod: 0.0,
            max_lod: 16.0,
        }
    }

    /// The emulator's sampler (S# fields) for this one.
    pub fn to_emu(&self) -> SamplerDesc {
        let clamp = |a: Address| match a {
            Address::Repeat => 0,
            Address::MirroredRepeat => 1,
            Address::ClampToEdge => 2,
            Address::MirrorClampToEdge => 3,
            Address::ClampToBorder => 6,
        };
        SamplerDesc {
            clamp: self.address.map(clamp),
            compare: self.compare.map_or(0, |c| c as u32),
            unnorm: self.unnormalized,
            min_lod: self.min_lod,
            max_lod: self.max_lod,
            mag_linear: self.mag == Filter::Linear,
            min_linear: self.min == Filter::Linear,
            z_linear: None,
            mip: if self.mip == Filter::Linear { 2 } else { 1 },
            border: match self.border {
                Border::TransparentBlack => 0,
                Border::OpaqueBlack => 1,
                Border::OpaqueWhite => 2,
            },
        }
    }

    /// The sampler whose [`Sampler::to_emu`] is `s` (None: an S# Vulkan has no
    /// sampler for, such as one without a mip filter or with a separate Z filter).
    pub fn from_emu(s: &SamplerDesc) -> Option<Sampler> {
        let address = |c: u32| {
            Some(match c {
                0 => Address::Repeat,
                1 => Address::MirroredRepeat,
                2 => Address::ClampToEdge,
                3 => Address::MirrorClampToEdge,
                6 => Address::ClampToBorder,
                _ => return None,
            })
        };
        let filter = |linear: bool| {
            if linear {
                Filter::Linear
            } else {
                Filter::Nearest
            }
        };
        let v = Sampler {
            mag: filter(s.mag_linear),
            min: filter(s.min_linear),
            mip: match s.mip {
                1 => Filter::Nearest,
                2 => Filter::Linear,
                _ => return None,
            },
            address: [
                address(s.clamp[0])?,
                address(s.clamp[1])?,
                address(s.clamp[2])?,
            ],
            border: match s.border {
                0 => Border::TransparentBlack,
                1 => Border::OpaqueBlack,
                2 => Border::OpaqueWhite,
                _ => return None,
            },
            compare: (s.compare != 0)
                .then(|| Compare::ALL.get(s.compare as usize).copied())
                .flatten(),
            unnormalized: s.unnorm,
            min_lod: s.min_lod,
            max_lod: s.max_lod,
        };
        (v.to_emu() == *s).then_some(v)
    }

    /// Linear filtering (and linear mip filtering), clamp to edge.
    pub fn linear() -> Sampler {
        Sampler {
            mag: Filter::Linear,
            min: Filter::Linear,
            mip: Filter::Linear,
            ..Sampler::nearest()
        }
    }
}

/// The sRGB EOTF (Vulkan's "sRGB transfer functions"): an encoded value in [0, 1] to linear.
pub fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// An unsigned float of 5 exponent bits and `mantissa` bits (the 11- and 10-bit channels
/// of B10G11R11_UFLOAT): denormals below exponent 1, infinity / NaN at exponent 31.
pub fn small_float(v: u32, mantissa: u32) -> f64 {
    let (e, m) = (v >> mantissa, v & ((1 << mantissa) - 1));
    let frac = m as f64 / (1u32 << mantissa) as f64;
    match e {
        0 => frac * 2f64.powi(-14),
        31 if m == 0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + frac) * 2f64.powi(e as i32 - 15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samplers_and_formats_map_to_the_emulator_and_back() {
        let mut s = Sampler::linear();
        s.address = [
            Address::Repeat,
            Address::ClampToBorder,
            Address::MirroredRepeat,
        ];
        s.border = Border::OpaqueWhite;
        s.compare = Some(Compare::Greater);
        assert_eq!(Sampler::from_emu(&s.to_emu()), Some(s));
        let no_mips = SamplerDesc {
            mip: 0,
            ..Sampler::nearest().to_emu()
        };
        assert_eq!(Sampler::from_emu(&no_mips), None);
        for f in TexelFormat::ALL {
            let back = TexelFormat::of_amd(f.amd().0).unwrap();
            assert!(back == f || (f, back) == (TexelFormat::D32Float, TexelFormat::R32Float));
        }
    }
}
