//! A parsed pattern as a program of simple instructions, one program for the pattern and one
//! for each lookaround (a lookbehind's program reads the text backwards, as ECMA-262 matches
//! it), and the two ways of running it (see [`super`]'s doc for why two).

use super::parse::{Class, Node};
use super::{MAX_MATCH_STEPS, MAX_MEMO_BITS};
use std::sync::Arc;

#[derive(Debug, Clone)]
enum Inst {
    /// Reads one code point equal to this.
    Char(u32),
    /// Reads one code point of this class (index into `Compiled::classes`).
    Class(usize),
    /// Goes on at the first target, and on failure at the second.
    Split(usize, usize),
    Jmp(usize),
    Start,
    End,
    WordBoundary(bool),
    /// Runs program `prog` at the position; succeeds when it matches, or when it does not
    /// and `negate`.
    Look {
        prog: usize,
        negate: bool,
    },
    /// Records the position in a capture slot (group `k` has slots `2k` and `2k + 1`).
    Save(usize),
    /// Forgets the captures of slots `lo..hi`: each iteration of a quantifier starts with
    /// its groups undefined.
    Clear(usize, usize),
    /// Records the position in a loop register at the start of an optional iteration.
    Mark(usize),
    /// Fails when the iteration that `Mark` started has read nothing (ECMA-262's empty
    /// check, which keeps `(a*)*` from looping forever).
    Progress(usize),
    /// Matches what group `k` captured (nothing when it is undefined).
    BackRef(usize),
    Match,
}

#[derive(Debug, Clone)]
struct Prog {
    insts: Vec<Inst>,
    backward: bool,
}

/// Why a program could not be built: which allowance ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TooLarge {
    /// It needs more instructions than it may have.
    Program,
    /// Building it takes more steps than it may.
    Steps,
}

/// What building one program may spend: instructions, and steps (a part of the pattern
/// visited or an instruction written).
#[derive(Debug, Clone, Copy)]
pub(super) struct Allowance {
    pub program: usize,
    pub steps: usize,
}

/// A compiled pattern.
#[derive(Debug, Clone)]
pub(super) struct Compiled {
    progs: Vec<Prog>,
    classes: Vec<Arc<Class>>,
    slots: usize,
    regs: usize,
    backrefs: bool,
}

/// What one check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    Match,
    NoMatch,
    /// [`MAX_MATCH_STEPS`] ran out before an answer.
    OutOfSteps,
}

struct Builder {
    progs: Vec<Prog>,
    classes: Vec<Arc<Class>>,
    regs: usize,
    /// Instructions written, over all programs.
    total: usize,
    /// Steps taken: every node visited and every instruction written. A counted repetition
    /// copies its subtree, and a subtree can be large and write almost nothing
    /// (`(?:a(?:b){0}(?:b){0}…){20000}`), so instructions alone do not bound the work.
    steps: usize,
    allowance: Allowance,
}

impl Compiled {
    /// Builds the program of a parsed pattern within `allowance`, adding the steps taken to
    /// `steps` whether it is built or not.
    pub(super) fn new(
        node: &Node,
        groups: u32,
        backrefs: bool,
        allowance: Allowance,
        steps: &mut usize,
    ) -> Result<Compiled, TooLarge> {
        let mut b = Builder {
            progs: vec![Prog {
                insts: Vec::new(),
                backward: false,
            }],
            classes: Vec::new(),
            regs: 0,
            total: 0,
            steps: 0,
            allowance,
        };
        let built = b.emit_prog(0, node);
        *steps = steps.saturating_add(b.steps);
        built?;
        Ok(Compiled {
            progs: b.progs,
            classes: b.classes,
            slots: 2 * (groups as usize + 1),
            regs: b.regs,
            backrefs,
        })
    }

    /// The instructions over all programs.
    pub(super) fn len(&self) -> usize {
        self.progs.iter().map(|p| p.insts.len()).sum()
    }

    /// Whether `text` contains a match, within [`MAX_MATCH_STEPS`].
    pub(super) fn search(&self, text: &[char]) -> Outcome {
        let memo_bits = self.len().saturating_mul(text.len() + 1);
        let mut run = Run {
            c: self,
            text,
            steps: 0,
            memo: Vec::new(),
            looks: Vec::new(),
        };
        let answer = if !self.backrefs && memo_bits <= MAX_MEMO_BITS {
            run.memo = self
                .progs
                .iter()
                .map(|p| Memo {
                    seen: vec![0u64; (p.insts.len() * (text.len() + 1)).div_ceil(64)],
                    trail: Vec::new(),
                })
                .collect();
            run.looks = self
                .progs
                .iter()
                .map(|_| vec![0u8; text.len() + 1])
                .collect();
            (0..=text.len()).try_fold(
                false,
                |found, start| {
                    if found {
                        Ok(true)
                    } else {
                        run.reach(0, start)
                    }
                },
            )
        } else {
            let mut slots = vec![NONE; self.slots];
            let mut regs = vec![NONE; self.regs];
            let mut stack = Vec::new();
            (0..=text.len()).try_fold(false, |found, start| {
                if found {
                    return Ok(true);
                }
                slots.iter_mut().for_each(|s| *s = NONE);
                run.backtrack(0, start, &mut slots, &mut regs, &mut stack)
            })
        };
        match answer {
            Ok(true) => Outcome::Match,
            Ok(false) => Outcome::NoMatch,
            Err(OutOfSteps) => Outcome::OutOfSteps,
        }
    }
}

impl Builder {
    /// One step more, within the allowance.
    fn step(&mut self) -> Result<(), TooLarge> {
        if self.steps >= self.allowance.steps {
            return Err(TooLarge::Steps);
        }
        self.steps += 1;
        Ok(())
    }

    fn push(&mut self, prog: usize, inst: Inst) -> Result<usize, TooLarge> {
        self.step()?;
        self.total += 1;
        if self.total > self.allowance.program {
            return Err(TooLarge::Program);
        }
        let p = self.progs.get_mut(prog).ok_or(TooLarge::Program)?;
        p.insts.push(inst);
        Ok(p.insts.len() - 1)
    }

    fn here(&self, prog: usize) -> usize {
        self.progs.get(prog).map_or(0, |p| p.insts.len())
    }

    fn patch(&mut self, prog: usize, at: usize, target: usize, second: bool) {
        if let Some(i) = self.progs.get_mut(prog).and_then(|p| p.insts.get_mut(at)) {
            match i {
                Inst::Split(a, b) => {
                    if second {
                        *b = target
                    } else {
                        *a = target
                    }
                }
                Inst::Jmp(a) => *a = target,
                _ => {}
            }
        }
    }

    fn emit_prog(&mut self, prog: usize, node: &Node) -> Result<(), TooLarge> {
        self.emit(prog, node)?;
        self.push(prog, Inst::Match)?;
        Ok(())
    }

    fn backward(&self, prog: usize) -> bool {
        self.progs.get(prog).is_some_and(|p| p.backward)
    }

    fn emit(&mut self, prog: usize, node: &Node) -> Result<(), TooLarge> {
        self.step()?;
        match node {
            Node::Empty => {}
            Node::Char(c) => {
                self.push(prog, Inst::Char(*c))?;
            }
            Node::Class(r) => {
                self.classes.push(Arc::clone(r));
                self.push(prog, Inst::Class(self.classes.len() - 1))?;
            }
            Node::Start => {
                self.push(prog, Inst::Start)?;
            }
            Node::End => {
                self.push(prog, Inst::End)?;
            }
            Node::WordBoundary(neg) => {
                self.push(prog, Inst::WordBoundary(*neg))?;
            }
            Node::Group(inner, n) => {
                let (open, close) = (2 * *n as usize, 2 * *n as usize + 1);
                // Read backwards, a group's end is reached first.
                let (first, last) = if self.backward(prog) {
                    (close, open)
                } else {
                    (open, close)
                };
                self.push(prog, Inst::Save(first))?;
                self.emit(prog, inner)?;
                self.push(prog, Inst::Save(last))?;
            }
            Node::Look {
                node,
                behind,
                negate,
            } => {
                self.progs.push(Prog {
                    insts: Vec::new(),
                    backward: *behind,
                });
                let sub = self.progs.len() - 1;
                self.emit_prog(sub, node)?;
                self.push(
                    prog,
                    Inst::Look {
                        prog: sub,
                        negate: *negate,
                    },
                )?;
            }
            Node::BackRef(k) => {
                self.push(prog, Inst::BackRef(*k as usize))?;
            }
            Node::Cat(list) => {
                if self.backward(prog) {
                    for n in list.iter().rev() {
                        self.emit(prog, n)?;
                    }
                } else {
                    for n in list {
                        self.emit(prog, n)?;
                    }
                }
            }
            Node::Alt(list) => {
                let mut jumps = Vec::new();
                let last = list.len().saturating_sub(1);
                for (k, n) in list.iter().enumerate() {
                    if k < last {
                        let split = self.push(prog, Inst::Split(0, 0))?;
                        self.patch(prog, split, split + 1, false);
                        self.emit(prog, n)?;
                        jumps.push(self.push(prog, Inst::Jmp(0))?);
                        let next = self.here(prog);
                        self.patch(prog, split, next, true);
                    } else {
                        self.emit(prog, n)?;
                    }
                }
                let end = self.here(prog);
                for j in jumps {
                    self.patch(prog, j, end, false);
                }
            }
            Node::Repeat {
                node,
                min,
                max,
                greedy,
                groups,
            } => self.repeat(prog, node, *min, *max, *greedy, *groups)?,
        }
        Ok(())
    }

    fn repeat(
        &mut self,
        prog: usize,
        node: &Node,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        (lo, hi): (u32, u32),
    ) -> Result<(), TooLarge> {
        let (lo, hi) = (lo as usize, hi as usize);
        let clear = |b: &mut Builder| -> Result<(), TooLarge> {
            if hi > lo {
                b.push(prog, Inst::Clear(2 * lo, 2 * hi))?;
            }
            Ok(())
        };
        for _ in 0..min {
            let before = self.total;
            clear(self)?;
            self.emit(prog, node)?;
            if self.total == before {
                // Copies of nothing are nothing (`(?:){1000000}`).
                break;
            }
        }
        match max {
            None => {
                let reg = self.new_reg();
                let top = self.push(prog, Inst::Split(0, 0))?;
                self.patch(prog, top, top + 1, !greedy);
                clear(self)?;
                self.push(prog, Inst::Mark(reg))?;
                self.emit(prog, node)?;
                self.push(prog, Inst::Progress(reg))?;
                self.push(prog, Inst::Jmp(top))?;
                let end = self.here(prog);
                self.patch(prog, top, end, greedy);
            }
            Some(max) => {
                let mut splits = Vec::new();
                for _ in min..max {
                    let reg = self.new_reg();
                    let s = self.push(prog, Inst::Split(0, 0))?;
                    self.patch(prog, s, s + 1, !greedy);
                    splits.push(s);
                    clear(self)?;
                    self.push(prog, Inst::Mark(reg))?;
                    self.emit(prog, node)?;
                    self.push(prog, Inst::Progress(reg))?;
                }
                let end = self.here(prog);
                for s in splits {
                    self.patch(prog, s, end, greedy);
                }
            }
        }
        Ok(())
    }

    fn new_reg(&mut self) -> usize {
        self.regs += 1;
        self.regs - 1
    }
}

const NONE: usize = usize::MAX;

struct OutOfSteps;

/// What the memoising run knows of one program.
struct Memo {
    /// One bit per (instruction, position) already explored without reaching `Match`.
    seen: Vec<u64>,
    /// Bits set by the search under way, unset again when it succeeds (see `reach`).
    trail: Vec<usize>,
}

struct Run<'a> {
    c: &'a Compiled,
    text: &'a [char],
    steps: usize,
    memo: Vec<Memo>,
    /// Per program, per position: 0 not asked yet, 1 matches, 2 does not.
    looks: Vec<Vec<u8>>,
}

enum Frame {
    Alt(usize, usize),
    Slot(usize, usize),
    Reg(usize, usize),
    Slots(Vec<usize>),
}

impl Run<'_> {
    fn step(&mut self) -> Result<(), OutOfSteps> {
        self.steps += 1;
        if self.steps > MAX_MATCH_STEPS {
            Err(OutOfSteps)
        } else {
            Ok(())
        }
    }

    fn is_word(&self, pos: usize) -> bool {
        self.text
            .get(pos)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
    }

    fn at_boundary(&self, pos: usize) -> bool {
        let before = pos > 0 && self.is_word(pos - 1);
        let after = pos < self.text.len() && self.is_word(pos);
        before != after
    }

    /// The code point read by an instruction at `pos` and the position after it.
    fn read(&self, backward: bool, pos: usize) -> Option<(u32, usize)> {
        if backward {
            let p = pos.checked_sub(1)?;
            self.text.get(p).map(|c| (*c as u32, p))
        } else {
            self.text.get(pos).map(|c| (*c as u32, pos + 1))
        }
    }

    /// Whether `c` is in class `k`. Each property the class holds is one more step: in
    /// wasm a property is a call into the JS engine, some 50 times a range lookup's cost.
    fn in_class(&mut self, k: usize, c: u32) -> Result<bool, OutOfSteps> {
        let Some(class) = self.c.classes.get(k) else {
            return Ok(false);
        };
        self.steps = self.steps.saturating_add(class.properties());
        if self.steps > MAX_MATCH_STEPS {
            return Err(OutOfSteps);
        }
        Ok(class.has(c))
    }

    /// Whether `Match` of program `p` is reachable from position `start`, for a pattern
    /// without back-references: then what an instruction does depends on the position
    /// alone, so each (instruction, position) needs exploring once. A search that fails
    /// leaves its bits set (they hold for any later search of the same program); one that
    /// succeeds unsets the bits it set, since some were set while an instruction on its path
    /// was still being explored.
    fn reach(&mut self, p: usize, start: usize) -> Result<bool, OutOfSteps> {
        let c = self.c;
        let Some(prog) = c.progs.get(p) else {
            return Ok(false);
        };
        let width = self.text.len() + 1;
        let mut stack = vec![(0usize, start)];
        let trail_from = self.memo.get(p).map_or(0, |m| m.trail.len());
        while let Some((mut pc, mut pos)) = stack.pop() {
            loop {
                self.step()?;
                let bit = pc * width + pos;
                let Some(m) = self.memo.get_mut(p) else {
                    return Ok(false);
                };
                let Some(word) = m.seen.get_mut(bit / 64) else {
                    break;
                };
                if *word & (1 << (bit % 64)) != 0 {
                    break;
                }
                *word |= 1 << (bit % 64);
                m.trail.push(bit);
                let Some(inst) = prog.insts.get(pc) else {
                    break;
                };
                match *inst {
                    Inst::Char(ch) => match self.read(prog.backward, pos) {
                        Some((got, next)) if got == ch => {
                            pc += 1;
                            pos = next;
                        }
                        _ => break,
                    },
                    Inst::Class(k) => match self.read(prog.backward, pos) {
                        Some((got, next)) if self.in_class(k, got)? => {
                            pc += 1;
                            pos = next;
                        }
                        _ => break,
                    },
                    Inst::Split(a, b) => {
                        stack.push((b, pos));
                        pc = a;
                    }
                    Inst::Jmp(a) => pc = a,
                    Inst::Start if pos == 0 => pc += 1,
                    Inst::End if pos == self.text.len() => pc += 1,
                    Inst::Start | Inst::End => break,
                    Inst::WordBoundary(neg) => {
                        if self.at_boundary(pos) != neg {
                            pc += 1
                        } else {
                            break;
                        }
                    }
                    Inst::Look { prog: sub, negate } => {
                        if self.look(sub, pos)? != negate {
                            pc += 1
                        } else {
                            break;
                        }
                    }
                    // Captures and the empty check change nothing about whether a pattern
                    // without back-references matches.
                    Inst::Save(_) | Inst::Clear(..) | Inst::Mark(_) | Inst::Progress(_) => pc += 1,
                    // Not compiled for this run (it is used only without back-references).
                    Inst::BackRef(_) => break,
                    Inst::Match => {
                        if let Some(m) = self.memo.get_mut(p) {
                            let undo: Vec<usize> = m.trail.drain(trail_from..).collect();
                            for bit in undo {
                                if let Some(w) = m.seen.get_mut(bit / 64) {
                                    *w &= !(1 << (bit % 64));
                                }
                            }
                        }
                        return Ok(true);
                    }
                }
            }
        }
        if let Some(m) = self.memo.get_mut(p) {
            m.trail.truncate(trail_from);
        }
        Ok(false)
    }

    /// A lookaround's answer at a position, asked once.
    fn look(&mut self, sub: usize, pos: usize) -> Result<bool, OutOfSteps> {
        match self.looks.get(sub).and_then(|l| l.get(pos)) {
            Some(1) => return Ok(true),
            Some(2) => return Ok(false),
            _ => {}
        }
        let r = self.reach(sub, pos)?;
        if let Some(slot) = self.looks.get_mut(sub).and_then(|l| l.get_mut(pos)) {
            *slot = if r { 1 } else { 2 };
        }
        Ok(r)
    }

    /// ECMA-262's backtracking, with captures, for patterns with back-references. Every
    /// instruction costs a step, so [`MAX_MATCH_STEPS`] bounds the time.
    fn backtrack(
        &mut self,
        p: usize,
        start: usize,
        slots: &mut Vec<usize>,
        regs: &mut Vec<usize>,
        stack: &mut Vec<Frame>,
    ) -> Result<bool, OutOfSteps> {
        let c = self.c;
        let Some(prog) = c.progs.get(p) else {
            return Ok(false);
        };
        let base = stack.len();
        let (mut pc, mut pos) = (0usize, start);
        loop {
            self.step()?;
            let ok = match prog.insts.get(pc) {
                None => false,
                Some(Inst::Char(ch)) => match self.read(prog.backward, pos) {
                    Some((got, next)) if got == *ch => {
                        pos = next;
                        true
                    }
                    _ => false,
                },
                Some(Inst::Class(k)) => match self.read(prog.backward, pos) {
                    Some((got, next)) if self.in_class(*k, got)? => {
                        pos = next;
                        true
                    }
                    _ => false,
                },
                Some(Inst::Split(a, b)) => {
                    stack.push(Frame::Alt(*b, pos));
                    pc = *a;
                    continue;
                }
                Some(Inst::Jmp(a)) => {
                    pc = *a;
                    continue;
                }
                Some(Inst::Start) => pos == 0,
                Some(Inst::End) => pos == self.text.len(),
                Some(Inst::WordBoundary(neg)) => self.at_boundary(pos) != *neg,
                Some(Inst::Look { prog: sub, negate }) => {
                    self.steps = self.steps.saturating_add(slots.len());
                    let saved = slots.clone();
                    let mut inner = Vec::new();
                    let found = self.backtrack(*sub, pos, slots, regs, &mut inner)?;
                    if found && !*negate {
                        // Keeps the lookaround's captures, undone if we backtrack past it.
                        stack.push(Frame::Slots(saved));
                        true
                    } else {
                        *slots = saved;
                        found != *negate
                    }
                }
                Some(Inst::Save(s)) => {
                    if let Some(v) = slots.get_mut(*s) {
                        stack.push(Frame::Slot(*s, *v));
                        *v = pos;
                    }
                    true
                }
                Some(Inst::Clear(lo, hi)) => {
                    self.steps = self.steps.saturating_add(hi.saturating_sub(*lo));
                    for s in *lo..*hi {
                        if let Some(v) = slots.get_mut(s) {
                            stack.push(Frame::Slot(s, *v));
                            *v = NONE;
                        }
                    }
                    true
                }
                Some(Inst::Mark(r)) => {
                    if let Some(v) = regs.get_mut(*r) {
                        stack.push(Frame::Reg(*r, *v));
                        *v = pos;
                    }
                    true
                }
                Some(Inst::Progress(r)) => regs.get(*r).is_some_and(|v| *v != pos),
                Some(Inst::BackRef(k)) => self.backref(prog.backward, *k, slots, &mut pos),
                Some(Inst::Match) => {
                    stack.truncate(base);
                    return Ok(true);
                }
            };
            if ok {
                pc += 1;
                continue;
            }
            // Back to the latest alternative, undoing what was recorded since.
            loop {
                if stack.len() <= base {
                    return Ok(false);
                }
                match stack.pop() {
                    Some(Frame::Alt(a, at)) => {
                        pc = a;
                        pos = at;
                        break;
                    }
                    Some(Frame::Slot(s, v)) => {
                        if let Some(x) = slots.get_mut(s) {
                            *x = v;
                        }
                    }
                    Some(Frame::Reg(r, v)) => {
                        if let Some(x) = regs.get_mut(r) {
                            *x = v;
                        }
                    }
                    Some(Frame::Slots(saved)) => *slots = saved,
                    None => return Ok(false),
                }
            }
        }
    }

    /// Matches group `k`'s capture at `pos` (backwards in a lookbehind).
    fn backref(&mut self, backward: bool, k: usize, slots: &[usize], pos: &mut usize) -> bool {
        let (Some(&s), Some(&e)) = (slots.get(2 * k), slots.get(2 * k + 1)) else {
            return true;
        };
        if s == NONE || e == NONE || e < s {
            return true;
        }
        let Some(captured) = self.text.get(s..e) else {
            return true;
        };
        let len = captured.len();
        let here = if backward {
            pos.checked_sub(len)
                .and_then(|from| self.text.get(from..*pos))
        } else {
            self.text.get(*pos..*pos + len)
        };
        if here == Some(captured) {
            // A long capture compared costs in proportion: count it.
            self.steps = self.steps.saturating_add(len);
            if backward {
                *pos -= len;
            } else {
                *pos += len;
            }
            true
        } else {
            false
        }
    }
}
