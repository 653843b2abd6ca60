"""GPU Planner: describe the training task, derive the GPU servers to rent."""

__version__ = "0.1.0"
