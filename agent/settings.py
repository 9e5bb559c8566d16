"""Typed settings: the one place that reads `CONTRACT_AGENT_*` environment variables.

Precedence, strongest first: values passed in code (the CLI's options), the environment, the
`.env` file (`CONTRACT_AGENT_ENV_FILE`, default `.env` in the current folder: the file
`langgraph dev` reads too; only its `CONTRACT_AGENT_*` lines are settings), then the defaults.
In every path setting, and in the path parts of the memory URL, `~` and `$VARIABLES` are
expanded, so `CONTRACT_AGENT_HOME=~/.contract-agent` means the home folder wherever it is set.
Every field carries a description: `agent.settings_doc` turns them into the configuration
table of the README (`contract-review config --reference`).
"""

from __future__ import annotations

import os
import re
import types
import typing
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ENV_PREFIX = "CONTRACT_AGENT_"
ENV_FILE_VARIABLE = f"{ENV_PREFIX}ENV_FILE"
DEFAULT_ENV_FILE = ".env"


def expand_path(value: str | Path) -> Path:
    """`~` and `$VARIABLES` expanded (a path relative to the current folder stays relative)."""
    return Path(os.path.expanduser(os.path.expandvars(str(value))))


_URL_PATH = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*):///(?P<path>[^?#]*)")
_QUERY_PATH = re.compile(r"(?P<key>[?&](?:state|path|file)=)(?P<value>[^&#]*)")


def expand_url(url: str) -> str:
    """A memory URL with `$VARIABLES` expanded, and `~` in its local path (`sqlite:///~/m.sqlite`,
    `chroma:///~/dir`) or in a file parameter (`?state=~/state.sqlite`) made absolute."""
    url = os.path.expandvars(url)
    match = _URL_PATH.match(url)
    if match and match["path"].startswith("~"):
        url = f"{match['scheme']}:///{expand_path(match['path'])}{url[match.end():]}"
    return _QUERY_PATH.sub(lambda m: m["key"] + (str(expand_path(m["value"])) if m["value"].startswith("~")
                                                 else m["value"]), url)


def _is_path(annotation: Any) -> bool:
    if annotation is Path:
        return True
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return any(_is_path(arg) for arg in typing.get_args(annotation))
    return False


class Settings(BaseSettings):
    """Every knob of the agent. Environment variables carry the `CONTRACT_AGENT_` prefix,
    e.g. `CONTRACT_AGENT_HOME`, `CONTRACT_AGENT_REVIEWER_MODEL`."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore", validate_default=True)

    home: Path = Field(default=Path("~/.contract-agent"), description=(
        "data folder for everything the agent writes: `memory.sqlite`, `checkpoints.sqlite` (never the "
        "checkpoint key: see `checkpoint_key_file`)"))
    memory_url: str = Field(default="", description=(
        "memory backend: empty = `memory.sqlite` in the data folder; `sqlite:///relative.sqlite` or "
        "`sqlite:////absolute.sqlite`; `chroma:///folder` or `chroma://host:port?state=/path/state.sqlite` "
        "(the `chroma` extra); `aws://?region=...&table_prefix=...&bucket=...&kb_id=...&data_source_id=...` "
        "(the `aws` extra); `postgresql://user:pass@host/db` (LangGraph's PostgresStore, the `postgres` extra); "
        "`langgraph-store://` (the store LangGraph gives a served graph, its default when served)"))
    checkpointer: str = Field(default="memory", description=(
        "`memory`, or `sqlite` (`checkpoints.sqlite` in the data folder, AES-encrypted) for crash-resume"))
    checkpoint_keep_completed_days: float = Field(default=0.0, ge=0, description=(
        "days a COMPLETED review's checkpoints are kept (0: deleted when its episode is written)"))
    checkpoint_keep_unfinished_days: float = Field(default=7.0, ge=0, description=(
        "days a PARTIAL, FAILED or interrupted review's latest checkpoint is kept for `resume`; "
        "`memory decay` deletes it after that"))
    checkpoint_key: str = Field(default="", description=(
        "AES key for SQLite checkpoints, 32, 48 or 64 hex digits; empty = the key file (or the OS keyring: "
        "`checkpoint_key_store`), made once, never in the data folder"))
    checkpoint_key_store: str = Field(default="file", description=(
        "where the checkpoint key is kept when `checkpoint_key` is empty: `file` (`checkpoint_key_file`) or "
        "`keyring` (the OS keyring through the `keyring` package: the `keyring` extra and a usable backend)"))
    checkpoint_key_file: Path | None = Field(default=None, description=(
        "the checkpoint key file of this data folder (owner-only, outside the data folder); unset = "
        "`<checkpoint_key_folder>/<data folder name>-<hash of its path>.key`. A `checkpoint.key` found in the "
        "data folder (before issue 31) is moved there, with a notice"))
    checkpoint_key_folder: Path | None = Field(default=None, description=(
        "the folder of the data folders' checkpoint key files (0700); unset = `$XDG_CONFIG_HOME/contract-agent/keys` "
        "(`~/.config/contract-agent/keys`)"))
    memory_token_key: str = Field(default="", description=(
        "secret that keys the tokens memory keeps instead of a counterparty's name or a contract's layout, "
        "32-128 hex digits; empty = a hash salted with the tenant only (no name is stored, but someone with the "
        "memory and a list of names could test them): set it on servers and shared memory"))
    env_file: Path | None = Field(default=Path(DEFAULT_ENV_FILE), description=(
        "a file of `CONTRACT_AGENT_*=value` lines read below the environment (which wins over it), "
        "relative to the current folder; empty = none. This one setting is read from the environment only"))

    api_keys_file: Path | None = Field(default=None, description=(
        "the served graph's API keys, one `<tenant> <key name> sha256:<digest>` line each "
        "(`contract-review keys add` writes them); unset = `api-keys` in the data folder. No key anywhere: "
        "a served graph runs in local mode (loopback callers only, all as `_TENANT`)"))
    api_keys: str = Field(default="", description=(
        "API key lines as in the keys file, separated by newlines or `;` (for deployments without files)"))
    tenant: str = Field(default="default", description="tenant id, `[a-z0-9][a-z0-9_.-]*`")
    agent: str = Field(default="contract-reviewer", description="agent id, `[a-z0-9][a-z0-9_.-]*`")
    task_type: str = Field(default="supplier_contract_review", description="task type that procedures are kept for")
    domain: str = Field(default="supplier_contracts", description="domain of the facts a review reads and proposes")

    model: str = Field(default="offline", description=(
        "the chat model of every role without its own setting (`--model`): `offline` (the deterministic "
        "stand-in), `realistic[:seed]` (a scripted stand-in that slips like a small model), `bedrock:<model or "
        "inference profile id>` (the `aws` extra), `ollama:<name>` (the `ollama` extra), a LangChain "
        "`<provider>:<model>` (`openai:gpt-4o-mini`; the provider's package) or `package.module:factory` "
        "returning a BaseChatModel (docs/BEDROCK.md)"))
    reviewer_model: str | None = Field(default=None, description=(
        "the tool-calling reviewer's own model; unset = `model`; same forms"))
    compression_model: str | None = Field(default=None, description=(
        "the model that writes working-memory summaries; unset = `model`"))
    extraction_model: str | None = Field(default=None, description=(
        "the model that extracts what a run leaves in memory; unset = `model`"))
    embeddings: str = Field(default="wordllama", description=(
        "`wordllama` (bundled, offline), `hash[:dim]`, `bedrock:amazon.titan-embed-text-v2:0`, `ollama:<name>`; "
        "a change of model needs `memory reembed`"))
    pii_scrubber: str = Field(default="local", description=(
        "PII scrubbing before every durable write: `local` (offline recognizers) or `comprehend` (Amazon "
        "Comprehend, in chunks of 5,000 characters)"))
    bedrock_region: str = Field(default="us-east-1", description="AWS region of Bedrock and Comprehend")
    bedrock_max_attempts: int = Field(default=8, ge=1, description=(
        "attempts per Bedrock call: throttling, model and read timeouts and 5xx are retried with backoff, "
        "each retry announced on stderr"))
    bedrock_read_timeout: float | None = Field(default=None, gt=0, description=(
        "seconds to wait for a Bedrock answer; unset = sized to the role's output budget (60 s + 1 s per 20 "
        "tokens: 265 s for the reviewer)"))
    bedrock_endpoint_url: str | None = Field(default=None, description=(
        "a Bedrock Runtime endpoint of your own (VPC endpoint, proxy); unset = the region's"))
    context_window: int | None = Field(default=None, gt=0, description=(
        "the chat model's context window in tokens; unset = what the model declares (Ollama's num_ctx, a "
        "LangChain model profile), else 32,000. Working memory is compressed to fit it"))
    ollama_num_ctx: int = Field(default=16384, ge=2048, description=(
        "context window sent with every Ollama request (Ollama's own default silently cuts long prompts)"))

    # working memory (design: compress past 30 messages, keep the 15 most recent others), and past
    # a token budget too, whichever comes first
    compress_threshold: int = Field(default=30, description="working memory is compressed past this many messages")
    compress_keep_recent: int = Field(default=15, description=(
        "messages a compression keeps verbatim (the most recent ones; system messages are always kept)"))
    compress_max_tokens: int | None = Field(default=None, gt=0, description=(
        "working memory is also compressed past this many tokens; unset = derived from the context window"))
    compress_min_summary_chars: int = Field(default=200, ge=0, description=(
        "a working-memory summary shorter than this (or than a twentieth of what it replaces, if less) is "
        "rejected and the graph's own digest of the run (findings, open clause types) stands in for it"))
    # the reviewer's loop
    max_model_steps: int | None = Field(default=None, ge=1, description=(
        "the reviewer's budget of model steps in one review; unset = `steps_per_clause_type` per clause type "
        "of the playbook + 10 (170 for 20 types)"))
    steps_per_clause_type: int = Field(default=8, ge=1, description="model steps budgeted per clause type")
    max_nudges: int = Field(default=6, ge=0, description=(
        "turns in a row without a tool call (prose or nothing) after which a review with clause types still open "
        "stops before its step budget; each such turn is answered with what is open and the call to make next"))

    # episodic
    episode_ttl_days: int = Field(default=90, description="episodes expire after this many days")
    episode_top_k: int = Field(default=3, description="past episodes put in the memory block, at most")
    episode_min_score: float | None = Field(default=None, description=(
        "cosine similarity an episode needs; unset = calibrated for the embedding model (0.25 wordllama, "
        "0.75 Titan v2): set it for another model (docs/CALIBRATION.md)"))
    # semantic
    fact_top_k: int = Field(default=5, description="domain facts put in the memory block, at most")
    fact_min_score: float | None = Field(default=None, description=(
        "similarity a fact needs; unset = calibrated for the embedding model (0.15 wordllama, 0.6 Titan v2)"))
    fact_min_confidence: float = Field(default=0.7, description="a proposed fact needs this confidence")
    fact_confirmations: int = Field(default=3, description="distinct runs that must observe a fact before it is stored")
    # procedural
    procedure_trial_uses: int = Field(default=3, description=(
        "a validated procedure is served on trial until it has this many uses"))
    # decay
    failed_episode_days: int = Field(default=7, description="`memory decay` deletes FAILED episodes older than this")
    procedure_stale_days: int = Field(default=60, description=(
        "`memory decay` flags procedures not updated for this many days"))
    procedure_min_uses: int = Field(default=3, description=(
        "`memory decay` also flags procedures applied this many times or more with a success rate below "
        "`_PROCEDURE_MIN_SUCCESS_RATE`"))
    procedure_min_success_rate: float = Field(default=0.6, description=(
        "that rate; a procedure past its trial needs at least this rate to be served"))

    max_input_bytes: int = Field(default=20 * 1024 * 1024, description="contracts larger than this are refused")
    contract_time_budget_s: float = Field(default=600.0, ge=0, description=(
        "seconds one contract's review may take, reading the file included; past it the review stops with "
        "exit 2 and one line (a pathological contract, a model that never finishes). 0: no budget"))
    cuad_dir: Path | None = Field(default=None, description=(
        "CUAD-style folder (`contracts/*.txt`, `labels.jsonl`) for `bench cuad`; unset = `../shared/cuad`"))

    @field_validator("*", mode="before")
    @classmethod
    def _expand(cls, value: Any, info: ValidationInfo) -> Any:
        """`~` and `$VARIABLES` in every path setting and in the memory URL's paths."""
        if not isinstance(value, str | Path) or info.field_name is None:
            return value
        annotation = cls.model_fields[info.field_name].annotation
        if _is_path(annotation):
            if str(value).strip():
                return expand_path(value)
            if annotation is Path:
                raise ValueError("a path is needed here, not an empty value")
            return None  # an optional path set empty: unset
        if info.field_name.endswith("_url") and isinstance(value, str):
            return expand_url(value)
        return value

    def __init__(self, **values: Any) -> None:
        # The .env file is read on every construction (pydantic-settings' dotenv source, below the
        # environment); its name can only come from the environment.
        values.setdefault("_env_file", env_file_path())
        super().__init__(**values)

    def model_spec(self, role: str) -> str:
        """The chat model spec for a role: its own setting if given, else the one for all."""
        own = {"reviewer": self.reviewer_model, "compression": self.compression_model,
               "extraction": self.extraction_model}.get(role)
        return own or self.model

    def step_budget(self, clause_types: int) -> int:
        """Model turns the reviewer may take for a playbook of `clause_types` types."""
        if self.max_model_steps is not None:
            return self.max_model_steps
        return self.steps_per_clause_type * max(1, clause_types) + 10

    @property
    def sqlite_path(self) -> Path:
        return self.home / "memory.sqlite"

    @property
    def checkpoint_path(self) -> Path:
        return self.home / "checkpoints.sqlite"

    @property
    def keys_path(self) -> Path:
        """The API keys file: the one named, else `api-keys` in the data folder (absent = no keys)."""
        return self.api_keys_file or self.home / "api-keys"

    def resolved_memory_url(self) -> str:
        return self.memory_url or f"sqlite:///{self.sqlite_path}"


def env_file_path() -> Path | None:
    """The `.env` file the CLI reads: `CONTRACT_AGENT_ENV_FILE`, else `.env` in the current folder;
    None when that variable is set empty."""
    name = os.environ.get(ENV_FILE_VARIABLE, DEFAULT_ENV_FILE)
    return expand_path(name) if name.strip() else None


def setting_source(name: str) -> str:
    """Where the value of setting `name` comes from: 'environment', the `.env` file, or 'default'
    (values passed in code, such as the CLI's options, are not seen here)."""
    variable = ENV_PREFIX + name.upper()
    if variable in os.environ:
        return "environment"
    path = env_file_path()
    if path is not None and path.is_file():
        from dotenv import dotenv_values

        if variable in {key.upper() for key in dotenv_values(path)}:
            return str(path)
    return "default"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings (tests build their own `Settings(...)` instead)."""
    return Settings()
