"""Screenshots of the Project page (step 8) at 1280x800, English and Chinese: python scripts/screenshot_project.py OUT_DIR
(run from the repository root with QT_QPA_PLATFORM=offscreen)."""
import os, sys, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtWidgets import QApplication
app = QApplication.instance() or QApplication(sys.argv)
from gpuplanner.i18n import LanguageManager, ensure_cjk_font
ensure_cjk_font()
from gpuplanner.ui.main_window import MainWindow
lm = LanguageManager(app)
out = sys.argv[1]
w = MainWindow(autosave=False, search_enabled=False)
w.resize(1280, 800); w.show()
w.open_path("examples/shenzhen-7b-domain-project.gpuplan", show_errors=False)
w.go_to(7)
for _ in range(20):
    app.processEvents(); time.sleep(0.03)
page = w.pages[7]
page.list.setCurrentRow(3)
for lang in ("en", "zh_CN"):
    lm.install(lang)
    for _ in range(30):
        app.processEvents(); time.sleep(0.03)
    w.grab().save(f"{out}/project-{lang}.png")
    page.scroll.verticalScrollBar().setValue(page.scroll.verticalScrollBar().maximum())
    for _ in range(10):
        app.processEvents(); time.sleep(0.03)
    w.grab().save(f"{out}/project-{lang}-results.png")
    page.scroll.verticalScrollBar().setValue(0)
print(page.result.total_cost, page.error)
w.model.set_dirty(False)
lm.install("en")
