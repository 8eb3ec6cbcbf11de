"""Partners' cards seen: Let It Ride exact, Caribbean Stud exact on reduced decks or sampled."""
