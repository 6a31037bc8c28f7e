"""Operators' view of a running Engram: Prometheus metrics, their bounded labels, and the store collector."""
