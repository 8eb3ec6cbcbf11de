"""The house baccarat among several seats: equilibria, common strategies, proofs, third cards shown."""
