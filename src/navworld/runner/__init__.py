"""navworld.runner."""
