"""Benchmarks: figures that show memory pays and stays fast as it grows (`contract-review bench`).

One module per benchmark (`improvement`, `bootstrap`, `retrieval`, `compression`, `writepath`);
each has `run(...) -> dict`, writes `<name>.json` into the results folder and renders a table.
`suite.run_all` runs them side by side in one process so machine noise cancels.
"""
