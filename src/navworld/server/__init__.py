"""navworld.server."""
