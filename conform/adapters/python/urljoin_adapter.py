"""Python's urllib.parse.urljoin behind `iri conform --resolve`
(docs/conform-protocol.md, the resolution exchange).

urljoin is the standard library's; it validates almost nothing (it raises
ValueError for a bracket it cannot read as an IPv6 host: `invalid`).
"""
import json, os, sys
from urllib.parse import urljoin

if os.environ.get("IRI_CONFORM_MODE") != "resolve":
    print("urljoin: resolution only: run it with iri conform --resolve", file=sys.stderr)
    sys.exit(2)

for line in sys.stdin:
    base, reference = json.loads(line)
    try:
        target = json.dumps(urljoin(base, reference))
    except ValueError:
        target = "invalid"
    print(target, flush=True)
