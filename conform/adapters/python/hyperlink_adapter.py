"""Python's hyperlink behind `iri conform` (docs/conform-protocol.md).

`hyperlink.parse(s, decoded=False)`, which gives the URL as written (no
percent-decoding): valid unless it raises ValueError (its URLParseError, or the
ValueError its URL type raises for a character a part may not hold: both are its
way of refusing; anything else would be a crash and is left to end the program). hyperlink splits with its
own regular expression after RFC 3986 and checks each part's characters; it takes
IRIs as well as URIs, so it is asked in both grammars, for the reference rule. A
verdict only: it keeps an absent and an empty query or fragment alike, and the path
as a tuple of segments.
"""
import json, os, sys

try:
    import hyperlink
except ImportError:
    print("needs: pip install hyperlink", file=sys.stderr)
    sys.exit(3)

grammar = os.environ.get("IRI_CONFORM_GRAMMAR", "iri")
reference = {"uri": "URI-reference", "iri": "IRI-reference"}.get(grammar)
rule = os.environ.get("IRI_CONFORM_RULE", reference)
if reference is None or rule != reference:
    print(f"hyperlink: answers the reference rule in grammars uri and iri only, not {rule} in {grammar}",
          file=sys.stderr)
    sys.exit(2)

for line in sys.stdin:
    s = json.loads(line)
    try:
        hyperlink.parse(s, decoded=False)
    except ValueError:
        print("invalid", flush=True)
        continue
    print("valid", flush=True)
