"""Pure data layer: frozen models, versions and seeding helpers. Imports nothing else of navworld."""
