//! Chance in exact arithmetic: a dice race solved by the engine against its deterministic
//! twin (the mover picks the face), per state (the target for Python games: a game
//! with chance costs at most 1.5x its twin a state; `benches/openspiel.py --only-races`
//! measures the same games through Python). The race's values are probabilities with
//! denominators `6^k`, a few hundred bits in the race to 40; the twin's are 0 and 1.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use lastbite::engine::{solve, Budget, Game, Player, TieBreak, Ties, CHANCE};
use lastbite::rational::Rational;

/// Two players race to `target`; each turn the mover rolls (a die, or in the twin a face
/// of their choice) or banks one point. States: (scores, mover, rolling?).
struct Race {
    chance: bool,
    target: u32,
    sixth: Rational,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct State {
    score: [u32; 2],
    mover: u8,
    rolling: bool,
}

impl Game for Race {
    type State = State;
    /// A face (1 to 6), or 0 to bank, 7 to roll.
    type Move = u8;
    type Payoff = Rational;

    fn players(&self) -> usize {
        2
    }

    fn root(&self) -> State {
        State {
            score: [0, 0],
            mover: 0,
            rolling: false,
        }
    }

    fn to_move(&self, s: &State) -> Option<Player> {
        if s.score.iter().any(|&x| x >= self.target) {
            None
        } else if s.rolling && self.chance {
            Some(CHANCE)
        } else {
            Some(s.mover as Player)
        }
    }

    fn moves(&self, s: &State, out: &mut Vec<u8>) {
        if s.rolling {
            out.extend(1..=6);
        } else {
            out.extend([7, 0]);
        }
    }

    fn play(&self, s: &State, mv: &u8) -> State {
        let mut next = *s;
        match mv {
            7 => next.rolling = true,
            _ => {
                next.score[s.mover as usize] += (*mv).max(1) as u32;
                next.mover = 1 - s.mover;
                next.rolling = false;
            }
        }
        next
    }

    fn probability(&self, _: &State, _: &u8) -> Rational {
        self.sixth.clone()
    }

    fn terminal_payoff(&self, s: &State, p: Player) -> Rational {
        Rational::from((s.score[p] >= self.target) as i64)
    }
}

fn races(c: &mut Criterion) {
    let ties = Ties::uniform(TieBreak::First, 2);
    let mut g = c.benchmark_group("race");
    g.sample_size(20);
    for target in [20, 40, 60] {
        for chance in [false, true] {
            let game = Race {
                chance,
                target,
                sixth: Rational::from_exact("1/6".parse().expect("a fraction")),
            };
            let label = if chance { "die" } else { "twin" };
            g.bench_with_input(BenchmarkId::new(label, target), &game, |b, game| {
                b.iter(|| solve(game, &ties, Budget::default()).unwrap().states())
            });
        }
    }
    g.finish();
}

criterion_group!(benches, races);
criterion_main!(benches);
