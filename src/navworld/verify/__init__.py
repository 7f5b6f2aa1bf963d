"""navworld.verify."""
