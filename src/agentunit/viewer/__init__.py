"""``agentunit view``: a local, read-only web viewer of the results database (docs/viewer.md).

Pages: runs (with each metric's pass-rate trend), a run (per-metric pass rates with Wilson intervals, a
filterable, searchable case grid paged from the database), a case (prompt, output, metrics, envelope)
and a comparison of two runs. Standard library only: ``http.server`` and ``sqlite3``.
"""

from agentunit.viewer.queries import ViewerError
from agentunit.viewer.server import ViewerServer, make_server, serve

__all__ = ["ViewerError", "ViewerServer", "make_server", "serve"]
