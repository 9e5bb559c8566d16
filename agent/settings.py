"""Typed settings: the one place that reads `CONTRACT_AGENT_*` environment variables."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_home() -> Path:
    return Path.home() / ".contract-agent"


class Settings(BaseSettings):
    """Every knob of the agent. Environment variables carry the `CONTRACT_AGENT_` prefix,
    e.g. `CONTRACT_AGENT_HOME`, `CONTRACT_AGENT_REVIEWER_MODEL`."""

    model_config = SettingsConfigDict(env_prefix="CONTRACT_AGENT_", extra="ignore")

    home: Path = Field(default_factory=_default_home, description="data folder for everything the agent writes")
    memory_url: str = Field(default="", description="'' = sqlite file in home; 'sqlite:///path', 'aws://?...'")
    checkpointer: str = Field(default="memory", description="'memory' or 'sqlite' (file in home)")
    checkpoint_key: str = Field(default="", description="hex AES key for SQLite checkpoints; '' = key file in home")

    tenant: str = "default"
    agent: str = "contract-reviewer"
    task_type: str = "supplier_contract_review"
    domain: str = "supplier_contracts"

    reviewer_model: str = "offline"
    compression_model: str = "offline"
    extraction_model: str = "offline"
    embeddings: str = "wordllama"
    pii_scrubber: str = Field(default="local", description="'local' (offline) or 'comprehend' (AWS)")
    bedrock_region: str = "us-east-1"

    # working memory (design: compress past 30 messages, keep the 15 most recent others)
    compress_threshold: int = 30
    compress_keep_recent: int = 15
    max_model_steps: int = 40

    # episodic
    episode_ttl_days: int = 90
    episode_top_k: int = 3
    episode_min_score: float | None = None  # None = the embedding model's calibrated value
    # semantic
    fact_top_k: int = 5
    fact_min_score: float | None = None
    fact_min_confidence: float = 0.7
    fact_confirmations: int = 3
    # procedural
    procedure_trial_uses: int = 3
    # decay
    failed_episode_days: int = 7
    procedure_stale_days: int = 60
    procedure_min_uses: int = 3
    procedure_min_success_rate: float = 0.6

    max_input_bytes: int = 20 * 1024 * 1024

    @property
    def sqlite_path(self) -> Path:
        return self.home / "memory.sqlite"

    @property
    def checkpoint_path(self) -> Path:
        return self.home / "checkpoints.sqlite"

    def resolved_memory_url(self) -> str:
        return self.memory_url or f"sqlite:///{self.sqlite_path}"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (tests build their own `Settings(...)` instead)."""
    return Settings()
