use super::*; pub fn cases() -> Vec<Case> { vec![] }
