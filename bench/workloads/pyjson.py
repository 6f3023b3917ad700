# A json.loads/json.dumps loop over 2000 small records: 9.4 M memcpy calls,
# 99.9% of them of 0-16 B (p50 2 B), for the in-process A/B of the masked
# small copies (doc/decisions.md, D45).
import json
d = [{"id": i, "name": "item%d" % i, "tags": ["a", "bb", "ccc"], "v": i * 0.5} for i in range(2000)]
s = json.dumps(d)
for _ in range(150):
    json.loads(s)
    json.dumps(d)
