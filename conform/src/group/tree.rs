//! Where an edit of a string falls in its parse trees: the rules holding each
//! character, the node holding a span or touching a point, the node that grew.

use super::Place;
use iri_grammar_abnf::oracle::explain::{OracleNode, OracleTree};

/// An edit of a string, at a character index.
#[derive(Debug, Clone, Copy)]
pub(super) enum Edit {
    Delete(usize),
    Replace(usize, char),
    Insert(usize, char),
}

impl Edit {
    pub(super) fn apply(self, chars: &[char]) -> String {
        let mut v = chars.to_vec();
        match self {
            Edit::Delete(p) => {
                v.remove(p);
            }
            Edit::Replace(p, c) => v[p] = c,
            Edit::Insert(p, c) => v.insert(p, c),
        }
        v.into_iter().collect()
    }

    /// Where character `q` of the string is in the edited one (`None`: the edited
    /// character itself).
    pub(super) fn moved(self, q: usize) -> Option<usize> {
        match self {
            Edit::Delete(p) | Edit::Replace(p, _) if q == p => None,
            Edit::Delete(p) if q > p => Some(q - 1),
            Edit::Insert(p, _) if q >= p => Some(q + 1),
            _ => Some(q),
        }
    }
}

/// For each character of the tree's input, the rules that hold it, from the root,
/// with their alternatives.
pub(super) fn chains(tree: &OracleTree<'_>) -> Vec<Vec<Place>> {
    tree.input
        .char_indices()
        .map(|(b, c)| {
            let mut chain = vec![Place::of(&tree.root)];
            let mut n = &tree.root;
            while let Some(c) = n
                .children
                .iter()
                .find(|k| k.start <= b && b + c.len_utf8() <= k.end)
            {
                chain.push(Place::of(c));
                n = c;
            }
            chain
        })
        .collect()
}

/// The path (child indices from the root) of the deepest node holding `from..to`
/// (not empty).
pub(super) fn path_holding(tree: &OracleTree<'_>, from: usize, to: usize) -> Vec<usize> {
    let mut path = Vec::new();
    let mut n = &tree.root;
    while let Some(k) = n
        .children
        .iter()
        .position(|c| c.start <= from && to <= c.end)
    {
        path.push(k);
        n = &n.children[k];
    }
    path
}

pub(super) fn node_at<'t>(tree: &'t OracleTree<'_>, path: &[usize]) -> &'t OracleNode {
    path.iter().fold(&tree.root, |n, &k| &n.children[k])
}

pub(super) fn common_prefix(a: &[usize], b: &[usize]) -> Vec<usize> {
    a.iter()
        .zip(b)
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| *x)
        .collect()
}

pub(super) fn byte_of(chars: &[char], k: usize) -> usize {
    chars[..k].iter().map(|c| c.len_utf8()).sum()
}

/// The places from the root to the node at `path`.
pub(super) fn chain_to(tree: &OracleTree<'_>, path: &[usize]) -> Vec<Place> {
    let mut n = &tree.root;
    let mut chain = vec![Place::of(n)];
    for &k in path {
        n = &n.children[k];
        chain.push(Place::of(n));
    }
    chain
}

/// The path of the node that grew by the character inserted at byte `at` (of
/// `len` bytes): the deepest node of `before` whose rule spans one more character
/// in `after`, from the same start.
pub(super) fn grown(
    before: &OracleTree<'_>,
    after: &OracleTree<'_>,
    at: usize,
    len: usize,
) -> Vec<usize> {
    let mut path = Vec::new();
    let (mut n, mut m) = (&before.root, &after.root);
    while let Some(mc) = m
        .children
        .iter()
        .find(|c| c.start <= at && at + len <= c.end)
    {
        let Some(k) = n
            .children
            .iter()
            .position(|c| c.rule == mc.rule && c.start == mc.start && c.end + len == mc.end)
        else {
            break;
        };
        path.push(k);
        n = &n.children[k];
        m = mc;
    }
    path
}

/// The path of the deepest node whose span touches byte `at` (a point: where a
/// character was deleted), empty nodes included.
pub(super) fn path_at_point(tree: &OracleTree<'_>, at: usize) -> Vec<usize> {
    let mut best: Vec<usize> = Vec::new();
    let mut stack: Vec<(Vec<usize>, &OracleNode)> = vec![(Vec::new(), &tree.root)];
    while let Some((path, n)) = stack.pop() {
        if path.len() > best.len() {
            best = path.clone();
        }
        for (k, c) in n.children.iter().enumerate() {
            if c.start <= at && at <= c.end {
                let mut p = path.clone();
                p.push(k);
                stack.push((p, c));
            }
        }
    }
    best
}
