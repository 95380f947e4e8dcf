//! Malformed and unsupported SPIR-V: each gets its specific typed error, at the right word,
//! and nothing panics. Inputs are the corpus module `frag/solid.spv` (a constant-colour
//! fragment shader) with single, targeted edits.

mod front_support;

use front_support::*;
use gcnc::front::spirv::{translate, Options};
use gcnc::front::{Error, ErrorKind};
use rspirv::spirv::Op;

fn base() -> Vec<u32> {
    shader("frag/solid.spv")
}

fn err(words: &[u32]) -> Error {
    translate(words, &Options::default()).expect_err("translation should fail")
}

/// Offset of the first instruction with opcode `op`.
fn find(words: &[u32], op: Op) -> usize {
    insts(words)
        .into_iter()
        .find(|i| i.1 == op as u16)
        .unwrap_or_else(|| panic!("no {op:?}"))
        .0
}

#[test]
fn base_module_translates() {
    translate(&base(), &Options::default()).unwrap();
}

#[test]
fn empty_binary() {
    let e = err(&[]);
    assert_eq!((e.kind, e.word), (ErrorKind::Malformed, 0));
}

#[test]
fn bad_magic() {
    let mut w = base();
    w[0] = 0xdead_beef;
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::Malformed, 0));
    assert!(e.reason.contains("magic"), "{e}");
}

#[test]
fn byte_swapped_magic_is_named() {
    let mut w = base();
    w[0] = w[0].swap_bytes();
    let e = err(&w);
    assert!(e.reason.contains("byte-swapped"), "{e}");
}

#[test]
fn truncated_header() {
    let e = err(&base()[..3]);
    assert_eq!(e.kind, ErrorKind::Malformed);
    assert!(e.reason.contains("header"), "{e}");
}

#[test]
fn module_ends_inside_a_function() {
    // Dropping the final OpFunctionEnd.
    let w = base();
    let e = err(&w[..w.len() - 1]);
    assert_eq!(e.kind, ErrorKind::Malformed, "{e}");
    assert!(e.reason.contains("ends inside a function"), "{e}");
}

#[test]
fn truncated_in_the_middle() {
    let w = base();
    let store = find(&w, Op::Store);
    let e = err(&w[..store + 2]);
    assert_eq!((e.kind, e.word), (ErrorKind::Malformed, store), "{e}");
}

#[test]
fn zero_word_count() {
    let mut w = base();
    let at = find(&w, Op::Store);
    w[at] &= 0xffff;
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::Malformed, at), "{e}");
}

#[test]
fn unknown_opcode() {
    let mut w = base();
    let at = find(&w, Op::Store);
    w[at] = (w[at] & 0xffff_0000) | 0x7ff0;
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::Unsupported, at), "{e}");
}

#[test]
fn id_beyond_the_bound() {
    let mut w = base();
    let at = find(&w, Op::Store);
    w[at + 2] = w[3] + 5; // the stored object
    let e = err(&w);
    assert_eq!(
        (e.kind, e.word, e.opcode.as_deref()),
        (ErrorKind::BadId, at, Some("Store")),
        "{e}"
    );
}

#[test]
fn undefined_id_below_the_bound() {
    let mut w = base();
    w[3] += 10; // raise the bound, then use an id nobody defines
    let at = find(&w, Op::Store);
    w[at + 1] = w[3] - 1;
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::BadId, at), "{e}");
}

#[test]
fn result_id_defined_twice() {
    let mut w = base();
    let ti = insts(&w)
        .into_iter()
        .filter(|i| i.1 == Op::TypeFloat as u16 || i.1 == Op::TypeVoid as u16)
        .collect::<Vec<_>>();
    let (void_at, float_at) = (
        ti.iter().find(|i| i.1 == Op::TypeVoid as u16).unwrap().0,
        ti.iter().find(|i| i.1 == Op::TypeFloat as u16).unwrap().0,
    );
    w[float_at + 1] = w[void_at + 1];
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::BadId, float_at), "{e}");
    assert!(e.reason.contains("twice"), "{e}");
}

#[test]
fn missing_operand() {
    // OpStore with one operand (word count 2): rspirv reports the missing pointer/object.
    let mut w = base();
    let at = find(&w, Op::Store);
    w[at] = (2 << 16) | Op::Store as u32;
    w.remove(at + 2);
    let e = err(&w);
    assert_eq!(
        (e.kind, e.word, e.opcode.as_deref()),
        (ErrorKind::BadOperands, at, Some("Store")),
        "{e}"
    );
}

#[test]
fn extra_operand() {
    // OpTypeVector with a third operand.
    let mut w = base();
    let at = find(&w, Op::TypeVector);
    let wc = (w[at] >> 16) as usize;
    w[at] = (((wc + 1) as u32) << 16) | Op::TypeVector as u32;
    w.insert(at + wc, 7);
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::BadOperands, at), "{e}");
}

#[test]
fn unsupported_capability() {
    let mut w = base();
    let at = find(&w, Op::Capability);
    w[at + 1] = rspirv::spirv::Capability::Tessellation as u32;
    let e = err(&w);
    assert_eq!(
        (e.kind, e.word, e.opcode.as_deref()),
        (ErrorKind::Unsupported, at, Some("Capability")),
        "{e}"
    );
    assert!(e.reason.contains("Tessellation"), "{e}");
}

#[test]
fn unsupported_execution_model() {
    let mut w = base();
    let at = find(&w, Op::EntryPoint);
    w[at + 1] = rspirv::spirv::ExecutionModel::TessellationControl as u32;
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::Unsupported, at), "{e}");
}

#[test]
fn ill_typed_store() {
    // Store the vec4 colour constant's *type* id: not a value.
    let mut w = base();
    let at = find(&w, Op::Store);
    let vec4 = find(&w, Op::TypeVector);
    w[at + 2] = w[vec4 + 1];
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::BadId, at), "{e}");
}

#[test]
fn wrong_type_for_vector_component() {
    // OpTypeVector of a vector type.
    let mut w = base();
    let at = find(&w, Op::TypeVector);
    w[at + 2] = w[at + 1];
    let e = err(&w);
    assert!(
        matches!(e.kind, ErrorKind::BadId | ErrorKind::BadType),
        "{e}"
    );
    assert_eq!(e.word, at, "{e}");
}

#[test]
fn unstructured_branch() {
    // In the compute module do_while, make the loop's conditional branch target two
    // ordinary blocks: its merge edge goes to the loop body instead.
    let w0 = shader("front/control_flow.spv");
    let list = insts(&w0);
    let mut hit = None;
    for (k, i) in list.iter().enumerate() {
        if i.1 == Op::BranchConditional as u16
            && list[k - 1].1 != Op::SelectionMerge as u16
            && list[k - 1].1 != Op::LoopMerge as u16
        {
            hit = Some(i.0);
            break;
        }
    }
    let at = hit.expect("a conditional branch without a merge");
    let mut w = w0.clone();
    // Point both targets at the same non-exit block: legal (an unconditional branch).
    w[at + 3] = w[at + 2];
    translate(&w, &Options::default()).expect("both targets equal is a plain branch");
    let e = err(&{
        let mut w = w0.clone();
        // First label of the function: an ordinary block, not an exit.
        let label = list.iter().find(|i| i.1 == Op::Label as u16).unwrap().0;
        let (t, f) = (w[at + 2], w[at + 3]);
        let _ = f;
        w[at + 3] = w[label + 1];
        if w[at + 3] == t {
            w[at + 3] = w[at + 2];
        }
        w
    });
    assert!(matches!(e.kind, ErrorKind::BadControlFlow), "{e}");
}

#[test]
fn unknown_entry_point_name() {
    let e = translate(
        &base(),
        &Options {
            entry: Some("other".into()),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::NoEntryPoint);
}

#[test]
fn error_display_names_word_and_opcode() {
    let mut w = base();
    let at = find(&w, Op::Capability);
    w[at + 1] = rspirv::spirv::Capability::Kernel as u32;
    let text = err(&w).to_string();
    assert!(
        text.contains(&format!("word {at}")) && text.contains("OpCapability"),
        "{text}"
    );
}

#[test]
fn store_to_an_input_variable() {
    // passthrough.vert: `color = in_color` → store into the vec4 input `in_pos` instead.
    let mut w = shader("vert/passthrough.spv");
    let list = insts(&w);
    let input_vec4 = list
        .iter()
        .filter(|i| {
            i.1 == Op::Variable as u16 && w[i.0 + 3] == rspirv::spirv::StorageClass::Input as u32
        })
        .map(|i| w[i.0 + 2])
        .next()
        .unwrap();
    let stores: Vec<usize> = list
        .iter()
        .filter(|i| i.1 == Op::Store as u16)
        .map(|i| i.0)
        .collect();
    let at = *stores.last().unwrap();
    w[at + 1] = input_vec4;
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::BadOperands, at), "{e}");
    assert!(e.reason.contains("read-only input"), "{e}");
}

#[test]
fn constant_index_past_a_vector() {
    // frag/discard_alpha.frag reads `col.a` through an access chain with constant 3: make it 7.
    let mut w = shader("frag/discard_alpha.spv");
    let list = insts(&w);
    let chain = list
        .iter()
        .find(|i| i.1 == Op::AccessChain as u16 && i.2 == 5)
        .unwrap()
        .0;
    // Point the index at a fresh constant 7 by reusing an existing OpConstant's slot value.
    let k = list
        .iter()
        .find(|i| i.1 == Op::Constant as u16 && w[i.0 + 2] == w[chain + 4])
        .expect("the index is an OpConstant")
        .0;
    w[k + 3] = 7;
    let e = err(&w);
    assert_eq!(e.kind, ErrorKind::BadOperands, "{e}");
    assert!(e.reason.contains("out of range"), "{e}");
}

/// `front/dominance.spv` with one operand of the instruction at word `at` replaced:
/// operand `k` (0 = the first word after the opcode word) becomes `id`.
fn with_operand(at: usize, k: usize, id: u32) -> Vec<u32> {
    let mut w = shader("front/dominance.spv");
    w[at + 1 + k] = id;
    w
}

/// The instructions of `front/dominance.spv` with opcode `op`, by word offset.
fn dominance_insts(op: Op) -> Vec<usize> {
    insts(&shader("front/dominance.spv"))
        .into_iter()
        .filter(|i| i.1 == op as u16)
        .map(|i| i.0)
        .collect()
}

#[test]
fn the_dominance_module_translates() {
    translate(&shader("front/dominance.spv"), &Options::default()).unwrap();
}

/// An operand whose definition does not dominate its use (`%z = %x + 2` in the merge block
/// rewritten to `%y + 2`, %y being defined in the `then` block) is invalid SPIR-V: an
/// error at the using instruction's word, not an internal verifier failure.
#[test]
fn an_operand_that_does_not_dominate_its_use() {
    let w = shader("front/dominance.spv");
    let adds = dominance_insts(Op::IAdd);
    let (y_at, z_at) = (adds[0], adds[1]);
    let y = w[y_at + 2];
    // OpIAdd: result type, result id, operand 1, operand 2
    let e = err(&with_operand(z_at, 2, y));
    assert_eq!((e.kind, e.word), (ErrorKind::BadId, z_at), "{e}");
    assert!(e.reason.contains("does not dominate"), "{e}");
}

/// A phi's value must dominate the predecessor it comes from: %y (defined in `then`)
/// along the edge from the entry block is an error at the OpPhi.
#[test]
fn a_phi_value_that_does_not_dominate_its_predecessor() {
    let w = shader("front/dominance.spv");
    let y = w[dominance_insts(Op::IAdd)[0] + 2];
    let phi = dominance_insts(Op::Phi)[0];
    // OpPhi: result type, result id, (value, parent) pairs: the entry pair's value is word 4
    let e = err(&with_operand(phi, 4, y));
    assert_eq!((e.kind, e.word), (ErrorKind::BadId, phi), "{e}");
    assert!(e.reason.contains("does not dominate"), "{e}");
}

/// An operand defined in another function: `front/dominance_call.spv`'s callee `%f`
/// made to add 1 to `%x`, an id of its caller `%main` (in scope while the translator
/// inlines the call, but no id of `%f`), instead of its parameter: an error at the
/// callee's instruction word, as SPIR-V's rule that a definition dominates its uses
/// (no block of `%main` dominates one of `%f`) says.
#[test]
fn an_operand_defined_in_another_function() {
    let mut w = shader("front/dominance_call.spv");
    translate(&w, &Options::default()).unwrap();
    let at = |op: Op| {
        insts(&w)
            .into_iter()
            .find(|i| i.1 == op as u16)
            .expect("the instruction")
            .0
    };
    let (load, add) = (at(Op::Load), at(Op::IAdd));
    // OpLoad: result type, result id, ...; OpIAdd: result type, result id, operand 1, 2
    let x = w[load + 2];
    w[add + 3] = x;
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::BadId, add), "{e}");
    assert!(e.reason.contains("defined in another function"), "{e}");
}

/// `gl_CullDistance` declared with more than eight elements (vert/gfx_vs_clip.spv with
/// the length constant of its one-element array raised): a type error at the variable,
/// not an array copied element by element through the middle end (a fuzzed length of
/// 2^21 + 1 once took minutes there).
#[test]
fn clip_and_cull_distance_arrays_longer_than_eight() {
    let mut w = shader("vert/gfx_vs_clip.spv");
    // the `OpConstant %uint 1` that sizes `float[1]` (the only array of length 1)
    let arrays: Vec<usize> = insts(&w)
        .into_iter()
        .filter(|i| i.1 == Op::TypeArray as u16)
        .map(|i| i.0)
        .collect();
    let len_id = arrays
        .iter()
        .map(|&a| w[a + 3])
        .find(|&id| {
            insts(&w)
                .into_iter()
                .any(|i| i.1 == Op::Constant as u16 && w[i.0 + 2] == id && w[i.0 + 3] == 1)
        })
        .expect("a float[1]");
    let c = insts(&w)
        .into_iter()
        .find(|i| i.1 == Op::Constant as u16 && w[i.0 + 2] == len_id)
        .unwrap()
        .0;
    translate(&w, &Options::default()).unwrap();
    for n in [9, 2_097_153] {
        w[c + 3] = n;
        let e = err(&w);
        assert_eq!(e.kind, ErrorKind::BadType, "{e}");
        assert!(e.to_string().contains("at most 8"), "{e}");
    }
}

#[test]
fn per_vertex_decoration_on_an_output_is_refused() {
    // solid.spv plus `OpCapability FragmentBarycentricKHR` and a `PerVertexKHR` decoration
    // on a new interface variable `out vec4 c[3]`: PerVertexKHR names the vertices of a
    // fragment input array (GLSL `pervertexEXT in vec4 c[]`, which compiles: see
    // tools/cli/tests/draw_per_vertex.rs); on anything else it is invalid.
    const CAP_FRAGMENT_BARYCENTRIC: u32 = 5284;
    const DECO_PER_VERTEX: u32 = 5285;
    const OUTPUT: u32 = 3;
    let mut w = base();
    let bound = w[3];
    let (float, v4, three, arr, ptr, var) =
        (bound, bound + 1, bound + 2, bound + 3, bound + 4, bound + 5);
    let uint = bound + 6;
    w[3] = bound + 7;
    let op = |o: Op, n: u32| (n << 16) | o as u32;
    let ep = find(&w, Op::EntryPoint);
    let n = (w[ep] >> 16) as usize;
    w.insert(ep + n, var);
    w[ep] += 1 << 16;
    let cap = find(&w, Op::Capability);
    w.splice(cap..cap, [op(Op::Capability, 2), CAP_FRAGMENT_BARYCENTRIC]);
    let deco = find(&w, Op::Decorate);
    w.splice(deco..deco, [op(Op::Decorate, 3), var, DECO_PER_VERTEX]);
    let fun = find(&w, Op::Function);
    let types = [
        op(Op::TypeFloat, 3),
        float,
        32,
        op(Op::TypeVector, 4),
        v4,
        float,
        4,
        op(Op::TypeInt, 4),
        uint,
        32,
        0,
        op(Op::Constant, 4),
        uint,
        three,
        3,
        op(Op::TypeArray, 4),
        arr,
        v4,
        three,
        op(Op::TypePointer, 4),
        ptr,
        OUTPUT,
        arr,
        op(Op::Variable, 4),
        ptr,
        var,
        OUTPUT,
    ];
    w.splice(fun..fun, types);
    let at = fun + types.len() - 4;
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::BadOperands, at), "{e}");
    assert!(e.reason.contains("PerVertexKHR"), "{e}");
}

/// A sparse read (here `OpImageSparseFetch`) must return the struct `{32-bit residency
/// code, texel}`: given the texel type alone, it is a typed error at that instruction.
#[test]
fn sparse_read_without_its_residency_struct() {
    let mut w = shader("compute/img_sparse.spv");
    let at = find(&w, Op::ImageSparseFetch);
    // the first extract after the fetch takes its texel: its result type is the vec4
    let (extract, _) = insts(&w)
        .into_iter()
        .map(|i| (i.0, i.1))
        .find(|&(o, op)| o > at && op == Op::CompositeExtract as u16)
        .expect("the texel is extracted");
    w[at + 1] = w[extract + 1];
    let e = err(&w);
    assert_eq!(e.kind, ErrorKind::BadType, "{e}");
    assert_eq!(e.word as usize, at, "{e}");
    assert!(e.reason.contains("residency code"), "{e}");
}

#[test]
fn a_geometry_entry_point_is_refused_though_the_geometry_capability_is_accepted() {
    let mut w = base();
    let at = find(&w, Op::Capability);
    w[at + 1] = rspirv::spirv::Capability::Geometry as u32;
    let ep = find(&w, Op::EntryPoint);
    w[ep + 1] = rspirv::spirv::ExecutionModel::Geometry as u32;
    let e = err(&w);
    assert_eq!((e.kind, e.word), (ErrorKind::Unsupported, ep), "{e}");
    assert!(e.reason.contains("Geometry"), "{e}");
}
