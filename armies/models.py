"""Army Rules catalog, commanders and rosters arrive with the campaign-economy issue."""
