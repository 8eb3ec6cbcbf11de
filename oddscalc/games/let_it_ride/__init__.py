"""Let It Ride."""
