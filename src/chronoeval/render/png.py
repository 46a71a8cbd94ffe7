"""One fast, deterministic PNG writer for every generated image.

The image is compressed in horizontal stripes of 32 rows (filter type 0, zlib level 1), each a raw
deflate stream ended by a sync flush, so each stripe's bytes are a pure function of its own pixels;
the stripes are joined into one standard zlib stream whose Adler-32 is combined from theirs. The
output is byte-identical for identical images whatever the cache state, and stripes seen before
(a calendar style's shared page body, a clock face's blank rows) are not compressed again.
Measured here on one core: 1.45 ms and 27 KiB for a 420 px clock, about 6 ms and 100 KiB for a
1.5-megapixel RGB calendar page (about 4x faster than Pillow's encoder at level 1).

Palette images (mode "P", and the calendar pages through :func:`encode_indexed_rows`) are written
as 8-bit indexed colour; a row equal to the row above costs about 1% of its size there (see below).
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict

import numpy as np
from PIL import Image

_LOCK = threading.Lock()

_STRIPE_ROWS = 32
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32K window, fastest
_FINAL_EMPTY_BLOCK = b"\x03\x00"  # BFINAL=1, fixed Huffman, end-of-block
_ADLER_BASE = 65521


class _StripeCache:
    """Compressed stripes keyed by content, kept only once a stripe has been seen twice.

    Unique stripes (a page's title) never enter the cache, so they cannot push out the stripes of
    the shared page bodies. Bounded by raw bytes held.
    """

    def __init__(self, max_bytes: int = 96 * 1024 * 1024, max_seen: int = 200_000) -> None:
        self.max_bytes = max_bytes
        self.max_seen = max_seen
        self.used = 0
        self.entries: OrderedDict[tuple[int, int], tuple[bytes, bytes, int]] = OrderedDict()
        self.seen: OrderedDict[tuple[int, int], None] = OrderedDict()

    def get(self, key: tuple[int, int], pixels: bytes | memoryview) -> tuple[bytes, int] | None:
        with _LOCK:
            hit = self.entries.get(key)
            if hit is not None:
                self.entries.move_to_end(key)
        if hit is None or hit[0] != bytes(pixels):
            return None
        return hit[1], hit[2]

    def offer(
        self, key: tuple[int, int], pixels: bytes | memoryview, comp: bytes, adler: int
    ) -> None:
        with _LOCK:
            self._offer(key, pixels, comp, adler)

    def _offer(
        self, key: tuple[int, int], pixels: bytes | memoryview, comp: bytes, adler: int
    ) -> None:
        if key in self.entries:
            return
        if key not in self.seen:
            self.seen[key] = None
            if len(self.seen) > self.max_seen:
                self.seen.popitem(last=False)
            return
        del self.seen[key]
        raw = bytes(pixels)
        self.entries[key] = (raw, comp, adler)
        self.used += len(raw) + len(comp)
        while self.used > self.max_bytes and self.entries:
            _, (r, c, _a) = self.entries.popitem(last=False)
            self.used -= len(r) + len(c)

    def clear(self) -> None:
        with _LOCK:
            self.entries.clear()
            self.seen.clear()
            self.used = 0


_STRIPES = _StripeCache()


def _adler32_combine(adler1: int, adler2: int, len2: int) -> int:
    """Adler-32 of A + B from adler32(A), adler32(B) and len(B) (zlib's adler32_combine)."""
    rem = len2 % _ADLER_BASE
    sum1 = adler1 & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (adler2 & 0xFFFF) + _ADLER_BASE - 1
    sum2 += (adler1 >> 16) + (adler2 >> 16) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _encode_stripe(pixels: memoryview, row_len: int) -> tuple[bytes, int]:
    """Raw-deflate whole rows with filter byte 0 per row; returns (deflate bytes, adler32)."""
    parts: list[bytes | memoryview] = []
    for start in range(0, len(pixels), row_len):
        parts.append(b"\x00")
        parts.append(pixels[start : start + row_len])
    filtered = b"".join(parts)
    comp = zlib.compressobj(1, zlib.DEFLATED, -15, 8, zlib.Z_DEFAULT_STRATEGY)
    return comp.compress(filtered) + comp.flush(zlib.Z_SYNC_FLUSH), zlib.adler32(filtered)


def encode_png(image: Image.Image) -> bytes:
    """Encode an RGB / RGBA / L image as PNG quickly (zlib level 1, row filter 0).

    The deflate stream is built from independently compressed 32-row stripes joined with sync
    flushes, so each stripe's bytes depend only on its own pixels: the output is deterministic
    whatever the cache state, and stripes seen before (the shared calendar bodies) are not
    compressed again.
    """
    if image.mode == "P" and "transparency" not in image.info:  # 8-bit indexed colour
        palette = bytes(image.getpalette("RGB") or b"")[: 3 * 256]
        indices = np.asarray(image, dtype=np.uint8)
        if indices.size and len(palette) // 3 > int(indices.max()):
            return encode_indexed_png(indices, palette)
        # a palette shorter than the indices (or none): written as RGB, as before
    if image.mode not in ("RGB", "L", "RGBA"):
        image = image.convert("RGB")
    channels = {"L": 1, "RGB": 3, "RGBA": 4}[image.mode]
    w, h = image.size
    raw = memoryview(image.tobytes())
    row_len = w * channels
    step = _STRIPE_ROWS * row_len
    parts = [_ZLIB_HEADER]
    adler = 1
    for start in range(0, len(raw), step):
        pixels = raw[start : start + step]
        key = (zlib.crc32(pixels), len(pixels))
        hit = _STRIPES.get(key, pixels)
        if hit is None:
            comp, stripe_adler = _encode_stripe(pixels, row_len)
            _STRIPES.offer(key, pixels, comp, stripe_adler)
        else:
            comp, stripe_adler = hit
        parts.append(comp)
        adler = _adler32_combine(adler, stripe_adler, len(pixels) + len(pixels) // row_len)
    parts.append(_FINAL_EMPTY_BLOCK)
    parts.append(struct.pack(">I", adler))
    color_type = {1: 0, 3: 2, 4: 6}[channels]
    ihdr = struct.pack(">IIBBBBB", w, h, 8, color_type, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", ihdr),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )


# --------------------------------------------------------------------------------------------
# Indexed-colour (palette) images: colour type 3, bit depth 8, filter 0 on every row.
#
# A row equal to the row above is not given to zlib: a run of such rows is written as one
# fixed-Huffman deflate block of back-references at distance = one row (each copying 258 bytes),
# built here with integer arithmetic, and ended by an empty stored block so the next part starts
# on a byte boundary. Every other run of rows is compressed by zlib (level 1)
# with a full flush at its end, so no later part refers back across a hand-written block. The decompressed stream is exactly the
# filtered rows, so any PNG decoder reads the image.

_INDEXED_LEVEL = 1  # zlib level for rows that differ from the row above
_INDEXED_MEM_LEVEL = 5  # a smaller hash table than the default 8: cheaper to reset per full flush
# Default strategy (dynamic Huffman codes): measured as fast as Z_FIXED here, 15% smaller files.
_INDEXED_STRATEGY = zlib.Z_DEFAULT_STRATEGY
# Compressed runs of rows, by content: after a full flush zlib's output for a run depends only on
# the run's bytes, so a run seen before (the weekday header of every row of months, the rows of a
# layout seen on an earlier page) is not compressed again, and the bytes do not depend on the cache.
_SEGMENTS = _StripeCache(max_bytes=48 * 1024 * 1024)


def _adler32_repeat(adler: int, length: int, count: int) -> int:
    """Adler-32 of ``count`` copies of a ``length``-byte block whose Adler-32 is ``adler``.

    With S = the block's byte sum and W = sum((length - i) * byte[i]), the copies have byte sum
    count * S and weighted sum count * W + length * S * count * (count - 1) / 2.
    """
    s1 = (adler & 0xFFFF) - 1  # S
    w = ((adler >> 16) - length) % _ADLER_BASE  # W
    a = (1 + count * s1) % _ADLER_BASE
    b = (count * length + count * w + length * s1 * (count * (count - 1) // 2)) % _ADLER_BASE
    return a | (b << 16)


def _rev(code: int, nbits: int) -> int:
    """Huffman codes are sent most-significant bit first into the LSB-first deflate bit stream."""
    out = 0
    for _ in range(nbits):
        out = (out << 1) | (code & 1)
        code >>= 1
    return out


def _length_symbol(length: int) -> tuple[int, int, int]:
    """(symbol, extra bits, extra value) of a match length 3..258 (RFC 1951, 3.2.5)."""
    if length == 258:
        return 285, 0, 0
    base, sym = 3, 257
    for extra in range(6):
        count = 8 if extra == 0 else 4
        span = count << extra
        if length < base + span:
            off = length - base
            return sym + (off >> extra), extra, off & ((1 << extra) - 1)
        base += span
        sym += count
    raise ValueError(f"bad match length {length}")


def _distance_code(dist: int) -> tuple[int, int, int]:
    """(code, extra bits, extra value) of a match distance 1..32768 (RFC 1951, 3.2.5)."""
    if dist <= 4:
        return dist - 1, 0, 0
    extra = (dist - 1).bit_length() - 2
    half = (dist - 1) >> extra  # 2 or 3
    code = 2 * extra + half
    return code, extra, (dist - 1) & ((1 << extra) - 1)


def _match_bits(length: int, dist: int) -> tuple[int, int]:
    """(bits, bit count) of one match in the fixed Huffman code, LSB-first."""
    sym, lextra, lval = _length_symbol(length)
    if sym < 280:
        code, n = _rev(sym - 256, 7), 7
    else:
        code, n = _rev(0xC0 + sym - 280, 8), 8
    bits, count = code | (lval << n), n + lextra
    dcode, dextra, dval = _distance_code(dist)
    bits |= _rev(dcode, 5) << count
    count += 5
    bits |= dval << count
    return bits, count + dextra


_REPEAT_CACHE: OrderedDict[tuple[int, int], bytes] = OrderedDict()


def _repeat_block(row_len: int, rows: int) -> bytes:
    """A byte-aligned deflate block that repeats the previous ``row_len`` bytes ``rows`` times."""
    key = (row_len, rows)
    with _LOCK:
        hit = _REPEAT_CACHE.get(key)
    if hit is not None:
        return hit
    total = row_len * rows
    full, rest = divmod(total, 258)
    tail = []
    if rest:
        if rest < 3:  # a match is at least 3 bytes long: split the last full one
            full -= 1
            tail = [255, 3 + rest]
        else:
            tail = [rest]
    acc, n = 0b010, 3  # BFINAL = 0, BTYPE = 01 (fixed Huffman)
    bits, count = _match_bits(258, row_len)
    if full:
        acc |= (bits * (((1 << (count * full)) - 1) // ((1 << count) - 1))) << n
        n += count * full
    for length in tail:
        bits, count = _match_bits(length, row_len)
        acc |= bits << n
        n += count
    n += 7  # end of block (symbol 256 is seven zero bits)
    n += 3  # an empty stored block (BFINAL = 0, BTYPE = 00) ...
    n = (n + 7) // 8 * 8  # ... padded to a byte boundary,
    out = acc.to_bytes(n // 8, "little") + b"\x00\x00\xff\xff"  # LEN = 0, NLEN = ~0
    with _LOCK:
        _REPEAT_CACHE[key] = out
        if len(_REPEAT_CACHE) > 4096:
            _REPEAT_CACHE.popitem(last=False)
    return out


def encode_indexed_rows(rows: np.ndarray, width: int, palette: bytes) -> bytes:
    """Encode an 8-bit indexed image held as PNG rows ready to compress.

    ``rows`` is a C-contiguous uint8 array of shape (height, stride) with ``stride`` a multiple of
    8 and at least ``width + 1``: column 0 holds the filter byte (must be 0), columns
    ``1..width`` the palette indices, and columns past ``width`` are ignored. ``palette`` is the
    PLTE payload (3 bytes per entry, at most 256 entries, every used index present).
    """
    h, stride = rows.shape
    row_len = width + 1
    if rows.dtype != np.uint8 or stride % 8 or stride < row_len or not rows.flags.c_contiguous:
        raise ValueError("rows must be C-contiguous uint8 with a stride that is a multiple of 8")
    if not 0 < len(palette) <= 768 or len(palette) % 3:
        raise ValueError(f"palette must hold 1..256 RGB entries, got {len(palette)} bytes")
    words = rows.view(np.uint64)
    repeat = np.zeros(h + 2, np.int8)  # 1 where a row equals the row above (padded both ends)
    if 3 <= row_len <= 32768:  # a match is 3..258 bytes long, at most 32768 bytes back
        repeat[2 : h + 1] = (words[1:] == words[:-1]).all(axis=1)
    edges = np.diff(repeat)
    starts, ends = np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist()
    parts = [_ZLIB_HEADER]
    comp = zlib.compressobj(
        _INDEXED_LEVEL, zlib.DEFLATED, -15, _INDEXED_MEM_LEVEL, _INDEXED_STRATEGY
    )
    adler = 1
    start = 0  # first row not written yet
    for first, end in zip((*starts, h), (*ends, h), strict=True):
        # rows start..first-1 go to zlib; rows first..end-1 each equal their predecessor
        if first > start:
            fresh = rows[start:first, :row_len].tobytes()
            # The Adler-32 is needed for the stream anyway, so it doubles as the cache key (no
            # second checksum); a hit is compared byte for byte, so a collision is only a miss.
            fresh_adler = zlib.adler32(fresh)
            key = (fresh_adler, len(fresh))
            hit = _SEGMENTS.get(key, fresh)
            if hit is None:
                packed = comp.compress(fresh) + comp.flush(zlib.Z_FULL_FLUSH)
                _SEGMENTS.offer(key, fresh, packed, fresh_adler)
            else:
                packed = hit[0]
            parts.append(packed)
            adler = _adler32_combine(adler, fresh_adler, len(fresh))
        if end > first:
            count = end - first
            parts.append(_repeat_block(row_len, count))
            row_adler = zlib.adler32(rows[first, :row_len].tobytes())
            adler = _adler32_combine(
                adler, _adler32_repeat(row_adler, row_len, count), row_len * count
            )
        start = end
    parts.append(_FINAL_EMPTY_BLOCK)
    parts.append(struct.pack(">I", adler))
    ihdr = struct.pack(">IIBBBBB", width, h, 8, 3, 0, 0, 0)
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", ihdr),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )


def encode_indexed_png(indices: np.ndarray, palette: bytes) -> bytes:
    """Encode a (height, width) uint8 array of palette indices as an 8-bit indexed PNG."""
    if indices.ndim != 2 or indices.dtype != np.uint8:
        raise ValueError("indices must be a 2-D uint8 array")
    h, w = indices.shape
    if len(palette) // 3 <= int(indices.max(initial=0)):
        raise ValueError("an index points past the end of the palette")
    rows = np.zeros((h, (w + 8) // 8 * 8), np.uint8)
    rows[:, 1 : w + 1] = indices
    return encode_indexed_rows(rows, w, palette)


def clear_cache() -> None:
    """Drop the compressed stripes kept for reuse (the output never depends on them)."""
    _STRIPES.clear()
    _SEGMENTS.clear()
