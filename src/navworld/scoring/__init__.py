"""navworld.scoring."""
