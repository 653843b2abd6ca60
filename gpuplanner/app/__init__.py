"""The use cases, Qt-free: what a person asks GPU Planner, answered once for every view.

:mod:`gpuplanner.app.answer` turns a document (a scenario JSON, a ``.gpuplan`` plan file, or the window's open
plan) into one :class:`~gpuplanner.app.answer.Answer`: the plan the document stands for (one rule,
:func:`~gpuplanner.app.answer.decide`), its Evaluation, the ranked plans, the scaling sweep, the memory-by-count
series and the project result. The CLI commands, the report builder and the window read that one object.

:mod:`~gpuplanner.app.engine`, :mod:`~gpuplanner.app.search_process`, :mod:`~gpuplanner.app.search_worker` and
:mod:`~gpuplanner.app.search_preload` are the window's use cases that run off the GUI thread (the live estimate,
the scaling sweep, the plan search in a process of its own); ``gpuplanner.ui`` keeps only the Qt adapters that
run them and deliver their results. Nothing here imports PySide6 or pyqtgraph (an import-linter contract).

Importing this package imports nothing else: ``gpuplanner --help`` stays light.
"""
