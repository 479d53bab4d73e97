"""The dashboard: one Flask blueprint per concern (health, event stream, pages)."""
