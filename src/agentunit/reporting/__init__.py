"""Reports: console summary, JSON (contract), JUnit, Markdown, HTML."""

from agentunit.reporting.console import print_summary
from agentunit.reporting.html import write_html
from agentunit.reporting.json_report import report_dict, write_json
from agentunit.reporting.junit import write_junit
from agentunit.reporting.markdown import write_markdown

__all__ = ["print_summary", "report_dict", "write_html", "write_json", "write_junit", "write_markdown"]
