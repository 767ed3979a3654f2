"""Python's rfc3986-validator behind `iri conform` (docs/conform-protocol.md).

What Python's jsonschema runs for the formats `uri` (rule URI) and `uri-reference`
(rule URI_reference): `validate_rfc3986(s, rule=...)`, one regular expression
written after RFC 3986's ABNF, matched with `re.match` and a closing `$`. A verdict
only: its expression has no groups.
"""
import json, os, sys

try:
    from rfc3986_validator import validate_rfc3986
except ImportError:
    print("needs: pip install rfc3986-validator", file=sys.stderr)
    sys.exit(3)

grammar = os.environ.get("IRI_CONFORM_GRAMMAR", "uri")
rule = os.environ.get("IRI_CONFORM_RULE", "URI-reference")
if grammar != "uri" or rule not in ("URI", "URI-reference"):
    print(f"rfc3986-validator: answers URI and URI-reference in grammar uri only, not {rule} in {grammar}",
          file=sys.stderr)
    sys.exit(2)

for line in sys.stdin:
    s = json.loads(line)
    found = validate_rfc3986(s, rule=rule.replace("-", "_"))
    print("invalid" if found is None else "valid", flush=True)
