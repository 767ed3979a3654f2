"""Python's rfc3987 behind `iri conform` (docs/conform-protocol.md).

rfc3987 is GPL-3.0: this program runs it, and the project copies none of it.
Its rules are RFC 3986's and RFC 3987's, named with "_" for "-" (IRI_reference).
It splits references into scheme, authority, path, query and fragment only.
"""
import json, os, sys

try:
    import rfc3987
except ImportError:
    print("needs: pip install rfc3987", file=sys.stderr)
    sys.exit(3)

grammar = os.environ.get("IRI_CONFORM_GRAMMAR", "iri")
default = "URI-reference" if grammar == "uri" else "IRI-reference"
asked = os.environ.get("IRI_CONFORM_RULE", default)
rule = asked.replace("-", "_")
if grammar not in ("uri", "iri") or rule not in rfc3987.patterns:
    print(f"rfc3987: no rule {asked} in grammar {grammar}", file=sys.stderr)
    sys.exit(2)

for line in sys.stdin:
    s = json.loads(line)
    if rfc3987.match(s, rule) is None:
        print("invalid", flush=True)
    elif rule in ("URI_reference", "IRI_reference"):
        parts = rfc3987.parse(s, rule=rule)
        keys = ("scheme", "authority", "path", "query", "fragment")
        print(json.dumps({"valid": True, **{k: parts[k] for k in keys}}), flush=True)
    else:
        print("valid", flush=True)
