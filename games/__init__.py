"""Game rules, playout kernels, priors and features. Imports no other corvid package."""
