"""What a filing adds: compliance profiles, hold, exposure, the odds sheet, comparisons and pay tools."""
