"""Python's rfc3986 behind `iri conform` (docs/conform-protocol.md).

rfc3986 splits a reference with RFC 3986 Appendix B's regular expression and
checks each component with its Validator. It has IRI types, but its validators
are RFC 3986's alone, so it answers the grammar uri's URI-reference only.
"""
import json, os, sys

try:
    import rfc3986
    from rfc3986 import exceptions, validators
except ImportError:
    print("needs: pip install rfc3986", file=sys.stderr)
    sys.exit(3)

grammar = os.environ.get("IRI_CONFORM_GRAMMAR", "uri")
rule = os.environ.get("IRI_CONFORM_RULE", "URI-reference")
if (grammar, rule) != ("uri", "URI-reference"):
    print(f"rfc3986: answers URI-reference in grammar uri only, not {rule} in {grammar}",
          file=sys.stderr)
    sys.exit(2)

validator = validators.Validator().check_validity_of(
    "scheme", "userinfo", "host", "port", "path", "query", "fragment")
for line in sys.stdin:
    s = json.loads(line)
    # uri_reference percent-encodes the path, query and fragment (a space becomes
    # %20) before they are validated, and makes an empty scheme, authority or path
    # None: its verdict and components are the package's as a user gets them.
    ref = rfc3986.uri_reference(s)
    try:
        validator.validate(ref)
        parts = {k: getattr(ref, k) for k in ("scheme", "authority", "userinfo", "host", "port")}
    except exceptions.RFC3986Exception:
        print("invalid", flush=True)
        continue
    # The path, query and fragment only where encoding changed nothing, so that an
    # encoded one is never mistaken for the input's text.
    if ref.unsplit() == s:
        parts.update(path=ref.path, query=ref.query, fragment=ref.fragment)
    print(json.dumps({"valid": True, **parts}), flush=True)
