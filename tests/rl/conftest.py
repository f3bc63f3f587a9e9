import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
