//! Sampler descriptors (S#) and the texel addressing they control: wrap modes, border
//! colours, filters, LOD clamps and depth compare.
//!
//! S# fields (4 dwords; facts from AMD's register database as published in Mesa's
//! src/amd/registers gfx9.json / gfx10-rsrc.json / gfx11-rsrc.json, the same on all three
//! generations for what is modelled): word0 CLAMP_X/Y/Z [2:0]/[5:3]/[8:6] (0 wrap, 1 mirror,
//! 2 clamp to last texel, 3 mirror once then clamp to last texel, 4/5 half border, 6 clamp
//! to border, 7 mirror once then border), MAX_ANISO_RATIO [11:9], DEPTH_COMPARE_FUNC
//! [14:12] (0 never, 1 less, 2 equal, 3 less-equal, 4 greater, 5 not-equal, 6
//! greater-equal, 7 always; the reference is the left operand), FORCE_UNNORMALIZED [15],
//! FILTER_MODE [30:29] (0 blend, 1 min, 2 max); word1 MIN_LOD [11:0], MAX_LOD [23:12]
//! (unsigned 4.8 fixed point); word2 LOD_BIAS [13:0], LOD_BIAS_SEC [19:14], XY_MAG_FILTER
//! [21:20], XY_MIN_FILTER [23:22] (0 point, 1 bilinear, 2/3 anisotropic), Z_FILTER [25:24]
//! (0 as XY, 1 point, 2 linear), MIP_FILTER [27:26] (0 none, 1 point, 2 linear); word3
//! BORDER_COLOR_TYPE [31:30] (0 transparent black, 1 opaque black, 2 opaque white, 3 the
//! border-colour table, not modelled).
//!
//! Strictness: anisotropy, LOD bias, min/max reduction, half-border modes and table border
//! colours are `Unsupported` errors, never approximations.

use crate::error::{Error, Result};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SamplerDesc {
    pub clamp: [u32; 3],
    pub compare: u32,
    pub unnorm: bool,
    pub min_lod: f32,
    pub max_lod: f32,
    /// Bilinear (true) or point magnification / minification filters.
    pub mag_linear: bool,
    pub min_linear: bool,
    /// Z filter: None = as XY, Some(linear).
    pub z_linear: Option<bool>,
    /// Mip filter: 0 none, 1 point, 2 linear.
    pub mip: u32,
    pub border: u32,
}

impl Default for SamplerDesc {
    /// Clamp to edge, point filters, no mips, LOD range [0, 15.996].
    fn default() -> SamplerDesc {
        SamplerDesc {
            clamp: [2; 3],
            compare: 0,
            unnorm: false,
            min_lod: 0.0,
            max_lod: 4095.0 / 256.0,
            mag_linear: false,
            min_linear: false,
            z_linear: None,
            mip: 0,
            border: 0,
        }
    }
}

impl SamplerDesc {
    pub fn decode(s: [u32; 4]) -> Result<SamplerDesc> {
        let clamp = [s[0] & 7, (s[0] >> 3) & 7, (s[0] >> 6) & 7];
        if clamp.iter().any(|&c| c == 4 || c == 5) {
            return Err(Error::unsupported("sampler half-border clamp modes"));
        }
        if (s[0] >> 9) & 7 != 0 {
            return Err(Error::unsupported(
                "anisotropic filtering (MAX_ANISO_RATIO)",
            ));
        }
        if (s[0] >> 29) & 3 != 0 {
            return Err(Error::unsupported(
                "min/max reduction samplers (FILTER_MODE)",
            ));
        }
        if s[2] & 0xf_ffff != 0 {
            return Err(Error::unsupported("sampler LOD bias"));
        }
        let xy = |v: u32| -> Result<bool> {
            match v {
                0 => Ok(false),
                1 => Ok(true),
                _ => Err(Error::unsupported("anisotropic XY filter")),
            }
        };
        let border = s[3] >> 30;
        if border == 3 {
            return Err(Error::unsupported(
                "border colour from the border-colour table",
            ));
        }
        let mip = (s[2] >> 26) & 3;
        if mip == 3 {
            return Err(Error::unsupported("MIP_FILTER 3 (point, aniso-adjusted)"));
        }
        Ok(SamplerDesc {
            clamp,
            compare: (s[0] >> 12) & 7,
            unnorm: (s[0] >> 15) & 1 == 1,
            min_lod: (s[1] & 0xfff) as f32 / 256.0,
            max_lod: ((s[1] >> 12) & 0xfff) as f32 / 256.0,
            mag_linear: xy((s[2] >> 20) & 3)?,
            min_linear: xy((s[2] >> 22) & 3)?,
            z_linear: match (s[2] >> 24) & 3 {
                0 => None,
                1 => Some(false),
                2 => Some(true),
                _ => return Err(Error::unsupported("Z_FILTER 3")),
            },
            mip,
            border,
        })
    }

    /// The four dwords (the layout is the same on GFX9, GFX10.3 and GFX11).
    pub fn encode(&self) -> [u32; 4] {
        let lod = |x: f32| ((x * 256.0) as u32).min(0xfff);
        [
            self.clamp[0]
                | self.clamp[1] << 3
                | self.clamp[2] << 6
                | self.compare << 12
                | (self.unnorm as u32) << 15,
            lod(self.min_lod) | lod(self.max_lod) << 12,
            (self.mag_linear as u32) << 20
                | (self.min_linear as u32) << 22
                | match self.z_linear {
                    None => 0,
                    Some(l) => 1 + l as u32,
                } << 24
                | self.mip << 26,
            self.border << 30,
        ]
    }

    /// Depth compare of reference `r` with texel value `t` (1.0 when it passes).
    pub fn compare(&self, r: f32, t: f32) -> f32 {
        let pass = match self.compare {
            0 => false,
            1 => r < t,
            2 => r == t,
            3 => r <= t,
            4 => r > t,
            5 => r != t,
            6 => r >= t,
            _ => true,
        };
        pass as u32 as f32
    }

    /// The border colour in a format's register values (float-like or integer).
    pub fn border_color(&self, int: bool) -> [u32; 4] {
        let one = if int { 1 } else { 1.0f32.to_bits() };
        match self.border {
            0 => [0; 4],
            1 => [0, 0, 0, one],
            _ => [one; 4],
        }
    }
}

/// Where texel index `i` of an axis of `n` texels lands under clamp mode `mode`; None:
/// the border colour.
pub fn address(i: i64, n: u32, mode: u32) -> Option<i64> {
    let n = n as i64;
    let mirror_once = |i: i64| if i < 0 { -i - 1 } else { i };
    match mode {
        0 => Some(i.rem_euclid(n)),
        1 => {
            let p = i.rem_euclid(2 * n);
            Some(if p < n { p } else { 2 * n - 1 - p })
        }
        2 => Some(i.clamp(0, n - 1)),
        3 => Some(mirror_once(i).clamp(0, n - 1)),
        6 => (0..n).contains(&i).then_some(i),
        _ => {
            let m = mirror_once(i);
            (0..n).contains(&m).then_some(m)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_modes() {
        assert_eq!(address(-1, 4, 0), Some(3));
        assert_eq!(address(5, 4, 1), Some(2));
        assert_eq!(address(-1, 4, 1), Some(0));
        assert_eq!(address(9, 4, 2), Some(3));
        assert_eq!(address(-2, 4, 3), Some(1));
        assert_eq!(address(-6, 4, 3), Some(3));
        assert_eq!(address(4, 4, 6), None);
        assert_eq!(address(-4, 4, 7), Some(3));
        assert_eq!(address(-5, 4, 7), None);
    }

    #[test]
    fn descriptor_round_trip() {
        let s = SamplerDesc {
            clamp: [0, 1, 6],
            compare: 3,
            unnorm: false,
            min_lod: 0.5,
            max_lod: 3.25,
            mag_linear: true,
            min_linear: false,
            z_linear: Some(true),
            mip: 2,
            border: 2,
        };
        assert_eq!(SamplerDesc::decode(s.encode()).unwrap(), s);
        let mut aniso = s.encode();
        aniso[0] |= 2 << 9;
        assert!(SamplerDesc::decode(aniso).is_err());
    }
}
