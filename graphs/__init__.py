"""The LangGraph graphs: review (bootstrap -> analyze -> consolidate) and its memory steps."""
