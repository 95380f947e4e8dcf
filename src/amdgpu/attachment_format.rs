//! Colour attachment formats: every format Vulkan requires as a colour attachment
//! (VkFormat feature COLOR_ATTACHMENT_BIT in the spec's required-format tables) plus the
//! 16-bit UNORM/SNORM ones, their layout in memory, and the colour export format
//! (SPI_SHADER_COL_FORMAT) the colour-export epilog and the whole-pipeline compile use for
//! each.
//!
//! Layout: per channel (R, G, B, A order) its bit offset and width in the little-endian
//! pixel; the numeric type is one for all channels. B8G8R8A8 puts red at bit 16;
//! A8B8G8R8_*_PACK32 is R8G8B8A8's bytes; A2B10G10R10 has red in bits 9:0;
//! R5G6B5_UNORM_PACK16 red in bits 15:11; A1R5G5B5_UNORM_PACK16 alpha in bit 15.
//!
//! Export format (facts from RADV's choice, not code): channels of at most 10 bits export
//! as FP16_ABGR (UNORM/SNORM/SRGB; the colour buffer converts), UINT16_ABGR or
//! SINT16_ABGR (integers); 16-bit channels as UNORM16/SNORM16_ABGR (normalized; with
//! blending 32-bit per channel, since the colour buffer cannot blend those exports),
//! FP16_ABGR, UINT16_ABGR, SINT16_ABGR; 32-bit channels as 32_R, 32_GR or 32_ABGR by
//! channel count — with blending 32_AR and 32_ABGR, since the blend factors may read the
//! source alpha, which an attachment without alpha still takes from the shader.
//!
//! Write masks ([`AttachmentFormat::export_format_for`]): the channels an attachment uses
//! are those of its write mask the format has, plus alpha when it blends. None used: no
//! export at all (SPI_SHADER_COL_FORMAT ZERO — radeonsi and RADV clear the field of a
//! target whose write mask is 0). The 32-bit exports then take the smallest format
//! holding the used channels — only red: 32_R; red and green: 32_GR; red and alpha:
//! 32_AR; else 32_ABGR — which is the count rule above when every channel is used; the
//! 16-bit exports keep their format and leave a pair off when neither of its channels
//! is used (`parts::ps_epilog`).

use super::abi_graphics::ColorFormat as Export;

/// The numeric type of an attachment's channels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Num {
    Unorm,
    Snorm,
    Srgb,
    Uint,
    Sint,
    Float,
}

macro_rules! attachment_formats {
    ($($name:ident = $vk:literal: $bytes:literal $num:ident [$(($shift:literal, $bits:literal)),+];)*) => {
        /// A Vulkan colour attachment format (the VkFormat name without `VK_FORMAT_`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        #[allow(non_camel_case_types)]
        pub enum AttachmentFormat { $($name),* }

        impl AttachmentFormat {
            /// Every format, in VkFormat order.
            pub const ALL: &'static [AttachmentFormat] = &[$(AttachmentFormat::$name),*];

            /// The VkFormat value.
            pub fn vk(self) -> i32 {
                match self { $(AttachmentFormat::$name => $vk),* }
            }

            /// The name (VkFormat without `VK_FORMAT_`).
            pub fn name(self) -> &'static str {
                match self { $(AttachmentFormat::$name => stringify!($name)),* }
            }

            /// Bytes of one pixel.
            pub fn bytes(self) -> usize {
                match self { $(AttachmentFormat::$name => $bytes),* }
            }

            /// The numeric type.
            pub fn num(self) -> Num {
                match self { $(AttachmentFormat::$name => Num::$num),* }
            }

            /// (bit offset, bits) of each channel the format has, R, G, B, A order.
            pub fn channels(self) -> &'static [(u32, u32)] {
                match self { $(AttachmentFormat::$name => &[$(($shift, $bits)),+]),* }
            }
        }
    };
}

attachment_formats! {
    R5G6B5_UNORM_PACK16 = 4: 2 Unorm [(11, 5), (5, 6), (0, 5)];
    A1R5G5B5_UNORM_PACK16 = 8: 2 Unorm [(10, 5), (5, 5), (0, 5), (15, 1)];
    R8_UNORM = 9: 1 Unorm [(0, 8)];
    R8_UINT = 13: 1 Uint [(0, 8)];
    R8_SINT = 14: 1 Sint [(0, 8)];
    R8G8_UNORM = 16: 2 Unorm [(0, 8), (8, 8)];
    R8G8_UINT = 20: 2 Uint [(0, 8), (8, 8)];
    R8G8_SINT = 21: 2 Sint [(0, 8), (8, 8)];
    R8G8B8A8_UNORM = 37: 4 Unorm [(0, 8), (8, 8), (16, 8), (24, 8)];
    R8G8B8A8_UINT = 41: 4 Uint [(0, 8), (8, 8), (16, 8), (24, 8)];
    R8G8B8A8_SINT = 42: 4 Sint [(0, 8), (8, 8), (16, 8), (24, 8)];
    R8G8B8A8_SRGB = 43: 4 Srgb [(0, 8), (8, 8), (16, 8), (24, 8)];
    B8G8R8A8_UNORM = 44: 4 Unorm [(16, 8), (8, 8), (0, 8), (24, 8)];
    B8G8R8A8_SRGB = 50: 4 Srgb [(16, 8), (8, 8), (0, 8), (24, 8)];
    A8B8G8R8_UNORM_PACK32 = 51: 4 Unorm [(0, 8), (8, 8), (16, 8), (24, 8)];
    A8B8G8R8_UINT_PACK32 = 55: 4 Uint [(0, 8), (8, 8), (16, 8), (24, 8)];
    A8B8G8R8_SINT_PACK32 = 56: 4 Sint [(0, 8), (8, 8), (16, 8), (24, 8)];
    A8B8G8R8_SRGB_PACK32 = 57: 4 Srgb [(0, 8), (8, 8), (16, 8), (24, 8)];
    A2B10G10R10_UNORM_PACK32 = 64: 4 Unorm [(0, 10), (10, 10), (20, 10), (30, 2)];
    A2B10G10R10_UINT_PACK32 = 68: 4 Uint [(0, 10), (10, 10), (20, 10), (30, 2)];
    R16_UNORM = 70: 2 Unorm [(0, 16)];
    R16_SNORM = 71: 2 Snorm [(0, 16)];
    R16_UINT = 74: 2 Uint [(0, 16)];
    R16_SINT = 75: 2 Sint [(0, 16)];
    R16_SFLOAT = 76: 2 Float [(0, 16)];
    R16G16_UNORM = 77: 4 Unorm [(0, 16), (16, 16)];
    R16G16_SNORM = 78: 4 Snorm [(0, 16), (16, 16)];
    R16G16_UINT = 81: 4 Uint [(0, 16), (16, 16)];
    R16G16_SINT = 82: 4 Sint [(0, 16), (16, 16)];
    R16G16_SFLOAT = 83: 4 Float [(0, 16), (16, 16)];
    R16G16B16A16_UNORM = 91: 8 Unorm [(0, 16), (16, 16), (32, 16), (48, 16)];
    R16G16B16A16_SNORM = 92: 8 Snorm [(0, 16), (16, 16), (32, 16), (48, 16)];
    R16G16B16A16_UINT = 95: 8 Uint [(0, 16), (16, 16), (32, 16), (48, 16)];
    R16G16B16A16_SINT = 96: 8 Sint [(0, 16), (16, 16), (32, 16), (48, 16)];
    R16G16B16A16_SFLOAT = 97: 8 Float [(0, 16), (16, 16), (32, 16), (48, 16)];
    R32_UINT = 98: 4 Uint [(0, 32)];
    R32_SINT = 99: 4 Sint [(0, 32)];
    R32_SFLOAT = 100: 4 Float [(0, 32)];
    R32G32_UINT = 101: 8 Uint [(0, 32), (32, 32)];
    R32G32_SINT = 102: 8 Sint [(0, 32), (32, 32)];
    R32G32_SFLOAT = 103: 8 Float [(0, 32), (32, 32)];
    R32G32B32A32_UINT = 107: 16 Uint [(0, 32), (32, 32), (64, 32), (96, 32)];
    R32G32B32A32_SINT = 108: 16 Sint [(0, 32), (32, 32), (64, 32), (96, 32)];
    R32G32B32A32_SFLOAT = 109: 16 Float [(0, 32), (32, 32), (64, 32), (96, 32)];
}

impl AttachmentFormat {
    /// The format of a VkFormat name (without `VK_FORMAT_`).
    pub fn from_name(s: &str) -> Option<AttachmentFormat> {
        Self::ALL.iter().copied().find(|f| f.name() == s)
    }

    /// Integer channels (no blending; the shader writes integers).
    pub fn is_int(self) -> bool {
        matches!(self.num(), Num::Uint | Num::Sint)
    }

    /// Blending applies to the format (Vulkan: not to integer formats).
    pub fn blendable(self) -> bool {
        !self.is_int()
    }

    /// The channel bits (bit k: R, G, B, A) the format has.
    pub fn channel_bits(self) -> u32 {
        (1 << self.channels().len()) - 1
    }

    /// The channels an attachment of the format uses with write mask `write_mask`,
    /// blended or not (module doc).
    pub fn used_channels(self, blend: bool, write_mask: u32) -> u32 {
        (write_mask & self.channel_bits()) | if blend { 8 } else { 0 }
    }

    /// The export format a fragment shader writes the attachment with, with or without
    /// blending, every channel written (module doc).
    pub fn export_format(self, blend: bool) -> Export {
        self.export_format_for(blend, self.used_channels(blend, 0xf))
            .expect("an attachment uses at least one channel")
    }

    /// The export format of an attachment that uses `channels` (bit k: R, G, B, A;
    /// [`AttachmentFormat::used_channels`]); `None` (ZERO, no export) when it uses none.
    pub fn export_format_for(self, blend: bool, channels: u32) -> Option<Export> {
        if channels & 0xf == 0 {
            return None;
        }
        let widest = self.channels().iter().map(|c| c.1).max().unwrap_or(0);
        // the smallest 32-bit export holding the channels (blending's alpha included)
        let by_channels = || match channels & 0xf {
            0b0001 => Export::R32,
            0b0011 | 0b0010 => Export::Gr32,
            0b1001 | 0b1000 => Export::Ar32,
            _ => Export::Abgr32,
        };
        Some(match (widest, self.num()) {
            (32, _) => by_channels(),
            (_, Num::Uint) => Export::Uint16Abgr,
            (_, Num::Sint) => Export::Sint16Abgr,
            (16, Num::Unorm | Num::Snorm) if blend => by_channels(),
            (16, Num::Unorm) => Export::Unorm16Abgr,
            (16, Num::Snorm) => Export::Snorm16Abgr,
            _ => Export::Fp16Abgr,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_fit_the_pixel_and_do_not_overlap() {
        for &f in AttachmentFormat::ALL {
            assert_eq!(AttachmentFormat::from_name(f.name()), Some(f));
            let mut used = 0u128;
            for &(shift, bits) in f.channels() {
                let m = ((1u128 << bits) - 1) << shift;
                assert_eq!(used & m, 0, "{f:?}");
                used |= m;
            }
            assert!(f.bytes() == 16 || used >> (8 * f.bytes()) == 0, "{f:?}");
        }
    }

    #[test]
    fn export_formats_follow_the_channel_width_and_type() {
        use AttachmentFormat::*;
        assert_eq!(R8G8B8A8_UNORM.export_format(false), Export::Fp16Abgr);
        assert_eq!(
            A2B10G10R10_UINT_PACK32.export_format(true),
            Export::Uint16Abgr
        );
        assert_eq!(R16G16_UNORM.export_format(false), Export::Unorm16Abgr);
        assert_eq!(R16G16_UNORM.export_format(true), Export::Abgr32);
        assert_eq!(R16_UNORM.export_format(true), Export::Ar32);
        assert_eq!(R16_SINT.export_format(false), Export::Sint16Abgr);
        assert_eq!(R32_UINT.export_format(false), Export::R32);
        assert_eq!(R32G32B32A32_SFLOAT.export_format(true), Export::Abgr32);
    }

    #[test]
    fn write_masks_narrow_32_bit_exports_and_zero_drops_the_export() {
        use AttachmentFormat::*;
        let f = |a: AttachmentFormat, blend, mask| {
            a.export_format_for(blend, a.used_channels(blend, mask))
        };
        // alpha alone: 32_AR; red and green of four: 32_GR; red: 32_R
        assert_eq!(f(R32G32B32A32_SFLOAT, false, 0b1000), Some(Export::Ar32));
        assert_eq!(f(R32G32B32A32_UINT, false, 0b0011), Some(Export::Gr32));
        assert_eq!(f(R32G32_SFLOAT, false, 0b0001), Some(Export::R32));
        // green and blue of a one-channel format: nothing to export
        assert_eq!(f(R32_SFLOAT, false, 0b0110), None);
        assert_eq!(f(R8G8B8A8_UNORM, false, 0), None);
        // blending keeps alpha: red + alpha
        assert_eq!(f(R32G32B32A32_SFLOAT, true, 0b0001), Some(Export::Ar32));
        // 16-bit exports keep their format whatever the mask
        assert_eq!(f(R8G8B8A8_UNORM, false, 0b0100), Some(Export::Fp16Abgr));
        // every channel: the count rule of export_format
        for &a in AttachmentFormat::ALL {
            for blend in [false, a.blendable()] {
                assert_eq!(f(a, blend, 0xf), Some(a.export_format(blend)), "{a:?}");
            }
        }
    }
}
