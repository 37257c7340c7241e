//! Means with 95% confidence intervals (Student's t), as `compare` reports them
//! (docs/compare.md).

use serde::{Deserialize, Serialize};

/// A sample mean with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MeanCi {
    pub mean: f64,
    /// Sample standard deviation (n - 1 in the denominator; 0 for one value).
    pub sd: f64,
    pub n: u64,
    /// Lower and upper end of the 95% interval `mean -+ t(0.975, n-1) * sd / sqrt(n)`.
    pub low: f64,
    pub high: f64,
}

impl MeanCi {
    /// Mean and interval of `xs` (an empty sample gives zeros).
    pub fn of(xs: &[f64]) -> MeanCi {
        let n = xs.len();
        if n == 0 {
            return MeanCi { mean: 0.0, sd: 0.0, n: 0, low: 0.0, high: 0.0 };
        }
        let mean = xs.iter().sum::<f64>() / n as f64;
        if n == 1 {
            return MeanCi { mean, sd: 0.0, n: 1, low: mean, high: mean };
        }
        let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        let sd = var.sqrt();
        let half = t975(n as f64 - 1.0) * sd / (n as f64).sqrt();
        MeanCi { mean, sd, n: n as u64, low: mean - half, high: mean + half }
    }

    /// The interval cut to `lo..=hi` (a share's interval stays within 0..=1).
    pub fn clamped(mut self, lo: f64, hi: f64) -> MeanCi {
        self.low = self.low.clamp(lo, hi);
        self.high = self.high.clamp(lo, hi);
        self
    }

    /// Whether the interval excludes 0 (a significant difference, for a difference).
    pub fn excludes_zero(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom (two-sided 95%): the
/// table's values (4 decimals) up to 30 degrees, then Hill's expansion of the normal
/// quantile in 1/df (within 1e-4 of the tables there).
pub fn t975(df: f64) -> f64 {
    const TABLE: [f64; 30] = [
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010, 2.1788, 2.1604,
        2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518,
        2.0484, 2.0452, 2.0423,
    ];
    if df < 30.5 {
        return TABLE[(df.round().max(1.0) as usize) - 1];
    }
    let z: f64 = 1.959_963_985;
    let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
    let g1 = (z3 + z) / 4.0;
    let g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
    let g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
    let g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92160.0;
    z + g1 / df + g2 / df.powi(2) + g3 / df.powi(3) + g4 / df.powi(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_match_the_tables() {
        // Tables of Student's t, two-sided 95%.
        for (df, t) in [
            (3.0, 3.1824),
            (10.0, 2.2281),
            (31.0, 2.0395),
            (40.0, 2.0211),
            (60.0, 2.0003),
            (99.0, 1.9842),
            (120.0, 1.9799),
            (1e6, 1.9600),
        ] {
            assert!((t975(df) - t).abs() < 2e-4, "df {df}: {} vs {t}", t975(df));
        }
    }
}
