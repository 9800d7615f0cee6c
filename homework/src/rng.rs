//! Where a problem's numbers come from: a student's name or id becomes a seed, and a seed, the
//! chapter, the level and the attempt become a stream of draws. Both are plain integer
//! arithmetic, so the CLI and the page's wasm draw the very same problem.

/// The largest seed, plus one: seeds stay short enough to read out and type (nine digits).
pub const SEEDS: u64 = 1_000_000_000;

/// The seed of a student's name or id: FNV-1a over its words (case and spacing ignored), so
/// "Ada Lovelace" and " ada  lovelace" get the same problems.
pub fn seed_of(student: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut first = true;
    for word in student.split_whitespace() {
        let bytes = if first { None } else { Some(b' ') };
        first = false;
        for byte in bytes.into_iter().chain(word.bytes().map(|b| b.to_ascii_lowercase())) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash % SEEDS
}

/// SplitMix64 (Steele, Lea and Flood, OOPSLA 2014), as the kernel's seeded workloads use.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The stream of one problem: everything that tells problems apart is mixed into the state.
    /// Each part goes through the whole mix before the next comes in: with the state only
    /// advanced between parts, XOR and addition let neighbours trade bits (seed 1's first draw
    /// was seed 2's retry), and classmates got the same problem.
    pub fn new(parts: &[u64]) -> Rng {
        let mut rng = Rng(0x6a09_e667_f3bc_c909);
        for &p in parts {
            rng.0 ^= p;
            rng.0 = rng.next_u64();
        }
        rng
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// One of `items`. The draw is reduced as a u64: cast to `usize` first, it would lose its
    /// high half on wasm32 and the page would pick otherwise than the CLI.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next_u64() % items.len() as u64) as usize]
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next_u64() % den < num
    }

    /// `count` distinct values of `lo..=hi`, in draw order.
    pub fn distinct(&mut self, count: usize, lo: u64, hi: u64) -> alloc::vec::Vec<u64> {
        let mut out = alloc::vec::Vec::new();
        while out.len() < count {
            let v = self.range(lo, hi);
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_gives_one_seed_however_it_is_typed() {
        assert_eq!(seed_of("Ada Lovelace"), seed_of("  ada   LOVELACE "));
        assert_ne!(seed_of("Ada Lovelace"), seed_of("Ada Byron"));
        assert!(seed_of("x") < SEEDS);
        // Pinned: the page and the CLI must agree on it forever, or an instructor's regenerated
        // problems would not be the student's.
        assert_eq!(seed_of("Ada Lovelace"), 526_076_766);
    }

    #[test]
    fn neighbouring_seeds_and_retries_get_streams_of_their_own() {
        let mut seen = alloc::collections::BTreeSet::new();
        for chapter in 0..8 {
            for level in 0..3 {
                for seed in 0..64 {
                    for attempt in 0..24 {
                        assert!(seen.insert(Rng::new(&[chapter, level, seed, attempt]).next_u64()), "{chapter} {level} {seed} {attempt}");
                    }
                }
            }
        }
    }

    #[test]
    fn draws_are_in_range_and_repeat() {
        let (mut a, mut b) = (Rng::new(&[1, 2, 3]), Rng::new(&[1, 2, 3]));
        for _ in 0..1000 {
            let v = a.range(3, 7);
            assert!((3..=7).contains(&v));
            assert_eq!(v, b.range(3, 7));
        }
        assert_ne!(Rng::new(&[1, 2, 3]).next_u64(), Rng::new(&[1, 2, 4]).next_u64());
        let d = Rng::new(&[9]).distinct(5, 1, 5);
        assert_eq!({ let mut s = d.clone(); s.sort(); s }, [1, 2, 3, 4, 5]);
    }
}
