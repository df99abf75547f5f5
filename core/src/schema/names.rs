//! Sets of names for the lookups over server-sized lists (`required`, choices, field names):
//! ordered, so no choice of keys can degrade them (a hash set on wasm32 is seeded from
//! memory addresses, which a server can predict), and cheap when small, which they mostly
//! are: a tree costs an allocation per node and was a tenth of a one-shot `validateContent`.

use std::collections::BTreeSet;

/// Up to this many names, a set is a plain list searched in order (at most 16 comparisons a
/// lookup); beyond, an ordered tree or a sorted list (log n comparisons).
const SMALL: usize = 16;

/// Names met one by one, telling whether each was met before (choices, picks).
pub(crate) enum Seen<'a> {
    Few(Vec<&'a str>),
    Many(BTreeSet<&'a str>),
}

impl<'a> Seen<'a> {
    pub(crate) fn new() -> Self {
        Seen::Few(Vec::new())
    }

    /// Adds `name`; false if it was there already (as `BTreeSet::insert`).
    pub(crate) fn insert(&mut self, name: &'a str) -> bool {
        match self {
            Seen::Few(list) => {
                if list.contains(&name) {
                    return false;
                }
                if list.len() < SMALL {
                    list.push(name);
                } else {
                    // One insert at a time: `collect` would sort first, with a sort of
                    // its own (std's stable sort, some 3 KB of wasm).
                    let mut set = BTreeSet::new();
                    for n in list.drain(..).chain([name]) {
                        set.insert(n);
                    }
                    *self = Seen::Many(set);
                }
                true
            }
            Seen::Many(set) => set.insert(name),
        }
    }
}

/// A fixed set of names, asked many times (the properties, the fields, the options): sorted
/// once, then searched by halves.
pub(crate) struct Names<'a>(Vec<&'a str>);

impl<'a> Names<'a> {
    pub(crate) fn new(names: impl Iterator<Item = &'a str>) -> Self {
        let mut list: Vec<&'a str> = names.collect();
        if list.len() > SMALL {
            crate::sort::sort(&mut list);
        }
        Names(list)
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        if self.0.len() > SMALL {
            self.0.binary_search(&name).is_ok()
        } else {
            self.0.contains(&name)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_sets_answer_alike() {
        for n in [3, SMALL, SMALL + 1, 200] {
            let names: Vec<String> = (0..n).map(|i| format!("n{}", i % (n / 2 + 1))).collect();
            let mut seen = Seen::new();
            let mut tree = BTreeSet::new();
            for name in &names {
                assert_eq!(seen.insert(name), tree.insert(name.as_str()), "{n} {name}");
            }
            let fixed = Names::new(names.iter().map(String::as_str));
            for probe in ["n0", "n1", "nope", "n199"] {
                assert_eq!(fixed.contains(probe), tree.contains(probe), "{n} {probe}");
            }
        }
    }
}
