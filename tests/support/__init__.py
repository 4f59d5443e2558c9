"""Helpers shared by the tests (importable as `support`: pytest's pythonpath holds tests/)."""
