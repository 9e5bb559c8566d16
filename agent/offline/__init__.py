"""The offline chat models: a deterministic rule-based reviewer stand-in and a scripted test model.

Neither is a language model. `OfflineReviewerModel` lets the whole agent run with no network and
no keys (reviewer, working-memory summariser and run-artifacts extractor in one class);
`ScriptedChatModel` replays fixed answers for tests.
"""

from agent.offline.model import OfflineReviewerModel
from agent.offline.scripted import ScriptedChatModel

__all__ = ["OfflineReviewerModel", "ScriptedChatModel"]
