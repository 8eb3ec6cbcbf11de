"""Third cards dealt face up in seat order: a later seat decides on what it saw."""
