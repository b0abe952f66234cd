"""Run many independent jobs -- games of a contest, matches of a tournament -- and survive anything.

A *job* is any picklable value (a game's spec); a *job function* is a top-level function that
turns one job into a *row*, a dict of JSON values (one line of a results table).  ``run_batch``
runs them

* in worker processes on this machine (``workers=N``, :mod:`engine.batch.pool`), or on a Dask
  distributed cluster (``cluster="tcp://host:8786"`` or ``"local:N"``, :mod:`engine.batch.cluster`);
* so that a worker that dies (out of memory, killed, or an AI program that kills its parent)
  loses only its own job, which gets the row ``lost(job, reason)``;
* appending each finished row to a :class:`~engine.batch.journal.Journal` at once (fsync'd), so
  that ``kill -9`` loses at most the jobs in flight, and a resumed run plays only the missing ones.

Nothing here knows about robots: ``engine.contest`` and the Tron tournament build on it.
"""

from engine.batch.journal import Journal, JournalError
from engine.batch.run import BatchLost, BatchStopped, run_batch

__all__ = ["BatchLost", "BatchStopped", "Journal", "JournalError", "run_batch"]
