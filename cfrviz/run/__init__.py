"""What a solve leaves behind: the record (`record`), its files (`npz`, `strategy_json`), the shared run cache (`cache`) and uploads (`uploads`).

The record and its formats are re-exported here."""
from __future__ import annotations

from cfrviz.util.memory import MAX_DEFAULT_SNAPSHOTS
from cfrviz.run.record import (DENSE_SNAPSHOTS, MAX_RECORDED_ITERATIONS, MAX_RECORDED_SEED,
                               MAX_SETTINGS_BYTES, PROBABILITY_TOLERANCE, REQUIRED_RUN_ARRAYS, RUN_ARRAYS, Run,
                               RunSettings, check_strategy, snapshot_count, snapshot_schedule)
from cfrviz.run.npz import RUN_FORMAT, RUN_FORMAT_VERSION, load_run, run_from_arrays, save_run
from cfrviz.run.strategy_json import (FORMAT_VERSION, MAX_STRATEGY_BYTES, STRATEGY_FORMAT, export_strategy,
                                      parse_strategy_text, read_strategy_file, read_strategy_json,
                                      run_from_strategy_json, strategy_document)

__all__ = ["DENSE_SNAPSHOTS", "FORMAT_VERSION", "MAX_DEFAULT_SNAPSHOTS", "MAX_RECORDED_ITERATIONS",
           "MAX_RECORDED_SEED", "MAX_SETTINGS_BYTES", "MAX_STRATEGY_BYTES", "PROBABILITY_TOLERANCE",
           "REQUIRED_RUN_ARRAYS", "RUN_ARRAYS", "RUN_FORMAT", "RUN_FORMAT_VERSION", "STRATEGY_FORMAT", "Run",
           "RunSettings", "check_strategy", "export_strategy", "load_run", "parse_strategy_text",
           "read_strategy_file", "read_strategy_json", "run_from_arrays", "run_from_strategy_json", "save_run",
           "snapshot_count", "snapshot_schedule", "strategy_document"]
