//! Writing a game back in Gambit's format. Nodes are stored in file order, so the file is
//! one pass over them; every node repeats its information set's actions and its
//! outcome's payoffs, as Gambit's own writer does, so each line reads on its own.

use std::io::{self, Write};

use super::{Efg, NodeKind};

fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

impl Efg {
    /// Writes the game as an `.efg` file that [`Efg::parse`] reads back to an equal game.
    ///
    /// ```
    /// use lastbite::games::efg::{random_tree, Efg, RandomSpec};
    /// let g = random_tree(&RandomSpec::default());
    /// let mut text = Vec::new();
    /// g.write(&mut text).unwrap();
    /// assert_eq!(Efg::parse(std::str::from_utf8(&text).unwrap(), 1000).unwrap(), g);
    /// ```
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut w = io::BufWriter::new(out);
        let players: Vec<String> = self.players.iter().map(|p| quoted(p)).collect();
        writeln!(
            w,
            "EFG 2 {} {} {{ {} }}",
            if self.decimal { "D" } else { "R" },
            quoted(&self.title),
            players.join(" ")
        )?;
        writeln!(w, "{}\n", quoted(&self.comment))?;
        for (n, node) in self.nodes.iter().enumerate() {
            match node.kind {
                NodeKind::Terminal => write!(w, "t {}", quoted(self.node_label(n as u32)))?,
                NodeKind::Chance { infoset } => {
                    let s = &self.infosets[infoset as usize];
                    write!(
                        w,
                        "c {} {} {} {{",
                        quoted(self.node_label(n as u32)),
                        s.number,
                        quoted(self.infoset_label(infoset))
                    )?;
                    for (a, p) in self.action_labels(infoset).zip(self.probabilities(infoset)) {
                        write!(w, " {} {p}", quoted(a))?;
                    }
                    write!(w, " }}")?;
                }
                NodeKind::Personal { player, infoset } => {
                    let s = &self.infosets[infoset as usize];
                    write!(
                        w,
                        "p {} {} {} {} {{",
                        quoted(self.node_label(n as u32)),
                        player + 1,
                        s.number,
                        quoted(self.infoset_label(infoset))
                    )?;
                    for a in self.action_labels(infoset) {
                        write!(w, " {}", quoted(a))?;
                    }
                    write!(w, " }}")?;
                }
            }
            match self.outcome_of(n as u32) {
                None => writeln!(w, " 0")?,
                Some(o) => {
                    let pay: Vec<String> = self.payoffs(o).iter().map(|x| x.to_string()).collect();
                    writeln!(
                        w,
                        " {} {} {{ {} }}",
                        o.number,
                        quoted(self.outcome_label(o)),
                        pay.join(", ")
                    )?;
                }
            }
        }
        w.flush()
    }

    /// The game as `.efg` text.
    pub fn to_text(&self) -> String {
        let mut buf = Vec::new();
        self.write(&mut buf).expect("writing to memory");
        String::from_utf8(buf).expect("labels are UTF-8")
    }
}
