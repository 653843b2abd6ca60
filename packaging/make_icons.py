"""Draw the GPU Planner icon and write every platform's icon file from it.

    python packaging/make_icons.py            # draw source.png (if missing) and write the icon set
    python packaging/make_icons.py --redraw   # draw source.png again from the QPainter code below

Outputs (all derived from ``packaging/icons/source.png``, 1024x1024):

* ``packaging/icons/gpuplanner.ico``  - Windows; PNG-compressed entries 16..256 px (allowed since Vista:
  the ICONDIRENTRY points at a complete PNG stream instead of a BMP DIB).
* ``packaging/icons/gpuplanner.icns`` - macOS; PNG-based entries ``icp4`` (16), ``icp5`` (32),
  ``icp6`` (64), ``ic07`` (128), ``ic08`` (256), ``ic09`` (512), ``ic10`` (1024 = 512@2x),
  ``ic11`` (32 = 16@2x), ``ic12`` (64 = 32@2x), ``ic13`` (256 = 128@2x), ``ic14`` (512 = 256@2x).
  File layout: big-endian ``'icns'`` + total length, then per entry a 4-byte type + length (header
  included) + PNG data (Apple "Icon Services" icns format; type table as documented on
  https://en.wikipedia.org/wiki/Apple_Icon_Image_format, read 2025).
* ``packaging/icons/gpuplanner.png`` (512 px) and ``gpuplanner/resources/icons/gpuplanner.png`` (256 px),
  the window icon the app loads at run time.
* ``packaging/icons/gpuplan-document.ico`` / ``.icns`` - the ``.gpuplan`` document icon (the app glyph on
  a page with a folded corner).

Only Qt (QtGui) is used to draw and to encode PNGs; the container formats are written by hand.
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ICONS = HERE / "icons"
SOURCE = ICONS / "source.png"
APP_ICON = HERE.parent / "gpuplanner" / "resources" / "icons" / "gpuplanner.png"

ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# (type, pixel size) for PNG-based icns entries.
ICNS_ENTRIES = (
    (b"icp4", 16), (b"icp5", 32), (b"icp6", 64), (b"ic07", 128), (b"ic08", 256), (b"ic09", 512),
    (b"ic10", 1024), (b"ic11", 32), (b"ic12", 64), (b"ic13", 256), (b"ic14", 512),
)


def _gui_app():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.instance() or QGuiApplication(sys.argv[:1])


def draw_source(size: int = 1024):
    """A stylised GPU card (fans, gold edge connector) with a rising bar chart and trend line on top."""
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QBrush, QColor, QImage, QLinearGradient, QPainter, QPainterPath, QPen

    _gui_app()
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.scale(size / 1024.0, size / 1024.0)

    # Rounded-square backdrop (macOS-style margin of ~10%).
    bg = QLinearGradient(0, 100, 0, 924)
    bg.setColorAt(0.0, QColor("#1f3b73"))
    bg.setColorAt(1.0, QColor("#0d1b36"))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(bg))
    p.drawRoundedRect(QRectF(100, 100, 824, 824), 180, 180)

    # GPU card body.
    card = QRectF(170, 430, 684, 330)
    body = QLinearGradient(0, card.top(), 0, card.bottom())
    body.setColorAt(0.0, QColor("#3a4a5e"))
    body.setColorAt(1.0, QColor("#222c38"))
    p.setBrush(QBrush(body))
    p.setPen(QPen(QColor("#8fa3bd"), 10))
    p.drawRoundedRect(card, 36, 36)
    # Edge connector (gold fingers) below the card.
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#e0b341"))
    p.drawRoundedRect(QRectF(300, 760, 420, 46), 8, 8)
    p.setBrush(QColor("#9c7a22"))
    for i in range(11):
        p.drawRect(QRectF(318 + i * 36, 770, 14, 30))
    # Bracket on the left.
    p.setBrush(QColor("#b8c4d4"))
    p.drawRoundedRect(QRectF(140, 410, 40, 400), 10, 10)
    # Two fans.
    for cx in (345.0, 680.0):
        c = QPointF(cx, 595)
        p.setBrush(QColor("#111820"))
        p.setPen(QPen(QColor("#8fa3bd"), 8))
        p.drawEllipse(c, 128, 128)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#55d6a0"))
        for k in range(6):
            p.save()
            p.translate(c)
            p.rotate(k * 60)
            blade = QPainterPath()
            blade.moveTo(0, 0)
            blade.cubicTo(40, -30, 100, -40, 112, -10)
            blade.cubicTo(80, 0, 40, 10, 0, 0)
            p.drawPath(blade)
            p.restore()
        p.setBrush(QColor("#d9e2ec"))
        p.drawEllipse(c, 26, 26)

    # Bar chart rising above the card.
    bars = ((250, 80), (390, 120), (530, 160), (670, 200))
    for x, h in bars:
        grad = QLinearGradient(0, 400 - h, 0, 400)
        grad.setColorAt(0.0, QColor("#7ef0c2"))
        grad.setColorAt(1.0, QColor("#2fa877"))
        p.setBrush(QBrush(grad))
        p.drawRoundedRect(QRectF(x, 400 - h, 100, h + 10), 14, 14)
    # Trend line with a point on each bar.
    pen = QPen(QColor("#ffcc4d"), 22, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    pts = [QPointF(x + 50, 400 - h - 40) for x, h in bars]
    for a, b in zip(pts, pts[1:]):
        p.drawLine(a, b)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#ffcc4d"))
    for pt in pts:
        p.drawEllipse(pt, 26, 26)
    p.end()
    return img


def draw_document(app_icon, size: int = 1024):
    """The .gpuplan document icon: a white page with a folded corner and the app glyph on it."""
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPen, QPolygonF

    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    p.scale(size / 1024.0, size / 1024.0)
    page = QPainterPath()
    page.moveTo(180, 60)
    page.lineTo(680, 60)
    page.lineTo(860, 240)
    page.lineTo(860, 964)
    page.lineTo(180, 964)
    page.closeSubpath()
    p.setPen(QPen(QColor("#7d8a99"), 14))
    p.setBrush(QColor("#fbfcfe"))
    p.drawPath(page)
    p.setBrush(QColor("#d5dce5"))
    p.drawPolygon(QPolygonF([QPointF(680, 60), QPointF(680, 240), QPointF(860, 240)]))
    p.drawImage(QRectF(200, 300, 640, 640), app_icon)
    p.end()
    return img


def png_bytes(img, px: int) -> bytes:
    """Scale ``img`` to ``px`` x ``px`` (smooth) and encode it as PNG."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt

    scaled = img.scaled(px, px, Qt.AspectRatioMode.IgnoreAspectRatio, Qt.TransformationMode.SmoothTransformation)
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not scaled.save(buf, "PNG"):
        raise RuntimeError(f"could not encode a {px}px PNG")
    buf.close()
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An .ico holding PNG entries. ICONDIR: reserved 0, type 1, count; ICONDIRENTRY (16 bytes):
    width, height (0 means 256), colours 0, reserved 0, planes 1, bpp 32, size, offset (Microsoft
    "Icons" reference, learn.microsoft.com/previous-versions/ms997538)."""
    sizes = sorted(pngs)
    out = bytearray(struct.pack("<HHH", 0, 1, len(sizes)))
    offset = 6 + 16 * len(sizes)
    blobs = []
    for px in sizes:
        blob = pngs[px]
        dim = 0 if px >= 256 else px
        out += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
        blobs.append(blob)
    for blob in blobs:
        out += blob
    return bytes(out)


def icns_bytes(img) -> bytes:
    """An .icns with PNG entries (see module docstring for the type table)."""
    body = bytearray()
    cache: dict[int, bytes] = {}
    for kind, px in ICNS_ENTRIES:
        blob = cache.setdefault(px, png_bytes(img, px))
        body += kind + struct.pack(">I", 8 + len(blob)) + blob
    return b"icns" + struct.pack(">I", 8 + len(body)) + bytes(body)


def write_set(img, stem: str, out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    ico = out_dir / f"{stem}.ico"
    icns = out_dir / f"{stem}.icns"
    ico.write_bytes(ico_bytes({px: png_bytes(img, px) for px in ICO_SIZES}))
    icns.write_bytes(icns_bytes(img))
    return [ico, icns]


def build(out_dir: Path = ICONS, source: Path = SOURCE, redraw: bool = False, app_icon: Path | None = APP_ICON) -> list[Path]:
    """Write the whole icon set into ``out_dir``; returns the files written."""
    from PySide6.QtGui import QImage

    _gui_app()
    if redraw or not source.exists():
        source.parent.mkdir(parents=True, exist_ok=True)
        if not draw_source().save(str(source), "PNG"):
            raise RuntimeError(f"could not write {source}")
    img = QImage(str(source))
    if img.isNull():
        raise RuntimeError(f"could not read {source}")
    written = write_set(img, "gpuplanner", out_dir)
    written += write_set(draw_document(img), "gpuplan-document", out_dir)
    png = out_dir / "gpuplanner.png"
    png.write_bytes(png_bytes(img, 512))
    written.append(png)
    if app_icon is not None:
        app_icon.parent.mkdir(parents=True, exist_ok=True)
        app_icon.write_bytes(png_bytes(img, 256))
        written.append(app_icon)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--redraw", action="store_true", help="draw source.png again")
    ap.add_argument("--out", type=Path, default=ICONS, help="output folder (default packaging/icons)")
    args = ap.parse_args(argv)
    for path in build(args.out, redraw=args.redraw):
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
