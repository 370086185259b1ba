//! The commit this binary is built from, for `lastbite --version`: `LASTBITE_COMMIT` when
//! set (a release built from an exported tree), else git's, else `unknown` (a packaged
//! crate carries no repository).

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-env-changed=LASTBITE_COMMIT");
    let commit = std::env::var("LASTBITE_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| git(&["rev-parse", "--short=12", "HEAD"]))
        .unwrap_or_else(|| "unknown".into());
    // A new commit moves HEAD or the branch it names: built again then, not otherwise.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        for path in ["HEAD", "refs/heads", "packed-refs"] {
            println!("cargo:rerun-if-changed={dir}/{path}");
        }
    }
    println!("cargo:rustc-env=LASTBITE_COMMIT={commit}");
}
