"""Translation markers for the pure core (no Qt import here).

lupdate finds strings wrapped in ``QT_TRANSLATE_NOOP(context, text)``; the UI translates them at display
time with ``QCoreApplication.translate(context, text)``. The core itself returns the English text.
"""


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 (Qt's spelling, so lupdate finds it)
    return text
