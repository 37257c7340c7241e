//! The feature graph: every feature of every placed part is a node; nodes join
//! incrementally (union-find) as tiles are placed. Roots carry the joined feature's
//! open sides (half-edges for a field), pennants and follower count; members form a
//! circular list.

use crate::tile::FeatureKind;

/// A node id in the feature graph.
pub type NodeId = u32;

/// One feature instance on a placed part.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    parent: NodeId,
    /// Next member of the same joined feature (circular list).
    next: NodeId,
    /// Placed part this node lies on.
    pub part: u32,
    /// Feature index within the part.
    pub local: u8,
    pub kind: FeatureKind,
    // Valid on roots only (24 bytes a node: the graph is copied with every game copy):
    /// Number of joined nodes, and [`SCORED`] once the feature was scored as complete.
    size: u32,
    /// Open sides (city, road, river) or half-edges (field) that face no tile; a joined
    /// edge or half-edge closes two.
    open: u16,
    pennants: u16,
    /// Figures standing on this feature that count as followers (occupancy).
    followers: u16,
}

/// The bit of [`Node`]'s `size` word set once the feature was scored as complete.
const SCORED: u32 = 1 << 31;

/// A count as kept in a node (at most `u16::MAX`: far beyond any board of
/// [`crate::board::MAX_TILES`] tiles).
#[inline]
fn narrow(n: u32) -> u16 {
    n.min(u16::MAX as u32) as u16
}

/// A feature node as placing its part starts it (derived from the tile data once, in
/// [`crate::catalog::Catalog::node_seeds`]).
#[derive(Clone, Copy, Debug)]
pub struct NodeSeed {
    pub kind: FeatureKind,
    /// Open sides (its sides and `also=` sides; 0 for other than city, road, river).
    pub open: u16,
    pub pennants: u16,
    /// For a field: the bit set of the cities it touches on its part (feature indices, as
    /// `FeatureDef::adj_cities`); [`NodeSeed::CITIES_LISTED`] when an index is past 31.
    pub cities: u32,
}

impl NodeSeed {
    /// [`NodeSeed::cities`] of a field whose cities must be read from its `adj_cities`.
    pub const CITIES_LISTED: u32 = u32::MAX;
}

/// Nodes with union-find.
#[derive(Debug, Default)]
pub struct Graph {
    nodes: Vec<Node>,
}

/// Written out for `clone_from` (no allocation when copying into a scratch graph).
impl Clone for Graph {
    fn clone(&self) -> Graph {
        Graph { nodes: self.nodes.clone() }
    }

    fn clone_from(&mut self, source: &Graph) {
        self.nodes.clone_from(&source.nodes);
    }
}

impl Graph {
    pub fn new() -> Self {
        Graph { nodes: Vec::new() }
    }

    /// Adds a node for one feature; returns its id.
    pub fn add(&mut self, part: u32, local: u8, kind: FeatureKind, open: u32, pennants: u32) -> NodeId {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(Node {
            parent: id,
            next: id,
            part,
            local,
            kind,
            size: 1,
            open: narrow(open),
            pennants: narrow(pennants),
            followers: 0,
        });
        id
    }

    /// Adds the nodes of one placed part's features (`seeds` in feature order).
    #[inline]
    pub fn add_seeds(&mut self, part: u32, seeds: &[NodeSeed]) {
        let first = self.nodes.len() as NodeId;
        self.nodes.extend(seeds.iter().enumerate().map(|(local, s)| {
            let id = first + local as NodeId;
            Node {
                parent: id,
                next: id,
                part,
                local: local as u8,
                kind: s.kind,
                size: 1,
                open: s.open,
                pennants: s.pennants,
                followers: 0,
            }
        }));
    }

    /// Makes room for `nodes` more nodes.
    pub fn reserve(&mut self, nodes: usize) {
        self.nodes.reserve(nodes);
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, n: NodeId) -> &Node {
        &self.nodes[n as usize]
    }

    /// The root of `n`'s joined feature.
    #[inline]
    pub fn find(&self, mut n: NodeId) -> NodeId {
        loop {
            let p = self.nodes[n as usize].parent;
            if p == n {
                return n;
            }
            n = p;
        }
    }

    /// The root of `n`, compressing the path.
    #[inline]
    pub fn find_mut(&mut self, mut n: NodeId) -> NodeId {
        loop {
            let p = self.nodes[n as usize].parent;
            if p == n {
                return n;
            }
            let gp = self.nodes[p as usize].parent;
            self.nodes[n as usize].parent = gp;
            n = gp;
        }
    }

    /// Joins the features of `a` and `b` across one edge: `closed` open sides disappear
    /// (2 for a city/road/river edge or a field half-edge). Returns the new root.
    pub fn join(&mut self, a: NodeId, b: NodeId, closed: u32) -> NodeId {
        let mut ra = self.find_mut(a);
        let mut rb = self.find_mut(b);
        if ra == rb {
            let n = &mut self.nodes[ra as usize];
            n.open = n.open.saturating_sub(narrow(closed));
            return ra;
        }
        let [mut x, mut y] = self.nodes.get_disjoint_mut([ra as usize, rb as usize]).expect("two roots");
        // The larger feature's root stays the root.
        if x.size & !SCORED < y.size & !SCORED {
            std::mem::swap(&mut ra, &mut rb);
            std::mem::swap(&mut x, &mut y);
        }
        // Sizes add; the scored bits combine.
        x.size = ((x.size & !SCORED) + (y.size & !SCORED)) | ((x.size | y.size) & SCORED);
        // Saturating: plugins may add pennants, followers and open sides of their own.
        x.open = x.open.saturating_add(y.open).saturating_sub(closed as u16);
        x.pennants = x.pennants.saturating_add(y.pennants);
        x.followers = x.followers.saturating_add(y.followers);
        y.parent = ra;
        // Splice the two circular member lists.
        std::mem::swap(&mut x.next, &mut y.next);
        ra
    }

    /// Closes `sides` open sides of `n`'s feature (a side that meets a closed side,
    /// TILES-MORE.md rule 21). Returns the root.
    pub fn close(&mut self, n: NodeId, sides: u32) -> NodeId {
        let r = self.find_mut(n);
        let o = &mut self.nodes[r as usize].open;
        *o = o.saturating_sub(narrow(sides));
        r
    }

    /// Open sides of the joined feature, half-edges for a field (0 = closed: every side or
    /// half-edge faces a placed tile).
    pub fn open(&self, n: NodeId) -> u32 {
        self.nodes[self.find(n) as usize].open as u32
    }

    pub fn pennants(&self, n: NodeId) -> u32 {
        self.nodes[self.find(n) as usize].pennants as u32
    }

    /// Followers standing in the joined feature.
    pub fn followers(&self, n: NodeId) -> u32 {
        self.nodes[self.find(n) as usize].followers as u32
    }

    /// Changes the follower count of `n`'s feature. The engine keeps it equal to the live
    /// follower figures standing on the feature (occupancy, and where a majority stops
    /// looking for strength): plugins move figures with the `State` calls instead.
    pub fn add_followers(&mut self, n: NodeId, delta: i32) {
        let r = self.find_mut(n);
        let f = &mut self.nodes[r as usize].followers;
        *f = narrow((*f as i32 + delta).max(0) as u32);
    }

    /// Number of nodes joined into `n`'s feature.
    pub fn size(&self, n: NodeId) -> u32 {
        self.nodes[self.find(n) as usize].size & !SCORED
    }

    pub fn is_scored(&self, n: NodeId) -> bool {
        self.nodes[self.find(n) as usize].size & SCORED != 0
    }

    pub fn set_scored(&mut self, n: NodeId) {
        let r = self.find_mut(n);
        self.nodes[r as usize].size |= SCORED;
    }

    /// Adds pennants to a joined feature (plugins that convert features may use it).
    pub fn add_pennants(&mut self, n: NodeId, delta: i32) {
        let r = self.find_mut(n);
        let p = &mut self.nodes[r as usize].pennants;
        *p = narrow((*p as i32 + delta).max(0) as u32);
    }

    /// The members of `n`'s joined feature.
    pub fn members(&self, n: NodeId) -> Members<'_> {
        Members { g: self, start: n, cur: n, done: false }
    }

    /// Roots of every joined feature, in node order.
    pub fn roots(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.nodes.iter().enumerate().filter(|(i, n)| n.parent == *i as NodeId).map(|(i, _)| i as NodeId)
    }
}

/// Iterator over the members of one joined feature.
pub struct Members<'a> {
    g: &'a Graph,
    start: NodeId,
    cur: NodeId,
    done: bool,
}

impl Iterator for Members<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.done {
            return None;
        }
        let c = self.cur;
        self.cur = self.g.nodes[c as usize].next;
        if self.cur == self.start {
            self.done = true;
        }
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_merges_counts_and_members() {
        let mut g = Graph::new();
        let a = g.add(0, 0, FeatureKind::City, 1, 1);
        let b = g.add(1, 0, FeatureKind::City, 2, 0);
        let c = g.add(2, 0, FeatureKind::City, 1, 1);
        g.join(a, b, 2);
        assert_eq!(g.open(a), 1);
        g.join(b, c, 2);
        assert_eq!(g.open(c), 0);
        assert_eq!(g.pennants(a), 2);
        let mut m: Vec<_> = g.members(c).collect();
        m.sort();
        assert_eq!(m, vec![a, b, c]);
        assert_eq!(g.roots().count(), 1);
    }

    #[test]
    fn a_node_is_24_bytes_and_keeps_the_scored_mark_through_joins() {
        assert_eq!(std::mem::size_of::<Node>(), 24);
        let mut g = Graph::new();
        let a = g.add(0, 0, FeatureKind::Road, 1, 0);
        let b = g.add(1, 0, FeatureKind::Road, 1, 0);
        let c = g.add(2, 0, FeatureKind::Road, 1, 0);
        g.set_scored(a);
        assert!(g.is_scored(a) && !g.is_scored(b));
        // The scored feature is the smaller one here: its mark moves to the new root.
        g.join(b, c, 0);
        g.join(a, b, 2);
        assert!(g.is_scored(c));
        assert_eq!(g.size(a), 3);
        assert_eq!(g.open(a), 1);
        g.add_followers(c, 2);
        g.add_followers(c, -5);
        assert_eq!(g.followers(a), 0);
        // Counts stop at u16::MAX, also when two full features join.
        let d = g.add(3, 0, FeatureKind::City, 1, 0);
        let e = g.add(4, 0, FeatureKind::City, 1, 0);
        g.add_pennants(d, 70_000);
        g.add_pennants(e, 70_000);
        g.join(d, e, 2);
        assert_eq!(g.pennants(d), u16::MAX as u32);
    }
}
