//! The `.efg` reader: a lexer with Gambit's token rules and a parser that builds the tree
//! in file order with an explicit stack (a path of a million nodes needs no deep
//! recursion).

use std::borrow::Cow;

use super::{Efg, EfgError, Infoset, Node, NodeKind, Outcome, NONE};
use crate::engine::fx::FxMap;
use crate::exact::Exact;
use crate::text::quote;

/// A token; text borrows from the file unless a string held escapes.
#[derive(Debug, Clone, PartialEq)]
enum Tok<'a> {
    /// A number's text.
    Number(&'a str),
    /// A quoted string, unescaped.
    Text(Cow<'a, str>),
    /// A bare word (`EFG`, `R`, `p`, ...).
    Symbol(&'a str),
    LBrace,
    RBrace,
    Comma,
    Eof,
}

fn describe(t: &Tok<'_>) -> String {
    match t {
        Tok::Number(s) => format!("the number {}", quote(s)),
        Tok::Text(s) => format!("the string \"{}\"", crate::text::clean(&shorten(s))),
        Tok::Symbol(s) => quote(&shorten(s)),
        Tok::LBrace => "'{'".into(),
        Tok::RBrace => "'}'".into(),
        Tok::Comma => "','".into(),
        Tok::Eof => "the end of the file".into(),
    }
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(37).collect::<String>())
    } else {
        s.to_string()
    }
}

/// A place in the file; the column is counted only when an error needs it.
#[derive(Debug, Clone, Copy)]
struct Pos {
    line: u32,
    line_start: usize,
    pos: usize,
}

struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    line: u32,
    line_start: usize,
    /// Where the last token began.
    at: Pos,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            src: text.as_bytes(),
            text,
            pos: 0,
            line: 1,
            line_start: 0,
            at: Pos {
                line: 1,
                line_start: 0,
                pos: 0,
            },
        }
    }

    fn error(&self, problem: impl Into<String>) -> EfgError {
        self.error_at(self.at, problem)
    }

    fn error_at(&self, at: Pos, problem: impl Into<String>) -> EfgError {
        EfgError::Syntax {
            line: at.line,
            column: self.text[at.line_start..at.pos].chars().count() as u32 + 1,
            problem: problem.into(),
        }
    }

    fn next(&mut self) -> Result<Tok<'a>, EfgError> {
        while let Some(&b) = self.src.get(self.pos) {
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.pos + 1;
            } else if !b.is_ascii_whitespace() {
                break;
            }
            self.pos += 1;
        }
        self.at = Pos {
            line: self.line,
            line_start: self.line_start,
            pos: self.pos,
        };
        let Some(&b) = self.src.get(self.pos) else {
            return Ok(Tok::Eof);
        };
        match b {
            b'{' => {
                self.pos += 1;
                Ok(Tok::LBrace)
            }
            b'}' => {
                self.pos += 1;
                Ok(Tok::RBrace)
            }
            b',' => {
                self.pos += 1;
                Ok(Tok::Comma)
            }
            b'"' => self.string(),
            b'0'..=b'9' | b'-' | b'+' | b'.' => Ok(Tok::Number(self.number())),
            _ => {
                let start = self.pos;
                while self
                    .src
                    .get(self.pos)
                    .is_some_and(|b| !b.is_ascii_whitespace())
                {
                    self.pos += 1;
                }
                Ok(Tok::Symbol(&self.text[start..self.pos]))
            }
        }
    }

    /// Gambit's number token: `[+-]digits` then `.digits[e[+-]digits]`, `/digits` or
    /// `e[+-]digits`; or `.digits`. The text is checked when it is read as a value.
    fn number(&mut self) -> &'a str {
        let start = self.pos;
        let digits = |l: &mut Self| {
            while l.src.get(l.pos).is_some_and(u8::is_ascii_digit) {
                l.pos += 1;
            }
        };
        let exponent = |l: &mut Self| {
            if matches!(l.src.get(l.pos), Some(b'e' | b'E')) {
                l.pos += 1;
                if matches!(l.src.get(l.pos), Some(b'+' | b'-')) {
                    l.pos += 1;
                }
                while l.src.get(l.pos).is_some_and(u8::is_ascii_digit) {
                    l.pos += 1;
                }
            }
        };
        if self.src[self.pos] != b'.' {
            self.pos += 1;
            digits(self);
        }
        match self.src.get(self.pos) {
            Some(b'.') => {
                self.pos += 1;
                digits(self);
                exponent(self);
            }
            Some(b'/') => {
                self.pos += 1;
                digits(self);
            }
            Some(b'e' | b'E') => exponent(self),
            _ => {}
        }
        &self.text[start..self.pos]
    }

    /// A quoted string: `\"` is a quote and `\\` a backslash; any other backslash is
    /// kept as written (Gambit's reader does the same, except that it doubles `\\`,
    /// which would make its own writer's output change on every round trip).
    fn string(&mut self) -> Result<Tok<'a>, EfgError> {
        self.pos += 1;
        let start = self.pos;
        // The common case: no backslash before the closing quote, so the text is borrowed.
        let mut owned: Option<Vec<u8>> = None;
        loop {
            let Some(&b) = self.src.get(self.pos) else {
                return Err(self.error("a string that is never closed (a '\"' is missing)"));
            };
            self.pos += 1;
            match b {
                b'"' => break,
                b'\\' => {
                    let buf = owned.get_or_insert_with(|| self.src[start..self.pos - 1].to_vec());
                    match self.src.get(self.pos) {
                        Some(&c @ (b'"' | b'\\')) => {
                            buf.push(c);
                            self.pos += 1;
                        }
                        _ => buf.push(b'\\'),
                    }
                    continue;
                }
                b'\n' => {
                    self.line += 1;
                    self.line_start = self.pos;
                }
                _ => {}
            }
            if let Some(buf) = &mut owned {
                buf.push(b);
            }
        }
        Ok(Tok::Text(match owned {
            // The input is UTF-8 and only ASCII bytes were removed.
            Some(buf) => Cow::Owned(String::from_utf8(buf).expect("UTF-8 in, UTF-8 out")),
            None => Cow::Borrowed(&self.text[start..self.pos - 1]),
        }))
    }
}

/// Reads a number token's text exactly: integers, decimals with an optional exponent,
/// and fractions.
pub(super) fn exact_value(text: &str) -> Result<Exact, String> {
    // Most payoffs are short integers.
    if text.len() < 19 {
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            let v: i64 = text.parse().expect("up to 18 digits fit");
            return Ok(Exact::integer(v as i128));
        }
    }
    let bad = || format!("{} is not a number", quote(text));
    let too_big = || {
        format!(
            "{} is too large or too precise for exact 128-bit input",
            quote(text)
        )
    };
    if let Some((n, d)) = text.split_once('/') {
        let n: Exact = n.parse().map_err(|_| bad())?;
        let d: i128 = d.parse().map_err(|_| bad())?;
        if d == 0 {
            return Err(format!("{} has a zero denominator", quote(text)));
        }
        return Exact::new(n.numer(), d).ok_or_else(bad);
    }
    // Decimals, with Gambit's exponents and bare points: the one decimal parser.
    let syntax = crate::number::decimal::Syntax {
        exponent: true,
        bare_point: true,
    };
    let (numer, denom) = crate::number::decimal::parse(text, syntax).map_err(|e| match e {
        crate::number::decimal::DecimalError::NotANumber => bad(),
        crate::number::decimal::DecimalError::TooLarge => too_big(),
    })?;
    Exact::new(numer, denom).ok_or_else(bad)
}

struct Parser<'a> {
    lex: Lexer<'a>,
    tok: Tok<'a>,
    /// Label text -> index into the game's label table.
    labels: FxMap<Cow<'a, str>, u32>,
    efg: Efg,
    /// (player or 0 for chance, number) -> infoset index.
    infosets: FxMap<(u32, u32), u32>,
    /// outcome number -> outcome index.
    outcomes: FxMap<u32, u32>,
    max_nodes: u64,
}

impl<'a> Parser<'a> {
    fn advance(&mut self) -> Result<(), EfgError> {
        self.tok = self.lex.next()?;
        Ok(())
    }

    fn error(&self, problem: impl Into<String>) -> EfgError {
        self.lex.error(problem)
    }

    fn unexpected(&self, wanted: &str) -> EfgError {
        self.error(format!("expected {wanted}, found {}", describe(&self.tok)))
    }

    fn text(&mut self, wanted: &str) -> Result<Cow<'a, str>, EfgError> {
        match std::mem::replace(&mut self.tok, Tok::Eof) {
            Tok::Text(s) => {
                self.advance()?;
                Ok(s)
            }
            other => {
                self.tok = other;
                Err(self.unexpected(wanted))
            }
        }
    }

    /// A string token as a label index.
    fn label(&mut self, wanted: &str) -> Result<u32, EfgError> {
        let text = self.text(wanted)?;
        if let Some(&i) = self.labels.get(&text) {
            return Ok(i);
        }
        let i = self.efg.labels.len() as u32;
        self.efg.labels.push(text.as_ref().into());
        self.labels.insert(text, i);
        Ok(i)
    }

    fn expect(&mut self, t: Tok<'a>, wanted: &str) -> Result<(), EfgError> {
        if self.tok != t {
            return Err(self.unexpected(wanted));
        }
        self.advance()
    }

    fn exact(&mut self, wanted: &str) -> Result<Exact, EfgError> {
        let Tok::Number(text) = self.tok else {
            return Err(self.unexpected(wanted));
        };
        let v = exact_value(text).map_err(|p| self.error(p))?;
        self.advance()?;
        Ok(v)
    }

    fn id(&mut self, wanted: &str) -> Result<u32, EfgError> {
        let Tok::Number(text) = self.tok else {
            return Err(self.unexpected(wanted));
        };
        let v = text.parse::<u32>().map_err(|_| {
            self.error(format!(
                "{wanted} {} is not a whole number from 0 to {}",
                quote(text),
                u32::MAX - 1
            ))
        })?;
        if v == u32::MAX {
            return Err(self.error(format!("{wanted} {v} is too large")));
        }
        self.advance()?;
        Ok(v)
    }

    fn header(&mut self) -> Result<(), EfgError> {
        match self.tok {
            Tok::Symbol("EFG") => self.advance()?,
            Tok::Symbol("NFG") => {
                return Err(self.error(
                    "this is a strategic-form (NFG) file; subgame perfection needs an extensive-form (EFG) game",
                ))
            }
            _ => return Err(self.unexpected("the file type 'EFG'")),
        }
        match self.tok {
            Tok::Number("2") => self.advance()?,
            Tok::Number(s) => {
                return Err(self.error(format!(
                    "EFG version {} is not supported (only version 2)",
                    quote(s)
                )))
            }
            _ => return Err(self.unexpected("the format version 2")),
        }
        match self.tok {
            Tok::Symbol(s @ ("R" | "D")) => {
                self.efg.decimal = s == "D";
                self.advance()?;
            }
            _ => return Err(self.unexpected("the data type R or D")),
        }
        self.efg.title = self.text("the game's title in quotes")?.into_owned();
        self.expect(Tok::LBrace, "'{' before the player names")?;
        while let Tok::Text(_) = self.tok {
            let name = self.text("a player name")?.into_owned();
            self.efg.players.push(name);
        }
        self.expect(Tok::RBrace, "a player name in quotes or '}'")?;
        if self.efg.players.is_empty() {
            return Err(self.error("the game declares no players"));
        }
        if let Tok::Text(_) = self.tok {
            self.efg.comment = self.text("the comment")?.into_owned();
        }
        Ok(())
    }

    /// The node starting at the current token; returns its number.
    fn node(&mut self) -> Result<u32, EfgError> {
        if self.efg.nodes.len() as u64 >= self.max_nodes {
            return Err(EfgError::TooManyNodes {
                budget: self.max_nodes,
            });
        }
        let kind = match self.tok {
            Tok::Symbol(s @ ("p" | "c" | "t")) => s.as_bytes()[0],
            Tok::Eof => {
                return Err(self
                    .error("the file ends before the game tree is complete (a node is missing)"))
            }
            _ => return Err(self.unexpected("a node: 'p', 'c' or 't'")),
        };
        self.advance()?;
        let label = self.label("the node's label in quotes")?;
        let number = self.efg.nodes.len() as u32;
        let kind = match kind {
            b't' => NodeKind::Terminal,
            b'c' => NodeKind::Chance {
                infoset: self.infoset(None, number)?,
            },
            _ => {
                let at = self.lex.at;
                let player = self.id("the player number")?;
                let players = self.efg.players.len() as u32;
                if player == 0 || player > players {
                    return Err(self.lex.error_at(at, format!(
                            "player {player} is not declared: the players are numbered 1 to {players}"
                        )));
                }
                NodeKind::Personal {
                    player: player - 1,
                    infoset: self.infoset(Some(player - 1), number)?,
                }
            }
        };
        let outcome = self.outcome()?;
        let first_child = self.efg.children.len() as u32;
        let count = match kind {
            NodeKind::Terminal => 0,
            NodeKind::Chance { infoset } | NodeKind::Personal { infoset, .. } => {
                self.efg.infosets[infoset as usize].actions
            }
        };
        self.efg
            .children
            .extend(std::iter::repeat_n(NONE, count as usize));
        self.efg.nodes.push(Node {
            label,
            kind,
            outcome,
            first_child,
        });
        Ok(number)
    }

    /// The information set part of a chance (`player` none) or personal node.
    fn infoset(&mut self, player: Option<u32>, node: u32) -> Result<u32, EfgError> {
        let at = self.lex.at;
        let number = self.id("the information set number")?;
        let key = (player.map_or(0, |p| p + 1), number);
        let known = self.infosets.get(&key).copied();
        let whose = || match player {
            Some(p) => format!("information set {number} of player {}", p + 1),
            None => format!("chance information set {number}"),
        };
        if let Tok::Text(_) = self.tok {
            let label = self.label("the information set's label")?;
            self.expect(Tok::LBrace, "'{' before the actions")?;
            let mut labels = Vec::new();
            let mut probs = Vec::new();
            loop {
                match self.tok {
                    Tok::Text(_) => {}
                    Tok::RBrace if !labels.is_empty() => break,
                    _ => return Err(self.unexpected("an action label in quotes")),
                }
                labels.push(self.label("an action label")?);
                if player.is_none() {
                    let pat = self.lex.at;
                    let p = self.exact("the action's probability")?;
                    if p < Exact::ZERO || p > Exact::integer(1) {
                        return Err(self
                            .lex
                            .error_at(pat, format!("probability {p} is outside [0, 1]")));
                    }
                    probs.push(p);
                }
            }
            self.advance()?;
            if player.is_none() {
                let sum = probs
                    .iter()
                    .try_fold(Exact::ZERO, |a, p| a.checked_add(p))
                    .unwrap_or(Exact::integer(2));
                if sum != Exact::integer(1) {
                    return Err(self.lex.error_at(
                        at,
                        format!("the probabilities of {} sum to {sum}, not 1", whose()),
                    ));
                }
            }
            if let Some(i) = known {
                let s = &self.efg.infosets[i as usize];
                let first = s.first_action as usize;
                let old = &self.efg.actions[first..first + s.actions as usize];
                let problem = if s.actions as usize != labels.len() {
                    Some(format!(
                        "{} has {} actions here but {} at node {}",
                        whose(),
                        labels.len(),
                        s.actions,
                        s.first_node
                    ))
                } else if s.label != label || old != labels.as_slice() {
                    Some(format!(
                        "{} is labelled differently here than at node {}",
                        whose(),
                        s.first_node
                    ))
                } else if player.is_none() && self.efg.probabilities(i) != probs.as_slice() {
                    Some(format!(
                        "{} has other probabilities here than at node {}",
                        whose(),
                        s.first_node
                    ))
                } else {
                    None
                };
                if let Some(problem) = problem {
                    return Err(self.lex.error_at(at, problem));
                }
                self.efg.infosets[i as usize].members += 1;
                return Ok(i);
            }
            let index = self.efg.infosets.len() as u32;
            let first_prob = self.efg.probs.len() as u32;
            self.efg.probs.extend(probs);
            self.efg.infosets.push(Infoset {
                player,
                number,
                label,
                first_action: self.efg.actions.len() as u32,
                actions: labels.len() as u32,
                first_prob,
                members: 1,
                first_node: node,
            });
            self.efg.actions.extend(labels);
            self.infosets.insert(key, index);
            return Ok(index);
        }
        match known {
            Some(i) => {
                self.efg.infosets[i as usize].members += 1;
                Ok(i)
            }
            None => Err(self.lex.error_at(at, format!(
                    "{} is used before its actions are given (give its label and actions the first time)",
                    whose()
                ))),
        }
    }

    /// The outcome part of a node: its number and, the first time, its label and payoffs.
    fn outcome(&mut self) -> Result<u32, EfgError> {
        let at = self.lex.at;
        let number = self.id("the outcome number")?;
        let Tok::Text(_) = self.tok else {
            if number == 0 {
                return Ok(NONE);
            }
            return match self.outcomes.get(&number) {
                Some(&i) => Ok(i),
                None => Err(self.lex.error_at(at, format!(
                        "outcome {number} is used before its payoffs are given (give its label and payoffs the first time)"
                    ))),
            };
        };
        if number == 0 {
            return Err(self.error("outcome 0 means no outcome and cannot have a label or payoffs"));
        }
        let label = self.label("the outcome's label")?;
        let brace = self.lex.at;
        self.expect(Tok::LBrace, "'{' before the payoffs")?;
        let mut payoffs = Vec::new();
        loop {
            match self.tok {
                Tok::RBrace => break,
                Tok::Comma if !payoffs.is_empty() => self.advance()?,
                _ => {
                    let v = self.exact("a payoff or '}'")?;
                    payoffs.push(v);
                }
            }
        }
        self.advance()?;
        let k = self.efg.players.len();
        if payoffs.len() != k {
            return Err(self.lex.error_at(
                brace,
                format!(
                    "outcome {number} has {} but the game has {}",
                    crate::text::count(payoffs.len(), "payoff"),
                    crate::text::count(k, "player")
                ),
            ));
        }
        if let Some(&i) = self.outcomes.get(&number) {
            let o = &self.efg.outcomes[i as usize];
            if o.label != label || self.efg.payoffs(o) != payoffs.as_slice() {
                return Err(self.lex.error_at(
                    at,
                    format!("outcome {number} is given other payoffs or another label than before"),
                ));
            }
            return Ok(i);
        }
        let index = self.efg.outcomes.len() as u32;
        self.efg.outcomes.push(Outcome {
            number,
            label,
            first_payoff: self.efg.payoffs.len() as u32,
        });
        self.efg.payoffs.extend(payoffs);
        self.outcomes.insert(number, index);
        Ok(index)
    }

    fn tree(&mut self) -> Result<(), EfgError> {
        // The stack holds (node, next child slot); a node is complete when its slots are.
        let mut stack: Vec<(u32, u32)> = Vec::new();
        let root = self.node()?;
        stack.push((root, 0));
        while let Some(&mut (n, ref mut next)) = stack.last_mut() {
            let slots = self.efg.children(n).len() as u32;
            if *next == slots {
                stack.pop();
                continue;
            }
            let slot = self.efg.nodes[n as usize].first_child + *next;
            *next += 1;
            let child = self.node()?;
            self.efg.children[slot as usize] = child;
            stack.push((child, 0));
        }
        if self.tok != Tok::Eof {
            return Err(self.error(format!(
                "{} after the end of the game tree (every node's children are complete)",
                describe(&self.tok)
            )));
        }
        Ok(())
    }
}

impl Efg {
    /// Reads an `.efg` file's text, refusing trees of more than `max_nodes` nodes.
    ///
    /// ```
    /// use lastbite::games::efg::Efg;
    /// let text = r#"EFG 2 R "Entry" { "Entrant" "Incumbent" }
    /// p "" 1 1 "" { "Out" "In" } 0
    /// t "" 1 "Out" { 0, 2 }
    /// p "" 2 1 "" { "Fight" "Accommodate" } 0
    /// t "" 2 "" { -1, -1 }
    /// t "" 3 "" { 1, 1 }
    /// "#;
    /// let game = Efg::parse(text, 100).unwrap();
    /// assert_eq!(game.nodes().len(), 5);
    /// assert_eq!(game.players(), ["Entrant", "Incumbent"]);
    /// assert!(Efg::parse("EFG 2 R \"\" { \"A\" }\np \"\" 2 1 \"\" { \"x\" } 0\nt \"\" 0", 100)
    ///     .unwrap_err().to_string().starts_with("line 2, column 6: player 2 is not declared"));
    /// ```
    pub fn parse(text: &str, max_nodes: u64) -> Result<Efg, EfgError> {
        let mut p = Parser {
            lex: Lexer::new(text),
            tok: Tok::Eof,
            efg: Efg {
                title: String::new(),
                comment: String::new(),
                decimal: false,
                players: Vec::new(),
                labels: vec!["".into()],
                nodes: Vec::new(),
                children: Vec::new(),
                infosets: Vec::new(),
                actions: Vec::new(),
                probs: Vec::new(),
                outcomes: Vec::new(),
                payoffs: Vec::new(),
            },
            labels: FxMap::from_iter([(Cow::Borrowed(""), 0)]),
            infosets: FxMap::default(),
            outcomes: FxMap::default(),
            max_nodes: max_nodes.min(u32::MAX as u64 - 1),
        };
        p.advance()?;
        p.header()?;
        p.tree()?;
        let mut efg = p.efg;
        efg.nodes.shrink_to_fit();
        efg.children.shrink_to_fit();
        efg.infosets.shrink_to_fit();
        efg.actions.shrink_to_fit();
        Ok(efg)
    }
}

#[cfg(test)]
mod tests {
    use super::exact_value;
    use crate::exact::Exact;

    #[test]
    fn numbers_read_exactly() {
        let x = |s: &str| exact_value(s).unwrap();
        assert_eq!(x("3"), Exact::integer(3));
        assert_eq!(x("-2.50"), Exact::new(-5, 2).unwrap());
        assert_eq!(x(".80"), Exact::new(4, 5).unwrap());
        assert_eq!(x("1."), Exact::integer(1));
        assert_eq!(x("+7/21"), Exact::new(1, 3).unwrap());
        assert_eq!(x("1.5e3"), Exact::integer(1500));
        assert_eq!(x("25e-2"), Exact::new(1, 4).unwrap());
        assert_eq!(x("0.000"), Exact::ZERO);
        assert_eq!(x("0e999"), Exact::ZERO);
        for bad in ["-", "+", ".", "1/0", "1/", "1e", "1e+", "1.2.3"] {
            assert!(exact_value(bad).is_err(), "{bad}");
        }
        assert!(exact_value("1e40").is_err());
    }
}
