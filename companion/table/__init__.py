"""The table service: the games being played at this table, with no web framework in sight.

``service.GameService`` creates, loads, acts, undoes and deletes games, storing every change
(``game_records``) before anyone hears of it and wording its log lines (``log_words``);
``tower_link`` turns the tower's events into game events; ``views`` and ``kinds.view`` build what
every phone shows; ``marrakesh_engine`` and ``kinds`` are the per-game adapters; ``board_profile``
keeps the printed values a table told the companion. ``companion.web`` only parses requests, calls
this package and renders; nothing here imports Flask (an import contract in pyproject.toml, run by
``make lint`` and ``tests/test_architecture.py``, keeps it so).
"""
