//! A game in which some players' strategies are fixed.

use super::{Game, Player};

/// `game` with the players marked in `fixed` playing `strategy`: at their turns the only
/// legal move is the strategy's. The others keep all their moves, so the engine's
/// searches over this game range over their strategies against the fixed ones (best
/// replies, reachable outcomes).
pub struct Fixed<'g, G, F> {
    game: &'g G,
    fixed: Vec<bool>,
    strategy: F,
}

impl<'g, G: Game, F> Fixed<'g, G, F>
where
    F: Fn(&G::State, Player) -> G::Move + Sync,
{
    /// Fixes the players in `fixed` (by index) to `strategy`.
    pub fn new(game: &'g G, fixed: &[Player], strategy: F) -> Self {
        let mut mask = vec![false; game.players()];
        for &p in fixed {
            mask[p] = true;
        }
        Fixed {
            game,
            fixed: mask,
            strategy,
        }
    }
}

impl<G: Game, F> Game for Fixed<'_, G, F>
where
    F: Fn(&G::State, Player) -> G::Move + Sync,
{
    type State = G::State;
    type Move = G::Move;
    type Payoff = G::Payoff;

    fn players(&self) -> usize {
        self.game.players()
    }
    fn root(&self) -> G::State {
        self.game.root()
    }
    fn to_move(&self, state: &G::State) -> Option<Player> {
        self.game.to_move(state)
    }
    fn moves(&self, state: &G::State, out: &mut Vec<G::Move>) {
        match self.game.to_move(state) {
            Some(p) if self.fixed.get(p) == Some(&true) => out.push((self.strategy)(state, p)),
            _ => self.game.moves(state, out),
        }
    }
    fn play(&self, state: &G::State, mv: &G::Move) -> G::State {
        self.game.play(state, mv)
    }
    fn add_move_payoffs(&self, state: &G::State, mv: &G::Move, acc: &mut [G::Payoff]) {
        self.game.add_move_payoffs(state, mv, acc)
    }
    fn mover_payoff(&self, state: &G::State, mv: &G::Move, mover: Player) -> G::Payoff {
        self.game.mover_payoff(state, mv, mover)
    }
    fn probability(&self, state: &G::State, mv: &G::Move) -> G::Payoff {
        self.game.probability(state, mv)
    }
    fn probabilities(&self, state: &G::State, moves: &[G::Move], out: &mut Vec<G::Payoff>) {
        self.game.probabilities(state, moves, out)
    }
    fn terminal_payoff(&self, state: &G::State, player: Player) -> G::Payoff {
        self.game.terminal_payoff(state, player)
    }
    fn state_id(&self, state: &G::State) -> Option<usize> {
        self.game.state_id(state)
    }
    fn player_name(&self, player: Player) -> String {
        self.game.player_name(player)
    }
    fn move_label(&self, state: &G::State, mv: &G::Move) -> String {
        self.game.move_label(state, mv)
    }
    fn payoff_text(&self, payoff: &G::Payoff) -> String {
        self.game.payoff_text(payoff)
    }
    fn state_text(&self, state: &G::State) -> String {
        self.game.state_text(state)
    }
}
