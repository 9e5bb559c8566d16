"""The clause detection engine: which sentences state a clause, and how a clause measures up.

How detection works, bottom-up:
1. `sentences` splits contract text into sentence spans; `numbers` reads the figures contracts
   write ("thirty (30) days", "2x", "$1,000,000").
2. `detector.Detector` scores a sentence by weighted regular expressions (negative weights mark
   look-alikes), plus a bonus when its section title names the clause; `rules.DETECTORS` holds one
   detector per playbook clause type and `finer_rules` the CUAD categories and companions.
3. `clauses.find_candidates` runs a detector over a contract and returns candidates with verbatim
   quotes and exact offsets (`text[start:end] == quote`).
4. `review.assess` judges a clause in a section against its playbook entry through `metrics`
   (numeric: cap multiple, notice days ...) and `directions` (who owes what to whom, read with
   `parties`), giving a verdict, a severity and a rationale; `review.detect_all` is the whole
   no-model review. `cuad_eval` scores the detectors against CUAD lawyer labels.

To add a clause type: give it an entry in tools/playbook.yaml, a detector in `rules.DETECTORS`
under the same key (patterns plus section-title keywords), and, if the playbook entry names a
metric, a judge in `metrics` or `directions` registered in `review`. Then add a sample clause to
tests/tools/test_detector_wordings.py.
"""
