"""The tower fairness log: per-colour release statistics, the two-rate tower model fit, and reports.

Every toss the companion records (played or simulated) is data. This package turns the ``tosses``
table into release rates with honest intervals, tests of whether release depends on colour, a power
analysis that keeps the verdict at "not enough data yet" until a 10-point bias could be seen, and
reports (HTML with embedded plots, CSV, JSON) for the CLI and the dashboard.
"""
