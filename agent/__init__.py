"""The contract-review agent: settings, models, prompts, reports and the command line."""
