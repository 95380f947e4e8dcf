//! The layout mechanism on synthetic chains, the shape graphics parts will use
//! (`[prolog] main [epilog]`): every final `s_branch` to the adjacent part becomes a
//! fall-through, a branch to a part further away stays and is resolved with PAL's REL16
//! formula, PC-relative literals resolve against laid-out symbols, the main part lands on a
//! 256-byte boundary behind the padding, and `.text` ends with LLVM's s_code_end padding.

use gcnc::binary::{HwStage, RelocKind, Relocation};
use gcnc::isa::buffer::{branch_word, code_end_word, nop_word};
use gcnc::isa::Gen;
use gcnc::link::layout::{lay_out, Chain, ChainPart};
use gcnc::link::PipelineState;

fn words(ws: &[u32]) -> Vec<u8> {
    ws.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn part(
    symbol: &str,
    body: usize,
    branch_to: Option<&str>,
    gen: Gen,
    main: bool,
) -> ChainPart<'static> {
    let mut ws = vec![nop_word(gen); body];
    let mut relocations = Vec::new();
    if let Some(t) = branch_to {
        relocations.push(Relocation {
            offset: body as u64 * 4,
            kind: RelocKind::Rel16,
            symbol: t.into(),
            addend: 0,
        });
        ws.push(branch_word(gen, 0));
    }
    ChainPart {
        symbol: symbol.to_string().into(),
        code: words(&ws).into(),
        relocations: relocations.into(),
        input: 0,
        is_main: main,
        generated: None,
        data_at: None,
    }
}

#[test]
fn prolog_main_epilog_fall_through() {
    for gen in Gen::ALL {
        let chain = Chain {
            input: 0,
            stage: HwStage::Ps,
            parts: vec![
                part("prolog", 3, Some("main"), gen, false),
                part("main", 5, Some("epilog"), gen, true),
                part("epilog", 2, None, gen, false),
            ],
        };
        let laid = lay_out(gen, &[chain], &PipelineState::default()).unwrap();
        let p: Vec<_> = laid
            .placed
            .iter()
            .map(|p| (p.symbol.as_str(), p.offset, p.size, p.fell_through))
            .collect();
        assert_eq!(
            p,
            [
                ("prolog", 256 - 12, 12, true),
                ("main", 256, 20, true),
                ("epilog", 276, 8, false)
            ],
            "{gen}"
        );
        // 244 bytes of padding = 61 dwords: a branch over 60, then s_nop 0.
        assert_eq!(
            &laid.text[..4],
            &branch_word(gen, 60).to_le_bytes(),
            "{gen}"
        );
        assert_eq!(&laid.text[4..8], &nop_word(gen).to_le_bytes(), "{gen}");
        let entry = laid
            .functions
            .iter()
            .find(|f| f.name == "_amdgpu_ps_main")
            .unwrap();
        assert_eq!((entry.offset, entry.size), (0, 284), "{gen}");
        // s_code_end padding after the chain (none on GFX9).
        match code_end_word(gen) {
            None => assert_eq!(laid.text.len(), 284),
            Some(w) => {
                let line = if gen == Gen::Gfx11 { 128 } else { 64 };
                let want = 284usize.next_multiple_of(line) + 3 * line;
                assert_eq!(laid.text.len(), want, "{gen}");
                assert_eq!(&laid.text[284..288], &w.to_le_bytes());
            }
        }
    }
}

#[test]
fn non_adjacent_branch_is_kept_and_resolved() {
    let gen = Gen::Gfx10;
    // The prolog skips straight to the epilog (as a part may for an early exit).
    let chain = Chain {
        input: 0,
        stage: HwStage::Cs,
        parts: vec![
            part("prolog", 1, Some("epilog"), gen, false),
            part("main", 2, None, gen, true),
            part("epilog", 1, None, gen, false),
        ],
    };
    let laid = lay_out(Gen::Gfx10, &[chain], &PipelineState::default()).unwrap();
    assert!(!laid.placed[0].fell_through);
    let br = (laid.placed[0].offset + 4) as usize;
    let simm = i16::from_le_bytes([laid.text[br], laid.text[br + 1]]);
    // Target = epilog at 256 + 8; the branch is the prolog's second dword, at 256 - 4:
    // (264 - 252 - 4) / 4 = 2.
    assert_eq!(laid.placed[0].offset, 248);
    assert_eq!(laid.placed[2].offset, 264);
    assert_eq!(simm, 2);
}

#[test]
fn pc_relative_literals_resolve_against_parts() {
    let gen = Gen::Gfx11;
    let mut main = part("main", 4, None, gen, true);
    // s_getpc_b64 at 0 returns 4; a literal at 8 wants epilog - (getpc + 4) = S + A - P with
    // A = 4 (as llvm-mc writes sym@rel32@lo+4 for this pattern).
    main.relocations.to_mut().push(Relocation {
        offset: 8,
        kind: RelocKind::Rel32Lo,
        symbol: "epilog".into(),
        addend: 4,
    });
    let chain = Chain {
        input: 0,
        stage: HwStage::Cs,
        parts: vec![main, part("epilog", 1, None, gen, false)],
    };
    let laid = lay_out(Gen::Gfx11, &[chain], &PipelineState::default()).unwrap();
    let v = u32::from_le_bytes(laid.text[8..12].try_into().unwrap());
    assert_eq!(v, 16 + 4 - 8);
}
