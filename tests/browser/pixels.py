"""What a part of the page looks like in pixels: a screenshot decoded by the browser itself."""

from __future__ import annotations

import base64
from typing import Any

# The contrast ratio (WCAG) between the 2nd and 98th percentile of the pixels' luminance.
CONTRAST = """async (data) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + data;
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = img.width;
  canvas.height = img.height;
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const px = ctx.getImageData(0, 0, img.width, img.height).data;
  const lin = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const lum = [];
  for (let i = 0; i < px.length; i += 4) {
    lum.push(0.2126 * lin(px[i]) + 0.7152 * lin(px[i + 1]) + 0.0722 * lin(px[i + 2]));
  }
  lum.sort((a, b) => a - b);
  const lo = lum[Math.floor(lum.length * 0.02)];
  const hi = lum[Math.floor(lum.length * 0.98)];
  return (hi + 0.05) / (lo + 0.05);
}"""


def contrast_of(page: Any, element: Any) -> float:
    """The contrast between the darkest and the lightest parts of an element as drawn."""
    data = base64.b64encode(element.screenshot(animations="disabled")).decode()
    # Decoded in a blank page of its own: the hall's policy (img-src 'self') refuses data: images.
    blank = page.context.new_page()
    try:
        return float(blank.evaluate(CONTRAST, data))
    finally:
        blank.close()
