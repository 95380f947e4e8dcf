//! Generations and targets.
//!
//! A `Gen` selects the ISA tables and bit layouts; a `Target` adds the wave size, which
//! changes lane-mask operand sizes (`s0` vs `s[0:1]`) and how `vcc`/`exec` print. The
//! default wave size is LLVM's: 64 on GFX9 (the only one it has), 32 on GFX10+.

use std::fmt;
use std::str::FromStr;

/// An ISA generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Gen {
    /// GFX9, gfx900 (Vega).
    Gfx9,
    /// GFX10.3, gfx1030 (RDNA2).
    Gfx10,
    /// GFX11, gfx1100 (RDNA3).
    Gfx11,
}

impl Gen {
    pub const ALL: [Gen; 3] = [Gen::Gfx9, Gen::Gfx10, Gen::Gfx11];

    /// The LLVM processor name used by our oracle and by `--target`.
    pub fn mcpu(self) -> &'static str {
        match self {
            Gen::Gfx9 => "gfx900",
            Gen::Gfx10 => "gfx1030",
            Gen::Gfx11 => "gfx1100",
        }
    }
}

impl fmt::Display for Gen {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.mcpu())
    }
}

/// Wave size in lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wave {
    W32,
    W64,
}

impl Wave {
    /// Dwords in a lane mask.
    pub fn mask_dwords(self) -> u8 {
        match self {
            Wave::W32 => 1,
            Wave::W64 => 2,
        }
    }
    pub fn lanes(self) -> u32 {
        match self {
            Wave::W32 => 32,
            Wave::W64 => 64,
        }
    }
}

/// A generation plus a wave size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    pub gen: Gen,
    pub wave: Wave,
}

impl Target {
    /// LLVM's default wave size for the generation.
    pub fn new(gen: Gen) -> Target {
        let wave = if gen == Gen::Gfx9 {
            Wave::W64
        } else {
            Wave::W32
        };
        Target { gen, wave }
    }

    /// Explicit wave size; GFX9 only has wave64.
    pub fn with_wave(gen: Gen, wave: Wave) -> Result<Target, String> {
        if gen == Gen::Gfx9 && wave == Wave::W32 {
            return Err("gfx900 has no wave32".into());
        }
        Ok(Target { gen, wave })
    }
}

impl FromStr for Gen {
    type Err = String;
    fn from_str(s: &str) -> Result<Gen, String> {
        match s {
            "gfx900" | "gfx9" => Ok(Gen::Gfx9),
            "gfx1030" | "gfx10" => Ok(Gen::Gfx10),
            "gfx1100" | "gfx11" => Ok(Gen::Gfx11),
            _ => Err(format!(
                "unknown target `{s}` (expected gfx900, gfx1030 or gfx1100)"
            )),
        }
    }
}
