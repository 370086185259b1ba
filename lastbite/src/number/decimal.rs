//! The one decimal parser: `[+|-]digits[.digits]`, with `[e|E][+|-]digits` where the
//! syntax allows exponents (Gambit files write `1.5e-3`; requests and dinner files do
//! not), read exactly as `numerator / 10^k`. Fractions (`7/3`) are not decimals: each
//! reader splits them off first.

/// What a syntax admits beyond `[+|-]digits[.digits]`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Syntax {
    /// An exponent: `1e3`, `2.5E-2`.
    pub exponent: bool,
    /// A point with no digits after it: `1.` (Gambit's files have them).
    pub bare_point: bool,
}

/// Why a decimal was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DecimalError {
    /// Not of the syntax.
    NotANumber,
    /// Its exact value does not fit 128 bits as `numerator / 10^k`.
    TooLarge,
}

/// The exact value of `text` as `(numerator, denominator)`, the denominator a power of
/// ten (not reduced): `-2.50` is `(-25, 10)`. One sign at most, digits on at least one
/// side of the point (the tests below pin each case).
#[inline]
pub(crate) fn parse(text: &str, syntax: Syntax) -> Result<(i128, i128), DecimalError> {
    use DecimalError::*;
    // Integers first, in one pass: most numbers a user gives are (dinner files hold
    // millions).
    if let Some(v) = integer(text) {
        return v.map(|n| (n, 1));
    }
    let exponent_at = if syntax.exponent {
        text.bytes().position(|b| b == b'e' || b == b'E')
    } else {
        None
    };
    let (mantissa, exp) = match exponent_at {
        Some(i) => {
            let e: i32 = text[i + 1..].parse().map_err(|_| NotANumber)?;
            (&text[..i], e)
        }
        None => (text, 0),
    };
    let (neg, m) = match mantissa.as_bytes().first() {
        Some(b'-') => (true, &mantissa[1..]),
        Some(b'+') => (false, &mantissa[1..]),
        _ => (false, mantissa),
    };
    let (int, frac) = match m.split_once('.') {
        Some((_, "")) if !syntax.bare_point => return Err(NotANumber),
        Some(parts) => parts,
        None => (m, ""),
    };
    if (int.is_empty() && frac.is_empty())
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return Err(NotANumber);
    }
    // Trailing zeros of the fraction change nothing: drop them before they cost bits.
    let frac = frac.trim_end_matches('0');
    // The digits of both parts as one integer, without an allocation (dinner files have
    // millions of numbers).
    let mut numer: i128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        numer = numer
            .checked_mul(10)
            .and_then(|n| n.checked_add(i128::from(b - b'0')))
            .ok_or(TooLarge)?;
    }
    let scale = i64::from(exp) - frac.len() as i64;
    let mut denom: i128 = 1;
    if numer == 0 {
        // Zero whatever the exponent.
    } else if scale > 0 {
        let f = u32::try_from(scale)
            .ok()
            .and_then(|s| 10i128.checked_pow(s))
            .ok_or(TooLarge)?;
        numer = numer.checked_mul(f).ok_or(TooLarge)?;
    } else if scale < 0 {
        denom = u32::try_from(-scale)
            .ok()
            .and_then(|s| 10i128.checked_pow(s))
            .ok_or(TooLarge)?;
    }
    Ok((if neg { -numer } else { numer }, denom))
}

/// `[+|-]digits` as an integer (`Some(Err(TooLarge))` past 128 bits), `None` when `text`
/// is not of that form.
#[inline]
fn integer(text: &str) -> Option<Result<i128, DecimalError>> {
    let (neg, digits) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        all => (false, all),
    };
    if digits.is_empty() {
        return None;
    }
    let mut n: i128 = 0;
    let mut overflow = false;
    for &b in digits {
        if !b.is_ascii_digit() {
            return None;
        }
        match n
            .checked_mul(10)
            .and_then(|n| n.checked_add(i128::from(b - b'0')))
        {
            Some(v) => n = v,
            None => overflow = true,
        }
    }
    Some(if overflow {
        Err(DecimalError::TooLarge)
    } else {
        Ok(if neg { -n } else { n })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Syntax = Syntax {
        exponent: false,
        bare_point: false,
    };
    const GAMBIT: Syntax = Syntax {
        exponent: true,
        bare_point: true,
    };

    #[test]
    fn reads_exactly_and_refuses_the_rest() {
        assert_eq!(parse("-2.50", PLAIN), Ok((-25, 10)));
        assert_eq!(parse(".5", PLAIN), Ok((5, 10)));
        assert_eq!(parse("+7", PLAIN), Ok((7, 1)));
        assert_eq!(parse("0.000", PLAIN), Ok((0, 1)));
        assert_eq!(parse("1.5e2", GAMBIT), Ok((150, 1)));
        assert_eq!(parse("1.", GAMBIT), Ok((1, 1)));
        assert_eq!(parse("25E-3", GAMBIT), Ok((25, 1000)));
        for bad in [
            "", "-", ".", "1.", "--1.5", "-+1.5", "1e3", "1.2.3", "1 .5", "x",
        ] {
            assert_eq!(parse(bad, PLAIN), Err(DecimalError::NotANumber), "{bad}");
        }
        assert_eq!(parse("1e40", GAMBIT), Err(DecimalError::TooLarge));
        assert_eq!(parse("1e-39", GAMBIT), Err(DecimalError::TooLarge));
        assert_eq!(parse(&"9".repeat(40), PLAIN), Err(DecimalError::TooLarge));
        assert_eq!(parse("0e99999", GAMBIT), Ok((0, 1)));
    }
}
