//! Image instructions (MIMG). Not modelled yet: every image instruction is reported as
//! unimplemented (see the crate's status in docs/abi.md).

use crate::error::{Error, Result};
use crate::wave::{Env, Wave};
use gcnc::isa::{EncDesc, Inst};

pub fn exec(_w: &mut Wave, inst: &Inst, _d: &EncDesc, _env: &mut Env) -> Result<()> {
    Err(Error::unimpl(inst.op.name()))
}
