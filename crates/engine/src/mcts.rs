//! `mcts`: single-observer information-set Monte Carlo tree search (SO-ISMCTS).
//!
//! Every iteration starts from a determinization of the game as the deciding player sees
//! it ([`Game::determinize`]: the unseen tiles of the stack reshuffled within their draw
//! classes, the game's random generator reseeded), so the bot never reads the real draw
//! order. The tree is shared by all determinizations: a node's children are keyed by the
//! deciding seat, the tile drawn (for a tile placement) and the action; a child is a
//! candidate only in the determinizations where its action is legal, and UCB counts its
//! availability instead of its parent's visits. The tree spans the root's turn and the
//! next one (the next player's answer to a sampled tile); below it the position is scored
//! as if the game ended before the next tile ([`Game::end_before_placement`]: final
//! scoring of unfinished features and fields), each follower still in supply adding a few
//! points that shrink as the stack does. The reward of a seat mixes its win share and its
//! squashed margin over the best other seat. It answers any decision the engine or a
//! plugin asks (it only uses [`Game::legal_actions`] and [`Game::play_unchecked`]), and
//! it is deterministic: all randomness comes from the bot's generator, seeded from the
//! game seed and the seat.

use carcassonne_core::{Action, DecisionKind, DrawClasses, Game, Rng};

use crate::bots::Bot;
use crate::error::BotError;

/// Playouts per decision of plain `mcts` (about 10 ms per base-game turn on one core:
/// docs/performance.md).
pub const DEFAULT_PLAYOUTS: u32 = 1000;
/// Most playouts `mcts:N` accepts.
pub const MAX_PLAYOUTS: u32 = 1_000_000;
/// UCB exploration constant (rewards lie in 0..=1).
const EXPLORATION: f64 = 0.3;
/// Turns after the root's that the tree spans (1: the next player's answer).
const TREE_TURNS: u32 = 1;
/// Random turns a playout plays below the tree before the position is scored.
const PLAYOUT_TURNS: u32 = 0;
/// Points a follower in supply is worth at the start (fewer as the stack shrinks).
const FOLLOWER_POINTS: f64 = 3.0;
/// Tiles left at which a follower in supply is worth half of [`FOLLOWER_POINTS`].
const FOLLOWER_HALF_LIFE: f64 = 20.0;
/// Score margin that counts for about three quarters of the margin reward.
const MARGIN_SCALE: f64 = 20.0;
/// Share of the win in the reward (the rest is the score margin).
const WIN_WEIGHT: f64 = 0.2;
/// Decisions a playout plays at most (a safeguard: every rule set's games end sooner).
const MAX_PLAYOUT_STEPS: u32 = 20_000;

/// Key of a tree edge: who decides, the tile they place (tile placements only), the action.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Key {
    player: u8,
    tile: u16,
    action: Action,
}

struct Node {
    key: Key,
    children: Vec<u32>,
    visits: u32,
    /// Times this node's action was legal when its parent was visited.
    avail: u32,
    /// Sum of the rewards of `key.player`.
    reward: f64,
}

/// The MCTS bot: `playouts` playouts per decision.
pub struct MctsBot {
    rng: Rng,
    playouts: u32,
    playout_turns: u32,
    tree_turns: u32,
    follower_points: f64,
    exploration: f64,
    classes: Option<DrawClasses>,
    nodes: Vec<Node>,
    buf: Vec<Action>,
    path: Vec<u32>,
    has_child: Vec<bool>,
    /// The game each iteration plays on, copied from the root with `clone_from` (its
    /// vectors keep their memory between iterations).
    scratch: Option<Game>,
}

impl MctsBot {
    /// A bot drawing from `rng` that plays `playouts` playouts per decision.
    pub fn new(rng: Rng, playouts: u32) -> MctsBot {
        MctsBot {
            rng,
            playouts,
            playout_turns: PLAYOUT_TURNS,
            exploration: EXPLORATION,
            tree_turns: TREE_TURNS,
            follower_points: FOLLOWER_POINTS,
            classes: None,
            nodes: Vec::new(),
            buf: Vec::with_capacity(256),
            path: Vec::new(),
            has_child: Vec::new(),
            scratch: None,
        }
    }

    /// One iteration: determinize, select and expand in the tree, play out, back up.
    fn iterate(&mut self, root: &Game, classes: &DrawClasses) {
        let exploration = self.exploration;
        let mut g = match self.scratch.take() {
            Some(mut g) => {
                g.clone_from(root);
                g
            }
            None => root.clone(),
        };
        g.determinize(classes, &mut self.rng);
        self.path.clear();
        self.path.push(0);
        let mut node = 0usize;
        let mut expanded = false;
        let horizon = root.st.turn + self.tree_turns;
        while !expanded {
            let Some(d) = g.decision() else { break };
            if g.st.turn > horizon {
                break;
            }
            g.legal_actions(&mut self.buf);
            if self.buf.is_empty() || g.failure().is_some() {
                break;
            }
            let tile = match d.kind {
                DecisionKind::PlaceTile => g.st.tile.unwrap_or(u16::MAX),
                _ => u16::MAX,
            };
            self.has_child.clear();
            self.has_child.resize(self.buf.len(), false);
            // Children available in this determinization, and the best of them by UCB.
            let mut best: Option<(f64, u32)> = None;
            let children = std::mem::take(&mut self.nodes[node].children);
            for &c in &children {
                let k = self.nodes[c as usize].key;
                if k.player != d.player || k.tile != tile {
                    continue;
                }
                let Some(i) = self.buf.iter().position(|a| *a == k.action) else { continue };
                self.has_child[i] = true;
                let n = &mut self.nodes[c as usize];
                n.avail += 1;
                let ucb = n.reward / n.visits as f64 + exploration * ((n.avail as f64).ln() / n.visits as f64).sqrt();
                if best.is_none_or(|(b, _)| ucb > b) {
                    best = Some((ucb, c));
                }
            }
            self.nodes[node].children = children;
            let untried = self.has_child.iter().filter(|h| !**h).count();
            let (child, action) = if untried > 0 {
                let pick = self.rng.below(untried);
                let i = self.has_child.iter().enumerate().filter(|(_, h)| !**h).nth(pick).map_or(0, |(i, _)| i);
                let action = self.buf[i];
                let id = self.nodes.len() as u32;
                self.nodes.push(Node {
                    key: Key { player: d.player, tile, action },
                    children: Vec::new(),
                    visits: 0,
                    avail: 1,
                    reward: 0.0,
                });
                self.nodes[node].children.push(id);
                expanded = true;
                (id, action)
            } else {
                let Some((_, c)) = best else { break };
                (c, self.nodes[c as usize].key.action)
            };
            g.play_unchecked(action);
            node = child as usize;
            self.path.push(child);
        }
        let bonus = self.playout(&mut g);
        let rewards = rewards(&g, &bonus);
        for &n in &self.path {
            let n = &mut self.nodes[n as usize];
            n.visits += 1;
            n.reward += rewards.get(n.key.player as usize).copied().unwrap_or(0.0);
        }
        self.scratch = Some(g);
    }

    /// Uniformly random answers for `playout_turns` turns, then the game as it would end
    /// before the next tile is placed ([`Game::end_before_placement`]), any decision left
    /// declined (a pass where legal, else the first action).
    fn playout(&mut self, g: &mut Game) -> Vec<f64> {
        let last_turn = g.st.turn + self.playout_turns;
        let mut steps = 0;
        let mut bonus = vec![0.0; g.st.players];
        while g.decision().is_some() && steps < MAX_PLAYOUT_STEPS {
            steps += 1;
            if g.st.turn >= last_turn && g.st.phase == carcassonne_core::Phase::PlaceTile && g.st.pending.is_empty() {
                // Followers still in supply are worth something while tiles are left.
                let left = g.st.stack.len() as f64;
                for (seat, b) in bonus.iter_mut().enumerate() {
                    let n: u32 = g
                        .rules
                        .figure_kinds
                        .iter()
                        .enumerate()
                        .filter(|(_, k)| k.follower)
                        .map(|(i, _)| g.st.supply[seat][i] as u32)
                        .sum();
                    *b = self.follower_points * n as f64 * (left / (left + FOLLOWER_HALF_LIFE));
                }
                if g.end_before_placement() {
                    continue;
                }
            }
            let a = if g.st.turn >= last_turn {
                g.legal_actions(&mut self.buf);
                self.buf
                    .iter()
                    .position(|a| *a == Action::Pass)
                    .map_or(self.buf.first().copied(), |i| Some(self.buf[i]))
            } else {
                // Counted and located by the engine without listing every placement.
                let rng = &mut self.rng;
                g.pick_action(&mut self.buf, |n| rng.below(n))
            };
            let Some(a) = a.filter(|_| g.failure().is_none()) else {
                return bonus;
            };
            g.play_unchecked(a);
        }
        bonus
    }
}

/// Reward per seat in 0..=1: its win share (ties shared) and a squashed score margin over
/// the best other seat, weighted by [`WIN_WEIGHT`].
fn rewards(g: &Game, bonus: &[f64]) -> Vec<f64> {
    let s: Vec<f64> = g.scores().iter().zip(bonus).map(|(&s, &b)| s as f64 + b).collect();
    let best = s.iter().copied().fold(f64::MIN, f64::max);
    let winners = s.iter().filter(|&&x| x == best).count() as f64;
    (0..s.len())
        .map(|p| {
            let other = s.iter().enumerate().filter(|(q, _)| *q != p).map(|(_, v)| *v).fold(f64::MIN, f64::max);
            let win = if s[p] == best { 1.0 / winners } else { 0.0 };
            let margin = (s[p] - other) / MARGIN_SCALE;
            WIN_WEIGHT * win + (1.0 - WIN_WEIGHT) * 0.5 * (1.0 + margin.tanh())
        })
        .collect()
}

impl Bot for MctsBot {
    fn choose(&mut self, game: &Game, actions: &[Action]) -> usize {
        if actions.len() <= 1 {
            return 0;
        }
        let Some(d) = game.decision() else { return 0 };
        let classes = self.classes.get_or_insert_with(|| game.draw_classes()).clone();
        // The search plays on copies: no record log to copy with every playout.
        let root = game.clone_without_log();
        self.nodes.clear();
        self.nodes.push(Node {
            key: Key { player: d.player, tile: u16::MAX, action: Action::Pass },
            children: Vec::new(),
            visits: 0,
            avail: 0,
            reward: 0.0,
        });
        for _ in 0..self.playouts {
            self.iterate(&root, &classes);
        }
        // The most visited root action (the first of equals, in the order of `actions`).
        let root_children = &self.nodes[0].children;
        let mut best = (0u32, 0usize);
        for (i, a) in actions.iter().enumerate() {
            let visits = root_children
                .iter()
                .map(|&c| &self.nodes[c as usize])
                .find(|n| n.key.action == *a)
                .map_or(0, |n| n.visits);
            if visits > best.0 {
                best = (visits, i);
            }
        }
        best.1
    }
}

/// Parses the playouts of `mcts:N` (`None` for plain `mcts`).
pub fn parse_playouts(arg: Option<&str>) -> Result<u32, BotError> {
    let Some(n) = arg else { return Ok(DEFAULT_PLAYOUTS) };
    match n.parse::<u32>() {
        Ok(0) => Err(BotError::Playouts("mcts:0: the number of playouts must be at least 1".into())),
        Ok(v) if v > MAX_PLAYOUTS => Err(BotError::Playouts(format!("mcts:{n}: at most {MAX_PLAYOUTS} playouts"))),
        Ok(v) => Ok(v),
        Err(_) => {
            Err(BotError::Playouts(format!("mcts:{n}: expected mcts:N with N a number of playouts (e.g. mcts:200)")))
        }
    }
}
