//! Candidate figure placements asked about in lists: a plugin that offers many placements
//! off the placed tile (the portal's followers, the shepherd through a portal) gathers them
//! with the question each must pass (one key, e.g. `portal_target`), and every plugin
//! answers a list at once ([`Rules::verdicts`], then [`Rules::allow_figures`] for the
//! placements left) instead of once per candidate.

use crate::plugin::{FigurePlacement, Query};
use crate::rules::{Rules, VERDICT_BATCH};
use crate::state::State;

/// Up to [`VERDICT_BATCH`] candidate placements of seat `player`, in the order they were
/// added: each is the question asked about it (its `kind`, `part` and `node` are the
/// placement's) and the feature index the action names.
pub struct FigureBatch {
    player: u8,
    /// The verdict of a question no plugin answers.
    default: bool,
    qs: [Query; VERDICT_BATCH],
    locals: [u8; VERDICT_BATCH],
    len: usize,
}

impl FigureBatch {
    /// An empty batch for `player`'s placements; `default`: the verdict when no plugin answers.
    pub fn new(player: u8, default: bool) -> FigureBatch {
        FigureBatch { player, default, qs: [Query::NONE; VERDICT_BATCH], locals: [0; VERDICT_BATCH], len: 0 }
    }

    /// Adds the candidate asked `q` (a figure of kind `q.kind` on `q.node` of part `q.part`,
    /// feature `local`); every question of a batch has one key. True when the batch is full
    /// ([`FigureBatch::flush`] it before adding more).
    pub fn add(&mut self, q: Query, local: u8) -> bool {
        debug_assert!(q.kind.is_some() && q.part.is_some(), "a placement's kind and part");
        self.qs[self.len] = q;
        self.locals[self.len] = local;
        self.len += 1;
        self.len == VERDICT_BATCH
    }

    /// Calls `each` with every candidate whose question's verdict is yes and that every
    /// plugin allows (with its feature index), in the order added, and empties the batch.
    #[inline(never)]
    pub fn flush(&mut self, rules: &Rules, st: &State, mut each: impl FnMut(&FigurePlacement, u8)) {
        if self.len == 0 {
            return;
        }
        let qs = &self.qs[..self.len];
        let ok = rules.verdicts(st, qs, if self.default { u64::MAX } else { 0 });
        let none = FigurePlacement { player: self.player, kind: 0, part: 0, node: None };
        let (mut cands, mut allowed, mut locals) = ([none; VERDICT_BATCH], [true; VERDICT_BATCH], [0; VERDICT_BATCH]);
        let mut n = 0;
        for (i, q) in qs.iter().enumerate() {
            if let (true, Some(kind), Some(part)) = (ok & (1 << i) != 0, q.kind, q.part) {
                cands[n] = FigurePlacement { player: self.player, kind, part, node: q.node };
                locals[n] = self.locals[i];
                n += 1;
            }
        }
        rules.allow_figures(st, &cands[..n], &mut allowed[..n]);
        for ((c, &local), _) in cands[..n].iter().zip(&locals).zip(&allowed).filter(|(_, ok)| **ok) {
            each(c, local);
        }
        self.len = 0;
    }
}
