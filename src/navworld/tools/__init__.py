"""navworld.tools."""
