//! Token Dollars territories: each player's payoff is the sum, over the stacks whose
//! territory holds that player, of the stack's value split among the territory's players,
//! on random placements, lines and clocks.

use lastbite::exact::Exact;
use lastbite::games::tokens::Board;
use lastbite::rng::Rng;

#[test]
fn territories_add_up_to_the_payoffs() {
    let mut rng = Rng::for_trial(5, 0);
    let mut next = |m: u64| rng.below(m);
    for _ in 0..300 {
        let stacks = 2 + next(12) as usize;
        let players = 1 + next(stacks.min(5) as u64) as usize;
        let clock = next(2) == 1;
        let b = Board::dollars(stacks, players, clock).unwrap();
        let mut placed: Vec<usize> = Vec::new();
        while placed.len() < players {
            let x = 1 + next(stacks as u64) as usize;
            if !placed.contains(&x) {
                placed.push(x);
            }
        }
        let terr = b.territory(&placed);
        assert_eq!(terr.len(), stacks);
        let pays = b.payoffs(&placed);
        for (p, &pay) in pays.iter().enumerate() {
            let mut total = Exact::integer(0);
            for (j, t) in terr.iter().enumerate() {
                if t.contains(&p) {
                    let share = Exact::new(j as i128 + 1, t.len() as i128).unwrap();
                    total = total.checked_add(&share).unwrap();
                }
            }
            assert_eq!(b.real(pay), total, "{b} {placed:?} player {p}");
        }
    }
}
