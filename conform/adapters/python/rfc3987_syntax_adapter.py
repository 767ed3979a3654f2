"""Python's rfc3987-syntax behind `iri conform` (docs/conform-protocol.md).

rfc3987-syntax checks RFC 3987's rules with a Lark (Earley) grammar; its rules are
named in lowercase with "_" for "-" (iri_reference). It gives no components.
"""
import json, os, sys

try:
    import rfc3987_syntax
except ImportError:
    print("needs: pip install rfc3987-syntax", file=sys.stderr)
    sys.exit(3)

grammar = os.environ.get("IRI_CONFORM_GRAMMAR", "iri")
asked = os.environ.get("IRI_CONFORM_RULE", "IRI-reference")
rule = asked.lower().replace("-", "_")
# The package's RFC3987_SYNTAX_TERMS lacks rules its grammar has (and runs two
# names together), so ask the grammar itself: Lark refuses an unknown start rule.
try:
    assert grammar == "iri"
    is_valid = rfc3987_syntax.make_syntax_validator(rule)
except Exception:
    print(f"rfc3987-syntax: no rule {asked} in grammar {grammar}", file=sys.stderr)
    sys.exit(2)

for line in sys.stdin:
    print("valid" if is_valid(json.loads(line)) else "invalid", flush=True)
