//! Names the commit the `iri` command is built from, for `iri --version`
//! (`IRI_COMMIT`): `git rev-parse` where the sources are a git checkout, `unknown`
//! elsewhere (a packaged crate, a tarball). Rebuilt when the checkout's HEAD moves.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    Some(text.trim().to_string()).filter(|t| !t.is_empty())
}

/// Asks cargo to run this again when `path` (from `git rev-parse --git-path`)
/// changes; only a file that exists: a path that does not (a branch in
/// `packed-refs`) would run it, and rebuild the command, on every build.
fn watch(path: Option<String>) {
    if let Some(path) = path.filter(|p| std::path::Path::new(p).is_file()) {
        println!("cargo:rerun-if-changed={path}");
    }
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    // HEAD itself, and the branch it names (a commit moves the branch, not HEAD).
    watch(git(&["rev-parse", "--git-path", "HEAD"]));
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch(git(&["rev-parse", "--git-path", &branch]));
    }
    watch(git(&["rev-parse", "--git-path", "packed-refs"]));
    println!("cargo:rerun-if-changed=build.rs");
    println!(
        "cargo:rustc-env=IRI_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
}
