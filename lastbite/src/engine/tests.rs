//! The engine on games that are not dinners: random finite trees with tied payoffs,
//! checked against brute force over all pure strategy profiles.

use proptest::prelude::*;

use super::*;

/// A finite tree: node 0 is the root; a decision node has a mover and children; a leaf
/// has a payoff vector.
#[derive(Debug, Clone)]
struct Tree {
    players: usize,
    children: Vec<Vec<usize>>,
    mover: Vec<usize>,
    leaf: Vec<Vec<i64>>,
}

impl Game for Tree {
    type State = usize;
    type Move = usize;
    type Payoff = i64;
    fn players(&self) -> usize {
        self.players
    }
    fn root(&self) -> usize {
        0
    }
    fn to_move(&self, s: &usize) -> Option<Player> {
        (!self.children[*s].is_empty()).then_some(self.mover[*s])
    }
    fn moves(&self, s: &usize, out: &mut Vec<usize>) {
        out.extend(0..self.children[*s].len());
    }
    fn play(&self, s: &usize, m: &usize) -> usize {
        self.children[*s][*m]
    }
    fn terminal_payoff(&self, s: &usize, p: Player) -> i64 {
        self.leaf[*s][p]
    }
}

/// Builds a tree from a shape code: each decision node takes its branching factor and
/// mover from `shape`, leaves take payoffs from `payoffs` (cycled).
fn tree(players: usize, shape: &[(usize, usize)], payoffs: &[i64]) -> Tree {
    let mut t = Tree {
        players,
        children: vec![vec![]],
        mover: vec![0],
        leaf: vec![vec![]],
    };
    let mut frontier = vec![(0usize, 0usize)];
    let mut next_shape = shape.iter();
    let mut next_pay = payoffs.iter().cycle();
    while let Some((node, depth)) = frontier.pop() {
        let branch = match next_shape.next() {
            Some(&(b, m)) if depth < 3 => {
                t.mover[node] = m % players;
                b
            }
            _ => 0,
        };
        if branch == 0 {
            t.leaf[node] = (0..players).map(|_| *next_pay.next().unwrap()).collect();
            continue;
        }
        for _ in 0..branch {
            let id = t.children.len();
            t.children.push(vec![]);
            t.mover.push(0);
            t.leaf.push(vec![]);
            t.children[node].push(id);
            frontier.push((id, depth + 1));
        }
    }
    t
}

/// Every pure SPE outcome by enumerating all profiles (one child per decision node),
/// through the reference solver.
fn brute_force_outcomes(t: &Tree) -> Vec<Vec<i64>> {
    let decisions: Vec<usize> = (0..t.children.len())
        .filter(|&n| !t.children[n].is_empty())
        .collect();
    let actions: Vec<usize> = decisions.iter().map(|&n| t.children[n].len()).collect();
    crate::engine::reference::subgame_perfect_outcomes(&actions, |at| {
        let mut choice = vec![0usize; t.children.len()];
        for (&n, &c) in decisions.iter().zip(at) {
            choice[n] = c;
        }
        // Outcome of the profile from every node (children have larger ids).
        let mut value = vec![vec![]; t.children.len()];
        for n in (0..t.children.len()).rev() {
            value[n] = if t.children[n].is_empty() {
                t.leaf[n].clone()
            } else {
                value[t.children[n][choice[n]]].clone()
            };
        }
        let perfect = decisions.iter().all(|&n| {
            let p = t.mover[n];
            t.children[n].iter().all(|&c| value[c][p] <= value[n][p])
        });
        perfect.then(|| value[0].clone())
    })
}

fn arb_tree() -> impl Strategy<Value = Tree> {
    (
        2usize..=3,
        prop::collection::vec((0usize..=3, 0usize..3), 1..=8),
        prop::collection::vec(0i64..3, 1..=20),
    )
        .prop_map(|(players, shape, payoffs)| tree(players, &shape, &payoffs))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// `all_outcomes` (state by state) equals enumeration of every strategy profile.
    #[test]
    fn all_outcomes_equal_brute_force(t in arb_tree()) {
        let fast = all_outcomes(&t, Budget::default()).unwrap();
        prop_assert_eq!(fast, brute_force_outcomes(&t));
    }

    /// Every tie rule gives a subgame perfect profile whose outcome is among all SPE
    /// outcomes; the optimal moves all give the equilibrium vector; runs are repeatable.
    #[test]
    fn every_rule_gives_a_verified_equilibrium(t in arb_tree(), rules in prop::collection::vec(prop::sample::select(TieBreak::ALL.to_vec()), 3)) {
        let ties = Ties::per_player(rules);
        let sol = solve(&t, &ties, Budget::default()).unwrap();
        let all = all_outcomes(&t, Budget::default()).unwrap();
        prop_assert!(all.contains(&sol.root_value().to_vec()));
        let again = solve(&t, &ties, Budget::default()).unwrap();
        prop_assert_eq!(sol.path(), again.path());
        // The solved states, listed: each once, each solved, as many as were counted.
        let listed = sol.solved_states();
        prop_assert_eq!(listed.len() as u64, sol.states());
        prop_assert_eq!(listed.iter().collect::<std::collections::HashSet<_>>().len(), listed.len());
        prop_assert!(listed.iter().all(|s| sol.value(s).is_some()));
        let verdict = verify(&t, Budget::default(), |s, _| sol.choice(s).unwrap().selected).unwrap();
        prop_assert!(matches!(verdict, Verdict::SubgamePerfect { .. }), "{:?}", verdict);
        for n in 0..t.children.len() {
            if let Some(c) = sol.choice(&n) {
                // Payoffs accrue only at leaves here, so a state's value is its choice's.
                prop_assert_eq!(sol.value(&n).unwrap(), &c.value[..]);
                for m in &c.optimal {
                    prop_assert_eq!(sol.value(&t.play(&n, m)).unwrap(), &c.value[..]);
                }
            }
        }
    }
}

/// A tree whose even nodes carry their number as a state id ([`Game::state_id`]) and
/// whose odd nodes carry none, so the sparse solver's table mixes both kinds.
struct Numbered(Tree);

impl Game for Numbered {
    type State = usize;
    type Move = usize;
    type Payoff = i64;
    fn players(&self) -> usize {
        self.0.players()
    }
    fn root(&self) -> usize {
        self.0.root()
    }
    fn to_move(&self, s: &usize) -> Option<Player> {
        self.0.to_move(s)
    }
    fn moves(&self, s: &usize, out: &mut Vec<usize>) {
        self.0.moves(s, out)
    }
    fn play(&self, s: &usize, m: &usize) -> usize {
        self.0.play(s, m)
    }
    fn terminal_payoff(&self, s: &usize, p: Player) -> i64 {
        self.0.terminal_payoff(s, p)
    }
    fn state_id(&self, s: &usize) -> Option<usize> {
        s.is_multiple_of(2).then_some(*s)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Tables indexed by state ids answer exactly as hash maps do: every state's value
    /// and choice, all SPE outcomes, the verdict.
    #[test]
    fn state_ids_change_no_answer(t in arb_tree(), rules in prop::collection::vec(prop::sample::select(TieBreak::ALL.to_vec()), 3)) {
        let ties = Ties::per_player(rules);
        let numbered = Numbered(t.clone());
        let plain = solve(&t, &ties, Budget::default()).unwrap();
        let ids = solve(&numbered, &ties, Budget::default()).unwrap();
        prop_assert_eq!(plain.states(), ids.states());
        for n in 0..t.children.len() {
            prop_assert_eq!(plain.value(&n), ids.value(&n));
            prop_assert_eq!(plain.choice(&n), ids.choice(&n));
        }
        prop_assert_eq!(
            all_outcomes(&t, Budget::default()).unwrap(),
            all_outcomes(&numbered, Budget::default()).unwrap()
        );
        let verdict = verify(&numbered, Budget::default(), |s, _| plain.choice(s).unwrap().selected).unwrap();
        prop_assert!(matches!(verdict, Verdict::SubgamePerfect { .. }), "{:?}", verdict);
    }
}

/// A at the root is indifferent (1 either way); B gets 5 on the left, 2 on the right.
fn indifferent() -> Tree {
    Tree {
        players: 2,
        children: vec![vec![1, 2], vec![], vec![]],
        mover: vec![0, 0, 0],
        leaf: vec![vec![], vec![1, 5], vec![1, 2]],
    }
}

#[test]
fn tie_rules_pick_as_documented() {
    let t = indifferent();
    let pick = |rule: TieBreak| {
        solve(&t, &Ties::uniform(rule, 2), Budget::default())
            .unwrap()
            .choice(&0)
            .unwrap()
    };
    assert_eq!(pick(TieBreak::Friendly).selected, 0);
    assert_eq!(pick(TieBreak::Antagonistic).selected, 1);
    assert_eq!(pick(TieBreak::First).selected, 0);
    assert_eq!(pick(TieBreak::Last).selected, 1);
    assert_eq!(
        pick(TieBreak::First).reason,
        Reason::TieBreak(TieBreak::First)
    );
    assert_eq!(pick(TieBreak::First).optimal, vec![0]);
    let e = solve(
        &t,
        &Ties::uniform(TieBreak::Antagonistic, 2),
        Budget::default(),
    )
    .unwrap()
    .explain(&0)
    .unwrap();
    assert!(e.lines.iter().all(|l| l.best_for_mover));
    assert!(e.lines[1].selected && !e.lines[0].selected);
    assert_eq!(
        all_outcomes(&t, Budget::default()).unwrap(),
        vec![vec![1, 2], vec![1, 5]]
    );
}

#[test]
fn per_player_rules_apply_to_their_player_only() {
    let mut t = indifferent();
    t.mover[0] = 1; // B moves, and is indifferent between A getting 1 or 1: no tie for A's sake
    t.leaf = vec![vec![], vec![5, 1], vec![2, 1]];
    let ties = Ties::parse("A=antagonistic,B=friendly", 2).unwrap();
    let sol = solve(&t, &ties, Budget::default()).unwrap();
    assert_eq!(sol.root_value(), &[5, 1]);
}

/// A game whose only move returns to the root.
struct Loop;

impl Game for Loop {
    type State = u8;
    type Move = ();
    type Payoff = i64;
    fn players(&self) -> usize {
        1
    }
    fn root(&self) -> u8 {
        0
    }
    fn to_move(&self, _: &u8) -> Option<Player> {
        Some(0)
    }
    fn moves(&self, _: &u8, out: &mut Vec<()>) {
        out.push(());
    }
    fn play(&self, s: &u8, _: &()) -> u8 {
        1 - s
    }
}

#[test]
fn cycles_are_an_error_not_a_hang() {
    let err = solve(&Loop, &Ties::uniform(TieBreak::First, 1), Budget::default())
        .err()
        .unwrap();
    assert!(matches!(err, EngineError::Cycle(_)), "{err}");
}

#[test]
fn sparse_budget_is_enforced() {
    let t = tree(2, &[(3, 0), (3, 1), (3, 0), (3, 1), (3, 0)], &[1, 2, 3]);
    let err = solve(
        &t,
        &Ties::uniform(TieBreak::First, 2),
        Budget { max_states: 3 },
    )
    .err()
    .unwrap();
    assert!(
        matches!(err, EngineError::TooManyStates { budget: 3, .. }),
        "{err}"
    );
}

#[test]
fn efg_export_parses_with_an_independent_parser() {
    let t = tree(3, &[(2, 0), (3, 1), (2, 2), (1, 0)], &[1, -2, 3, 0, 5]);
    let mut buf = Vec::new();
    write_efg(&t, "a \"quoted\" tree", 1000, &mut buf).unwrap();
    let text = String::from_utf8(buf).unwrap();
    let parsed = gambit_parser::ExtensiveFormGame::try_from_str(&text);
    assert!(parsed.is_ok(), "{parsed:?}\n{text}");
    assert_eq!(
        tree_size(&t) as usize,
        text.lines()
            .filter(|l| l.starts_with("p ") || l.starts_with("t "))
            .count()
    );
}

#[test]
fn dinner_export_with_fractions_parses() {
    use crate::games::dinner::{Dinner, DinnerGame, Setup, TurnOrder};
    let d = Dinner::from_morsels("1/3,2 2.5,3 3,-1 0,0").unwrap();
    let order = TurnOrder::parse("ABBA", &d).unwrap();
    let setup = Setup::ordered(d.clone(), order.clone()).unwrap();
    let game = DinnerGame::<i128>::new(&setup, false).unwrap();
    let mut buf = Vec::new();
    write_efg(&game, "dinner", 1000, &mut buf).unwrap();
    let text = String::from_utf8(buf).unwrap();
    assert!(text.contains("17/6"), "{text}");
    assert!(
        gambit_parser::ExtensiveFormGame::try_from_str(&text).is_ok(),
        "{text}"
    );
}
