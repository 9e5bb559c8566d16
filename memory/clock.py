"""The clock memory trusts: what a timestamp may be, and what to do with one that cannot be right.

Every record carries the wall-clock time it was written (`created_at`, and `expires_at` from it)
and, for episodes, the store's run counter (`Episode.run_seq`: 1, 2, 3 ... per store, taken in the
write's own transaction where the backend has transactions). The wall clock can be wrong; the
counter cannot go backwards. So:

* a clock outside `EARLIEST` .. `LATEST` (before 2000, a machine whose clock was reset to 1970 or
  earlier, or centuries ahead) is refused with one line (`ClockError`, a configuration error:
  exit 3 at the CLI), before anything is written with it;
* an episode dated before the newest one already stored was written by a clock running behind:
  it is dated as the newest one (`memory.episodic.remember`), so it does not land already
  expired, and the run says so in its warnings;
* `memory decay` reads a timestamp ahead of its own clock (beyond `FUTURE_SLACK`) as written now,
  rewrites it so (its time to live kept) and reports it; it never deletes the episode of the last
  run by the counter, whatever the clocks said.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory.errors import MemoryConfigError

EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)
# clocks of two machines (a CLI and a Lambda, two servers) disagree by seconds: not a skew
FUTURE_SLACK = timedelta(minutes=10)


class ClockError(MemoryConfigError):
    """The clock gives a time no record may carry (before 2000, or after 2200)."""


def aware(moment: datetime) -> datetime:
    """`moment` with a time zone: a naive one is read as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def checked(moment: datetime, source: str = "the system clock") -> datetime:
    """`moment` (as UTC-aware) if a record may carry it, else ClockError naming `source`."""
    moment = aware(moment)
    if not EARLIEST <= moment < LATEST:
        raise ClockError(
            f"{source} reads {moment.strftime('%Y-%m-%d %H:%M:%S')} UTC, outside {EARLIEST.year}-{LATEST.year}: "
            "set the clock (memory would be dated and expired by it); nothing was written")
    return moment


def now() -> datetime:
    """The system clock, checked."""
    try:
        moment = datetime.now(UTC)
    except (OverflowError, OSError, ValueError) as exc:  # a clock C cannot represent
        raise ClockError(f"the system clock cannot be read as a date ({exc}): set the clock") from None
    return checked(moment)
