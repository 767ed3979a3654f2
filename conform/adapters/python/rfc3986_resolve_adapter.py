"""Python's rfc3986 resolving (`URIReference.resolve_with`, RFC 3986 §5.2) behind
`iri conform --resolve` (docs/conform-protocol.md, the resolution exchange).

The pair is parsed as rfc3986 parses (`uri_reference`, which splits without
validating); a reference or base its validator refuses is answered `invalid`
(`is_valid()`); `resolve_with` raises for a base that is not absolute.
Grammar `uri` or `iri` (rfc3986 has one grammar, with its IRI support added).
"""
import json, os, sys

try:
    import rfc3986
    from rfc3986.exceptions import RFC3986Exception
except ImportError:
    print("needs: pip install rfc3986", file=sys.stderr)
    sys.exit(3)

if os.environ.get("IRI_CONFORM_MODE") != "resolve":
    print("rfc3986: resolution only: run it with iri conform --resolve", file=sys.stderr)
    sys.exit(2)

for line in sys.stdin:
    base, reference = json.loads(line)
    b, r = rfc3986.uri_reference(base), rfc3986.uri_reference(reference)
    try:
        if not (b.is_valid(require_scheme=True) and r.is_valid()):
            raise ValueError
        target = json.dumps(r.resolve_with(b, strict=True).unsplit())
    except (RFC3986Exception, ValueError):
        target = "invalid"
    print(target, flush=True)
