//! The feature graph: every feature of every placed part is a node; nodes join
//! incrementally (union-find) as tiles are placed. Roots carry the joined feature's
//! open sides, pennants and follower count; members form a circular list.

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
    // Valid on roots only:
    size: u32,
    /// Open sides (city, road, river); a joined edge closes two.
    open: u32,
    pennants: u32,
    /// Figures standing on this feature that count as followers (occupancy).
    followers: u32,
    /// Set once the feature was scored as complete.
    scored: bool,
}

/// A feature node as placing its part starts it (derived from the tile data once, in
/// [`crate::catalog::Catalog::node_seeds`]).
#[derive(Clone, Copy, Debug)]
pub struct NodeSeed {
    pub kind: FeatureKind,
    /// Open sides (its sides and `also=` sides; 0 for other than city, road, river).
    pub open: u32,
    pub pennants: u32,
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
            open,
            pennants,
            followers: 0,
            scored: false,
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
                scored: false,
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
    /// (2 for a city/road/river edge, 0 for fields). Returns the new root.
    pub fn join(&mut self, a: NodeId, b: NodeId, closed: u32) -> NodeId {
        let mut ra = self.find_mut(a);
        let mut rb = self.find_mut(b);
        if ra == rb {
            let n = &mut self.nodes[ra as usize];
            n.open -= closed.min(n.open);
            return ra;
        }
        let [mut x, mut y] = self.nodes.get_disjoint_mut([ra as usize, rb as usize]).expect("two roots");
        // The larger feature's root stays the root.
        if x.size < y.size {
            std::mem::swap(&mut ra, &mut rb);
            std::mem::swap(&mut x, &mut y);
        }
        x.size += y.size;
        x.open = (x.open + y.open).saturating_sub(closed);
        x.pennants += y.pennants;
        x.followers += y.followers;
        x.scored |= y.scored;
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
        *o = o.saturating_sub(sides);
        r
    }

    /// Open sides of the joined feature (0 = closed, for cities, roads, rivers).
    pub fn open(&self, n: NodeId) -> u32 {
        self.nodes[self.find(n) as usize].open
    }

    pub fn pennants(&self, n: NodeId) -> u32 {
        self.nodes[self.find(n) as usize].pennants
    }

    /// Followers standing in the joined feature.
    pub fn followers(&self, n: NodeId) -> u32 {
        self.nodes[self.find(n) as usize].followers
    }

    pub fn add_followers(&mut self, n: NodeId, delta: i32) {
        let r = self.find_mut(n);
        let f = &mut self.nodes[r as usize].followers;
        *f = (*f as i32 + delta).max(0) as u32;
    }

    /// Number of nodes joined into `n`'s feature.
    pub fn size(&self, n: NodeId) -> u32 {
        self.nodes[self.find(n) as usize].size
    }

    pub fn is_scored(&self, n: NodeId) -> bool {
        self.nodes[self.find(n) as usize].scored
    }

    pub fn set_scored(&mut self, n: NodeId) {
        let r = self.find_mut(n);
        self.nodes[r as usize].scored = true;
    }

    /// Adds pennants to a joined feature (plugins that convert features may use it).
    pub fn add_pennants(&mut self, n: NodeId, delta: i32) {
        let r = self.find_mut(n);
        let p = &mut self.nodes[r as usize].pennants;
        *p = (*p as i32 + delta).max(0) as u32;
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
}
