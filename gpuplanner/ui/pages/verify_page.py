"""Step 7: verify the rented server — the verify panel (topology, acceptance kit, vendor checklist)."""

from __future__ import annotations

from .base import BasePage


class VerifyPage(BasePage):
    def title(self) -> str:
        return self.tr("Verify server")

    def build(self) -> None:
        from gpuplanner.core import checklist as ck

        from ..verify_panel import VerifyPanel

        self.panel = VerifyPanel()
        self.body.addWidget(self.panel)
        saved = self.model.ui.get("checklist") or {}
        try:
            self.panel.set_checklist_state(ck.ChecklistState.model_validate(saved))
        except ValueError:
            pass
        self.panel.checklistChanged.connect(self._on_checklist)
        self.panel.measuredMfuApplied.connect(self._on_mfu)
        self.panel.set_scenario(self.model.scenario, self.model.base_dir)

    def _on_checklist(self, state) -> None:
        self.model.set_ui("checklist", state.model_dump(mode="json"))

    def _on_mfu(self, scenario) -> None:
        """Record the run measured on the rented server: it calibrates the plans on that GPU only (the core
        decides, core/calibration.py); never a global MFU."""
        self.model.set("assumptions.measured_runs", [r.model_dump(mode="json") for r in scenario.assumptions.measured_runs])

    def on_model_changed(self, section: str) -> None:
        if section == "all":
            from gpuplanner.core import checklist as ck

            try:
                self.panel.set_checklist_state(ck.ChecklistState.model_validate(self.model.ui.get("checklist") or {}))
            except ValueError:
                self.panel.set_checklist_state(None)
        if section not in ("ui", "meta"):
            self.panel.set_scenario(self.model.scenario, self.model.base_dir)

    def retranslate(self) -> None:
        self.heading.setText(self.tr("7 · Verify the rented server"))
        self.intro.setText(self.tr(
            "Once the machines are rented: paste the output of \u201cnvidia-smi topo -m\u201d, run the acceptance kit "
            "on the server and import its result, and tick the vendor checklist. The measured MFU can replace the assumed one."))
