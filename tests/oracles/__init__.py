"""Oracles and fixtures several test files share: plain brute forces that share no code with the engine (beyond
what each says), and the small cases built the same way in several files. Test files import these, never each
other."""
