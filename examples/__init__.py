"""Agents built on the memory core besides the contract reviewer (docs/FORK.md).

Run from a checkout (`python -m examples.invoice_check.demo`): `examples` is not part of the
installed package.
"""
