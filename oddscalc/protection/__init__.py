"""What information is worth: cards flashed, partners' cards seen, cards counted."""
