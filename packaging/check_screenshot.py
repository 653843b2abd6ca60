"""Is a screenshot blank?  (packaging/build_linux.sh: the frozen app's first window, grabbed on Xvfb)

    python packaging/check_screenshot.py SHOT.png [--min-colours 32] [--max-dominant 0.97]

Exit 0 when the picture shows something, 1 when it is blank: fewer than ``--min-colours`` distinct colours
(a real window has text, antialiased in many shades) or one colour covering more than ``--max-dominant`` of
the pixels (an unmapped window leaves Xvfb's plain root; an unpainted one is a single fill). Prints the
figures either way.
"""

from __future__ import annotations

import argparse
import sys


def colour_stats(path: str) -> tuple[int, int, int, float]:
    """(width, height, distinct colours, share of the most common colour)."""
    import numpy as np
    from PySide6.QtGui import QImage

    image = QImage(path)
    if image.isNull():
        raise ValueError(f"{path}: not an image Qt can read")
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    w, h = image.width(), image.height()
    pixels = np.frombuffer(image.constBits(), dtype=np.uint32, count=image.bytesPerLine() * h // 4)
    pixels = pixels.reshape(h, image.bytesPerLine() // 4)[:, :w] & 0x00FFFFFF
    _, counts = np.unique(pixels, return_counts=True)
    return w, h, len(counts), float(counts.max()) / (w * h)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("png")
    parser.add_argument("--min-colours", type=int, default=32)
    parser.add_argument("--max-dominant", type=float, default=0.97)
    args = parser.parse_args(argv)
    try:
        w, h, colours, dominant = colour_stats(args.png)
    except (OSError, ValueError) as exc:
        print(f"check_screenshot: {exc}", file=sys.stderr)
        return 1
    verdict = "blank" if colours < args.min_colours or dominant > args.max_dominant else "not blank"
    print(f"check_screenshot: {args.png}: {w}x{h}, {colours} colours, the commonest covers {dominant:.1%}: {verdict}")
    return 1 if verdict == "blank" else 0


if __name__ == "__main__":
    sys.exit(main())
