"""What the ad server saw and what Seam decided, for one bench-live run.

  ad_view.py log ACCESS_LOG SKIP_LINES OUT.json
      the ad server's access log (one `$msec` per request, bench-live's ad nginx): requests after
      the first SKIP_LINES, per second, and the busiest second.
  ad_view.py metrics OUT.json URL...
      Seam's break decisions from /metrics (summed over the URLs, one per replica):
      seam_avails_total{kind="live"} by outcome and skip reason, and seam_avails_prefetched_total.
"""

import json
import re
import sys
import urllib.request
from collections import Counter

SERIES = re.compile(r'^(seam_avails_total|seam_avails_prefetched_total)\{([^}]*)\}\s+([0-9.eE+-]+)$')


def labels(text):
    return dict(re.findall(r'(\w+)="([^"]*)"', text))


def from_log(path, skip, out):
    per_second = Counter()
    with open(path) as log:
        for index, line in enumerate(log):
            if index < skip or not line.strip():
                continue
            per_second[int(float(line.split()[0]))] += 1
    total = sum(per_second.values())
    busiest = max(per_second.items(), key=lambda item: item[1]) if per_second else (None, 0)
    span = (max(per_second) - min(per_second) + 1) if per_second else 0
    json.dump({"requests": total, "busiest_second_requests": busiest[1], "seconds_with_requests": len(per_second),
               "span_seconds": span, "per_second": {str(k): v for k, v in sorted(per_second.items())}},
              open(out, "w"), indent=1)


def from_metrics(out, urls):
    outcomes, reasons, prefetched = Counter(), Counter(), Counter()
    for url in urls:
        with urllib.request.urlopen(url, timeout=10) as answer:
            for line in answer.read().decode().splitlines():
                match = SERIES.match(line)
                if not match:
                    continue
                name, label_text, value = match.groups()
                tags = labels(label_text)
                if tags.get("kind") != "live":
                    continue
                count = int(float(value))
                if name == "seam_avails_total":
                    outcomes[tags.get("outcome", "?")] += count
                    if tags.get("outcome") == "empty":
                        reasons[tags.get("reason", "?")] += count
                else:
                    prefetched[tags.get("outcome", "?")] += count
    decided = sum(outcomes.values())
    json.dump({"decided": decided, "filled": outcomes.get("filled", 0), "empty": outcomes.get("empty", 0),
               "empty_reasons": dict(reasons), "prefetched": dict(prefetched),
               "filled_share": (outcomes.get("filled", 0) / decided) if decided else None},
              open(out, "w"), indent=1)


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "log":
        from_log(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    elif len(sys.argv) >= 4 and sys.argv[1] == "metrics":
        from_metrics(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
