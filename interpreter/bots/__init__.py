"""Bots that choose moves."""
