"""Teaching: one iteration step by step (`walkthrough`) and playing hands against a strategy (`play`).
(Algorithms side by side are `cfrviz.solving.compare`, public as `cfrviz.compare`.)
"""
from __future__ import annotations
