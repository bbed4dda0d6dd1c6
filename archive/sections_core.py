"""The campaign, people and tabletop sections of an archive (docs/archive-format.md)."""
