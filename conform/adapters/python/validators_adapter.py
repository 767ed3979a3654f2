"""Python's validators behind `iri conform` (docs/conform-protocol.md).

`validators.url(s)` with its default options, as a user calls it: valid when it
returns True (it returns a falsy ValidationError otherwise, and catches its own
ValueError). It follows none of the RFCs' grammars: after dperini's web URL
regular expression, it splits with urllib.parse.urlsplit and requires a scheme
from its own list (http, https, ftp, ...), a host name, IP address or file URL
authority, and checks the path, query and fragment by its own character sets.
An absolute URL only, so the rule is URI; a verdict only.
"""
import json, os, sys

try:
    import validators
except ImportError:
    print("needs: pip install validators", file=sys.stderr)
    sys.exit(3)

grammar = os.environ.get("IRI_CONFORM_GRAMMAR", "uri")
rule = os.environ.get("IRI_CONFORM_RULE", "URI")
if (grammar, rule) != ("uri", "URI"):
    print(f"validators: answers URI in grammar uri only, not {rule} in {grammar}", file=sys.stderr)
    sys.exit(2)

for line in sys.stdin:
    s = json.loads(line)
    print("valid" if validators.url(s) is True else "invalid", flush=True)
