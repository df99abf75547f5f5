"""A long tool, for progress and Stop:

- `slow_count(n=5, step_ms=100)`: counts to `n` (at most 10,000), one step every
  `step_ms` milliseconds (at most 10,000), and after each step reports
  `notifications/progress` (`progress` = the count, `total` = `n`, `message`
  `Counted {i} of {n}`) when the request carried a `progressToken` (the SDK sends none
  otherwise). Returns `counted to {n}`. A call stopped by the client (legacy:
  `notifications/cancelled`; modern: the closed stream) ends where it was.
"""

from __future__ import annotations

import anyio
from mcp.server.mcpserver import Context

MAX_COUNT = 10_000
MAX_STEP_MS = 10_000


async def slow_count(ctx: Context, n: int = 5, step_ms: int = 100) -> str:
    """Counts to n slowly, reporting progress at each step."""
    n = max(1, min(n, MAX_COUNT))
    step_ms = max(0, min(step_ms, MAX_STEP_MS))
    for i in range(1, n + 1):
        await anyio.sleep(step_ms / 1000)
        await ctx.report_progress(i, n, f"Counted {i} of {n}")
    return f"counted to {n}"
