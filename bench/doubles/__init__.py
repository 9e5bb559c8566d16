"""Test doubles of chat models with habits unlike the project's own stand-ins (not language models).

`bench.doubles.batcher:make` (every call in one turn, long prose, verbose JSON, its own notes as
summaries) and `bench.doubles.terse:make` (one or two calls a turn, spelling slips, stalls, a
one-line summariser, no structured output) and `bench.doubles.stepwise:make` (one clause type at a
time, one call a turn, memory asked through `recall_locations` instead of read from the prompt,
search and read before assessing, Markdown checklists as summaries, fenced camelCase JSON). All are LangChain chat models a user would plug in
with `--model package.module:factory`; they read the prompt and the tool results from their text
(`bench.doubles.reading`), never through the project's own parsers or formats. `bench models`
runs them beside the offline reviewer and the realistic stand-in.
"""

DOUBLES = {
    "batcher double": "bench.doubles.batcher:make",
    "terse double": "bench.doubles.terse:make",
    "stepwise double": "bench.doubles.stepwise:make",
}
