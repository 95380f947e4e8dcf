//! The PS prolog (seed 002's pixel-shader prolog, docs/link.md "The PS prolog"): the
//! fragment-stage state that changes which values the hardware's input VGPRs hold, handled
//! before the main part so that the main part is compiled without it.
//!
//! What it does — forced per-sample interpolation (GL-style state: radeonsi's
//! `force_persample_interp`, ARB_sample_shading's and Vulkan 1.0's rule that inputs are
//! evaluated at the sample when every sample is shaded): the hardware is asked for the
//! sample barycentrics (PERSP_SAMPLE / LINEAR_SAMPLE) besides the inputs the main part
//! enabled, and the prolog hands the main part the sample's I/J where it expects the
//! centre's and the centroid's. Nothing else of the main part changes.
//!
//! Registers: the hardware packs the enabled inputs from v0 in SPI_PS_INPUT bit order
//! (pal-abi.md §3.6; `ps_input::vgprs` per input). The main part expects the packing of
//! its own enable mask (`main_ena`); the prolog's hardware mask ([`PsPrologKey::hw_ena`])
//! adds the sample inputs, which come first in bit order, so every input the main part
//! expects sits at or above its expected VGPR in the hardware packing. The prolog moves
//! them down in ascending destination order — each move reads a VGPR at or above the
//! ones already written, so no source is overwritten before it is read — with one
//! `v_mov_b32` per VGPR whose place or value changes. SGPRs (user data, PRIM_MASK) are
//! untouched.
//!
//! End (the boundary contract): GFX11 `s_waitcnt_depctr va_vdst(0)` so the main part's
//! first instructions see the moved VGPRs with no VALU result outstanding; GFX9/GFX10.3
//! have no wait-state rule between a VALU write and a later VALU or VINTERP read of the
//! same VGPR. Then `s_branch` to the main part (removed by fall-through). It clobbers only
//! VGPRs at or above the main part's inputs that the main part does not expect (the
//! sample inputs' hardware VGPRs), never SGPRs, EXEC or SCC.

use super::code::v;
use super::{Part, PartError};
use crate::amdgpu::isel::graphics::ps_input::{
    self, LINEAR_CENTER, LINEAR_CENTROID, LINEAR_SAMPLE, PERSP_CENTER, PERSP_CENTROID, PERSP_SAMPLE,
};
use crate::isa::{simm16, CodeBuffer, Format, Gen, Opcode, Operand, Target};

/// What a PS prolog depends on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PsPrologKey {
    pub target: Target,
    /// SPI_PS_INPUT_ENA of the main part: the VGPR packing it expects.
    pub main_ena: u32,
    /// Centre and centroid inputs take the sample's barycentrics.
    pub force_sample: bool,
    /// Symbol of the main part.
    pub next: String,
}

/// The (sample, centre, centroid) inputs of perspective and linear interpolation.
const MODES: [(u32, u32, u32); 2] = [
    (PERSP_SAMPLE, PERSP_CENTER, PERSP_CENTROID),
    (LINEAR_SAMPLE, LINEAR_CENTER, LINEAR_CENTROID),
];

/// The first VGPR of each enabled input of `ena`, by bit.
fn packing(ena: u32) -> [Option<u16>; 16] {
    let mut at = [None; 16];
    let mut v = 0u16;
    for (bit, slot) in at.iter_mut().enumerate() {
        if ena >> bit & 1 == 1 {
            *slot = Some(v);
            v += ps_input::vgprs(bit as u32);
        }
    }
    at
}

/// SPI_PS_INPUT_ENA (= ADDR) of a pipeline whose fragment main part enables `main_ena`:
/// with forced per-sample interpolation also the sample barycentrics its centre or
/// centroid inputs are taken from (the prolog may then have nothing to move, when they
/// already land where the main part expects them).
pub fn pipeline_ena(main_ena: u32, force_sample: bool) -> u32 {
    let mut ena = main_ena;
    if force_sample {
        for (sample, center, centroid) in MODES {
            if main_ena & (1 << center | 1 << centroid) != 0 {
                ena |= 1 << sample;
            }
        }
    }
    ena
}

/// VGPRs of the packing of `ena`.
fn packed_vgprs(ena: u32) -> u32 {
    (0..16)
        .filter(|b| ena >> b & 1 == 1)
        .map(|b| ps_input::vgprs(b) as u32)
        .sum()
}

impl PsPrologKey {
    /// The key for a main part with inputs `main_ena` under the state, or `None` when
    /// the state changes nothing the main part receives (no prolog: the main part is the
    /// chain's start).
    pub fn for_state(
        target: Target,
        main_ena: u32,
        force_sample: bool,
        next: &str,
    ) -> Option<PsPrologKey> {
        let k = PsPrologKey {
            target,
            main_ena,
            force_sample,
            next: next.to_string(),
        };
        (!k.moves().is_empty()).then_some(k)
    }

    /// SPI_PS_INPUT_ENA (= ADDR) of the pipeline ([`pipeline_ena`]).
    pub fn hw_ena(&self) -> u32 {
        pipeline_ena(self.main_ena, self.force_sample)
    }

    /// The moves (destination VGPR, source VGPR), in ascending destination order.
    fn moves(&self) -> Vec<(u16, u16)> {
        let hw = packing(self.hw_ena());
        let main = packing(self.main_ena);
        let mut out = Vec::new();
        for bit in 0..16u32 {
            let Some(dst) = main[bit as usize] else {
                continue;
            };
            let from = MODES
                .iter()
                .find(|m| self.force_sample && (bit == m.1 || bit == m.2))
                .map_or(bit, |m| m.0);
            let src = hw[from as usize].expect("the hardware mask covers the main part's");
            for k in 0..ps_input::vgprs(bit) {
                if dst + k != src + k {
                    out.push((dst + k, src + k));
                }
            }
        }
        out
    }

    /// Stable text of the key.
    pub fn canonical(&self) -> String {
        format!(
            "ps_prolog;target={};wave={};ena={:#x};force_sample={};next={}",
            self.target.mcpu(),
            self.target.wave.lanes(),
            self.main_ena,
            self.force_sample as u8,
            self.next
        )
    }

    /// Emits the prolog.
    pub fn build(&self, symbol: &str) -> Result<Part, PartError> {
        let enc = |e: crate::isa::BufferError| PartError::Encode(e.to_string());
        let t = self.target;
        let mut buf = CodeBuffer::new(t);
        let moves = self.moves();
        // the module doc's ordering argument, checked: no move reads a VGPR an earlier
        // move wrote
        if let Some(&(d, s)) = moves
            .iter()
            .enumerate()
            .find(|(i, m)| moves[..*i].iter().any(|e| e.0 == m.1))
            .map(|(_, m)| m)
        {
            return Err(PartError::Encode(format!(
                "ps_prolog: v{d} <- v{s} reads a VGPR already overwritten"
            )));
        }
        for &(d, s) in &moves {
            buf.op(Opcode::VMovB32, Format::Vop1, &[v(d), v(s)])
                .map_err(enc)?;
        }
        if t.gen == Gen::Gfx11 && !moves.is_empty() {
            let va_vdst0 =
                simm16::parse_depctr("depctr_va_vdst(0)").expect("the depctr table names va_vdst");
            buf.op(
                Opcode::SWaitcntDepctr,
                Format::Sopp,
                &[Operand::Imm(va_vdst0)],
            )
            .map_err(enc)?;
        }
        buf.branch_to_symbol(&self.next).map_err(enc)?;
        let code = buf.finish().map_err(enc)?;
        let hw = self.hw_ena();
        let main_v = packed_vgprs(self.main_ena);
        let vgprs = packed_vgprs(hw).max(1);
        Ok(Part {
            kind: "ps_prolog",
            symbol: symbol.to_string(),
            next: Some(self.next.clone()),
            code: code.bytes,
            relocations: code.relocations,
            sgprs: 0,
            vgprs,
            interface: vec![
                ("inputs", vec![format!("spi_ps_input_ena {hw:#x}")]),
                (
                    "outputs",
                    vec![format!(
                        "spi_ps_input_ena {:#x} packing in v0..v{}",
                        self.main_ena,
                        main_v.max(1) - 1
                    )],
                ),
                (
                    "clobbers",
                    (main_v < vgprs)
                        .then(|| format!("v{main_v}..v{}", vgprs - 1))
                        .into_iter()
                        .collect(),
                ),
                ("exit", vec!["exec = launch exec".into()]),
            ],
            target: t,
            loads: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::Wave;

    fn key(main_ena: u32, force_sample: bool) -> Option<PsPrologKey> {
        PsPrologKey::for_state(Target::new(Gen::Gfx10), main_ena, force_sample, "main")
    }

    #[test]
    fn forced_sample_interpolation_moves_every_input_down_over_the_added_sample_ijs() {
        // PERSP_CENTER (v0-1), PERSP_CENTROID (v2-3), LINEAR_CENTER (v4-5), FRONT_FACE (v6)
        let ena = 1 << PERSP_CENTER | 1 << PERSP_CENTROID | 1 << LINEAR_CENTER | 1 << 12;
        let k = key(ena, true).expect("a prolog");
        assert_eq!(k.hw_ena(), ena | 1 << PERSP_SAMPLE | 1 << LINEAR_SAMPLE);
        // hardware: PERSP_SAMPLE v0-1, CENTER v2-3, CENTROID v4-5, LINEAR_SAMPLE v6-7,
        // LINEAR_CENTER v8-9, FRONT_FACE v10
        assert_eq!(
            k.moves(),
            vec![(2, 0), (3, 1), (4, 6), (5, 7), (6, 10)],
            "centre and centroid from the sample's, the rest moved down"
        );
        // v0-1 already hold the sample I/J where the main part expects the centre's
        let part = k.build("p").unwrap();
        assert_eq!(part.vgprs, 11);
    }

    #[test]
    fn without_the_state_or_without_centre_inputs_there_is_no_prolog() {
        let ena = 1 << PERSP_CENTER | 1 << 8;
        assert_eq!(key(ena, false), None);
        // a shader reading only sample inputs and the position needs nothing
        assert_eq!(key(1 << PERSP_SAMPLE | 1 << 8, true), None);
        // the sample I/J land where the centre's were expected: nothing to move, but the
        // hardware must still be asked for them
        assert_eq!(key(1 << PERSP_CENTER, true), None);
        assert_eq!(pipeline_ena(1 << PERSP_CENTER, true), 3);
        let t = Target {
            gen: Gen::Gfx11,
            wave: Wave::W64,
        };
        let w64 = PsPrologKey::for_state(t, ena, true, "m");
        assert!(w64.is_some());
    }
}
