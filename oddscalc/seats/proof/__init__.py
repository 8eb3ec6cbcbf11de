"""The best common strategy proven over all 2^44 strategies by branch and bound, kept in checkpoints."""
