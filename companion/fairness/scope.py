"""The filters a fairness report can be narrowed by, apart from the report (which needs numpy and scipy)."""

#: The filters a report can be narrowed by (CLI options, dashboard query parameters).
SCOPE_KEYS = ("tower", "since", "layer", "game", "session")
