//! The graphics stages' user-data prolog (docs/link.md "Graphics user data"): puts each
//! user SGPR where the unlinked vertex or fragment main part assumed it, from the final
//! user-data layout of the pipeline state (`stage_user_data`).
//!
//! It is the CS prolog's plan and code (`parts::cs_prolog`: register moves as a parallel
//! copy, descriptor-table loads after them, `s_waitcnt lgkmcnt(0)`, `s_branch`), with every
//! SGPR counted from the stage's first user SGPR, `base`: s0 for a GFX9 hardware VS and a
//! PS, s8 for an NGG primitive shader, whose eight system SGPRs come first (docs/abi.md
//! "Vertex shader registers at wave start"; the prolog never touches them).
//!
//! System SGPRs after the user SGPRs move with them when the counts differ, as in compute:
//! the PS's PRIM_MASK and, on GFX9/GFX10.3, the scratch wave offset of a PS or a hardware
//! VS that uses scratch (`system_sgprs`). An NGG stage has none after its user SGPRs.
//!
//! Invariants (the boundary contract): SGPRs only, scratch SGPRs above both layouts and the
//! system SGPRs, no VGPR, EXEC, VCC, M0 or SCC written, no memory counter outstanding at
//! its end. In the vertex chain it runs before the fetch prolog, which then finds the
//! vertex-buffer table, BaseVertex and BaseInstance where the main part's map put them.

use super::cs_prolog::CsPrologKey;
use super::{Part, PartError};
use crate::binary::HwStage;

/// What a graphics stage's user-data prolog depends on.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UserDataPrologKey {
    /// The hardware stage (VS, GS for NGG, PS).
    pub stage: HwStage,
    /// The stage's first user SGPR.
    pub base: u16,
    /// The moves and loads, counted from `base` (`inputs`: the final layout, `outputs`:
    /// the main part's assumed placement, `next`: the part that follows).
    pub sgprs: CsPrologKey,
}

impl UserDataPrologKey {
    /// Whether the layouts differ (otherwise no prolog is needed).
    pub fn needed(&self) -> Result<bool, PartError> {
        Ok(!self.sgprs.plan()?.is_empty())
    }

    /// Stable text of the key.
    pub fn canonical(&self) -> String {
        format!(
            "user_data_prolog;stage={};base={};{}",
            self.stage.short(),
            self.base,
            self.sgprs.canonical()
        )
    }

    /// Emits the prolog.
    pub fn build(&self, symbol: &str) -> Result<Part, PartError> {
        self.sgprs.build_at(symbol, "user_data_prolog", self.base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::prelink::Item::*;
    use crate::isa::{Gen, Target};

    #[test]
    fn an_ngg_prolog_counts_every_sgpr_from_s8() {
        let k = UserDataPrologKey {
            stage: HwStage::Gs,
            base: 8,
            sgprs: CsPrologKey {
                target: Target::new(Gen::Gfx10),
                inputs: vec![DescriptorTable, BaseVertex],
                table: vec![PushConstantPointer, PushConstantPointerHi],
                outputs: vec![PushConstantPointer, PushConstantPointerHi, BaseVertex],
                system_sgprs: 0,
                next: "main".into(),
            },
        };
        assert!(k.needed().unwrap());
        let p = k.build("p").unwrap();
        // s[12:13] scratch (above s8 + 3), the loads into s8/s9, base vertex s9 -> s10
        let text = p.interface_value();
        let clobbers = text.get(".clobbers").unwrap();
        assert_eq!(
            clobbers.as_array().unwrap(),
            &[
                crate::binary::Value::str("s12"),
                crate::binary::Value::str("s13")
            ]
        );
        assert_eq!(p.sgprs, 14);
        assert_eq!(p.kind, "user_data_prolog");
    }
}
