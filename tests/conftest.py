"""Test set-up: the tests folder is importable (shared harnesses such as ``hostile``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
