//! Lookups over server-sized lists of names (`required`, choices, field names): by sorting
//! with the core's own merge sort, so no choice of names can degrade them (a hash set on
//! wasm32 is seeded from memory addresses, which a server can predict), and no B-tree's code
//! in the wasm. Cheap when small, which the lists mostly are.

/// Up to this many names, a list is searched in order (at most 16 comparisons a lookup);
/// beyond, it is sorted (log n comparisons).
pub(crate) const SMALL: usize = 16;

/// For each name, the place of the first name equal to it (its own place when it is the
/// first). O(n log n) comparisons whatever the names.
pub(crate) fn first_places(names: &[&str]) -> Vec<usize> {
    let mut out: Vec<usize> = (0..names.len()).collect();
    if names.len() <= SMALL {
        for (i, name) in names.iter().enumerate() {
            if let (Some(first), Some(slot)) =
                (names.iter().position(|n| n == name), out.get_mut(i))
            {
                *slot = first;
            }
        }
        return out;
    }
    let mut pairs: Vec<(&str, usize)> = names.iter().copied().zip(0..).collect();
    // Stable: equal names stay in the order they came, so each run starts at the first.
    crate::sort::sort_by(&mut pairs, |a, b| a.0 < b.0);
    let mut run_first = 0;
    for (k, &(name, i)) in pairs.iter().enumerate() {
        let starts_run = k == 0 || pairs.get(k - 1).is_some_and(|p| p.0 != name);
        if starts_run {
            run_first = i;
        }
        if let Some(slot) = out.get_mut(i) {
            *slot = run_first;
        }
    }
    out
}

/// The place of the first name that repeats an earlier one.
pub(crate) fn first_repeat(names: &[&str]) -> Option<usize> {
    if names.len() <= SMALL {
        return (0..names.len()).find(|&i| {
            names
                .get(i)
                .is_some_and(|name| names.iter().take(i).any(|n| n == name))
        });
    }
    first_places(names)
        .into_iter()
        .enumerate()
        .find(|&(i, first)| first != i)
        .map(|(i, _)| i)
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
    use std::collections::BTreeMap;

    #[test]
    fn small_and_large_lists_answer_as_a_tree_does() {
        for n in [1, 3, SMALL, SMALL + 1, 200] {
            for spread in [1, 2, 7, n] {
                let owned: Vec<String> = (0..n)
                    .map(|i| format!("n{}", (i * 7919) % spread))
                    .collect();
                let names: Vec<&str> = owned.iter().map(String::as_str).collect();
                let mut tree: BTreeMap<&str, usize> = BTreeMap::new();
                let mut want_repeat = None;
                let want: Vec<usize> = names
                    .iter()
                    .enumerate()
                    .map(|(i, name)| {
                        let first = *tree.entry(name).or_insert(i);
                        if first != i && want_repeat.is_none() {
                            want_repeat = Some(i);
                        }
                        first
                    })
                    .collect();
                assert_eq!(first_places(&names), want, "{n} {spread}");
                assert_eq!(first_repeat(&names), want_repeat, "{n} {spread}");
                let fixed = Names::new(names.iter().copied());
                for probe in ["n0", "n1", "nope", "n199"] {
                    assert_eq!(
                        fixed.contains(probe),
                        tree.contains_key(probe),
                        "{n} {probe}"
                    );
                }
            }
        }
    }
}
