//! The parser for the text form printed by [`super::print`].
//!
//! The format is line oriented: every instruction, block label, variable, struct and CF
//! bracket is one line; `;` starts a comment (filetests put their `; RUN:` lines there).
//! Values and blocks may be mentioned before they are defined (loop phis, forward block
//! references): a mention allocates the handle and the definition fills it in; anything
//! mentioned but never defined is an error at its first mention. Calls may name functions
//! defined later: function signatures are collected in a first sweep.
//!
//! The parser checks syntax and names only; types and structure are the verifier's job.

use super::*;
use std::collections::HashMap;
use std::fmt;

/// A syntax or naming error, with a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub col: usize,
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.msg)
    }
}
impl std::error::Error for ParseError {}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// A word starting with a digit or '-': number or `32x4`.
    Word(String),
    Val(u32),
    Var(u32),
    Struct(u32),
    Str(String),
    Punct(char),
    Arrow,
}

struct Line {
    no: usize,
    toks: Vec<(Tok, usize)>,
}

fn lex_line(no: usize, text: &str) -> Result<Line, ParseError> {
    let b = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    let err = |col: usize, msg: &str| ParseError {
        line: no,
        col: col + 1,
        msg: msg.to_string(),
    };
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c == b';' {
            break;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let word_end = |mut j: usize| {
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            j
        };
        let tok = if c.is_ascii_alphabetic() || c == b'_' {
            i = word_end(i);
            Tok::Ident(text[start..i].to_string())
        } else if c.is_ascii_digit() || (c == b'-' && i + 1 < b.len() && b[i + 1].is_ascii_digit())
        {
            i = word_end(i + 1);
            Tok::Word(text[start..i].to_string())
        } else if c == b'%' || c == b'@' || c == b'$' {
            i = word_end(i + 1);
            let n: u32 = text[start + 1..i]
                .parse()
                .map_err(|_| err(start, "expected a number after a sigil"))?;
            match c {
                b'%' => Tok::Val(n),
                b'@' => Tok::Var(n),
                _ => Tok::Struct(n),
            }
        } else if c == b'"' {
            let mut s = String::new();
            i += 1;
            loop {
                match b.get(i) {
                    None => return Err(err(start, "unterminated string")),
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(b'\\') => {
                        // the escaped character may be any UTF-8 character, not one byte
                        match text[i + 1..].chars().next() {
                            Some('n') => s.push('\n'),
                            Some(e) => s.push(e),
                            None => return Err(err(i, "bad escape")),
                        }
                        i += 1 + text[i + 1..].chars().next().map_or(0, char::len_utf8);
                    }
                    Some(_) => {
                        let ch = text[i..].chars().next().unwrap_or(' ');
                        s.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
            Tok::Str(s)
        } else if c == b'-' && b.get(i + 1) == Some(&b'>') {
            i += 2;
            Tok::Arrow
        } else if b"{}()[]<>,:=.".contains(&c) {
            i += 1;
            Tok::Punct(c as char)
        } else {
            return Err(err(start, &format!("unexpected character {:?}", c as char)));
        };
        toks.push((tok, start + 1));
    }
    Ok(Line { no, toks })
}

/// `"0a1bff"` → bytes (two hex digits each), `None` on anything else.
fn parse_hex_bytes(h: &str) -> Option<Vec<u8>> {
    if h.len() % 2 != 0 || !h.is_ascii() {
        return None;
    }
    (0..h.len())
        .step_by(2)
        .map(|k| u8::from_str_radix(&h[k..k + 2], 16).ok())
        .collect()
}

fn parse_int(s: &str) -> Option<i128> {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let v = if let Some(h) = s.strip_prefix("0x") {
        i128::from_str_radix(h, 16).ok()?
    } else {
        s.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// A cursor over one line's tokens.
struct Cur<'a> {
    line: &'a Line,
    pos: usize,
}

impl<'a> Cur<'a> {
    fn err(&self, msg: impl Into<String>) -> ParseError {
        let col = self
            .line
            .toks
            .get(self.pos)
            .map(|t| t.1)
            .or_else(|| self.line.toks.last().map(|t| t.1 + 1))
            .unwrap_or(1);
        ParseError {
            line: self.line.no,
            col,
            msg: msg.into(),
        }
    }
    fn peek(&self) -> Option<&'a Tok> {
        self.line.toks.get(self.pos).map(|t| &t.0)
    }
    fn peek2(&self) -> Option<&'a Tok> {
        self.line.toks.get(self.pos + 1).map(|t| &t.0)
    }
    fn next(&mut self) -> Option<&'a Tok> {
        let t = self.line.toks.get(self.pos).map(|t| &t.0);
        self.pos += 1;
        t
    }
    fn at_end(&self) -> bool {
        self.pos >= self.line.toks.len()
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: char) -> Result<(), ParseError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(format!("expected '{}'", c)))
        }
    }
    fn eat_ident(&mut self, s: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Ident(x)) if x == s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn ident(&mut self) -> Result<&'a str, ParseError> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                self.pos += 1;
                Ok(s)
            }
            _ => Err(self.err("expected a name")),
        }
    }
    /// A name that may start with a digit (`2d`).
    fn name_like(&mut self) -> Result<&'a str, ParseError> {
        match self.peek() {
            Some(Tok::Ident(s)) | Some(Tok::Word(s)) => {
                self.pos += 1;
                Ok(s)
            }
            _ => Err(self.err("expected a name")),
        }
    }
    fn int(&mut self) -> Result<i128, ParseError> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let v = parse_int(w).ok_or_else(|| self.err(format!("bad number {:?}", w)))?;
                self.pos += 1;
                Ok(v)
            }
            _ => Err(self.err("expected a number")),
        }
    }
    fn u32(&mut self) -> Result<u32, ParseError> {
        let v = self.int()?;
        u32::try_from(v).map_err(|_| {
            self.pos -= 1;
            self.err("number out of range")
        })
    }
    fn key_u32(&mut self, key: &str) -> Result<u32, ParseError> {
        if !self.eat_ident(key) {
            return Err(self.err(format!("expected '{}='", key)));
        }
        self.expect('=')?;
        self.u32()
    }
    fn end(&self) -> Result<(), ParseError> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.err("unexpected trailing tokens"))
        }
    }
    fn valtype(&mut self) -> Result<ValType, ParseError> {
        match self.peek() {
            Some(Tok::Word(w)) => {
                let vt =
                    parse_valtype(w).ok_or_else(|| self.err(format!("bad value type {:?}", w)))?;
                self.pos += 1;
                Ok(vt)
            }
            _ => Err(self.err("expected a value type like 32x4")),
        }
    }
}

fn parse_valtype(w: &str) -> Option<ValType> {
    let (b, c) = w.split_once('x')?;
    if b == "0" {
        return None;
    }
    let vt = ValType::new(b.parse().ok()?, c.parse().ok()?);
    vt.is_valid().then_some(vt)
}

enum Frame {
    Func,
    Then {
        cond: Value,
        control: Control,
    },
    Else {
        cond: Value,
        control: Control,
        then_body: Vec<CfNode>,
    },
    Loop {
        control: Control,
    },
}

struct FnState {
    handle: Func,
    vals: HashMap<u32, Value>,
    /// First mention of each value (for "never defined" errors).
    val_first: HashMap<u32, (usize, usize)>,
    defined: HashMap<u32, bool>,
    blocks: HashMap<u32, Block>,
    block_first: HashMap<u32, (usize, usize)>,
    block_defined: HashMap<u32, bool>,
    stack: Vec<(Frame, Vec<CfNode>)>,
    cur_block: Option<Block>,
}

struct Parser {
    m: Module,
    structs: HashMap<u32, Type>,
    vars: HashMap<u32, Var>,
    funcs: HashMap<String, Func>,
    func_order: Vec<Func>,
    next_func: usize,
    f: Option<FnState>,
}

/// Parses a module from its text form.
pub fn parse_module(text: &str) -> Result<Module, ParseError> {
    let mut lines = Vec::new();
    for (k, l) in text.lines().enumerate() {
        let line = lex_line(k + 1, l)?;
        if !line.toks.is_empty() {
            lines.push(line);
        }
    }
    let first = lines.first().ok_or(ParseError {
        line: 1,
        col: 1,
        msg: "empty module".into(),
    })?;
    let mut c = Cur {
        line: first,
        pos: 0,
    };
    if !c.eat_ident("shader") {
        return Err(c.err("expected 'shader <stage>'"));
    }
    let stage = Stage::from_name(c.ident()?).ok_or_else(|| {
        c.pos -= 1;
        c.err("unknown stage")
    })?;
    let mut p = Parser {
        m: Module::new(stage),
        structs: HashMap::new(),
        vars: HashMap::new(),
        funcs: HashMap::new(),
        func_order: Vec::new(),
        next_func: 0,
        f: None,
    };
    while !c.at_end() {
        if c.eat_ident("local_size") {
            c.expect('=')?;
            for k in 0..3 {
                if k > 0 {
                    c.expect(',')?;
                }
                p.m.local_size[k] = c.u32()?;
            }
        } else if c.eat_ident("shared_size") {
            c.expect('=')?;
            p.m.shared_size = c.u32()?;
        } else if c.eat_ident("scratch_size") {
            c.expect('=')?;
            p.m.scratch_size = c.u32()?;
        } else if c.eat_ident("constant_data") {
            c.expect('=')?;
            p.m.constant_data = match c.next() {
                Some(Tok::Str(h)) => parse_hex_bytes(h).ok_or_else(|| {
                    c.pos -= 1;
                    c.err("constant_data must be a string of hex byte pairs")
                })?,
                _ => {
                    c.pos = c.pos.saturating_sub(1);
                    return Err(c.err("expected a string of hex bytes after constant_data="));
                }
            };
        } else {
            let n = c.ident()?;
            let f = ExecFlags::NAMES
                .iter()
                .find(|(_, s)| *s == n)
                .ok_or_else(|| {
                    c.pos -= 1;
                    c.err(format!("unknown execution mode {:?}", n))
                })?;
            p.m.exec_flags |= f.0;
        }
    }
    // First sweep: function signatures.
    for line in &lines[1..] {
        let mut c = Cur { line, pos: 0 };
        let entry = c.eat_ident("entry");
        if !c.eat_ident("fn") {
            if entry {
                return Err(c.err("expected 'fn' after 'entry'"));
            }
            continue;
        }
        let name = c.ident()?.to_string();
        c.expect('(')?;
        let mut params = Vec::new();
        if !c.eat(')') {
            loop {
                params.push(c.valtype()?);
                if c.eat(')') {
                    break;
                }
                c.expect(',')?;
            }
        }
        let ret = if c.peek() == Some(&Tok::Arrow) {
            c.next();
            c.valtype()?
        } else {
            ValType::NONE
        };
        c.expect('{')?;
        c.end()?;
        if p.funcs.contains_key(&name) {
            return Err(c.err(format!("function {:?} defined twice", name)));
        }
        let mut func = Function::new(&name, params, ret);
        func.blocks = Arena::new();
        func.body.clear();
        let h = p.m.functions.alloc(func);
        if entry {
            if p.m.entry.is_some() {
                return Err(c.err("two entry functions"));
            }
            p.m.entry = Some(h);
        }
        p.funcs.insert(name, h);
        p.func_order.push(h);
    }
    for line in &lines[1..] {
        p.line(line)?;
    }
    if p.f.is_some() {
        let l = lines.last().map_or(1, |l| l.no);
        return Err(ParseError {
            line: l,
            col: 1,
            msg: "unterminated function".into(),
        });
    }
    Ok(p.m)
}

impl Parser {
    fn line(&mut self, line: &Line) -> Result<(), ParseError> {
        let mut c = Cur { line, pos: 0 };
        match c.peek() {
            Some(Tok::Ident(s)) if s == "struct" => {
                if self.f.is_some() {
                    return Err(c.err("struct inside a function"));
                }
                return self.struct_def(&mut c);
            }
            Some(Tok::Ident(s)) if s == "var" => return self.var_def(&mut c),
            Some(Tok::Ident(s)) if s == "fn" || s == "entry" => {
                if self.f.is_some() {
                    return Err(c.err("function inside a function"));
                }
                let h = self.func_order[self.next_func];
                self.next_func += 1;
                self.f = Some(FnState {
                    handle: h,
                    vals: HashMap::new(),
                    val_first: HashMap::new(),
                    defined: HashMap::new(),
                    blocks: HashMap::new(),
                    block_first: HashMap::new(),
                    block_defined: HashMap::new(),
                    stack: vec![(Frame::Func, Vec::new())],
                    cur_block: None,
                });
                return Ok(());
            }
            _ => {}
        }
        if self.f.is_none() {
            return Err(c.err("expected 'struct', 'var' or 'fn'"));
        }
        // CF structure lines.
        if c.eat('}') {
            if c.eat_ident("else") {
                c.expect('{')?;
                c.end()?;
                let f = self.f.as_mut().unwrap();
                let (frame, list) = f.stack.pop().unwrap();
                match frame {
                    Frame::Then { cond, control } => {
                        Self::check_list(&c, &list)?;
                        f.stack.push((
                            Frame::Else {
                                cond,
                                control,
                                then_body: list,
                            },
                            Vec::new(),
                        ));
                        f.cur_block = None;
                        return Ok(());
                    }
                    _ => return Err(c.err("'else' without 'if'")),
                }
            }
            c.end()?;
            return self.close(&c);
        }
        if c.eat_ident("if") {
            let cond = self.use_val(&mut c)?;
            let control = if c.eat_ident("flatten") {
                Control::Prefer
            } else if c.eat_ident("dont_flatten") {
                Control::Avoid
            } else {
                Control::None
            };
            c.expect('{')?;
            c.end()?;
            let f = self.f.as_mut().unwrap();
            f.stack.push((Frame::Then { cond, control }, Vec::new()));
            f.cur_block = None;
            return Ok(());
        }
        if c.eat_ident("loop") {
            let control = if c.eat_ident("unroll") {
                Control::Prefer
            } else if c.eat_ident("dont_unroll") {
                Control::Avoid
            } else {
                Control::None
            };
            c.expect('{')?;
            c.end()?;
            let f = self.f.as_mut().unwrap();
            f.stack.push((Frame::Loop { control }, Vec::new()));
            f.cur_block = None;
            return Ok(());
        }
        if let (Some(Tok::Ident(name)), Some(Tok::Punct(':'))) = (c.peek(), c.peek2()) {
            if let Some(n) = name
                .strip_prefix("block_")
                .and_then(|n| n.parse::<u32>().ok())
            {
                c.pos += 2;
                c.end()?;
                let b = self.block_ref(&c, n, true)?;
                let f = self.f.as_mut().unwrap();
                f.stack.last_mut().unwrap().1.push(CfNode::Block(b));
                f.cur_block = Some(b);
                return Ok(());
            }
        }
        self.inst(&mut c)
    }

    fn check_list(c: &Cur, list: &[CfNode]) -> Result<(), ParseError> {
        if list.first().and_then(CfNode::as_block).is_none()
            || list.last().and_then(CfNode::as_block).is_none()
        {
            return Err(c.err("a CF list must start and end with a block"));
        }
        Ok(())
    }

    fn close(&mut self, c: &Cur) -> Result<(), ParseError> {
        let f = self.f.as_mut().unwrap();
        let (frame, list) = f.stack.pop().unwrap();
        Self::check_list(c, &list)?;
        f.cur_block = None;
        let node = match frame {
            Frame::Func => {
                let st = self.f.take().unwrap();
                for (n, def) in &st.defined {
                    if !def {
                        let (l, col) = st.val_first[n];
                        return Err(ParseError {
                            line: l,
                            col,
                            msg: format!("value %{} is never defined", n),
                        });
                    }
                }
                for (n, def) in &st.block_defined {
                    if !def {
                        let (l, col) = st.block_first[n];
                        return Err(ParseError {
                            line: l,
                            col,
                            msg: format!("block_{} is never defined", n),
                        });
                    }
                }
                self.m.functions[st.handle].body = list;
                return Ok(());
            }
            Frame::Then { .. } => return Err(c.err("'if' without 'else' arm")),
            Frame::Else {
                cond,
                control,
                then_body,
            } => CfNode::If {
                cond,
                then_body,
                else_body: list,
                control,
            },
            Frame::Loop { control } => CfNode::Loop {
                body: list,
                control,
            },
        };
        f.stack.last_mut().unwrap().1.push(node);
        Ok(())
    }

    fn func(&mut self) -> &mut Function {
        let h = self.f.as_ref().unwrap().handle;
        &mut self.m.functions[h]
    }

    fn block_ref(&mut self, c: &Cur, n: u32, def: bool) -> Result<Block, ParseError> {
        let h = self.f.as_ref().unwrap().handle;
        let st = self.f.as_mut().unwrap();
        let b = match st.blocks.get(&n) {
            Some(&b) => b,
            None => {
                let b = self.m.functions[h].blocks.alloc(BlockData::default());
                st.blocks.insert(n, b);
                let col = c.line.toks.get(c.pos.saturating_sub(1)).map_or(1, |t| t.1);
                st.block_first.insert(n, (c.line.no, col));
                st.block_defined.insert(n, false);
                b
            }
        };
        if def {
            if st.block_defined[&n] {
                return Err(c.err(format!("block_{} defined twice", n)));
            }
            st.block_defined.insert(n, true);
        }
        Ok(b)
    }

    fn val_ref(&mut self, c: &Cur, n: u32, col: usize) -> Value {
        let h = self.f.as_ref().unwrap().handle;
        let st = self.f.as_mut().unwrap();
        if let Some(&v) = st.vals.get(&n) {
            return v;
        }
        let v = self.m.functions[h].insts.alloc(InstData {
            kind: InstKind::Undef,
            ty: ValType::NONE,
            block: None,
            exact: false,
        });
        st.vals.insert(n, v);
        st.val_first.insert(n, (c.line.no, col));
        st.defined.insert(n, false);
        v
    }

    fn use_val(&mut self, c: &mut Cur) -> Result<Value, ParseError> {
        match c.peek() {
            Some(Tok::Val(n)) => {
                let col = c.line.toks[c.pos].1;
                c.pos += 1;
                Ok(self.val_ref(c, *n, col))
            }
            _ => Err(c.err("expected a value like %3")),
        }
    }

    fn parse_type(&mut self, c: &mut Cur) -> Result<Type, ParseError> {
        let t = match c.next() {
            Some(Tok::Struct(n)) => {
                return self.structs.get(n).copied().ok_or_else(|| {
                    c.pos -= 1;
                    c.err(format!("unknown struct ${}", n))
                })
            }
            Some(Tok::Punct('[')) => {
                let elem = self.parse_type(c)?;
                let mut len = None;
                let mut stride = 0;
                while c.eat(',') {
                    if c.eat_ident("stride") {
                        c.expect('=')?;
                        stride = c.u32()?;
                    } else {
                        len = Some(c.u32()?);
                    }
                }
                c.expect(']')?;
                return Ok(self.m.types.array(elem, len, stride));
            }
            Some(Tok::Ident(s)) => s.as_str(),
            _ => {
                c.pos -= 1;
                return Err(c.err("expected a type"));
            }
        };
        let types = &mut self.m.types;
        if let Some(s) = Scalar::from_name(t) {
            return Ok(types.scalar(s));
        }
        match t {
            "void" => return Ok(types.void()),
            "sampler" => return Ok(types.intern(TypeKind::Sampler)),
            "sampled_image" => {
                c.expect('<')?;
                let i = self.parse_type(c)?;
                c.expect('>')?;
                return Ok(self.m.types.intern(TypeKind::SampledImage(i)));
            }
            "ptr" => {
                c.expect('<')?;
                let mode = c.ident()?;
                let mode = Mode::from_name(mode).ok_or_else(|| c.err("unknown mode"))?;
                c.expect(',')?;
                let p = self.parse_type(c)?;
                c.expect('>')?;
                return Ok(self.m.types.pointer(p, mode));
            }
            "image" => {
                c.expect('<')?;
                let d = c.name_like()?;
                let dim = Dim::ALL
                    .iter()
                    .copied()
                    .find(|x| x.name() == d)
                    .ok_or_else(|| c.err("unknown image dim"))?;
                c.expect(',')?;
                let st = Scalar::from_name(c.ident()?).ok_or_else(|| c.err("unknown scalar"))?;
                let mut it = ImageType {
                    dim,
                    sampled_type: st,
                    depth: false,
                    arrayed: false,
                    ms: false,
                    sampled: false,
                    format: 0,
                };
                while c.eat(',') {
                    match c.ident()? {
                        "depth" => it.depth = true,
                        "arrayed" => it.arrayed = true,
                        "ms" => it.ms = true,
                        "sampled" => it.sampled = true,
                        "fmt" => {
                            c.expect('=')?;
                            it.format = c.u32()?;
                        }
                        _ => return Err(c.err("unknown image flag")),
                    }
                }
                c.expect('>')?;
                return Ok(self.m.types.intern(TypeKind::Image(it)));
            }
            _ => {}
        }
        if let Some(n) = t.strip_prefix("vec") {
            let len: u8 = n.parse().map_err(|_| c.err("bad vector length"))?;
            c.expect('<')?;
            let s = Scalar::from_name(c.ident()?).ok_or_else(|| c.err("unknown scalar"))?;
            let mut stride = 0;
            if c.eat(',') {
                stride = c.key_u32("stride")?;
            }
            c.expect('>')?;
            if !(2..=16).contains(&len) {
                return Err(c.err("vector length must be 2..16"));
            }
            return Ok(self.m.types.intern(TypeKind::Vector {
                scalar: s,
                len,
                stride,
            }));
        }
        if let Some(n) = t.strip_prefix("mat") {
            let (cols, rows) = n
                .split_once('x')
                .and_then(|(a, b)| Some((a.parse::<u8>().ok()?, b.parse::<u8>().ok()?)))
                .ok_or_else(|| c.err("bad matrix shape"))?;
            c.expect('<')?;
            let s = Scalar::from_name(c.ident()?).ok_or_else(|| c.err("unknown scalar"))?;
            let (mut rm, mut stride) = (false, 0);
            while c.eat(',') {
                if !c.eat_ident("row_major") {
                    stride = c.key_u32("stride")?;
                } else {
                    rm = true;
                }
            }
            c.expect('>')?;
            if !(2..=4).contains(&cols) || !(2..=4).contains(&rows) {
                return Err(c.err("matrix dimensions must be 2..4"));
            }
            let col = self.m.types.vector(s, rows);
            return Ok(self.m.types.matrix(col, cols, rm, stride));
        }
        c.pos -= 1;
        Err(c.err(format!("unknown type {:?}", t)))
    }

    fn struct_def(&mut self, c: &mut Cur) -> Result<(), ParseError> {
        c.next();
        let n = match c.next() {
            Some(Tok::Struct(n)) => *n,
            _ => return Err(c.err("expected $N")),
        };
        c.expect('{')?;
        let mut members = Vec::new();
        if !c.eat('}') {
            loop {
                let ty = self.parse_type(c)?;
                let offset = if c.eat('@') {
                    Some(c.u32()?)
                } else if let Some(Tok::Var(o)) = c.peek() {
                    // `@16` lexes as a variable sigil.
                    c.pos += 1;
                    Some(*o)
                } else {
                    None
                };
                members.push(Member { ty, offset });
                if c.eat('}') {
                    break;
                }
                c.expect(',')?;
            }
        }
        c.end()?;
        if self.structs.contains_key(&n) {
            return Err(c.err(format!("struct ${} defined twice", n)));
        }
        let t = self.m.types.structure(members);
        self.structs.insert(n, t);
        Ok(())
    }

    fn var_def(&mut self, c: &mut Cur) -> Result<(), ParseError> {
        c.next();
        let n = match c.next() {
            Some(Tok::Var(n)) => *n,
            _ => return Err(c.err("expected @N")),
        };
        let mode_name = c.ident()?;
        let mode = Mode::from_name(mode_name).ok_or_else(|| {
            c.pos -= 1;
            c.err(format!("unknown mode {:?}", mode_name))
        })?;
        let ty = self.parse_type(c)?;
        let mut v = Variable::new(ty, mode);
        while !c.at_end() {
            if let Some(Tok::Str(s)) = c.peek() {
                v.name = Some(s.clone());
                c.pos += 1;
                continue;
            }
            let k = c.ident()?;
            match k {
                "set" => {
                    c.expect('=')?;
                    let s = c.u32()?;
                    let b = c.key_u32("binding")?;
                    v.binding = Some((s, b));
                }
                "location" => {
                    c.expect('=')?;
                    v.location = Some(c.u32()?);
                }
                "component" => {
                    c.expect('=')?;
                    v.component = c.u32()?;
                }
                "index" => {
                    c.expect('=')?;
                    v.index = c.u32()?;
                }
                "builtin" => {
                    c.expect('=')?;
                    let b = c.ident()?;
                    v.builtin = Some(Builtin::from_name(b).ok_or_else(|| {
                        c.pos -= 1;
                        c.err("unknown builtin")
                    })?);
                }
                _ => {
                    let f = VarFlags::NAMES
                        .iter()
                        .find(|(_, s)| *s == k)
                        .ok_or_else(|| {
                            c.pos -= 1;
                            c.err(format!("unknown variable attribute {:?}", k))
                        })?;
                    v.flags |= f.0;
                }
            }
        }
        if self.vars.contains_key(&n) {
            return Err(c.err(format!("variable @{} defined twice", n)));
        }
        let h = match &self.f {
            Some(st) => {
                if mode != Mode::Function {
                    return Err(c.err("only function variables may be declared in a function"));
                }
                let fh = st.handle;
                self.m.add_local(fh, v)
            }
            None => {
                if mode == Mode::Function {
                    return Err(c.err("function variables belong in a function"));
                }
                self.m.add_global(v)
            }
        };
        self.vars.insert(n, h);
        Ok(())
    }

    fn inst(&mut self, c: &mut Cur) -> Result<(), ParseError> {
        let Some(block) = self.f.as_ref().unwrap().cur_block else {
            return Err(c.err("instruction outside a block"));
        };
        let mut def = None;
        let mut ty = ValType::NONE;
        if let Some(Tok::Word(_)) = c.peek() {
            ty = c.valtype()?;
            let col = c.line.toks.get(c.pos).map_or(1, |t| t.1);
            let n = match c.next() {
                Some(Tok::Val(n)) => *n,
                _ => return Err(c.err("expected %N after the value type")),
            };
            c.expect('=')?;
            let st = self.f.as_ref().unwrap();
            if st.defined.get(&n) == Some(&true) {
                c.pos -= 2;
                return Err(c.err(format!("%{} defined twice", n)));
            }
            let v = self.val_ref(c, n, col);
            self.f.as_mut().unwrap().defined.insert(n, true);
            def = Some(v);
        }
        let mut op = c.ident()?.to_string();
        let exact = op == "exact";
        if exact {
            op = c.ident()?.to_string();
        }
        let kind = self.inst_kind(c, &op, ty)?;
        if exact && !matches!(kind, InstKind::Alu { .. }) {
            return Err(c.err(format!("'exact' applies to ALU ops, not '{op}'")));
        }
        c.end()?;
        if def.is_none() && !matches!(kind, InstKind::Jump(..)) {
            let has = match &kind {
                InstKind::Intrinsic { op, .. } => op.has_dest(),
                InstKind::Call { func, .. } => !self.m.functions[*func].ret.is_none(),
                _ => true,
            };
            if has {
                return Err(c.err(format!(
                    "'{}' produces a value: write 'NxM %k = {}'",
                    op, op
                )));
            }
        }
        let f = self.func();
        let v = match def {
            Some(v) => {
                f.insts[v] = InstData {
                    kind,
                    ty,
                    block: Some(block),
                    exact,
                };
                v
            }
            None => f.insts.alloc(InstData {
                kind,
                ty,
                block: Some(block),
                exact,
            }),
        };
        f.blocks[block].insts.push(v);
        Ok(())
    }

    fn val_list(&mut self, c: &mut Cur) -> Result<SmallVec<[Value; 4]>, ParseError> {
        let mut out = SmallVec::new();
        if !matches!(c.peek(), Some(Tok::Val(_))) {
            return Ok(out);
        }
        loop {
            out.push(self.use_val(c)?);
            if !c.eat(',') {
                return Ok(out);
            }
        }
    }

    fn inst_kind(&mut self, c: &mut Cur, op: &str, ty: ValType) -> Result<InstKind, ParseError> {
        Ok(match op {
            "const" => {
                let mut comps = SmallVec::new();
                loop {
                    let x = if c.eat_ident("true") {
                        1
                    } else if c.eat_ident("false") {
                        0
                    } else {
                        let v = c.int()?;
                        if v < -(1i128 << 63) || v > u64::MAX as i128 {
                            c.pos -= 1;
                            return Err(c.err("constant out of range"));
                        }
                        (v as u64) & ty.mask()
                    };
                    comps.push(x);
                    if !c.eat(',') {
                        break;
                    }
                }
                InstKind::Const(comps)
            }
            "undef" => InstKind::Undef,
            "swizzle" => {
                let src = self.use_val(c)?;
                c.expect('.')?;
                let mut comps = SmallVec::new();
                if c.eat('[') {
                    loop {
                        comps.push(c.u32()?.min(255) as u8);
                        if c.eat(']') {
                            break;
                        }
                        c.expect(',')?;
                    }
                } else {
                    let s = c.ident()?;
                    for ch in s.chars() {
                        comps.push(match ch {
                            'x' => 0,
                            'y' => 1,
                            'z' => 2,
                            'w' => 3,
                            _ => return Err(c.err("swizzle letters are xyzw")),
                        });
                    }
                }
                InstKind::Swizzle { src, comps }
            }
            "phi" => {
                let mut srcs = SmallVec::new();
                while let Some(Tok::Ident(b)) = c.peek() {
                    let n = b
                        .strip_prefix("block_")
                        .and_then(|n| n.parse::<u32>().ok())
                        .ok_or_else(|| c.err("expected block_N"))?;
                    c.pos += 1;
                    let blk = self.block_ref(c, n, false)?;
                    c.expect(':')?;
                    let v = self.use_val(c)?;
                    srcs.push((blk, v));
                    if !c.eat(',') {
                        break;
                    }
                }
                InstKind::Phi(srcs)
            }
            "deref_var" | "deref_array" | "deref_struct" | "deref_ptr_as_array" | "deref_cast" => {
                let kind = match op {
                    "deref_var" => match c.next() {
                        Some(Tok::Var(n)) => {
                            DerefKind::Var(*self.vars.get(n).ok_or_else(|| {
                                c.pos -= 1;
                                c.err(format!("unknown variable @{}", n))
                            })?)
                        }
                        _ => return Err(c.err("expected @N")),
                    },
                    "deref_struct" => {
                        let parent = self.use_val(c)?;
                        c.expect('.')?;
                        DerefKind::Struct {
                            parent,
                            member: c.u32()?,
                        }
                    }
                    "deref_cast" => {
                        let parent = self.use_val(c)?;
                        let stride = c.key_u32("stride")?;
                        let align = c.key_u32("align")?;
                        DerefKind::Cast {
                            parent,
                            stride,
                            align,
                        }
                    }
                    _ => {
                        let parent = self.use_val(c)?;
                        c.expect('[')?;
                        let index = self.use_val(c)?;
                        c.expect(']')?;
                        if op == "deref_array" {
                            DerefKind::Array { parent, index }
                        } else {
                            DerefKind::PtrAsArray {
                                parent,
                                index,
                                stride: c.key_u32("stride")?,
                            }
                        }
                    }
                };
                c.expect(':')?;
                let mode = Mode::from_name(c.ident()?).ok_or_else(|| {
                    c.pos -= 1;
                    c.err("unknown mode")
                })?;
                let ty = self.parse_type(c)?;
                InstKind::Deref(Deref { kind, ty, mode })
            }
            "tex" => {
                let top = c.ident()?;
                let op = TexOp::from_name(top).ok_or_else(|| {
                    c.pos -= 1;
                    c.err("unknown texture op")
                })?;
                let d = c.name_like()?;
                let dim = Dim::ALL
                    .iter()
                    .copied()
                    .find(|x| x.name() == d)
                    .ok_or_else(|| c.err("unknown dim"))?;
                let mut t = Tex {
                    op,
                    dim,
                    arrayed: false,
                    shadow: false,
                    component: 0,
                    sparse: false,
                    srcs: SmallVec::new(),
                };
                while !c.at_end() {
                    let k = c.ident()?;
                    match k {
                        "arrayed" => t.arrayed = true,
                        "shadow" => t.shadow = true,
                        "sparse" => t.sparse = true,
                        "comp" => {
                            c.expect('=')?;
                            t.component = c.u32()?.min(3) as u8;
                        }
                        _ => {
                            let s = TexSrc::from_name(k).ok_or_else(|| {
                                c.pos -= 1;
                                c.err("unknown texture source")
                            })?;
                            c.expect('=')?;
                            let v = self.use_val(c)?;
                            t.srcs.push((s, v));
                        }
                    }
                }
                InstKind::Tex(Box::new(t))
            }
            "call" => {
                let name = c.ident()?;
                let func = *self.funcs.get(name).ok_or_else(|| {
                    c.pos -= 1;
                    c.err(format!("unknown function {:?}", name))
                })?;
                c.expect('(')?;
                let args = self.val_list(c)?;
                c.expect(')')?;
                InstKind::Call { func, args }
            }
            "break" => InstKind::Jump(JumpKind::Break, None),
            "continue" => InstKind::Jump(JumpKind::Continue, None),
            "return" => {
                let v = if c.at_end() {
                    None
                } else {
                    Some(self.use_val(c)?)
                };
                InstKind::Jump(JumpKind::Return, v)
            }
            _ => {
                if let Some(a) = AluOp::from_name(op) {
                    let srcs = self.val_list(c)?;
                    InstKind::Alu {
                        op: a,
                        srcs: srcs.into_iter().collect(),
                    }
                } else if let Some(i) = Intrinsic::from_name(op) {
                    let srcs = self.val_list(c)?;
                    let mut idx: SmallVec<[u32; 4]> = smallvec::smallvec![0; i.indices().len()];
                    while !c.at_end() {
                        let k = c.ident()?;
                        let pos = i.index_pos(k).ok_or_else(|| {
                            c.pos -= 1;
                            c.err(format!("{} has no index {:?}", op, k))
                        })?;
                        c.expect('=')?;
                        let kind = i.indices()[pos].1;
                        idx[pos] = match kind {
                            IdxKind::Num | IdxKind::Hex => c.u32()?,
                            _ => {
                                let n = if kind == IdxKind::Dim {
                                    c.name_like()?
                                } else {
                                    c.ident()?
                                };
                                let found = match kind {
                                    IdxKind::Atomic => AtomicOp::from_name(n).map(|x| x as u32),
                                    IdxKind::Reduce => ReduceOp::from_name(n).map(|x| x as u32),
                                    IdxKind::Interp => Interp::from_name(n).map(|x| x as u32),
                                    IdxKind::Desc => Descriptor::from_name(n).map(|x| x as u32),
                                    IdxKind::Dim => Dim::ALL
                                        .iter()
                                        .position(|d| d.name() == n)
                                        .map(|x| x as u32),
                                    _ => Mode::from_name(n).map(|x| x as u32),
                                };
                                found.ok_or_else(|| {
                                    c.pos -= 1;
                                    c.err(format!("bad value {:?} for {}", n, k))
                                })?
                            }
                        };
                    }
                    InstKind::Intrinsic { op: i, srcs, idx }
                } else {
                    c.pos -= 1;
                    return Err(c.err(format!("unknown operation {:?}", op)));
                }
            }
        })
    }
}
