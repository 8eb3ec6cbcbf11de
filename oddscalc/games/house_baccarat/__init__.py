"""The rule sheet's house-banked baccarat, where the players choose to draw."""
