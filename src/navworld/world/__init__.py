"""The world: city catalog, deterministic sandbox, backends (sandbox, AMap, record/replay)."""
