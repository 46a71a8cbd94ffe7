"""The 8-bit indexed-colour PNG writer: valid PNGs (Pillow, OpenCV and zlib's own checks), exact
pixels and palette, rows that repeat the row above written as back-references, determinism."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from chronoeval.render.png import (
    _adler32_repeat,
    clear_cache,
    encode_indexed_png,
    encode_indexed_rows,
    encode_png,
)


def chunks(png: bytes) -> dict[bytes, bytes]:
    """Chunk payloads by type, each CRC checked (written here from the PNG specification)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out: dict[bytes, bytes] = {}
    pos = 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, data = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", png[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        assert kind not in out
        out[kind] = data
        pos += 12 + length
    return out


def random_image(rng: np.random.Generator, h: int, w: int, colours: int) -> np.ndarray:
    image = rng.integers(0, colours, (h, w), dtype=np.uint8)
    for r in range(1, h):  # many rows repeat the row above, in runs of every length
        if rng.random() < 0.6:
            image[r] = image[r - 1]
    return image


def check_decodes(png: bytes, image: np.ndarray, palette: bytes) -> None:
    import cv2

    c = chunks(png)
    w, h, depth, ctype = struct.unpack(">IIBB", c[b"IHDR"][:10])
    assert (h, w, depth, ctype) == (*image.shape, 8, 3)
    assert c[b"PLTE"] == palette
    raw = zlib.decompress(c[b"IDAT"])  # checks the deflate stream and its Adler-32
    rows = np.frombuffer(raw, np.uint8).reshape(h, w + 1)
    assert not rows[:, 0].any()  # filter type 0 on every row
    assert np.array_equal(rows[:, 1:], image)
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    assert decoded.mode == "P" and np.array_equal(np.asarray(decoded), image)
    rgb = np.frombuffer(palette, np.uint8).reshape(-1, 3)[image]
    assert np.array_equal(np.asarray(decoded.convert("RGB")), rgb)
    bgr = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
    assert bgr is not None and np.array_equal(bgr[..., ::-1], rgb)


def test_random_images_round_trip_through_three_decoders() -> None:
    rng = np.random.default_rng(21)
    for trial in range(60):
        h, w = int(rng.integers(1, 40)), int(rng.integers(1, 700))
        colours = int(rng.integers(1, 257))
        image = random_image(rng, h, w, colours)
        if trial % 5 == 0:
            image[:] = image[0]  # every row the same
        palette = bytes(rng.integers(0, 256, 3 * colours, dtype=np.uint8))
        check_decodes(encode_indexed_png(image, palette), image, palette)


@pytest.mark.parametrize("w", [1, 2, 3, 257, 258, 259, 4000, 32767, 32768])
def test_widths_at_the_deflate_limits(w: int) -> None:
    """Rows of 2 bytes are too short for a match and rows over 32768 bytes beyond the window:
    both must still give valid PNGs; every width in between uses back-references."""
    image = np.zeros((6, w), np.uint8)
    image[0, ::3] = 1
    image[1:4] = image[0]
    image[5, -1] = 2
    check_decodes(encode_indexed_png(image, bytes(range(9))), image, bytes(range(9)))


def test_repeated_rows_cost_almost_nothing() -> None:
    rng = np.random.default_rng(5)
    row = rng.integers(0, 200, (1, 1200), dtype=np.uint8)
    one = encode_indexed_png(row, bytes(600))
    many = encode_indexed_png(np.repeat(row, 900, axis=0), bytes(600))
    # 899 repeated rows of 1201 bytes: one match (about 22 bits) per 258 bytes, ~1.1% of the raw
    assert len(many) - len(one) < 899 * 1201 // 50
    check_decodes(many, np.repeat(row, 900, axis=0), bytes(600))


def test_output_does_not_depend_on_the_cache() -> None:
    rng = np.random.default_rng(9)
    band = random_image(rng, 12, 300, 5)
    image = np.concatenate([band, np.zeros((3, 300), np.uint8), band, band])
    palette = bytes(15)
    clear_cache()
    cold = [encode_indexed_png(image, palette) for _ in range(3)]
    assert cold[0] == cold[1] == cold[2]
    clear_cache()
    assert encode_indexed_png(image, palette) == cold[0]


def test_adler32_of_repeated_blocks() -> None:
    rng = np.random.default_rng(3)
    for n in (1, 7, 1401, 5000):
        block = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        for count in (1, 2, 3, 50, 700):
            assert _adler32_repeat(zlib.adler32(block), n, count) == zlib.adler32(block * count)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="palette"):
        encode_indexed_png(np.full((2, 2), 3, np.uint8), bytes(9))  # index 3 of a 3-entry palette
    with pytest.raises(ValueError, match="stride"):
        encode_indexed_rows(np.zeros((2, 7), np.uint8), 6, bytes(3))
    with pytest.raises(ValueError, match="2-D uint8"):
        encode_indexed_png(np.zeros((2, 2), np.int32), bytes(3))


def test_encode_png_writes_palette_images_as_indexed() -> None:
    rng = np.random.default_rng(4)
    image = random_image(rng, 20, 33, 6)
    pil = Image.frombytes("P", (33, 20), image.tobytes())
    palette = bytes(rng.integers(0, 256, 18, dtype=np.uint8))
    pil.putpalette(palette, "RGB")
    png = encode_png(pil)
    decoded = Image.open(io.BytesIO(png))
    assert decoded.mode == "P" and np.array_equal(np.asarray(decoded), image)
    rgb = np.frombuffer(palette, np.uint8).reshape(-1, 3)[image]
    assert np.array_equal(np.asarray(decoded.convert("RGB")), rgb)


def test_palette_image_with_a_short_palette_falls_back_to_rgb() -> None:
    pil = Image.frombytes("P", (4, 2), bytes([0, 1, 2, 3, 3, 2, 1, 0]))
    pil.putpalette(bytes(range(6)), "RGB")  # two entries for four indices
    decoded = Image.open(io.BytesIO(encode_png(pil)))
    assert decoded.mode == "RGB"
    assert np.array_equal(np.asarray(decoded), np.asarray(pil.convert("RGB")))


def test_a_cached_run_with_the_same_adler32_is_not_reused_for_other_pixels() -> None:
    """Compressed runs of rows are cached under their Adler-32 and length; two different runs with
    the same Adler-32 (+1, -1 at two bytes and -1, +1 at two others keeps both of its sums) must
    each decode to their own pixels."""
    clear_cache()
    rng = np.random.default_rng(7)
    a = rng.integers(10, 200, (5, 40), dtype=np.uint8)
    b = a.copy()
    b[2, 3] += 1
    b[2, 4] -= 1
    b[2, 20] -= 1
    b[2, 21] += 1
    assert zlib.adler32(b"\0" + b"\0".join(r.tobytes() for r in a)) == zlib.adler32(
        b"\0" + b"\0".join(r.tobytes() for r in b)
    )
    assert not np.array_equal(a, b)
    palette = bytes(range(256)) * 3
    for _ in range(3):  # a run is kept once it has been seen twice
        check_decodes(encode_indexed_png(a, palette), a, palette)
    check_decodes(encode_indexed_png(b, palette), b, palette)
    check_decodes(encode_indexed_png(a, palette), a, palette)
