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

/// The 97.5% quantile of Student's t with `df` degrees of freedom (two-sided 95%):
/// Hill's expansion of the normal quantile in 1/df (error below 1e-4 for df >= 3; the
/// exact values for df 1 and 2).
pub fn t975(df: f64) -> f64 {
    if df < 1.5 {
        return 12.706_204_736;
    }
    if df < 2.5 {
        return 4.302_652_730;
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
        for (df, t) in [(3.0, 3.182), (5.0, 2.571), (10.0, 2.228), (30.0, 2.042), (99.0, 1.984), (1e6, 1.960)] {
            assert!((t975(df) - t).abs() < 1e-3, "df {df}: {} vs {t}", t975(df));
        }
    }
}
