"""Everything about R: the rpy2 bridge and the R package (r_bridge/rpkg)."""
