//! Bots that answer decisions: `random` (uniform), `greedy` (most points now) and `mcts`
//! (tree search over sampled draw orders, [`crate::mcts`]).

use carcassonne_core::{Action, Game, Rng};

use crate::error::BotError;
use crate::mcts::{parse_playouts, MctsBot};

/// A player program.
pub trait Bot: Send {
    /// Index into `actions` (never empty) of the chosen action.
    fn choose(&mut self, game: &Game, actions: &[Action]) -> usize;

    /// Whether the bot's choice depends only on how many legal actions there are: the
    /// driver then asks [`Bot::choose_by_count`] instead, and the engine need not list the
    /// actions ([`Game::pick_action`]).
    fn by_count(&self) -> bool {
        false
    }

    /// The index (below `n`) a [`Bot::by_count`] bot chooses among `n` legal actions: the
    /// one [`Bot::choose`] would give for a list of `n`. Asked of other bots, the first.
    fn choose_by_count(&mut self, n: usize) -> usize {
        let _ = n;
        0
    }
}

/// Bot names `--bots` accepts.
pub const BOT_NAMES: &[&str] = &["random", "greedy", "mcts", "mcts:N"];

/// Uniform over the legal actions.
pub struct RandomBot(pub Rng);

impl Bot for RandomBot {
    fn choose(&mut self, _game: &Game, actions: &[Action]) -> usize {
        self.0.below(actions.len())
    }

    fn by_count(&self) -> bool {
        true
    }

    fn choose_by_count(&mut self, n: usize) -> usize {
        self.0.below(n)
    }
}

/// The action that gains the most points for its player: the points it scores now (its
/// own score minus the best opponent's, once the rest of the turn is passed) plus the
/// points it would bring if the game ended before the next tile (the same margin after
/// final scoring: followers on unfinished features, farmers); ties by seeded choice. It
/// tries each action on a copy of the game whose random generator is reseeded from the
/// bot's own (the same for every action of one choice), so that it cannot foresee a random
/// draw (a shepherd's token, a shuffle) that the action would bring.
pub struct GreedyBot(pub Rng);

/// Decisions a greedy evaluation answers at most after ending the game early.
const MAX_EVAL_STEPS: u32 = 10_000;

impl GreedyBot {
    /// The value of `a` in `game` (which has no log), played on `g`.
    fn value(game: &Game, g: &mut Game, a: Action, me: u8, seed: u64, buf: &mut Vec<Action>) -> i64 {
        g.clone_from(game);
        g.st.rng = Rng::new(seed);
        let before = margin(g, me);
        g.play_unchecked(a);
        let turn = game.st.turn;
        // Finish this player's part of the turn by declining what is left.
        while let Some(d) = g.decision() {
            if g.st.turn != turn || d.player != me {
                break;
            }
            decline(g, buf);
        }
        let now = margin(g, me);
        // Then the game as it would end before the next tile is placed.
        let mut steps = 0;
        while g.decision().is_some() && steps < MAX_EVAL_STEPS {
            if !g.end_before_placement() {
                decline(g, buf);
            }
            steps += 1;
        }
        2 * (now - before) + (margin(g, me) - now)
    }
}

/// Answers the current decision with a pass if legal, else the first legal action.
fn decline(g: &mut Game, buf: &mut Vec<Action>) {
    g.legal_actions(buf);
    if buf.is_empty() {
        g.st.fail("no legal action");
        return;
    }
    let pick = buf.iter().position(|x| *x == Action::Pass).unwrap_or(0);
    g.play_unchecked(buf[pick]);
}

fn margin(g: &Game, me: u8) -> i64 {
    let s = g.scores();
    let best_other = s.iter().enumerate().filter(|(i, _)| *i != me as usize).map(|(_, v)| *v).max().unwrap_or(0);
    s[me as usize] as i64 - best_other as i64
}

impl Bot for GreedyBot {
    fn choose(&mut self, game: &Game, actions: &[Action]) -> usize {
        let me = game.decision().map_or(0, |d| d.player);
        let seed = self.0.next_u64();
        let mut best = i64::MIN;
        let mut ties: Vec<usize> = Vec::new();
        let mut buf = Vec::new();
        // Copies without the record log; each action is tried on the same scratch game.
        let root = game.clone_without_log();
        let mut scratch = root.clone();
        for (i, &a) in actions.iter().enumerate() {
            let v = Self::value(&root, &mut scratch, a, me, seed, &mut buf);
            if v > best {
                best = v;
                ties.clear();
            }
            if v == best {
                ties.push(i);
            }
        }
        ties[self.0.below(ties.len())]
    }
}

/// Makes bot `name` (`random`, `greedy`, `mcts` or `mcts:N`) for `seat`, seeded from the
/// game seed.
pub fn make_bot(name: &str, seed: u64, seat: usize) -> Result<Box<dyn Bot>, BotError> {
    let rng = Rng::new(Rng::derive(seed, 0xB07_0000 + seat as u64));
    match name {
        "random" => Ok(Box::new(RandomBot(rng))),
        "greedy" => Ok(Box::new(GreedyBot(rng))),
        "mcts" => Ok(Box::new(MctsBot::new(rng, parse_playouts(None)?))),
        n if n.starts_with("mcts:") => Ok(Box::new(MctsBot::new(rng, parse_playouts(Some(&n[5..]))?))),
        other => Err(BotError::Unknown { name: other.to_string(), known: BOT_NAMES.join(", ") }),
    }
}
