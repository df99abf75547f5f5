//! The core's one sort, for its few sorts (ranges of code points, member and option names,
//! the fields by name): a heapsort, a few hundred bytes of wasm per element type where each
//! `sort_unstable` or `sort_by` of std was 2 to 4 KB (its quicksort, its small-sort networks
//! and, for a stable sort, its merges). It takes n log n comparisons whatever the input, so
//! no input a server or host chooses can slow it, and sorts in place.

/// Sorts `v` ascending, as `sort_unstable` does (equal elements are alike, so which comes
/// first cannot be told).
pub(crate) fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, |a, b| a < b);
}

/// Sorts `v` ascending by `less` (a strict total order, or equal elements may come in any
/// order: not stable).
pub(crate) fn sort_by<T>(v: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    let n = v.len();
    // A max-heap first, then the largest left moves to the end, one at a time.
    for root in (0..n / 2).rev() {
        sift_down(v, root, n, &mut less);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift_down(v, 0, end, &mut less);
    }
}

/// Moves `v[root]` down the heap `v[..end]` until neither child is greater.
fn sift_down<T>(v: &mut [T], mut root: usize, end: usize, less: &mut impl FnMut(&T, &T) -> bool) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        // Both indices are below `end`, which is at most `v.len()`.
        if child + 1 < end && less(&v[child], &v[child + 1]) {
            child += 1;
        }
        if !less(&v[root], &v[child]) {
            return;
        }
        v.swap(root, child);
        root = child;
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
