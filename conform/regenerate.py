#!/usr/bin/env python3
"""Regenerates docs/conformance-of-parsers.md: `iri conform` run against every adapter
of conform/adapters/, on each grammar the adapter answers, and the reports made into
one page (a table of parsers by grammar area, then each group with its minimal
example).

    python3 conform/regenerate.py [--budget N] [--seed S] [--reports DIR] [--out FILE]

It builds what it runs (`cargo build --release -p iri-cli -p iri-conform-adapters`,
in CARGO_TARGET_DIR if set), installs the Python parsers of
conform/adapters/python/requirements.txt into a fresh virtual environment and the npm
parsers of conform/adapters/node (`npm ci`), and needs `node`, `npm`, `java`, `ruby`,
`perl` (with Debian's liburi-perl and libdata-validate-uri-perl) and `go` on the
PATH: the page names every parser, so a parser that cannot run stops the script
rather than leave a row out. `--reports DIR` keeps the JSON
reports (`iri --json conform`), one per parser and grammar.

The page ends with the resolution table (`iri conform --resolve`, the adapters of
RESOLVERS, which need `ruby` and Perl's `URI` too); `--resolution-only` runs only
those and rewrites only that section of the page.
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name, where its version comes from, the standard it follows, the grammars it
# answers, the command (`{bin}`: the release target folder, `{python}`: the venv's).
PARSERS = [
    ("oxiri", ("cargo", "oxiri"), "RFC 3987", ["iri"], ["{bin}/oxiri"]),
    ("fluent-uri", ("cargo", "fluent-uri"), "RFC 3986, RFC 3987", ["uri", "iri"], ["{bin}/fluent-uri"]),
    ("iri-string", ("cargo", "iri-string"), "RFC 3986, RFC 3987", ["uri", "iri"], ["{bin}/iri-string"]),
    ("url (Rust)", ("cargo", "url"), "WHATWG URL", ["uri", "iri"], ["{bin}/url"]),
    ("rfc3987 (Python)", ("pip", "rfc3987"), "RFC 3986, RFC 3987", ["uri", "iri"],
     ["{python}", "conform/adapters/python/rfc3987_adapter.py"]),
    ("rfc3986 (Python)", ("pip", "rfc3986"), "RFC 3986", ["uri"],
     ["{python}", "conform/adapters/python/rfc3986_adapter.py"]),
    ("rfc3987-syntax (Python)", ("pip", "rfc3987-syntax"), "RFC 3987", ["iri"],
     ["{python}", "conform/adapters/python/rfc3987_syntax_adapter.py"]),
    ("rfc3987-syntax2 (Python)", ("pip", "rfc3987-syntax2"), "RFC 3987", ["iri"],
     ["{python}", "conform/adapters/python/rfc3987_syntax2_adapter.py"]),
    ("URL (Node.js)", ("node",), "WHATWG URL", ["uri", "iri"], ["node", "conform/adapters/node/url.mjs"]),
    ("java.net.URI", ("java",), "RFC 2396", ["uri", "iri"], ["java", "conform/adapters/java/JavaNetUri.java"]),
]

# The parsers people run most. A run is a grammar, or (grammar, rule) where the
# parser answers another rule than the grammar's reference rule (`--rule`).
PARSERS += [
    ("Ajv + ajv-formats", ("npm", "ajv", "ajv-formats"), "RFC 3986 (its own regular expressions, full mode)",
     [("uri", "URI"), ("uri", "URI-reference")], ["node", "conform/adapters/node/ajv-formats.mjs"]),
    ("fast-uri", ("npm", "fast-uri"), "RFC 3986 (its own parser; refuses little)", ["uri"],
     ["node", "conform/adapters/node/fast-uri.mjs"]),
    ("uri-js", ("npm", "uri-js"), "RFC 3986 (Appendix B's split; refuses almost nothing)", ["uri"],
     ["node", "conform/adapters/node/uri-js.mjs"]),
    ("valid-url", ("npm", "valid-url"), "its own checks, after RFC 3986", [("uri", "URI")],
     ["node", "conform/adapters/node/valid-url.mjs"]),
    ("rfc3986-validator (Python)", ("pip", "rfc3986-validator"), "RFC 3986 (a regular expression)",
     [("uri", "URI"), ("uri", "URI-reference")],
     ["{python}", "conform/adapters/python/rfc3986_validator_adapter.py"]),
    ("validators (Python)", ("pip", "validators"), "its own (web URLs, a list of schemes)", [("uri", "URI")],
     ["{python}", "conform/adapters/python/validators_adapter.py"]),
    ("pydantic AnyUrl (Python)", ("pip", "pydantic"), "WHATWG URL", [("uri", "URI")],
     ["{python}", "conform/adapters/python/pydantic_adapter.py"]),
    ("hyperlink (Python)", ("pip", "hyperlink"), "RFC 3986, RFC 3987 (its own regular expressions)",
     ["uri", "iri"], ["{python}", "conform/adapters/python/hyperlink_adapter.py"]),
    ("URI::RFC3986_PARSER (Ruby)", ("ruby",), "RFC 3986 (regular expressions)", ["uri"],
     ["ruby", "conform/adapters/ruby/rfc3986_parser.rb"]),
    ("URI (Perl)", ("perl", "URI"), "none: it escapes what is not a URI character", ["uri"],
     ["perl", "conform/adapters/perl/uri.pl"]),
    ("Data::Validate::URI (Perl)", ("perl", "Data::Validate::URI"), "its own checks, after RFC 3986",
     [("uri", "URI")], ["perl", "conform/adapters/perl/data_validate_uri.pl"]),
    ("net/url (Go)", ("go",), "its own (RFC 3986 in part)", ["uri"], ["sh", "conform/adapters/go/neturl.sh"]),
]

# Monthly downloads, only as a registry gave them: npm's last-month counts
# (api.npmjs.org), read in late 2026 for the project's survey of peers. PyPI's
# (pypistats.org) could not be reached when these were read; Debian's packages, the
# crates and the built-ins have none here.
DOWNLOADS = {
    "Ajv + ajv-formats": "ajv 940M, ajv-formats 266M",
    "fast-uri": "229M",
    "uri-js": "408M",
    "valid-url": "14M",
}
DOWNLOADS_SOURCE = (
    "the npm registry's monthly counts as the project's survey of peers recorded them in"
    " late 2026, not read again when this page is made; — where none was recorded (PyPI's,"
    " at pypistats.org, could not be reached; crates, Debian packages and built-ins are not"
    " counted here)"
)

# The grammar areas of the table, in its order.
AREAS = [
    "scheme", "authority, userinfo", "IPv4", "IPv6", "IPvFuture", "reg-name", "port",
    "path", "query, fragment", "percent-encoding", "non-ASCII", "reference",
]

# Rules by area, in RFC 3986's names (RFC 3987's `i` rules are read without the `i`).
RULE_AREAS = {
    "scheme": "scheme",
    "authority": "authority, userinfo", "userinfo": "authority, userinfo",
    "IPv4address": "IPv4", "dec-octet": "IPv4",
    "IPv6address": "IPv6", "h16": "IPv6", "ls32": "IPv6",
    "IPvFuture": "IPvFuture",
    "reg-name": "reg-name", "host": "reg-name",
    "port": "port",
    "path": "path", "path-abempty": "path", "path-absolute": "path", "path-noscheme": "path",
    "path-rootless": "path", "path-empty": "path", "segment": "path", "segment-nz": "path",
    "segment-nz-nc": "path", "pchar": "path",
    "query": "query, fragment", "fragment": "query, fragment", "private": "query, fragment",
    "pct-encoded": "percent-encoding", "HEXDIG": "percent-encoding",
    "ucschar": "non-ASCII",
}

COMPONENT_AREAS = {
    "scheme": "scheme", "authority": "authority, userinfo", "userinfo": "authority, userinfo",
    "host": "reg-name", "port": "port", "path": "path", "query": "query, fragment",
    "fragment": "query, fragment",
}


def area(group):
    """The area of the table a group counts in: the component that differs, else the
    rule where the parser parts from the grammar; an `IP-literal` by what is inside
    its brackets; a rule of the reference's structure or of characters by the
    example (non-ASCII, a percent-encoding), else `reference`."""
    example = group["examples"][0]["input"] if group["examples"] else ""
    if group["kind"] == "component":
        found = COMPONENT_AREAS.get(group["component"], "reference")
        if found == "reg-name" and "[" in example:
            return "IPvFuture" if re.search(r"\[[vV]", example) else "IPv6"
        return found
    rule = group["rule"]
    if rule == "IP-literal":
        return "IPvFuture" if re.search(r"\[[vV]", example) else "IPv6"
    bare = rule[1:] if rule.startswith("i") and rule[1:] in RULE_AREAS else rule
    if bare in RULE_AREAS:
        return RULE_AREAS[bare]
    if any(ord(c) > 0x7F for c in example):
        return "non-ASCII"
    if "%" in example:
        return "percent-encoding"
    return "reference"


def shown(s):
    """A string as a JSON literal, every character that does not show itself
    (controls, spaces other than U+0020, format characters) escaped, in a code span."""
    out = []
    for c in json.dumps(s, ensure_ascii=False)[1:-1]:
        cat = unicodedata.category(c)
        # U+FFFD reads as a decoding error, not a character the parser was given.
        if (cat[0] in "CZ" and c != " ") or cat == "Mn" or c == "\ufffd":
            out.append("\\u%04x" % ord(c) if ord(c) <= 0xFFFF else "\\U%08x" % ord(c))
        else:
            out.append(c)
    text = '"' + "".join(out) + '"'
    fence = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def run(cmd, cwd=ROOT, **kw):
    return subprocess.run(cmd, cwd=cwd, check=True, **kw)


def cargo_versions():
    lock = (ROOT / "Cargo.lock").read_text()
    return dict(re.findall(r'\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"', lock))


def version(source, python, cargo):
    if source[0] == "cargo":
        return cargo[source[1]]
    if source[0] == "pip":
        code = f"import importlib.metadata as m; print(m.version({source[1]!r}))"
        return subprocess.check_output([python, "-c", code], text=True).strip()
    if source[0] == "node":
        return "Node.js " + subprocess.check_output(["node", "--version"], text=True).strip().lstrip("v")
    if source[0] == "java":
        out = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
        return "Java " + re.search(r'version "([^"]+)"', out).group(1)
    if source[0] == "npm":
        node = ROOT / "conform" / "adapters" / "node" / "node_modules"
        return " + ".join(json.loads((node / p / "package.json").read_text())["version"] for p in source[1:])
    if source[0] == "ruby":
        return "Ruby " + subprocess.check_output(["ruby", "-e", "print RUBY_VERSION"], text=True)
    if source[0] == "perl":
        code = f"use {source[1]}; print ${source[1]}::VERSION"
        return subprocess.check_output(["perl", "-e", code], text=True)
    if source[0] == "go":
        return subprocess.check_output(["go", "version"], text=True).split()[2].removeprefix("go")
    raise ValueError(source)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budget", type=int, default=5000, help="inputs per run (iri conform --budget)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--reports", type=Path, help="keep the JSON reports in this folder")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "conformance-of-parsers.md")
    ap.add_argument("--resolution-only", action="store_true",
                    help="run the resolution adapters only and rewrite only the page's resolution section")
    args = ap.parse_args()

    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    if not target.is_absolute():
        target = ROOT / target
    run(["cargo", "build", "--release", "-q", "-p", "iri-cli", "-p", "iri-conform-adapters"])
    iri = target / "release" / "iri"
    tmp = Path(tempfile.mkdtemp(prefix="conform-"))
    reports = args.reports or tmp / "reports"
    reports.mkdir(parents=True, exist_ok=True)
    run([sys.executable, "-m", "venv", str(tmp / "venv")])
    python = str(tmp / "venv" / "bin" / "python")
    run([python, "-m", "pip", "install", "--quiet", "-r", "conform/adapters/python/requirements.txt"])
    run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=ROOT / "conform" / "adapters" / "node")
    cargo = cargo_versions()
    commit = subprocess.check_output(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True).strip()

    resolution = resolution_section(iri, target, python, cargo, args, reports)
    if args.resolution_only:
        old = args.out.read_text()
        head = old.split(RESOLUTION_HEADING)[0].rstrip("\n")
        args.out.write_text(head + "\n\n" + resolution)
        print(f"wrote the resolution section of {args.out.relative_to(ROOT)}", file=sys.stderr)
        return

    rows = []
    for name, source, standard, grammars, command in PARSERS:
        cmd = [c.format(bin=target / "release", python=python) for c in command]
        ver = version(source, python, cargo)
        for grammar in grammars:
            # A rule other than the grammar's reference rule is named with its grammar.
            grammar, rule = grammar if isinstance(grammar, tuple) else (grammar, None)
            asked = ["--rule", rule] if rule else []
            out = subprocess.run(
                [str(iri), "--grammar", grammar, "--json", "conform", *asked, "--budget", str(args.budget),
                 "--seed", str(args.seed), "--", *cmd],
                cwd=ROOT, capture_output=True, text=True,
            )
            if out.returncode not in (0, 1):
                sys.exit(f"{name} on {grammar} {rule or ''}: iri conform exited {out.returncode}:\n{out.stderr}")
            report = json.loads(out.stdout)
            slug = re.sub(r"[^a-z0-9]+", "-", " ".join([name, grammar, rule or ""]).lower()).strip("-")
            (reports / f"{slug}.json").write_text(out.stdout)
            shown_grammar = f"{grammar} `{rule}`" if rule else grammar
            rows.append((name, ver, standard, shown_grammar, report))
            print(f"{name} {shown_grammar}: {len(report['groups'])} groups", file=sys.stderr)

    args.out.write_text(page(rows, args.budget, args.seed, commit) + "\n" + resolution)
    print(f"wrote {args.out.relative_to(ROOT)}", file=sys.stderr)


def page(rows, budget, seed, commit):
    date = datetime.date.today().isoformat()
    lines = [
        "# Conformance of URI and IRI parsers",
        "",
        "<!-- Generated by `python3 conform/regenerate.py`; edit that script, not this page. -->",
        "",
        "Where each parser parts from the ABNF of RFC 3986 (URI) and RFC 3987 (IRI), as",
        "`iri conform` finds it ([the protocol](conform-protocol.md), [the adapters]"
        "(../conform/adapters/README.md)): each run asks the parser about the covering",
        "suite of the grammar's reference rule, near misses of it and strings drawn from",
        "the grammar, judges every answer by the ABNF (validity) and by this library",
        "(components), makes each disagreement as short and plain as it goes, and groups",
        "them by the rule where the parser parts from the grammar. It is a search, not a",
        "proof: an empty cell means none found. Parsers that follow another standard",
        "(the WHATWG URL Standard, RFC 2396) are here to show where that standard parts",
        "from the RFCs, not only their mistakes.",
        "",
        f"Generated on {date} at commit `{commit}` by `python3 conform/regenerate.py --budget {budget}"
        + (f" --seed {seed}" if seed else "") + f"` ({budget:,} inputs per run, seed {seed}).",
        "",
        "## By grammar area",
        "",
        "Each cell: the groups of disagreements in that area, and how many inputs",
        "disagreed before minimizing. A group is one way of parting at one rule.",
        "",
        "A grammar with a rule: the parser was asked that rule, not the grammar's reference",
        "rule (absolute URIs only, or a JSON Schema format). Monthly downloads: "
        + DOWNLOADS_SOURCE + ".",
        "",
        "| parser | version | follows | monthly downloads | grammar | " + " | ".join(AREAS) + " | hangs, crashes |",
        "|---|---|---|---|---|" + "--:|" * (len(AREAS) + 1),
    ]
    for name, ver, standard, grammar, r in rows:
        cells = {a: [0, 0] for a in AREAS}
        for g in r["groups"]:
            cells[area(g)][0] += 1
            cells[area(g)][1] += g["count"]
        shown_cells = [f"{n} ({c})" if n else "" for n, c in (cells[a] for a in AREAS)]
        trouble = (len(r["hangs"]) + len(r["crashes"]) + len(r["unreadable"])
                   + r.get("unreadable_left_out", 0))
        lines.append(
            f"| {name} | {ver} | {standard} | {DOWNLOADS.get(name, '—')} | {grammar} | " + " | ".join(shown_cells)
            + f" | {trouble or ''} |"
        )
    lines += ["", "## The groups, each with its minimal example", ""]
    for name, ver, standard, grammar, r in rows:
        lines.append(f"### {name} {ver}, {grammar}")
        lines.append("")
        lines.append(
            f"{r['inputs']:,} inputs asked, {r['agreed']:,} agreed, {r['disagreements']:,} disagreed"
            f" in {plural(len(r['groups']), 'group')}."
            + (f" Stopped early: {r['stopped_early']}." if r.get("stopped_early") else "")
        )
        lines.append("")
        for g in sorted(r["groups"], key=lambda g: (AREAS.index(area(g)), -g["count"])):
            what = g["kind"] + (f" ({g['component']})" if g.get("component") else "")
            alt = f", alternative {g['alternative']} of {g['alternatives']}" if g.get("alternative") else ""
            where = g["document"] + (f" [§{g['section']}]({g['section_url']})" if g.get("section") else "")
            ex = g["examples"][0] if g["examples"] else None
            example = shown(ex["input"]) if ex else "(none kept)"
            if ex and g["kind"] == "component":
                example += f": {g['component']} is {describe(ex['expected'])}, the parser says {describe(ex['got'])}"
            lines.append(
                f"- **{area(g)}**: {what} at `{g['rule']}`{alt} ({where}), {plural(g['count'], 'input')}: {example}"
            )
        for h in r["hangs"]:
            lines.append(f"- **hang**: no answer to {shown(h)}")
        for c in r["crashes"]:
            lines.append(f"- **crash** ({c['status']}): on {shown(c['input'])}")
        for u in r["unreadable"]:
            lines.append(f"- **answer not understood** ({u['why']}): to {shown(u['input'])}")
        lines.append("")
    return "\n".join(lines)


def plural(n, noun):
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def describe(component):
    return "absent" if component is None else shown(component)


# ---- Resolution (`iri conform --resolve`) ---------------------------------------

RESOLUTION_HEADING = "## Resolution"

# name, where its version comes from, the standard it follows, the grammar it is
# asked in, the command (as PARSERS).
RESOLVERS = [
    ("oxiri", ("cargo", "oxiri"), "RFC 3986", "iri", ["{bin}/oxiri-resolve"]),
    ("fluent-uri", ("cargo", "fluent-uri"), "RFC 3986", "iri", ["{bin}/fluent-uri-resolve"]),
    ("iri-string", ("cargo", "iri-string"), "RFC 3986", "iri", ["{bin}/iri-string-resolve"]),
    ("url (Rust)", ("cargo", "url"), "WHATWG URL", "iri", ["{bin}/url-resolve"]),
    ("URL (Node.js)", ("node",), "WHATWG URL", "iri", ["node", "conform/adapters/node/url-resolve.mjs"]),
    ("urljoin (Python)", ("python",), "RFC 3986", "iri",
     ["{python}", "conform/adapters/python/urljoin_adapter.py"]),
    ("rfc3986 (Python)", ("pip", "rfc3986"), "RFC 3986", "uri",
     ["{python}", "conform/adapters/python/rfc3986_resolve_adapter.py"]),
    ("java.net.URI", ("java",), "RFC 2396", "uri", ["java", "conform/adapters/java/JavaNetUriResolve.java"]),
    ("URI (Ruby)", ("ruby",), "RFC 3986", "uri", ["ruby", "conform/adapters/ruby/uri_resolve.rb"]),
    ("URI (Perl)", ("perl",), "RFC 3986", "uri", ["perl", "conform/adapters/perl/uri_resolve.pl"]),
]

# The table's columns: the steps of RFC 3986 §5.2.2-§5.2.4 a target parts at (the
# step names of `iri conform --resolve`), then the refusals either way.
RESOLUTION_COLUMNS = [
    ("scheme (§5.2.2)", ["reference-scheme", "non-strict"]),
    ("authority (§5.2.2)", ["reference-authority", "base-authority"]),
    ("empty path (§5.2.2)", ["empty-path"]),
    ("absolute path (§5.2.2)", ["absolute-path"]),
    ("merge (§5.2.3)", ["merge"]),
    ("remove_dot_segments (§5.2.4)", ["remove-dot-segments"]),
    ("query (§5.2.2)", ["query-inheritance", "reference-query"]),
    ("fragment (§5.2.2)", ["fragment"]),
    ("normalizes the target", ["normalizes", "target-not-a-reference"]),
]


def resolver_version(source, python, cargo):
    if source[0] == "python":
        return "Python " + subprocess.check_output([python, "--version"], text=True).split()[1]
    if source[0] == "ruby":
        return "Ruby " + subprocess.check_output(["ruby", "-e", "print RUBY_VERSION"], text=True)
    if source[0] == "perl":
        return "URI " + subprocess.check_output(["perl", "-MURI", "-e", "print $URI::VERSION"], text=True)
    return version(source, python, cargo)


def resolution_section(iri, target, python, cargo, args, reports):
    """Runs `iri conform --resolve` against each of RESOLVERS; the page's section."""
    rows = []
    for name, source, standard, grammar, command in RESOLVERS:
        cmd = [c.format(bin=target / "release", python=python) for c in command]
        ver = resolver_version(source, python, cargo)
        out = subprocess.run(
            [str(iri), "--grammar", grammar, "--json", "conform", "--resolve", "--budget",
             str(args.budget), "--seed", str(args.seed), "--", *cmd],
            cwd=ROOT, capture_output=True, text=True,
        )
        if out.returncode not in (0, 1):
            sys.exit(f"{name} resolving: iri conform --resolve exited {out.returncode}:\n{out.stderr}")
        report = json.loads(out.stdout)
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        (reports / f"resolve-{slug}-{grammar}.json").write_text(out.stdout)
        rows.append((name, ver, standard, grammar, report))
        print(f"{name} resolving: {len(report['groups'])} groups", file=sys.stderr)
    return resolution_page(rows, args.budget, args.seed)


def resolution_page(rows, budget, seed):
    lines = [
        RESOLUTION_HEADING,
        "",
        "Where each parser's reference resolution parts from RFC 3986 §5.2, as `iri conform",
        "--resolve` finds it ([the protocol](conform-protocol.md#resolution-iri-conform---resolve)):",
        "RFC 3986 §5.4's examples, then the reference rule's inputs against twelve bases, each",
        "target judged by this library's strict resolution, each disagreement shrunk (the",
        "reference, then the base) and put at the step where the parser's target first parts",
        "from the library's: its components are compared in the order scheme, authority,",
        "path, query, fragment, after normalization, and the first that differs names the",
        "step (a path given dot segments: remove_dot_segments; else a relative path: merge).",
        "A target equal to the library's once both are normalized counts as *normalizes*.",
        f"{budget:,} pairs per parser" + (f", seed {seed}" if seed else "") + ".",
        "",
        "Each cell: how many pairs parted at that step. *refuses*: the parser answers",
        "invalid where the library resolves; *resolves invalid*: it gives a target where",
        "the library refuses (a reference, or base, that is no reference of the grammar).",
        "",
        "| parser | version | follows | grammar | "
        + " | ".join(c for c, _ in RESOLUTION_COLUMNS) + " | refuses | resolves invalid | hangs, crashes |",
        "|---|---|---|---|" + "--:|" * (len(RESOLUTION_COLUMNS) + 3),
    ]
    for name, ver, standard, grammar, r in rows:
        cells = []
        for _, steps in RESOLUTION_COLUMNS:
            n = sum(g["count"] for g in r["groups"] if g["kind"] == "target" and g["step"] in steps)
            cells.append(f"{n:,}" if n else "")
        for kind in ("refuses", "resolves-invalid"):
            n = sum(g["count"] for g in r["groups"] if g["kind"] == kind)
            cells.append(f"{n:,}" if n else "")
        trouble = (len(r["hangs"]) + len(r["crashes"]) + len(r["unreadable"])
                   + r.get("unreadable_left_out", 0))
        lines.append(f"| {name} | {ver} | {standard} | {grammar} | " + " | ".join(cells)
                     + f" | {trouble or ''} |")
    lines += ["", "### The resolution groups, each with its minimal example", ""]
    for name, ver, standard, grammar, r in rows:
        lines.append(f"#### {name} {ver}, {grammar}")
        lines.append("")
        lines.append(
            f"{r['inputs']:,} pairs asked, {r['agreed']:,} agreed, {r['disagreements']:,} disagreed"
            f" in {plural(len(r['groups']), 'group')}."
            + (f" Stopped early: {r['stopped_early']}." if r.get("stopped_early") else "")
        )
        lines.append("")
        for g in sorted(r["groups"], key=lambda g: -g["count"]):
            where = f" ([§{g['section']}]({g['section_url']}))" if g.get("section") else ""
            ex = g["examples"][0] if g["examples"] else None
            if ex:
                got = "invalid" if ex["got"] is None else shown(ex["got"])
                expected = "invalid" if ex["expected"] is None else shown(ex["expected"])
                example = (f"base {shown(ex['base'])}, reference {shown(ex['reference'])}: "
                           f"the library's {expected}, the parser's {got}")
            else:
                example = "(none kept)"
            lines.append(f"- **{g['kind']}** at {g['title']}{where}, {plural(g['count'], 'pair')}: {example}")
        for h in r["hangs"]:
            lines.append(f"- **hang**: no answer to `{h}`")
        for c in r["crashes"]:
            lines.append(f"- **crash** ({c['status']}): on `{c['input']}`")
        for u in r["unreadable"]:
            lines.append(f"- **answer not understood** ({u['why']}): to `{u['input']}`")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
