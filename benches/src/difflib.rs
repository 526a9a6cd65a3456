//! A faithful port of the parts of CPython's `difflib.SequenceMatcher` that `ratio()` needs,
//! over Unicode code points (what iterating a Python `str` yields), with `isjunk=None` and
//! `autojunk=True`: when `b` has 200 or more elements, every element occurring more than
//! `len(b) / 100 + 1` times is "popular" and is left out of the match index (but, as in CPython,
//! matches may still be extended over popular elements, which are not junk).

use std::collections::HashMap;

/// `SequenceMatcher(None, a, b)` over code points.
#[derive(Debug, Clone)]
pub struct SequenceMatcher {
    a: Vec<char>,
    b: Vec<char>,
    /// Element of `b` -> its indices in `b`, ascending (popular elements removed).
    b2j: HashMap<char, Vec<usize>>,
}

/// One matching block: `a[a..a + size] == b[b..b + size]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Match {
    /// Start in `a`.
    pub a: usize,
    /// Start in `b`.
    pub b: usize,
    /// Length.
    pub size: usize,
}

impl SequenceMatcher {
    /// `SequenceMatcher(None, a, b)` with `autojunk=True`.
    pub fn new(a: &str, b: &str) -> Self {
        Self::with_autojunk(a, b, true)
    }

    /// `SequenceMatcher(None, a, b, autojunk=autojunk)`.
    pub fn with_autojunk(a: &str, b: &str, autojunk: bool) -> Self {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        let mut b2j: HashMap<char, Vec<usize>> = HashMap::new();
        for (i, &c) in b.iter().enumerate() {
            b2j.entry(c).or_default().push(i);
        }
        let n = b.len();
        if autojunk && n >= 200 {
            let ntest = n / 100 + 1;
            b2j.retain(|_, idxs| idxs.len() <= ntest);
        }
        SequenceMatcher { a, b, b2j }
    }

    /// `find_longest_match(alo, ahi, blo, bhi)`: the longest matching block in
    /// `a[alo..ahi]` and `b[blo..bhi]`, earliest in `a` then in `b` among equals.
    pub fn find_longest_match(&self, alo: usize, ahi: usize, blo: usize, bhi: usize) -> Match {
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0usize);
        let mut j2len: HashMap<usize, usize> = HashMap::new();
        for i in alo..ahi {
            let mut newj2len: HashMap<usize, usize> = HashMap::new();
            if let Some(js) = self.a.get(i).and_then(|c| self.b2j.get(c)) {
                for &j in js {
                    if j < blo {
                        continue;
                    }
                    if j >= bhi {
                        break;
                    }
                    let prev = if j == 0 {
                        0
                    } else {
                        j2len.get(&(j - 1)).copied().unwrap_or(0)
                    };
                    let k = prev + 1;
                    newj2len.insert(j, k);
                    if k > bestsize {
                        besti = i + 1 - k;
                        bestj = j + 1 - k;
                        bestsize = k;
                    }
                }
            }
            j2len = newj2len;
        }
        // No junk (isjunk is None), so only the first two of CPython's four extension loops can
        // do anything: they extend over equal elements, popular ones included.
        while besti > alo && bestj > blo && self.a.get(besti - 1) == self.b.get(bestj - 1) {
            besti -= 1;
            bestj -= 1;
            bestsize += 1;
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && self.a.get(besti + bestsize) == self.b.get(bestj + bestsize)
        {
            bestsize += 1;
        }
        Match {
            a: besti,
            b: bestj,
            size: bestsize,
        }
    }

    /// `get_matching_blocks()` without the trailing sentinel (adjacent blocks are not merged;
    /// that does not change their total size).
    pub fn matching_blocks(&self) -> Vec<Match> {
        let mut queue = vec![(0, self.a.len(), 0, self.b.len())];
        let mut out = Vec::new();
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let m = self.find_longest_match(alo, ahi, blo, bhi);
            if m.size > 0 {
                out.push(m);
                if alo < m.a && blo < m.b {
                    queue.push((alo, m.a, blo, m.b));
                }
                if m.a + m.size < ahi && m.b + m.size < bhi {
                    queue.push((m.a + m.size, ahi, m.b + m.size, bhi));
                }
            }
        }
        out.sort();
        out
    }

    /// `ratio()`: `2 * M / T`, `M` matched elements, `T` elements in both (1.0 when both empty).
    pub fn ratio(&self) -> f64 {
        let t = self.a.len() + self.b.len();
        if t == 0 {
            return 1.0;
        }
        let m: usize = self.matching_blocks().iter().map(|m| m.size).sum();
        2.0 * m as f64 / t as f64
    }
}

/// `difflib.SequenceMatcher(None, a, b).ratio()`.
pub fn ratio(a: &str, b: &str) -> f64 {
    SequenceMatcher::new(a, b).ratio()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LONG_A: &str = "LOT 1851-A & 1851-B, JALAN KPB 6, KAWASAN PERINDUSTRIAN BALAKONG, 43300 SERI KEMBANGAN, SELANGOR. TEL: 03-8961 8686 FAX: 03-8961 0686 GST REG NO: 001531760640 TAX INVOICE NO. 12345 CASHIER: ANNIE DATE 2018";
    const LONG_B: &str = "LOT 1851A 1851B JALAN KPB 6 KAWASAN PERINDUSTRIAN BALAKONG 43300 SERI KEMBANGAN SELANGOR TEL 038961 8686 FAX 038961 0686 GST REG NO 001531760640 TAX INVOICE NO 12345 CASHIER ANNIE DATE 2018 EXTRA WORDS HERE OK";

    /// Values computed with CPython 3.11 `difflib.SequenceMatcher(None, a, b).ratio()`.
    #[test]
    fn ratio_matches_cpython() {
        let a250 = format!("{}b", "a".repeat(250));
        let b250 = format!("{}{}", "a".repeat(100), "b".repeat(150));
        let x = format!("xxx{}", "ab".repeat(150));
        let y = format!("{}{}", "ab".repeat(120), "y".repeat(10));
        let cases: Vec<(&str, &str, f64)> = vec![
            ("abcd", "bcde", 0.75),
            ("", "", 1.0),
            ("abc", "", 0.0),
            (
                "BOOK TA K TAMAN DAYA SDN BHD",
                "BOOK TA KTAMAN DAYA SDN BND",
                0.9454545454545454,
            ),
            (
                "private Thread currentThread;",
                "private volatile Thread currentThread;",
                0.8656716417910447,
            ),
            ("qabxcd", "abycdf", 0.6666666666666666),
            ("LIEFERANT GMBH", "LIEFERANT GMBH", 1.0),
            ("KUNDEN AG MITTE", "KUNDEN AG", 0.75),
            ("MÜNCHEN", "MUENCHEN", 0.8),
            ("aaaa", "aa", 0.6666666666666666),
            ("tide", "diet", 0.25),
            ("abcabcabc", "cbacbacba", 0.4444444444444444),
            ("ПРИВАТ БАНК", "ПРИВАТБАНК", 0.9523809523809523),
            // Long `b`: autojunk drops popular characters from the index.
            (&a250, &b250, 0.3992015968063872),
            (&x, &y, 0.0),
            (LONG_A, LONG_B, 0.7874396135265701),
            (LONG_B, LONG_A, 0.7874396135265701),
        ];
        for (a, b, want) in cases {
            let got = ratio(a, b);
            assert!(
                (got - want).abs() < 1e-12,
                "ratio({a:?}, {b:?}) = {got}, CPython says {want}"
            );
        }
    }

    #[test]
    fn autojunk_can_be_disabled() {
        // CPython: SequenceMatcher(None, LONG_A, LONG_B, autojunk=False).ratio()
        let got = SequenceMatcher::with_autojunk(LONG_A, LONG_B, false).ratio();
        assert!((got - 0.9130434782608695).abs() < 1e-12, "{got}");
    }

    #[test]
    fn longest_match_prefers_earliest() {
        // CPython: SequenceMatcher(None, " abcd", "abcd abcd").find_longest_match(0, 5, 0, 9)
        // == Match(a=0, b=4, size=5)
        let m = SequenceMatcher::new(" abcd", "abcd abcd").find_longest_match(0, 5, 0, 9);
        assert_eq!(
            m,
            Match {
                a: 0,
                b: 4,
                size: 5
            }
        );
        let blocks = SequenceMatcher::new("abxcd", "abcd").matching_blocks();
        assert_eq!(
            blocks,
            vec![
                Match {
                    a: 0,
                    b: 0,
                    size: 2
                },
                Match {
                    a: 3,
                    b: 2,
                    size: 2
                }
            ]
        );
    }
}
