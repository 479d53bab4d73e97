"""The dashboard: one Flask blueprint per concern (pages, games API, event streams, tower, health).

Each route parses the request, calls the table service (``companion.table``) and renders the answer;
what a game is and how it changes lives there, not here.
"""
