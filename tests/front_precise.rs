//! GLSL `precise` (SPIR-V `NoContraction` on a result id) reaches the IR as the `exact`
//! flag on every ALU instruction the decorated result's translation emits, and only there;
//! the middle end then fuses the unmarked multiply-add and leaves the marked one as written.
//! (glslang propagates `precise` to every value stored into an object a precise value was
//! computed from, so the unmarked result goes to a buffer of its own.)

mod front_support;

use front_support::support::{run, temp_path};
use front_support::*;
use gcnc::front::spirv::{translate, Options};

const SOURCE: &str = "#version 450
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) buffer In { float v[]; };
layout(std430, set = 0, binding = 1) buffer P { float p_out; };
layout(std430, set = 0, binding = 2) buffer Q { float q_out; };
void main() {
    precise float p = v[0] * v[1] + v[2];
    p_out = p;
    q_out = v[1] * v[2] + v[0];
}
";

#[test]
fn precise_results_are_exact_and_stay_unfused() {
    let Some(glslang) = oracle("glslangValidator") else {
        return;
    };
    let src = temp_path("precise.comp");
    let spv = temp_path("precise.spv");
    std::fs::write(&src, SOURCE).unwrap();
    run(
        &glslang,
        &["-V", src.to_str().unwrap(), "-o", spv.to_str().unwrap()],
    );
    let bytes = std::fs::read(&spv).unwrap();
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let mut m = translate(&words, &Options::default()).unwrap();
    let text = gcnc::ir::print_module(&m);
    let count = |t: &str, s: &str| t.lines().filter(|l| l.contains(s)).count();
    assert_eq!(count(&text, "= exact fmul "), 1, "{text}");
    assert_eq!(count(&text, "= exact fadd "), 1, "{text}");
    assert_eq!(count(&text, "= fmul "), 1, "{text}");
    assert_eq!(count(&text, "= fadd "), 1, "{text}");
    gcnc::passes::run_pipeline(&mut m).unwrap();
    let text = gcnc::ir::print_module(&m);
    assert_eq!(count(&text, "= ffma "), 1, "{text}");
    assert_eq!(count(&text, "= exact fmul "), 1, "{text}");
    assert_eq!(count(&text, "= exact fadd "), 1, "{text}");
    assert_eq!(count(&text, "= fmul "), 0, "{text}");
}
