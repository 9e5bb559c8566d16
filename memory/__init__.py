"""Durable agent memory: episodic, semantic and procedural tiers behind small store protocols.

Nothing in this package knows about contracts: a fork for another domain keeps it as it is.
"""
