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

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"]);
    // HEAD itself, and the branch it names (a commit moves the branch, not HEAD).
    if let Some(head) = git(&["rev-parse", "--git-path", "HEAD"]) {
        println!("cargo:rerun-if-changed={head}");
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        if let Some(path) = git(&["rev-parse", "--git-path", &branch]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
    println!(
        "cargo:rustc-env=IRI_COMMIT={}",
        commit.as_deref().unwrap_or("unknown")
    );
}
