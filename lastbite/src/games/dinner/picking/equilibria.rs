//! Every subgame-perfect equilibrium *allocation* of a dinner, for questions about all
//! equilibria that their score vectors cannot answer (is every equilibrium allocation of
//! round-robin EF1? Envy depends on who holds which morsel, not only on the scores).
//!
//! The engine's all-outcomes rule ([`engine::all_outcomes`]) runs on the dinner game with
//! one more payoff coordinate per morsel: who ate it (the eater's number plus one). Those
//! coordinates belong to no player who moves, so they never decide a choice; they only
//! keep apart equilibria whose scores agree and whose allocations differ.

use crate::engine::{self, Budget, Game, Player};
use crate::games::dinner::model::DinnerError;
use crate::games::dinner::model::Setup;
use crate::games::dinner::solver::game::DinnerGame;

/// The dinner game whose payoff vectors carry, after the players' scores, each morsel's
/// eater.
struct Eaters<'a> {
    inner: DinnerGame<'a, i128>,
    players: usize,
    morsels: usize,
}

impl Game for Eaters<'_> {
    type State = u64;
    type Move = usize;
    type Payoff = i128;

    fn players(&self) -> usize {
        self.players + self.morsels
    }
    fn root(&self) -> u64 {
        self.inner.root()
    }
    fn to_move(&self, state: &u64) -> Option<Player> {
        self.inner.to_move(state)
    }
    fn moves(&self, state: &u64, out: &mut Vec<usize>) {
        self.inner.moves(state, out)
    }
    fn play(&self, state: &u64, mv: &usize) -> u64 {
        self.inner.play(state, mv)
    }
    fn add_move_payoffs(&self, state: &u64, mv: &usize, acc: &mut [i128]) {
        self.inner
            .add_move_payoffs(state, mv, &mut acc[..self.players]);
        if let Some(p) = self.inner.to_move(state) {
            acc[self.players + mv] += p as i128 + 1;
        }
    }
    fn mover_payoff(&self, state: &u64, mv: &usize, mover: Player) -> i128 {
        self.inner.mover_payoff(state, mv, mover)
    }
    fn terminal_payoff(&self, state: &u64, player: Player) -> i128 {
        if player < self.players {
            self.inner.terminal_payoff(state, player)
        } else {
            0
        }
    }
}

/// The distinct allocations (each player's morsels, increasing) of every pure
/// subgame-perfect equilibrium, in the engine's order of their outcome vectors; `budget`
/// counts the states held.
///
/// ```
/// use lastbite::engine::Budget;
/// use lastbite::games::dinner::{picking::equilibria::spe_allocations, Dinner, Rules, Setup, TurnOrder};
/// // Alice is indifferent between the morsels; Bob is not and moves second.
/// let d = Dinner::from_morsels("1,2 1,1").unwrap();
/// let order = TurnOrder::parse("AB", &d).unwrap();
/// let setup = Setup::new(d, order, Rules::default()).unwrap();
/// let all = spe_allocations(&setup, Budget::default()).unwrap();
/// assert_eq!(all.len(), 2);
/// assert!(all.contains(&vec![vec![0], vec![1]]) && all.contains(&vec![vec![1], vec![0]]));
/// ```
pub fn spe_allocations(setup: &Setup, budget: Budget) -> Result<Vec<Vec<Vec<usize>>>, DinnerError> {
    let d = setup.dinner();
    let inner = DinnerGame::<i128>::new(setup, false)?;
    let game = Eaters {
        inner,
        players: d.players(),
        morsels: d.len(),
    };
    let outcomes = engine::all_outcomes(&game, budget)?;
    Ok(outcomes
        .into_iter()
        .map(|v| {
            let mut bundles = vec![Vec::new(); game.players];
            for (morsel, &eater) in v[game.players..].iter().enumerate() {
                bundles[eater as usize - 1].push(morsel);
            }
            bundles
        })
        .collect())
}
