"""GPU Tutor: predict first, then measure on your own hardware."""

__version__ = "0.1.0"
