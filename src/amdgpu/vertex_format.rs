//! Vertex attribute formats: every Vulkan vertex-buffer format gcnc fetches, what it is in
//! memory, and per generation how the vertex-fetch prolog (`parts::vs_prolog`) loads it.
//!
//! Design. A format is its memory layout — component sizes x first, a numeric type, and
//! whether memory holds the colour channels in B, G, R order — and nothing else: the
//! buffer data/numeric formats and their per-generation codes are the ISA's
//! (`isa_tables/buf_formats.txt`, typed by build.rs as `BufData` / `BufNum` /
//! `mtbuf::format_code`), found by component sizes, never by name.
//!
//! Fetch plans (facts from RADV's vertex fetch and the GFX9/GFX10/GFX11 buffer-format
//! tables, not code):
//! - a format whose whole element has a buffer data format on the generation (8/8_8/
//!   8_8_8_8, 16/16_16/16_16_16_16, 32 to 32_32_32_32, 2_10_10_10) is one typed load of the
//!   channels the shader reads; the typed load converts (UNORM/SNORM/SCALED/float) itself.
//!   GFX9 and later treat the signed 2-bit alpha of 2_10_10_10 correctly (RADV's alpha
//!   fix-up is for GFX6–8 only), so SNORM/SSCALED/SINT 2_10_10_10 need no code;
//! - 3-component 8- and 16-bit formats (no 8_8_8 / 16_16_16 data format on any generation)
//!   and B, G, R-ordered formats (the V# carries no swizzle: one V# per binding, shared by
//!   its attributes) are one single-component typed load per channel, from the channel's
//!   byte offset — B8G8R8A8's red from byte 2;
//! - channels the shader reads beyond the format's are constants: 0 for y and z, and for w
//!   1.0, or integer 1 for UINT/SINT formats (Vulkan's "Vertex Input Extraction").
//!
//! The table is Vulkan's required vertex-buffer formats plus the SCALED, 3-component and
//! 2_10_10_10 SNORM/SCALED ones that lavapipe fetches (the oracle of the format matrix,
//! tools/cli/tests/draw_formats.rs); A2B10G10R10_SINT_PACK32, which lavapipe reads as
//! zeros, is left out.
//!
//! Invariant: every format of [`VertexFormat::ALL`] has a plan on every generation
//! (tested below), and a plan's loads never read outside the element's bytes.

use crate::isa::format::mtbuf::format_code;
use crate::isa::{BufData, BufNum, Gen, Opcode};
use serde::{Deserialize, Serialize};

/// What a shader input of the format holds: float, unsigned or signed integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    Float,
    Uint,
    Sint,
}

macro_rules! vertex_formats {
    ($($name:ident = $vk:literal: [$($bits:literal),+] $num:ident $($bgr:ident)?;)*) => {
        /// A Vulkan vertex attribute format (the VkFormat name without `VK_FORMAT_`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[allow(non_camel_case_types)]
        pub enum VertexFormat { $($name),* }

        impl VertexFormat {
            /// Every format, in VkFormat order.
            pub const ALL: &'static [VertexFormat] = &[$(VertexFormat::$name),*];

            /// The VkFormat value.
            pub fn vk(self) -> i32 {
                match self { $(VertexFormat::$name => $vk),* }
            }

            /// The name (VkFormat without `VK_FORMAT_`).
            pub fn name(self) -> &'static str {
                match self { $(VertexFormat::$name => stringify!($name)),* }
            }

            /// Component sizes in bits, x (memory's first or lowest) first.
            fn bits(self) -> &'static [u32] {
                match self { $(VertexFormat::$name => &[$($bits),+]),* }
            }

            /// The numeric format.
            pub fn num(self) -> BufNum {
                match self { $(VertexFormat::$name => BufNum::$num),* }
            }

            /// Memory holds the colour channels B, G, R (then A).
            fn bgr(self) -> bool {
                match self { $(VertexFormat::$name => false $(|| { let $bgr = true; $bgr })?),* }
            }
        }
    };
}

vertex_formats! {
    R8_UNORM = 9: [8] Unorm;
    R8_SNORM = 10: [8] Snorm;
    R8_USCALED = 11: [8] Uscaled;
    R8_SSCALED = 12: [8] Sscaled;
    R8_UINT = 13: [8] Uint;
    R8_SINT = 14: [8] Sint;
    R8G8_UNORM = 16: [8, 8] Unorm;
    R8G8_SNORM = 17: [8, 8] Snorm;
    R8G8_USCALED = 18: [8, 8] Uscaled;
    R8G8_SSCALED = 19: [8, 8] Sscaled;
    R8G8_UINT = 20: [8, 8] Uint;
    R8G8_SINT = 21: [8, 8] Sint;
    R8G8B8_UNORM = 23: [8, 8, 8] Unorm;
    R8G8B8_SNORM = 24: [8, 8, 8] Snorm;
    R8G8B8_UINT = 27: [8, 8, 8] Uint;
    R8G8B8_SINT = 28: [8, 8, 8] Sint;
    R8G8B8A8_UNORM = 37: [8, 8, 8, 8] Unorm;
    R8G8B8A8_SNORM = 38: [8, 8, 8, 8] Snorm;
    R8G8B8A8_USCALED = 39: [8, 8, 8, 8] Uscaled;
    R8G8B8A8_SSCALED = 40: [8, 8, 8, 8] Sscaled;
    R8G8B8A8_UINT = 41: [8, 8, 8, 8] Uint;
    R8G8B8A8_SINT = 42: [8, 8, 8, 8] Sint;
    B8G8R8A8_UNORM = 44: [8, 8, 8, 8] Unorm bgr;
    A8B8G8R8_UNORM_PACK32 = 51: [8, 8, 8, 8] Unorm;
    A8B8G8R8_SNORM_PACK32 = 52: [8, 8, 8, 8] Snorm;
    A8B8G8R8_USCALED_PACK32 = 53: [8, 8, 8, 8] Uscaled;
    A8B8G8R8_SSCALED_PACK32 = 54: [8, 8, 8, 8] Sscaled;
    A8B8G8R8_UINT_PACK32 = 55: [8, 8, 8, 8] Uint;
    A8B8G8R8_SINT_PACK32 = 56: [8, 8, 8, 8] Sint;
    A2B10G10R10_UNORM_PACK32 = 64: [10, 10, 10, 2] Unorm;
    A2B10G10R10_SNORM_PACK32 = 65: [10, 10, 10, 2] Snorm;
    A2B10G10R10_USCALED_PACK32 = 66: [10, 10, 10, 2] Uscaled;
    A2B10G10R10_SSCALED_PACK32 = 67: [10, 10, 10, 2] Sscaled;
    A2B10G10R10_UINT_PACK32 = 68: [10, 10, 10, 2] Uint;
    R16_UNORM = 70: [16] Unorm;
    R16_SNORM = 71: [16] Snorm;
    R16_USCALED = 72: [16] Uscaled;
    R16_SSCALED = 73: [16] Sscaled;
    R16_UINT = 74: [16] Uint;
    R16_SINT = 75: [16] Sint;
    R16_SFLOAT = 76: [16] Float;
    R16G16_UNORM = 77: [16, 16] Unorm;
    R16G16_SNORM = 78: [16, 16] Snorm;
    R16G16_USCALED = 79: [16, 16] Uscaled;
    R16G16_SSCALED = 80: [16, 16] Sscaled;
    R16G16_UINT = 81: [16, 16] Uint;
    R16G16_SINT = 82: [16, 16] Sint;
    R16G16_SFLOAT = 83: [16, 16] Float;
    R16G16B16_UNORM = 84: [16, 16, 16] Unorm;
    R16G16B16_SNORM = 85: [16, 16, 16] Snorm;
    R16G16B16_UINT = 88: [16, 16, 16] Uint;
    R16G16B16_SINT = 89: [16, 16, 16] Sint;
    R16G16B16_SFLOAT = 90: [16, 16, 16] Float;
    R16G16B16A16_UNORM = 91: [16, 16, 16, 16] Unorm;
    R16G16B16A16_SNORM = 92: [16, 16, 16, 16] Snorm;
    R16G16B16A16_USCALED = 93: [16, 16, 16, 16] Uscaled;
    R16G16B16A16_SSCALED = 94: [16, 16, 16, 16] Sscaled;
    R16G16B16A16_UINT = 95: [16, 16, 16, 16] Uint;
    R16G16B16A16_SINT = 96: [16, 16, 16, 16] Sint;
    R16G16B16A16_SFLOAT = 97: [16, 16, 16, 16] Float;
    R32_UINT = 98: [32] Uint;
    R32_SINT = 99: [32] Sint;
    R32_SFLOAT = 100: [32] Float;
    R32G32_UINT = 101: [32, 32] Uint;
    R32G32_SINT = 102: [32, 32] Sint;
    R32G32_SFLOAT = 103: [32, 32] Float;
    R32G32B32_UINT = 104: [32, 32, 32] Uint;
    R32G32B32_SINT = 105: [32, 32, 32] Sint;
    R32G32B32_SFLOAT = 106: [32, 32, 32] Float;
    R32G32B32A32_UINT = 107: [32, 32, 32, 32] Uint;
    R32G32B32A32_SINT = 108: [32, 32, 32, 32] Sint;
    R32G32B32A32_SFLOAT = 109: [32, 32, 32, 32] Float;
}

/// One typed load of a fetch plan: `channels` channels from byte `offset` of the element
/// into the attribute's channels `dst..dst + channels`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Load {
    pub dst: u32,
    pub offset: u32,
    pub channels: u32,
    /// The MTBUF format code (GFX9 dfmt | nfmt << 4, GFX10+ unified).
    pub format: u8,
}

impl Load {
    /// The typed load of `channels` channels.
    pub fn opcode(&self) -> Opcode {
        match self.channels {
            1 => Opcode::TbufferLoadFormatX,
            2 => Opcode::TbufferLoadFormatXy,
            3 => Opcode::TbufferLoadFormatXyz,
            _ => Opcode::TbufferLoadFormatXyzw,
        }
    }
}

/// How `read` channels of an attribute are produced on one generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetch {
    pub loads: Vec<Load>,
    /// Channels `loaded..read` are constants: `(channel, bits)`.
    pub constants: Vec<(u32, u32)>,
}

/// A fetch the generation cannot do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchError(pub String);

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl VertexFormat {
    /// The format of a VkFormat name (without `VK_FORMAT_`).
    pub fn from_name(s: &str) -> Option<VertexFormat> {
        Self::ALL.iter().copied().find(|f| f.name() == s)
    }

    /// Components in the format.
    pub fn components(self) -> u32 {
        self.bits().len() as u32
    }

    /// Bytes of one element.
    pub fn bytes(self) -> u32 {
        self.bits().iter().sum::<u32>() / 8
    }

    /// What the shader reads it as.
    pub fn class(self) -> Class {
        match self.num() {
            BufNum::Uint => Class::Uint,
            BufNum::Sint => Class::Sint,
            _ => Class::Float,
        }
    }

    /// The plain 32-bit float formats (what the whole-pipeline vertex fetch handles).
    pub fn float32_channels(self) -> Option<u32> {
        (self.num() == BufNum::Float && self.bits()[0] == 32).then(|| self.components())
    }

    /// The 32-bit float format of `n` channels.
    pub fn float32(n: u32) -> Option<VertexFormat> {
        Self::ALL
            .iter()
            .copied()
            .find(|f| f.float32_channels() == Some(n))
    }

    /// The buffer data format whose components are `bits` (x first).
    fn data(bits: &[u32]) -> Option<BufData> {
        BufData::ALL.iter().copied().find(|d| d.bits() == bits)
    }

    /// The bits of channel `k`'s default value (`k` beyond the format's components).
    pub fn default_bits(self, k: u32) -> u32 {
        match (k, self.class()) {
            (3, Class::Float) => 1f32.to_bits(),
            (3, _) => 1,
            _ => 0,
        }
    }

    /// The fetch plan of `read` channels (1..=4) on `gen`.
    pub fn fetch(self, gen: Gen, read: u32) -> Result<Fetch, FetchError> {
        let bits = self.bits();
        let n = self.components();
        let loaded = read.min(n);
        let code = |b: &[u32]| {
            Self::data(b)
                .and_then(|d| format_code(gen, d, self.num()))
                .ok_or_else(|| {
                    FetchError(format!(
                        "{} on {}: no {b:?}-bit {:?} buffer format",
                        self.name(),
                        gen.mcpu(),
                        self.num()
                    ))
                })
        };
        let loads = match code(bits) {
            Ok(format) if !self.bgr() => vec![Load {
                dst: 0,
                offset: 0,
                channels: loaded,
                format,
            }],
            _ => {
                // one channel at a time: equal byte-sized channels only
                let b = bits[0];
                if b % 8 != 0 || bits.iter().any(|&x| x != b) {
                    return Err(FetchError(format!(
                        "{} on {}: no whole-element buffer format and unequal channels",
                        self.name(),
                        gen.mcpu()
                    )));
                }
                let format = code(&[b])?;
                (0..loaded)
                    .map(|k| {
                        let from = if self.bgr() && k < 3 { 2 - k } else { k };
                        Load {
                            dst: k,
                            offset: from * b / 8,
                            channels: 1,
                            format,
                        }
                    })
                    .collect()
            }
        };
        let constants = (loaded..read).map(|k| (k, self.default_bits(k))).collect();
        Ok(Fetch { loads, constants })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_has_a_fetch_plan_within_its_element_on_every_generation() {
        for &f in VertexFormat::ALL {
            assert_eq!(VertexFormat::from_name(f.name()), Some(f));
            for gen in [Gen::Gfx9, Gen::Gfx10, Gen::Gfx11] {
                for read in 1..=4 {
                    let p = f.fetch(gen, read).unwrap_or_else(|e| panic!("{e}"));
                    let per = f.bits()[0] / 8;
                    for l in &p.loads {
                        // packed formats load whole elements
                        let size = if per * 8 == f.bits()[0] {
                            l.channels * per
                        } else {
                            f.bytes()
                        };
                        assert!(l.offset + size <= f.bytes(), "{f:?} {l:?}");
                    }
                    let loaded: u32 = p.loads.iter().map(|l| l.channels).sum();
                    assert_eq!(loaded + p.constants.len() as u32, read, "{f:?}");
                }
            }
        }
    }

    #[test]
    fn bgra_and_three_channel_formats_load_channel_by_channel() {
        let p = VertexFormat::B8G8R8A8_UNORM.fetch(Gen::Gfx10, 4).unwrap();
        let offsets: Vec<u32> = p.loads.iter().map(|l| l.offset).collect();
        assert_eq!(offsets, [2, 1, 0, 3]);
        let p = VertexFormat::R16G16B16_SFLOAT.fetch(Gen::Gfx9, 4).unwrap();
        assert_eq!(p.loads.len(), 3);
        assert_eq!(p.constants, [(3, 1f32.to_bits())]);
        let p = VertexFormat::R8G8_UINT.fetch(Gen::Gfx11, 4).unwrap();
        assert_eq!(p.loads.len(), 1);
        assert_eq!(p.constants, [(2, 0), (3, 1)]);
    }
}
