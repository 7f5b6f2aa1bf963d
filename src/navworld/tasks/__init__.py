"""navworld.tasks."""
