"""Core types: trace, outcome, envelope parsing, templating, the run engine."""
