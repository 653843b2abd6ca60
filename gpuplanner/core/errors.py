"""The project's own error types: every user-facing failure is one of these, with a one-line message."""


class PlannerError(Exception):
    """Base class: ``str(err)`` is a one-line message fit to show the user."""


class ScenarioError(PlannerError):
    """Invalid scenario input. ``field`` names the offending field (dotted path) when known."""

    def __init__(self, message: str, field: str | None = None):
        self.field = field
        if field and hasattr(message, "context") and hasattr(message, "params"):
            # a sentence that keeps its message id (MsgStr) keeps it with the field named in front
            from .i18n import QT_TRANSLATE_NOOP
            from .messages import MsgStr

            super().__init__(MsgStr.make("Errors", QT_TRANSLATE_NOOP("Errors", "{field}: {message}"), field=field,
                                         message=message))
            return
        super().__init__(f"{field}: {message}" if field else message)


class ModelConfigError(ScenarioError):
    """A config.json / model folder that cannot be understood."""


class CatalogError(PlannerError):
    """Unknown GPU id, preset id or malformed resource file."""
