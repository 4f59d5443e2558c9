"""Rule holes: properties checked over searched playthroughs."""
