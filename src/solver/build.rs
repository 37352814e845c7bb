//! The whole tree of a game whose forward model lists its deals: a chance node over the
//! deals, then every decision of every seat, keyed by its information key.

use std::collections::HashMap;

use super::tree::{InfoSet, Node, NodeKind, Tree};
use crate::error::{Error, InputError};
use crate::games::contest::{GameDef, VariantOf};
use crate::search::Forward;
use crate::sim::{NoEvents, RoundResult};

/// The most nodes a tree may hold (a few hundred bytes each).
pub const MAX_NODES: usize = 20_000_000;

/// Walks the forward model of game `G` under `rules` from every deal.
pub fn build<G: GameDef>(rules: &VariantOf<G>) -> Result<Tree, Error> {
    let deals = <G::State as Forward>::deal_count(rules).ok_or_else(|| {
        InputError::new(format!(
            "{}: the exact tree needs a game that lists its deals (kuhn-poker, leduc-poker)",
            G::NAME
        ))
    })?;
    if deals as usize > MAX_NODES {
        return Err(InputError::new(format!("{}: {deals} deals; {TOO_LARGE}", G::NAME)).into());
    }
    let players = G::players(rules);
    let mut b = Builder::<G> {
        rules,
        players,
        tree: Tree { players, ..Tree::default() },
        sets: HashMap::new(),
        obs: Default::default(),
        legal: Vec::new(),
    };
    b.tree.nodes.push(Node {
        kind: NodeKind::Chance { probs: vec![1.0 / deals as f64; deals as usize] },
        children: Vec::new(),
    });
    let mut children = Vec::with_capacity(deals as usize);
    for d in 0..deals {
        let mut state = <G::State as Forward>::new(rules);
        let mut out = RoundResult::default();
        state.start_deal(rules, d, &mut out)?;
        children.push(b.walk(state, out)?);
    }
    b.tree.nodes[0].children = children;
    Ok(b.tree)
}

/// How a tree past [`MAX_NODES`] (or its deals alone) is refused: the words [`too_large`]
/// knows it by.
const TOO_LARGE: &str = "too large to hold whole";

/// Whether `e` is the refusal of a tree past [`MAX_NODES`]: the rules make the game too
/// large for an exact tree, and a sampled method (or a lower bound) is what is left.
pub fn too_large(e: &Error) -> bool {
    matches!(e, Error::Input(i) if i.to_string().ends_with(TOO_LARGE))
}

struct Builder<'a, G: GameDef> {
    rules: &'a VariantOf<G>,
    players: usize,
    tree: Tree,
    /// (seat, information key) to information set.
    sets: HashMap<(usize, u64), u32>,
    obs: <G::State as Forward>::Obs,
    legal: Vec<<G::State as Forward>::Move>,
}

impl<G: GameDef> Builder<'_, G> {
    fn walk(&mut self, state: G::State, out: RoundResult) -> Result<u32, Error> {
        if self.tree.nodes.len() >= MAX_NODES {
            return Err(
                InputError::new(format!("{}: the game tree passes {MAX_NODES} nodes; {TOO_LARGE}", G::NAME)).into()
            );
        }
        let at = self.tree.nodes.len() as u32;
        let Some(seat) = state.to_act() else {
            let payoffs = (0..self.players).map(|s| out.seats[s].score as f64).collect();
            self.tree.nodes.push(Node { kind: NodeKind::Terminal { payoffs }, children: Vec::new() });
            return Ok(at);
        };
        state.observe(self.rules, seat, &mut self.obs);
        let key = <G::State as Forward>::info_key(self.rules, &self.obs)
            .ok_or_else(|| InputError::new(format!("{}: the game gives no information keys", G::NAME)))?;
        state.legal(self.rules, &mut self.legal);
        let moves = self.legal.clone();
        let next = self.tree.infosets.len() as u32;
        let infoset = *self.sets.entry((seat, key)).or_insert(next);
        if infoset == next {
            self.tree.infosets.push(InfoSet { seat, actions: moves.len(), key });
        } else if self.tree.infosets[infoset as usize].actions != moves.len() {
            return Err(Error::Invariant(format!("information key {key:#x} of seat {seat} has two menus")));
        }
        self.tree.nodes.push(Node { kind: NodeKind::Decision { seat, infoset }, children: Vec::new() });
        let mut children = Vec::with_capacity(moves.len());
        for m in moves {
            let (mut child, mut child_out) = (state.clone(), out.clone());
            child.apply(self.rules, m, &mut NoEvents, &mut child_out)?;
            children.push(self.walk(child, child_out)?);
        }
        self.tree.nodes[at as usize].children = children;
        Ok(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ref_poker::{Def, Kuhn, Leduc, Rules};
    use crate::solver::best_response::{exploitability, policy_values};

    #[test]
    fn kuhn_and_leduc_have_openspiels_information_sets_and_uniform_figures() {
        let kuhn = build::<Def<Kuhn>>(&Rules::default()).unwrap();
        assert_eq!(kuhn.infosets.len(), 12);
        let u = kuhn.uniform();
        assert!((exploitability(&kuhn, &u) - 0.458333).abs() < 1e-6, "{}", exploitability(&kuhn, &u));
        let v = policy_values(&kuhn, &u);
        assert!((v[0] + v[1]).abs() < 1e-12, "zero-sum");
        let leduc = build::<Def<Leduc>>(&Rules::default()).unwrap();
        assert_eq!(leduc.infosets.len(), 936);
        let u = leduc.uniform();
        assert!((exploitability(&leduc, &u) - 2.373611).abs() < 1e-6, "{}", exploitability(&leduc, &u));
    }
}
