"""Running a suite's cases beyond this process (docs/scale-out.md).

``RayExecutor`` sends batches of cases to an actor pool on a Ray cluster; the engine stores what comes
back exactly as it stores its own cases. Importing this package does not import Ray.
"""

from agentunit.scale.ray_executor import RayExecutor, RayRunStats

__all__ = ["RayExecutor", "RayRunStats"]
