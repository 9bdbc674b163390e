from agentunit.cli import main

main()
