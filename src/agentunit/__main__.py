from agentunit.cli import program

program()
