"""An offline weather agent served over HTTP whose replies carry `trusys.tool_calls`, `plan` and
`agent_calls` — the weather-tool example of the published format, for the agentic metrics. Each call
carries `seq`, its place in the run, so the order between tool calls and agent calls is observed.

Run it:  python -m examples.weather_agent --port 8766
Test it: WEATHER_AGENT_PORT=8766 agentunit run examples/weather_agentic.yaml
"""

from __future__ import annotations

import argparse
import re
from typing import Any

from examples._serve import serve

CITIES = {"paris": (48.86, 2.35, "18°C and sunny"), "london": (51.51, -0.13, "12°C and raining"),
          "tokyo": (35.68, 139.69, "22°C and cloudy")}


def answer(prompt: str) -> dict[str, Any]:
    """Plan, call geocode then get_weather for each city named, hand the results to a writer agent."""
    cities = [c for c in CITIES if re.search(rf"\b{c}\b", prompt.lower())]
    plan = ["find the city", "call geocode", "call get_weather", "ask the writer agent for the reply"]
    tool_calls, lines = [], []
    for city in cities:
        lat, lon, report = CITIES[city]
        tool_calls.append({"name": "geocode", "description": "Coordinates of a city", "seq": len(tool_calls),
                           "arguments": {"city": city.title()}, "output": {"lat": lat, "lon": lon}})
        tool_calls.append({"name": "get_weather", "description": "Current weather at coordinates",
                           "seq": len(tool_calls), "arguments": {"lat": lat, "lon": lon}, "output": report})
        lines.append(f"In {city.title()} it is {report}.")
    if not cities:
        return {"output": "I can only tell the weather for Paris, London or Tokyo.",
                "trusys": {"query": prompt, "plan": ["find the city", "apologise"], "tool_calls": []}}
    text = " ".join(lines)
    agent_calls = [{"name": "writer", "description": "Writes the final reply", "seq": len(tool_calls),
                    "input": text, "output": text}]
    return {"output": text, "trusys": {"query": prompt, "plan": plan, "tool_calls": tool_calls,
                                       "agent_calls": agent_calls}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8766)
    serve(answer, parser.parse_args().port, "weather agent")


if __name__ == "__main__":
    main()
