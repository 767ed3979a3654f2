"""Python's pydantic 2 `AnyUrl` behind `iri conform` (docs/conform-protocol.md).

`TypeAdapter(AnyUrl).validate_python(s)`, as a model's field of type AnyUrl is
validated: valid unless it raises ValidationError. pydantic-core parses with the
Rust url crate, so it follows the WHATWG URL Standard, not RFC 3986: absolute URLs
only (the rule is URI), spaces at the ends and tabs forgiven, case, IDNA,
percent-encoding and dot segments normalized. Components, as for the url crate's
adapter, only when the URL's serialization is the input: the scheme, host, path,
query and fragment (its port is the scheme's default when none is written, so it
is left out; so is the path after the `/.` the Standard writes before a path
starting with `//` without a host).
"""
import json, os, sys

try:
    import pydantic
    from pydantic import AnyUrl, TypeAdapter
except ImportError:
    print("needs: pip install pydantic", file=sys.stderr)
    sys.exit(3)

grammar = os.environ.get("IRI_CONFORM_GRAMMAR", "uri")
rule = os.environ.get("IRI_CONFORM_RULE", "URI")
if (grammar, rule) != ("uri", "URI"):
    print(f"pydantic: answers URI in grammar uri only, not {rule} in {grammar}", file=sys.stderr)
    sys.exit(2)

adapter = TypeAdapter(AnyUrl)
for line in sys.stdin:
    s = json.loads(line)
    try:
        url = adapter.validate_python(s)
    except pydantic.ValidationError:
        print("invalid", flush=True)
        continue
    if str(url) != s:
        print("valid", flush=True)
        continue
    parts = {"valid": True, "scheme": url.scheme, "query": url.query, "fragment": url.fragment}
    if url.host is not None:
        parts["host"] = url.host
    # pydantic gives an empty path as None; a URL's path is never absent.
    path = url.path or ""
    if url.host is not None or not path.startswith("//"):
        parts["path"] = path
    print(json.dumps(parts), flush=True)
