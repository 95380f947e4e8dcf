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
    /// 64-bit integer images (Int64ImageEXT): loads, stores and atomics.
    R64Uint,
    R64Sint,
    A2b10g10r10Unorm,
    B10g11r11Ufloat,
    R5g6b5Unorm,
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
            TexelFormat::R64Uint => F::R64_UINT,
            TexelFormat::R64Sint => F::R64_SINT,
            TexelFormat::A2b10g10r10Unorm => F::A2B10G10R10_UNORM_PACK32,
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
            TexelFormat::Rgba16Float | TexelFormat::R64Uint | TexelFormat::R64Sint => 8,
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
        )
    }

    pub fn is_depth(self) -> bool {
        self == TexelFormat::D32Float
    }

    /// Every format, R32Float before D32Float (the same AMD format).
    pub const ALL: [TexelFormat; 18] = [
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
        TexelFormat::R64Uint,
        TexelFormat::R64Sint,
        TexelFormat::A2b10g10r10Unorm,
        TexelFormat::B10g11r11Ufloat,
        TexelFormat::R5g6b5Unorm,
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
            TexelFormat::R64Uint => ("32_32_UINT", [4, 5, 0, 1]),
            TexelFormat::R64Sint => ("32_32_SINT", [4, 5, 0, 1]),
            TexelFormat::A2b10g10r10Unorm => ("2_10_10_10_UNORM", [4, 5, 6, 7]),
            TexelFormat::B10g11r11Ufloat => ("10_11_11_FLOAT", [4, 5, 6, 1]),
            // R in the high bits: AMD's z
            TexelFormat::R5g6b5Unorm => ("5_6_5_UNORM", [6, 5, 4, 1]),
        };
        (
            TexFormat::named(name).expect("a texel format the emulator names"),
            sel,
        )
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
        let mut img = Image {
            format,
            view,
            size,
            levels,
            data: Vec::new(),
        };
        for l in 0..levels {
            let [w, h, d] = img.extent(l);
            for z in 0..d {
                for y in 0..h {
                    for x in 0..w {
                        let t = f(l, x, y, z);
                        assert_eq!(t.len(), format.bytes() as usize, "texel size");
                        img.data.extend(t);
                    }
                }
            }
        }
        img
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
        (w * h * d * self.format.bytes()) as usize
    }

    /// Bytes of all levels.
    pub fn bytes(&self) -> usize {
        self.level_offset(self.levels)
    }

    /// Byte offset of texel (x, y, slice) of level `l`.
    pub fn texel_offset(&self, l: u32, x: u32, y: u32, z: u32) -> usize {
        let [w, h, _] = self.extent(l);
        self.level_offset(l) + (((z * h + y) * w + x) * self.format.bytes()) as usize
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
