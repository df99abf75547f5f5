//! The core's one sort, for its few sorts (ranges of code points, member and option names,
//! the fields by name): a merge sort, a few hundred bytes of wasm per element type where each
//! `sort_unstable` or `sort_by` of std was 2 to 4 KB (its quicksort, its small-sort networks
//! and, for a stable sort, its merges). Short runs are sorted by insertion, then merged
//! pairwise through one scratch copy; a pair already in order is only copied. It takes
//! O(n log n) comparisons whatever the input, so no order a server or host chooses can slow
//! it (a heapsort, tried first, took twice the comparisons: 500 names sorted made a 500-field
//! `validateContent` some 8% slower than std's sort).

/// Sorts `v` ascending, as `sort_unstable` does (equal elements are alike, so which comes
/// first cannot be told).
pub(crate) fn sort<T: Ord + Copy>(v: &mut [T]) {
    sort_by(v, |a, b| a < b);
}

/// Elements sorted by insertion before the first merge.
const RUN: usize = 8;

/// Sorts `v` ascending by `less` (a strict weak order), stably: equal elements keep their
/// order.
pub(crate) fn sort_by<T: Copy>(v: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    for run in v.chunks_mut(RUN) {
        insertion_sort(run, &mut less);
    }
    if v.len() <= RUN {
        return;
    }
    let mut scratch = v.to_vec();
    let mut width = RUN;
    // Which of the two holds the sorted runs of `width`: `v` first.
    let mut in_v = true;
    while width < v.len() {
        if in_v {
            merge_pass(v, &mut scratch, width, &mut less);
        } else {
            merge_pass(&scratch, v, width, &mut less);
        }
        in_v = !in_v;
        width = width.saturating_mul(2);
    }
    if !in_v {
        v.copy_from_slice(&scratch);
    }
}

fn insertion_sort<T: Copy>(v: &mut [T], less: &mut impl FnMut(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && less(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Merges each pair of neighbouring sorted runs of `width` in `src` into `dst` (the same
/// length); a last run without a partner is copied.
fn merge_pass<T: Copy>(
    src: &[T],
    dst: &mut [T],
    width: usize,
    less: &mut impl FnMut(&T, &T) -> bool,
) {
    for (from, to) in src
        .chunks(width.saturating_mul(2))
        .zip(dst.chunks_mut(width.saturating_mul(2)))
    {
        let (left, right) = from.split_at(width.min(from.len()));
        // Already in order (or no right run): one copy.
        match (left.last(), right.first()) {
            (Some(l), Some(r)) if less(r, l) => {}
            _ => {
                to.copy_from_slice(from);
                continue;
            }
        }
        let (mut i, mut j) = (0, 0);
        for slot in to.iter_mut() {
            // Take from the right only when strictly less: equal elements stay in order.
            let take_right = match (left.get(i), right.get(j)) {
                (Some(l), Some(r)) => less(r, l),
                (None, _) => true,
                (Some(_), None) => false,
            };
            let next = if take_right {
                right.get(j)
            } else {
                left.get(i)
            };
            if let Some(&x) = next {
                *slot = x;
            }
            if take_right {
                j += 1;
            } else {
                i += 1;
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn sorts_as_std(mut v in proptest::collection::vec((0u32..50, 0u32..5), 0..200)) {
            let mut want = v.clone();
            want.sort_unstable();
            sort(&mut v);
            prop_assert_eq!(v, want);
        }

        #[test]
        fn sorts_names_as_std(names in proptest::collection::vec("[a-c]{0,3}", 0..100)) {
            let mut v: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut want = v.clone();
            want.sort_unstable();
            sort(&mut v);
            prop_assert_eq!(v, want);
        }

        /// Equal keys keep their order, across several merge passes.
        #[test]
        fn stable_as_std(mut v in proptest::collection::vec((0u8..6, 0u32..1000), 0..700)) {
            let mut want = v.clone();
            want.sort_by_key(|x| x.0);
            sort_by(&mut v, |a, b| a.0 < b.0);
            prop_assert_eq!(v, want);
        }

        /// With the position as the last key, as the field index sorts, the order is
        /// `sort_by`'s (stable) order.
        #[test]
        fn with_positions_as_a_stable_sort(keys in proptest::collection::vec(0u8..8, 0..200)) {
            let mut want: Vec<usize> = (0..keys.len()).collect();
            want.sort_by(|a, b| keys[*a].cmp(&keys[*b]));
            let mut v: Vec<usize> = (0..keys.len()).collect();
            sort_by(&mut v, |a, b| (keys[*a], *a) < (keys[*b], *b));
            prop_assert_eq!(v, want);
        }
    }
}
