"""Live event streams served off the request threads.

waitress answers every request on its small thread pool, including the opening of an event stream
(session, access checks, language, headers all stay Flask's). Once the stream's response head is
written, the socket leaves waitress (``handoff``) for one broadcaster thread (``broadcaster``) that
writes every open stream with non-blocking sockets from the event bus, sends the heartbeats, drops
dead or stalled clients, replaces a tab's old stream when it reconnects and refuses streams past a
cap sized to the machine (``capacity``). A stream's words (what it sends for which event) are a
``Feed`` (``feed``), written beside its route in ``companion.web``.
"""
