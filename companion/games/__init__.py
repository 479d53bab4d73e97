"""The rules engines of the three games the companion hosts: ``marrakesh``, ``morocco`` and ``sabika``.

Each is pure Python (no I/O, no clock, no randomness it is not handed) and exports its public names
from its package. ``common`` holds what they share: the game whose state is the replay of its log
(``game_base``), the JSON-lines log and the answer/choose actions (``log_and_actions``), pending
decisions (``decisions``) and the errors every engine raises (``errors``).
"""
