use super::*;

fn r(s: &str) -> Rational {
    Rational::from_exact(s.parse().unwrap())
}

#[test]
fn promotes_on_overflow_and_demotes_back() {
    let big = r(&i128::MAX.to_string());
    assert!(matches!(big.0, Repr::Wide(_)));
    let small = r(&i64::MAX.to_string());
    assert!(matches!(small.add(&small).0, Repr::Wide(_)));
    assert!(matches!(
        small.add(&small).sub(&small).0,
        Repr::Small { .. }
    ));
    let sum = big.add(&big);
    assert!(matches!(sum.0, Repr::Wide(_)));
    assert_eq!(
        sum.to_string(),
        (BigInt::from(i128::MAX) * BigInt::from(2)).to_string()
    );
    let back = sum.sub(&big);
    assert_eq!(back, big);
    assert_eq!(back.to_exact(), Some(Exact::integer(i128::MAX)));
}

#[test]
fn compares_across_forms() {
    let huge = r(&i128::MAX.to_string()).mul(&r("4"));
    assert!(huge > r("1"));
    assert!(huge.neg() < r("-1"));
    assert_eq!(r("1/2").cmp(&r("2/4")), Ordering::Equal);
}

/// A rational from a numerator and denominator of up to `limbs` random words, with
/// dice-like denominators (powers of 6 times a word) half the time.
fn arbitrary(limbs: usize) -> impl proptest::strategy::Strategy<Value = Rational> {
    use proptest::prelude::*;
    let word = prop_oneof![any::<u64>(), 0u64..7];
    let number = proptest::collection::vec(word, 0..=limbs).prop_map(|ws| {
        ws.iter()
            .fold(BigInt::zero(), |acc, &w| (acc << 64) + BigInt::from(w))
    });
    (
        number.clone(),
        number,
        0u32..200,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(n, d, k, dice, negative)| {
            let d = if dice {
                BigInt::from(6).pow(k) * BigInt::from(d.magnitude() % 5u32 + 1u32)
            } else {
                d + 1
            };
            let n = if negative { -n } else { n };
            Rational::from_big(BigRational::new(n, d))
        })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
    /// The fixed-width paths (equally weighted sums, comparisons) against plain big
    /// rational arithmetic, on numbers beyond their 512 bits too.
    #[test]
    fn fixed_width_paths_equal_big_arithmetic(
        values in proptest::collection::vec(arbitrary(9), 1..7),
        p in arbitrary(1),
    ) {
        let terms: Vec<_> = values.iter().map(|v| (&p, v)).collect();
        let want: BigRational = values.iter().map(|v| p.to_big() * v.to_big()).sum();
        let got = Rational::weighted_sum(&terms);
        proptest::prop_assert_eq!(&got, &Rational::from_big(want.clone()));
        for (a, b) in values.iter().zip(values.iter().skip(1)) {
            // Equal values have equal forms (the derived equality is exact).
            proptest::prop_assert_eq!(a.add(b), Rational::from_big(a.to_big() + b.to_big()));
            proptest::prop_assert_eq!(a.sub(b), Rational::from_big(a.to_big() - b.to_big()));
            proptest::prop_assert_eq!(a.mul(b), Rational::from_big(a.to_big() * b.to_big()));
            proptest::prop_assert_eq!(a.to_exact().map(Rational::from_exact), a.to_exact().map(|_| a.clone()));
            proptest::prop_assert_eq!(a.cmp(b), a.to_big().cmp(&b.to_big()));
            proptest::prop_assert_eq!(a.cmp(a), Ordering::Equal);
            proptest::prop_assert_eq!(got.cmp(a), want.cmp(&a.to_big()));
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// Expectations of expectations, as a solver makes them: each step an equally
    /// weighted sum of earlier values (a die of 2 to 8 faces, or a probability whose
    /// denominator has a prime beyond the small ones), so values carry their
    /// denominators' small primes from the 64-bit form through 128 bits and fixed
    /// width past 512 bits; each against big rational arithmetic, forms included.
    #[test]
    fn chained_expectations_equal_big_arithmetic(
        seeds in proptest::collection::vec((-50i64..50, 0usize..6), 2..8),
        beyond in proptest::prelude::any::<bool>(),
        steps in proptest::collection::vec(
            (
                0usize..12,
                // Mostly the latest values, whose denominators are alike (as a
                // race's children's are), so that common factors come up.
                proptest::collection::vec(proptest::prop_oneof![0usize..3, 0usize..1000], 2..9),
                proptest::prelude::any::<bool>(),
            ),
            1..80,
        ),
    ) {
        const DENOMINATORS: [i64; 6] = [1, 2, 3, 4, 6, 36];
        let mut pool: Vec<(Rational, BigRational)> = seeds
            .iter()
            .map(|&(n, d)| {
                let x = BigRational::new(n.into(), DENOMINATORS[d].into());
                (Rational::from_big(x.clone()), x)
            })
            .collect();
        const DIE: [i64; 12] = [2, 3, 4, 5, 6, 7, 8, 12, 36, 52, 67, 6 * 101];
        for (die, picks, negate) in steps {
            // Half the chains keep to small primes (no gcd at all), half may not.
            let die = if beyond { DIE[die] } else { DIE[die % 10] };
            let p = Rational::from_parts(1, die as i128);
            let at = |i: usize| &pool[pool.len() - 1 - i % pool.len()];
            let picked: Vec<_> = picks.iter().map(|&i| at(i)).collect();
            let terms: Vec<_> = picked.iter().map(|(v, _)| (&p, v)).collect();
            let got = Rational::weighted_sum(&terms);
            let want: BigRational = picked.iter().map(|(_, v)| v / BigInt::from(die)).sum();
            proptest::prop_assert_eq!(&got, &Rational::from_big(want.clone()));
            let (got, want) = if negate { (got.neg(), -want) } else { (got, want) };
            // A two-term sum over the new value too (the `add` path).
            let other = at(picks[0]);
            proptest::prop_assert_eq!(got.add(&other.0), Rational::from_big(&want + &other.1));
            pool.push((got, want));
        }
    }
}

#[test]
fn json_forms() {
    let huge = r(&i128::MAX.to_string()).mul(&r("4"));
    assert_eq!(
        huge.to_json().to_string(),
        (BigInt::from(i128::MAX) * BigInt::from(4)).to_string()
    );
    assert_eq!(r("5/2").to_json().to_string(), "\"5/2\"");
    assert_eq!(r("-7").to_json().to_string(), "-7");
    let tiny = r("1/3").mul(&r(&format!("1/{}", i128::MAX)));
    assert!(tiny.to_json().as_str().unwrap().starts_with("1/"));
}
