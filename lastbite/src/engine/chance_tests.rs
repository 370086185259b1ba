//! The engine with chance states, on random games of 2 to 4 players with exact
//! probabilities (zeros included), move payoffs and transpositions, checked against a
//! plain recursive expectiminimax with its own tie-breaking, brute-force enumeration of
//! pure profiles, the dense solver and the `.efg` solver through the Gambit export.

use super::*;
use crate::number::rational::Rational;
use crate::rng::Rng;

/// A random game: node 0 is the root; children have larger numbers, and with `shared` a
/// child may be reached from several parents (a transposition).
#[derive(Debug, Clone)]
struct Random {
    players: usize,
    /// Per node: `None` for a leaf, else the mover (or [`CHANCE`]).
    mover: Vec<Option<Player>>,
    children: Vec<Vec<usize>>,
    /// Per node and move: the move's probability (chance nodes) and payoffs.
    prob: Vec<Vec<Rational>>,
    pay: Vec<Vec<Vec<Rational>>>,
    leaf: Vec<Vec<Rational>>,
}

fn int(n: i64) -> Rational {
    Rational::from(n)
}

fn random_game(seed: u64, nodes: usize, shared: bool) -> Random {
    let mut rng = Rng::for_trial(seed, 0);
    let players = 2 + rng.below(3) as usize;
    let mut g = Random {
        players,
        mover: vec![None; nodes],
        children: vec![Vec::new(); nodes],
        prob: vec![Vec::new(); nodes],
        pay: vec![Vec::new(); nodes],
        leaf: vec![Vec::new(); nodes],
    };
    // Fresh children in breadth order when not shared; any later node when shared.
    let mut next = 1;
    for n in 0..nodes {
        let room = nodes - n - 1;
        let branch = if shared {
            (rng.below(4) as usize).min(room)
        } else {
            (rng.below(4) as usize).min(nodes - next)
        };
        // Without sharing, a node no parent took is not part of the game.
        let unreached = !shared && n > 0 && n >= next;
        if branch == 0 || unreached || (n > 0 && rng.below(5) == 0) {
            g.leaf[n] = (0..players).map(|_| int(rng.below(3) as i64)).collect();
            continue;
        }
        let chance = rng.below(3) == 0;
        g.mover[n] = Some(if chance {
            CHANCE
        } else {
            rng.below(players as u64) as usize
        });
        for _ in 0..branch {
            let c = if shared {
                n + 1 + rng.below(room as u64) as usize
            } else {
                next += 1;
                next - 1
            };
            g.children[n].push(c);
            let pays = rng.below(3) == 0;
            g.pay[n].push(
                (0..players)
                    .map(|_| int(if pays { rng.below(3) as i64 - 1 } else { 0 }))
                    .collect(),
            );
        }
        if chance {
            let w: Vec<i64> = (0..branch).map(|_| rng.below(4) as i64).collect();
            let total: i64 = w.iter().sum();
            g.prob[n] = if total == 0 {
                (0..branch).map(|i| int((i == 0) as i64)).collect()
            } else {
                w.iter()
                    .map(|&x| {
                        Rational::from_exact(
                            crate::exact::Exact::new(x as i128, total as i128).unwrap(),
                        )
                    })
                    .collect()
            };
        }
    }
    // A node left without children (no room) is a leaf.
    for n in 0..nodes {
        if g.children[n].is_empty() {
            g.mover[n] = None;
            if g.leaf[n].is_empty() {
                g.leaf[n] = vec![int(0); players];
            }
        }
    }
    g
}

impl Game for Random {
    type State = usize;
    type Move = usize;
    type Payoff = Rational;
    fn players(&self) -> usize {
        self.players
    }
    fn root(&self) -> usize {
        0
    }
    fn to_move(&self, s: &usize) -> Option<Player> {
        self.mover[*s]
    }
    fn moves(&self, s: &usize, out: &mut Vec<usize>) {
        out.extend(0..self.children[*s].len());
    }
    fn play(&self, s: &usize, m: &usize) -> usize {
        self.children[*s][*m]
    }
    fn add_move_payoffs(&self, s: &usize, m: &usize, acc: &mut [Rational]) {
        for (a, x) in acc.iter_mut().zip(&self.pay[*s][*m]) {
            a.add_assign(x);
        }
    }
    fn probability(&self, s: &usize, m: &usize) -> Rational {
        self.prob[*s][*m].clone()
    }
    fn terminal_payoff(&self, s: &usize, p: Player) -> Rational {
        self.leaf[*s][p].clone()
    }
}

/// The same game as a dense indexed game: one layer per node, the last node lowest.
impl IndexedGame for Random {
    fn state_count(&self) -> u128 {
        self.mover.len() as u128
    }
    fn index(&self, s: &usize) -> usize {
        *s
    }
    fn state_at(&self, i: usize) -> usize {
        i
    }
    fn layer_count(&self) -> usize {
        self.mover.len()
    }
    fn layer(&self, i: usize) -> Option<usize> {
        (i < self.mover.len()).then(|| self.mover.len() - 1 - i)
    }
}

fn add(a: &[Rational], b: &[Rational]) -> Vec<Rational> {
    a.iter().zip(b).map(|(x, y)| x.add(y)).collect()
}

/// Expectiminimax written from the definitions: recursion without memo, each tie rule
/// applied by scanning the mover's best moves.
fn plain(g: &Random, n: usize, rules: &[TieBreak]) -> Vec<Rational> {
    let Some(mover) = g.mover[n] else {
        return g.leaf[n].clone();
    };
    let options: Vec<Vec<Rational>> = g.children[n]
        .iter()
        .enumerate()
        .map(|(m, &c)| add(&g.pay[n][m], &plain(g, c, rules)))
        .collect();
    if mover == CHANCE {
        let mut acc = vec![int(0); g.players];
        for (o, p) in options.iter().zip(&g.prob[n]) {
            for (a, x) in acc.iter_mut().zip(o) {
                *a = a.add(&p.mul(x));
            }
        }
        return acc;
    }
    let top = options.iter().map(|o| o[mover].clone()).max().unwrap();
    let best: Vec<&Vec<Rational>> = options.iter().filter(|o| o[mover] == top).collect();
    let others = |o: &Vec<Rational>| {
        (0..g.players)
            .filter(|&j| j != mover)
            .fold(int(0), |a, j| a.add(&o[j]))
    };
    let pick = match rules[mover] {
        TieBreak::First => best[0],
        TieBreak::Last => best[best.len() - 1],
        TieBreak::Friendly => {
            let m = best.iter().map(|o| others(o)).max().unwrap();
            best.into_iter().find(|o| others(o) == m).unwrap()
        }
        TieBreak::Antagonistic => {
            let m = best.iter().map(|o| others(o)).min().unwrap();
            best.into_iter().find(|o| others(o) == m).unwrap()
        }
    };
    pick.clone()
}

/// The value of every node under a pure profile (`choice[n]` at decision nodes).
fn profile_values(g: &Random, choice: &[usize]) -> Vec<Vec<Rational>> {
    let n = g.mover.len();
    let mut value = vec![Vec::new(); n];
    for i in (0..n).rev() {
        value[i] = match g.mover[i] {
            None => g.leaf[i].clone(),
            Some(CHANCE) => {
                let mut acc = vec![int(0); g.players];
                for (m, &c) in g.children[i].iter().enumerate() {
                    let through = add(&g.pay[i][m], &value[c]);
                    for (a, x) in acc.iter_mut().zip(&through) {
                        *a = a.add(&g.prob[i][m].mul(x));
                    }
                }
                acc
            }
            Some(_) => add(&g.pay[i][choice[i]], &value[g.children[i][choice[i]]]),
        };
    }
    value
}

/// Every pure SPE outcome of a tree (no shared children) by enumerating every profile,
/// through the reference solver.
fn brute_force(g: &Random) -> Vec<Vec<Rational>> {
    let decisions: Vec<usize> = (0..g.mover.len())
        .filter(|&n| matches!(g.mover[n], Some(p) if p != CHANCE))
        .collect();
    let actions: Vec<usize> = decisions.iter().map(|&n| g.children[n].len()).collect();
    crate::engine::reference::subgame_perfect_outcomes(&actions, |at| {
        let mut choice = vec![0usize; g.mover.len()];
        for (&n, &c) in decisions.iter().zip(at) {
            choice[n] = c;
        }
        let value = profile_values(g, &choice);
        let perfect = decisions.iter().all(|&n| {
            let p = g.mover[n].unwrap();
            (0..g.children[n].len())
                .all(|m| add(&g.pay[n][m], &value[g.children[n][m]])[p] <= value[n][p])
        });
        perfect.then(|| value[0].clone())
    })
}

fn rules_for(seed: u64, k: usize) -> Vec<TieBreak> {
    (0..k)
        .map(|p| TieBreak::ALL[((seed as usize) / 5 + p * 3) % 4])
        .collect()
}

/// The expected payoff vector of equilibrium play read off the play tree.
fn play_value(g: &Random, start: usize, play: &PlayOf<Random>) -> Vec<Rational> {
    let mut acc = vec![int(0); g.players];
    for st in &play.steps {
        acc = add(&acc, &g.pay[st.state][st.mv]);
    }
    let end = match (&play.chance, play.steps.last()) {
        (Some(c), _) => {
            let mut exp = vec![int(0); g.players];
            for b in &c.outcomes {
                let child = g.children[c.state][b.mv];
                let after = add(&g.pay[c.state][b.mv], &play_value(g, child, &b.play));
                for (e, x) in exp.iter_mut().zip(&after) {
                    *e = e.add(&b.probability.mul(x));
                }
            }
            exp
        }
        (None, Some(last)) => g.leaf[g.children[last.state][last.mv]].clone(),
        (None, None) => g.leaf[start].clone(),
    };
    add(&acc, &end)
}

#[test]
fn values_equal_plain_expectiminimax_with_ties() {
    for seed in 0..1500u64 {
        let shared = seed % 2 == 0;
        let g = random_game(seed, 2 + (seed % 40) as usize, shared);
        let rules = rules_for(seed, g.players);
        let ties = Ties::per_player(rules.clone());
        let sol = solve(&g, &ties, Budget::default()).unwrap();
        for n in sol.solved_states() {
            assert_eq!(
                sol.value(&n).unwrap(),
                &plain(&g, n, &rules)[..],
                "seed {seed} node {n}"
            );
        }
        // The dense solver agrees state by state.
        let dense = solve_dense(&g, &ties, Budget::default(), &Silent).unwrap();
        for n in sol.solved_states() {
            assert_eq!(dense.value(&n), sol.value(&n), "seed {seed} node {n}");
        }
        // The solution's profile is subgame perfect; play read off the tree is worth
        // the root value.
        let verdict = verify(&g, Budget::default(), |s, _| {
            sol.choice(s).unwrap().selected
        });
        assert!(
            matches!(verdict, Ok(Verdict::SubgamePerfect { .. })),
            "seed {seed}: {verdict:?}"
        );
        let play = sol.play_tree(0, 1 << 20).unwrap();
        assert_eq!(play_value(&g, 0, &play), sol.root_value(), "seed {seed}");
    }
}

#[test]
fn all_outcomes_equal_brute_force_with_chance() {
    let mut checked = 0;
    for seed in 0..3000u64 {
        let g = random_game(seed, 2 + (seed % 16) as usize, false);
        let profiles: usize = (0..g.mover.len())
            .filter(|&n| matches!(g.mover[n], Some(p) if p != CHANCE))
            .map(|n| g.children[n].len())
            .product();
        if profiles > 5000 {
            continue;
        }
        checked += 1;
        let all = all_outcomes(&g, Budget::default()).unwrap();
        assert_eq!(all, brute_force(&g), "seed {seed}");
        // Every tie rule's equilibrium is among them.
        let sol = solve(
            &g,
            &Ties::per_player(rules_for(seed, g.players)),
            Budget::default(),
        );
        assert!(
            all.contains(&sol.unwrap().root_value().to_vec()),
            "seed {seed}"
        );
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn verify_finds_a_profitable_deviation_where_brute_force_does() {
    for seed in 0..1000u64 {
        let g = random_game(seed, 2 + (seed % 20) as usize, false);
        let mut rng = Rng::for_trial(seed, 1);
        let choice: Vec<usize> = (0..g.mover.len())
            .map(|n| match g.children[n].len() {
                0 => 0,
                len => rng.below(len as u64) as usize,
            })
            .collect();
        let value = profile_values(&g, &choice);
        let perfect = (0..g.mover.len()).all(|n| match g.mover[n] {
            Some(p) if p != CHANCE => (0..g.children[n].len())
                .all(|m| add(&g.pay[n][m], &value[g.children[n][m]])[p] <= value[n][p]),
            _ => true,
        });
        let verdict = verify(&g, Budget::default(), |s, _| choice[*s]).unwrap();
        assert_eq!(
            matches!(verdict, Verdict::SubgamePerfect { .. }),
            perfect,
            "seed {seed}: {verdict:?}"
        );
    }
}

#[test]
fn chance_states_are_explained_with_their_probabilities() {
    // Chance picks left (1/3) or right (2/3); A then takes 3 or gives B 5.
    let g = Random {
        players: 2,
        mover: vec![Some(CHANCE), Some(0), None, None, None],
        children: vec![vec![1, 2], vec![3, 4], vec![], vec![], vec![]],
        prob: vec![
            vec![
                Rational::from_exact("1/3".parse().unwrap()),
                Rational::from_exact("2/3".parse().unwrap()),
            ],
            vec![],
            vec![],
            vec![],
            vec![],
        ],
        pay: vec![
            vec![vec![int(0), int(0)], vec![int(0), int(0)]],
            vec![vec![int(0), int(0)], vec![int(0), int(0)]],
            vec![],
            vec![],
            vec![],
        ],
        leaf: vec![
            vec![],
            vec![],
            vec![int(1), int(1)],
            vec![int(3), int(0)],
            vec![int(3), int(5)],
        ],
    };
    let friendly = solve(&g, &Ties::uniform(TieBreak::Friendly, 2), Budget::default()).unwrap();
    assert_eq!(friendly.root_value()[1].to_string(), "7/3");
    let e = friendly.explain(&0).unwrap();
    assert_eq!((e.mover, e.rule, e.reason), (CHANCE, None, Reason::Chance));
    let probs: Vec<String> = e
        .lines
        .iter()
        .map(|l| l.probability.as_ref().unwrap().to_string())
        .collect();
    assert_eq!(probs, ["1/3", "2/3"]);
    assert!(friendly.choice(&0).is_none());
    assert!(friendly.path().is_empty());
    let play = friendly.play_tree(0, 100).unwrap();
    let branches = play.chance.unwrap().outcomes;
    assert_eq!(branches.len(), 2);
    assert_eq!(branches[0].play.steps.len(), 1);
    assert_eq!(branches[0].play.steps[0].mv, 1);
    assert!(branches[1].play.steps.is_empty());
    // Both of A's moves are equilibria: combined with chance, two outcomes.
    let all = all_outcomes(&g, Budget::default()).unwrap();
    let texts: Vec<String> = all.iter().map(|v| format!("{}/{}", v[0], v[1])).collect();
    assert_eq!(texts, ["5/3/2/3", "5/3/7/3"]);
    // The export writes a chance node the independent parser reads.
    let mut buf = Vec::new();
    write_efg(&g, "chance", 100, &mut buf).unwrap();
    let text = String::from_utf8(buf).unwrap();
    assert!(
        text.contains("c \"0\" 1 \"\" { \"0\" 1/3 \"1\" 2/3 } 0"),
        "{text}"
    );
    assert!(
        gambit_parser::ExtensiveFormGame::try_from_str(&text).is_ok(),
        "{text}"
    );
}

#[test]
fn probabilities_that_are_not_a_distribution_are_refused_naming_the_state() {
    let mut g = random_game(7, 12, false);
    let chance =
        (0..g.mover.len()).find(|&n| g.mover[n] == Some(CHANCE) && g.children[n].len() >= 2);
    let n = chance.expect("seed 7 has a chance node");
    let ties = Ties::uniform(TieBreak::First, g.players);
    // Off by 10^-17.
    let tiny = Rational::from_exact(crate::exact::Exact::new(1, 100_000_000_000_000_000).unwrap());
    g.prob[n][0] = g.prob[n][0].add(&tiny);
    let err = solve(&g, &ties, Budget::default()).err().unwrap();
    assert!(
        matches!(&err, EngineError::Probabilities { state, .. } if *state == n.to_string()),
        "{err}"
    );
    assert!(err.to_string().contains("not 1"), "{err}");
    for e in [
        all_outcomes(&g, Budget::default()).err(),
        verify(&g, Budget::default(), |_, _| 0).err(),
        solve_dense(&g, &ties, Budget::default(), &Silent).err(),
        write_efg(&g, "t", 1000, &mut Vec::new()).err(),
    ] {
        assert!(
            matches!(e, Some(EngineError::Probabilities { .. })),
            "{e:?}"
        );
    }
    // A negative probability, the sum still one.
    g.prob[n][0] = g.prob[n][0].sub(&tiny).sub(&int(1));
    g.prob[n][1] = g.prob[n][1].add(&int(1));
    let err = solve(&g, &ties, Budget::default()).err().unwrap();
    assert!(err.to_string().contains("negative probability"), "{err}");
}
