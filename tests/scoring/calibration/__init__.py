"""Honest-answer calibration cases (issue 12): real sandbox traces and hand-written answers."""
