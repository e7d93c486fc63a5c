#!/usr/bin/env python3
"""Compare the meaning of playlists as Python's independent `m3u8` package reads them.

Usage: m3u8_meaning.py ORIGINAL SEAM_OUTPUT [ORIGINAL SEAM_OUTPUT ...]

Each pair is parsed with m3u8.parse(); the resulting data structures must be equal.
Prints one line per differing pair and exits 1 if any differ, 0 if all agree,
3 if the m3u8 package is missing (so callers can say the check was skipped).
"""
import sys

try:
    import m3u8
except ImportError:
    print("python package m3u8 is not installed (pip install m3u8)")
    sys.exit(3)


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    # m3u8 does not strip a BOM; the meaning of a playlist does not include it.
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8", errors="replace")


def normalize(value):
    """Floats compared exactly, but ints and equal floats treated alike (10 == 10.0)."""
    if isinstance(value, dict):
        return {k: normalize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [normalize(v) for v in value]
    if isinstance(value, str):
        # m3u8 keeps CR when a file mixes line endings inside values; meaning excludes it.
        return value.replace("\r", "")
    return value


def first_difference(a, b, path="$"):
    if type(a) != type(b) and not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: present only in {'original' if key in a else 'seam'}: {a.get(key, b.get(key))!r}"
            d = first_difference(a[key], b[key], f"{path}.{key}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__)
        return 2
    failures = 0
    unreadable = 0
    for original, seam in zip(argv[0::2], argv[1::2]):
        try:
            a = normalize(m3u8.parse(read(original)))
        except Exception as error:  # m3u8 rejects some lenient input outright
            a = f"unreadable: {type(error).__name__}"
        try:
            b = normalize(m3u8.parse(read(seam)))
        except Exception as error:
            b = f"unreadable: {type(error).__name__}"
        if isinstance(a, str) and a == b:
            unreadable += 1
        d = first_difference(a, b)
        if d:
            failures += 1
            print(f"DIFFERENT {original}: {d}")
    print(f"{len(argv) // 2 - failures} of {len(argv) // 2} pairs mean the same to m3u8"
          f" ({unreadable} rejected by m3u8 in both forms)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
