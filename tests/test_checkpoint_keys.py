"""The checkpoint key (issue 32): a wrong key or a lost key file is named in one line (exit 3),
never an "internal error: MAC check failed", and a lost key file is never silently replaced by a
new one that leaves the existing checkpoints unreadable."""

from __future__ import annotations

import pytest

from agent.settings import Settings
from cli.main import main
from graphs.runner import Reviewer, open_checkpointer
from tests.conftest import SAMPLES
from tests.test_graph_runtime import CrashingReviewer


def _interrupt(home) -> Settings:
    """Leave the checkpoint of an interrupted review (run "cut") in `home`, with the key in force."""
    settings = Settings(home=home, checkpointer="sqlite")
    with open_checkpointer(settings) as saver:
        crashing = Reviewer(settings, saver, reviewer_model=CrashingReviewer(model="offline-reviewer"))
        with pytest.raises(ConnectionError):
            crashing.review_path(SAMPLES / "kestrel_supply_02.txt", thread_id="cut")
    return settings


@pytest.fixture
def interrupted(home, monkeypatch) -> Settings:
    """A data folder holding the checkpoint of an interrupted review, written with the key file."""
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINTER", "sqlite")
    monkeypatch.delenv("CONTRACT_AGENT_CHECKPOINT_KEY", raising=False)
    return _interrupt(home)


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


@pytest.mark.parametrize("command", [["resume", "cut"], ["review", str(SAMPLES / "northwind_msa_02.txt")]])
def test_another_key_in_the_environment_is_named(interrupted, capsys, monkeypatch, command):
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEY", "ab" * 32)
    assert main([*command, "--home", str(interrupted.home)]) == 3
    err = _one_line(capsys)
    assert "another key" in err and "CONTRACT_AGENT_CHECKPOINT_KEY" in err and "MAC" not in err


def test_a_deleted_key_file_is_not_replaced_while_checkpoints_need_it(interrupted, capsys):
    from graphs.keys import key_file as key_file_of

    key_file = key_file_of(interrupted)
    saved = key_file.read_bytes()
    key_file.unlink()
    assert main(["resume", "cut", "--home", str(interrupted.home)]) == 3
    err = _one_line(capsys)
    assert str(key_file) in err and "missing" in err
    assert not key_file.exists()  # no new key was made
    key_file.write_bytes(saved)  # restored: the run resumes
    key_file.chmod(0o600)
    assert main(["resume", "cut", "--home", str(interrupted.home), "--format", "json"]) == 0


def test_keys_add_makes_a_new_data_folder_owner_only(tmp_path, capsys):
    home = tmp_path / "new-home"
    assert main(["keys", "add", "--tenant", "acme", "--name", "ci", "--home", str(home)]) == 0
    assert home.stat().st_mode & 0o777 == 0o700  # issue 32: was 0755


# ---------------------------------------------------------------- the key is not kept beside the data (issue 31)

def _key_forms(key: bytes) -> list[bytes]:
    import base64

    return [key, key.hex().encode(), key.hex().upper().encode(), base64.b64encode(key), base64.b64encode(key).rstrip(b"=")]


def _files_holding(folder, key: bytes) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*") if p.is_file() and any(f in p.read_bytes() for f in _key_forms(key)))


def test_after_a_review_with_sqlite_checkpoints_no_byte_of_the_key_is_in_the_data_folder(interrupted, home, tmp_path):
    from graphs.runner import checkpoint_key

    # an interrupted run keeps its checkpoints, a finished one's are deleted: both leave the key behind
    assert main(["review", str(SAMPLES / "northwind_msa_02.txt"), "--home", str(home), "--format", "json"]) == 0
    key = checkpoint_key(Settings(home=home))
    assert len(key) == 32 and (home / "checkpoints.sqlite").exists()
    assert _files_holding(home, key) == []  # was: checkpoint.key, the whole key, beside the checkpoints
    from graphs.keys import key_file

    where = key_file(Settings(home=home))
    assert where.read_bytes() == key and not where.is_relative_to(home)
    assert where.is_relative_to(tmp_path / "config" / "contract-agent" / "keys")  # the user's config folder (XDG)
    assert where.stat().st_mode & 0o777 == 0o600 and where.parent.stat().st_mode & 0o777 == 0o700
    assert main(["resume", "cut", "--home", str(home), "--format", "json"]) == 0  # and it is the key in use


def test_two_data_folders_get_two_keys_and_a_folder_and_file_setting_are_followed(tmp_path, monkeypatch):
    from graphs.runner import checkpoint_key

    first, second = Settings(home=tmp_path / "a" / "data"), Settings(home=tmp_path / "b" / "data")
    assert checkpoint_key(first) != checkpoint_key(second)
    assert checkpoint_key(first) == checkpoint_key(Settings(home=tmp_path / "a" / ".." / "a" / "data"))
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEY_FOLDER", str(tmp_path / "vault"))
    third = Settings(home=tmp_path / "c")
    key = checkpoint_key(third)
    assert [p.read_bytes() for p in (tmp_path / "vault").iterdir()] == [key]
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEY_FILE", str(tmp_path / "secrets" / "ck.key"))
    assert checkpoint_key(Settings(home=tmp_path / "d")) == (tmp_path / "secrets" / "ck.key").read_bytes()


def _legacy_folder(home, monkeypatch) -> bytes:
    """A data folder as an earlier version left it: an interrupted run, its key in `checkpoint.key`."""
    key = bytes(range(1, 33))
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINTER", "sqlite")
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEY", key.hex())
    _interrupt(home)
    monkeypatch.delenv("CONTRACT_AGENT_CHECKPOINT_KEY")
    (home / "checkpoint.key").write_bytes(key)
    (home / "checkpoint.key").chmod(0o600)
    return key


def test_a_key_file_left_in_the_data_folder_is_moved_out_with_one_notice(home, monkeypatch, capsys):
    from graphs.keys import key_file

    key = _legacy_folder(home, monkeypatch)
    assert main(["resume", "cut", "--home", str(home), "--format", "json"]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if "checkpoint key" in line]
    assert len(err) == 1 and "moved" in err[0] and str(key_file(Settings(home=home))) in err[0]
    assert not (home / "checkpoint.key").exists()
    assert key_file(Settings(home=home)).read_bytes() == key
    assert _files_holding(home, key) == []
    assert main(["review", str(SAMPLES / "northwind_msa_02.txt"), "--home", str(home), "--format", "json"]) == 0
    assert "checkpoint key" not in capsys.readouterr().err  # once


def test_a_key_file_in_the_data_folder_beside_an_environment_key(home, monkeypatch, capsys):
    key = _legacy_folder(home, monkeypatch)
    review = ["review", str(SAMPLES / "northwind_msa_02.txt"), "--home", str(home), "--format", "json"]
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEY", "ab" * 32)  # another key: the file is not silently kept
    assert main(review) == 3
    err = _one_line(capsys)
    assert "another checkpoint key" in err and "mv " in err and str(home / "checkpoint.key") in err
    assert (home / "checkpoint.key").read_bytes() == key  # nothing destroyed
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEY", key.hex())  # the same key: the copy goes
    assert main(review) == 0
    assert "removed the copy" in capsys.readouterr().err
    assert _files_holding(home, key) == []


def test_two_different_keys_inside_and_outside_the_folder_stop_the_command(home, monkeypatch, capsys):
    from graphs.keys import key_file

    key = _legacy_folder(home, monkeypatch)
    outside = key_file(Settings(home=home))
    outside.parent.mkdir(parents=True)
    outside.write_bytes(b"\x07" * 32)
    assert main(["resume", "cut", "--home", str(home)]) == 3
    assert "another checkpoint key" in _one_line(capsys)
    assert (home / "checkpoint.key").read_bytes() == key and outside.read_bytes() == b"\x07" * 32


def test_a_key_file_set_inside_the_data_folder_is_refused(home, monkeypatch, capsys):
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINTER", "sqlite")
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEY_FILE", str(home / "keys" / "ck.key"))
    assert main(["review", str(SAMPLES / "northwind_msa_02.txt"), "--home", str(home)]) == 3
    assert "inside the data folder" in _one_line(capsys)
    assert not (home / "keys" / "ck.key").exists()


def test_a_moved_data_folder_says_where_its_old_key_is(interrupted, tmp_path, capsys):
    moved = tmp_path / "moved-home"
    interrupted.home.rename(moved)
    assert main(["resume", "cut", "--home", str(moved)]) == 3
    err = _one_line(capsys)
    assert "missing" in err and "CONTRACT_AGENT_CHECKPOINT_KEY_FILE" in err and "old folder's name" in err


def test_the_keyring_store_without_a_usable_keyring_is_a_clear_error(home, monkeypatch, capsys):
    import importlib.util

    if importlib.util.find_spec("keyring") is not None:
        from keyring.backends import fail

        monkeypatch.setattr("keyring.get_keyring", lambda: fail.Keyring())
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINTER", "sqlite")
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEY_STORE", "keyring")
    assert main(["review", str(SAMPLES / "northwind_msa_02.txt"), "--home", str(home)]) == 3
    err = _one_line(capsys)
    assert "keyring" in err and "checkpoint_key_store=file" in err


def test_keys_checkpoint_says_where_the_key_is_and_moves_a_left_one_out(home, monkeypatch, capsys):
    import json

    from graphs.keys import key_file

    assert main(["keys", "checkpoint", "--home", str(home), "--format", "json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status == {"source": "file", "location": str(key_file(Settings(home=home))), "exists": False}
    key = _legacy_folder(home, monkeypatch)
    assert main(["keys", "checkpoint", "--home", str(home)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == f"file\t{key_file(Settings(home=home))}" and "moved" in captured.err
    assert key.hex() not in captured.out + captured.err and _files_holding(home, key) == []
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEY", key.hex())
    assert main(["keys", "checkpoint", "--home", str(home), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["source"] == "environment"


class _MemoryKeyring:
    """An OS keyring stand-in (the real backends need a desktop session): keyring's own backend
    interface, holding its entries in a dict."""

    def __new__(cls):
        from keyring.backend import KeyringBackend

        class Ring(KeyringBackend):
            priority = 1
            entries: dict = {}

            def get_password(self, service, username):
                return self.entries.get((service, username))

            def set_password(self, service, username, password):
                self.entries[(service, username)] = password

            def delete_password(self, service, username):
                self.entries.pop((service, username), None)

        return Ring()


def test_the_keyring_store_keeps_one_key_per_data_folder_and_takes_a_left_key_file(home, tmp_path, monkeypatch, capsys):
    keyring = pytest.importorskip("keyring")
    from graphs.keys import key_folder
    from graphs.runner import checkpoint_key

    ring = _MemoryKeyring()
    monkeypatch.setattr(keyring, "get_keyring", lambda: ring)
    monkeypatch.setattr(keyring, "get_password", ring.get_password)
    monkeypatch.setattr(keyring, "set_password", ring.set_password)
    monkeypatch.setenv("CONTRACT_AGENT_CHECKPOINT_KEY_STORE", "keyring")
    key = _legacy_folder(home, monkeypatch)  # a folder with a key file left in it: moved into the keyring
    assert main(["resume", "cut", "--home", str(home), "--format", "json"]) == 0
    assert "moved" in capsys.readouterr().err and list(ring.entries.values()) == [key.hex()]
    assert _files_holding(home, key) == [] and not key_folder(Settings(home=home)).exists()  # no file made
    other = checkpoint_key(Settings(home=tmp_path / "other"))
    assert other != key and len(ring.entries) == 2
    assert checkpoint_key(Settings(home=tmp_path / "other")) == other
