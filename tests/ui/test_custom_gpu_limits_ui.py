"""The custom GPU dialog says the scenario's own limits (core.scenario.CustomGpu) while the typed figures are
still in it: FP8 TFLOPS over 1e6 used to be accepted by the dialog and refused only after it closed (the typed
values gone), and a non-number did not say which row it was in."""

from __future__ import annotations


def _dialog(make_window):
    from gpuplanner.ui.pages.hardware_page import CustomGpuDialog

    win = make_window(search_enabled=False)
    win.go_to(4)
    return win, CustomGpuDialog(win.page("hardware"))


def test_a_figure_over_the_scenarios_limit_keeps_the_dialog_and_its_text(make_window):
    win, dlg = _dialog(make_window)
    for w, text in ((dlg.name, "Big"), (dlg.memory, "96"), (dlg.tflops, "400"), (dlg.fp8, "2000000")):
        w.setText(text)
    dlg._accept()
    assert dlg.result_gpu is None and not dlg.result()  # not accepted: the dialog stays open
    assert dlg.error.text() == "FP8 TFLOPS must be at most 1,000,000", dlg.error.text()
    assert dlg.fp8.text() == "2000000" and dlg.name.text() == "Big"  # nothing typed is lost
    dlg.name.setText("x" * 121)
    dlg.fp8.setText("800")
    dlg._accept()
    assert dlg.error.text() == "a name has at most 120 characters"
    dlg.name.setText("Big")
    dlg._accept()
    assert dlg.result_gpu is not None and dlg.result_gpu["fp8_tflops"] == 800.0


def test_a_non_number_names_its_row(make_window):
    win, dlg = _dialog(make_window)
    for w, text in ((dlg.name, "Card"), (dlg.memory, "96"), (dlg.membw, "fast")):
        w.setText(text)
    dlg._accept()
    assert dlg.result_gpu is None
    assert dlg.error.text().startswith("Memory bandwidth: "), dlg.error.text()
    assert dlg.membw.text() == "fast"
