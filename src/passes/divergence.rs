//! TODO
use crate::ir::*;
pub fn run(_m: &mut Module) -> bool {
    false
}
pub struct Divergence;
impl Divergence {
    pub fn is_divergent(&self, _f: Func, _i: Inst) -> bool {
        false
    }
}
pub fn analyze(_m: &Module) -> Divergence {
    Divergence
}
