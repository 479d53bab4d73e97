"""``keshi hub``: one place for every table's tosses, game events and tower health (issue 16).

The hub subscribes to the towers' MQTT topics (``companion.publish`` writes them), stores every toss
and game event exactly once in PostgreSQL (``store``, schema by Alembic in ``migrations``), and
serves a dashboard behind its own login listing every table live, with the fairness report per
tower and across towers (``fairness``: the per-table statistics on the hub's rows).
"""
