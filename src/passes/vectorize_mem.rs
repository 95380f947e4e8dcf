//! TODO
use crate::ir::Module;
pub fn run(_m: &mut Module) -> bool {
    false
}
