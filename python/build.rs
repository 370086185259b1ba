//! The commit the extension is built from, for `show_versions()`: found as the CLI's build
//! script finds it (`LASTBITE_COMMIT` when set, else git's, else `unknown`: an sdist carries
//! no repository), so a bug report names the same commit on both.

fn main() {
    println!("cargo:rerun-if-env-changed=LASTBITE_COMMIT");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git").args(args).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    let commit = std::env::var("LASTBITE_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| git(&["rev-parse", "--short=12", "HEAD"]))
        .unwrap_or_else(|| "unknown".into());
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        for path in ["HEAD", "refs/heads", "packed-refs"] {
            println!("cargo:rerun-if-changed={dir}/{path}");
        }
    }
    println!("cargo:rustc-env=LASTBITE_COMMIT={commit}");
}
