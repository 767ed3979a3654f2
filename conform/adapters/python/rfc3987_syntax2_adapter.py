"""Python's rfc3987-syntax2 behind `iri conform` (docs/conform-protocol.md).

rfc3987-syntax2 checks RFC 3987's rules with a Lark (Earley) grammar; its rules are
named in lowercase with "_" for "-" (iri_reference). It gives no components.
"""
import json, os, sys

try:
    import rfc3987_syntax2
except ImportError:
    print("needs: pip install rfc3987-syntax2", file=sys.stderr)
    sys.exit(3)

grammar = os.environ.get("IRI_CONFORM_GRAMMAR", "iri")
asked = os.environ.get("IRI_CONFORM_RULE", "IRI-reference")
rule = asked.lower().replace("-", "_")
if grammar != "iri" or rule not in rfc3987_syntax2.RFC3987_SYNTAX_TERMS:
    print(f"rfc3987-syntax2: no rule {asked} in grammar {grammar}", file=sys.stderr)
    sys.exit(2)

is_valid = rfc3987_syntax2.make_syntax_validator(rule)
for line in sys.stdin:
    print("valid" if is_valid(json.loads(line)) else "invalid", flush=True)
