"""navworld.agents."""
