"""Confidence intervals across seeds: how far a sampling method's curve may sit from run to run."""
from __future__ import annotations

import math

import numpy as np
from scipy import stats

#: Confidence of the band across seeds.
CONFIDENCE = 0.95


def log_t_interval(samples: np.ndarray, confidence: float = CONFIDENCE) -> tuple[np.ndarray, np.ndarray]:
    """([T], [T]) Student's t-interval across seeds of the geometric mean of `samples` [S, T].

    Exploitability falls over orders of magnitude and is drawn on log axes, so the interval is taken
    on log10 of the samples and mapped back: 10 ** (mean ± t(confidence, S - 1) · sd / √S) of the
    log10 values, sd with S - 1 degrees of freedom. It is positive, so it sits on a log axis. Where a
    column has fewer than two samples, or a sample that is not positive and finite, both ends are NaN.
    """
    values = np.asarray(samples, dtype=float)
    if values.ndim != 2:
        raise ValueError(f"Give the samples as [seeds, snapshots], not an array of shape {values.shape}.")
    if not 0 < confidence < 1:
        raise ValueError(f"The confidence must lie strictly between 0 and 1, not {confidence}.")
    count = values.shape[0]
    nan = np.full(values.shape[1], np.nan)
    if count < 2:
        return nan, nan.copy()
    usable = np.all(np.isfinite(values) & (values > 0), axis=0)
    logs = np.log10(np.where(usable, values, 1.0))
    middle = logs.mean(axis=0)
    half = float(stats.t.ppf(0.5 + confidence / 2, count - 1)) * logs.std(axis=0, ddof=1) / math.sqrt(count)
    low = np.where(usable, 10.0 ** (middle - half), np.nan)
    high = np.where(usable, 10.0 ** (middle + half), np.nan)
    return low, high


def band_words(seeds: int, confidence: float = CONFIDENCE) -> str:
    """What a band across `seeds` seeds is, for a legend or a caption."""
    return f"{confidence:.0%} t-interval of the geometric mean over {seeds} seeds"


__all__ = ["CONFIDENCE", "band_words", "log_t_interval"]
