"""navworld.dsl."""
