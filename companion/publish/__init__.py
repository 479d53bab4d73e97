"""Publishing a companion's tosses, game events and tower health to an MQTT broker (issue 16).

``schema`` holds the durable outbox's tables, ``outbox`` fills it (triggers on ``tosses`` and
``game_events``) and reads it after the acknowledged cursor as message payloads, ``broker`` and
``topics`` name where things go, ``state`` builds the tower's health message, ``discovery``
describes the tower to Home Assistant, and ``publisher`` is the thread that sends it all with QoS 1.
"""
