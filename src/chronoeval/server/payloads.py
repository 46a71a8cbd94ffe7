"""Images of ``chronoeval serve`` decoded and hashed once per distinct data URL.

An evaluation sends the same images again and again (every model, every resumed or repeated run,
the raw and the chronoeval client of a benchmark). The server keeps, per data URL (the whole
string is the key, so a hit is an exact match), the decoded bytes, their MIME type and sha256,
up to ``max_bytes`` of URLs and bytes together (oldest first out). A URL that does not decode is
not kept: it is refused again, the same way, each time.
"""

from __future__ import annotations

import hashlib

from chronoeval.engine.request import decode_data_url


class DecodedImages:
    def __init__(self, max_bytes: int = 256 * 1024**2) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self.hits = 0
        self._kept: dict[str, tuple[str, bytes, str]] = {}

    def __call__(self, url: str) -> tuple[str, bytes, str]:
        """(mime, bytes, sha256 hex) of a base64 data URL; ValueError as decode_data_url."""
        got = self._kept.get(url)
        if got is not None:
            self.hits += 1
            return got
        mime, data = decode_data_url(url)
        got = (mime, data, hashlib.sha256(data).hexdigest())
        cost = len(url) + len(data)
        if cost <= self.max_bytes:
            while self._kept and self.size + cost > self.max_bytes:
                old_url = next(iter(self._kept))
                old = self._kept.pop(old_url)
                self.size -= len(old_url) + len(old[1])
            self._kept[url] = got
            self.size += cost
        return got
