"""The text table drawn as an image, for ``render_mode="rgb_array"`` (video recorders).

Drawn with Pillow's built-in font, so no font file is needed; Pillow is
imported only when a picture is asked for (it comes with the ``train`` extra, through
matplotlib), so the environment itself does not depend on it.
"""

from __future__ import annotations

import numpy as np

MARGIN = 4


def text_picture(text: str) -> np.ndarray:
    """`text` in black on white, as a (height, width, 3) uint8 array."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as error:
        raise ImportError("render_mode='rgb_array' draws the table with Pillow: pip install pillow") from error
    font = ImageFont.load_default(size=12)
    lines = text.splitlines() or [""]
    width = max(font.getbbox(line)[2] for line in lines)
    line_height = int(font.size * 1.25)
    size = (width + 2 * MARGIN, line_height * len(lines) + 2 * MARGIN)
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((MARGIN, MARGIN + row * line_height), line, fill="black", font=font)
    return np.asarray(image, dtype=np.uint8)
