//! The paper's open questions ("Open questions"), answered by computation: delayed
//! gratification, three's a crowd, inaccessible morsels (injera) and balanced
//! alternation; and the recorded runs too long for every `reproduce`.

use crate::engine::{Budget, Silent};
use crate::exact::Exact;
use crate::games::dinner::analysis::{balance, variants};
use crate::games::dinner::{
    crossout, random_spe_outcomes, solve_exact, Dinner, DinnerTies, Rules, Setup, TurnOrder,
    DEFAULT_DINNER_MEMORY,
};
use crate::reproduce::{Answer, Recorded};

/// The runs behind the answers that are too long for every run (README, "Performance").
pub const RECORDED: &[Recorded] = &[Recorded {
    answer: "open.three_players",
    claim: "3 players and 26 morsels solved exactly in 6.7 to 11 s with 1.6 GB (2^26 states x 24 bytes)",
    command: "lastbite dinner solve FILE --order snake (FILE: 26 morsels, 3 utility columns)",
}];

/// The paper's open questions, answered by computation.
pub fn answers() -> Vec<Answer> {
    let mut out = Vec::new();
    let budget = Budget::default();
    let mut parts = Vec::new();
    for l in ["1/2", "9/10", "99/100"] {
        let lambda: Exact = l.parse().expect("exact");
        match variants::discount_search(lambda, 6, budget).expect("small search") {
            Some((d, check)) => {
                let morsels: Vec<String> = (0..d.len()).map(|i| d.morsel_text(i)).collect();
                let gain = check
                    .deviation
                    .map(|dv| dv.gain.to_string())
                    .unwrap_or_default();
                parts.push(format!(
                    "lambda {l}: {} (a deviation gains {gain})",
                    morsels.join(" ")
                ));
            }
            None => parts.push(format!("lambda {l}: none up to 6 morsels")),
        }
    }
    out.push(Answer {
        id: "open.delayed_gratification".into(),
        question: "Delayed gratification: is crossout still an equilibrium when a morsel eaten on turn i is worth lambda^i?".into(),
        answer: format!(
            "No. Smallest permutation dinners (Bob moving last) where it is not: {}. The exact solver (--discount) gives the equilibrium instead.",
            parts.join("; ")
        ),
    });
    out.push(three_players());
    out.push(injera());
    let rows = balance::first_mover_advantage(32, 1000, 1, &Silent).expect("valid");
    let at = |n: usize| {
        let r = &rows[n - 1];
        let f = |x: Exact| x.to_f64();
        format!(
            "n = {n}: alternation {:.2}%, Thue-Morse {:.2}%",
            f(r.alternation),
            f(r.thue_morse)
        )
    };
    out.push(Answer {
        id: "open.balanced_alternation".into(),
        question: "Balanced alternation: does the Thue-Morse order reduce the first mover's advantage?".into(),
        answer: format!(
            "Yes, on random permutation dinners under crossout (mean Alice - Bob as % of a player's total, 1000 dinners each): {}; {}; {}.",
            at(8),
            at(16),
            at(32)
        ),
    });
    out
}

/// Three's a crowd: with two players and distinct utilities the SPE outcome is unique
/// (the crossout split); with three it need not be.
fn three_players() -> Answer {
    let (trials, n) = (200u64, 8usize);
    let mut multiple = 0;
    for t in 0..trials {
        let all = random_spe_outcomes(
            3,
            n,
            "snake",
            3,
            t,
            Budget::default(),
            &crate::engine::Silent,
        )
        .expect("small");
        if all.len() > 1 {
            multiple += 1;
        }
    }
    Answer {
        id: "open.three_players".into(),
        question: "Three's a crowd: is there an efficiently computable equilibrium for three or more players?".into(),
        answer: format!(
            "lastbite solves them exactly over all subsets (the recorded run below: 3 players, 26 morsels). Unlike two players, distinct utilities do not make the outcome unique: {multiple} of {trials} random 3-player dinners of {n} morsels (snake order) have more than one pure SPE outcome, so the tie-breaking rule (--ties, --all) matters."
        ),
    }
}

/// Inaccessible morsels: how often the crossout play breaks a random partial order, and
/// how often the equilibrium split changes.
fn injera() -> Answer {
    let (trials, n) = (200u64, 10usize);
    let (mut illegal, mut changed) = (0, 0);
    for t in 0..trials {
        let mut rng = crate::rng::Rng::for_trial(5, t);
        let b = rng.permutation(n);
        let d = Dinner::permutation(&b).expect("valid");
        let order = TurnOrder::default_for(&d);
        // Each pair i < j (in a random relabelling) is constrained with probability 1/8.
        let label = rng.permutation(n);
        let mut pairs = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if rng.below(8) == 0 {
                    pairs.push(format!("{}<{}", label[i] - 1, label[j] - 1));
                }
            }
        }
        let before = crate::games::dinner::model::Precedence::parse(&pairs.join(","), &d)
            .expect("acyclic by construction");
        let co = crossout(&super::plain(&d, &order)).expect("two players");
        let mut eaten = 0u64;
        let legal = co.eating().all(|bite| {
            let ok = before.before(bite.morsel) & !eaten == 0;
            eaten |= 1 << bite.morsel;
            ok
        });
        illegal += !legal as u32;
        let rules = Rules::default().with_before(before);
        let spe = solve_exact(
            &Setup::new(d.clone(), order.clone(), rules.clone()).expect("a valid setup"),
            &DinnerTies::Index,
            Budget::default(),
            DEFAULT_DINNER_MEMORY,
            &Silent,
            None,
        )
        .expect("small");
        let split = |bites: &mut dyn Iterator<Item = crate::games::dinner::model::Bite>| {
            let mut v: Vec<usize> = bites.filter(|b| b.player == 0).map(|b| b.morsel).collect();
            v.sort_unstable();
            v
        };
        if split(&mut co.eating()) != split(&mut spe.eating.iter().copied()) {
            changed += 1;
        }
    }
    Answer {
        id: "open.inaccessible_morsels".into(),
        question: "Inaccessible morsels: when eating must respect a partial order, what takes crossout's place?".into(),
        answer: format!(
            "The exact SPE over the down-sets of the order (--before). On {trials} random permutation dinners of {n} morsels with random orders (each pair constrained with probability 1/8), the crossout play breaks the order in {illegal} and the equilibrium split differs from crossout's in {changed}."
        ),
    }
}
