"""navworld.env."""
